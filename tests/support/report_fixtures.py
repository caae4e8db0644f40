"""Report files of a bundled track session, compared byte for byte with a saved copy.

Each track's ``test_reports_unchanged.py`` scores the bundled data of its track the way ``atlbench
validate`` does (the pytest session's code path), writes the track's report files and ``index.html``, and
compares them, normalised, with ``data/reports-before/``: the timestamp, commit and version lines, the
checkout's path and the figures' pixels are normalised (pixels depend on matplotlib's version; the
figures' presence is checked, their bytes are not). Files too large to keep (one line per judged answer)
are compared by their SHA-256. A change that alters the reports on purpose regenerates the copy with
``ATLBENCH_REGENERATE_FIXTURES=1 pytest tests/tracks/NAME/test_reports_unchanged.py`` in the same commit.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from benchmark.core.options import LIST
from benchmark.core.registry import track_class
from benchmark.harness.options import VALIDATION_ROOT, read_session_options
from benchmark.harness.session import Harness

REPO = Path(__file__).resolve().parents[2]
REGENERATE = os.environ.get("ATLBENCH_REGENERATE_FIXTURES") == "1"


def track_harness(name: str, root: Path, **given: str) -> Harness:
    """A harness of the one track ``name`` on ``root``, options given by ``dest`` (text, as typed)."""
    cls = track_class(name)

    def read(option):
        if option is VALIDATION_ROOT:
            return str(root), Path.cwd()
        default = () if option.kind == LIST else option.default
        return given.get(option.dest, default), Path.cwd()

    return Harness(read_session_options(read, [cls]), {name: cls}, cache_dir=None)


def write_session(name: str, out: Path) -> Path:
    """Score the bundled data of track ``name``, write its reports into ``out``, and its terminal lines
    (the session's summary, then what ``atlbench report`` prints) into ``out/terminal.txt``."""
    harness = track_harness(name, REPO / "validation")
    rows, problems = harness.score_all([name])
    assert problems == []
    results = harness.build_results(rows)
    lines: list[str] = []
    for heading, summary in harness.summary_lines(results, verbose=True):
        lines += [f"== {heading}", *summary]
    from benchmark.reports import write_session_reports

    write_session_reports(
        results, out, harness.tracks, on_report=lambda _, report: lines.extend(["== report", *report.lines])
    )
    (out / "terminal.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def normalise(text: str) -> str:
    text = text.replace(str(REPO / "validation"), "<VALIDATION>").replace(str(REPO), "<REPO>")
    text = re.sub(r"Results (file )?created [^<\n]*", "Results created <WHEN>", text)
    text = re.sub(r"<p>Versions: [^<]*</p>", "<p>Versions: <VERSIONS></p>", text)
    text = re.sub(r"wrote /[^\n]*/([^/\n]+)\n", r"wrote <OUT>/\1\n", text)
    return re.sub(r"data:image/svg\+xml;base64,[A-Za-z0-9+/=]+", "data:image/svg+xml;base64,<FIGURE>", text)


def compare_file(written: Path, saved: Path, name: str, *, digest: bool = False) -> None:
    """``written/name``, normalised, against ``saved/name`` (or ``saved/name.sha256`` with ``digest``)."""
    now = normalise((written / name).read_text(encoding="utf-8"))
    kept = saved / (f"{name}.sha256" if digest else name)
    value = hashlib.sha256(now.encode("utf-8")).hexdigest() + "\n" if digest else now
    if REGENERATE:
        saved.mkdir(parents=True, exist_ok=True)
        kept.write_text(value, encoding="utf-8")
    assert value == kept.read_text(encoding="utf-8"), f"{name} differs from {kept}"
