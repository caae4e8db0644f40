"""The USE judge without USE: finding it, reading its output, the options, the session check, the report.

The output samples are written here in the form USE 7.5.0's shell prints (command echo, ``Added
invariants:``, ``checking invariant (n) `C::name': ...``); the end-to-end behaviour with a real USE is
``test_use_differential.py`` and ``pytest cases/test_ocl.py --ocl-judge both``.
"""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from benchmark.core.errors import ConfigurationError
from benchmark.core.rows import Row
from benchmark.core.track import TrackContext
from benchmark.tracks.ocl.payload import AGREEMENT, DISAGREEMENT, SYNTAX_ERROR, Judgement
from benchmark.tracks.ocl.reports.judge import disagreement_records, judge_lines, use_cost
from benchmark.tracks.ocl.scoring import use_batch
from benchmark.tracks.ocl.scoring.use_batch import Renamed, UseAnswer, plan_groups, rename_invariants
from benchmark.tracks.ocl.scoring.use_install import UseNotFound, find_use
from benchmark.tracks.ocl.scoring.use_judge import disagreements
from benchmark.tracks.ocl.track import OclTrack


def test_without_use_the_judge_says_how_to_give_it(tmp_path: Path) -> None:
    with pytest.raises(UseNotFound, match="ATLBENCH_USE"):
        find_use(None, environ={})
    with pytest.raises(UseNotFound, match="no such file or folder"):
        find_use(None, environ={"ATLBENCH_USE": str(tmp_path / "nowhere")})
    with pytest.raises(UseNotFound, match="neither a `use' launcher nor a folder of USE's jars"):
        find_use(tmp_path)


def test_use_is_found_as_a_launcher_or_an_installation_folder(tmp_path: Path) -> None:
    launcher = tmp_path / "bin" / "use"
    launcher.parent.mkdir()
    launcher.write_text("#!/bin/sh\n")
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
    assert find_use(None, environ={"ATLBENCH_USE": str(launcher)}).command == (str(launcher.resolve()),)
    found = find_use(tmp_path, environ={"ATLBENCH_USE": "/elsewhere"})  # the option wins
    assert found.command == (str(launcher.resolve()),) and found.origin.startswith("--ocl-use")
    assert found.shell_argv("m.use")[-4:] == ["-nogui", "-noplugins", "-nr", "m.use"]


def test_the_installation_is_identified_by_its_files(tmp_path: Path) -> None:
    """The disk cache's key follows the launcher's and the jars' bytes: another build is another key."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "lib").mkdir()
    launcher = tmp_path / "bin" / "use"
    launcher.write_text('#!/bin/sh\njava -jar "$(dirname "$0")/../lib/use-gui.jar" "$@"\n')
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
    jar = tmp_path / "lib" / "use-gui.jar"
    jar.write_bytes(b"one")
    found = find_use(tmp_path)
    assert found.command == (str(launcher.resolve()),) and str(jar.resolve()) in found.files
    before = found.fingerprint()
    assert find_use(tmp_path).fingerprint() == before
    jar.write_bytes(b"two, another build")
    assert find_use(tmp_path).fingerprint() != before


def test_the_track_refuses_to_collect_without_use(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("ATLBENCH_USE", raising=False)
    options = {"ocl_baseline": (), "ocl_seed": 0, "ocl_judge": "both", "ocl_use": None}
    track = OclTrack(TrackContext(tmp_path, options))
    with pytest.raises(ConfigurationError, match="--ocl-judge"):
        track.collect()


def test_the_judge_option_names_its_values() -> None:
    option = next(o for o in OclTrack.options if o.flag == "--ocl-judge")
    assert option.convert("both", Path.cwd()) == "both"
    with pytest.raises(ConfigurationError, match="builtin, use or both"):
        option.convert("java", Path.cwd())


def test_names_are_suffixed_outside_strings_and_comments_and_positions_given_back() -> None:
    text = "context A inv long: self.s = 'inv x: y' -- inv z: w\ncontext B inv\n  b : true and c"
    renamed = rename_invariants(text, "__7")
    assert renamed is not None
    assert renamed.text == (
        "context A inv long__7: self.s = 'inv x: y' -- inv z: w\ncontext B inv\n  b__7 : true and c"
    )
    assert renamed.original_position("line 1:40 no viable alternative") == "line 1:37 no viable alternative"
    assert renamed.original_position("3:9: Undefined variable `c'.") == "3:6: Undefined variable `c'."
    assert renamed.original_position("line 2:3 x") == "line 2:3 x"
    assert rename_invariants("context A inv and: true", "__1") is None  # USE rejects `and' as a name


def test_answers_sharing_a_name_go_to_different_groups() -> None:
    texts = ["context A inv n: true", "context A inv n: false", "context A inv m: true", "context A inv: 1"]
    assert plan_groups(texts) == [[0, 2, 3], [1]]


def test_a_load_and_a_check_are_read_as_use_prints_them() -> None:
    output = "\n".join(
        [
            "USE version 7.5.0, Copyright (C) 1999-2025 University of Bremen",
            "atlbench.cmd> constraints -load a0.ocl",
            "Added invariants:",
            "A::n__0",
            "atlbench.cmd> constraints -load a1.ocl",
            "a1.ocl:line 1:21 no viable alternative at input '='",
            "atlbench.cmd> constraints -load a2.ocl",
            "a2.ocl:1:27: Undefined operation named `agee' in expression `A.agee()'.",
            "Added invariants:",
            "(none)",
            "atlbench.cmd> open -q s0.soil",
            "atlbench.cmd> check",
            "checking structure...",
            "checking invariants...",
            "checking invariant (1) `A::n__0': FAILED.",
            "  -> false : Boolean",
            "checked 1 invariant in 0.001s, 1 failure.",
        ]
    )
    outputs: list[list[str]] = []
    for line in output.splitlines()[1:]:
        if line.startswith("atlbench.cmd> "):
            outputs.append([])
        else:
            outputs[-1].append(line)
    answers = [UseAnswer() for _ in range(3)]
    for index in range(3):
        use_batch._read_load(answers[index], outputs[index], f"a{index}.ocl", Renamed(""))
    assert answers[0].invariants == ("A::n__0",) and answers[0].rejected is None
    assert (answers[1].rejected, answers[1].message) == (
        "syntax",
        "line 1:21 no viable alternative at input '='",
    )
    assert answers[2].rejected == "type" and answers[2].message.startswith("1:27: Undefined operation")
    assert use_batch._read_check(answers, {"A::n__0": 0}, "s0", "\n".join(outputs[4])) == 1
    assert answers[0].verdicts == {"s0": {"A::n__0": "FAILED"}}


def _row(payload: dict) -> Row:
    return Row("ocl", "P", "m", "library-original", "run01", "f.json", payload=payload)


def _payload(disagreeing: bool) -> dict:
    ours = [Judgement("c1", AGREEMENT, "context A inv: true")]
    use = [Judgement("c1", DISAGREEMENT, "context A inv: true", ("s1.soil",))] if disagreeing else ours
    cost = {
        "run": "1-library-original-0",
        "version": "7.5.0",
        "jvms": 1,
        "states": 3,
        "checks": 9,
        "seconds": 2.5,
        "restarts": 1,
        "judgeErrors": 2,
        "breakdown": {"start": 0.5, "check": 1.5},
    }
    return {
        "datasetModel": "library",
        "mode": "original",
        "judgements": [j.to_json() for j in ours],
        "judge": "both",
        "useJudge": {**cost, "answers": 1},
        "judgeDisagreements": [d.to_json() for d in disagreements(ours, use)],
    }


def test_a_disagreement_fails_the_session_unless_accepted(tmp_path: Path) -> None:
    options = {"ocl_judge": "both", "ocl_accept_disagreements": False}
    strict = OclTrack(TrackContext(tmp_path, options))
    rows = [_row(_payload(disagreeing=True)), _row(_payload(disagreeing=False))]
    messages, failures = strict.session_check(rows)
    assert messages == [] and "disagree on 1 of 2 answers" in failures[0]
    lenient = OclTrack(TrackContext(tmp_path, {**options, "ocl_accept_disagreements": True}))
    messages, failures = lenient.session_check(rows)
    assert failures == [] and "accepted by --ocl-accept-disagreements" in messages[0]
    assert strict.session_check(rows[1:]) == (["ocl: the built-in judge and USE agree on all 1 answer"], [])


def test_the_report_counts_each_use_batch_once_and_lists_every_disagreement() -> None:
    rows = [_row(_payload(disagreeing=True)), _row(_payload(disagreeing=False))]
    assert use_cost(rows) | {"versions": None} == {
        "batches": 1,
        "jvms": 1,
        "states": 3,
        "checks": 9,
        "seconds": 2.5,
        "versions": None,
        "cached": 0,
        "restarts": 1,
        "judgeErrors": 2,
        "breakdown": {"start": 0.5, "check": 1.5},
    }
    (record,) = disagreement_records(rows)
    assert (record["constraint"], record["builtin"], record["use"], record["states"]) == (
        "c1",
        AGREEMENT,
        DISAGREEMENT,
        "s1.soil",
    )
    text = "\n".join(judge_lines(rows))
    assert "USE 7.5.0 judged 1 model variant: 1 JVM start, 3 states opened and checked" in text
    assert "USE replaced 1 time (died, hung or out of step), 2 judge errors" in text
    assert "  where: USE starts 0.5 s, checks 1.5 s" in text
    cached = [
        _row(_payload(disagreeing=False) | {"useJudge": {**_payload(False)["useJudge"], "cached": True}})
    ]
    assert "USE 7.5.0 judged 1 model variant (1 read from the disk cache): USE was not started" in "\n".join(
        judge_lines(cached)
    )
    assert "disagree on 1 answer" in text
    assert judge_lines([_row({"judgements": []})]) == []


def test_an_answer_without_a_constraint_is_not_sent_to_use() -> None:
    from benchmark.tracks.ocl.scoring.use_batch import UseCost
    from benchmark.tracks.ocl.scoring.use_judge import UseVerdicts

    verdicts = UseVerdicts({("case", "c1"): Judgement("c1", SYNTAX_ERROR, "none")}, {}, UseCost(), "r")
    assert verdicts.judge(("case", "c1"), None).outcome == "missing"
    assert verdicts.judge(("case", "c1"), "sorry").outcome == SYNTAX_ERROR


def test_a_judge_error_has_a_column_only_when_an_answer_has_it() -> None:
    from benchmark.tracks.ocl.payload import JUDGE_ERROR, OUTCOMES, outcomes_of

    assert outcomes_of([{AGREEMENT: 3}]) == OUTCOMES
    assert outcomes_of([{AGREEMENT: 3}, {JUDGE_ERROR: 1}]) == (*OUTCOMES, JUDGE_ERROR)


def test_the_reports_cache_key_does_not_hold_what_use_cost() -> None:
    """A warm session reads USE's verdicts from the disk cache (``cached``, other seconds): its scores are
    the cold session's, and so is their key."""
    from benchmark.reports.cached import report_key
    from benchmark.tracks.ocl.reports.tables import _judged

    cold = [_row(_payload(disagreeing=False))]
    warm_payload = _payload(disagreeing=False)
    warm_payload["useJudge"] = {**warm_payload["useJudge"], "seconds": 0.0, "cached": True}
    warm = [_row(warm_payload)]
    assert report_key("s", _judged(cold), 1, ("x",)) == report_key("s", _judged(warm), 1, ("x",))
    other = _payload(disagreeing=True)
    assert report_key("s", _judged(cold), 1, ("x",)) != report_key("s", _judged([_row(other)]), 1, ("x",))
