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


def test_a_workers_facts_reach_the_controller_as_they_were_found() -> None:
    """Facts travel as JSON in ``workeroutput``: the controller gets equal facts, payload keys in their
    order (``results.json`` writes them as they come), and text that is not facts is left out."""
    from benchmark.core.rows import Facts

    payload = {"states": 14, "constraints": 10, "mode": "x"}
    found = Facts("ocl", "library-rename", "library.use", None, payload)
    broken = Facts("atl", "Families2Persons", "f.atl", "the ATL file does not parse")
    worker = RowCollector()
    worker.add_facts(found)
    worker.add_facts(broken)
    controller = RowCollector()
    controller.merge_facts([*worker.export_facts(), "not JSON", '{"track": "atl"}'])
    assert controller.facts == {("ocl", "library-rename"): found, ("atl", "Families2Persons"): broken}
    assert list(controller.facts["ocl", "library-rename"].payload) == ["states", "constraints", "mode"]
