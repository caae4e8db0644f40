"""Agreement figures per kind of USE test file, and the differences by category."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from use_suite.replay import Outcome

KINDS = ("expr", "spec", "shell")
KIND_NAMES = {
    "expr": "test_expr.in expressions",
    "spec": "parser models (*.use, *.fail)",
    "shell": "shell expectations (shell/*.in)",
}


@dataclass(frozen=True)
class Figures:
    kind: str
    total: int
    agree: int
    exact: int

    @property
    def agree_ratio(self) -> float:
        return self.agree / self.total if self.total else 1.0

    @property
    def exact_ratio(self) -> float:
        return self.exact / self.total if self.total else 1.0

    def line(self) -> str:
        return (
            f"{KIND_NAMES[self.kind]}: {self.agree}/{self.total} agree ({100 * self.agree_ratio:.1f} %), "
            f"{self.exact}/{self.total} identical output ({100 * self.exact_ratio:.1f} %)"
        )


def figures(outcomes: list[Outcome]) -> dict[str, Figures]:
    result = {}
    for kind in KINDS:
        mine = [o for o in outcomes if o.kind == kind]
        result[kind] = Figures(kind, len(mine), sum(o.agree for o in mine), sum(o.exact for o in mine))
    return result


def categories(outcomes: list[Outcome], *, level: str = "agree") -> Counter[tuple[str, str]]:
    """(kind, category) -> how many outcomes fail ``level`` (``agree`` or ``exact``) for that reason."""
    return Counter((o.kind, o.category or "?") for o in outcomes if not getattr(o, level) and o.kind in KINDS)


def report(outcomes: list[Outcome]) -> str:
    lines = [f.line() for f in figures(outcomes).values()]
    setup = [o for o in outcomes if o.kind == "shell-setup"]
    lines.append(f"silent shell commands (no expected output) we reject: {len(setup)}")
    for level in ("agree", "exact"):
        lines.append(f"-- not {'agreeing' if level == 'agree' else 'identical'}, by category:")
        for (kind, category), n in sorted(categories(outcomes, level=level).items()):
            lines.append(f"  {kind:6} {n:5}  {category}")
    return "\n".join(lines)
