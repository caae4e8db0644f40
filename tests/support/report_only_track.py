"""A track with no cases, for tests of the report kit: its hooks that score return nothing useful, and a
subclass adds what the test looks at (a headline, a report writer)."""

from __future__ import annotations

from benchmark.core.rows import Facts, Row
from benchmark.core.track import Collection, GroundTruthCase, RunCase, Track


class ReportOnlyTrack(Track):
    def collect(self) -> Collection:
        return Collection()

    def check_ground_truth(self, case: GroundTruthCase) -> Facts:
        return Facts(self.name, case.task)

    def ground_truth_error(self, task: str) -> str | None:
        return None

    def score_run(self, case: RunCase) -> Row:
        raise NotImplementedError("a report-only track scores nothing")

    def facts(self, task: str) -> Facts:
        return Facts(self.name, task)
