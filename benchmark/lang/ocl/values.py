"""Runtime values of the evaluator and how USE compares, orders and prints them.

Representation (chosen for speed: evaluation runs over many states and invariants):

* undefined is ``None`` -- USE has a single undefined value (no null/invalid split);
* Integer is ``int`` (kept in Java's 32-bit range by the arithmetic), Real is ``float``, String is ``str``;
* Boolean is one of the singletons :data:`TRUE` / :data:`FALSE` -- not Python ``bool``, because ``True == 1``
  in Python would make ``Set{1, true}`` collapse and ``1 = true`` hold, which USE does not do;
* enumeration literals are :class:`~benchmark.lang.ocl.types.EnumValue` objects, made once by their
  :class:`~benchmark.lang.ocl.types.EnumType` (identity is equality); model objects are
  :class:`~benchmark.lang.ocl.state.Obj` (identity semantics);
* :class:`OclSet`, :class:`OclBag`, :class:`OclSequence`, :class:`OclOrderedSet`, :class:`OclTuple`.

Equality follows Java's ``equals`` of USE's value classes: Real = Real is fuzzy (absolute tolerance 1e-8,
USE's ``FloatUtil``), Integer = Real is exact, sets and bags compare through hashing (so their Real
elements compare exactly, as in Java's ``HashSet``), sequences element by element with ``equals``.
Printing follows ``Value.toString``: sets and bags are printed sorted by USE's ``compareTo``, reals like
Java's ``Double.toString``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator
from decimal import Decimal
from functools import cmp_to_key
from typing import Any

from benchmark.lang.ocl.hashorder import double_hash, hash_order, int32, string_hash
from benchmark.lang.ocl.types import (
    BOOLEAN,
    INTEGER,
    OCL_VOID,
    REAL,
    STRING,
    Classifier,
    CollectionType,
    EnumValue,
    TupleType,
    Type,
    unique_lcs,
)

INT_MIN = -(2**31)
INT_MAX = 2**31 - 1
REAL_TOLERANCE = 1e-8


def wrap_int(n: int) -> int:
    """Java ``int`` overflow: USE's Integer arithmetic wraps around at 32 bits."""
    if INT_MIN <= n <= INT_MAX:
        return n
    return ((n - INT_MIN) % 2**32) + INT_MIN


class OclBoolean:
    """An OCL Boolean. Two instances exist; compare with ``is``."""

    __slots__ = ("value",)

    def __init__(self, value: bool) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "true" if self.value else "false"

    def __bool__(self) -> bool:
        raise TypeError("OCL Booleans are three-valued; compare with `is TRUE`")

    def __reduce__(self) -> tuple[Any, tuple[bool]]:
        return ocl_bool, (self.value,)  # a pickled state's Booleans are the two instances again


TRUE = OclBoolean(True)
FALSE = OclBoolean(False)


def ocl_bool(flag: bool) -> OclBoolean:
    return TRUE if flag else FALSE


class Obj:
    """A model object of an object state: identity semantics, attribute values by name.

    ``link`` is set for the link object of an association class.
    """

    __slots__ = ("name", "cls", "values", "link", "__weakref__")

    def __init__(self, name: str, cls: Classifier) -> None:
        self.name = name
        self.cls = cls
        self.values: dict[str, Any] = {}
        self.link: Any = None

    def __repr__(self) -> str:
        return f"@{self.name}"


class OclCollection:
    """Common base of the four collection kinds."""

    __slots__ = ()
    kind = "Collection"

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError

    def __contains__(self, item: object) -> bool:
        raise NotImplementedError

    def count(self, item: object) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return to_use_string(self)


class OclSet(OclCollection):
    """A set; iterated in USE's ``HashSet`` order (:mod:`~benchmark.lang.ocl.hashorder`): by hash bucket,
    and within a bucket in the order the elements were added."""

    __slots__ = ("_items", "_hash", "_order", "known")
    kind = "Set"

    def __init__(self, items: Iterable[Any] = (), *, known: bool = False) -> None:
        self._items: dict[Any, None] = dict.fromkeys(items)
        self._hash: int | None = None
        self._order: tuple[tuple[Any, ...], tuple[int, ...]] | None = None
        #: the elements were added in the order USE adds them, so elements sharing a bucket are in USE's
        #: order too (``allInstances``, literals, and what ``select``/``reject`` keep of those)
        self.known = known

    @classmethod
    def _of_dict(cls, items: dict[Any, None], *, known: bool = False) -> OclSet:
        s = cls.__new__(cls)
        s._items = items
        s._hash = None
        s._order = None
        s.known = known
        return s

    def hash_order(self) -> tuple[tuple[Any, ...], tuple[int, ...]]:
        """The elements in USE's iteration order, and each one's hash bucket."""
        if self._order is None:
            self._order = hash_order(self._items, java_hash)
        return self._order

    def __iter__(self) -> Iterator[Any]:
        return iter(self.hash_order()[0])

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def count(self, item: object) -> int:
        return 1 if item in self._items else 0

    def __eq__(self, other: object) -> bool:
        return type(other) is OclSet and self._items.keys() == other._items.keys()  # type: ignore[union-attr]

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._items))
        return self._hash


class OclBag(OclCollection):
    """A bag; keeps insertion order for iteration and a counter for membership and equality."""

    __slots__ = ("_items", "_counts", "_hash", "_order", "known")
    kind = "Bag"

    def __init__(self, items: Iterable[Any] = (), *, known: bool = False) -> None:
        self._items: tuple[Any, ...] = tuple(items)
        self._counts: Counter[Any] | None = None
        self._hash: int | None = None
        self._order: tuple[tuple[Any, ...], tuple[int, ...]] | None = None
        self.known = known  # as OclSet.known

    @property
    def counts(self) -> Counter[Any]:
        if self._counts is None:
            self._counts = Counter(self._items)
        return self._counts

    def hash_order(self) -> tuple[tuple[Any, ...], tuple[int, ...]]:
        """The elements in USE's ``HashBag`` order (its distinct elements in ``HashMap`` order, each
        repeated as often as it occurs), and each one's hash bucket."""
        if self._order is None:
            distinct, buckets = hash_order(self.counts, java_hash)
            counts = self.counts
            self._order = (
                tuple(x for x in distinct for _ in range(counts[x])),
                tuple(b for x, b in zip(distinct, buckets, strict=True) for _ in range(counts[x])),
            )
        return self._order

    def __iter__(self) -> Iterator[Any]:
        return iter(self.hash_order()[0])

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, item: object) -> bool:
        return item in self.counts

    def count(self, item: object) -> int:
        return self.counts.get(item, 0)

    def __eq__(self, other: object) -> bool:
        return type(other) is OclBag and self.counts == other.counts  # type: ignore[union-attr]

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self.counts.items()))
        return self._hash


class OclSequence(OclCollection):
    """A sequence (a tuple of elements)."""

    __slots__ = ("items", "_hash")
    kind = "Sequence"

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self.items: tuple[Any, ...] = tuple(items)
        self._hash: int | None = None

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, item: object) -> bool:
        return any(java_equals(item, x) for x in self.items)

    def count(self, item: object) -> int:
        return sum(1 for x in self.items if java_equals(item, x))

    def index(self, item: object) -> int:
        for i, x in enumerate(self.items):
            if java_equals(item, x):
                return i
        return -1

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return False
        a, b = self.items, other.items  # type: ignore[attr-defined]
        return len(a) == len(b) and all(java_equals(x, y) for x, y in zip(a, b, strict=True))

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((type(self).__name__, self.items))
        return self._hash


class OclOrderedSet(OclSequence):
    """An ordered set: a sequence whose construction drops repeated elements."""

    __slots__ = ()
    kind = "OrderedSet"

    def __init__(self, items: Iterable[Any] = ()) -> None:
        items = tuple(items)
        if not any(type(x) in _FUZZY_TYPES for x in items):
            super().__init__(dict.fromkeys(items))  # hashing agrees with equals here
            return
        unique: list[Any] = []
        for x in items:
            if not any(java_equals(x, y) for y in unique):
                unique.append(x)
        super().__init__(unique)

    @classmethod
    def unchecked(cls, items: tuple[Any, ...]) -> OclOrderedSet:
        """Build from elements already known to be distinct (navigation results)."""
        s = cls.__new__(cls)
        s.items = items
        s._hash = None
        return s


COLLECTION_CLASSES: dict[str, type[OclCollection]] = {
    "Set": OclSet,
    "Bag": OclBag,
    "Sequence": OclSequence,
    "OrderedSet": OclOrderedSet,
}


def make_collection(kind: str, items: Iterable[Any]) -> OclCollection:
    return COLLECTION_CLASSES[kind](items)  # type: ignore[call-arg]


class OclTuple:
    """A tuple value; parts keep declaration order (for printing) and compare as a name->value map."""

    __slots__ = ("type", "values", "_hash")

    def __init__(self, tuple_type: TupleType, values: dict[str, Any]) -> None:
        self.type = tuple_type
        self.values = values
        self._hash: int | None = None

    def get(self, name: str) -> Any:
        return self.values.get(name)

    def __eq__(self, other: object) -> bool:
        if type(other) is not OclTuple or self.values.keys() != other.values.keys():
            return False
        return all(java_equals(v, other.values[k]) for k, v in self.values.items())

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self.values.items()))
        return self._hash

    def __repr__(self) -> str:
        return to_use_string(self)


# element types whose equality is not hash-consistent (fuzzy Real comparison inside)
_FUZZY_TYPES = (float, OclSequence, OclOrderedSet, OclTuple)


def java_equals(a: Any, b: Any) -> bool:
    """USE's ``Value.equals``: Real = Real within 1e-8, everything else by value (objects by identity)."""
    if a is b:
        return True
    if type(a) is float and type(b) is float:
        return abs(a - b) <= REAL_TOLERANCE or a == b or (a != a and b != b)
    return bool(a == b)


# -- runtime types ------------------------------------------------------------------------------------
def runtime_type(v: Any) -> Type:
    """The type USE prints after ``:`` -- computed from the value (``Value.getRuntimeType``)."""
    t = type(v)
    if v is None:
        return OCL_VOID
    if t is int:
        return INTEGER
    if t is float:
        return REAL
    if t is str:
        return STRING
    if t is OclBoolean:
        return BOOLEAN
    if t is EnumValue:
        return v.type
    if isinstance(v, OclCollection):
        elem = unique_lcs({OCL_VOID, *(runtime_type(x) for x in v)})
        return CollectionType(v.kind, elem if elem is not None else OCL_VOID)
    if t is OclTuple:
        return v.type
    return v.cls.type  # Obj


# -- ordering (USE's Value.compareTo), used for printing sets/bags and sorting ----------------------
_CLASS_ORDER = {"Set": 1, "Sequence": 2, "Bag": 3, "OrderedSet": 4}


def java_compare(a: Any, b: Any) -> int:
    if a is b:
        return 0
    if a is None:
        return 0 if b is None else -1
    if b is None:
        return 1
    ta, tb = type(a), type(b)
    if ta in (int, float) and tb in (int, float):
        return (a > b) - (a < b)
    if ta is str and tb is str:
        return (a > b) - (a < b)
    if ta is OclBoolean and tb is OclBoolean:
        return int(a.value) - int(b.value)
    if ta is EnumValue and tb is EnumValue:
        return (a.literal > b.literal) - (a.literal < b.literal)
    if isinstance(a, OclCollection) and isinstance(b, OclCollection):
        if a.kind != b.kind:
            return _CLASS_ORDER[a.kind] - _CLASS_ORDER[b.kind]
        if len(a) != len(b):
            return len(a) - len(b)
        for x, y in zip(a, b, strict=True):
            c = java_compare(x, y)
            if c:
                return c
        return 0
    if ta is OclTuple and tb is OclTuple:
        pa = [a.values[k] for k in sorted(a.values)]
        pb = [b.values[k] for k in sorted(b.values)]
        if len(pa) != len(pb):
            return len(pa) - len(pb)
        for x, y in zip(pa, pb, strict=True):
            c = java_compare(x, y)
            if c:
                return c
        return 0
    if ta is Obj and tb is Obj:
        return (a.name > b.name) - (a.name < b.name)
    sa, sb = to_use_string(a), to_use_string(b)
    return (sa > sb) - (sa < sb)


java_sort_key = cmp_to_key(java_compare)


def sorted_elements(items: Iterable[Any]) -> list[Any]:
    """Elements in USE's print order (``Collections.sort`` with ``compareTo``, stable)."""
    items = list(items)
    kinds = {type(x) for x in items}
    if kinds <= {int, float} or kinds == {str}:
        return sorted(items)
    return sorted(items, key=java_sort_key)


# -- printing ---------------------------------------------------------------------------------------
def java_double_to_string(d: float) -> str:
    """Java's ``Double.toString`` (shortest round-trip digits, ``E`` notation outside [1e-3, 1e7))."""
    if d != d:
        return "NaN"
    if d == math.inf:
        return "Infinity"
    if d == -math.inf:
        return "-Infinity"
    if d == 0.0:
        return "-0.0" if math.copysign(1.0, d) < 0 else "0.0"
    text = repr(d)
    magnitude = abs(d)
    if 1e-3 <= magnitude < 1e7:
        if "e" in text or "E" in text:
            text = format(Decimal(text), "f")
        if "." not in text:
            text += ".0"
        return text
    sign, digits, exponent = Decimal(text).normalize().as_tuple()
    assert isinstance(exponent, int)
    mantissa = "".join(map(str, digits))
    exp10 = len(mantissa) - 1 + exponent
    frac = mantissa[1:] or "0"
    return f"{'-' if sign else ''}{mantissa[0]}.{frac}E{exp10}"


def to_use_string(v: Any) -> str:
    """``Value.toString`` of USE (``Set{1,2}``, ``'abc'``, ``Color::red``, ``ada``, ``null``)."""
    t = type(v)
    if v is None:
        return "null"
    if t is int:
        return str(v)
    if t is float:
        return java_double_to_string(v)
    if t is str:
        return "'" + v + "'"
    if t is OclBoolean:
        return "true" if v.value else "false"
    if t is EnumValue:
        return f"{v.type.name}::{v.literal}"
    if isinstance(v, OclCollection):
        elems = sorted_elements(v) if v.kind in ("Set", "Bag") else list(v)
        return v.kind + "{" + ",".join(to_use_string(x) for x in elems) + "}"
    if t is OclTuple:
        return (
            "Tuple{" + ",".join(f"{name}={to_use_string(v.values[name])}" for name, _ in v.type.parts) + "}"
        )
    return str(v.name)


def to_use_string_with_type(v: Any) -> str:
    """What USE's shell prints for ``? expr``: ``Set{1,2} : Set(Integer)``."""
    return f"{to_use_string(v)} : {runtime_type(v)}"


def to_json(v: Any) -> Any:
    """The JSON value encoding of ``ocl eval --json`` (see docs/OCL.md)."""
    t = type(v)
    if v is None:
        return None
    if t is int or t is str:
        return v
    if t is float:
        return v if math.isfinite(v) else java_double_to_string(v)
    if t is OclBoolean:
        return v.value
    if t is EnumValue:
        return "#" + v.literal
    if isinstance(v, OclCollection):
        elems = sorted_elements(v) if v.kind in ("Set", "Bag") else list(v)
        return {v.kind: [to_json(x) for x in elems]}
    if t is OclTuple:
        return {"Tuple": {name: to_json(v.values[name]) for name, _ in v.type.parts}}
    return "@" + v.name


def java_hash(value: Any) -> int:
    """USE's ``Value.hashCode`` of a value (:mod:`~benchmark.lang.ocl.hashorder` lists the rules)."""
    if value is None:
        return 0  # UndefinedValue: the hash of the OclVoid type
    kind = type(value)
    if kind is str:
        return string_hash(value)
    if kind is int or kind is float:
        return double_hash(float(value))
    if kind is Obj:
        return string_hash(value.name)
    if kind is EnumValue:
        return string_hash(value.literal)
    if value is TRUE:
        return 1231
    if value is FALSE:
        return 1237
    if kind is OclSet or kind is OclBag:
        return int32(sum(java_hash(x) for x in value))
    if kind is OclSequence or kind is OclOrderedSet:
        h = 1
        for x in value:
            h = (31 * h + java_hash(x)) & 0xFFFFFFFF
        return int32(h)
    if kind is OclTuple:
        total = 0
        for name, part in value.values.items():
            key = string_hash(name)
            total += key ^ int32(key + java_hash(part) * 113)
        return int32(total)
    return int32(hash(value))
