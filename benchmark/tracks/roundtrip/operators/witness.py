"""What a delta changed, in canonical lines, and whether that matches the operator's witnesses.

The diff is keyed by normalized line keys: a line *appears* (key only after), *disappears* (key only
before) or *changes* (key on both sides, properties differ). The operator's documented witness patterns
must account for every entry of the diff, and every required pattern must be met: that is checked for
every bundled delta and every generated one, so the documentation cannot drift from the code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from benchmark.tracks.roundtrip.models.lines import CanonicalLine
from benchmark.tracks.roundtrip.operators.base import Change, DeltaOperator, Side, Target


@dataclass(frozen=True)
class LineDiff:
    appeared: tuple[CanonicalLine, ...]
    changed: tuple[tuple[CanonicalLine, CanonicalLine], ...]  # (before, after)
    disappeared: tuple[CanonicalLine, ...]

    def entries(self) -> list[tuple[Change, str]]:
        """(change, normalized key) for every entry."""
        return (
            [("appears", line.normalized_key) for line in self.appeared]
            + [("changes", after.normalized_key) for _, after in self.changed]
            + [("disappears", line.normalized_key) for line in self.disappeared]
        )

    def is_empty(self) -> bool:
        return not (self.appeared or self.changed or self.disappeared)

    def to_json(self) -> dict[str, Any]:
        return {
            "appears": [line.text for line in self.appeared],
            "changes": [{"from": before.text, "to": after.text} for before, after in self.changed],
            "disappears": [line.text for line in self.disappeared],
        }


def _first_by_key(lines: Iterable[CanonicalLine]) -> dict[str, CanonicalLine]:
    result: dict[str, CanonicalLine] = {}
    for line in lines:
        result.setdefault(line.normalized_key, line)
    return result


def diff_lines(before: Iterable[CanonicalLine], after: Iterable[CanonicalLine]) -> LineDiff:
    old, new = _first_by_key(before), _first_by_key(after)
    return LineDiff(
        appeared=tuple(line for key, line in new.items() if key not in old),
        changed=tuple(
            (old[key], line) for key, line in new.items() if key in old and old[key].identity != line.identity
        ),
        disappeared=tuple(line for key, line in old.items() if key not in new),
    )


def witness_problems(operator: DeltaOperator, side: Side, target: Target, diff: LineDiff) -> list[str]:
    """Why ``diff`` is not what ``operator`` documents for ``side`` (empty when it is)."""
    witnesses = operator.witnesses_for(side)
    problems: list[str] = []
    if diff.is_empty():
        problems.append(f"{operator.name} {side}: the delta changed no canonical line")
    for change, key in diff.entries():
        if not any(w.change == change and w.matches(target, key) for w in witnesses):
            problems.append(f"{operator.name} {side}: undocumented effect {change} {key!r}")
    for witness in witnesses:
        if witness.required and not any(
            change == witness.change and witness.matches(target, key) for change, key in diff.entries()
        ):
            problems.append(f"{operator.name} {side}: documented effect missing: {witness.describe()}")
    return problems
