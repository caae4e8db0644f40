"""The controller's row collector with plain objects: which run cases lost their row, and why."""

from benchmark.core.collector import CRASHED, LOST, RUN_MARKER, RowCollector
from benchmark.core.rows import Row

RUN = (RUN_MARKER, "test_run")


def test_cases_whose_row_never_arrived_are_lost_with_why() -> None:
    collector = RowCollector()
    for node in ("t::test_run[a]", "t::test_run[b]", "t::test_run[c]"):
        collector.accept(node, "setup", "passed", RUN)
    collector.accept("t::test_run[a]", "call", "passed", RUN)
    collector.accept("t::test_run[b]", "call", "passed", RUN)
    collector.add("t::test_run[a]", Row("atl", "P", "m", "T", "r1"))
    # pytest-xdist's report of a worker that died while running c: no keywords, phase "???"
    collector.accept("t::test_run[c]", "???", "failed", ())
    collector.accept("t::test_other", "???", "failed", ())  # not a benchmark case: not ours to list
    assert collector.lost() == {"t::test_run[b]": LOST, "t::test_run[c]": CRASHED}
    assert collector.problems() == [
        "t::test_run[b]: ran but sent no row",
        "t::test_run[c]: its worker crashed while scoring it; no row",
    ]
