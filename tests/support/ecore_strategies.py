"""Hypothesis strategies for random, valid Ecore packages (needs the ``dev`` extra: hypothesis).

Used by the commutation-law and round-trip tests. Generated packages have what the bundled domains have
and more: inheritance (also multiple), abstract classes, attributes of every mapped type, enums,
many-valued attributes, references (containment, many-valued, self references), bidirectional pairs
(including container references), and derived/transient features the mapping must skip.

Names come from fixed pools that avoid everything the operators introduce (``Note``, ``archived``,
``related...``, the rename suffixes), so a generated package only clashes with an operator where the
law test expects it to; feature names are unique across the package, which keeps every generated column
and table name distinct.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

from benchmark.tracks.roundtrip.models.ecoremodel import (
    EcoreAttribute,
    EcoreClass,
    EcoreEnum,
    EcoreFeature,
    EcoreLiteral,
    EcorePackage,
    EcoreReference,
)

CLASS_NAMES = (
    "Alpha", "Bravo", "Charlie", "Dune", "Echo", "Foxtrot",
    "Golf", "Hotel", "India", "Juliet", "Kilo", "Lima",
)  # fmt: skip
ENUM_NAMES = ("Colour", "Mood", "Phase")
LITERAL_NAMES = ("LOW", "MEDIUM", "HIGH", "OTHER")
FEATURE_NAMES = (
    "amount", "body", "code", "count", "depth", "extent", "flag", "height", "heading", "length", "level",
    "mark", "size", "span", "start", "stop", "tally", "title", "total", "volume", "width", "zone", "holder",
    "parent", "child", "peer", "source", "goal", "friend", "keeper", "member", "partner", "entry", "link",
    "origin", "next", "prior", "anchor", "branch", "column", "detail", "factor", "grade", "hint", "index",
    "joint", "knot", "limit", "motto", "nickname", "offset", "pitch", "quota", "ratio", "scale", "tempo",
    "unit", "vector", "whole", "yield",
)  # fmt: skip
ATTRIBUTE_TYPES = ("EString", "EInt", "EInteger", "EShort", "ELong", "EBoolean", "EDouble", "EFloat", "EDate")


@dataclass
class _Class:
    name: str
    abstract: bool
    supertypes: list[str]
    features: list[EcoreFeature] = field(default_factory=list)


def _non_persistent_flags(draw: st.DrawFn) -> tuple[bool, bool, bool]:
    """(derived, transient, volatile): mostly plain features; sometimes derived (+transient +volatile, as
    EMF generates them) or transient only."""
    kind = draw(st.sampled_from(("plain",) * 8 + ("derived", "transient")))
    return (kind == "derived", kind != "plain", kind == "derived")


def _fresh(draw: st.DrawFn, pool: tuple[str, ...], used: set[str]) -> str:
    """A name from ``pool`` not used yet: one draw per name (``st.permutations`` of the whole pool would
    cost a draw per pool entry, most of them never used)."""
    name = draw(st.sampled_from([n for n in pool if n not in used]))
    used.add(name)
    return name


@st.composite
def ecore_packages(draw: st.DrawFn, max_classes: int = 6) -> EcorePackage:
    """A valid package the forward mapping accepts (1..max_classes classes)."""
    class_count = draw(st.integers(1, max_classes))
    used_class_names: set[str] = set()
    class_names = [_fresh(draw, CLASS_NAMES, used_class_names) for _ in range(class_count)]
    enum_names = ENUM_NAMES[: draw(st.integers(0, len(ENUM_NAMES)))]
    enums = [
        EcoreEnum(
            name,
            tuple(EcoreLiteral(lit, i) for i, lit in enumerate(LITERAL_NAMES[: draw(st.integers(1, 4))])),
        )
        for name in enum_names
    ]
    used_names: set[str] = set()

    def fresh() -> str:
        return _fresh(draw, FEATURE_NAMES, used_names)

    classes: list[_Class] = []
    for index, name in enumerate(class_names):
        earlier = class_names[:index]
        supertypes = draw(st.lists(st.sampled_from(earlier), max_size=2, unique=True)) if earlier else []
        eclass = _Class(name, draw(st.booleans()), supertypes)
        for _ in range(draw(st.integers(0, 3))):
            upper = draw(st.sampled_from((1, 1, 1, -1)))
            derived, transient, volatile = _non_persistent_flags(draw)
            eclass.features.append(
                EcoreAttribute(
                    fresh(),
                    draw(st.sampled_from(ATTRIBUTE_TYPES + enum_names)),
                    lower=draw(st.sampled_from((0, 0, 1))),
                    upper=upper,
                    is_id=upper == 1 and draw(st.integers(0, 5)) == 0,
                    derived=derived,
                    transient=transient,
                    volatile=volatile,
                )
            )
        for _ in range(draw(st.integers(0, 2))):
            derived, transient, volatile = _non_persistent_flags(draw)
            eclass.features.append(
                EcoreReference(
                    fresh(),
                    draw(st.sampled_from(class_names)),
                    lower=draw(st.sampled_from((0, 0, 1))),
                    upper=draw(st.sampled_from((1, -1))),
                    containment=draw(st.booleans()),
                    derived=derived,
                    transient=transient,
                    volatile=volatile,
                )
            )
        classes.append(eclass)
    by_name = {c.name: c for c in classes}
    for _ in range(draw(st.integers(0, 2))):
        candidates = [
            (c, f)
            for c in classes
            for f in c.features
            if isinstance(f, EcoreReference) and f.opposite is None and f.persistent
        ]
        if not candidates:
            break
        owner, reference = draw(st.sampled_from(candidates))
        target = by_name[reference.type]
        if reference.containment:  # its opposite is the container reference: single-valued
            opposite = EcoreReference(fresh(), owner.name, upper=1, opposite=reference.name)
        else:
            opposite = EcoreReference(
                fresh(), owner.name, upper=draw(st.sampled_from((1, -1))), opposite=reference.name
            )
        position = owner.features.index(reference)
        owner.features[position] = EcoreReference(
            reference.name,
            reference.type,
            reference.lower,
            reference.upper,
            reference.containment,
            opposite=opposite.name,
        )
        target.features.append(opposite)
    classifiers = [
        EcoreClass(c.name, c.abstract, False, tuple(c.supertypes), tuple(c.features)) for c in classes
    ]
    return EcorePackage("generated", "http://example.org/generated", "generated", (*classifiers, *enums))
