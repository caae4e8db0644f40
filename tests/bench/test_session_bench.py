"""``python -m benchmark.bench session``: its options, the tables it prints from timings, and the temporary
checkout of ``--against``. Nothing here is timed: the timings are made up."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmark.bench import _checkout, build_parser
from benchmark.bench._session_plan import (
    EXIT,
    STARTUP,
    Key,
    ScaledRoots,
    Timed,
    choices,
    count_cases,
    phase_rows,
    phases_of,
    pytest_command,
    scales,
    slope_lines,
    summary_rows,
    worker_counts,
)
from benchmark.core.errors import ConfigurationError


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["session", *argv])


def test_defaults_time_every_row_cold_and_warm_with_and_without_workers() -> None:
    args = parse()
    assert choices(args.rows, ["all", "mapping", "ocl", "roundtrip"], "--rows") == [
        "all",
        "mapping",
        "ocl",
        "roundtrip",
    ]
    assert worker_counts(args.workers) == ["0", "auto"]
    assert choices(args.cache, ["cold", "warm"], "--cache") == ["cold", "warm"]
    assert scales(args.scales) == [1]
    assert args.against is None and args.repeat == 3


def test_options_are_read_and_bad_values_name_their_option() -> None:
    args = parse("--rows", "ocl,all", "--workers", "2", "--scales", "16,1,4", "--against", "HEAD~1")
    assert choices(args.rows, ["all", "ocl"], "--rows") == ["ocl", "all"]
    assert worker_counts(args.workers) == ["2"] and scales(args.scales) == [1, 4, 16]
    assert args.against == "HEAD~1"
    with pytest.raises(ConfigurationError, match="--rows"):
        choices("mapping,atl", ["all", "mapping"], "--rows")
    with pytest.raises(ConfigurationError, match="--workers"):
        worker_counts("0,many")
    with pytest.raises(ConfigurationError, match="--scales"):
        scales("0,4")


def test_the_ocl_judge_goes_to_the_sessions_that_run_the_ocl_track(tmp_path: Path) -> None:
    from benchmark.bench._session_plan import Key, use_lines

    use = pytest_command("py", "ocl", "auto", tmp_path / "c", tmp_path / "r", ScaledRoots(1), "use")
    assert use[use.index("--ocl-judge") + 1] == "use"
    mapping = pytest_command("py", "mapping", "auto", tmp_path / "c", tmp_path / "r", ScaledRoots(1), "use")
    assert "--ocl-judge" not in mapping
    assert (
        Key(1, "ocl", "auto", "cold", "both").label()
        == "pytest cases/test_ocl.py --ocl-judge both -n auto, cold"
    )
    assert Key(1, "mapping", "0", "warm", "both").label() == "pytest cases/test_rq1.py -n 0, warm"
    output = "x\nUSE 7.5.0 judged 96 model variants: 1 JVM start\n  where: checks 1.0 s\n612 passed in 30s"
    assert use_lines(output) == ["USE 7.5.0 judged 96 model variants: 1 JVM start", "  where: checks 1.0 s"]


def test_the_command_is_the_users_with_the_benchs_cache_reports_and_scaled_roots(tmp_path: Path) -> None:
    bundled = pytest_command("py", "all", "auto", tmp_path / "c", tmp_path / "r", ScaledRoots(1))
    assert bundled[:6] == ["py", "-m", "pytest", "cases", "-n", "auto"]
    assert f"cache_dir={tmp_path / 'c'}" in bundled and "--ocl-root" not in bundled
    scaled = ScaledRoots(4, tmp_path / "atl", tmp_path / "ocl", tmp_path / "rt")
    command = pytest_command("py", "ocl", "0", tmp_path / "c", tmp_path / "r", scaled)
    assert command[3] == "cases/test_ocl.py"
    assert command[-6:] == [
        "--validation-root",
        str(tmp_path / "atl"),
        "--ocl-root",
        str(tmp_path / "ocl"),
        "--roundtrip-root",
        str(tmp_path / "rt"),
    ]


def test_cases_are_counted_from_pytests_last_summary_line() -> None:
    output = "....\n1 warning here\n= 2060 passed, 4 skipped, 1 failed in 76.07s (0:01:16) =\n"
    assert count_cases(output) == 2065
    assert count_cases("no summary") == 0


def test_phases_gain_start_up_and_exit() -> None:
    document = {
        "written": 110.0,
        "phases": [
            {"phase": "scoring", "start": 102.0, "end": 105.0},
            {"phase": "collection", "start": 101.0, "end": 102.0},
        ],
    }
    assert phases_of(document, 100.0, 111.5) == [
        (STARTUP, 1.0),
        ("collection", 1.0),
        ("scoring", 3.0),
        (EXIT, 1.5),
    ]
    assert phases_of({}, 100.0, 101.0) == []


def timed(seconds: float, cases: int, work: float | None = None, load: float = 1.0) -> Timed:
    tallies = {} if work is None else {"the tracks' score_run": (work, cases)}
    phases = [(STARTUP, 0.5), ("scoring", seconds - 1.0)]
    return Timed(seconds, 0, phases, tallies, cpu=seconds * 1.5, cases=cases, load=(load, load + 0.5))


def test_the_table_gives_medians_the_spread_the_ratio_and_the_load() -> None:
    key = Key(1, "all", "auto", "cold")
    measurements = {key: {"this": [timed(10, 100), timed(12, 100), timed(11, 100)], "abc1234": []}}
    measurements[key]["abc1234"] = [timed(20, 100, load=2.0), timed(22, 100), timed(24, 100, load=3.0)]
    headers, rows = summary_rows(measurements, ["this", "abc1234"])
    line = dict(zip(headers, rows[0], strict=True))
    assert line["command"] == "pytest cases" and line["-n"] == "auto" and line["disk cache"] == "cold"
    assert line["this: wall s"] == "11.00 [10.00-12.00]"
    assert line["abc1234: wall s"] == "22.00 [20.00-24.00]"
    assert line["this: CPU s"] == "16.5"
    assert line["this / abc1234"] == "0.50"
    assert line["load before-after"] == "1.0-3.5"  # the first session's before, the last one's after
    assert line["cases"] == "100" and line["exit"] == "0"


def test_the_ratio_is_the_pairs_median_with_its_interval_from_five_pairs_on() -> None:
    key = Key(1, "mapping", "0", "cold")
    this = [timed(s, 141) for s in (3.0, 3.3, 2.9, 3.6, 3.1)]
    other = [timed(s, 141) for s in (3.0, 3.0, 3.2, 3.0, 3.1)]  # ratios 1.0, 1.1, 0.906, 1.2, 1.0
    headers, rows = summary_rows({key: {"this": this, "abc1234": other}}, ["this", "abc1234"])
    assert dict(zip(headers, rows[0], strict=True))["this / abc1234"] == "1.00 [0.91-1.20]"
    # pairs, not medians: the drift of the machine's speed from pair to pair cancels out
    drifting = [timed(s, 141) for s in (2.0, 4.0, 6.0, 8.0, 10.0)]
    half = [timed(s / 2, 141) for s in (2.0, 4.0, 6.0, 8.0, 10.0)]
    headers, rows = summary_rows({key: {"this": drifting, "abc1234": half}}, ["this", "abc1234"])
    assert dict(zip(headers, rows[0], strict=True))["this / abc1234"] == "2.00 [2.00-2.00]"


def test_the_workers_auto_started_are_shown_beside_it() -> None:
    def started(*counts: int | None) -> list[Timed]:
        return [Timed(3.0, 0, [], {}, cpu=3.0, cases=10, workers=c) for c in counts]

    for asked, by_side, shown in [
        ("auto", {"this": started(0, 0), "abc1234": started(0)}, "auto (0)"),
        ("auto", {"this": started(0, 0), "abc1234": started(2, 2)}, "auto (0; abc1234: 2)"),
        ("auto", {"this": started(2, 0), "abc1234": started(2)}, "auto (0/2; abc1234: 2)"),
        ("auto", {"this": started(0), "abc1234": started(None)}, "auto (0; abc1234: ?)"),
        ("auto", {"this": started(None), "abc1234": started(None)}, "auto"),  # not recorded
        ("2", {"this": started(2), "abc1234": started(2)}, "2"),
    ]:
        measurements = {Key(1, "all", asked, "warm"): by_side}
        headers, rows = summary_rows(measurements, ["this", "abc1234"])
        assert dict(zip(headers, rows[0], strict=True))["-n"] == shown


def test_one_checkout_has_no_ratio_column() -> None:
    measurements = {Key(1, "ocl", "0", "warm"): {"this": [timed(3, 600)]}}
    headers, rows = summary_rows(measurements, ["this"])
    assert not any("/" in h for h in headers)
    assert dict(zip(headers, rows[0], strict=True))["this: wall s"] == "3.00"


def test_phase_breakdown_per_checkout_with_the_cases_work() -> None:
    by_side = {"this": [timed(10, 100, work=4.0)], "abc1234": [timed(20, 100)]}
    headers, rows = phase_rows(by_side, ["this", "abc1234"])
    assert headers == ["phase", "this: s", "abc1234: s"]
    assert rows[1] == ["scoring", "9.000", "19.000"]
    assert rows[-1] == ["sum over cases: the tracks' score_run (x100)", "4.000", "-"]


def test_slope_per_additional_case_and_beyond_the_cases_work() -> None:
    measurements = {
        Key(1, "roundtrip", "0", "cold"): {"this": [timed(10.0, 1000, work=6.0)]},
        Key(4, "roundtrip", "0", "cold"): {"this": [timed(22.0, 4000, work=15.0)]},
        Key(16, "roundtrip", "0", "cold"): {"this": [timed(70.0, 16000, work=51.0)]},
    }
    (line,) = slope_lines(measurements, ["this"])
    assert "cases 1000 / 4000 / 16000" in line
    assert "4.00 ms per additional case;" in line  # (70 - 10) / 15000
    assert line.endswith("beyond the cases' own work 4.00 / 7.00 / 19.00 s: 1.00 ms per additional case")
    assert slope_lines({Key(1, "all", "0", "cold"): {"this": [timed(1, 10)]}}, ["this"]) == []


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with two commits: the first has this checkout's pyproject.toml and a ``benchmark``
    package; the second changes a dependency."""
    root = tmp_path / "repo"
    (root / "benchmark").mkdir(parents=True)
    (root / "benchmark" / "__init__.py").write_text("MARK = 'old'\n")
    pyproject = (_checkout.REPO / "pyproject.toml").read_text()
    (root / "pyproject.toml").write_text(pyproject)
    git(root, "init", "-q")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "x", "--allow-empty")
    git(root, "add", ".")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first")
    (root / "pyproject.toml").write_text(pyproject.replace('"lark', '"lark-other', 1))
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "second")
    return root


def test_against_checks_out_the_commit_runs_its_code_and_removes_the_worktree(repo: Path) -> None:
    with _checkout.other_checkout("HEAD~1", repo=repo) as checkout:
        assert checkout.label == git(repo, "rev-parse", "--short=7", "HEAD~1").strip()
        assert (checkout.root / "benchmark" / "__init__.py").read_text() == "MARK = 'old'\n"
        code = "import benchmark; print(benchmark.MARK, benchmark.__file__)"
        found = subprocess.run(
            [sys.executable, "-c", code],
            cwd=checkout.root,
            env=checkout.env(),
            capture_output=True,
            text=True,
        ).stdout
        assert found.startswith("old ") and found.split()[1].startswith(str(checkout.root))
        assert str(checkout.root) in git(repo, "worktree", "list")
        folder = checkout.root
    assert not folder.exists()
    assert str(folder) not in git(repo, "worktree", "list")


def test_the_worktree_is_removed_after_an_error(repo: Path) -> None:
    with pytest.raises(RuntimeError), _checkout.other_checkout("HEAD~1", repo=repo) as checkout:
        folder = checkout.root
        raise RuntimeError("a session failed")
    assert not folder.exists() and str(folder) not in git(repo, "worktree", "list")


def test_a_commit_with_other_dependencies_is_refused_before_any_checkout(repo: Path) -> None:
    (repo / "pyproject.toml").write_text((_checkout.REPO / "pyproject.toml").read_text())
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "third")
    with (
        pytest.raises(ConfigurationError, match="dependencies"),
        _checkout.other_checkout("HEAD~1", repo=repo),
    ):
        pass
    assert git(repo, "worktree", "list").count("\n") == 1
    with pytest.raises(ConfigurationError, match="--against"), _checkout.other_checkout("nope", repo=repo):
        pass


def test_both_bytecode_states_are_what_they_say(repo: Path) -> None:
    """compiled: every module of the checkout has its bytecode before a session; source: none has, and
    the sessions write none, whatever the bench's own environment says."""
    with _checkout.other_checkout("HEAD~1", repo=repo) as checkout:
        (checkout.root / "cases").mkdir()
        (checkout.root / "cases" / "test_x.py").write_text("import benchmark\n")
        compiled = _checkout.prepare_bytecode(checkout, "compiled")
        caches = sorted(p.relative_to(checkout.root).as_posix() for p in checkout.root.rglob("*.pyc"))
        assert [c.split(".")[0] for c in caches] == [
            "benchmark/__pycache__/__init__",
            "cases/__pycache__/test_x",
        ]
        assert "PYTHONDONTWRITEBYTECODE" not in compiled.env({})
        source = _checkout.prepare_bytecode(compiled, "source")
        assert not list(checkout.root.rglob("*.pyc")) and not list(checkout.root.rglob("__pycache__"))
        env = source.env({"PATH": os.environ["PATH"]})
        assert env["PYTHONDONTWRITEBYTECODE"] == "1"
        subprocess.run([sys.executable, "-c", "import benchmark"], cwd=source.root, env=env, check=True)
        assert not list(checkout.root.rglob("*.pyc"))
        with pytest.raises(ConfigurationError, match="--bytecode"):
            _checkout.prepare_bytecode(checkout, "warm")


def test_scaled_data_of_the_rows_tracks_only(tmp_path: Path) -> None:
    from benchmark.bench._scaled import scaled_roots

    assert scaled_roots(_checkout.REPO / "validation", tmp_path / "x1", 1, ["mapping"]) == ScaledRoots(1)
    roots = scaled_roots(_checkout.REPO / "validation", tmp_path / "x2", 2, ["mapping"])
    assert roots.ocl is None and roots.roundtrip is None and roots.mapping is not None
    bundled = sorted((_checkout.REPO / "validation").glob("*/runs/**/*.json"))
    scaled = sorted(roots.mapping.glob("*/runs-scale/**/*.json"))
    assert bundled and len(scaled) >= len({p.parts[-3] for p in bundled})  # at least one per transformation
    assert roots.options()[:2] == ["--validation-root", str(roots.mapping)]
