"""The round-trip Ecore <-> SQL study: one case per (pair, operator) ground truth, one per stage evaluation.

Stage-evaluation ids read ``test_run[<pair>-<operator>-k<k>-<stage>-<provider>-run<NN>]`` (baselines:
``test_run[<pair>-<operator>-<stage>-Echo]``), so ``-k "to_many and k2 and inverse"``, ``-k Sloppy`` or
``-k "library and Oracle"`` select what they say. Options (``--roundtrip-root``, ``--roundtrip-baselines``)
are listed under "atl-binding-bench benchmark" in ``pytest --help``; docs/ROUNDTRIP.md describes the sheet
(``reports/roundtrip_per_stage.csv``) and its summaries.
"""

import pytest

pytestmark = pytest.mark.atlbench_track("roundtrip")


def test_ground_truth(atlbench_ground_truth):
    """The case's four models load, and its delta changes canonical lines on both sides."""
    atlbench_ground_truth.check()


def test_run(atlbench_run):
    """Score one stage evaluation against the expected model and record its line of the sheet."""
    atlbench_run.score()
