"""``atlbench generate --dry-run``: what a call would send and what it could cost, before anything is sent.

Per (track, provider) session, after HELM's ``estimate_cost.py``: the runs, how many answers are stored
(response cache or committed logs) and how many requests would go out (runs that share a prompt share one
request), their prompt tokens counted with the provider's tokenizer where one is available, else an
estimate labelled as such (:mod:`benchmark.llm.tokens`), and the cost range: the prompts' cost plus
anything from no output to ``max_tokens`` of output per request, at the configured price (blank without
one). Prompts that do not fit the provider's ``context_window`` are listed (ATL Zoo-sized metamodels do
not fit small models), and so is what ``--max-cost`` / ``--max-requests`` would let through. A chained
track (the round-trip track's forward stage) is counted for its first pass only: the later prompts are
built from answers that do not exist yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from benchmark.core.wording import plural
from benchmark.llm.budget import Budget
from benchmark.llm.generate import Call, GenerateOptions, PlannedRun, check_prices, plan_session, prepare
from benchmark.llm.pricing import COST_DECIMALS


@dataclass(frozen=True)
class ContextProblem:
    label: str
    tokens: int
    room: int  # context window minus prompt tokens (<= 0: the prompt alone does not fit)


@dataclass(frozen=True)
class Estimate:
    track: str
    provider: str
    model: str
    runs: int
    stored: int
    requests: int  # distinct requests to send
    prompt_tokens: int
    tokenizer: str
    exact: bool
    max_tokens: int
    cost_low: float | None
    cost_high: float | None
    cost_note: str | None
    context_window: int | None
    too_long: tuple[ContextProblem, ...]
    cut_short: tuple[ContextProblem, ...]
    chained: bool
    within_budget: int | None  # requests the budget would let through (worst case); None: no budget
    budget: str | None

    def lines(self) -> list[str]:
        head = (
            f"{self.track} / {self.provider} ({self.model}): {plural(self.runs, 'run')}; "
            f"{self.stored} stored (cache or log); {plural(self.requests, 'request')} to send"
        )
        out = [head]
        if self.requests:
            out.append(f"  prompt tokens: {self.prompt_tokens:,} ({self.tokenizer_label})")
            out.append(f"  cost: {self.cost_text}")
        if self.context_window is not None:
            if self.too_long:
                action = "not sent" if self.exact else "sent anyway: the counts are estimates"
                out.append(
                    f"  context window {self.context_window:,}: "
                    f"{plural(len(self.too_long), 'prompt')} do not fit ({action}), the largest first:"
                )
                out += [f"    {line}" for line in _by_size(self.too_long)]
            if self.cut_short:
                out.append(
                    f"  context window {self.context_window:,}: {plural(len(self.cut_short), 'prompt')} leave"
                    f" less than max_tokens ({self.max_tokens:,}) for the answer, which may be cut short"
                )
        if self.within_budget is not None and self.budget is not None:
            out.append(f"  budget: {self.within_budget} of {self.requests} requests fit within {self.budget}")
        if self.chained:
            out.append("  later passes not counted: their prompts are built from this pass's answers")
        return out

    @property
    def tokenizer_label(self) -> str:
        return self.tokenizer if self.exact else f"estimated: {self.tokenizer}"

    @property
    def cost_text(self) -> str:
        if self.cost_low is None or self.cost_high is None:
            return f"unknown ({self.cost_note})"
        if self.cost_high == 0:
            return f"0 USD ({self.cost_note})" if self.cost_note else "0 USD"
        bound = "" if self.exact else "; prompt tokens estimated"
        return (
            f"{self.cost_low:.6f} to {self.cost_high:.6f} USD (the prompts, plus 0 to {self.max_tokens:,} "
            f"output tokens per request{bound}{'; ' + self.cost_note if self.cost_note else ''})"
        )


#: Lines of prompts that do not fit listed at most (a Zoo-sized tree on a small model has dozens).
LISTED_SIZES = 40


def _by_size(problems: Sequence[ContextProblem]) -> list[str]:
    """One line per prompt size, the largest first, naming the runs of that size; the runs of one task
    share a line (``CPL2SPL run01, run02, run03``): at the ATL Zoo's size a list of every run in one line
    could not be read."""
    sizes: dict[int, dict[str, list[str]]] = {}
    for problem in problems:
        stem, _, last = problem.label.rpartition(" ")
        stem, last = (stem, last) if stem else (problem.label, "")
        sizes.setdefault(problem.tokens, {}).setdefault(stem, []).append(last)
    lines = []
    for tokens in sorted(sizes, reverse=True):
        named = [f"{stem} {', '.join(lasts)}".rstrip() for stem, lasts in sizes[tokens].items()]
        lines.append(f"{tokens:,} tokens: {'; '.join(named)}")
    if len(lines) > LISTED_SIZES:
        rest = sum(1 for p in problems if p.tokens < sorted(sizes, reverse=True)[LISTED_SIZES - 1])
        lines = [*lines[:LISTED_SIZES], f"and {plural(rest, 'smaller prompt')}"]
    return lines


def estimate(options: Sequence[GenerateOptions]) -> tuple[list[Estimate], list[list[PlannedRun]]]:
    """Per session of the call: its estimate and its planned runs. Sends nothing, needs no key."""
    call = Call.for_options(options[0])
    check_prices(options, call)
    budget = Budget(max_cost=call.budget.max_cost, max_requests=call.budget.max_requests)
    estimates, plans = [], []
    for item in options:
        session = prepare(item, call=call)
        planned = plan_session(session, item)
        engine, config = session.engine, session.config
        engine.budget = budget
        tokenizer = engine.tokenizer
        to_send: dict[str, PlannedRun] = {}
        for run in planned:
            if run.source == "request":
                to_send.setdefault(run.key, run)
        counts = {
            key: tokenizer.count(run.job.request) for key, run in to_send.items() if run.job is not None
        }
        prompt_tokens = sum(counts.values())
        max_tokens = config.parameters.max_tokens
        price = config.price
        if price is None:
            low = high = None
            note: str | None = f"no price configured for provider {config.name}"
        else:
            low = round(sum(price.cost(tokens, 0) for tokens in counts.values()), COST_DECIMALS)
            high = round(sum(price.cost(tokens, max_tokens) for tokens in counts.values()), COST_DECIMALS)
            note = price.reason if price.free else (f"price of {price.date}" if price.date else None)
        window = config.context_window
        too_long, cut_short = [], []
        if window is not None:
            for key, tokens in counts.items():
                problem = ContextProblem(to_send[key].label, tokens, window - tokens)
                if problem.room <= 0:
                    too_long.append(problem)
                elif problem.room < max_tokens:
                    cut_short.append(problem)
        within = None
        if budget.limited:
            within = 0
            for key, run in to_send.items():
                if run.job is None or isinstance(budget.reserve(engine.worst_cost(run.job, key)), str):
                    break
                within += 1
        estimates.append(
            Estimate(
                track=item.track,
                provider=config.name,
                model=config.model,
                runs=len(planned),
                stored=sum(1 for run in planned if run.source != "request"),
                requests=len(to_send),
                prompt_tokens=prompt_tokens,
                tokenizer=tokenizer.method,
                exact=tokenizer.exact,
                max_tokens=max_tokens,
                cost_low=low,
                cost_high=high,
                cost_note=note,
                context_window=window,
                too_long=tuple(too_long),
                cut_short=tuple(cut_short),
                chained=bool(getattr(session.task, "chained", False)),
                within_budget=within,
                budget=_budget_text(budget),
            )
        )
        plans.append(planned)
    return estimates, plans


def _budget_text(budget: Budget) -> str | None:
    parts = []
    if budget.max_cost is not None:
        parts.append(f"--max-cost {budget.max_cost:g} USD")
    if budget.max_requests is not None:
        parts.append(f"--max-requests {budget.max_requests}")
    return " and ".join(parts) + " (worst case)" if parts else None


__all__ = ["ContextProblem", "Estimate", "estimate"]
