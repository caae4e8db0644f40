"""The benchmark as a pytest suite, run for real with pytester on a tiny validation tree we wrote.

Sessions run in process (fast; ``conftest.py`` says what that requires), with and without xdist, and the
tests read what a user would read: the exit code, the terminal tables, ``results.json`` and the JUnit XML.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from git_trees import checkout, no_git_above

import benchmark.tracks.mapping.scoring.runs
from benchmark import __version__
from benchmark.core.results import Results
from benchmark.tracks.mapping.payload import RunRow

# Modules the in-process sessions import are preloaded by conftest.py (see there why that matters).

pytest_plugins = ("pytester",)

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[2]

CASES = """
import pytest

pytestmark = pytest.mark.atlbench_track("atl")


def test_ground_truth(atlbench_ground_truth):
    atlbench_ground_truth.check()


def test_run(atlbench_run):
    atlbench_run.score()
"""


@pytest.fixture
def tree(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the tiny validation tree beside a benchmark test module, ready to run."""
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    root = pytester.path / "validation"
    shutil.copytree(DATA / "tree", root)
    pytester.makepyfile(test_bench=CASES)
    pytester.makeini("[pytest]\njunit_family = xunit1\n")
    return root


def run(pytester: pytest.Pytester, *args: str, **options: bool) -> pytest.RunResult:
    """An in-process session (fast); xdist still starts real worker processes for ``-n 2``. ``options``:
    pytester's own (``no_reraise_ctrlc``)."""
    return pytester.runpytest(
        "-p",
        "benchmark.harness.plugin",
        "--validation-root",
        "validation",
        "--reports-dir",
        "reports",
        "--baseline",
        "none",
        *args,
        **options,
    )


def _facts(pytester: pytest.Pytester) -> list[dict]:
    """The facts of ``results.json``, as written (payload keys in their order)."""
    data = json.loads((pytester.path / "reports" / "results.json").read_text(encoding="utf-8"))
    return [facts for section in data["tracks"].values() for facts in section["facts"]]


def rows(pytester: pytest.Pytester) -> dict[tuple[str, str, str], dict]:
    results = Results.load(pytester.path / "reports" / "results.json")
    return {(r.provider, r.task, r.run): RunRow.from_envelope(r).to_json() for r in results.rows}


def _tables(result: pytest.RunResult) -> list[str]:
    lines = result.outlines
    start = next(i for i, line in enumerate(lines) if "atlbench RQ1" in line)
    end = next(i for i, line in enumerate(lines) if line.startswith("reports written"))
    return lines[start:end]


def _junit_properties(path: Path) -> dict[str, dict[str, str]]:
    return {
        case.get("name", ""): {p.get("name", ""): p.get("value", "") for p in case.iter("property")}
        for case in ET.parse(path).iter("testcase")
    }


def test_scores_every_run_identically_with_and_without_xdist(pytester: pytest.Pytester, tree: Path) -> None:
    serial = run(pytester, "-n", "0", "--junitxml=reports/junit.xml", "--min-f1", "Synthetic-Oracle=0.9")
    serial.assert_outcomes(passed=7)
    assert serial.ret == 0
    found = rows(pytester)
    assert set(found) == {
        ("Synthetic-Oracle", "Library2Catalog", "runs/Synthetic-Oracle-run01"),
        ("Synthetic-Noisy", "Library2Catalog", "runs/Synthetic-Noisy-run01"),
        ("Synthetic-Noisy", "Library2Catalog", "runs/Synthetic-Noisy-run02"),
        ("Synthetic-Oracle", "Shapes2Figures", "runs/Synthetic-Oracle-run01"),
        ("Synthetic-Noisy", "Shapes2Figures", "runs/Synthetic-Noisy-run01"),
    }
    # hand-computed (see the data files): label <- b.describe() reads title and author, so it is partial
    oracle = found[("Synthetic-Oracle", "Library2Catalog", "runs/Synthetic-Oracle-run01")]
    assert oracle["class"] == {"tp": 2, "fp": 0, "fn": 0}
    assert oracle["binding"] == {
        "exact": 3,
        "partial": 1,
        "divergent": 0,
        "targetOnly": 0,
        "onlyGenerated": 0,
        "onlyAtl": 0,
    }
    noisy = found[("Synthetic-Noisy", "Library2Catalog", "runs/Synthetic-Noisy-run01")]
    assert noisy["class"] == {"tp": 1, "fp": 1, "fn": 1}
    assert noisy["binding"] == {
        "exact": 1,
        "partial": 0,
        "divergent": 1,
        "targetOnly": 0,
        "onlyGenerated": 1,
        "onlyAtl": 2,
    }
    assert noisy["hallucinations"]["features"] == ["Entry.author"]
    text = serial.stdout.str()
    assert "Per provider (micro P/R/F1/Acc" in text
    assert "1 folder or file skipped by rule (-v lists them)" in text  # roundtrip-like has no .atl
    # Synthetic-Oracle pooled: class 3/0/0, bindings exact 5 + partial 1 -> TP 8.5, FP 0.5, FN 0.5
    oracle_line = next(
        line for line in serial.outlines if line.startswith("Synthetic-Oracle") and "ALL" in line
    )
    assert "0.944" in oracle_line
    serial_junit = _junit_properties(pytester.path / "reports" / "junit.xml")
    serial_facts = _facts(pytester)
    assert [f["task"] for f in serial_facts] == ["Library2Catalog", "Shapes2Figures"]

    parallel = run(pytester, "-n", "2", "--junitxml=reports/junit.xml")
    parallel.assert_outcomes(passed=7)
    assert rows(pytester) == found
    assert _facts(pytester) == serial_facts  # the workers' facts, in results.json as stated serially
    assert _tables(parallel) == _tables(serial)
    junit = _junit_properties(pytester.path / "reports" / "junit.xml")
    assert junit == serial_junit
    properties = junit["test_run[Shapes2Figures-Synthetic-Oracle-run01]"]
    assert "atlbench_row" not in properties  # rows reach the controller through xdist, not the XML
    assert (properties["provider"], properties["task"], properties["run"]) == (
        "Synthetic-Oracle",
        "Shapes2Figures",
        "runs/Synthetic-Oracle-run01",
    )
    suite = ET.parse(pytester.path / "reports" / "junit.xml").getroot().find("testsuite/properties")
    suite_props = {p.get("name"): p.get("value") for p in suite} if suite is not None else {}
    assert float(suite_props["atl_Synthetic-Oracle_overall_f1"]) == pytest.approx(0.944, abs=1e-3)
    assert float(properties["overall_f1"]) == pytest.approx(1.0)
    assert {"class_precision", "binding_recall", "overall_accuracy"} <= set(properties)


def test_a_junit_family_whose_schema_has_no_case_properties_is_said_once(
    pytester: pytest.Pytester, tree: Path
) -> None:
    """pytest's record_property warns in every case; the harness records the same properties without
    the fixture, and says it once."""
    pytester.makeini("[pytest]\njunit_family = xunit2\n")
    result = run(pytester, "-n", "0", "--junitxml=reports/junit.xml")
    result.assert_outcomes(passed=7)
    said = [line for line in result.outlines if "junit_family = xunit2:" in line]
    assert len(said) == 1 and "set junit_family = xunit1 (or legacy)" in said[0]
    pytester.makeini("[pytest]\njunit_family = xunit1\n")
    kept = run(pytester, "-n", "0", "--junitxml=reports/junit.xml")
    assert not [line for line in kept.outlines if "junit_family =" in line]
    properties = _junit_properties(pytester.path / "reports" / "junit.xml")
    assert properties["test_run[Shapes2Figures-Synthetic-Oracle-run01]"]["provider"] == "Synthetic-Oracle"


def test_what_a_worker_says_reaches_the_controller_once(
    pytester: pytest.Pytester, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker's harness message (here: its disk cache could not be written at the session's end) is
    printed by the controller, once for both workers, and the session still passes."""
    # the workers only (processes of their own): the controller runs in this process, which must keep the
    # real class for the tests after this one
    monkeypatch.setenv("ATLBENCH_TEST_CONTROLLER_PID", str(os.getpid()))
    pytester.makeconftest(
        """
import os

from benchmark.harness.session import Harness


def _disk_full(self):
    raise OSError(28, "No space left on device")


if os.getpid() != int(os.environ["ATLBENCH_TEST_CONTROLLER_PID"]):
    Harness.scoring_done = _disk_full
"""
    )
    result = run(pytester, "-n", "2")
    result.assert_outcomes(passed=7)
    said = [line for line in result.outlines if "could not store computed values" in line]
    assert said == [
        "atlbench: could not store computed values in the disk cache: [Errno 28] No space left on device"
    ]


SCORED_LINE = "{} scored (0 unusable) on {}, {} excluded (0 missing), partial weight 0.5, confidence all"


def test_keyword_selects_one_transformation(pytester: pytest.Pytester, tree: Path) -> None:
    """The tables' first line counts what was scored (one run), not what the tree holds or was collected."""
    result = run(pytester, "-k", "Library and Oracle")
    result.assert_outcomes(passed=1)
    assert list(rows(pytester)) == [("Synthetic-Oracle", "Library2Catalog", "runs/Synthetic-Oracle-run01")]
    assert SCORED_LINE.format("1 run", "1 transformation", 0) in result.outlines


def test_provider_option_deselects_other_providers(pytester: pytest.Pytester, tree: Path) -> None:
    result = run(pytester, "--provider", "Synthetic-Oracle")
    result.assert_outcomes(passed=4, deselected=3)
    assert {p for p, _, _ in rows(pytester)} == {"Synthetic-Oracle"}
    assert SCORED_LINE.format("2 runs", "2 transformations", 0) in result.outlines


def test_bad_inputs_fail_only_their_own_cases(pytester: pytest.Pytester, tree: Path) -> None:
    """A corrupt run fails its case; a broken ATL file fails its ground truth and errors its runs; the
    tables list both kinds as excluded and every other case is scored."""
    (tree / "Library2Catalog" / "runs" / "Synthetic-Noisy-run01.json").write_text('{"jjodel": ')
    atl = tree / "Shapes2Figures" / "Shapes2Figures.atl"
    atl.write_text(atl.read_text().replace("to f :", "to f ;"))
    result = run(pytester)
    result.assert_outcomes(passed=3, failed=2, errors=2)
    result.stdout.fnmatch_lines(["*test_run?Library2Catalog-Synthetic-Noisy-run01*", "*not valid JSON*"])
    result.stdout.fnmatch_lines(["*ground truth of Shapes2Figures is unusable*Shapes2Figures.atl:*"])
    result.stdout.fnmatch_lines(["*3 runs excluded*"])
    statuses = {key: row["status"] for key, row in rows(pytester).items()}
    assert statuses == {
        ("Synthetic-Oracle", "Library2Catalog", "runs/Synthetic-Oracle-run01"): "ok",
        # the truncated file keeps the provider its name gives (its sibling run02 says where the dash is)
        ("Synthetic-Noisy", "Library2Catalog", "runs/Synthetic-Noisy-run01"): "error",
        ("Synthetic-Noisy", "Library2Catalog", "runs/Synthetic-Noisy-run02"): "ok",
        ("Synthetic-Oracle", "Shapes2Figures", "runs/Synthetic-Oracle-run01"): "error",
        ("Synthetic-Noisy", "Shapes2Figures", "runs/Synthetic-Noisy-run01"): "error",
    }
    assert result.ret == 1


def _local_runs(tree: Path) -> None:
    """Two answers of a local model for Library2Catalog: one unusable, one that never came (a timeout)."""
    header = {"jjodel": {"exportType": "suggested-mappings", "schemaVersion": 1}}
    runs = tree / "Library2Catalog" / "runs"
    for name, status, error in (
        ("Local-tiny-run01", "unusable", "response:1:1: expected a JSON array of mappings"),
        ("Local-tiny-run02", "no-answer", "timeout after 600 s"),
    ):
        document = {
            **header,
            "analysis": {"provider": "Local", "model": "tiny"},
            "generation": {"generator": "atlbench generate", "status": status, "error": error},
        }
        (runs / f"{name}.json").write_text(json.dumps(document))


MISSING_LINE = (
    "atlbench: 1 run got no answer (missing, not scored): atl Library2Catalog Local runs/Local-tiny-run02: "
    "timeout after 600 s"
)


@pytest.mark.parametrize("workers", ["0", "2"])
def test_an_unusable_answer_is_scored_and_a_missing_one_is_not(
    pytester: pytest.Pytester, tree: Path, workers: str
) -> None:
    """Through the harness: the unusable run's case passes with the counts of an empty run (the model's
    failure is a result), the missing run's case is skipped and its row is an error marked missing (it
    says nothing about the model); both stay under their provider. The session fails on the missing run,
    with one line naming it and its reason."""
    _local_runs(tree)
    result = run(pytester, "-k", "Library2Catalog and Local", "--junitxml=reports/junit.xml", "-n", workers)
    result.assert_outcomes(passed=1, skipped=1)
    assert result.ret == 1
    # the passing case says why the answer was unusable: in the tables' list and in its JUnit properties
    answer = tree / "Library2Catalog" / "runs" / "Local-tiny-run01.json"
    listed = result.outlines.index("1 unusable run, scored as runs with no suggestions")
    assert result.outlines[listed + 1] == f"  {answer}: response:1:1: expected a JSON array of mappings"
    properties = _junit_properties(pytester.path / "reports" / "junit.xml")
    case = properties["test_run[Library2Catalog-Local-tiny-run01]"]
    assert case["unusable"] == "response:1:1: expected a JSON array of mappings"
    assert case["transformation"] == "Library2Catalog" and case["status"] == "ok"
    found = rows(pytester)
    unusable = found[("Local", "Library2Catalog", "runs/Local-tiny-run01")]
    assert unusable["status"] == "ok" and unusable["suggestions"] == 0
    assert unusable["class"] == {"tp": 0, "fp": 0, "fn": 2}
    assert unusable["extra"]["unusable"] == "response:1:1: expected a JSON array of mappings"
    missing = found[("Local", "Library2Catalog", "runs/Local-tiny-run02")]
    assert missing["status"] == "error" and missing["extra"]["missing"] == "timeout after 600 s"
    assert (
        "1 run scored (1 unusable) on 1 transformation, 1 excluded (1 missing), partial weight 0.5, "
        "confidence all"
    ) in result.outlines
    failure = [line for line in result.outlines if line.startswith("atlbench: 1 run got no answer")]
    assert failure == [
        f"{MISSING_LINE}; fill it in with `atlbench generate` (cached answers are replayed) or accept it "
        "with --allow-missing-runs"
    ]


@pytest.mark.parametrize("how", ["command line", "ini file"])
def test_allow_missing_runs_accepts_them_and_still_lists_them(
    pytester: pytest.Pytester, tree: Path, how: str
) -> None:
    _local_runs(tree)
    if how == "ini file":
        pytester.makeini("[pytest]\njunit_family = xunit1\natlbench_allow_missing_runs = true\n")
        result = run(pytester, "-k", "Library2Catalog and Local")
    else:
        result = run(pytester, "-k", "Library2Catalog and Local", "--allow-missing-runs")
    result.assert_outcomes(passed=1, skipped=1)
    assert result.ret == 0, result.stdout.str()
    assert f"{MISSING_LINE}; accepted by --allow-missing-runs" in result.outlines
    assert "atlbench: session failed" not in result.stdout.str()


def test_a_session_whose_every_run_is_missing_fails_even_when_they_are_accepted(
    pytester: pytest.Pytester, tree: Path
) -> None:
    """Accepting missing runs lists them and lets the others count; a session with nothing else measured
    nothing, and fails."""
    _local_runs(tree)
    result = run(pytester, "-k", "Library2Catalog and Local-tiny-run02", "--allow-missing-runs")
    result.assert_outcomes(skipped=1)
    assert f"{MISSING_LINE}; accepted by --allow-missing-runs" in result.outlines
    assert result.ret == 1
    assert (
        "atlbench: no run was scored: every one of the session's 1 run was excluded (1 missing); a session "
        "that measures nothing fails"
    ) in result.outlines


def test_ground_truth_naming_unknown_features_fails_with_the_list(
    pytester: pytest.Pytester, tree: Path
) -> None:
    atl = tree / "Shapes2Figures" / "Shapes2Figures.atl"
    atl.write_text(atl.read_text().replace("name <- s.name", "title <- s.name"))
    result = run(pytester, "-k", "ground_truth")
    result.assert_outcomes(passed=1, failed=1, deselected=5)
    result.stdout.fnmatch_lines(
        ["*target feature Round.title (rule Circle2Round) is not defined in Figures*"]
    )


def test_a_missing_metamodel_file_is_said_as_what_it_is(pytester: pytest.Pytester, tree: Path) -> None:
    """Not "names 1 element that the metamodels do not define": the file is missing, and the case says so
    (with what that costs), without a traceback."""
    (tree / "Library2Catalog" / "Catalog.ecore").unlink()
    result = run(pytester, "-k", "ground_truth and Library")
    result.assert_outcomes(failed=1, deselected=6)
    out = result.stdout.str()
    assert "do not define" not in out and "Traceback" not in out and "GroundTruthProblem" not in out
    result.stdout.fnmatch_lines(
        [
            "*Library2Catalog.atl: no metamodel file for target metamodel 'Catalog'; the ground truth "
            "cannot be checked against that metamodel, and its runs get no attribute/reference split and no "
            "made-up-name count*"
        ]
    )


def test_guard_fails_the_session_when_a_row_is_withheld(pytester: pytest.Pytester, tree: Path) -> None:
    pytester.makepyfile(
        test_bench=CASES.replace("    atlbench_run.score()", "    pass  # forgets to record its row")
    )
    result = run(pytester)
    result.assert_outcomes(passed=7)
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*count table is incomplete*", "*ran but sent no row*"])


def test_a_crash_while_scoring_is_an_excluded_run_not_a_lost_row(
    pytester: pytest.Pytester, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the baseline engine tripped")

    monkeypatch.setattr(benchmark.tracks.mapping.scoring.runs.RunScorer, "_score_baseline", crash)
    result = run(pytester, "-k", "Library2Catalog and (NameEquality or Oracle)", "--baseline", "nameequality")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*RuntimeError: the baseline engine tripped*"])
    result.stdout.fnmatch_lines(
        ["*1 run excluded*", "*<baseline:NameEquality>: internal error scoring the run: RuntimeError*"]
    )
    assert "count table is incomplete" not in result.stdout.str()
    assert rows(pytester)[("NameEquality", "Library2Catalog", "NameEquality")]["status"] == "error"


def test_min_f1_gate_and_compare(pytester: pytest.Pytester, tree: Path) -> None:
    gated = run(pytester, "--min-f1", "Synthetic-Noisy=0.99", "--min-f1", "Synthetic-Oracle=0.9")
    gated.assert_outcomes(passed=7)
    assert gated.ret == 1
    gated.stdout.fnmatch_lines(["*--min-f1 Synthetic-Noisy=0.99: micro overall F1 is 0.*"])
    assert "Synthetic-Oracle=0.9:" not in gated.stdout.str()
    shutil.copy(pytester.path / "reports" / "results.json", pytester.path / "previous.json")
    (tree / "Shapes2Figures" / "runs" / "Synthetic-Oracle-run01.json").unlink()
    compared = run(pytester, "--compare", "previous.json", "--max-drop", "0.001")
    compared.stdout.fnmatch_lines(
        ["*change of micro overall F1 (atl) against*", "*Synthetic-Oracle: 0.9* -> *"]
    )
    assert compared.ret == 1
    compared.stdout.fnmatch_lines(["*Synthetic-Oracle: micro overall F1 (atl) dropped by*"])


def test_reports_that_cannot_be_written_fail_the_session(
    pytester: pytest.Pytester, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # what a missing dependency of the report files (numpy, scipy, matplotlib) looks like; the terminal
    # tables need none of them
    monkeypatch.setitem(sys.modules, "benchmark.tracks.mapping.reports.files", None)
    result = run(pytester, "-k", "Library and Oracle")
    result.assert_outcomes(passed=1)
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*atlbench: only results.json was written; the reports need*"])
    assert (pytester.path / "reports" / "results.json").exists()


def test_nothing_selected_says_so(pytester: pytest.Pytester, tree: Path) -> None:
    result = run(pytester, "-k", "NoSuchTransformation")
    result.stdout.fnmatch_lines(["*no benchmark case ran in this session*"])
    assert not (pytester.path / "reports" / "results.json").exists()


INTERRUPT_AFTER_THE_FIRST_RUN = """
import pytest

@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report):
    if report.when == "teardown" and "test_run" in report.nodeid:
        raise KeyboardInterrupt  # Ctrl-C once the first run case is done
"""


def test_an_interrupted_session_writes_no_report_and_leaves_the_last_ones(
    pytester: pytest.Pytester, tree: Path
) -> None:
    assert run(pytester, "-n", "0").ret == 0
    last = {path.name: path.read_bytes() for path in (pytester.path / "reports").iterdir()}
    assert "results.json" in last and "summary.md" in last
    pytester.makeconftest(INTERRUPT_AFTER_THE_FIRST_RUN)
    result = run(pytester, "-n", "0", no_reraise_ctrlc=True)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            "atlbench: the session stopped after 3 of 7 benchmark cases (interrupted): no results, table or "
            "report written (the reports folder keeps what it held)*"
        ]
    )
    assert "Per provider" not in result.stdout.str() and "reports written" not in result.stdout.str()
    assert {path.name: path.read_bytes() for path in (pytester.path / "reports").iterdir()} == last


def test_a_session_stopped_by_x_reports_only_when_every_benchmark_case_ran(
    pytester: pytest.Pytester, tree: Path
) -> None:
    pytester.makepyfile(test_a_fails="def test_fails():\n    assert False\n")
    before = run(pytester, "-n", "0", "-x")  # the failing test runs first: no benchmark case after it
    assert before.ret == pytest.ExitCode.TESTS_FAILED
    before.stdout.fnmatch_lines(
        ["atlbench: the session stopped after 0 of 7 benchmark cases (stopping after 1 fail*"]
    )
    assert not (pytester.path / "reports").exists()
    (pytester.path / "test_a_fails.py").rename(pytester.path / "test_z_fails.py")
    after = run(pytester, "-n", "0", "-x")  # it runs last: the benchmark cases all ran
    assert after.ret == pytest.ExitCode.TESTS_FAILED
    after.assert_outcomes(passed=7, failed=1)
    assert "stopped after" not in after.stdout.str()
    assert (pytester.path / "reports" / "results.json").exists()


def test_under_xdist_x_reports_when_the_workers_ran_every_benchmark_case(
    pytester: pytest.Pytester, tree: Path
) -> None:
    """xdist ends a session stopped by -x as interrupted, and its controller collects nothing: the workers
    say how many benchmark cases they collected."""
    pytester.makepyfile(test_z_fails="def test_fails():\n    assert False\n")
    after = run(pytester, "-n", "1", "-x", no_reraise_ctrlc=True)
    after.assert_outcomes(passed=7, failed=1)
    assert "stopped after" not in after.stdout.str()
    assert (pytester.path / "reports" / "results.json").exists()


def test_options_from_the_ini_file_are_relative_to_it(
    pytester: pytest.Pytester, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pytest.ini paths are read from the ini file's directory, wherever pytest is started from; list
    options take one value per line."""
    pytester.makeini(
        "[pytest]\njunit_family = xunit1\natlbench_validation_root = validation\n"
        "atlbench_reports_dir = out\natlbench_baseline = none\n"
        "atlbench_providers =\n    synthetic-oracle\natlbench_min_f1 =\n    Synthetic-Oracle=0.99\n"
    )
    elsewhere = pytester.mkdir("elsewhere")
    monkeypatch.chdir(elsewhere)
    result = pytester.runpytest("-p", "benchmark.harness.plugin", str(pytester.path), "-k", "test_run")
    result.assert_outcomes(passed=2, deselected=5)
    assert result.ret == 1  # the min-F1 gate from the ini file: Oracle scores 0.944 on Library2Catalog
    result.stdout.fnmatch_lines(["*--min-f1 Synthetic-Oracle=0.99: micro overall F1 is 0.9*"])
    saved = Results.load(pytester.path / "out" / "results.json")
    assert {row.provider for row in saved.rows} == {"Synthetic-Oracle"}
    assert saved.header.validation_root == str(tree)
    assert not (elsewhere / "out").exists()


def test_results_and_reports_name_the_commit_in_a_checkout_and_why_none_outside_one(
    pytester: pytest.Pytester, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The project unpacked from a source archive (no ``.git``) says so in ``results.json`` and the
    reports' headers, with the package's version; the same project as a git checkout names its commit."""
    reports = pytester.path / "reports"

    def provenance_written(commit: str | None, said: str) -> None:
        assert run(pytester, "-n", "0", "-k", "Oracle").ret == 0
        header = json.loads((reports / "results.json").read_text(encoding="utf-8"))["header"]
        assert header["gitCommit"] == commit and header["versions"]["atl-binding-bench"] == __version__
        assert header.get("gitCommitMissing") == (None if commit else "not a git checkout")
        said = f"atl-binding-bench {__version__}, {said}"
        assert f"; {said}." in (reports / "summary.md").read_text(encoding="utf-8")
        assert f"· {said} ·" in (reports / "index.html").read_text(encoding="utf-8")

    no_git_above(pytester.path, monkeypatch)
    provenance_written(None, "no git commit: not a git checkout")
    commit = checkout(pytester.path, {})
    provenance_written(commit, f"commit {commit}")


def test_bad_option_is_a_usage_error(pytester: pytest.Pytester, tree: Path) -> None:
    result = run(pytester, "--partial-weight", "1.5")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--partial-weight: must be a number in [[]0, 1[]], got 1.5*"])


def test_a_bad_switch_in_the_ini_file_is_a_usage_error(pytester: pytest.Pytester, tree: Path) -> None:
    pytester.makeini("[pytest]\natlbench_allow_missing_runs = maybe\n")
    result = run(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--allow-missing-runs: must be true or false, got 'maybe'*"])


def test_unwritable_reports_fail_the_session_but_gates_still_run(
    pytester: pytest.Pytester, tree: Path
) -> None:
    (pytester.path / "blocked").write_text("a file where the reports directory should be")
    result = run(
        pytester, "-k", "Shapes", "--reports-dir", "blocked/reports", "--min-f1", "Synthetic-Noisy=0.99"
    )
    result.assert_outcomes(passed=3)
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*atlbench: cannot write the reports*blocked*"])
    result.stdout.fnmatch_lines(["*--min-f1 Synthetic-Noisy=0.99: micro overall F1 is 0.*"])


def test_an_in_process_session_leaves_the_report_stack_importable(
    pytester: pytest.Pytester, tree: Path, tmp_path: Path
) -> None:
    """After an in-process session has written reports (and pytester has unloaded what it imported),
    this process can still write reports: what the outer session does at its end when ``cases`` and
    ``tests/harness`` run together. Fails, run alone, when numpy is first imported inside the session."""
    result = run(pytester, "-k", "Library and Oracle")
    result.assert_outcomes(passed=1)
    assert (pytester.path / "reports" / "index.html").exists()
    from benchmark.reports import INDEX_HTML
    from benchmark.tracks.mapping.reports.files import write_reports
    from benchmark.tracks.mapping.reports.results import from_section

    saved = Results.load(pytester.path / "reports" / "results.json")
    written = write_reports(from_section(saved, saved.sections[0]), tmp_path, draws=50)
    assert tmp_path / INDEX_HTML in written


def test_a_session_that_scored_nothing_fails(pytester: pytest.Pytester, tree: Path) -> None:
    nobody = run(pytester, "--provider", "Nobody")
    nobody.assert_outcomes(passed=2, deselected=5)
    assert nobody.ret == 1
    nobody.stdout.fnmatch_lines(["*this benchmark session scored no run*"])
    (pytester.path / "empty").mkdir()
    empty = pytester.runpytest("-p", "benchmark.harness.plugin", "--validation-root", "empty")
    assert empty.ret == 1
    empty.stdout.fnmatch_lines(["*this benchmark session scored no run*"])


def test_a_mistyped_validation_root_is_one_line_and_exit_4(pytester: pytest.Pytester, tree: Path) -> None:
    result = pytester.runpytest("-p", "benchmark.harness.plugin", "--validation-root", "TYPO", "-n", "2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert (
        result.stderr.lines[0].startswith("ERROR: atlbench: ")
        and "--validation-root: not a folder" in (result.stderr.lines[0])
    )
    assert "Traceback" not in result.stderr.str() and "Traceback" not in result.stdout.str()


def test_a_tree_without_a_tracks_data_skips_that_track_and_scores_the_others(
    pytester: pytest.Pytester, tree: Path
) -> None:
    """A validation tree of mapping transformations only: the round-trip track's module has no case
    (skipped, not a collection error) and the mapping runs are scored as usual."""
    pytester.makepyfile(test_other=CASES.replace('atlbench_track("atl")', 'atlbench_track("roundtrip")'))
    result = run(pytester, "-n", "0")
    assert result.ret == 0, result.stdout.str()
    result.assert_outcomes(passed=7, skipped=2)
    assert "Traceback" not in result.stdout.str() and "UsageError" not in result.stdout.str()


def test_help_lists_the_options_with_their_metavars(pytester: pytest.Pytester, tree: Path) -> None:
    """Repeatable options show what they take (not ``--min-score=ATLBENCH_MIN_SCORE``); a switch takes
    nothing."""
    result = pytester.runpytest("-p", "benchmark.harness.plugin", "--help")
    assert result.ret == 0
    text = result.stdout.str()
    assert "--min-score=TRACK:PROVIDER=X" in text and "--provider=NAME" in text
    assert "ATLBENCH_MIN_SCORE" not in text
    assert "  --allow-missing-runs  accept runs that got no answer" in text


@pytest.mark.parametrize("workers", [[], ["-n", "2"]])
def test_asked_for_the_session_writes_its_phases(pytester, tree, monkeypatch, workers):
    target = pytester.path / "phases.json"
    monkeypatch.setenv("ATLBENCH_PHASE_TIMES", str(target))
    result = run(pytester, *workers)
    assert result.ret == 0
    document = json.loads(target.read_text(encoding="utf-8"))
    names = [p["phase"] for p in document["phases"]]
    for wanted in ("collection", "scoring", "results", "reports", "report results.json", "statistics"):
        assert wanted in names
    assert "report summary.md" in names and "report index.html" in names
    assert names[-1] == "terminal summary and teardown"
    assert all(p["start"] <= p["end"] <= document["written"] for p in document["phases"])


def test_unasked_the_session_writes_no_phases(pytester, tree, monkeypatch):
    monkeypatch.delenv("ATLBENCH_PHASE_TIMES", raising=False)
    assert run(pytester).ret == 0
    assert not list(pytester.path.glob("*phases*"))
