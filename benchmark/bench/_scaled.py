"""The bundled data of every track at k times its runs, for ``python -m benchmark.bench session --scales``.

At 1x the session reads the bundled data where it is (no option: the user's command). At kx (k > 1) the
three tracks' data are copied to a temporary folder and (k-1) times the bundled study-template synthetic
runs are added, with the tracks' own synthetic writers (seeded, so every k gives the same files):

* mapping: ``Synthetic-Scale`` runs (the ``Synthetic-Noisy`` profile), (k-1) per bundled run file of each
  transformation, in ``runs-scale/``;
* OCL: the study profiles (:data:`benchmark.tracks.ocl.synth.PROFILES`) with (k-1) times their runs under
  new run names (``scale01``...), every mode;
* round-trip: runs 2..k of the bundled synthetic profiles and example counts.

The prompt-template runs are not multiplied, so a "kx" session has somewhat fewer than k times the cases;
the bench counts the cases pytest ran and reports costs per case. Only the tracks the timed rows run are
copied (``--rows mapping --scales 1,10``: the mapping track's data alone).
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from benchmark.bench._session_plan import ScaledRoots


def scaled_roots(
    validation_root: Path, target: Path, scale: int, rows: Sequence[str] = ("all",)
) -> ScaledRoots:
    """The data roots of a session at ``scale`` x the runs, built under ``target`` for the tracks the
    ``rows`` run (``all``: every track; nothing at 1x)."""
    if scale <= 1:
        return ScaledRoots(scale)
    target.mkdir(parents=True, exist_ok=True)
    wanted = {"mapping", "ocl", "roundtrip"} if "all" in rows else set(rows)
    return ScaledRoots(
        scale,
        mapping=_mapping(validation_root, target / "atl", scale) if "mapping" in wanted else None,
        ocl=_ocl(target / "ocl", scale) if "ocl" in wanted else None,
        roundtrip=_roundtrip(target / "roundtrip", scale) if "roundtrip" in wanted else None,
    )


def _mapping(source: Path, target: Path, scale: int) -> Path:
    from benchmark.tracks.mapping.discovery import discover
    from benchmark.tracks.mapping.synth import PROFILES, write_synthetic_runs

    target.mkdir()
    discovery = discover(source)
    for folder in discovery.transformations:
        shutil.copytree(folder.path, target / folder.name)
    noise = replace(PROFILES["Synthetic-Noisy"], name="Synthetic-Scale")
    for folder in discovery.transformations:
        extra = max(1, len(folder.suggestion_files)) * (scale - 1)
        write_synthetic_runs(target / folder.name, profiles=[noise], runs=extra, out_dir="runs-scale")
    return target


def _ocl(target: Path, scale: int) -> Path:
    from benchmark.tracks.ocl.dataset import load_dataset
    from benchmark.tracks.ocl.synth import PROFILES, write_synthetic_runs

    shutil.copytree(load_dataset(None).root, target)
    profiles = [
        replace(p, runs=tuple(f"scale{i:02d}" for i in range(1, len(p.runs) * (scale - 1) + 1)))
        for p in PROFILES
    ]
    write_synthetic_runs(load_dataset(target), profiles=profiles)
    return target


def _roundtrip(target: Path, scale: int) -> Path:
    from benchmark.tracks.roundtrip.study.load import load_study
    from benchmark.tracks.roundtrip.study.manifest import default_data_dir
    from benchmark.tracks.roundtrip.synth import write_synthetic_runs

    shutil.copytree(default_data_dir(), target)
    write_synthetic_runs(load_study(target), runs=scale)
    return target
