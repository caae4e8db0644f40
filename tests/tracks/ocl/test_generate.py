"""``atlbench generate --track ocl`` against the fake OpenAI-compatible server of tests/llm."""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmark.bench.support.fake_llm_server import FakeLLMServer
from benchmark.core.errors import InputFormatError
from benchmark.core.track import TrackContext
from benchmark.llm.batch import PollPolicy
from benchmark.llm.generate import GenerateOptions, generate
from benchmark.tracks.ocl.runs import read_run
from benchmark.tracks.ocl.track import OclTrack
from tests.llm.conftest import FAKE_OPENAI_KEY, write_config


def track(root: Path) -> OclTrack:
    return OclTrack(TrackContext(data_root=root, options={"ocl_baselines": (), "ocl_seed": 0}))


@pytest.fixture
def references(library_root: Path) -> dict[str, str]:
    """The rename variant's references: what the fake model answers, by constraint id."""
    return track(library_root).variants.variant("library", "rename").references


@pytest.fixture
def server(references: dict[str, str]):
    def answer(prompt: str) -> str:
        found = re.search(r"inv (\w+): expression", prompt)
        cid = found.group(1) if found else ""
        return (
            f"Here you go:\n```ocl\n{references.get(cid, 'no idea')}\n```"
            if cid != "barcodePrefix"
            else "Sorry."
        )

    fake = FakeLLMServer(answer).start()
    try:
        yield fake
    finally:
        fake.stop()


def options(
    tmp_path: Path, server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch, **extra: object
) -> GenerateOptions:
    monkeypatch.setenv("FAKE_OPENAI_KEY", FAKE_OPENAI_KEY)
    monkeypatch.delenv("ATLBENCH_CACHE_DIR", raising=False)
    values: dict[str, object] = {
        "provider": "OpenAI",
        "track": "ocl",
        "track_options": {"ocl_mode": "rename"},
        "validation_root": tmp_path / "validation",
        "config_file": write_config(tmp_path, server.url),
        "cache_dir": tmp_path / "cache",
        "concurrency": 1,
        "progress": False,
        "poll": PollPolicy(initial=0.01, maximum=0.01),
        **extra,
    }
    return GenerateOptions(**values)  # type: ignore[arg-type]


def test_generate_files_a_run_that_the_track_judges(
    tmp_path: Path, library_root: Path, server: FakeLLMServer, references: dict[str, str], monkeypatch
) -> None:
    report = generate(options(tmp_path, server, monkeypatch))
    assert len(report.filed) == len(references)
    unusable = [f for f in report.filed if not f.ok]
    assert [f.label for f in unusable] == ["library/barcodePrefix rename run01"]
    run = read_run(library_root / "runs" / "OpenAI" / "run01" / "rename.json")
    assert (run.provider, run.model, run.mode, run.seed) == ("OpenAI", "gpt-test-1", "rename", 0)
    assert set(run.answers["library"]) == set(references)
    generation = json.loads(run.path.read_text(encoding="utf-8"))["generation"]
    entry = generation["answers"]["library/maxLoansLimit"]
    assert entry["promptTemplate"]["builtin"] and len(entry["promptTemplate"]["sha256"]) == 64
    # the prompts showed the renamed model and the renamed prose, never the original class names
    prompts = [request.prompt for request in server.answer_requests()]
    assert prompts and all("class Member" not in p and "```plantuml" in p for p in prompts)
    judged = track(library_root)
    (case,) = judged.collect().runs
    outcomes = {j["id"]: j["outcome"] for j in judged.score_run(case).payload["judgements"]}
    assert outcomes.pop("barcodePrefix") == "syntax error"
    assert set(outcomes.values()) == {"agreement"}
    # a second session replays every answer from the cache and writes the same bytes
    before = run.path.read_bytes()
    again = generate(options(tmp_path, server, monkeypatch, offline=True))
    assert again.stats.requests == 0 and run.path.read_bytes() == before


def test_selection_and_a_replaced_template(tmp_path: Path, library_root: Path, server, monkeypatch) -> None:
    template = tmp_path / "mine.md"
    template.write_text(
        "Model:\n{{plantuml}}\nRequirement: {{specification}}\ninv {{constraintId}}: expression\n"
    )
    report = generate(
        options(tmp_path, server, monkeypatch, selectors=["maxLoans"], prompt_template=template)
    )
    assert [f.label for f in report.filed] == ["library/maxLoansLimit rename run01"]
    (prompt,) = [r.prompt for r in server.answer_requests()]
    assert prompt.startswith("Model:\n") and "Requirement: " in prompt
    template.write_text("Model only: {{plantuml}}\n")
    with pytest.raises(InputFormatError, match="specification"):
        generate(options(tmp_path, server, monkeypatch, prompt_template=template))


@pytest.fixture
def refusing_url() -> Iterator[str]:
    """The address of a socket that is bound but never listens: every connection to it is refused."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        sock.close()


def validate(root: Path, *flags: str) -> tuple[int, str]:
    """``atlbench validate`` of the OCL track on ``root``'s tree (the pytest session's harness)."""
    import contextlib
    import io

    from benchmark.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["validate", str(root.parent), "--track", "ocl", "--ocl-baselines", "none", "-v", *flags])
    return code, out.getvalue() + err.getvalue()


def test_a_refused_connection_files_a_missing_run_that_the_next_generate_fills_in(
    tmp_path: Path,
    library_root: Path,
    server: FakeLLMServer,
    references: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    refusing_url: str,
) -> None:
    (tmp_path / "down").mkdir()
    down = write_config(tmp_path / "down", refusing_url)
    report = generate(options(tmp_path, server, monkeypatch, config_file=down, max_attempts=1))
    assert [f.status for f in report.filed] == ["no-answer"] * len(references)
    path = library_root / "runs" / "OpenAI" / "run01" / "rename.json"
    assert all(f.path == path and "filed as missing" in (f.message or "") for f in report.filed)
    run = read_run(path)  # the run is on disk although nothing was answered
    assert run.answers == {} and sorted(run.unanswered["library"]) == sorted(references)
    record = json.loads(path.read_text(encoding="utf-8"))["generation"]["answers"]["library/maxLoansLimit"]
    assert (record["status"], record["missing"], record["attempts"]) == ("no-answer", "error", 1)
    assert record["ledger"]["costNote"] == "no answer" and record["error"].startswith("connection failed")

    # The session lists the run as missing with its reason, scores nothing of it, and fails in one line
    code, text = validate(library_root)
    assert code == 1
    assert "0 constraints, 0 runs judged, 1 excluded (1 missing), 0 answers" in text
    assert f"  missing: {path}: no answer for {len(references)} of {len(references)} constraints" in text
    (failure,) = [line for line in text.splitlines() if "got no answer" in line]
    assert failure.startswith("error: 1 run got no answer (missing, not scored): ocl library-rename OpenAI")
    assert failure.endswith("or accept it with --allow-missing-runs")
    code, text = validate(library_root, "--allow-missing-runs")
    assert "accepted by --allow-missing-runs" in text  # accepted, and listed; but nothing was measured
    assert code == 1 and "error: no run was scored: every one of the session's 1 run was excluded" in text

    # The next generate against a working server fills it in; the judge then sees every answer
    again = generate(options(tmp_path, server, monkeypatch))
    assert again.stats.requests == len(references) and not read_run(path).unanswered
    code, text = validate(library_root)
    assert code == 0 and "1 run judged, 0 excluded (0 missing)" in text


def test_requests_the_budget_stopped_are_missing_and_only_they_are_sent_again(
    tmp_path: Path,
    library_root: Path,
    server: FakeLLMServer,
    references: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    report = generate(options(tmp_path, server, monkeypatch, max_requests=2))
    assert sum(f.status == "no-answer" for f in report.filed) == len(references) - 2
    run = read_run(library_root / "runs" / "OpenAI" / "run01" / "rename.json")
    assert len(run.answers["library"]) == 2 and len(run.unanswered["library"]) == len(references) - 2
    records = json.loads(run.path.read_text(encoding="utf-8"))["generation"]["answers"]
    assert {r["missing"] for r in records.values() if r.get("status") == "no-answer"} == {"budget"}
    (case,) = track(library_root).collect().runs
    judged = track(library_root).score_run(case)
    assert not judged.ok and "not sent" in (judged.payload["missing"] or "")
    again = generate(options(tmp_path, server, monkeypatch))
    assert again.stats.requests == len(references) - 2  # the two answers that arrived came from the cache
    assert again.stats.cache_hits == 2 and not read_run(run.path).unanswered
    assert track(library_root).score_run(case).ok


def test_every_template_in_one_pass_filed_under_its_template_and_judged(
    tmp_path: Path, library_root: Path, server: FakeLLMServer, monkeypatch
) -> None:
    report = generate(options(tmp_path, server, monkeypatch, selectors=["maxLoans"], templates=["all"]))
    assert sorted(f.label for f in report.filed) == [
        "library/maxLoansLimit rename run01",
        "library/maxLoansLimit rename stepwise run01",
        "library/maxLoansLimit rename terse run01",
    ]
    assert len({r.prompt for r in server.answer_requests()}) == 3
    runs = library_root / "runs" / "OpenAI"
    study = read_run(runs / "run01" / "rename.json")
    assert study.template == "study" and "template" not in json.loads(study.path.read_text(encoding="utf-8"))
    for name, file in (("terse", "prompt_terse.md"), ("stepwise", "prompt_stepwise.md")):
        run = read_run(runs / name / "run01" / "rename.json")
        assert run.template == name and set(run.answers["library"]) == {"maxLoansLimit"}
        entry = json.loads(run.path.read_text(encoding="utf-8"))["generation"]["answers"]
        assert entry["library/maxLoansLimit"]["promptTemplate"]["name"] == file
    judged = track(library_root)
    cases = {case.case_id: case for case in judged.collect().runs}
    assert sorted(cases) == [
        "library-rename-OpenAI-run01",
        "library-rename-OpenAI-stepwise-run01",
        "library-rename-OpenAI-terse-run01",
    ]
    for case in cases.values():  # one constraint of the model answered: each run waits for the others
        row = judged.score_run(case)
        assert not row.ok and "no answer for 9 of 10 constraints" in (judged.missing_reason(row) or "")
    # the grid fills from the cache: nothing is asked again
    before = len(server.answer_requests())
    again = generate(options(tmp_path, server, monkeypatch, selectors=["maxLoans"], templates=["all"]))
    assert again.stats.requests == 0 and len(server.answer_requests()) == before
    # the model's other constraints under every template: then every template's run is judged
    generate(options(tmp_path, server, monkeypatch, selectors=["library"], templates=["all"]))
    judged = track(library_root)
    for case in cases.values():
        outcomes = {j["id"]: j["outcome"] for j in judged.score_run(case).payload["judgements"]}
        assert outcomes["maxLoansLimit"] == "agreement"


def test_a_template_field_that_is_not_a_name_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    document = {"format": "atlbench-ocl-run", "version": 1, "provider": "P", "model": "m", "run": "run01"}
    document |= {"mode": "original", "template": "Terse Prompt", "seed": 0, "answers": {}}
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"\$\.template"):
        read_run(path)
