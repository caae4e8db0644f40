"""Diagnostics: what the extractor reports about a unit besides the ground truth.

Every diagnostic has a stable ``code`` (tests and reports rely on it; the list is :data:`CODES`, each
explained in docs/INTERCHANGE_FORMAT.md). The checks here are syntactic passes over the whole unit, done
once per call site, so that a helper that is never called is checked too and a helper expanded for many
bindings is reported once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from benchmark.lang.atl import ast
from benchmark.tracks.mapping.extractor.inheritance import EffectiveRule
from benchmark.tracks.mapping.extractor.operations import STANDARD_OPERATIONS
from benchmark.tracks.mapping.extractor.paths import SELF, THIS_MODULE, HelperTable
from benchmark.tracks.mapping.interchange import Diagnostic

__all__ = ["CODES", "DiagnosticSink", "check_unit"]

#: code -> (severity, meaning). The meaning is what docs/INTERCHANGE_FORMAT.md says about it.
CODES: dict[str, tuple[str, str]] = {
    "unknown-operation": (
        "warning",
        "a call names an operation that is neither standard ATL/OCL nor a helper or rule of the unit; it "
        "is read as a standard operation (its receiver's paths pass through)",
    ),
    "unknown-variable": (
        "warning",
        "a variable that no pattern, using, let, iterator, parameter or self declares; it reads nothing",
    ),
    "unknown-parent-rule": (
        "warning",
        "a rule extends a rule the unit does not declare (or a called rule); read without inheritance",
    ),
    "inheritance-cycle": ("warning", "rules extend each other in a cycle; the cycle is cut"),
    "non-model-type": (
        "info",
        "an input or output element whose type is not a metamodel class (MM!C); it forms no class pair",
    ),
    "duplicate-rule": ("warning", "two rules share a name; the first one is used for inheritance"),
    "metamodel-clash": (
        "info",
        "one class pair (simple names) is written with different metamodels; the document keeps the first "
        "in sorted order",
    ),
    "parser-leniency": (
        "info",
        "the file uses a construct the official ATL parser rejects and this parser accepts",
    ),
}


@dataclass
class DiagnosticSink:
    """Collects diagnostics; duplicates (same position, code and message) are kept once."""

    items: set[Diagnostic] = field(default_factory=set)

    def add(self, code: str, message: str, node: ast.Node | None = None, rule: str | None = None) -> None:
        severity = CODES[code][0]
        line = node.line if node is not None else 0
        column = node.column if node is not None else 0
        self.items.add(Diagnostic(line, column, code, message, severity, rule))


_Scope = frozenset[str]

#: Nodes that hold no variable and no call.
_LEAVES: frozenset[type] = frozenset(
    {
        ast.StringExp,
        ast.IntegerExp,
        ast.RealExp,
        ast.BooleanExp,
        ast.OclUndefinedExp,
        ast.EnumLiteralExp,
        ast.SuperExp,
        ast.ModelElementType,
        ast.PrimitiveType,
    }
)


class _Checker:
    def __init__(self, unit: ast.Unit, table: HelperTable, sink: DiagnosticSink) -> None:
        self.table = table
        self.sink = sink
        libraries = [library.name for library in unit.libraries]
        self.library_hint = (
            f" (perhaps from {'library' if len(libraries) == 1 else 'libraries'} "
            f"{', '.join(libraries)}, not at hand)"
            if libraries
            else ""
        )
        self.where = ""
        self.rule: str | None = None

    def expression(self, node: ast.Expr, scope: _Scope) -> None:
        """Check ``node`` and everything below it; ``scope`` holds the variable names declared there."""
        stack: list[tuple[ast.Node, _Scope]] = [(node, scope)]
        pop, push = stack.pop, stack.append
        while stack:
            current, names = pop()
            kind = type(current)
            if kind in _LEAVES:
                continue
            if kind is ast.NavigationExp:
                assert type(current) is ast.NavigationExp
                push((current.source, names))
            elif kind is ast.VariableExp:
                assert type(current) is ast.VariableExp
                self._variable(current, names)
            elif kind is ast.OperationCallExp:
                assert type(current) is ast.OperationCallExp
                self._operation(current)
                push((current.source, names))
                for argument in current.arguments:
                    push((argument, names))
            elif kind is ast.LetExp:
                assert type(current) is ast.LetExp
                push((current.variable.init, names))
                push((current.body, names | {current.variable.name}))
            elif kind is ast.IteratorExp:
                assert type(current) is ast.IteratorExp
                push((current.source, names))
                push((current.body, names.union(current.iterators)))
            elif kind is ast.IterateExp:
                assert type(current) is ast.IterateExp
                push((current.source, names))
                push((current.result.init, names))
                push((current.body, names.union(current.iterators, (current.result.name,))))
            else:
                for child in ast.children(current):
                    push((child, names))

    def _variable(self, node: ast.VariableExp, names: _Scope) -> None:
        if node.name in names or node.name == THIS_MODULE:
            return
        self.sink.add(
            "unknown-variable",
            f"variable {node.name} is not declared {self.where}; it reads nothing",
            node,
            self.rule,
        )

    def _operation(self, node: ast.OperationCallExp) -> None:
        name = node.name
        if name in STANDARD_OPERATIONS or self.table.defines_operation(name):
            return
        self.sink.add(
            "unknown-operation",
            f"operation {name}() {self.where} is neither a standard operation nor a helper or rule of this "
            f"unit{self.library_hint}; read as a standard operation",
            node,
            self.rule,
        )

    def statements(self, statements: Iterable[ast.Statement], scope: _Scope) -> None:
        for statement in statements:
            if isinstance(statement, ast.ForStat):
                self.expression(statement.collection, scope)
                self.statements(statement.statements, scope | {statement.iterator})
            elif isinstance(statement, ast.IfStat):
                self.expression(statement.condition, scope)
                self.statements(statement.then_statements, scope)
                self.statements(statement.else_statements, scope)
            else:
                for child in ast.children(statement):
                    if isinstance(child, ast.Expr):
                        self.expression(child, scope)


def check_unit(
    unit: ast.Unit,
    table: HelperTable,
    effective: dict[int, EffectiveRule],
    sink: DiagnosticSink,
) -> None:
    """Unknown operations and variables in every helper and rule, and the parser's leniencies."""
    checker = _Checker(unit, table, sink)
    for leniency in unit.leniencies:
        sink.add("parser-leniency", f"{leniency.kind}: {leniency.message}", leniency)
    for helper in unit.helpers:
        checker.rule = None
        checker.where = f"in helper {helper.name}"
        names = {parameter.name for parameter in helper.parameters}
        if helper.context is not None:
            names.add(SELF)
        checker.expression(helper.body, frozenset(names))
    if isinstance(unit, ast.Query):
        checker.rule = None
        checker.where = f"in query {unit.name}"
        checker.expression(unit.body, frozenset())
    if not isinstance(unit, ast.Module):
        return
    for rule in unit.rules:
        checker.rule = rule.name
        checker.where = f"in rule {rule.name}"
        if isinstance(rule, ast.MatchedRule):
            inputs = {element.name for element in rule.in_pattern.elements}
            if rule.in_pattern.filter is not None:
                checker.expression(rule.in_pattern.filter, frozenset(inputs))
            found = effective.get(id(rule))
            visible = set(inputs)
            if found is not None:
                visible |= {alias for alias, _ in found.aliases}
                visible |= {v.declaration.name for v in found.variables}
                visible |= {output.name for output in found.outputs}
        else:
            visible = {parameter.name for parameter in rule.parameters}
        visible |= {v.name for v in rule.variables}
        visible |= {element.name for element in rule.out_elements}
        scope = frozenset(visible)
        declared = set(scope) - {v.name for v in rule.variables}
        for variable in rule.variables:  # each sees the ones declared before it
            checker.expression(variable.init, frozenset(declared))
            declared.add(variable.name)
        for element in rule.out_elements:
            element_scope = scope
            if isinstance(element, ast.ForEachOutPatternElement):
                checker.expression(element.collection, scope)
                element_scope = scope | {element.iterator}
            for binding in element.bindings:
                checker.expression(binding.value, element_scope)
        if rule.action_block is not None:
            checker.statements(rule.action_block.statements, scope)
