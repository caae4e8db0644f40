"""Assembling the interchange document: class pairs, their bindings and the called rules.

Class pairs (docs/INTERCHANGE_FORMAT.md, "Class pairs" and "Bindings"): every matched or lazy rule, abstract
ones included, contributes a pair for each (input element type S, output element type T) of its effective
patterns (see :mod:`benchmark.tracks.mapping.extractor.inheritance`). Pairs are keyed by simple class names,
so rules sharing (S, T) merge into one class match listing all their names. A binding of an output element of
type T counts for (S, T) with the paths read from the rule's input variables of type S; bindings of one (S, T,
feature) merge by uniting their paths.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.core.errors import BenchmarkError
from benchmark.lang.atl import ast
from benchmark.lang.atl.printer import to_atl
from benchmark.tracks.mapping.extractor.checks import DiagnosticSink, check_unit
from benchmark.tracks.mapping.extractor.inheritance import EffectiveRule, resolve_rules
from benchmark.tracks.mapping.extractor.paths import EMPTY, HelperTable, PathAnalyzer, Scope, Substitution
from benchmark.tracks.mapping.interchange import (
    Annotation,
    CalledRule,
    CalledRuleOutput,
    ClassMatch,
    FeatureMatch,
    InterchangeDocument,
    ModelDecl,
    TransformationInfo,
)


def extract_file(path: str | Path) -> InterchangeDocument:
    """Parse an ATL file and extract its interchange document; ``transformation.file`` is ``str(path)``.

    Raises :class:`~benchmark.lang.atl.AtlSyntaxError` when the file does not parse and
    :class:`~benchmark.core.errors.InputFormatError` when it cannot be read."""
    from benchmark.lang.atl import parse_file

    return extract(parse_file(path), file=str(path))


__all__ = ["extract", "ExtractionError"]


class ExtractionError(BenchmarkError):
    """A parsed unit the extractor cannot analyse (an expression nested beyond the recursion budget)."""


_Element = ast.InPatternElement | ast.OutPatternElement


@dataclass
class _FeatureAccumulator:
    paths: set[str] = field(default_factory=set)
    helpers: set[str] = field(default_factory=set)
    rules: set[str] = field(default_factory=set)


@dataclass
class _PairAccumulator:
    """One (S, T) class match being built; metamodels and qualified names as written."""

    source_metamodels: set[str] = field(default_factory=set)
    target_metamodels: set[str] = field(default_factory=set)
    source_qualified: set[str] = field(default_factory=set)
    target_qualified: set[str] = field(default_factory=set)
    rules: set[str] = field(default_factory=set)
    features: dict[str, _FeatureAccumulator] = field(default_factory=dict)


class _Assembler:
    def __init__(self, unit: ast.Unit, sink: DiagnosticSink) -> None:
        self.unit = unit
        self.sink = sink
        rules = unit.rules if isinstance(unit, ast.Module) else ()
        self.matched = tuple(rule for rule in rules if isinstance(rule, ast.MatchedRule))
        self.called = tuple(rule for rule in rules if isinstance(rule, ast.CalledRule))
        self.table = HelperTable(unit.helpers, frozenset(rule.name for rule in rules))
        self.analyzer = PathAnalyzer(self.table)
        self.pairs: dict[tuple[str, str], _PairAccumulator] = {}
        self._check_duplicate_names(rules)
        self.effective = resolve_rules(self.matched, self._report)

    def _report(self, code: str, message: str, node: ast.Node, rule: str) -> None:
        self.sink.add(code, message, node, rule)

    def _check_duplicate_names(self, rules: Iterable[ast.MatchedRule | ast.CalledRule]) -> None:
        seen: set[str] = set()
        for rule in rules:
            if rule.name in seen:
                self.sink.add("duplicate-rule", f"a second rule is named {rule.name}", rule, rule.name)
            seen.add(rule.name)

    # ------------------------------------------------------------------------------ matched rules
    def matched_rules(self) -> None:
        for rule in self.matched:
            self._rule(self.effective[id(rule)])

    def _model_type(self, element: _Element, what: str, rule: str) -> ast.ModelElementType | None:
        """The element's type when it is a metamodel class; otherwise None, reported."""
        type_ = element.type
        if isinstance(type_, ast.ModelElementType):
            return type_
        self.sink.add(
            "non-model-type",
            f"{what} {element.name} of rule {rule} has type {to_atl(type_)}, not a metamodel class; "
            "it forms no class pair",
            element,
            rule,
        )
        return None

    def _rule(self, effective: EffectiveRule) -> None:
        rule = effective.rule
        sources: dict[str, list[tuple[str, ast.ModelElementType]]] = {}  # S -> [(variable, type)]
        for input_element in rule.in_pattern.elements:
            source_type = self._model_type(input_element, "input element", rule.name)
            if source_type is not None:
                sources.setdefault(source_type.simple_name, []).append((input_element.name, source_type))
        scope = self._rule_scope(effective)
        for output in effective.outputs:
            element = output.element
            type_ = self._model_type(element, "output element", rule.name)
            if type_ is None:
                continue
            element_scope = scope
            if isinstance(element, ast.ForEachOutPatternElement):
                collection = self.analyzer.analyse(element.collection, scope)
                element_scope = {
                    **scope,
                    element.iterator: Substitution(collection.value, collection.reads, collection.helpers),
                }
            readings = [
                (binding, self.analyzer.analyse(binding.binding.value, element_scope))
                for binding in output.bindings
            ]
            for source_class, variables in sources.items():
                pair = self._pair(source_class, type_, variables, rule.name)
                roots = {variable for variable, _ in variables}
                for binding, reading in readings:
                    feature = pair.features.setdefault(binding.binding.property, _FeatureAccumulator())
                    feature.rules.update((rule.name, binding.declared_in))
                    feature.paths.update(".".join(path[1:]) for path in reading.reads if path[0] in roots)
                    feature.helpers.update(reading.helpers)

    def _rule_scope(self, effective: EffectiveRule) -> Scope:
        """Input variables stand for themselves (and an ancestor's names for the variable at the same
        position), output variables for nothing, ``using`` variables for their expression."""
        scope: dict[str, Substitution] = {}
        for element in effective.rule.in_pattern.elements:
            scope[element.name] = Substitution(frozenset({(element.name,)}))
        for alias, variable in effective.aliases:
            scope[alias] = Substitution(frozenset({(variable,)}))
        for output in effective.outputs:
            scope.setdefault(output.name, Substitution(EMPTY))
        for visible in effective.variables:
            declaration = visible.declaration
            reading = self.analyzer.analyse(declaration.init, scope)
            scope[declaration.name] = Substitution(reading.value, reading.reads, reading.helpers)
        return scope

    def _pair(
        self,
        source_class: str,
        target: ast.ModelElementType,
        variables: list[tuple[str, ast.ModelElementType]],
        rule: str,
    ) -> _PairAccumulator:
        pair = self.pairs.setdefault((source_class, target.simple_name), _PairAccumulator())
        pair.rules.add(rule)
        for _, source in variables:
            pair.source_metamodels.add(source.metamodel)
            if source.name != source.simple_name:
                pair.source_qualified.add(source.name)
        pair.target_metamodels.add(target.metamodel)
        if target.name != target.simple_name:
            pair.target_qualified.add(target.name)
        return pair

    def class_matches(self) -> tuple[ClassMatch, ...]:
        matches: list[ClassMatch] = []
        for (source_class, target_class), pair in sorted(self.pairs.items()):
            for side, metamodels in (("source", pair.source_metamodels), ("target", pair.target_metamodels)):
                if len(metamodels) > 1:
                    self.sink.add(
                        "metamodel-clash",
                        f"class pair {source_class} -> {target_class}: the {side} class is written with "
                        f"metamodels {', '.join(sorted(metamodels))}; keeping {min(metamodels)}",
                    )
            features = tuple(
                FeatureMatch(
                    target_feature=name,
                    source_paths=tuple(sorted(feature.paths)),
                    source_features=tuple(sorted({path.split(".", 1)[0] for path in feature.paths})),
                    helpers=tuple(sorted(feature.helpers)),
                    rules=tuple(sorted(feature.rules)),
                )
                for name, feature in sorted(pair.features.items())
            )
            matches.append(
                ClassMatch(
                    source_class=source_class,
                    target_class=target_class,
                    source_metamodel=min(pair.source_metamodels),
                    target_metamodel=min(pair.target_metamodels),
                    rules=tuple(sorted(pair.rules)),
                    feature_matches=features,
                    source_qualified=tuple(sorted(pair.source_qualified)),
                    target_qualified=tuple(sorted(pair.target_qualified)),
                )
            )
        return tuple(matches)

    # ------------------------------------------------------------------------------ called rules
    def called_rules(self) -> tuple[CalledRule, ...]:
        result: list[CalledRule] = []
        for rule in self.called:
            outputs: list[CalledRuleOutput] = []
            for element in rule.out_elements:
                type_ = self._model_type(element, "output element", rule.name)
                if type_ is None:
                    continue
                outputs.append(
                    CalledRuleOutput(
                        variable=element.name,
                        target_class=type_.simple_name,
                        target_metamodel=type_.metamodel,
                        target_features=tuple(sorted({b.property for b in element.bindings})),
                    )
                )
            result.append(
                CalledRule(
                    name=rule.name,
                    parameters=tuple((p.name, to_atl(p.type)) for p in rule.parameters),
                    outputs=tuple(outputs),
                    entrypoint=rule.entrypoint,
                    endpoint=rule.endpoint,
                )
            )
        return tuple(result)


def _annotations(unit: ast.Unit) -> tuple[Annotation, ...]:
    annotations: list[Annotation] = []
    for annotation in unit.annotations:
        key, separator, value = annotation.value.partition("=")
        if separator:
            annotations.append(Annotation(annotation.tag, key, value, annotation.line))
        else:
            annotations.append(Annotation(annotation.tag, None, annotation.value, annotation.line))
    return tuple(annotations)


def _transformation(unit: ast.Unit, file: str) -> TransformationInfo:
    if isinstance(unit, ast.Module):
        return TransformationInfo(
            name=unit.name,
            file=file,
            unit="module",
            in_models=tuple(ModelDecl(m.name, m.metamodel) for m in unit.in_models),
            out_models=tuple(ModelDecl(m.name, m.metamodel) for m in unit.out_models),
            refining=unit.refining,
            annotations=_annotations(unit),
        )
    return TransformationInfo(
        name=unit.name,
        file=file,
        unit=type(unit).__name__.lower(),
        annotations=_annotations(unit),
    )


#: Python frames the path analysis may need: it recurses once or twice per nesting level of an expression,
#: and the parser accepts expressions nested thousands deep (a generated chain of 20,000 ``+``). Since
#: Python 3.11, Python-to-Python calls do not consume the C stack, so a high limit is safe.
_RECURSION_LIMIT = 200_000


@contextmanager
def _deep_recursion() -> Iterator[None]:
    previous = sys.getrecursionlimit()
    if previous < _RECURSION_LIMIT:
        sys.setrecursionlimit(_RECURSION_LIMIT)
    try:
        yield
    finally:
        if previous < _RECURSION_LIMIT:
            sys.setrecursionlimit(previous)


def extract(unit: ast.Unit, *, file: str) -> InterchangeDocument:
    """The ground truth of a parsed unit (semantics: docs/INTERCHANGE_FORMAT.md). ``file`` is recorded
    as given in ``transformation.file``. A query or library yields a document without class pairs."""
    sink = DiagnosticSink()
    with _deep_recursion():
        assembler = _Assembler(unit, sink)
        try:
            assembler.matched_rules()
        except RecursionError:
            raise ExtractionError(
                f"an expression is nested too deeply to analyse (more than about {_RECURSION_LIMIT // 2} "
                "levels)",
                file=file,
            ) from None
    class_matches = assembler.class_matches()
    called = assembler.called_rules()
    check_unit(unit, assembler.table, assembler.effective, sink)
    return InterchangeDocument(
        transformation=_transformation(unit, file),
        class_matches=class_matches,
        called_rules=called,
        diagnostics=tuple(sorted(sink.items)),
    )
