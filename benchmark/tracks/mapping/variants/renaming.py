"""A variant's renaming as a value: a map per metamodel, recorded in every run file of the variant and in
every row scored from one, so that the same run is scored against the same renamed ground truth whatever
the synonym table says by then, and a reader sees exactly which name became which.

A :class:`MetamodelRenaming` holds one side's maps, by namespace (packages, classifiers -- classes and
enumerations --, features -- attributes and references, by name over the whole metamodel --, enumeration
literals, and the packages' nsURI and nsPrefix), the names it keeps with the reason, the names it renamed
by the fallback rule because the synonym table knows none of their words, and, for ``shuffled``, the new
order of classifiers and features. A :class:`Renaming` is both sides with the variant and its seed; its
:meth:`~Renaming.inverse` undoes it. :func:`renaming_problems` says what makes a recorded renaming unusable
for a pair of metamodels (a name it does not rename nor keep, two names renamed alike).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from benchmark.core.errors import InputFormatError
from benchmark.lang.ecore.view import ClassView, MetamodelView
from benchmark.tracks.mapping.variants.names import NAME_ONLY, ORIGINAL, VARIANTS

NAMESPACES = ("packages", "classifiers", "features", "literals")
QUALIFIER = "::"
SIDES = ("source", "target")


@dataclass(frozen=True)
class Kept:
    """A name the variant leaves as it is, and why (a data type: types are part of the structure)."""

    kind: str
    name: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "name": self.name, "reason": self.reason}


@dataclass(frozen=True)
class Order:
    """``shuffled``'s new order: the classifiers of each package (by qualified package name) and the own
    features of each class (by class name; by qualified name when another package has a class of that
    name too, since their features differ)."""

    classifiers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    features: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def features_of(self, cls: ClassView) -> tuple[str, ...] | None:
        """The new order of a class's own features (``None``: the order it has)."""
        found = self.features.get(cls.qualified_name)
        return found if found is not None else self.features.get(cls.name)

    def to_json(self) -> dict[str, Any]:
        return {
            "classifiers": {k: list(v) for k, v in self.classifiers.items()},
            "features": {k: list(v) for k, v in self.features.items()},
        }


@dataclass(frozen=True)
class MetamodelRenaming:
    """One metamodel's renaming (module docstring). Names absent from a map are unchanged."""

    metamodel: str
    packages: Mapping[str, str] = field(default_factory=dict)
    classifiers: Mapping[str, str] = field(default_factory=dict)
    features: Mapping[str, str] = field(default_factory=dict)
    literals: Mapping[str, str] = field(default_factory=dict)
    ns_uris: Mapping[str, str] = field(default_factory=dict)
    ns_prefixes: Mapping[str, str] = field(default_factory=dict)
    kept: tuple[Kept, ...] = ()
    fallbacks: tuple[tuple[str, str], ...] = ()  # (kind, name): no synonym known, renamed by the rule
    order: Order | None = None

    def namespace(self, name: str) -> Mapping[str, str]:
        return {
            "packages": self.packages,
            "classifiers": self.classifiers,
            "features": self.features,
            "literals": self.literals,
        }[name]

    @property
    def renamed(self) -> int:
        """How many names the renaming changes."""
        return sum(len(self.namespace(n)) for n in NAMESPACES)

    def metamodel_name(self, name: str) -> str:
        """A metamodel's name as the variant shows it: its main package's new name (each part of a
        merged ``A+B``; a package whose own name holds ``+`` is renamed whole)."""
        if name in self.packages:
            return self.packages[name]
        return "+".join(self.packages.get(part, part) for part in name.split("+"))

    def feature_path(self, path: str) -> str:
        """A dotted feature path renamed segment by segment (``chapters.nbPages``); a feature whose own
        name holds a dot (``title 1.1``) is renamed whole."""
        if path in self.features:
            return self.features[path]
        return ".".join(self.features.get(segment, segment) for segment in path.split("."))

    def inverse(self) -> MetamodelRenaming:
        def flipped(mapping: Mapping[str, str]) -> dict[str, str]:
            return {new: old for old, new in mapping.items()}

        return MetamodelRenaming(
            metamodel=self.metamodel_name(self.metamodel),
            packages=flipped(self.packages),
            classifiers=flipped(self.classifiers),
            features=flipped(self.features),
            literals=flipped(self.literals),
            ns_uris=flipped(self.ns_uris),
            ns_prefixes=flipped(self.ns_prefixes),
            kept=self.kept,
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"metamodel": self.metamodel}
        for name in NAMESPACES:
            data[name] = dict(self.namespace(name))
        data["nsURIs"] = dict(self.ns_uris)
        data["nsPrefixes"] = dict(self.ns_prefixes)
        data["kept"] = [k.to_json() for k in self.kept]
        data["fallbacks"] = [{"kind": kind, "name": name} for kind, name in self.fallbacks]
        if self.order is not None:
            data["order"] = self.order.to_json()
        return data

    @classmethod
    def from_json(cls, data: Any, *, source: Any = None, field_path: str = "$") -> MetamodelRenaming:
        """Read a recorded renaming; an :class:`InputFormatError` names the file and the JSON path."""

        def fail(message: str, where: str) -> InputFormatError:
            return InputFormatError(message, file=source, field=f"{field_path}{where}")

        if not isinstance(data, dict) or not isinstance(data.get("metamodel"), str):
            raise fail("a metamodel's renaming must be an object naming its metamodel", ".metamodel")

        def mapping(key: str) -> dict[str, str]:
            value = data.get(key, {})
            if not isinstance(value, dict) or not all(
                isinstance(k, str) and isinstance(v, str) and v for k, v in value.items()
            ):
                raise fail("must map names to non-empty new names", f".{key}")
            return dict(value)

        kept_data = data.get("kept", [])
        fallbacks_data = data.get("fallbacks", [])
        try:
            kept = tuple(Kept(str(k["kind"]), str(k["name"]), str(k["reason"])) for k in kept_data)
            fallbacks = tuple((str(f["kind"]), str(f["name"])) for f in fallbacks_data)
        except (KeyError, TypeError) as error:
            raise fail(f"kept and fallbacks list objects with kind and name ({error})", ".kept") from None
        order = None
        if "order" in data:
            raw = data["order"]
            try:
                order = Order(
                    {str(k): tuple(map(str, v)) for k, v in raw.get("classifiers", {}).items()},
                    {str(k): tuple(map(str, v)) for k, v in raw.get("features", {}).items()},
                )
            except (AttributeError, TypeError) as error:
                raise fail(f"must list names per package and per class ({error})", ".order") from None
        return cls(
            metamodel=data["metamodel"],
            packages=mapping("packages"),
            classifiers=mapping("classifiers"),
            features=mapping("features"),
            literals=mapping("literals"),
            ns_uris=mapping("nsURIs"),
            ns_prefixes=mapping("nsPrefixes"),
            kept=kept,
            fallbacks=fallbacks,
            order=order,
        )


@dataclass(frozen=True)
class Renaming:
    """A variant of one transformation: its name, the seed it was drawn with, and each side's renaming
    (``None`` sides for ``name-only``, whose prompt shows no metamodel)."""

    variant: str
    seed: int
    source: MetamodelRenaming | None = None
    target: MetamodelRenaming | None = None

    @property
    def shows_metamodels(self) -> bool:
        return self.variant != NAME_ONLY

    def side(self, role: str) -> MetamodelRenaming | None:
        return self.source if role == "source" else self.target

    def inverse(self) -> Renaming:
        """The renaming that undoes this one (an order is not undone: ``shuffled`` renames nothing)."""
        return Renaming(
            self.variant,
            self.seed,
            self.source.inverse() if self.source else None,
            self.target.inverse() if self.target else None,
        )

    def to_json(self) -> dict[str, Any]:
        """The ``variant`` block of a run file (and of a row's payload)."""
        data: dict[str, Any] = {"name": self.variant, "seed": self.seed}
        for role in SIDES:
            side = self.side(role)
            if side is not None:
                data[role] = side.to_json()
        return data

    @classmethod
    def from_json(cls, data: Any, *, source: Any = None, field_path: str = "$.variant") -> Renaming:
        if not isinstance(data, dict) or data.get("name") not in VARIANTS:
            raise InputFormatError(
                f"the variant block must name one of {', '.join(VARIANTS)}",
                file=source,
                field=f"{field_path}.name",
            )
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InputFormatError(
                "the variant's seed must be a whole number", file=source, field=f"{field_path}.seed"
            )
        sides = {
            role: MetamodelRenaming.from_json(data[role], source=source, field_path=f"{field_path}.{role}")
            for role in SIDES
            if role in data
        }
        return cls(data["name"], seed, sides.get("source"), sides.get("target"))


# ------------------------------------------------------------------------------------------- checks


def view_names(view: MetamodelView) -> dict[str, dict[str, str]]:
    """Every name a metamodel defines, by namespace, with its kind: packages, classifiers (classes,
    enumerations and data types), features (attributes and references) and enumeration literals."""
    names: dict[str, dict[str, str]] = {n: {} for n in NAMESPACES}
    for package in view.packages:
        names["packages"].setdefault(package.name, "package")
    for cls in view.classes:
        names["classifiers"].setdefault(cls.name, "class")
        for feature in cls.features:
            kind = names["features"].get(feature.name)
            names["features"][feature.name] = feature.kind if kind in (None, feature.kind) else "feature"
    for enum in view.enums:
        names["classifiers"].setdefault(enum.name, "enumeration")
        for literal in enum.literals:
            names["literals"].setdefault(literal, "literal")
    for datatype in view.datatypes:
        names["classifiers"].setdefault(datatype.name, "datatype")
    return names


def package_paths(view: MetamodelView, packages: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """Each package's qualified name -> the names of its path, renamed through ``packages``. Built from
    the packages' own names, parents first, not by splitting the qualified name at ``::``: a name may
    hold ``::`` itself."""
    paths: dict[str, tuple[str, ...]] = {}
    for package in view.packages:
        new = packages.get(package.name, package.name)
        if package.qualified_name == package.name:
            paths[package.qualified_name] = (new,)
            continue
        parent = package.qualified_name[: -len(package.name) - len(QUALIFIER)]
        paths[package.qualified_name] = (*paths.get(parent, (parent,)), new)
    return paths


def renaming_problems(renaming: MetamodelRenaming, view: MetamodelView, role: str) -> list[str]:
    """What makes ``renaming`` unusable for ``view`` (empty when it is usable): a name of the metamodel
    neither renamed nor kept, a renamed name the metamodel does not define, two names of one namespace
    renamed to the same new name, or a new name that is another name of the metamodel left unchanged.
    An order (``shuffled``) must list exactly the classifiers of each package and the features of each
    class."""
    problems: list[str] = []
    names = view_names(view)
    kept = {k.name for k in renaming.kept}
    renames_something = renaming.renamed > 0
    for namespace in NAMESPACES:
        mapping = renaming.namespace(namespace)
        defined = names[namespace]
        for old in mapping:
            if old not in defined:
                problems.append(
                    f"{role} {namespace}: {old!r} is renamed but {view.name} defines no such name"
                )
        if renames_something:
            for old, kind in defined.items():
                if old not in mapping and old not in kept:
                    problems.append(f"{role} {kind} {old!r} is neither renamed nor kept")
        seen: dict[str, str] = {}
        for old, new in mapping.items():
            if new in seen:
                problems.append(f"{role} {namespace}: {seen[new]!r} and {old!r} are both renamed {new!r}")
            seen[new] = old
            if new in defined and new not in mapping:
                problems.append(f"{role} {namespace}: {old!r} is renamed {new!r}, a name {view.name} keeps")
    if renaming.order is not None:
        for package in view.packages:
            listed = renaming.order.classifiers.get(package.qualified_name)
            if listed is not None and sorted(listed) != sorted(package.classifiers):
                problems.append(
                    f"{role} order of package {package.qualified_name} does not list its classifiers"
                )
        for cls in view.classes:
            listed = renaming.order.features_of(cls)
            if listed is not None and sorted(listed) != sorted(f.name for f in cls.features):
                problems.append(f"{role} order of class {cls.name} does not list its features")
    return problems


def read_recorded(
    block: Any, source: MetamodelView | None, target: MetamodelView | None, *, file: Any = None
) -> Renaming | None:
    """The renaming a run file's ``variant`` block records, checked against the transformation's
    metamodels (a metamodel that was not found is not checked); ``None`` for the original task.
    Raises :class:`InputFormatError` naming the file and the field when the block cannot be read or does
    not fit the metamodels (they changed since the run was generated, or the block was edited)."""
    if block is None:
        return None
    renaming = Renaming.from_json(block, source=file)
    if renaming.variant == ORIGINAL:
        return None
    problems: list[str] = []
    for role, view in (("source", source), ("target", target)):
        side = renaming.side(role)
        if side is None and renaming.shows_metamodels:
            problems.append(f"no renaming of the {role} metamodel is recorded")
        elif side is not None and view is not None:
            problems += renaming_problems(side, view, role)
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise InputFormatError(
            f"the {renaming.variant} variant's renaming does not fit the transformation's metamodels: "
            + "; ".join(problems[:3])
            + more,
            file=file,
            field="$.variant",
        )
    return renaming


__all__ = [
    "NAMESPACES",
    "SIDES",
    "Kept",
    "MetamodelRenaming",
    "Order",
    "Renaming",
    "read_recorded",
    "package_paths",
    "renaming_problems",
    "view_names",
]
