"""Broken and hostile inputs of the OCL track, all in one real pytest session (docs/OCL.md, "Missing,
unusable, excluded"): each gives one positioned message naming its file, fails its own cases or has its
runs excluded, and every other case still runs; the tables (terminal, index.html, results.json) list it.

The tree holds the bundled ``library`` model, intact, with a complete run and a run that got no answer,
beside copies of it broken one way each: a ``.use`` with an unknown type, a SOIL state with a syntax error,
a SOIL state creating an object of an abstract class, a PlantUML diagram with a dangling association end;
and three run files that cannot be read: cut-off JSON, Latin-1 text, and 50 MB (made here, sparse, never
committed: the size cap refuses it without reading it).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from benchmark.core.results import Results

pytest_plugins = ("pytester",)

REPO = Path(__file__).resolve().parents[3]
DATASET = REPO / "validation" / "ocl"

CASES = """
import pytest

pytestmark = pytest.mark.atlbench_track("ocl")


def test_ground_truth(atlbench_ground_truth):
    atlbench_ground_truth.check()


def test_run(atlbench_run):
    atlbench_run.score()
"""


def _copy_model(root: Path, name: str) -> Path:
    """``library`` again, as model ``name`` (its own folder and files)."""
    folder = root / name
    shutil.copytree(DATASET / "library", folder)
    for suffix in (".use", ".puml"):
        (folder / f"library{suffix}").rename(folder / f"{name}{suffix}")
    return folder


def _replace(path: Path, old: str, new: str) -> tuple[int, int]:
    """Replace the first ``old`` in ``path`` by ``new``; the (line, column) where it starts."""
    text = path.read_text(encoding="utf-8")
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old) :], encoding="utf-8")
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def _run_file(root: Path, name: str, mode: str, answers: dict, generation: dict | None = None) -> Path:
    path = root / "runs" / "Tester" / name / f"{mode}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "format": "atlbench-ocl-run",
        "version": 1,
        "provider": "Tester",
        "model": "test-1",
        "run": name,
        "mode": mode,
        "seed": 0,
        "answers": answers,
    }
    if generation is not None:
        document["generation"] = generation
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    return path


@pytest.fixture
def tree(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, str]]:
    """The tree (module docstring) and, per broken input, the positioned message it must give."""
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    root = pytester.path / "validation" / "ocl"
    spec = json.loads((DATASET / "specification.json").read_text(encoding="utf-8"))["library"]
    names = ("library", "unknowntype", "soilsyntax", "abstractobject", "danglingend")
    for name in names:
        if name == "library":
            shutil.copytree(DATASET / "library", root / "library")
        else:
            _copy_model(root, name)
    (root / "specification.json").write_text(json.dumps(dict.fromkeys(names, spec)), encoding="utf-8")
    expected = {}
    use = root / "unknowntype" / "unknowntype.use"
    line, column = _replace(use, "pages : Integer", "pages : Pages")
    expected["unknowntype"] = f"{use}:{line}:{column + len('pages : ')}: undefined type `Pages'"
    state = root / "soilsyntax" / "states" / "s02.soil"
    state.write_text(state.read_text(encoding="utf-8") + "!new Book('late'\n", encoding="utf-8")
    lines = state.read_text(encoding="utf-8").count("\n")
    expected["soilsyntax"] = f"{state}:{lines}:17: unexpected end of input"
    state = root / "abstractobject" / "states" / "s01.soil"
    state.write_text(state.read_text(encoding="utf-8") + "!new Item('ghost')\n", encoding="utf-8")
    lines = state.read_text(encoding="utf-8").count("\n")
    expected["abstractobject"] = f"{state}:{lines}:2: cannot create an object of the abstract class `Item'"
    diagram = root / "danglingend" / "danglingend.puml"
    line, column = _replace(diagram, '"copies *" Copy : Holds', '"copies *" Ghost : Holds')
    expected["danglingend"] = f"{diagram}:{line}:"  # the column is the reader's (the end's class name)

    references = {}  # the original references of library: a complete, correct run
    for cid, entry in spec.items():
        references[cid] = entry["ocl"]
    _run_file(root, "run01", "original", {"library": references})
    _run_file(  # a run that got no answer for one constraint: missing, not a failure
        root,
        "run02",
        "original",
        {"library": {cid: text for cid, text in references.items() if cid != "maxLoansLimit"}},
        {
            "generator": "atlbench generate",
            "answers": {"library/maxLoansLimit": {"status": "no-answer", "error": "timeout after 60 s"}},
        },
    )
    _run_file(root, "run03", "original", {"unknowntype": references})  # its ground truth is unusable
    cut = root / "runs" / "cut.json"
    cut.write_text(
        '{"format": "atlbench-ocl-run",\n "answers": {"library": {"x": "context Member inv', "utf-8"
    )
    expected["cut.json"] = (
        f"{cut}:2:31: not valid JSON: Unterminated string starting at (the text ends before"
    )
    latin = root / "runs" / "latin.json"
    latin.write_bytes(b'{"format": "atlbench-ocl-run",\n "note": "' + b"caf\xe9" + b'"}\n')
    expected["latin.json"] = f"{latin}:2:14: not UTF-8 text: byte 0xe9 cannot be decoded"
    big = root / "runs" / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(50 * 1000 * 1000)
    expected["big.json"] = f"{big}: 50,000,000 bytes: larger than the 16 MiB a run file may hold, not read"
    pytester.makepyfile(test_ocl_broken=CASES)
    return root, expected


def _sections(out: str) -> dict[str, str]:
    """The text of each failure and error section of pytest's report, by test id."""
    found: dict[str, str] = {}
    for part in re.split(r"^_{3,} (?:ERROR at setup of )?(test_\w+\[[^\]]+\]) _{3,}$", out, flags=re.M)[1:]:
        if part.startswith("test_"):
            key = part
        else:
            found[key] = part.split("\n=====", 1)[0].strip()
    return found


def test_each_broken_input_gives_its_message_and_nothing_else_is_lost(
    pytester: pytest.Pytester, tree: tuple[Path, dict[str, str]]
) -> None:
    root, expected = tree
    result = pytester.runpytest(
        "-p", "benchmark.harness.plugin", "--ocl-root", str(root), "--ocl-baselines", "Oracle",
        "--reports-dir", "reports", "-n", "0", "-v", "-rs",
    )  # fmt: skip
    out = result.stdout.str()
    sections = _sections(out)
    modes = ("original", "rename", "attribute", "association", "rename_attribute", "rename_association",
             "attribute_association", "full")  # fmt: skip
    # A broken model or state fails every mode's ground truth with its one positioned message (said once
    # per case, nothing else) and errors the runs of the model; the diagram, shown only in the original
    # mode, fails that mode alone
    for name in ("unknowntype", "soilsyntax", "abstractobject"):
        for mode in modes:
            message = sections[f"test_ground_truth[{name}-{mode}]"]
            assert message == f"the variant is unusable: {name}: {expected[name]}" or (
                message.startswith(f"the variant is unusable: {name}: {expected[name]}")
                and "\n" not in message
            ), message
            assert sections[f"test_run[{name}-{mode}-Oracle]"] == message
    assert sections["test_run[unknowntype-original-Tester-run03]"].endswith(expected["unknowntype"])
    dangling = sections["test_ground_truth[danglingend-original]"]
    assert dangling.startswith(f"the variant is unusable: danglingend (original): {expected['danglingend']}")
    assert dangling.endswith("undefined class `Ghost' in association")
    assert "test_ocl_broken.py::test_ground_truth[danglingend-rename] PASSED" in out
    # A run file that cannot be read fails its own case with its positioned message
    for name in ("cut.json", "latin.json", "big.json"):
        stem = name.removesuffix(".json")
        assert sections[f"test_run[unreadable-runs-{stem}]"].startswith(expected[name])
    # The run that got no answer for one constraint is skipped as missing; everything else still runs
    result.stdout.fnmatch_lines(["*SKIPPED*missing run (no answer was obtained): no answer for 1 of 10*"])
    assert "test_ocl_broken.py::test_run[library-original-Tester-run01] PASSED" in out
    truths = 8 + 7  # library, and the diagram's model but for its original
    result.assert_outcomes(passed=truths + 1 + 8 + 7, failed=3 * 8 + 1 + 3, skipped=1, errors=3 * 8 + 1 + 1)
    assert result.ret == 1
    (line,) = [x for x in result.outlines if "got no answer (missing, not scored)" in x]
    assert "ocl library-original Tester run02: no answer for 1 of 10 constraints of library" in line
    assert "(maxLoansLimit: timeout after 60 s)" in line

    # The tables list every excluded run with its message: the terminal, index.html, results.json
    assert "20 constraints, 16 runs judged, 30 excluded (1 missing), 160 answers" in result.outlines
    listed = result.outlines[result.outlines.index("30 runs excluded (1 missing)") + 1 :][:8]
    assert listed[0].startswith("  error: abstractobject (8 runs: association Oracle, attribute Oracle,")
    assert listed[0].endswith(expected["abstractobject"])
    assert listed[1].startswith(
        "  error: <baseline:Oracle>: the variant is unusable: danglingend (original): "
    )
    assert expected["danglingend"] in listed[1]
    assert listed[2].startswith(f"  missing: {root}/runs/Tester/run02/original.json: no answer for 1 of 10")
    for line, name in zip(listed[3:6], ("big.json", "cut.json", "latin.json"), strict=True):
        assert line.startswith(f"  error: {expected[name]}")
    assert listed[6].startswith("  error: soilsyntax (8 runs: ") and listed[6].endswith(
        expected["soilsyntax"] + "; expected `)'"
    )
    assert listed[7].startswith("  error: unknowntype (9 runs: ") and "original Tester run03" in listed[7]
    saved = Results.load(pytester.path / "reports" / "results.json")
    errors = {row.file for row in saved.rows if not row.ok}
    assert len([row for row in saved.rows if not row.ok]) == 30
    assert {str(root / "runs" / n) for n in ("cut.json", "latin.json", "big.json")} <= errors
    # as a reader sees it: a file name may wrap after its dot (<wbr>)
    html = (pytester.path / "reports" / "index.html").read_text(encoding="utf-8").replace("<wbr>", "")
    assert 'id="ocl-excluded"' in html and "30 runs excluded (1 missing)" in html
    for name in ("cut.json", "latin.json", "big.json", "unknowntype.use", "s02.soil", "danglingend.puml"):
        assert name in html
