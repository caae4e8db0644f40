"""Every worked example of docs/INTERCHANGE_FORMAT.md, extracted and compared with the JSON after it.

The document is the definition of the ground truth; reading the examples from it keeps the page and the
extractor from drifting apart. Each example is an ``<!-- example: NAME -->`` marker, an ``atl`` fence and a
``json`` fence listing every class pair with every feature (paths, or an object with ``paths``,
``helpers``, ``rules``), and optionally ``calledRules`` and ``diagnostics`` (codes; none when absent).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

DOC = Path(__file__).resolve().parents[4] / "docs" / "INTERCHANGE_FORMAT.md"
_EXAMPLE = re.compile(
    r"<!-- example: (?P<name>[\w-]+) -->\s*```atl\n(?P<atl>.*?)```\s*```json\n(?P<json>.*?)```", re.DOTALL
)

#: Examples the semantics need; removing one from the page fails the suite.
REQUIRED = {
    "worked-example",
    "navigation",
    "standard-operations",
    "iterators",
    "iterate",
    "let",
    "using",
    "foreach",
    "context-operation",
    "context-attribute",
    "module-operation",
    "module-attribute",
    "helpers-calling-helpers",
    "recursion",
    "several-contexts",
    "resolve-and-rule-calls",
    "reads-nothing",
    "two-inputs-different-classes",
    "two-inputs-same-class",
    "shared-pair",
    "inheritance",
    "transitive-inheritance",
    "lazy-and-called",
    "quoted-names",
    "unknown-operation",
    "do-block",
    "collecting",
}


def _examples() -> list[tuple[str, str, dict[str, Any]]]:
    text = DOC.read_text(encoding="utf-8")
    return [(m["name"], m["atl"], json.loads(m["json"])) for m in _EXAMPLE.finditer(text)]


def test_the_page_has_every_required_example():
    names = [name for name, _, _ in _examples()]
    assert len(names) == len(set(names)), "example names must be unique"
    assert REQUIRED <= set(names), f"missing examples: {sorted(REQUIRED - set(names))}"
    # every marker was matched by the pattern (a malformed example would otherwise be skipped silently)
    assert DOC.read_text(encoding="utf-8").count("<!-- example:") == len(names)


@pytest.mark.parametrize(("name", "atl", "expected"), _examples(), ids=[e[0] for e in _examples()])
def test_documented_example(name, atl, expected, extract_atl):
    document = extract_atl(atl, file=f"{name}.atl")
    expected = dict(expected)
    diagnostics = sorted(expected.pop("diagnostics", []))
    called = sorted(expected.pop("calledRules", []))
    assert sorted(d.code for d in document.diagnostics) == diagnostics
    assert sorted(rule.name for rule in document.called_rules) == called

    pairs = {f"{m.source_class} -> {m.target_class}": m for m in document.class_matches}
    assert sorted(pairs) == sorted(expected)
    for pair, features in expected.items():
        found = {f.target_feature: f for f in pairs[pair].feature_matches}
        assert sorted(found) == sorted(features), pair
        for feature, want in features.items():
            got = found[feature]
            if isinstance(want, list):
                want = {"paths": want}
            assert list(got.source_paths) == want["paths"], f"{pair} {feature}"
            assert list(got.source_features) == sorted({p.split(".")[0] for p in want["paths"]})
            if "helpers" in want:
                assert list(got.helpers) == want["helpers"], f"{pair} {feature} helpers"
            if "rules" in want:
                assert list(got.rules) == want["rules"], f"{pair} {feature} rules"
