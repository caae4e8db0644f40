"""Broken and hostile inputs of the round-trip track, all in one real pytest session (docs/ROUNDTRIP.md
§13, "Missing, unusable, excluded"): each gives one positioned message naming its file; a hostile answer is
the model's and is scored as it reads (its case passes, the tables count it), a run file that cannot be
read fails its own case and is excluded, a stage without answer is missing; every other case still runs.

Answers of the inverse stage of library/to_many: two documents, no document, a DTD, a cut-off document,
the other side's metamodel (a SQL schema where an Ecore model is asked for), and a clean one; run files
that are cut-off JSON, Latin-1 text and 50 MB (made here, sparse, never committed: refused by size).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmark.core.results import Results
from benchmark.tracks.roundtrip.study.manifest import default_data_dir

pytest_plugins = ("pytester",)

REPO = Path(__file__).resolve().parents[3]
DATA = default_data_dir()

CASES = """
import pytest

pytestmark = pytest.mark.atlbench_track("roundtrip")


def test_ground_truth(atlbench_ground_truth):
    atlbench_ground_truth.check()


def test_run(atlbench_run):
    atlbench_run.score()
"""


def _answers() -> dict[str, str]:
    model = (DATA / "Delta_to_many_S_library.ecore").read_text(encoding="utf-8")
    prolog, body = model.split("\n", 1)
    return {
        "two documents": f"First try:\n```xml\n{model}\n```\nBetter:\n```xml\n{model}\n```\n",
        "no document": "I cannot write S' for this schema.",
        "a DTD": f'{prolog}\n<!DOCTYPE x [<!ENTITY e "boom">]>\n{body}',
        "a cut-off document": model[: len(model) // 2],
        "another metamodel": (DATA / "Delta_to_many_T_library.sql.xmi").read_text(encoding="utf-8"),
        "a clean model": model,
    }


def _run_file(folder: Path, run: int, **fields: object) -> Path:
    path = folder / f"Tester-m1-k1-run{run:02d}-inverse.json"
    document = {
        "format": "atlbench-roundtrip-run", "version": 1, "pair": "library", "operator": "to_many", "k": 1,
        "run": run, "stage": "inverse", "provider": "Tester", "model": "m1", "status": "ok", **fields,
    }  # fmt: skip
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    return path


@pytest.fixture
def tree(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    root = pytester.path / "validation" / "roundtrip"
    root.mkdir(parents=True)
    for pair in ("library", "shop"):
        for name in (f"S_{pair}.ecore", f"T_{pair}.sql.xmi"):
            shutil.copy(DATA / name, root / name)
        for name in (f"Delta_to_many_S_{pair}.ecore", f"Delta_to_many_T_{pair}.sql.xmi"):
            shutil.copy(DATA / name, root / name)
    folder = root / "runs" / "library" / "to_many"
    folder.mkdir(parents=True)
    for run, answer in enumerate(_answers().values(), 1):
        _run_file(folder, run, answer=answer)
    _run_file(folder, 9, status="no-answer", reason="HTTP 429: rate limited for 900 s")
    (folder / "cut.json").write_text('{"format": "atlbench-roundtrip-run",\n "answer": "<ecore', "utf-8")
    (folder / "latin.json").write_bytes(b'{"format": "atlbench-roundtrip-run",\n "answer": "caf\xe9"}\n')
    with open(folder / "big.json", "wb") as handle:
        handle.truncate(50 * 1000 * 1000)
    pytester.makepyfile(test_roundtrip_broken=CASES)
    return folder


def test_each_broken_input_gives_its_message_and_nothing_else_is_lost(
    pytester: pytest.Pytester, tree: Path
) -> None:
    result = pytester.runpytest(
        "-p", "benchmark.harness.plugin", "--roundtrip-root", str(tree.parents[2]),
        "--roundtrip-baselines", "none", "--reports-dir", "reports", "-n", "0", "-v", "-rs",
    )  # fmt: skip
    run = {n: str(tree / f"Tester-m1-k1-run{n:02d}-inverse.json") for n in range(1, 10)}
    # the six answers are the model's: scored as they read (their cases pass); the unreadable files fail
    # their own case; the stage without answer is skipped as missing
    result.assert_outcomes(passed=2 + 6, failed=3, skipped=1)
    assert result.ret == 1
    failed = {name: next(x for x in result.outlines if x.startswith(f"{tree / name}")) for name in
              ("cut.json", "latin.json", "big.json")}  # fmt: skip
    assert failed["cut.json"].startswith(
        f"{tree / 'cut.json'}:2:12: not valid JSON: Unterminated string starting at (the text ends before"
    )
    assert failed["latin.json"].startswith(f"{tree / 'latin.json'}:2:16: not UTF-8 text: byte 0xe9")
    assert failed["big.json"].startswith(
        f"{tree / 'big.json'}: 50,000,000 bytes: larger than the 16 MiB a run file may hold, not read"
    )
    result.stdout.fnmatch_lines(
        ["*SKIPPED*missing run (no answer was obtained): HTTP 429: rate limited for 900 s"]
    )
    (line,) = [x for x in result.outlines if "got no answer (missing, not scored)" in x]
    assert "roundtrip library/to_many Tester k1-run09-inverse: HTTP 429: rate limited for 900 s" in line

    # the terminal: every hostile answer with its file, JSON path and reason; the excluded files
    assert "6 stage evaluations, 1 pair, study data, 4 excluded (1 missing)" in result.outlines
    heading = next(i for i, x in enumerate(result.outlines) if "answers not read as a clean model" in x)
    assert result.outlines[heading].startswith("5 answers not read as a clean model, scored as read")
    listed = result.outlines[heading + 1 : heading + 6]
    assert listed[0].startswith(f"  {run[1]}: $.answer: ambiguous: 2 documents rooted at <ecore:EPackage>: ")
    assert listed[0].endswith("; scored the last")
    assert listed[1] == f"  {run[2]}: $.answer: the answer contains no XML document"
    assert listed[2].startswith(f"  {run[3]}: $.answer: refusing XML with entity declarations")
    assert listed[2].endswith("remove the <!DOCTYPE> block (line 2)")
    assert listed[3].startswith(f"  {run[4]}: $.answer: not well-formed XML: ")
    assert listed[4] == (
        f"  {run[5]}: $.answer: the expected metamodel's namespace http://www.eclipse.org/emf/2002/Ecore "
        "is not declared (line 2)"
    )
    assert f"  missing: {run[9]}: HTTP 429: rate limited for 900 s" in result.outlines
    for name in ("big.json", "cut.json", "latin.json"):
        assert f"  error: {failed[name]}" in result.outlines

    # results.json: the hostile answers are scored rows (the cut-off one with partial credit), the
    # excluded ones error rows; index.html lists the excluded ones
    rows = {row.file: row for row in Results.load(pytester.path / "reports" / "results.json").rows}
    statuses = {n: (rows[run[n]].payload.get("stageStatus"), rows[run[n]].payload.get("loadable"))
                for n in range(1, 7)}  # fmt: skip
    assert statuses == {1: ("ok", True), 6: ("ok", True)} | dict.fromkeys(range(2, 6), ("ok", False))
    assert rows[run[2]].payload["LOC"] == 0 and rows[run[4]].payload["Cr"] > 0  # lenient credit
    assert rows[run[6]].payload["equivalent"] and not rows[run[9]].ok
    assert all(not rows[str(tree / n)].ok for n in ("cut.json", "latin.json", "big.json"))
    # as a reader sees it: a file name may wrap after its dot (<wbr>)
    html = (pytester.path / "reports" / "index.html").read_text(encoding="utf-8").replace("<wbr>", "")
    assert 'id="roundtrip-excluded"' in html and "4 stage evaluations excluded (1 missing)" in html
    for name in ("cut.json", "latin.json", "big.json", "run09"):
        assert name in html
