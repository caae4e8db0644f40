"""Running a task through the engine, with a progress bar and the session's summary line."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from benchmark.core.wording import plural
from benchmark.llm.engine import Engine, EngineStats
from benchmark.llm.requests import Job, JobResult
from benchmark.llm.task import FILED_NO_ANSWER, FILED_OK, FILED_REFUSED, FILED_UNUSABLE, Filed, Task


@dataclass
class TaskReport:
    filed: list[Filed] = field(default_factory=list)
    stats: EngineStats = field(default_factory=EngineStats)

    def count(self, status: str) -> int:
        return sum(1 for f in self.filed if f.status == status)

    @property
    def ok(self) -> bool:
        return all(f.ok for f in self.filed)

    def summary_line(self) -> str:
        """One line, HELM ``CacheStats``-style: what was asked, replayed, spent and lost."""
        s = self.stats
        replayed = s.cache_hits + s.log_hits
        replay_detail = f" ({s.cache_hits} cache, {s.log_hits} log)" if s.log_hits else ""
        parts = [
            plural(s.jobs, "run"),
            f"{plural(s.requests, 'request')} sent"
            + (f" ({plural(s.retries, 'retry', 'retries')})" if s.retries else ""),
            f"{plural(replayed, 'cache hit')}{replay_detail}",
            f"{self.count(FILED_UNUSABLE) + self.count(FILED_NO_ANSWER) + self.count(FILED_REFUSED)} failed",
            f"tokens {s.input_tokens} in / {s.output_tokens} out",
        ]
        if s.cost_usd is not None:  # no price: no cost (blank, never 0)
            parts.append(f"cost {s.cost_usd:.6f} USD")
        if s.budget_stopped:
            parts.append(f"{s.budget_stopped} not sent (budget)")
        if s.batches:
            parts.insert(2, plural(s.batches, "batch", "batches"))
        written = sum(1 for f in self.filed if f.changed)
        unchanged = sum(
            1 for f in self.filed if f.path is not None and not f.changed and f.status != FILED_REFUSED
        )
        return (
            "; ".join(parts)
            + f"; {plural(written, 'file')} written"
            + (f", {unchanged} unchanged" if unchanged else "")
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "stats": self.stats.to_json(),
            "runs": [
                {
                    "label": f.label,
                    "status": f.status,
                    "path": str(f.path) if f.path else None,
                    "message": f.message,
                }
                for f in self.filed
            ],
        }


def run_task(
    task: Task,
    engine: Engine,
    *,
    batch: bool = False,
    progress: bool = True,
    stream: TextIO | None = None,
    on_filed: Callable[[Filed], None] | None = None,
    before_send: Callable[[list[Job]], None] | None = None,
) -> TaskReport:
    """Send the task's jobs through the engine and file each result as it arrives. ``before_send`` sees
    the jobs first (the call's manifest records their prompt hashes)."""
    stream = stream or sys.stderr
    jobs = task.jobs()
    if before_send is not None:
        before_send(jobs)
    report = TaskReport(stats=engine.stats)
    bar = _progress_bar(len(jobs), stream, enabled=progress)

    def deliver(result: JobResult) -> None:
        filed = task.file(result)
        report.filed.append(filed)
        if bar is not None:
            bar.update(1)
            bar.set_postfix_str(_postfix(engine.stats, report), refresh=False)
        if on_filed is not None:
            on_filed(filed)

    try:
        engine.run(jobs, batch=batch, on_result=deliver)
    finally:
        if bar is not None:
            bar.close()
    order = {job.label: index for index, job in enumerate(jobs)}
    report.filed.sort(key=lambda f: order.get(f.label, len(order)))
    return report


def _postfix(stats: EngineStats, report: TaskReport) -> str:
    failed = len(report.filed) - report.count(FILED_OK)
    return f"sent {stats.requests}, cached {stats.cache_hits + stats.log_hits}, failed {failed}"


def _progress_bar(total: int, stream: TextIO, *, enabled: bool) -> Any:
    if not enabled or total == 0:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a core dependency
        return None
    return tqdm(total=total, file=stream, unit="run", dynamic_ncols=True, leave=False)
