"""A renaming applied: to a metamodel view (what the prompt shows, what scoring and the baselines read),
to a ground truth (class pairs, target features, source paths segment by segment, called rules, the
metamodel names of the header) and to a suggested mapping (how a law test renames a run).

A name absent from a map is left as it is: a data type, a name the ground truth reads that the metamodel
does not define (there is none in the bundled corpus; it stays as written), a made-up name of a run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from itertools import groupby
from pathlib import PurePosixPath

from benchmark.lang.ecore.view import ClassView, FeatureView, MetamodelView
from benchmark.tracks.mapping.interchange import (
    Annotation,
    CalledRule,
    ClassMatch,
    FeatureMatch,
    InterchangeDocument,
    ModelDecl,
)
from benchmark.tracks.mapping.jjodel import MappingEntry
from benchmark.tracks.mapping.variants.renaming import (
    QUALIFIER,
    MetamodelRenaming,
    Order,
    Renaming,
    package_paths,
)


def _qualified(name: str, renaming: MetamodelRenaming, last: Mapping[str, str]) -> str:
    """``pkg::sub::Name``: the package parts through the package map, the last through ``last``; a name
    that ``last`` renames whole (a simple name, which may itself hold ``::``) is renamed whole."""
    if name in last:
        return last[name]
    parts = name.split(QUALIFIER)
    return QUALIFIER.join(
        [*(renaming.packages.get(p, p) for p in parts[:-1]), last.get(parts[-1], parts[-1])]
    )


# --------------------------------------------------------------------------------------------- views


def _feature(feature: FeatureView, m: MetamodelRenaming) -> FeatureView:
    return replace(
        feature,
        name=m.features.get(feature.name, feature.name),
        owner=m.classifiers.get(feature.owner, feature.owner),
        type_name=_qualified(feature.type_name, m, m.classifiers),
        opposite=m.features.get(feature.opposite, feature.opposite) if feature.opposite else None,
    )


def _ordered(items: tuple[FeatureView, ...], order: tuple[str, ...] | None) -> tuple[FeatureView, ...]:
    if order is None:
        return items
    position = {name: i for i, name in enumerate(order)}
    return tuple(sorted(items, key=lambda f: position.get(f.name, len(position))))


def _reordered_classes(view: MetamodelView, order: Order) -> tuple[ClassView, ...]:
    """Own features in the new order, inherited ones as the supertypes now list them (nearest supertype
    first, as the builder makes them), classes in their packages' new order. A supertype's features are
    found by its name and the features themselves (two packages may each hold a class of that name); a
    supertype not found so (defined in another file) keeps its order."""
    own = {c.qualified_name: _ordered(c.features, order.features_of(c)) for c in view.classes}
    by_features = {(c.name, frozenset(c.features)): own[c.qualified_name] for c in view.classes}
    classes = []
    for cls in view.classes:
        inherited: list[FeatureView] = []
        for owner, group in groupby(cls.all_features[len(cls.features) :], key=lambda f: f.owner):
            listed = tuple(group)
            inherited += by_features.get((owner, frozenset(listed)), listed)
        features = own[cls.qualified_name]
        classes.append(replace(cls, features=features, all_features=features + tuple(inherited)))
    rank = {
        f"{package}{QUALIFIER}{name}": (p, i)
        for p, (package, names) in enumerate(order.classifiers.items())
        for i, name in enumerate(names)
    }
    return tuple(sorted(classes, key=lambda c: rank.get(c.qualified_name, (len(rank), 0))))


def rename_view(view: MetamodelView, m: MetamodelRenaming) -> MetamodelView:
    """The view the variant shows: every name through its map, nsURI and nsPrefix rewritten, and the
    classifiers and features in the variant's order (``shuffled``)."""
    if m.order is not None:
        classifiers = {p.qualified_name: m.order.classifiers.get(p.qualified_name) for p in view.packages}
        view = replace(
            view,
            packages=tuple(
                replace(p, classifiers=classifiers[p.qualified_name] or p.classifiers) for p in view.packages
            ),
            classes=_reordered_classes(view, m.order),
        )
    if m.renamed == 0:
        return view
    packages = m.packages
    # a feature is in its class's features and in every subclass's all_features: renamed once
    renamed_features: dict[int, FeatureView] = {}

    def feature(original: FeatureView) -> FeatureView:
        found = renamed_features.get(id(original))
        if found is None:
            found = renamed_features[id(original)] = _feature(original, m)
        return found

    paths = {old: QUALIFIER.join(new) for old, new in package_paths(view, packages).items()}

    def path(package: str) -> str:
        return paths[package] if package in paths else _qualified(package, m, packages)

    def qualified(package: str, name: str) -> str:
        return f"{path(package)}{QUALIFIER}{name}"

    classes = tuple(
        replace(
            cls,
            name=m.classifiers.get(cls.name, cls.name),
            qualified_name=qualified(cls.package, m.classifiers.get(cls.name, cls.name)),
            package=path(cls.package),
            supertypes=tuple(m.classifiers.get(s, s) for s in cls.supertypes),
            all_supertypes=tuple(m.classifiers.get(s, s) for s in cls.all_supertypes),
            features=tuple(feature(f) for f in cls.features),
            all_features=tuple(feature(f) for f in cls.all_features),
        )
        for cls in view.classes
    )
    return MetamodelView(
        name=m.metamodel_name(view.name),
        file=view.file,
        packages=tuple(
            replace(
                p,
                name=packages.get(p.name, p.name),
                qualified_name=path(p.qualified_name),
                ns_uri=m.ns_uris.get(p.ns_uri, p.ns_uri) if p.ns_uri else p.ns_uri,
                ns_prefix=m.ns_prefixes.get(p.ns_prefix, p.ns_prefix) if p.ns_prefix else p.ns_prefix,
                classifiers=tuple(m.classifiers.get(c, c) for c in p.classifiers),
                subpackages=tuple(packages.get(s, s) for s in p.subpackages),
            )
            for p in view.packages
        ),
        classes=classes,
        enums=tuple(
            replace(
                e,
                name=m.classifiers.get(e.name, e.name),
                qualified_name=qualified(e.package, m.classifiers.get(e.name, e.name)),
                package=path(e.package),
                literals=tuple(m.literals.get(literal, literal) for literal in e.literals),
            )
            for e in view.enums
        ),
        datatypes=tuple(
            replace(
                d,
                qualified_name=qualified(d.package, d.name),
                package=path(d.package),
            )
            for d in view.datatypes
        ),
    )


# ------------------------------------------------------------------------------------- ground truth


def _feature_match(match: FeatureMatch, source: MetamodelRenaming, target: MetamodelRenaming) -> FeatureMatch:
    return replace(
        match,
        target_feature=target.features.get(match.target_feature, match.target_feature),
        source_paths=tuple(source.feature_path(p) for p in match.source_paths),
        source_features=tuple(source.features.get(f, f) for f in match.source_features),
    )


def _class_match(match: ClassMatch, source: MetamodelRenaming, target: MetamodelRenaming) -> ClassMatch:
    return replace(
        match,
        source_class=source.classifiers.get(match.source_class, match.source_class),
        target_class=target.classifiers.get(match.target_class, match.target_class),
        source_metamodel=source.metamodel_name(match.source_metamodel),
        target_metamodel=target.metamodel_name(match.target_metamodel),
        feature_matches=tuple(_feature_match(f, source, target) for f in match.feature_matches),
        source_qualified=tuple(rename_class_name(q, source) for q in match.source_qualified),
        target_qualified=tuple(rename_class_name(q, target) for q in match.target_qualified),
    )


def _called_rule(rule: CalledRule, source: MetamodelRenaming, target: MetamodelRenaming) -> CalledRule:
    def parameter_type(text: str) -> str:
        if text in source.classifiers:
            return source.classifiers[text]
        metamodel, bang, name = text.rpartition("!")
        if not bang:
            return source.classifiers.get(text, text)
        return f"{source.metamodel_name(metamodel)}!{source.classifiers.get(name, name)}"

    return replace(
        rule,
        parameters=tuple((name, parameter_type(kind)) for name, kind in rule.parameters),
        outputs=tuple(
            replace(
                output,
                target_class=target.classifiers.get(output.target_class, output.target_class),
                target_metamodel=target.metamodel_name(output.target_metamodel),
                target_features=tuple(target.features.get(f, f) for f in output.target_features),
            )
            for output in rule.outputs
        ),
    )


def _annotation(annotation: Annotation, metamodels: Mapping[str, str]) -> Annotation:
    """``-- @path Book=/t/Book.ecore`` -> ``-- @path Volume=/t/Volume.ecore`` (the exported file names)."""
    if annotation.tag != "path" or annotation.key not in metamodels:
        return annotation
    path = PurePosixPath(annotation.value)
    value = annotation.value
    if path.stem == annotation.key:
        value = str(path.with_name(metamodels[annotation.key] + path.suffix))
    return replace(annotation, key=metamodels[annotation.key], value=value)


def rename_document(document: InterchangeDocument, renaming: Renaming) -> InterchangeDocument:
    """The ground truth in the variant's names (unchanged for a variant that renames nothing)."""
    source, target = renaming.source, renaming.target
    if source is None or target is None or source.renamed + target.renamed == 0:
        return document
    info = document.transformation
    metamodels = {
        **{m.metamodel: source.metamodel_name(m.metamodel) for m in info.in_models},
        **{m.metamodel: target.metamodel_name(m.metamodel) for m in info.out_models},
    }
    return replace(
        document,
        transformation=replace(
            info,
            in_models=tuple(ModelDecl(m.name, metamodels[m.metamodel]) for m in info.in_models),
            out_models=tuple(ModelDecl(m.name, metamodels[m.metamodel]) for m in info.out_models),
            annotations=tuple(_annotation(a, metamodels) for a in info.annotations),
        ),
        class_matches=tuple(_class_match(m, source, target) for m in document.class_matches),
        called_rules=tuple(_called_rule(r, source, target) for r in document.called_rules),
    )


# ----------------------------------------------------------------------------------------- mappings


def rename_class_name(name: str, m: MetamodelRenaming) -> str:
    """A class as a run may name it: simple (renamed whole, whatever it holds), ``MM!Class`` or
    ``pkg::Class``."""
    if name in m.classifiers:
        return m.classifiers[name]
    metamodel, bang, simple = name.rpartition("!")
    if bang:
        return f"{m.metamodel_name(metamodel)}!{m.classifiers.get(simple, simple)}"
    return _qualified(name, m, m.classifiers)


def rename_entry(entry: MappingEntry, renaming: Renaming) -> MappingEntry:
    """A suggested mapping in the variant's names (a source feature may be a dotted path)."""
    source, target = renaming.source, renaming.target
    if source is None or target is None:
        return entry
    return replace(
        entry,
        source_class=rename_class_name(entry.source_class, source),
        target_class=rename_class_name(entry.target_class, target),
        source_feature=source.feature_path(entry.source_feature)
        if entry.source_feature
        else entry.source_feature,
        target_feature=target.features.get(entry.target_feature, entry.target_feature)
        if entry.target_feature
        else entry.target_feature,
    )


def renamed_views(
    renaming: Renaming | None, source: MetamodelView | None, target: MetamodelView | None
) -> tuple[MetamodelView | None, MetamodelView | None]:
    """(source, target) views as the variant shows them (as they are for ``original`` and ``name-only``)."""
    if renaming is None or renaming.source is None or renaming.target is None:
        return source, target
    return (
        rename_view(source, renaming.source) if source is not None else None,
        rename_view(target, renaming.target) if target is not None else None,
    )


__all__ = ["rename_class_name", "rename_document", "rename_entry", "rename_view", "renamed_views"]
