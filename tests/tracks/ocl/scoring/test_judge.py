"""The judge's outcomes, one by one, and the extraction of constraints from prose and fences."""

from __future__ import annotations

import pytest

from benchmark.lang.ocl.compiler import Runtime
from benchmark.lang.ocl.soil import parse_soil
from benchmark.lang.ocl.use_io import parse_use
from benchmark.tracks.ocl.payload import (
    AGREEMENT,
    DISAGREEMENT,
    EVALUATION_ERROR,
    MISSING,
    SYNTAX_ERROR,
    TYPE_ERROR,
    WRONG_CONTEXT,
)
from benchmark.tracks.ocl.scoring.extract import extract_constraint
from benchmark.tracks.ocl.scoring.judge import Referee

MODEL = """model Shop
class Customer
attributes
  age : Integer
end
class Order
attributes
  total : Integer
end
association Places between
  Customer [0..1] role buyer
  Order [*] role orders
end
constraints
context Customer inv adult: self.age >= 18
"""

STATES = {
    "ok.soil": (
        "!new Customer('c')\n!set c.age := 30\n!new Order('o')\n!set o.total := 5\n"
        "!insert (c, o) into Places\n"
    ),
    "young.soil": "!new Customer('c')\n!set c.age := 12\n",
    # an order with two buyers: a to-one navigation meets several links (USE: N/A)
    "shared.soil": (
        "!new Customer('a')\n!set a.age := 40\n!new Customer('b')\n!set b.age := 50\n"
        "!new Order('o')\n!set o.total := 1\n!insert (a, o) into Places\n!insert (b, o) into Places\n"
    ),
}


@pytest.fixture(scope="module")
def referee() -> Referee:
    model = parse_use(MODEL, file="shop.use")
    runtime = Runtime(model)
    states = {name: parse_soil(text, model, file=name).state for name, text in STATES.items()}
    verdicts = {"ok.soil": {"adult": True}, "young.soil": {"adult": False}, "shared.soil": {"adult": True}}
    return Referee(model, runtime, states, verdicts, {"adult": "Customer"})


@pytest.mark.parametrize(
    ("answer", "outcome", "states"),
    [
        (None, MISSING, ()),
        ("context Customer inv: self.age >= 18", AGREEMENT, ()),
        ("context c : Customer inv adult: c.age > 17", AGREEMENT, ()),
        ("context Customer inv adult: self.age > 18 and self.age < 100", AGREEMENT, ()),
        ("context Customer inv: self.age > 35", DISAGREEMENT, ("ok.soil",)),
        ("context Customer inv: self.age >= 18 and", SYNTAX_ERROR, ()),
        ("An adult is at least 18.", SYNTAX_ERROR, ()),
        ("context Customer inv: self.years >= 18", TYPE_ERROR, ()),
        ("context Client inv: self.age >= 18", TYPE_ERROR, ()),
        ("context Customer inv: self.age", TYPE_ERROR, ()),
        ("context Order inv: self.total > 2", WRONG_CONTEXT, ("young.soil", "shared.soil")),
        ("context Order inv: self.buyer.age >= 18", EVALUATION_ERROR, ("shared.soil",)),
    ],
)
def test_every_outcome(referee: Referee, answer: str | None, outcome: str, states: tuple[str, ...]) -> None:
    judgement = referee.judge("adult", answer)
    assert judgement.outcome == outcome, judgement
    assert judgement.states == states
    assert judgement.correct is (outcome == AGREEMENT)


def test_disagreement_names_the_states(referee: Referee) -> None:
    assert referee.judge("adult", "context Customer inv: self.age >= 35").states == ("ok.soil",)


def test_several_invariants_mean_their_conjunction(referee: Referee) -> None:
    both = "context Customer inv a: self.age >= 10\ncontext Customer inv b: self.age >= 18"
    assert referee.judge("adult", both).outcome == AGREEMENT
    assert referee.judge("adult", "context Customer inv a: self.age >= 10").outcome == DISAGREEMENT


def test_errors_carry_positioned_messages(referee: Referee) -> None:
    judgement = referee.judge(
        "adult", "context Customer inv: self.years >= 18", label="run.json [shop.adult]"
    )
    assert judgement.detail.startswith("run.json [shop.adult]:1:") and "years" in judgement.detail


@pytest.mark.parametrize(
    ("answer", "expected", "source"),
    [
        ("```ocl\ncontext A inv x: true\n```", "context A inv x: true", "fence"),
        ("Sure!\n\n```\ncontext A inv: 1 < 2\n```\nThis holds because...", "context A inv: 1 < 2", "fence"),
        ("The invariant is `context A inv: self.n > 0`.", "context A inv: self.n > 0", "inline"),
        (
            "context A inv: self.n > 0\n\nThis ensures that n is positive.",
            "context A inv: self.n > 0",
            "prose",
        ),
        ("In the context of this model:\ncontext A inv: self.n > 0", "context A inv: self.n > 0", "prose"),
        (
            "```ocl\ncontext A inv p: self.n > 0\n```\nand\n```ocl\ncontext B inv q: self.m > 0\n```",
            "context A inv p: self.n > 0\ncontext B inv q: self.m > 0",
            "fence",
        ),
        ("I cannot answer that.", None, "none"),
    ],
)
def test_extraction(answer: str, expected: str | None, source: str) -> None:
    found = extract_constraint(answer)
    assert (found.text, found.source) == (expected, source)


def test_an_unparsable_constraint_is_kept_whole_for_the_error() -> None:
    assert (
        extract_constraint("context A inv: self.n >\nsomething").text == "context A inv: self.n >\nsomething"
    )


def test_an_expression_is_evaluated_once_per_state_and_judged_as_alone() -> None:
    """Answers with the same context, variables and expression, however written (the reference itself,
    another layout, another name), share their compilation and their check on each state; every
    answer's judgement is the one a referee that never saw the others gives, evaluation errors and the
    states that need a unique order included."""
    model = parse_use(MODEL, file="shop.use")

    def fresh() -> Referee:
        states = {name: parse_soil(text, model, file=name).state for name, text in STATES.items()}
        verdicts = {
            "ok.soil": {"adult": True},
            "young.soil": {"adult": False},
            "shared.soil": {"adult": True},
        }
        return Referee(model, Runtime(model), states, verdicts, {"adult": "Customer"})

    answers = [
        "context Customer inv adult: self.age >= 18",
        "```ocl\ncontext Customer inv named:\n  self.age   >=  18\n```",
        "context Customer inv: self.age >= 18 -- the reference",
        "context Customer inv: self.age > 35",
        "context Customer inv: self.age > 35 and true",
        "context Order inv: self.buyer.age >= 18",
        "context Order inv other: self.buyer.age >= 18",
        "context Customer inv: self.years >= 18",
        "context Customer inv: Customer.allInstances->any(true).age >= 18",
    ]
    shared = fresh()
    judged = [shared.judge("adult", text, label=f"run{i}") for i, text in enumerate(answers * 2)]
    alone = [fresh().judge("adult", text, label=f"run{i}") for i, text in enumerate(answers * 2)]
    assert judged == alone
    keys = {(i.class_name, i.variables, i.expr) for i in (c.invariant for c in shared._compiled.values())}
    assert len(shared._checked) == len(keys) == 5  # one per distinct expression that compiled
