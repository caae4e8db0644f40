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
from pyecore.ecore import EAttribute, EBoolean, EClass, EDataType, EEnum, EInt, EPackage, EReference, EString

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


# ----------------------------------------------------------------- names as users' metamodels hold them
# The pools above keep the round-trip laws free of clashes. Code that takes a metamodel from a user (the
# mapping track's task variants) must instead survive every name Ecore lets a file hold: real metamodels
# have enumeration literals such as ``ost_Windows 3.1`` (a space and a dot), digits first, accents,
# keywords of ATL, OCL and KM3, and names equal to what a renaming itself makes up.

#: words of the synonym table, so the synonym path of a renaming is taken as on real metamodels
TABLE_WORDS = ("Book", "title", "author", "Person", "name", "Course", "Element", "attribute", "children")
#: keywords of ATL (``from``, ``rule``, ``Collection``...), OCL/USE (``context``, ``inv``...) and KM3
KEYWORDS = (
    "from", "to", "rule", "helper", "module", "Integer", "String", "Set", "Collection", "not", "if",
    "endif", "in", "self", "context", "inv", "OclAny", "size", "class", "package", "attribute",
    "reference", "literal", "extends", "oppositeOf", "abstract", "datatype", "enumeration",
)  # fmt: skip
#: names a renaming makes up (opaque ids, qualified and numbered fallbacks): a metamodel may hold them
#: already, and a new name must then be another
MADE_UP = (
    "C01", "C02", "a01", "r01", "f01", "v01", "P01", "E01", "RegisteredBook", "RecordedBook", "Book2",
    "recordedTitle", "linkedChildren", "BookModel", "TitleKind", "ost_Windows_3_1Value", "ost_Windows_3_1",
)  # fmt: skip
#: the shapes real metamodels hold that are not identifiers (the Bugzilla metamodel's operating systems,
#: the Mantis relation kinds), and other ones a file may hold
ODD_SHAPES = (
    "ost_Windows 3.1", "ost_Mac OS X 10.0", "ost_OS/2", "ost_HP-UX", "rt_child of", "3DModel", "1st",
    "Größe", "Ñandú", "café", "Ωmega", "名前", "x.y", "a b", " lead", "$x", "__init__", "_", "C++",
    "a::b", "Hello!", "é",
)  # fmt: skip
_NAME_CHARACTERS = "abcXYZ019 ._-/éßø名Ω$"


def user_names() -> st.SearchStrategy[str]:
    """Any name an Ecore file can hold (never empty): identifiers, words of the synonym table, keywords,
    names a renaming makes up, the odd shapes of real metamodels, and free text."""
    free = st.text(alphabet=_NAME_CHARACTERS, min_size=1, max_size=10).filter(lambda s: s.strip())
    return st.one_of(
        st.sampled_from(TABLE_WORDS),
        st.sampled_from(KEYWORDS),
        st.sampled_from(MADE_UP),
        st.sampled_from(ODD_SHAPES),
        st.sampled_from(CLASS_NAMES + FEATURE_NAMES),
        free,
    )


def _literal_name(name: str) -> bool:
    """pyecore sets each literal as an attribute of its EEnum, so it cannot hold a literal named like one
    of the EEnum's own attributes (``name``): neither can a file it loads."""
    return name not in _EENUM_ATTRIBUTES


_EENUM_ATTRIBUTES = frozenset(dir(EEnum("probe")))


def _unique(draw: st.DrawFn, names: st.SearchStrategy[str], count: int, used: set[str]) -> list[str]:
    """``count`` names none of which is in ``used`` (a name drawn twice is skipped)."""
    found: list[str] = []
    for _ in range(count):
        name = draw(names)
        if name not in used:
            used.add(name)
            found.append(name)
    return found


@st.composite
def named_metamodels(draw: st.DrawFn, names: st.SearchStrategy[str] | None = None, max_classes: int = 5):
    """A pyecore metamodel (its root packages) whose every name is drawn from ``names`` (default
    :func:`user_names`): a root package, now and then a subpackage, classes (the same simple name may be
    in both packages), enumerations with literals, a data type, attributes and references (also
    containment and opposite pairs), supertypes; feature names unique per class, shared across classes."""
    names = names if names is not None else user_names()
    root = EPackage(draw(names), nsURI="http://example.org/generated", nsPrefix="generated")
    packages = [root]
    if draw(st.booleans()):
        sub_name = draw(names.filter(lambda n: n != root.name))
        sub = EPackage(sub_name, nsURI="http://example.org/generated/sub", nsPrefix="sub")
        root.eSubpackages.append(sub)
        packages.append(sub)
    classes: list[EClass] = []
    types: list = [EString, EInt, EBoolean]
    for package in packages:
        used: set[str] = set()
        for name in _unique(draw, names, draw(st.integers(1 if package is root else 0, max_classes)), used):
            eclass = EClass(name, abstract=draw(st.booleans()))
            package.eClassifiers.append(eclass)
            classes.append(eclass)
        for name in _unique(draw, names, draw(st.integers(0, 2)), used):
            literals = _unique(draw, names.filter(_literal_name), draw(st.integers(1, 5)), set())
            enum = EEnum(name, literals=literals)
            package.eClassifiers.append(enum)
            types.append(enum)
        if draw(st.booleans()):
            for name in _unique(draw, names, 1, used):
                datatype = EDataType(name, instanceClassName="java.util.Date")
                package.eClassifiers.append(datatype)
                types.append(datatype)
    for index, eclass in enumerate(classes):
        earlier = [c for c in classes[:index] if c.name != eclass.name]
        for supertype in draw(st.lists(st.sampled_from(earlier), max_size=2, unique=True)) if earlier else []:
            eclass.eSuperTypes.append(supertype)
        used = {f.name for f in eclass.eAllStructuralFeatures()}  # an opposite may be there already
        for name in _unique(draw, names, draw(st.integers(0, 3)), used):
            eclass.eStructuralFeatures.append(
                EAttribute(name, draw(st.sampled_from(types)), upper=draw(st.sampled_from((1, 1, -1))))
            )
        for name in _unique(draw, names, draw(st.integers(0, 2)), used):
            target = draw(st.sampled_from(classes))
            reference = EReference(
                name, target, upper=draw(st.sampled_from((1, -1))), containment=draw(st.booleans())
            )
            eclass.eStructuralFeatures.append(reference)
            target_names = {f.name for f in target.eAllStructuralFeatures()}
            if draw(st.integers(0, 3)) == 0 and target is not eclass:
                opposite_name = draw(names)
                if opposite_name not in target_names:
                    opposite = EReference(opposite_name, eclass, upper=1, eOpposite=reference)
                    target.eStructuralFeatures.append(opposite)
                    reference.eOpposite = opposite
    return (root,)


@st.composite
def named_metamodel_pairs(draw: st.DrawFn, max_classes: int = 5):
    """Two metamodels (as :func:`named_metamodels`) that share names: each name comes from a pool drawn
    once for the pair, or is drawn afresh, so the same name is often in both."""
    pool = draw(st.lists(user_names(), min_size=1, max_size=12, unique=True))
    names = st.one_of(st.sampled_from(pool), user_names())
    return (
        draw(named_metamodels(names, max_classes)),
        draw(named_metamodels(names, max_classes)),
    )
