"""Constructs the official parser rejects but that are accepted, and recorded, here."""

from __future__ import annotations

from benchmark.lang.atl import ast, parse

from .conftest import MODULE_HEADER, parse_expression


def test_super_as_declared_name_becomes_a_variable():
    unit = parse(
        MODULE_HEADER
        + "rule R { from s : A!X to t : B!T (children <- Sequence{super}), super : B!T (n <- s.n) }\n"
        "rule K { from c : A!X to d : distinct B!T foreach (super in c.sups) (to <- super) }\n"
    )
    assert isinstance(unit, ast.Module)
    first, second = unit.rules
    assert [e.name for e in first.out_elements] == ["t", "super"]
    assert first.out_elements[0].bindings[0].value == ast.CollectionExp(
        "Sequence", (ast.VariableExp("super"),)
    )
    element = second.out_elements[0]
    assert isinstance(element, ast.ForEachOutPatternElement) and element.iterator == "super"
    assert element.bindings[0].value == ast.VariableExp("super")
    assert [(n.kind, n.line) for n in unit.leniencies] == [("super-as-name", 3), ("super-as-name", 4)]
    assert not any(isinstance(node, ast.SuperExp) for node in ast.walk(unit))


def test_super_stays_super_when_not_declared():
    unit = parse(MODULE_HEADER + "helper context A!X def : f() : Integer = super.f();\n")
    assert unit.leniencies == ()
    assert isinstance(unit, ast.Module)
    body = unit.helpers[0].body
    assert isinstance(body, ast.OperationCallExp) and isinstance(body.source, ast.SuperExp)


def test_unquoted_qualified_class_name():
    got = parse_expression("UML!uml::Package::Class.allInstances()")
    assert isinstance(got, ast.OperationCallExp)
    assert got.source == ast.ModelElementType("UML", "uml::Package::Class")
    assert got.source == parse_expression('UML!"uml::Package::Class"')
    unit = parse(MODULE_HEADER + "helper def : h : UML!uml::Class = OclUndefined;\n")
    assert [(n.kind, n.line, n.column) for n in unit.leniencies] == [("unquoted-qualified-name", 3, 18)]


def test_leniency_notes_do_not_affect_equality():
    lenient = parse(MODULE_HEADER + "helper def : h : UML!uml::Class = OclUndefined;\n")
    strict = parse(MODULE_HEADER + 'helper def : h : UML!"uml::Class" = OclUndefined;\n')
    assert lenient == strict and lenient.leniencies and not strict.leniencies
