"""How a variant's renaming is drawn from a transformation's two metamodels and a seed
(``docs/VARIANTS.md``, "Renaming rules").

* ``synonym``: every package, class, enumeration, attribute, reference and literal name of both
  metamodels is split into words and each word replaced by a synonym from the shared table
  (:mod:`benchmark.lang.words.synonyms`, its ``[metamodels]`` section first), drawn per word and seed, so
  ``Book``/``book``/``books`` and a name shared by both metamodels move together: one map per namespace
  over both metamodels, each side recording its part. A name none of whose words the table knows keeps
  its words and gains a qualifier that says what it is (``Grafcet`` -> ``GrafcetModel``, ``isbn`` ->
  ``recordedIsbn``); such names are listed as fallbacks. A new name is never a name either metamodel
  already has in that namespace, so an answer written for the original cannot mean something else in
  the variant.
* ``opaque``: neutral ids that keep nothing of the word: ``P01`` packages, ``C01`` classes, ``E01``
  enumerations, ``a01``/``r01`` attributes/references (``f01`` for a name used for both), ``v01``
  literals, numbered over both metamodels in a seeded order, each metamodel with its own ids (a name
  shared by both metamodels gets two ids: equal names are a name signal too).
* ``shuffled``: no name changes; the classifiers of every package and the features of every class in a
  seeded order.

Kept, in both renaming variants: data types (types are part of the structure the variants keep) and a
package that holds nothing but data types. A renamed package's ``nsURI`` becomes
``http://atl-binding-bench.org/metamodels/<new package path>`` and its ``nsPrefix`` the new name in lower
case, since both spell the old name.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import count

from benchmark.lang.atl.lexer import KEYWORDS as ATL_KEYWORDS
from benchmark.lang.ecore.view import MetamodelView, PackageView
from benchmark.lang.ecore.write import KM3_KEYWORDS
from benchmark.lang.words.synonyms import IDENTIFIER, candidates, identifier_form, spellings
from benchmark.tracks.mapping.variants.names import NAME_ONLY, OPAQUE, ORIGINAL, SHUFFLED, SYNONYM
from benchmark.tracks.mapping.variants.renaming import (
    NAMESPACES,
    Kept,
    MetamodelRenaming,
    Order,
    Renaming,
    package_paths,
    view_names,
)

SECTION = "metamodels"  # the synonym table's section of metamodel words
NS_URI_BASE = "http://atl-binding-bench.org/metamodels/"
KEPT_DATATYPE = "a data type: types are part of the structure every variant keeps"
KEPT_TYPES_PACKAGE = "a package of data types only: types are part of the structure every variant keeps"
KEPT_SHARED_WITH_DATATYPE = (
    "also the name of a data type of this metamodel: types keep their names, and the features typed by "
    "either would read one new name"
)
#: words a new name may not be: it must be written unquoted in ATL (the ground truth's language) and KM3
#: (what ``atlbench variant export`` writes beside the .ecore)
_RESERVED = frozenset(ATL_KEYWORDS) | KM3_KEYWORDS
#: the synonym table's fallback kind of each kind of name (benchmark.lang.words.synonyms.QUALIFIERS)
_FALLBACK_KIND = {
    "package": "package",
    "class": "class",
    "enumeration": "enumeration",
    "attribute": "attribute",
    "reference": "reference",
    "feature": "attribute",
    "literal": "literal",
}
_OPAQUE_PREFIX = {
    "package": "P",
    "class": "C",
    "enumeration": "E",
    "attribute": "a",
    "reference": "r",
    "feature": "f",
    "literal": "v",
}


def _types_only(package: PackageView, view: MetamodelView) -> bool:
    """Whether a package holds data types and nothing else (KM3's ``PrimitiveTypes``)."""
    datatypes = {d.name for d in view.datatypes if d.package == package.qualified_name}
    return not package.subpackages and bool(package.classifiers) and set(package.classifiers) <= datatypes


def _kept(view: MetamodelView) -> tuple[Kept, ...]:
    """The names a renaming variant leaves as they are, with the reason: data types, packages of data
    types only, and a class or enumeration name that a data type of the metamodel also has (classifiers
    are renamed by simple name, and a data type keeps its name)."""
    kept = [Kept("datatype", d.name, KEPT_DATATYPE) for d in view.datatypes]
    kept += [Kept("package", p.name, KEPT_TYPES_PACKAGE) for p in view.packages if _types_only(p, view)]
    datatypes = {d.name for d in view.datatypes}
    kind = view_names(view)["classifiers"]
    kept += [
        Kept(kind[name], name, KEPT_SHARED_WITH_DATATYPE)
        for name in kind
        if name in datatypes and kind[name] != "datatype"
    ]
    return tuple(dict.fromkeys(kept))


def _to_rename(view: MetamodelView) -> dict[str, dict[str, str]]:
    """The names a renaming variant changes, by namespace, with their kind (what :func:`_kept` keeps
    left out)."""
    names = view_names(view)
    kept = {(k.kind, k.name) for k in _kept(view)}
    return {
        namespace: {
            name: kind
            for name, kind in names[namespace].items()
            if (kind, name) not in kept and kind != "datatype"
        }
        for namespace in NAMESPACES
    }


def _ns(view: MetamodelView, packages: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """(nsURI map, nsPrefix map) of the renamed packages (module docstring)."""
    uris: dict[str, str] = {}
    prefixes: dict[str, str] = {}
    paths = package_paths(view, packages)
    for package in view.packages:
        if package.name not in packages:
            continue
        path = "/".join(paths[package.qualified_name])
        if package.ns_uri is not None:
            uris[package.ns_uri] = NS_URI_BASE + path
        if package.ns_prefix is not None:
            prefixes[package.ns_prefix] = packages[package.name].lower()
    return uris, prefixes


# ------------------------------------------------------------------------------------------ synonym


#: the namespaces whose names share an Ecore file's paths (``#//Name`` is a root package's classifier or
#: its subpackage): a synonym of one is never an old name of the other, nor a new name the other gave
#: another old name, or the variant's file would read back another metamodel (a package and a class
#: that had one name, ``Class``, may have one new name: the original has that path already)
_ONE_PATH = ("packages", "classifiers")


def usable_name(name: str) -> bool:
    """Whether a renaming may give ``name``: an ASCII identifier that is no keyword of ATL or KM3, so that
    it is written unquoted wherever the variant's names go."""
    return bool(IDENTIFIER.match(name)) and name not in _RESERVED


def _synonyms(
    names: dict[str, str], taken: set[str], seed: int, others: Mapping[str, str]
) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """New names for one namespace over both metamodels: (old -> new, the fallbacks as (kind, name)).
    ``taken`` holds every name of the namespace (the new ones join it), ``others`` the new names of the
    namespace that shares its paths (new -> old, see :data:`_ONE_PATH`): with more numbered candidates
    than both, one is always free (:func:`~benchmark.lang.words.synonyms.candidates`)."""
    renamed: dict[str, str] = {}
    fallbacks: list[tuple[str, str]] = []
    for old in sorted(names):
        kind = _FALLBACK_KIND[names[old]]
        found = candidates(old, kind, seed, SECTION, numbered=len(taken) + len(others) + 1)
        new = next(
            (c for c in found if c not in taken and others.get(c, old) == old and usable_name(c)), None
        )
        if new is None:  # cannot happen: there are more numbered candidates than taken names
            raise AssertionError(f"no new name for {old!r} among its candidates")
        renamed[old] = new
        taken.add(new)
        if new not in spellings(identifier_form(old), seed, SECTION):
            fallbacks.append((names[old], old))
    return renamed, fallbacks


def _synonym(views: tuple[MetamodelView, MetamodelView], seed: int) -> tuple[MetamodelRenaming, ...]:
    per_view = [_to_rename(view) for view in views]
    everything = [view_names(view) for view in views]
    shared: dict[str, dict[str, str]] = {}
    fallbacks: list[tuple[str, str]] = []
    for namespace in NAMESPACES:
        names: dict[str, str] = {}
        for found in per_view:
            for name, kind in found[namespace].items():
                names[name] = kind if names.get(name) in (None, kind) else names[name]
        taken = {name for found in everything for name in found[namespace]}
        others: dict[str, str] = {}
        if namespace in _ONE_PATH:  # see _ONE_PATH
            other = next(n for n in _ONE_PATH if n != namespace)
            taken |= {name for found in everything for name in found[other]}
            others = {new: old for old, new in shared.get(other, {}).items()}
        shared[namespace], found_fallbacks = _synonyms(names, taken, seed, others)
        fallbacks += found_fallbacks
    return tuple(
        _side(view, {n: {k: shared[n][k] for k in per_view[i][n]} for n in NAMESPACES}, fallbacks)
        for i, view in enumerate(views)
    )


def _side(
    view: MetamodelView, maps: dict[str, dict[str, str]], fallbacks: Iterable[tuple[str, str]] = ()
) -> MetamodelRenaming:
    uris, prefixes = _ns(view, maps["packages"])
    mine = {(kind, name) for namespace in NAMESPACES for name, kind in _to_rename(view)[namespace].items()}
    return MetamodelRenaming(
        metamodel=view.name,
        packages=maps["packages"],
        classifiers=maps["classifiers"],
        features=maps["features"],
        literals=maps["literals"],
        ns_uris=uris,
        ns_prefixes=prefixes,
        kept=_kept(view),
        fallbacks=tuple(f for f in dict.fromkeys(fallbacks) if f in mine),
    )


# ------------------------------------------------------------------------------------------- opaque


def _opaque(views: tuple[MetamodelView, MetamodelView], seed: int) -> tuple[MetamodelRenaming, ...]:
    per_view = [_to_rename(view) for view in views]
    taken = {name for view in views for found in view_names(view).values() for name in found}
    counters: dict[str, count[int]] = {}
    sides = []
    for index, (view, found) in enumerate(zip(views, per_view, strict=True)):
        maps: dict[str, dict[str, str]] = {}
        for namespace in NAMESPACES:
            names = sorted(found[namespace])
            random.Random(f"opaque/{seed}/{index}/{namespace}").shuffle(names)
            maps[namespace] = {}
            for name in names:
                prefix = _OPAQUE_PREFIX[found[namespace][name]]
                width = max(2, len(str(sum(len(f[namespace]) for f in per_view))))
                while True:
                    new = f"{prefix}{next(counters.setdefault(prefix, count(1))):0{width}d}"
                    if new not in taken:
                        break
                maps[namespace][name] = new
        sides.append(_side(view, maps))
    return tuple(sides)


# ----------------------------------------------------------------------------------------- shuffled


def _shuffled(views: tuple[MetamodelView, MetamodelView], seed: int) -> tuple[MetamodelRenaming, ...]:
    sides = []
    for index, view in enumerate(views):
        classifiers: dict[str, tuple[str, ...]] = {}
        for package in view.packages:
            order = list(package.classifiers)
            random.Random(f"shuffled/{seed}/{index}/package/{package.qualified_name}").shuffle(order)
            classifiers[package.qualified_name] = tuple(order)
        features: dict[str, tuple[str, ...]] = {}
        # a class is found by its simple name unless another package has a class of that name too
        shared = {name for name, n in Counter(c.name for c in view.classes).items() if n > 1}
        for cls in view.classes:
            names = [f.name for f in cls.features]
            random.Random(f"shuffled/{seed}/{index}/class/{cls.qualified_name}").shuffle(names)
            features[cls.qualified_name if cls.name in shared else cls.name] = tuple(names)
        sides.append(MetamodelRenaming(metamodel=view.name, order=Order(classifiers, features)))
    return tuple(sides)


# ------------------------------------------------------------------------------------------- entry


def draw_renaming(variant: str, source: MetamodelView, target: MetamodelView, seed: int) -> Renaming | None:
    """The renaming of ``variant`` for these metamodels and seed; ``None`` for ``original``. ``name-only``
    shows no metamodel: its renaming has no sides."""
    if variant == ORIGINAL:
        return None
    if variant == NAME_ONLY:
        return Renaming(variant, seed)
    rules = {SYNONYM: _synonym, OPAQUE: _opaque, SHUFFLED: _shuffled}
    side_source, side_target = rules[variant]((source, target), seed)
    return Renaming(variant, seed, side_source, side_target)


__all__ = ["KEPT_DATATYPE", "KEPT_TYPES_PACKAGE", "NS_URI_BASE", "SECTION", "draw_renaming"]
