"""The worked examples of docs/OCL.md's transformation section, run and compared with the page.

The page shows one input (``<!-- transform-input -->``: a ``use`` fence and a ``soil`` fence) and one
example per mode (``<!-- transform-example: MODE -->``), each transformed with seed 0, and examples of
the association-class form (``<!-- transform-example: MODE association_class -->``). In an example the
``ocl`` fence is the transformed model's constraints section exactly; every ``use`` and ``soil`` fence is
an excerpt -- consecutive lines -- of the transformed model and state; a ``json`` fence is the whole
mapping. Reading the examples from the page keeps the page and the code from drifting apart.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.soil_writer import write_soil
from benchmark.lang.ocl.use_io import write_constraints, write_use
from benchmark.tracks.ocl.transform.modes import MODES, transform
from benchmark.tracks.ocl.transform.subject import Subject

DOC = Path(__file__).resolve().parents[4] / "docs" / "OCL.md"
_FENCE = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)
_MARK = re.compile(r"<!-- transform-(input|example: (\w+(?: \w+)?)) -->")


def _blocks() -> tuple[dict[str, str], dict[str, list[tuple[str, str]]]]:
    text = DOC.read_text(encoding="utf-8")
    marks = list(_MARK.finditer(text))
    sections: dict[str, list[tuple[str, str]]] = {}
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        fences = [(m.group(1), m.group(2)) for m in _FENCE.finditer(text, mark.end(), end)]
        sections["input" if mark.group(1) == "input" else mark.group(2)] = fences
    return dict(sections.pop("input")), sections


INPUT, EXAMPLES = _blocks()


def test_the_page_has_an_example_per_mode() -> None:
    assert set(INPUT) == {"use", "soil"}
    assert sorted(e for e in EXAMPLES if " " not in e) == sorted(MODES)
    assert "association association_class" in EXAMPLES


def _contiguous(excerpt: str, text: str) -> bool:
    want = excerpt.rstrip("\n").splitlines()
    have = text.splitlines()
    return any(have[i : i + len(want)] == want for i in range(len(have) - len(want) + 1))


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_the_worked_example(example: str) -> None:
    mode, _, form = example.partition(" ")
    engine = OclEngine.from_text(INPUT["use"], file="school.use")
    state = engine.state_from_text(INPUT["soil"], file="school.soil")
    subject = Subject(engine.model, [], [state])
    new, mapping = transform(subject, mode, 0, association_form=form or "class")
    model_text, state_text = write_use(new.model), write_soil(new.states[0])
    fences = EXAMPLES[example]
    assert [kind for kind, _ in fences][:1] == ["ocl"], "each example starts with its constraints"
    for kind, body in fences:
        if kind == "ocl":
            assert body == write_constraints(new.model.invariants)
        elif kind == "use":
            assert _contiguous(body, model_text), f"not in the transformed model:\n{body}"
        elif kind == "soil":
            assert _contiguous(body, state_text), f"not in the transformed state:\n{body}"
        else:
            assert kind == "json"
            assert json.loads(body) == mapping.to_json()
