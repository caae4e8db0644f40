"""AST back to ATL text: ``to_atl(node)`` prints a unit, rule, helper, statement, expression or type.

The output parses back to an equal AST (positions aside): names that are keywords or not plain names are
quoted, strings escaped, and parentheses added exactly where ATL's precedence needs them. Layout is
canonical (one element per line, tab indentation), comments are not kept. Used by the round-trip property
test and handy for messages that show an expression.
"""

from __future__ import annotations

import re
from decimal import Decimal

from benchmark.lang.atl import ast
from benchmark.lang.atl.lexer import KEYWORDS

__all__ = ["to_atl", "quote_name", "string_literal"]

_PLAIN_NAME = re.compile(
    r"[A-Za-z_\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u00FF][A-Za-z0-9_\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u00FF]*"
)
_NAME_ESCAPES = {'"': '\\"', "\\": "\\\\"}
_STRING_ESCAPES = {
    "'": "\\'",
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}


def quote_name(name: str) -> str:
    """``name`` as ATL source: plain when it is a valid name and no keyword, else in double quotes."""
    if _PLAIN_NAME.fullmatch(name) and name not in KEYWORDS:
        return name
    return '"' + "".join(_NAME_ESCAPES.get(char, char) for char in name) + '"'


def string_literal(value: str) -> str:
    """``value`` as a single-quoted ATL string with escapes."""
    return "'" + "".join(_STRING_ESCAPES.get(char, char) for char in value) + "'"


def _real(value: float) -> str:
    if value != value or value in (float("inf"), float("-inf")) or value < 0:
        raise ValueError(f"ATL has no literal for the real {value!r}")
    text = format(Decimal(repr(value)), "f")
    return text if "." in text else text + ".0"


# ---------------------------------------------------------------------- expressions
# Binding strength: 0 postfix and primaries, 1 unary, 2..5 binary levels, 6 let.
_LEVEL = {op: level for level, ops in enumerate(ast.BINARY_OPERATOR_LEVELS, start=2) for op in ops}
_LET_LEVEL = 6


def _level(expression: ast.Expr) -> int:
    if isinstance(expression, ast.BinaryExp):
        return _LEVEL[expression.operator]
    if isinstance(expression, ast.UnaryExp):
        return 1
    if isinstance(expression, ast.LetExp):
        return _LET_LEVEL
    return 0


def _operand(expression: ast.Expr, max_level: int) -> str:
    text = _expression(expression)
    return text if _level(expression) <= max_level else f"({text})"


def _arguments(expressions: tuple[ast.Expr, ...]) -> str:
    return ", ".join(_expression(item) for item in expressions)


def _variable_declaration(declaration: ast.VariableDeclaration) -> str:
    return f"{quote_name(declaration.name)} : {_type(declaration.type)} = {_expression(declaration.init)}"


def _expression(node: ast.Expr) -> str:  # noqa: C901 - one branch per node class is the clearest form
    if isinstance(node, ast.Type):
        return _type(node)
    if isinstance(node, ast.VariableExp):
        return quote_name(node.name) if node.name not in ("self", "thisModule") else node.name
    if isinstance(node, ast.NavigationExp):
        return f"{_operand(node.source, 0)}.{quote_name(node.name)}"
    if isinstance(node, ast.OperationCallExp):
        separator = "->" if node.arrow else "."
        return f"{_operand(node.source, 0)}{separator}{quote_name(node.name)}({_arguments(node.arguments)})"
    if isinstance(node, ast.IteratorExp):
        iterators = ", ".join(quote_name(name) for name in node.iterators)
        return f"{_operand(node.source, 0)}->{quote_name(node.name)}({iterators} | {_expression(node.body)})"
    if isinstance(node, ast.IterateExp):
        iterators = ", ".join(quote_name(name) for name in node.iterators)
        return (
            f"{_operand(node.source, 0)}->iterate({iterators}; {_variable_declaration(node.result)} | "
            f"{_expression(node.body)})"
        )
    if isinstance(node, ast.BinaryExp):
        level = _LEVEL[node.operator]
        return f"{_operand(node.left, level)} {node.operator} {_operand(node.right, level - 1)}"
    if isinstance(node, ast.UnaryExp):
        return f"{node.operator} {_operand(node.operand, 0)}"
    if isinstance(node, ast.LetExp):
        return f"let {_variable_declaration(node.variable)} in {_expression(node.body)}"
    if isinstance(node, ast.IfExp):
        return (
            f"if {_expression(node.condition)} then {_expression(node.then_expression)} "
            f"else {_expression(node.else_expression)} endif"
        )
    if isinstance(node, ast.StringExp):
        return string_literal(node.value)
    if isinstance(node, ast.IntegerExp):
        if node.value < 0:
            raise ValueError("ATL has no negative integer literal (write a UnaryExp '-')")
        return str(node.value)
    if isinstance(node, ast.RealExp):
        return _real(node.value)
    if isinstance(node, ast.BooleanExp):
        return "true" if node.value else "false"
    if isinstance(node, ast.OclUndefinedExp):
        return "OclUndefined"
    if isinstance(node, ast.SuperExp):
        return "super"
    if isinstance(node, ast.EnumLiteralExp):
        return "#" + quote_name(node.name)
    if isinstance(node, ast.CollectionExp):
        return f"{node.kind}{{{_arguments(node.elements)}}}"
    if isinstance(node, ast.MapExp):
        elements = ", ".join(f"({_expression(e.key)}, {_expression(e.value)})" for e in node.elements)
        return f"Map{{{elements}}}"
    if isinstance(node, ast.TupleExp):
        parts = ", ".join(_tuple_part(part) for part in node.parts)
        return f"Tuple{{{parts}}}"
    raise TypeError(f"not an ATL expression: {node!r}")


def _tuple_part(part: ast.TuplePart) -> str:
    typed = f" : {_type(part.type)}" if part.type is not None else ""
    return f"{quote_name(part.name)}{typed} = {_expression(part.value)}"


def _type(node: ast.Type) -> str:
    if isinstance(node, ast.ModelElementType):
        return f"{quote_name(node.metamodel)}!{quote_name(node.name)}"
    if isinstance(node, ast.PrimitiveType):
        return node.name
    if isinstance(node, ast.OclAnyType):
        return "OclAny"
    if isinstance(node, ast.OclTypeType):
        return "OclType"
    if isinstance(node, ast.CollectionType):
        return f"{node.kind}({_type(node.element_type)})"
    if isinstance(node, ast.MapType):
        return f"Map({_type(node.key_type)}, {_type(node.value_type)})"
    if isinstance(node, ast.TupleType):
        attributes = ", ".join(f"{quote_name(a.name)} : {_type(a.type)}" for a in node.attributes)
        return f"TupleType({attributes})"
    raise TypeError(f"not an ATL type: {node!r}")


# ---------------------------------------------------------------------- statements and rules
def _statements(statements: tuple[ast.Statement, ...], indent: str) -> list[str]:
    lines: list[str] = []
    for statement in statements:
        lines.extend(_statement(statement, indent))
    return lines


def _statement(node: ast.Statement, indent: str) -> list[str]:
    if isinstance(node, ast.ExpressionStat):
        return [f"{indent}{_expression(node.expression)};"]
    if isinstance(node, ast.BindingStat):
        arrow = "<:=" if node.assignment else "<-"
        return [f"{indent}{_expression(node.target)} {arrow} {_expression(node.value)};"]
    if isinstance(node, ast.IfStat):
        lines = [f"{indent}if ({_expression(node.condition)}) {{"]
        lines += _statements(node.then_statements, indent + "\t")
        if node.else_statements:
            lines.append(f"{indent}}} else {{")
            lines += _statements(node.else_statements, indent + "\t")
        lines.append(f"{indent}}}")
        return lines
    if isinstance(node, ast.ForStat):
        lines = [f"{indent}for ({quote_name(node.iterator)} in {_expression(node.collection)}) {{"]
        lines += _statements(node.statements, indent + "\t")
        lines.append(f"{indent}}}")
        return lines
    raise TypeError(f"not an ATL statement: {node!r}")


def _bindings(bindings: tuple[ast.Binding, ...], indent: str) -> str:
    if not bindings:
        return ""
    items = [
        f"{indent}\t{quote_name(b.property)} {'<:=' if b.assignment else '<-'} {_expression(b.value)}"
        for b in bindings
    ]
    return " (\n" + ",\n".join(items) + f"\n{indent})"


def _out_element(node: ast.OutPatternElement, indent: str) -> str:
    maps_to = f" mapsTo {quote_name(node.maps_to)}" if node.maps_to is not None else ""
    if isinstance(node, ast.SimpleOutPatternElement):
        model = f" in {quote_name(node.model)}" if node.model is not None else ""
        reverse = f" -> ({_arguments(node.reverse_bindings)})" if node.reverse_bindings else ""
        head = f"{indent}{quote_name(node.name)} : {_type(node.type)}{model}{maps_to}{reverse}"
    elif isinstance(node, ast.ForEachOutPatternElement):
        head = (
            f"{indent}{quote_name(node.name)} : distinct {_type(node.type)} foreach "
            f"({quote_name(node.iterator)} in {_expression(node.collection)}){maps_to}"
        )
    else:
        raise TypeError(f"not an output pattern element: {node!r}")
    return head + _bindings(node.bindings, indent)


def _rule_body(rule: ast.MatchedRule | ast.CalledRule, indent: str) -> list[str]:
    lines: list[str] = []
    inner = indent + "\t"
    if isinstance(rule, ast.MatchedRule):
        elements = []
        for element in rule.in_pattern.elements:
            models = f" in {', '.join(quote_name(m) for m in element.models)}" if element.models else ""
            elements.append(f"{inner}\t{quote_name(element.name)} : {_type(element.type)}{models}")
        lines.append(f"{inner}from")
        lines.append(",\n".join(elements))
        if rule.in_pattern.filter is not None:
            lines.append(f"{inner}\t({_expression(rule.in_pattern.filter)})")
    if rule.variables:
        lines.append(f"{inner}using {{")
        lines += [f"{inner}\t{_variable_declaration(v)};" for v in rule.variables]
        lines.append(f"{inner}}}")
    if rule.out_pattern is not None:
        lines.append(f"{inner}to" + (" drop" if rule.out_pattern.drop else ""))
        out = [_out_element(element, inner + "\t") for element in rule.out_pattern.elements]
        if out:
            lines.append(",\n".join(out))
    if rule.action_block is not None:
        lines.append(f"{inner}do {{")
        lines += _statements(rule.action_block.statements, inner + "\t")
        lines.append(f"{inner}}}")
    return lines


def _rule(rule: ast.MatchedRule | ast.CalledRule, indent: str = "") -> str:
    if isinstance(rule, ast.MatchedRule):
        if rule.lazy:
            modifiers = ["unique"] * rule.unique + ["lazy"] + ["abstract"] * rule.abstract
        else:
            modifiers = ["nodefault"] * rule.nodefault + ["abstract"] * rule.abstract
        modifiers += ["refining"] * rule.refining
        extends = f" extends {quote_name(rule.super_rule)}" if rule.super_rule is not None else ""
        head = f"{indent}{' '.join([*modifiers, 'rule'])} {quote_name(rule.name)}{extends} {{"
    else:
        modifiers = ["entrypoint"] * rule.entrypoint + ["endpoint"] * rule.endpoint
        parameters = ", ".join(f"{quote_name(p.name)} : {_type(p.type)}" for p in rule.parameters)
        head = f"{indent}{' '.join([*modifiers, 'rule'])} {quote_name(rule.name)}({parameters}) {{"
    return "\n".join([head, *_rule_body(rule, indent), f"{indent}}}"])


def _helper(helper: ast.Helper, indent: str = "") -> str:
    context = f"context {_type(helper.context)} " if helper.context is not None else ""
    parameters = ""
    if helper.operation:
        parameters = (
            "(" + ", ".join(f"{quote_name(p.name)} : {_type(p.type)}" for p in helper.parameters) + ")"
        )
    elif helper.parameters:
        raise ValueError("an attribute helper has no parameters")
    return (
        f"{indent}helper {context}def : {quote_name(helper.name)}{parameters} : {_type(helper.type)} =\n"
        f"{indent}\t{_expression(helper.body)};"
    )


def _header(unit: ast.Unit) -> list[str]:
    return [annotation.text for annotation in unit.annotations]


def _libraries(unit: ast.Unit) -> list[str]:
    return [f"uses {quote_name(library.name)};" for library in unit.libraries]


def _unit(unit: ast.Unit) -> str:
    lines = _header(unit)
    if isinstance(unit, ast.Module):
        out_models = ", ".join(f"{quote_name(m.name)} : {quote_name(m.metamodel)}" for m in unit.out_models)
        in_models = ", ".join(f"{quote_name(m.name)} : {quote_name(m.metamodel)}" for m in unit.in_models)
        keyword = "refining" if unit.refining else "from"
        lines += [f"module {quote_name(unit.name)};", f"create {out_models} {keyword} {in_models};"]
        lines += _libraries(unit)
        for element in unit.elements:
            lines.append("")
            lines.append(_helper(element) if isinstance(element, ast.Helper) else _rule(element))
    elif isinstance(unit, ast.Query):
        lines.append(f"query {quote_name(unit.name)} = {_expression(unit.body)};")
        lines += _libraries(unit)
        lines += ["\n" + _helper(helper) for helper in unit.helpers]
    else:
        lines.append(f"library {quote_name(unit.name)};")
        lines += _libraries(unit)
        lines += ["\n" + _helper(helper) for helper in unit.helpers]
    return "\n".join(lines) + "\n"


def to_atl(node: ast.Node) -> str:
    """ATL source text for ``node`` (a unit, rule, helper, statement, expression or type)."""
    if isinstance(node, ast.Expr):
        return _expression(node)
    if isinstance(node, ast.Statement):
        return "\n".join(_statement(node, ""))
    if isinstance(node, ast.Helper):
        return _helper(node)
    if isinstance(node, ast.MatchedRule | ast.CalledRule):
        return _rule(node)
    if isinstance(node, ast.OutPatternElement):
        return _out_element(node, "")
    if isinstance(node, ast.Module | ast.Query | ast.Library):
        return _unit(node)
    raise TypeError(f"cannot print {type(node).__name__} on its own")
