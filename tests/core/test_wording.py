"""Counts read as English wherever a command prints them ("1 run", not "1 runs")."""

from __future__ import annotations

from pathlib import Path

from benchmark.core.wording import plain_text, plural, word
from benchmark.llm.engine import EngineStats
from benchmark.llm.runner import TaskReport
from benchmark.llm.task import FILED_OK, Filed


def test_plural():
    assert [plural(n, "run") for n in (0, 1, 2)] == ["0 runs", "1 run", "2 runs"]
    assert plural(1, "entry", "entries") == "1 entry" and plural(3, "entry", "entries") == "3 entries"
    assert [word(n, "key") for n in (1, 2)] == ["key", "keys"]


def test_one_more_problem_and_one_excluded_run_are_said_in_the_singular(tmp_path: Path):
    """Messages that count: a schema error with one more after it, a statistics note on one excluded run."""
    import pytest

    from benchmark.core.errors import InputFormatError
    from benchmark.tracks.mapping.interchange import InterchangeDocument, TransformationInfo, validate
    from benchmark.tracks.mapping.scoring.compare import error_row
    from benchmark.tracks.mapping.stats.summary import compute_statistics

    document = InterchangeDocument(TransformationInfo("T", "T.atl")).to_json()
    with pytest.raises(InputFormatError) as caught:
        validate({**document, "classMatches": 2, "calledRules": 3})  # two problems
    assert "(and 1 more problem)" in str(caught.value)
    notes = compute_statistics(
        [error_row("broken", provider="P", transformation="T", run="r")], draws=10
    ).notes
    assert "1 run could not be scored and is excluded (listed below)" in notes


def test_the_generate_summary_line_says_one_of_each_in_the_singular(tmp_path: Path):
    stats = EngineStats(
        jobs=1, requests=1, retries=1, batches=1, cache_hits=1, input_tokens=5, output_tokens=2
    )
    report = TaskReport([Filed("T run01", FILED_OK, path=tmp_path / "a.json", changed=True)], stats)
    assert report.summary_line() == (
        "1 run; 1 request sent (1 retry); 1 batch; 1 cache hit; 0 failed; tokens 5 in / 2 out; 1 file written"
    )


def test_plain_text_drops_rest_markup():
    rest = "Run ``atlbench baseline SOURCE`` (see :func:`~benchmark.x.run_baseline`, :mod:`benchmark.x`)."
    assert plain_text(rest) == "Run atlbench baseline SOURCE (see run_baseline, benchmark.x)."
    assert (
        plain_text(":class:`Job`\\ s and :class:`the task <benchmark.llm.task.Task>`") == "Jobs and the task"
    )
