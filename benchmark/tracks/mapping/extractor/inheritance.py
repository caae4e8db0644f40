"""Rule inheritance: the effective patterns of a matched or lazy rule once ``extends`` is resolved.

For ``rule R extends P`` (docs/INTERCHANGE_FORMAT.md, "Inheritance"):

* an output element of R inherits the bindings of P's output element with the same variable name,
  except the features R's element binds itself;
* P's output elements that R does not redeclare are inherited as they are;
* P's ``using`` variables are visible in R (R's own variable of the same name wins);
* all of this transitively (P's effective patterns are resolved first).

Inherited expressions name P's input variables. ATL expects R to declare the same names; when it does
not, a parent variable stands for the child variable at the same position (``aliases``). A cycle or a
missing parent is reported and the rule is then read without the faulty link.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from benchmark.lang.atl import ast

__all__ = ["InheritedBinding", "EffectiveOutput", "EffectiveVariable", "EffectiveRule", "resolve_rules"]


@dataclass(frozen=True, slots=True)
class InheritedBinding:
    """A binding of an effective output element and the rule whose text declares it."""

    binding: ast.Binding
    declared_in: str


@dataclass(frozen=True, slots=True)
class EffectiveOutput:
    """An output element after inheritance: the declaring element (which gives the type and, for a
    ``distinct ... foreach`` element, the iterator) and every binding it ends up with."""

    element: ast.OutPatternElement
    bindings: tuple[InheritedBinding, ...]

    @property
    def name(self) -> str:
        return self.element.name


@dataclass(frozen=True, slots=True)
class EffectiveVariable:
    """A ``using`` variable visible in the rule and the rule that declares it."""

    declaration: ast.VariableDeclaration
    declared_in: str


@dataclass(frozen=True, slots=True)
class EffectiveRule:
    """A matched or lazy rule with its inherited patterns.

    ``aliases`` maps an ancestor's input variable name that the rule does not declare itself to the
    rule's own input variable at the same position."""

    rule: ast.MatchedRule
    outputs: tuple[EffectiveOutput, ...]
    variables: tuple[EffectiveVariable, ...]
    aliases: tuple[tuple[str, str], ...]

    @property
    def name(self) -> str:
        return self.rule.name


#: ``report(code, message, node, rule)``: how problems found while resolving are reported.
Reporter = Callable[[str, str, ast.Node, str], None]


def resolve_rules(rules: tuple[ast.MatchedRule, ...], report: Reporter) -> dict[int, EffectiveRule]:
    """The effective patterns of every matched and lazy rule, keyed by ``id(rule)`` (when a unit declares
    two rules of one name, ``extends`` names the first)."""
    by_name: dict[str, ast.MatchedRule] = {}
    for rule in rules:
        by_name.setdefault(rule.name, rule)
    resolved: dict[int, EffectiveRule] = {}
    in_progress: set[str] = set()

    def resolve(rule: ast.MatchedRule) -> EffectiveRule:
        done = resolved.get(id(rule))
        if done is not None:
            return done
        in_progress.add(rule.name)
        parent: EffectiveRule | None = None
        if rule.super_rule is not None:
            parent_rule = by_name.get(rule.super_rule)
            if parent_rule is None:
                report(
                    "unknown-parent-rule",
                    f"rule {rule.name} extends {rule.super_rule}, which is not a matched or lazy rule of "
                    "this unit; read without inheritance",
                    rule,
                    rule.name,
                )
            elif parent_rule.name in in_progress:
                report(
                    "inheritance-cycle",
                    f"rule {rule.name} extends {rule.super_rule}, which extends {rule.name} again; the "
                    "cycle is cut here",
                    rule,
                    rule.name,
                )
            else:
                parent = resolve(parent_rule)
        effective = _inherit(rule, parent)
        in_progress.discard(rule.name)
        resolved[id(rule)] = effective
        return effective

    for rule in rules:
        resolve(rule)
    return resolved


def _own(rule: ast.MatchedRule) -> tuple[EffectiveOutput, ...]:
    return tuple(
        EffectiveOutput(element, tuple(InheritedBinding(b, rule.name) for b in element.bindings))
        for element in rule.out_elements
    )


def _inherit(rule: ast.MatchedRule, parent: EffectiveRule | None) -> EffectiveRule:
    own_outputs = _own(rule)
    own_variables = tuple(EffectiveVariable(v, rule.name) for v in rule.variables)
    if parent is None:
        return EffectiveRule(rule, own_outputs, own_variables, ())

    own_by_name = {output.name: output for output in own_outputs}
    outputs: list[EffectiveOutput] = []
    for inherited in parent.outputs:
        mine = own_by_name.pop(inherited.name, None)
        if mine is None:
            outputs.append(inherited)  # not redeclared: inherited as it is
            continue
        bound = {b.binding.property for b in mine.bindings}
        kept = tuple(b for b in inherited.bindings if b.binding.property not in bound)
        outputs.append(EffectiveOutput(mine.element, mine.bindings + kept))
    outputs.extend(output for output in own_outputs if output.name in own_by_name)

    own_variable_names = {v.declaration.name for v in own_variables}
    variables = tuple(v for v in parent.variables if v.declaration.name not in own_variable_names)
    variables += own_variables

    return EffectiveRule(
        rule=rule,
        outputs=tuple(outputs),
        variables=variables,
        aliases=_aliases(rule, parent),
    )


def _aliases(rule: ast.MatchedRule, parent: EffectiveRule) -> tuple[tuple[str, str], ...]:
    """Ancestor input variable names that ``rule`` does not declare, each mapped to ``rule``'s input
    variable at the same position (through the parent's own aliases for older ancestors)."""
    own = [element.name for element in rule.in_pattern.elements]
    own_names = set(own)
    mapping: dict[str, str] = {}
    for position, element in enumerate(parent.rule.in_pattern.elements):
        if element.name not in own_names and position < len(own):
            mapping[element.name] = own[position]
    for ancestor_name, parent_name in parent.aliases:
        if ancestor_name in own_names or ancestor_name in mapping:
            continue
        target = parent_name if parent_name in own_names else mapping.get(parent_name)
        if target is not None:
            mapping[ancestor_name] = target
    return tuple(sorted(mapping.items()))
