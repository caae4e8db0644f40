"""Registering the tracks stays cheap: every session (and every xdist worker) imports each registered track
to add its options, so a track's module must not import its study's code (docs/TRACKS.md). A mapping-only
session then never loads the OCL library, pyecore or lxml for the round-trip and OCL tracks."""

from __future__ import annotations

import subprocess
import sys
import textwrap

#: what the tracks need only when they run (matplotlib: only when a report draws a figure)
HEAVY = (
    "benchmark.lang.ocl.compiler",
    "benchmark.tracks.ocl.scoring.judge",
    "benchmark.tracks.roundtrip.scoring.scorer",
    "lxml",
    "matplotlib",
)

PROBE = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    from benchmark.core.options import LIST
    from benchmark.core.registry import track_classes
    from benchmark.harness.options import all_options

    tracks = track_classes()
    assert {t.name for t in tracks} >= {"atl", "ocl", "roundtrip"}, [t.name for t in tracks]
    for option in all_options(tracks):
        default = [option.default] if option.kind == LIST and option.default else option.default
        option.convert(default, Path.cwd())  # what a session does with every default
    print(" ".join(m for m in HEAVY if m in sys.modules))
    """
)


def test_loading_every_track_with_its_option_defaults_imports_no_study_code() -> None:
    code = f"HEAVY = {HEAVY!r}\n{PROBE}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"imported while registering the tracks: {done.stdout.strip()}"
