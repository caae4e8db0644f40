import pytest

pytestmark = pytest.mark.atlbench_track("toy")


def test_ground_truth(atlbench_ground_truth):
    atlbench_ground_truth.check()


def test_run(atlbench_run):
    atlbench_run.score()
