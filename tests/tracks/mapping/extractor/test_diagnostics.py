"""Diagnostics: codes, positions, one per call site, and no false alarms on standard operations."""

from __future__ import annotations

from benchmark.tracks.mapping.extractor import DIAGNOSTIC_CODES, STANDARD_OPERATIONS

from .conftest import extract_text, paths


def _codes(document):
    return [(d.code, d.line, d.column, d.rule) for d in document.diagnostics]


def test_unknown_operation_position_rule_and_library_hint():
    document = extract_text(
        "module M; create OUT : T from IN : S;\nuses strings;\nuses other;\n"
        "rule R { from s : S!A to t : T!X (\n"
        "  n <- s.name.firstToLower(),\n"
        "  m <- thisModule.lookup(s.key).code\n"
        ") }\n"
        "helper context S!A def : never() : String = self.x.camel();"
    )
    assert _codes(document) == [
        ("unknown-operation", 5, 15, "R"),
        ("unknown-operation", 6, 19, "R"),
        ("unknown-operation", 8, 52, None),
    ]
    first, second, third = document.diagnostics
    assert first.severity == "warning"
    assert "firstToLower()" in first.message and "libraries strings, other" in first.message
    assert "lookup()" in second.message and "in helper never" in third.message
    # read as standard operations: the receiver passes through, the arguments are read
    assert paths(document, "A", "X", "n") == ("name",)
    assert paths(document, "A", "X", "m") == ("key",)


def test_without_uses_the_message_has_no_library_hint():
    document = extract_text("rule R { from s : S!A to t : T!X (n <- s.name.shout()) }")
    [diagnostic] = document.diagnostics
    assert "library" not in diagnostic.message and "shout()" in diagnostic.message


def test_each_call_site_is_reported_once_even_in_expanded_helpers():
    document = extract_text(
        "helper context S!A def : label() : String = self.name.shout();\n"
        "rule R { from s : S!A to t : T!X (a <- s.label(), b <- s.label(), c <- s.other.shout()) }\n"
        "rule Q extends R { from s : S!A to t : T!X (d <- s.label()) }"
    )
    assert _codes(document) == [("unknown-operation", 3, 55, None), ("unknown-operation", 4, 80, "R")]


def test_standard_operations_and_iterators_are_not_reported():
    document = extract_text(
        "helper context String def : fine() : Boolean = self.toUpper().startsWith('A') and "
        "self.size() > 0 and self.split(',')->first().trim().concat('x').toInteger().abs() > 1;\n"
        "rule R { from s : S!A to t : T!X (\n"
        "  a <- s.items->select(i | i.oclIsKindOf(S!B))->collect(i | i.oclAsType(S!B))->asSet()->size(),\n"
        "  b <- S!A.allInstancesFrom('IN')->sortedBy(e | e.rank)->excluding(s)->including(s)->last(),\n"
        "  c <- thisModule.resolveTemp(s, 't').refGetValue('name').debug('x'),\n"
        "  d <- s.refImmediateComposite().oclType().toString(),\n"
        "  e <- s.items->iterate(i; acc : Integer = 0 | acc.max(i.weight.floor())),\n"
        "  f <- Map{(1, s.x)}.get(1).toString() + s.y.regexReplaceAll('a', 'b')\n"
        ") }"
    )
    assert document.diagnostics == ()


def test_operations_named_like_helpers_or_rules_are_not_reported():
    document = extract_text(
        "helper def : make(x : String) : String = x;\n"
        "helper context S!A def : shout() : String = self.name;\n"
        "lazy rule L { from a : S!A to t : T!Y () }\n"
        "rule C() { to t : T!Y () }\n"
        "rule R { from s : S!A to t : T!X (a <- thisModule.make(s.n), b <- s.shout(), c <- thisModule.L(s),\n"
        "  d <- thisModule.C()) }"
    )
    assert document.diagnostics == ()


def test_unknown_variable():
    document = extract_text(
        "helper def : noContext() : String = self.name;\n"
        "rule R { from s : S!A using { u : String = s.name; } to t : T!X (\n"
        "  a <- u + typo, b <- s.items->collect(i | i.x + j), c <- let v : String = s.n in v + w\n"
        ") do { for (k in s.items) { k.println(); } z.println(); } }"
    )
    assert [(d.code, d.message.split()[1], d.rule) for d in document.diagnostics] == [
        ("unknown-variable", "self", None),
        ("unknown-variable", "typo", "R"),
        ("unknown-variable", "j", "R"),
        ("unknown-variable", "w", "R"),
        ("unknown-variable", "z", "R"),
    ]


def test_inherited_using_variables_and_foreach_iterators_are_known():
    document = extract_text(
        "abstract rule P { from s : S!A using { u : String = s.name; } to t : T!X (n <- u) }\n"
        "rule R extends P { from s : S!A to t : T!X (m <- u),\n"
        "  e : distinct T!Y foreach (it in s.items) (k <- it.key, o <- t) }"
    )
    assert document.diagnostics == ()


def test_unknown_parent_and_cycles_are_reported_and_rules_still_extracted():
    document = extract_text(
        "rule Orphan extends Missing { from s : S!A to t : T!X (n <- s.n) }\n"
        "rule C1 extends C2 { from s : S!B to t : T!Y (a <- s.a) }\n"
        "rule C2 extends C1 { from s : S!B to t : T!Y (b <- s.b) }\n"
        "rule Called() { to t : T!X () }\n"
        "rule ExtendsCalled extends Called { from s : S!C to t : T!Z () }"
    )
    codes = [(d.code, d.rule) for d in document.diagnostics]
    assert ("unknown-parent-rule", "Orphan") in codes
    assert ("unknown-parent-rule", "ExtendsCalled") in codes
    assert len([c for c in codes if c[0] == "inheritance-cycle"]) == 1
    assert paths(document, "A", "X", "n") == ("n",)
    # the cycle is cut at one link: both rules are extracted, one of them inherits the other's binding
    features = {f.target_feature for f in document.class_match("B", "Y").feature_matches}
    assert features == {"a", "b"}


def test_duplicate_rule_names_both_contribute():
    document = extract_text(
        "rule R { from s : S!A to t : T!X (a <- s.a) }\nrule R { from s : S!B to t : T!X (b <- s.b) }"
    )
    assert [(d.code, d.line) for d in document.diagnostics] == [("duplicate-rule", 4)]
    assert sorted(m.key for m in document.class_matches) == [("A", "X"), ("B", "X")]


def test_parser_leniency_is_an_info_diagnostic():
    document = extract_text("rule R { from super : S!A to t : T!X (n <- super.name) }")
    assert [(d.code, d.severity) for d in document.diagnostics] == [("parser-leniency", "info")]
    assert paths(document, "A", "X", "n") == ("name",)


def test_every_code_has_a_severity_and_a_meaning_and_is_documented():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[4] / "docs" / "INTERCHANGE_FORMAT.md").read_text("utf-8")
    for code, (severity, meaning) in DIAGNOSTIC_CODES.items():
        assert severity in ("error", "warning", "info") and meaning
        assert f"| `{code}` | {severity} |" in page, code
    for name in ("toUpper", "size", "oclIsKindOf", "allInstances", "resolveTemp", "refImmediateComposite"):
        assert name in STANDARD_OPERATIONS
        assert name in page
    assert "firstToLower" not in STANDARD_OPERATIONS
