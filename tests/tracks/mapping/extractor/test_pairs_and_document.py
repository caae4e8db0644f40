"""Class pairs, metadata, called rules and the transformation header of extracted documents."""

from __future__ import annotations

import json

from benchmark.tracks.mapping import interchange

from .conftest import binding, extract_text, paths


def test_qualified_names_are_simple_names_with_metadata():
    document = extract_text(
        'rule R { from s : S!"pkg::sub::A" to t : T!"out::X" (n <- s.name), u : T!Y () }\n'
        'rule Q { from s : S!A to t : T!"other::X" () }'
    )
    match = document.class_match("A", "X")
    assert match is not None
    assert match.rules == ("Q", "R")
    assert match.source_qualified == ("pkg::sub::A",)
    assert match.target_qualified == ("other::X", "out::X")
    assert (match.source_metamodel, match.target_metamodel) == ("S", "T")
    unqualified = document.class_match("A", "Y")
    assert unqualified is not None and unqualified.source_qualified == ("pkg::sub::A",)
    assert unqualified.target_qualified == ()
    assert "targetQualifiedNames" not in unqualified.to_json()


def test_metamodel_clash_keeps_the_first_and_reports():
    document = extract_text(
        "module M; create O1 : T1, O2 : T2 from IN : S;\n"
        "rule A1 { from s : S!A to t : T2!X (n <- s.n) }\n"
        "rule A2 { from s : S!A to t : T1!X (m <- s.m) }"
    )
    match = document.class_match("A", "X")
    assert match is not None and match.target_metamodel == "T1"
    assert [(d.code, d.severity) for d in document.diagnostics] == [("metamodel-clash", "info")]
    assert "T1, T2" in document.diagnostics[0].message


def test_transformation_header():
    document = extract_text(
        "-- @path S=/p/S.ecore\n"
        "-- @atlcompiler atl2006\n"
        "--@nsURI ignored=because-no-space\n"
        "module Refine; create OUT : T, LOG : L refining IN : S, EXTRA : S2;\n"
        "rule R { from s : S!A to t : T!A () }",
        file="dir/Refine.atl",
    )
    info = document.transformation
    assert (info.name, info.file, info.unit, info.refining) == ("Refine", "dir/Refine.atl", "module", True)
    assert [(m.name, m.metamodel) for m in info.in_models] == [("IN", "S"), ("EXTRA", "S2")]
    assert [(m.name, m.metamodel) for m in info.out_models] == [("OUT", "T"), ("LOG", "L")]
    assert [(a.tag, a.key, a.value, a.line) for a in info.annotations] == [
        ("path", "S", "/p/S.ecore", 1),
        ("atlcompiler", None, "atl2006", 2),
    ]


def test_query_and_library_units_have_no_pairs_but_are_checked():
    query = extract_text("query Q = S!A.allInstances()->collect(a | a.name.shout());\nuses strings;")
    assert query.transformation.unit == "query" and query.transformation.name == "Q"
    assert query.class_matches == () and query.transformation.in_models == ()
    assert [d.code for d in query.diagnostics] == ["unknown-operation"]
    library = extract_text("library L;\nhelper context String def : twice() : String = self + self;")
    assert (library.transformation.unit, library.class_matches, library.diagnostics) == ("library", (), ())


def test_called_rules_are_listed_apart():
    document = extract_text(
        "entrypoint rule Init(root : S!A, names : Sequence(String)) {\n"
        '  to t : T!X (name <- root.name, "from" <- \'x\'), v : T!"p::Y" (), w : String\n'
        "  do { thisModule.Fin(); }\n"
        "}\n"
        "endpoint rule Fin() { do { 'done'.println(); } }"
    )
    assert document.class_matches == ()
    fin, init = sorted(document.called_rules, key=lambda r: r.name)
    assert (init.name, init.entrypoint, init.endpoint) == ("Init", True, False)
    assert init.parameters == (("root", "S!A"), ("names", "Sequence(String)"))
    assert [(o.variable, o.target_class, o.target_metamodel, o.target_features) for o in init.outputs] == [
        ("t", "X", "T", ("from", "name")),
        ("v", "Y", "T", ()),
    ]
    assert (fin.name, fin.entrypoint, fin.endpoint, fin.outputs) == ("Fin", False, True, ())
    assert [(d.code, d.line) for d in document.diagnostics] == [("non-model-type", 4)]  # 2 header lines


def test_lazy_rule_over_a_primitive_forms_no_pair():
    document = extract_text(
        "lazy rule Cell { from v : String, n : S!A to c : T!Cell (text <- v, owner <- n.name) }\n"
        "rule R { from s : S!A to t : T!Row (cells <- s.values->collect(v | thisModule.Cell(v, s))) }"
    )
    assert sorted(m.key for m in document.class_matches) == [("A", "Cell"), ("A", "Row")]
    assert paths(document, "A", "Cell", "owner") == ("name",)
    assert paths(document, "A", "Cell", "text") == ()
    assert paths(document, "A", "Row", "cells") == ("values",)
    [diagnostic] = document.diagnostics
    assert (diagnostic.code, diagnostic.rule, diagnostic.line) == ("non-model-type", "Cell", 3)
    assert "input element v" in diagnostic.message


def test_rule_with_several_output_elements_of_one_type_merges_them():
    document = extract_text(
        "rule R { from s : S!A to a : T!Col (name <- s.first), b : T!Col (name <- s.second, k <- s.k) }"
    )
    assert paths(document, "A", "Col", "name") == ("first", "second")
    assert binding(document, "A", "Col", "k").rules == ("R",)


def test_document_round_trips_through_json_with_the_same_bytes():
    document = extract_text(
        "helper context S!A def : h() : String = self.x;\n"
        "rule R { from s : S!A to t : T!X (n <- s.h(), m <- s.firstToLower()) }\n"
        "rule C(p : String) { to t : T!X (n <- p) }"
    )
    text = interchange.dumps(document)
    again = interchange.loads(text)
    assert interchange.dumps(again) == text
    data = json.loads(text)
    assert data["format"] == "atl-binding-interchange" and data["version"] == 1
    features = {f["targetFeature"]: f for f in data["classMatches"][0]["featureMatches"]}
    assert features["n"]["sourceFeatures"] == ["x"] and features["n"]["helpers"] == ["h"]
    assert features["m"]["sourcePaths"] == []
    assert data["diagnostics"][0]["code"] == "unknown-operation"


def test_empty_rule_sections_give_pairs_without_bindings():
    document = extract_text("rule R { from s : S!A to t : T!X () }\nrule D { from s : S!B to drop }")
    match = document.class_match("A", "X")
    assert match is not None and match.feature_matches == ()
    assert [m.key for m in document.class_matches] == [("A", "X")]
