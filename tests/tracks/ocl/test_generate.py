"""``atlbench generate --track ocl`` against the fake OpenAI-compatible server of tests/llm."""

from __future__ import annotations

import json
import re
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
    for case in cases.values():
        outcomes = {j["id"]: j["outcome"] for j in judged.score_run(case).payload["judgements"]}
        assert outcomes["maxLoansLimit"] == "agreement"
    # the grid fills from the cache: nothing is asked again
    before = len(server.answer_requests())
    again = generate(options(tmp_path, server, monkeypatch, selectors=["maxLoans"], templates=["all"]))
    assert again.stats.requests == 0 and len(server.answer_requests()) == before


def test_a_template_field_that_is_not_a_name_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    document = {"format": "atlbench-ocl-run", "version": 1, "provider": "P", "model": "m", "run": "run01"}
    document |= {"mode": "original", "template": "Terse Prompt", "seed": 0, "answers": {}}
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"\$\.template"):
        read_run(path)
