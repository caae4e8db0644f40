"""RQ1: how well do LLMs propose class and binding mappings? One case per ground truth, one per run.

Case ids read ``test_run[<transformation>-<provider>-<run>]``, so ``-k Grafcet``, ``-k Claude`` and
``-k "Grafcet and Claude"`` select what they say. Options (``--validation-root``, ``--partial-weight``,
``--confidence``, ``--provider``, ``--atl-baselines``, ``--reports-dir``, ``--min-f1``, ``--compare``,
``--allow-missing-runs``) are listed under "atl-binding-bench benchmark" in ``pytest --help``.
"""

import pytest

pytestmark = pytest.mark.atlbench_track("atl")


def test_ground_truth(atlbench_ground_truth):
    """The ATL file parses, and every class and target feature its extraction names exists."""
    atlbench_ground_truth.check()


def test_run(atlbench_run):
    """Score one run against the ground truth and record its count-table row."""
    atlbench_run.score()
