"""Builds the AST during the LALR parse (lark's inline ``transformer=``), one method per grammar alias.

lark calls each method with the list of children of the reduced rule: tokens
(:class:`~benchmark.lang.atl.lexer.Tok`) and the values earlier methods returned. Grammar rules keep all their
tokens (``keep_all_tokens``), so the methods index children directly and take positions from the tokens.
List rules return plain Python lists that later reductions append to; nodes get tuples.
"""

from __future__ import annotations

from typing import Any

from benchmark.lang.atl import ast
from benchmark.lang.atl.errors import AtlSyntaxError
from benchmark.lang.atl.lexer import Tok

__all__ = ["AstBuilder"]

Children = list[Any]

#: Binary operator terminal -> level (lower binds tighter), as ATL.tcs priority_2..5.
_LEVEL = {
    "STAR": 2,
    "SLASH": 2,
    "DIV": 2,
    "MOD": 2,
    "PLUS": 3,
    "MINUS": 3,
    "EQ": 4,
    "GT": 4,
    "LT": 4,
    "GE": 4,
    "LE": 4,
    "NE": 4,
    "AND": 5,
    "OR": 5,
    "XOR": 5,
    "IMPLIES": 5,
}

_BinaryExp = ast.BinaryExp
_NavigationExp = ast.NavigationExp
_OperationCallExp = ast.OperationCallExp
_VariableExp = ast.VariableExp


def _fold_binary(items: list[Any]) -> ast.Expr:
    """``[e0, op1, e1, op2, e2, ...]`` -> a tree with ATL's left-associative levels (operator precedence
    parsing with an operand and an operator stack)."""
    level = _LEVEL
    operands: list[ast.Expr] = [items[0]]
    operators: list[Tok] = []
    for index in range(1, len(items), 2):
        operator = items[index]
        operator_level = level[operator.type]
        while operators and level[operators[-1].type] <= operator_level:
            top = operators.pop()
            right = operands.pop()
            left = operands.pop()
            operands.append(_BinaryExp(top.value, left, right, line=top.line, column=top.column))  # type: ignore[arg-type]
        operators.append(operator)
        operands.append(items[index + 1])
    while operators:
        top = operators.pop()
        right = operands.pop()
        left = operands.pop()
        operands.append(_BinaryExp(top.value, left, right, line=top.line, column=top.column))  # type: ignore[arg-type]
    return operands[0]


class AstBuilder:
    """The inline transformer. One instance serves one parse at a time (:meth:`reset` before each)."""

    def __init__(self) -> None:
        self.file: str | None = None
        self.leniencies: list[ast.Leniency] = []
        self.super_declared = False
        self._parenthesized: set[int] = set()

    def reset(self, file: str | None) -> None:
        self.file = file
        self.leniencies = []
        self.super_declared = False
        self._parenthesized = set()

    # ------------------------------------------------------------------ generic shapes
    def same(self, c: Children) -> Any:
        return c[0]

    start = same
    binary_operator = same
    name_or_keyword = same

    def none(self, c: Children) -> None:
        return None

    def second(self, c: Children) -> Any:
        return c[1]

    def third(self, c: Children) -> Any:
        return c[2]

    def list_empty(self, c: Children) -> list[Any]:
        return []

    list_empty_tokens = list_empty

    def list_first(self, c: Children) -> list[Any]:
        return [c[0]]

    list_single = list_first

    def list_second(self, c: Children) -> list[Any]:
        return [c[1]]

    def list_append(self, c: Children) -> list[Any]:
        items: list[Any] = c[0]
        items.append(c[1])
        return items

    def list_next_sep(self, c: Children) -> list[Any]:
        items: list[Any] = c[0]
        items.append(c[2])
        return items

    list_append_third = list_next_sep

    # ------------------------------------------------------------------ units
    def module(self, c: Children) -> ast.Module:
        keyword: Tok = c[0]
        return ast.Module(
            c[1].value,
            tuple(c[4]),
            tuple(c[6]),
            c[5].type == "REFINING",
            tuple(c[8]),
            tuple(c[9]),
            line=keyword.line,
            column=keyword.column,
        )

    def query(self, c: Children) -> ast.Query:
        keyword: Tok = c[0]
        return ast.Query(c[1].value, c[3], tuple(c[5]), tuple(c[6]), line=keyword.line, column=keyword.column)

    def library(self, c: Children) -> ast.Library:
        keyword: Tok = c[0]
        return ast.Library(c[1].value, tuple(c[3]), tuple(c[4]), line=keyword.line, column=keyword.column)

    def model(self, c: Children) -> ast.ModelDecl:
        name: Tok = c[0]
        return ast.ModelDecl(name.value, c[2].value, line=name.line, column=name.column)

    def library_ref(self, c: Children) -> list[ast.LibraryRef]:
        items: list[ast.LibraryRef] = c[0]
        keyword: Tok = c[1]
        items.append(ast.LibraryRef(c[2].value, line=keyword.line, column=keyword.column))
        return items

    # ------------------------------------------------------------------ helpers
    def helper_operation(self, c: Children) -> ast.Helper:
        # HELPER context? DEF COLON NAME LPAR parameters RPAR COLON type EQ expr SEMI
        keyword: Tok = c[0]
        context = c[1] if len(c) == 13 else None
        rest = c[-11:]
        return ast.Helper(
            context,
            rest[2].value,
            True,
            tuple(rest[4]),
            rest[7],
            rest[9],
            line=keyword.line,
            column=keyword.column,
        )

    def helper_attribute(self, c: Children) -> ast.Helper:
        # HELPER context? DEF COLON NAME COLON type EQ expr SEMI
        keyword: Tok = c[0]
        context = c[1] if len(c) == 10 else None
        rest = c[-8:]
        return ast.Helper(
            context, rest[2].value, False, (), rest[4], rest[6], line=keyword.line, column=keyword.column
        )

    def context(self, c: Children) -> ast.Type:
        return c[1]

    def parameter(self, c: Children) -> ast.Parameter:
        name: Tok = c[0]
        return ast.Parameter(name.value, c[2], line=name.line, column=name.column)

    def super_as_name(self, c: Children) -> Tok:
        token: Tok = c[0]
        self.super_declared = True
        self.leniencies.append(
            ast.Leniency(
                "super-as-name",
                "'super' is a keyword; the official ATL parser rejects it as a declared name"
                ' (quote it: "super")',
                line=token.line,
                column=token.column,
            )
        )
        return Tok("NAME", "super", token.line, token.column, token.start_pos)

    # ------------------------------------------------------------------ rules
    def matched_head(self, c: Children) -> tuple[Any, ...]:
        # NODEFAULT? ABSTRACT? REFINING? RULE NAME extends
        modifiers = {token.type for token in c[:-3]}
        first: Tok = c[0]
        return (
            c[-2],
            c[-1],
            "ABSTRACT" in modifiers,
            "REFINING" in modifiers,
            "NODEFAULT" in modifiers,
            False,
            False,
            first,
        )

    def lazy_head(self, c: Children) -> tuple[Any, ...]:
        # UNIQUE? LAZY ABSTRACT? REFINING? RULE NAME extends
        modifiers = {token.type for token in c[:-3]}
        first: Tok = c[0]
        return (
            c[-2],
            c[-1],
            "ABSTRACT" in modifiers,
            "REFINING" in modifiers,
            False,
            True,
            "UNIQUE" in modifiers,
            first,
        )

    def extends(self, c: Children) -> str:
        return str(c[1].value)

    def matched_rule(self, c: Children) -> ast.MatchedRule:
        # matched_head LBRACE in_pattern using out_pattern action_block RBRACE
        name, super_rule, abstract, refining, nodefault, lazy, unique, first = c[0]
        return ast.MatchedRule(
            name.value,
            super_rule,
            abstract,
            refining,
            nodefault,
            lazy,
            unique,
            c[2],
            tuple(c[3]),
            c[4],
            c[5],
            line=first.line,
            column=first.column,
        )

    def called_rule(self, c: Children) -> ast.CalledRule:
        # ENTRYPOINT? ENDPOINT? RULE NAME LPAR parameters RPAR LBRACE using out_pattern action_block RBRACE
        modifiers = {token.type for token in c[:-10]}
        rest = c[-10:]
        first: Tok = c[0]
        return ast.CalledRule(
            rest[1].value,
            "ENTRYPOINT" in modifiers,
            "ENDPOINT" in modifiers,
            tuple(rest[3]),
            tuple(rest[6]),
            rest[7],
            rest[8],
            line=first.line,
            column=first.column,
        )

    def using(self, c: Children) -> list[ast.VariableDeclaration]:
        return c[2]  # type: ignore[no-any-return]

    def rule_variable(self, c: Children) -> list[ast.VariableDeclaration]:
        # variable_declarations decl_name COLON type EQ expr SEMI
        items: list[ast.VariableDeclaration] = c[0]
        name: Tok = c[1]
        items.append(ast.VariableDeclaration(name.value, c[3], c[5], line=name.line, column=name.column))
        return items

    def in_pattern(self, c: Children) -> ast.InPattern:
        keyword: Tok = c[0]
        return ast.InPattern(tuple(c[1]), None, line=keyword.line, column=keyword.column)

    def in_pattern_filter(self, c: Children) -> ast.InPattern:
        keyword: Tok = c[0]
        return ast.InPattern(tuple(c[1]), c[3], line=keyword.line, column=keyword.column)

    def in_element(self, c: Children) -> ast.InPatternElement:
        name: Tok = c[0]
        return ast.InPatternElement(name.value, c[2], (), line=name.line, column=name.column)

    def in_element_models(self, c: Children) -> ast.InPatternElement:
        name: Tok = c[0]
        models = tuple(token.value for token in c[4]) if len(c) == 5 else ()
        return ast.InPatternElement(name.value, c[2], models, line=name.line, column=name.column)

    def out_pattern(self, c: Children) -> ast.OutPattern:
        keyword: Tok = c[0]
        return ast.OutPattern(tuple(c[1]), False, line=keyword.line, column=keyword.column)

    def out_pattern_empty(self, c: Children) -> ast.OutPattern:
        keyword: Tok = c[0]
        return ast.OutPattern((), False, line=keyword.line, column=keyword.column)

    def out_pattern_drop(self, c: Children) -> ast.OutPattern:
        keyword: Tok = c[0]
        elements = tuple(c[2]) if len(c) == 3 else ()
        return ast.OutPattern(elements, True, line=keyword.line, column=keyword.column)

    def simple_out_element(self, c: Children) -> ast.SimpleOutPatternElement:
        # decl_name COLON type out_model maps_to reverse_bindings bindings
        name: Tok = c[0]
        model = c[3].value if c[3] is not None else None
        maps_to = c[4].value if c[4] is not None else None
        return ast.SimpleOutPatternElement(
            name.value, c[2], model, maps_to, tuple(c[5]), tuple(c[6]), line=name.line, column=name.column
        )

    def foreach_out_element(self, c: Children) -> ast.ForEachOutPatternElement:
        # decl_name COLON DISTINCT type FOREACH LPAR decl_name IN expr RPAR maps_to bindings
        name: Tok = c[0]
        maps_to = c[10].value if c[10] is not None else None
        return ast.ForEachOutPatternElement(
            name.value, c[3], c[6].value, c[8], maps_to, tuple(c[11]), line=name.line, column=name.column
        )

    def binding(self, c: Children) -> ast.Binding:
        name: Tok = c[0]
        return ast.Binding(name.value, c[2], c[1].type == "ASSIGN", line=name.line, column=name.column)

    def action_block(self, c: Children) -> ast.ActionBlock:
        keyword: Tok = c[0]
        return ast.ActionBlock(tuple(c[2]), line=keyword.line, column=keyword.column)

    # ------------------------------------------------------------------ statements
    @staticmethod
    def _statements(value: Any) -> tuple[ast.Statement, ...]:
        return tuple(value) if isinstance(value, list) else (value,)

    def if_statement(self, c: Children) -> ast.IfStat:
        keyword: Tok = c[0]
        return ast.IfStat(c[2], self._statements(c[4]), (), line=keyword.line, column=keyword.column)

    def if_else_statement(self, c: Children) -> ast.IfStat:
        keyword: Tok = c[0]
        return ast.IfStat(
            c[2], self._statements(c[4]), self._statements(c[6]), line=keyword.line, column=keyword.column
        )

    def expression_statement(self, c: Children) -> ast.ExpressionStat:
        expression: ast.Expr = c[0]
        return ast.ExpressionStat(expression, line=expression.line, column=expression.column)

    def binding_statement(self, c: Children) -> ast.BindingStat:
        arrow: Tok = c[1]
        target: ast.Expr = c[0]
        return ast.BindingStat(target, c[2], arrow.type == "ASSIGN", line=target.line, column=target.column)

    def for_statement(self, c: Children) -> ast.ForStat:
        # FOR LPAR decl_name IN expr RPAR LBRACE statements RBRACE
        keyword: Tok = c[0]
        return ast.ForStat(c[2].value, c[4], tuple(c[7]), line=keyword.line, column=keyword.column)

    # ------------------------------------------------------------------ expressions
    def binary(self, c: Children) -> ast.Expr:
        return _fold_binary(c[0])

    def chain_first(self, c: Children) -> list[Any]:
        return c

    def chain_next(self, c: Children) -> list[Any]:
        items: list[Any] = c[0]
        items.append(c[1])
        items.append(c[2])
        return items

    def let(self, c: Children) -> ast.LetExp:
        # LET decl_name COLON type EQ expr IN expr
        keyword: Tok = c[0]
        name: Tok = c[1]
        variable = ast.VariableDeclaration(name.value, c[3], c[5], line=name.line, column=name.column)
        return ast.LetExp(variable, c[7], line=keyword.line, column=keyword.column)

    def unary(self, c: Children) -> ast.UnaryExp:
        operator: Tok = c[0]
        return ast.UnaryExp(operator.value, c[1], line=operator.line, column=operator.column)  # type: ignore[arg-type]

    def navigation(self, c: Children) -> ast.NavigationExp:
        name: Tok = c[2]
        return _NavigationExp(c[0], name.value, line=name.line, column=name.column)

    def operation_call(self, c: Children) -> ast.OperationCallExp:
        name: Tok = c[2]
        arguments = tuple(c[4]) if len(c) == 6 else ()
        return _OperationCallExp(c[0], name.value, arguments, False, line=name.line, column=name.column)

    def arrow_call(self, c: Children) -> ast.OperationCallExp:
        name: Tok = c[2]
        arguments = tuple(c[4]) if len(c) == 6 else ()
        return _OperationCallExp(c[0], name.value, arguments, True, line=name.line, column=name.column)

    def _iterator_names(self, expressions: list[ast.Expr], what: str) -> tuple[str, ...]:
        """The iterator variables of ``->name(a, b | ...)``: parsed as expressions (which is what keeps
        ``->including(a, b)`` and ``->exists(a, b | e)`` apart without an LALR conflict), so check that they
        are plain names."""
        names: list[str] = []
        for expression in expressions:
            kind = type(expression)
            if kind is _VariableExp and id(expression) not in self._parenthesized:
                names.append(expression.name)  # type: ignore[attr-defined]
            elif kind is ast.SuperExp and id(expression) not in self._parenthesized:
                self.super_declared = True
                self.leniencies.append(
                    ast.Leniency(
                        "super-as-name",
                        "'super' is a keyword; the official ATL parser rejects it as an iterator name",
                        line=expression.line,
                        column=expression.column,
                    )
                )
                names.append("super")
            else:
                raise AtlSyntaxError(
                    f"{what} variables must be plain names",
                    file=self.file,
                    line=expression.line,
                    column=expression.column,
                    expected=("a name",),
                )
        return tuple(names)

    def iterator_call(self, c: Children) -> ast.IteratorExp:
        # postfix ARROW NAME LPAR expressions PIPE expr RPAR
        name: Tok = c[2]
        iterators = self._iterator_names(c[4], "iterator")
        return ast.IteratorExp(c[0], name.value, iterators, c[6], line=name.line, column=name.column)

    def iterate(self, c: Children) -> ast.IterateExp:
        # postfix ARROW ITERATE LPAR expressions SEMI decl_name COLON type EQ expr PIPE expr RPAR
        keyword: Tok = c[2]
        iterators = self._iterator_names(c[4], "iterate")
        name: Tok = c[6]
        result = ast.VariableDeclaration(name.value, c[8], c[10], line=name.line, column=name.column)
        return ast.IterateExp(c[0], iterators, result, c[12], line=keyword.line, column=keyword.column)

    def variable(self, c: Children) -> ast.VariableExp:
        token: Tok = c[0]
        return _VariableExp(token.value, line=token.line, column=token.column)

    def super_exp(self, c: Children) -> ast.SuperExp:
        token: Tok = c[0]
        return ast.SuperExp(line=token.line, column=token.column)

    def parenthesized(self, c: Children) -> ast.Expr:
        inner: ast.Expr = c[1]
        if type(inner) is _VariableExp or type(inner) is ast.SuperExp:
            self._parenthesized.add(id(inner))
        return inner

    def undefined(self, c: Children) -> ast.OclUndefinedExp:
        token: Tok = c[0]
        return ast.OclUndefinedExp(line=token.line, column=token.column)

    def boolean(self, c: Children) -> ast.BooleanExp:
        token: Tok = c[0]
        return ast.BooleanExp(token.type == "TRUE", line=token.line, column=token.column)

    def integer(self, c: Children) -> ast.IntegerExp:
        token: Tok = c[0]
        return ast.IntegerExp(int(token.value), line=token.line, column=token.column)

    def real(self, c: Children) -> ast.RealExp:
        token: Tok = c[0]
        return ast.RealExp(float(token.value), line=token.line, column=token.column)

    def string(self, c: Children) -> ast.StringExp:
        token: Tok = c[0]
        return ast.StringExp(token.value, line=token.line, column=token.column)

    def enum_literal(self, c: Children) -> ast.EnumLiteralExp:
        token: Tok = c[0]
        return ast.EnumLiteralExp(c[1].value, line=token.line, column=token.column)

    def if_exp(self, c: Children) -> ast.IfExp:
        token: Tok = c[0]
        return ast.IfExp(c[1], c[3], c[5], line=token.line, column=token.column)

    def collection_empty(self, c: Children) -> ast.CollectionExp:
        token: Tok = c[0]
        return ast.CollectionExp(token.value, (), line=token.line, column=token.column)  # type: ignore[arg-type]

    def collection(self, c: Children) -> ast.CollectionExp:
        token: Tok = c[0]
        return ast.CollectionExp(token.value, tuple(c[2]), line=token.line, column=token.column)  # type: ignore[arg-type]

    def map_empty(self, c: Children) -> ast.MapExp:
        token: Tok = c[0]
        return ast.MapExp((), line=token.line, column=token.column)

    def map(self, c: Children) -> ast.MapExp:
        token: Tok = c[0]
        return ast.MapExp(tuple(c[2]), line=token.line, column=token.column)

    def map_element(self, c: Children) -> ast.MapElement:
        token: Tok = c[0]
        return ast.MapElement(c[1], c[3], line=token.line, column=token.column)

    def tuple_empty(self, c: Children) -> ast.TupleExp:
        token: Tok = c[0]
        return ast.TupleExp((), line=token.line, column=token.column)

    def tuple(self, c: Children) -> ast.TupleExp:
        token: Tok = c[0]
        return ast.TupleExp(tuple(c[2]), line=token.line, column=token.column)

    def tuple_part(self, c: Children) -> ast.TuplePart:
        name: Tok = c[0]
        return ast.TuplePart(name.value, None, c[2], line=name.line, column=name.column)

    def tuple_part_typed(self, c: Children) -> ast.TuplePart:
        name: Tok = c[0]
        return ast.TuplePart(name.value, c[2], c[4], line=name.line, column=name.column)

    # ------------------------------------------------------------------ types
    def model_element_type(self, c: Children) -> ast.ModelElementType:
        metamodel: Tok = c[0]
        return ast.ModelElementType(metamodel.value, c[2].value, line=metamodel.line, column=metamodel.column)

    def model_element_type_qualified(self, c: Children) -> ast.ModelElementType:
        metamodel: Tok = c[0]
        name = "::".join([c[2].value, *(token.value for token in c[3])])
        self.leniencies.append(
            ast.Leniency(
                "unquoted-qualified-name",
                f"the official ATL parser rejects the unquoted qualified name {metamodel.value}!{name}"
                f' (write {metamodel.value}!"{name}")',
                line=metamodel.line,
                column=metamodel.column,
            )
        )
        return ast.ModelElementType(metamodel.value, name, line=metamodel.line, column=metamodel.column)

    def ocl_any_type(self, c: Children) -> ast.OclAnyType:
        token: Tok = c[0]
        return ast.OclAnyType(line=token.line, column=token.column)

    def ocl_type_type(self, c: Children) -> ast.OclTypeType:
        token: Tok = c[0]
        return ast.OclTypeType(line=token.line, column=token.column)

    def primitive_type(self, c: Children) -> ast.PrimitiveType:
        token: Tok = c[0]
        return ast.PrimitiveType(token.value, line=token.line, column=token.column)  # type: ignore[arg-type]

    def collection_type(self, c: Children) -> ast.CollectionType:
        token: Tok = c[0]
        return ast.CollectionType(token.value, c[2], line=token.line, column=token.column)  # type: ignore[arg-type]

    def map_type(self, c: Children) -> ast.MapType:
        token: Tok = c[0]
        return ast.MapType(c[2], c[4], line=token.line, column=token.column)

    def tuple_type_empty(self, c: Children) -> ast.TupleType:
        token: Tok = c[0]
        return ast.TupleType((), line=token.line, column=token.column)

    def tuple_type(self, c: Children) -> ast.TupleType:
        token: Tok = c[0]
        return ast.TupleType(tuple(c[2]), line=token.line, column=token.column)

    def tuple_type_attribute(self, c: Children) -> ast.TupleTypeAttribute:
        name: Tok = c[0]
        return ast.TupleTypeAttribute(name.value, c[2], line=name.line, column=name.column)
