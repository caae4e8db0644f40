"""What generated runs cost shows in every track's tables, and ``atlbench report`` rebuilds it from
``results.json`` alone: runs generated against the local fake server with a configured price (and a
provider declared free, ``local``), scored by ``atlbench validate``, then reported again from the saved
session. The harness carries each run file's ledger in its row (benchmark.harness.ledger); the tables read it
with the report kit (benchmark.reports.cost)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmark.bench.support.fake_llm_server import FakeLLMServer
from benchmark.cli import main
from benchmark.core.results import Results
from benchmark.core.track import TrackContext
from benchmark.llm.batch import PollPolicy
from benchmark.llm.generate import GenerateOptions, generate
from benchmark.tracks.ocl.track import OclTrack
from tests.llm.conftest import FAKE_OPENAI_KEY, write_config
from tests.llm.test_costs_and_budget import LOCAL_PRICE, OPENAI_PRICE
from tests.tracks.roundtrip.test_llm_task import answer_for as roundtrip_answer
from tests.tracks.roundtrip.test_llm_task import study_tree

REPO = Path(__file__).resolve().parents[2]
REQUEST_COST = 0.00045  # the fake server's 100 prompt and 20 completion tokens at 2.5 and 10 USD per million


def priced_config(directory: Path, url: str) -> Path:
    """The fake server's providers, OpenAI with a price and Claude declared free (``local``)."""
    config = write_config(directory, url)
    config.write_text(config.read_text() + "\n" + OPENAI_PRICE + "\n" + LOCAL_PRICE, encoding="utf-8")
    return config


def options(tmp_path: Path, config: Path, **values: object) -> GenerateOptions:
    base: dict[str, object] = {
        "provider": "OpenAI",
        "validation_root": tmp_path / "validation",
        "config_file": config,
        "cache_dir": tmp_path / "cache",
        "concurrency": 1,
        "progress": False,
        "poll": PollPolicy(initial=0.01, maximum=0.01),
    }
    return GenerateOptions(**(base | values))  # type: ignore[arg-type]


def validate_and_report(
    tmp_path: Path, track: str, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[Path, str]:
    """``atlbench validate`` with reports (its terminal output returned), then ``atlbench report`` from
    the saved results.json into another folder: every file it writes is the same, byte for byte."""
    results, first, second = tmp_path / "results.json", tmp_path / "first", tmp_path / "second"
    root = tmp_path / "validation"
    code = main(
        ["validate", str(root), "--track", track, "-o", str(results), "--reports-dir", str(first), *extra]
    )
    terminal = capsys.readouterr().out
    assert code == 0, terminal
    assert main(["report", str(results), "-o", str(second)]) == 0
    capsys.readouterr()
    rebuilt = sorted(p.name for p in second.iterdir())
    assert rebuilt and "index.html" in rebuilt
    for name in rebuilt:
        if name != "results.json":
            assert (second / name).read_bytes() == (first / name).read_bytes(), name
    return second, terminal


def cost_row(lines: list[str], *keys: str) -> list[str]:
    """The cells of the terminal table line that starts with ``keys`` (split on two or more blanks)."""
    for line in lines:
        cells = re.split(r"\s{2,}", line.strip())
        if tuple(cells[: len(keys)]) == keys and len(cells) > len(keys) + 6:
            return cells
    raise AssertionError(f"no cost line for {keys} in:\n" + "\n".join(lines))


def test_the_mapping_tables_show_what_the_runs_cost(
    tmp_path: Path, llm_server: FakeLLMServer, validation_tree: Path, fake_keys: dict[str, str], capsys
) -> None:
    config = priced_config(tmp_path, llm_server.url)
    assert generate(options(tmp_path, config, runs=2)).ok
    assert generate(options(tmp_path, config, provider="Claude")).ok
    out, terminal = validate_and_report(tmp_path, "atl", capsys, "--atl-baselines", "NameEquality")
    lines = terminal[terminal.index("Cost and time per provider") :].splitlines()
    # 2 transformations x 2 runs; the local provider's cost is 0 with its reason; a baseline says why not
    openai = cost_row(lines, "OpenAI")
    assert openai[1:6] == ["4", "4", "400", "80", f"{4 * REQUEST_COST:.4f}"]
    f1, per_dollar = float(openai[7]), float(openai[8])
    assert per_dollar == pytest.approx(f1 / REQUEST_COST, abs=0.1)
    assert cost_row(lines, "Claude")[1:6] == ["2", "2", "400", "80", "0 (local)"]
    assert cost_row(lines, "NameEquality")[2:7] == ["-"] * 5
    assert "NameEquality: baselines computed by the benchmark" in terminal
    summary = (out / "summary.md").read_text(encoding="utf-8")
    markdown = [
        [c.strip() for c in line.split("|")[1:7]] for line in summary.splitlines() if "| OpenAI " in line
    ]
    assert ["OpenAI", "4", "4", "400", "80", f"{4 * REQUEST_COST:.4f}"] in markdown  # the cost table's row
    aggregate = (out / "rq1_aggregate.csv").read_text(encoding="utf-8").splitlines()
    assert aggregate[0].endswith(",input_tokens,output_tokens,cost_usd,median_seconds,cost_note")
    (total,) = [line for line in aggregate if line.startswith("OpenAI,") and ",ALL," in line]
    assert ",400,80,0.0018," in total
    assert "0.0018" in (out / "tables.tex").read_text() and "0 (local)" in (out / "index.html").read_text()
    rows = Results.load(tmp_path / "results.json").section("atl").rows  # type: ignore[union-attr]
    assert all(("ledger" in r.provenance) == (r.provider != "NameEquality") for r in rows)
    # the pytest session (rows scored in xdist workers) carries the same ledgers into the same tables
    reports = tmp_path / "pytest-reports"
    command = [
        sys.executable, "-m", "pytest", str(REPO / "cases" / "test_rq1.py"), "-q", "-n", "2",
        "-p", "no:randomly", "-p", "no:cacheprovider", "--validation-root", str(validation_tree),
        "--reports-dir", str(reports), "--atl-baselines", "NameEquality",
    ]  # fmt: skip
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert f"{4 * REQUEST_COST:.4f}" in done.stdout
    for name in ("rq1_aggregate.csv", "tables.tex"):
        assert (reports / name).read_bytes() == (tmp_path / "first" / name).read_bytes(), name


def test_the_ocl_tables_show_what_the_runs_cost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "validation" / "ocl"
    dataset = REPO / "validation" / "ocl"
    shutil.copytree(dataset / "library", root / "library")
    spec = json.loads((dataset / "specification.json").read_text(encoding="utf-8"))
    (root / "specification.json").write_text(json.dumps({"library": spec["library"]}), encoding="utf-8")
    track = OclTrack(TrackContext(data_root=root, options={"ocl_baselines": (), "ocl_seed": 0}))
    references = track.variants.variant("library", "rename").references  # type: ignore[union-attr]

    def answer(prompt: str) -> str:
        found = re.search(r"inv (\w+): expression", prompt)
        return f"```ocl\n{references.get(found.group(1) if found else '', 'no idea')}\n```"

    monkeypatch.setenv("FAKE_OPENAI_KEY", FAKE_OPENAI_KEY)
    monkeypatch.delenv("ATLBENCH_CACHE_DIR", raising=False)
    server = FakeLLMServer(answer).start()
    try:
        config = priced_config(tmp_path, server.url)
        for mode in ("original", "rename"):
            generated = generate(options(tmp_path, config, track="ocl", track_options={"ocl_mode": mode}))
            assert generated.ok
    finally:
        server.stop()
    out, terminal = validate_and_report(tmp_path, "ocl", capsys, "--ocl-baselines", "none")
    constraints = len(references)
    lines = terminal[terminal.index("cost and time") :].splitlines()
    for mode in ("original", "rename"):
        cells = cost_row(lines, "OpenAI", mode)
        assert cells[2:7] == [
            "1",
            str(constraints),
            str(100 * constraints),
            str(20 * constraints),
            f"{constraints * REQUEST_COST:.4f}",
        ]
        accuracy, per_dollar = float(cells[8]), float(cells[9])
        assert per_dollar == pytest.approx(accuracy / REQUEST_COST, rel=1e-3)
    robustness = (out / "ocl_robustness.csv").read_text(encoding="utf-8").splitlines()
    assert robustness[0].endswith(",input_tokens,output_tokens,cost_usd,median_seconds,cost_note")
    assert f",{100 * constraints},{20 * constraints}," in robustness[1]
    assert f"{constraints * REQUEST_COST:.4f}" in (out / "ocl_cost.tex").read_text(encoding="utf-8")
    assert "Cost and time per provider and mode" in (out / "index.html").read_text(encoding="utf-8")


def test_the_roundtrip_tables_show_what_the_runs_cost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    study_tree(tmp_path)
    monkeypatch.setenv("FAKE_OPENAI_KEY", FAKE_OPENAI_KEY)
    monkeypatch.delenv("ATLBENCH_CACHE_DIR", raising=False)
    server = FakeLLMServer(roundtrip_answer).start()
    try:
        config = priced_config(tmp_path, server.url)
        track_options = {"examples": (1,), "example_seed": 0}
        assert generate(options(tmp_path, config, track="roundtrip", track_options=track_options)).filed
    finally:
        server.stop()
    out, terminal = validate_and_report(tmp_path, "roundtrip", capsys, "--roundtrip-baselines", "none")
    lines = terminal[terminal.index("cost and time") :].splitlines()
    # 3 pairs x 2 operators at k = 1: 6 inverse requests; one inverse answer is unusable, so 5 forward
    # requests, and the forward stage not run sent none (it costs nothing, it is not an unknown cost)
    for stage, requests in (("inverse", 6), ("forward", 5)):
        cells = cost_row(lines, "OpenAI", stage)
        assert cells[3:7] == [
            str(requests),
            str(100 * requests),
            str(20 * requests),
            f"{requests * 0.00045:.4f}",
        ]
        correct, per_dollar = float(cells[8]), float(cells[9])
        assert per_dollar == pytest.approx(correct / REQUEST_COST, rel=1e-3)
    by_stage = (out / "roundtrip_by_stage.csv").read_text(encoding="utf-8").splitlines()
    assert by_stage[0].endswith(",input_tokens,output_tokens,cost_usd,median_seconds,cost_note")
    assert "Round trip: cost and time" not in by_stage[0]
    assert f"{6 * REQUEST_COST:.4f}" in (out / "roundtrip_cost.tex").read_text(encoding="utf-8")
