"""The OCL robustness study: LLM-written constraints judged on original and transformed models.

One ground-truth case per (dataset model, mode): the transformed references must keep the verdicts of
the originals on the transformed states. One run case per (dataset model, mode, provider, run), judging
every constraint of the model: ids read ``test_run[library-rename-Synthetic-Noisy-run01]`` and
``test_run[library-rename-Oracle]``, so ``-k rename``, ``-k library`` and ``-k Oracle`` select what they
say. Options (``--ocl-root``, ``--ocl-baselines``, ``--ocl-seed``) are listed in ``pytest --help``.
"""

import pytest

pytestmark = pytest.mark.atlbench_track("ocl")


def test_ground_truth(atlbench_ground_truth):
    """The variant builds and its references keep the recorded verdicts on its states."""
    atlbench_ground_truth.check()


def test_run(atlbench_run):
    """Judge every answer of the run for the model and record the outcomes."""
    atlbench_run.score()
