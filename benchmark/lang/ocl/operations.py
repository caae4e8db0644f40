"""USE's standard operations: signatures (what the checker accepts, which type results) and behaviour.

Entries are registered in USE's order (Any, Object, Enum, Number, String, Boolean, Collection, Set, Bag,
Sequence, OrderedSet) and the first whose signature matches the argument types is used, as in USE's
``ExpStdOp.create``. A *strict* operation gives undefined as soon as an argument is undefined (USE's
kind ``OPERATION``); the others (USE's kind ``SPECIAL``: ``=``, ``<>``, ``isDefined``, ``isUndefined``,
``oclIsUndefined``, ``includes``, ``excludes``, ``count``, ``isEmpty``, ``notEmpty``, ``including``,
``excluding``, ``append``, ``prepend``, ``indexOf``, ``reverse``) receive undefined arguments and decide
themselves. The Boolean connectives are evaluated lazily by the compiler and only typed here.

Integer arithmetic is Java's 32-bit ``int`` arithmetic (wrap-around, ``div`` truncates toward zero,
``mod`` takes the dividend's sign); ``/`` always yields a Real; a division by zero, or ``/`` and ``pow``
giving NaN or an infinity, yields undefined (USE turns the ``ArithmeticException`` into undefined).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmark.lang.ocl.types import (
    BOOLEAN,
    INTEGER,
    REAL,
    STRING,
    ClassType,
    CollectionType,
    EnumType,
    TupleType,
    Type,
    is_number,
)
from benchmark.lang.ocl.values import (
    FALSE,
    INT_MAX,
    INT_MIN,
    TRUE,
    OclBag,
    OclBoolean,
    OclCollection,
    OclOrderedSet,
    OclSequence,
    OclSet,
    OclTuple,
    java_double_to_string,
    java_equals,
    ocl_bool,
    sorted_elements,
    wrap_int,
)

Matcher = Callable[[list[Type]], Type | None]


@dataclass(frozen=True)
class StdOp:
    """One signature of a standard operation.

    ``make(param_types, result_type)`` returns the Python function that computes the value from the
    argument values; it sees the static types so that, as in USE, ``sum`` of an Integer collection adds
    ints and ``flatten`` knows whether the elements are collections.
    """

    name: str
    arity: int
    match: Matcher
    make: Callable[[list[Type], Type], Callable[..., Any]]
    strict: bool = True
    lazy_boolean: bool = False


OPERATIONS: dict[str, list[StdOp]] = {}


def _register(
    name: str,
    arity: int,
    match: Matcher,
    impl: Callable[..., Any] | None = None,
    *,
    make: Callable[[list[Type], Type], Callable[..., Any]] | None = None,
    strict: bool = True,
    lazy_boolean: bool = False,
) -> None:
    if make is None:
        assert impl is not None
        fixed = impl

        def make(_types: list[Type], _result: Type) -> Callable[..., Any]:
            return fixed

    OPERATIONS.setdefault(name, []).append(StdOp(name, arity, match, make, strict, lazy_boolean))


def lookup(name: str, types: list[Type]) -> tuple[StdOp, Type] | None:
    """The first signature of ``name`` accepting ``types`` (USE's ``ExpStdOp.create``) and its result type."""
    for op in OPERATIONS.get(name, ()):
        if op.arity != len(types):
            continue
        result = op.match(types)
        if result is not None:
            return op, result
    return None


def is_known(name: str) -> bool:
    return name in OPERATIONS


# -- small type predicates (USE's isTypeOf / isKindOf with VoidHandling) -----------------------------------
def _coll(t: Type) -> bool:
    return isinstance(t, CollectionType)


def _kind(t: Type, kind: str) -> bool:
    return isinstance(t, CollectionType) and t.kind == kind


def _elem(t: Type) -> Type:
    assert isinstance(t, CollectionType)
    return t.elem


def _bool_iv(t: Type) -> bool:
    return t == BOOLEAN or t.is_void


# ========================================================================================= Any
def _eq(a: Any, b: Any) -> OclBoolean:
    if a is None:
        return ocl_bool(b is None)
    if b is None:
        return FALSE
    return ocl_bool(java_equals(a, b))


def _ne(a: Any, b: Any) -> OclBoolean:
    if a is None:
        return ocl_bool(b is not None)
    if b is None:
        return TRUE
    return ocl_bool(not java_equals(a, b))


def _related(p: list[Type]) -> Type | None:
    return BOOLEAN if p[0].lcs(p[1]) is not None else None


_register("=", 2, _related, _eq, strict=False)
_register("<>", 2, _related, _ne, strict=False)
_register("isDefined", 1, lambda p: BOOLEAN, lambda a: ocl_bool(a is not None), strict=False)
_register("isUndefined", 1, lambda p: BOOLEAN, lambda a: ocl_bool(a is None), strict=False)
_register("oclIsUndefined", 1, lambda p: BOOLEAN, lambda a: ocl_bool(a is None), strict=False)

# ========================================================================================= Object, Enum
_register("useToId", 1, lambda p: STRING if isinstance(p[0], ClassType) else None, lambda o: o.name)
_register("toString", 1, lambda p: STRING if isinstance(p[0], EnumType) else None, lambda e: e.literal)


# ========================================================================================= Number
def _arith(p: list[Type]) -> Type | None:
    if p[0] == INTEGER and p[1] == INTEGER:
        return INTEGER
    if is_number(p[0], include_void=True) and is_number(p[1], include_void=True):
        return REAL
    return None


def _both_numbers(result: Type) -> Matcher:
    return lambda p: result if is_number(p[0]) and is_number(p[1]) else None


def _add(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        return wrap_int(a + b)
    return float(a) + float(b)


def _sub(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        return wrap_int(a - b)
    return float(a) - float(b)


def _mul(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        return wrap_int(a * b)
    return float(a) * float(b)


def _real_div(a: Any, b: Any) -> Any:
    try:
        r = float(a) / float(b)
    except ZeroDivisionError:
        return None
    return r if math.isfinite(r) else None


def java_idiv(a: int, b: int) -> int | None:
    """Java ``int / int``: truncation toward zero; division by zero is undefined."""
    if b == 0:
        return None
    q = abs(a) // abs(b)
    return wrap_int(q if (a < 0) == (b < 0) else -q)


def java_mod(a: int, b: int) -> int | None:
    """Java ``int % int``: the result has the sign of the dividend."""
    if b == 0:
        return None
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


def _max(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        return a if a >= b else b
    return max(float(a), float(b))


def _min(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        return a if a <= b else b
    return min(float(a), float(b))


def _java_int_cast(d: float) -> int:
    """Java's ``(int) double``: NaN is 0, out-of-range values saturate."""
    if d != d:
        return 0
    if d >= INT_MAX:
        return INT_MAX
    if d <= INT_MIN:
        return INT_MIN
    return int(d)


def _floor(a: Any) -> int:
    """``(int) Math.floor(d)``: Math.floor keeps infinities and NaN, which the cast then handles."""
    d = float(a)
    return _java_int_cast(math.floor(d) if math.isfinite(d) else d)


_LONG_MAX = 2**63 - 1
_LONG_MIN = -(2**63)


def _round(a: Any) -> int:
    """``(int) Math.round(d)``: Math.round gives a saturated ``long`` (NaN: 0), the cast keeps its low
    32 bits, so +Infinity (Long.MAX_VALUE) becomes -1 and -Infinity (Long.MIN_VALUE) 0."""
    d = float(a)
    if d != d:
        return 0
    if math.isinf(d):
        as_long = _LONG_MAX if d > 0 else _LONG_MIN
    else:
        as_long = max(min(math.floor(d + 0.5), _LONG_MAX), _LONG_MIN)
    return wrap_int(as_long)


def _pow(a: Any, b: Any) -> Any:
    try:
        r = math.pow(float(a), float(b))
    except (OverflowError, ValueError, ZeroDivisionError):
        return None
    return r if math.isfinite(r) else None


def _sqrt(a: Any) -> float:
    d = float(a)
    return math.sqrt(d) if d >= 0 else math.nan


def number_to_string(a: Any) -> str:
    return java_double_to_string(a) if type(a) is float else str(a)


_register("+", 2, _arith, _add)
_register("-", 2, _arith, _sub)
_register("*", 2, _arith, _mul)
_register(
    "-", 1, lambda p: p[0] if is_number(p[0]) else None, lambda a: wrap_int(-a) if type(a) is int else -a
)
_register("/", 2, _both_numbers(REAL), _real_div)
_register("+", 1, lambda p: p[0] if is_number(p[0]) else None, lambda a: a)
_register("max", 2, _arith, _max)
_register("min", 2, _arith, _min)
_register("<", 2, _both_numbers(BOOLEAN), lambda a, b: ocl_bool(a < b))
_register(">", 2, _both_numbers(BOOLEAN), lambda a, b: ocl_bool(a > b))
_register("<=", 2, _both_numbers(BOOLEAN), lambda a, b: ocl_bool(a <= b))
_register(">=", 2, _both_numbers(BOOLEAN), lambda a, b: ocl_bool(a >= b))
_register("pow", 2, _both_numbers(REAL), _pow)
# USE declares sqrt's result type as Integer although the value is a Real; we keep its typing
_register("sqrt", 1, lambda p: INTEGER if is_number(p[0]) else None, _sqrt)
_register("toString", 1, lambda p: STRING if is_number(p[0]) else None, number_to_string)
_register("abs", 1, lambda p: REAL if p[0] == REAL else None, lambda a: abs(float(a)))
_register("floor", 1, lambda p: INTEGER if is_number(p[0]) else None, _floor)
_register("round", 1, lambda p: INTEGER if is_number(p[0]) else None, _round)
_register("abs", 1, lambda p: INTEGER if p[0] == INTEGER else None, lambda a: wrap_int(abs(a)))
_register("mod", 2, lambda p: INTEGER if p[0] == INTEGER and p[1] == INTEGER else None, java_mod)
_register("div", 2, lambda p: INTEGER if p[0] == INTEGER and p[1] == INTEGER else None, java_idiv)


# ========================================================================================= String
def _strings(n: int, result: Type) -> Matcher:
    return lambda p: result if all(t == STRING for t in p[:n]) else None


def _substring(s: str, lower: int, upper: int) -> str:
    start = lower - 1
    if start < 0 or upper > len(s) or start > upper:  # Java throws; USE answers ''
        return ""
    return s[start:upper]


_JAVA_INT = re.compile(r"[+-]?[0-9]+")
_JAVA_DOUBLE = re.compile(r"[+-]?(NaN|Infinity|(([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?)[fFdD]?)")


def java_parse_int(s: str) -> int | None:
    if not _JAVA_INT.fullmatch(s):
        return None
    value = int(s)
    return value if INT_MIN <= value <= INT_MAX else None


def java_parse_double(s: str) -> float | None:
    trimmed = s.strip("".join(chr(c) for c in range(33)))
    if not _JAVA_DOUBLE.fullmatch(trimmed):
        return None
    body = trimmed.rstrip("fFdD") if trimmed[-1:] in "fFdD" and "Infinity" not in trimmed else trimmed
    if "NaN" in body:
        return math.nan
    return float(body.replace("Infinity", "inf"))


def _index_of(s: str, t: str) -> int:
    if len(s) == 0:
        return 0
    if len(t) == 0:
        return 1
    return s.find(t) + 1


def _char_at(s: str, i: int) -> Any:
    if i <= 0 or i > len(s):
        return None
    return s[i - 1]


def _equals_ignore_case(a: str, b: str) -> OclBoolean:
    if len(a) != len(b):
        return FALSE
    for x, y in zip(a, b, strict=True):
        if x != y and x.upper() != y.upper() and x.lower() != y.lower():
            return FALSE
    return TRUE


def java_split(s: str, separator: str) -> OclSequence | None:
    """Java ``String.split(regex)``: no leading empty part from a zero-width match, no trailing empties."""
    try:
        pattern = re.compile(separator)
    except re.error:
        return None
    parts: list[str] = []
    index = 0
    for m in pattern.finditer(s):
        if index == 0 and m.start() == 0 and m.end() == 0:
            continue
        parts.append(s[index : m.start()])
        index = m.end()
    if index == 0 and not parts:
        return OclSequence((s,))
    parts.append(s[index:])
    while parts and parts[-1] == "":
        parts.pop()
    return OclSequence(parts)


_register("+", 2, _strings(2, STRING), lambda a, b: a + b)
_register("size", 1, _strings(1, INTEGER), len)
_register("concat", 2, _strings(2, STRING), lambda a, b: a + b)
_register(
    "substring",
    3,
    lambda p: STRING if p[0] == STRING and p[1] == INTEGER and p[2] == INTEGER else None,
    _substring,
)
_register("toInteger", 1, _strings(1, INTEGER), java_parse_int)
_register("toReal", 1, _strings(1, REAL), java_parse_double)
for _name in ("toUpper", "toUpperCase"):
    _register(_name, 1, _strings(1, STRING), str.upper)
for _name in ("toLower", "toLowerCase"):
    _register(_name, 1, _strings(1, STRING), str.lower)
_register("indexOf", 2, _strings(2, INTEGER), _index_of)
_register("equalsIgnoreCase", 2, _strings(2, BOOLEAN), _equals_ignore_case)
_register("at", 2, lambda p: STRING if p[0] == STRING and p[1] == INTEGER else None, _char_at)
_register("characters", 1, _strings(1, CollectionType("Sequence", STRING)), lambda s: OclSequence(tuple(s)))
_register("toBoolean", 1, _strings(1, BOOLEAN), lambda s: ocl_bool(s.lower() == "true"))
_register("<", 2, _strings(2, BOOLEAN), lambda a, b: ocl_bool(a < b))
_register(">", 2, _strings(2, BOOLEAN), lambda a, b: ocl_bool(a > b))
_register("<=", 2, _strings(2, BOOLEAN), lambda a, b: ocl_bool(a <= b))
_register(">=", 2, _strings(2, BOOLEAN), lambda a, b: ocl_bool(a >= b))
_register("split", 2, _strings(2, CollectionType("Sequence", STRING)), java_split)


# ========================================================================================= Boolean
def _boolean_binary(p: list[Type]) -> Type | None:
    return p[0] if _bool_iv(p[0]) and _bool_iv(p[1]) else None


for _name in ("or", "xor", "and", "implies"):
    _register(_name, 2, _boolean_binary, lambda a, b: None, strict=False, lazy_boolean=True)
_register(
    "not", 1, lambda p: p[0] if _bool_iv(p[0]) else None, lambda a: None, strict=False, lazy_boolean=True
)
_register(
    "toString", 1, lambda p: STRING if _bool_iv(p[0]) else None, lambda b: "true" if b.value else "false"
)


# ========================================================================================= Collection
def _coll1(result: Callable[[CollectionType], Type | None]) -> Matcher:
    return lambda p: result(p[0]) if isinstance(p[0], CollectionType) else None  # type: ignore[arg-type]


def _elem_related(result: Type) -> Matcher:
    def match(p: list[Type]) -> Type | None:
        if isinstance(p[0], CollectionType) and p[1].lcs(p[0].elem) is not None:
            return result
        return None

    return match


def _both_collections_related(p: list[Type]) -> Type | None:
    if isinstance(p[0], CollectionType) and isinstance(p[1], CollectionType) and p[1].lcs(p[0]) is not None:
        return BOOLEAN
    return None


def _includes(c: Any, v: Any) -> OclBoolean:
    return FALSE if c is None else ocl_bool(v in c)


def _excludes(c: Any, v: Any) -> OclBoolean:
    return FALSE if c is None else ocl_bool(v not in c)


def _count(c: Any, v: Any) -> int:
    return 0 if c is None else c.count(v)


def _sum_make(types: list[Type], result: Type) -> Callable[..., Any]:
    if result == INTEGER:

        def int_sum(c: OclCollection) -> Any:
            total = 0
            for v in c:
                if v is None:
                    return None
                total += v
            return wrap_int(total) if type(total) is int else total

        return int_sum

    def real_sum(c: OclCollection) -> Any:
        total = 0.0
        for v in c:
            if v is None:
                return None
            total += v
        return total

    return real_sum


def _sum_match(p: list[Type]) -> Type | None:
    if isinstance(p[0], CollectionType) and p[0].elem in (INTEGER, REAL):
        return p[0].elem
    return None


def _extremum(pick: Callable[[Any, Any], Any]) -> Callable[[OclCollection], Any]:
    def run(c: OclCollection) -> Any:
        result: Any = None
        first = True
        for v in c:
            if first:
                result, first = v, False
            elif result is None or v is None:
                result = None
            else:
                result = pick(result, v)
        return result

    return run


def _extremum_match(name: str) -> Matcher:
    def match(p: list[Type]) -> Type | None:
        if isinstance(p[0], CollectionType) and lookup(name, [p[0].elem, p[0].elem]) is not None:
            return p[0].elem
        return None

    return match


def _product_match(p: list[Type]) -> Type | None:
    if isinstance(p[0], CollectionType) and isinstance(p[1], CollectionType):
        return CollectionType("Set", TupleType([("first", p[0].elem), ("second", p[1].elem)]))
    return None


def _product_make(types: list[Type], result: Type) -> Callable[..., Any]:
    assert isinstance(result, CollectionType) and isinstance(result.elem, TupleType)
    tuple_type = result.elem

    def product(a: OclCollection, b: OclCollection) -> OclSet:
        return OclSet(OclTuple(tuple_type, {"first": x, "second": y}) for x in a for y in b)

    return product


def as_sequence(c: OclCollection) -> OclSequence:
    if isinstance(c, OclSequence):  # Sequence and OrderedSet keep their order
        return OclSequence(c.items)
    return OclSequence(sorted_elements(c))


def as_ordered_set(c: OclCollection) -> OclOrderedSet:
    if isinstance(c, OclSequence):
        return OclOrderedSet(c.items)
    return OclOrderedSet(sorted_elements(c))


def _flatten_make(types: list[Type], result: Type) -> Callable[..., Any]:
    source = types[0]
    assert isinstance(source, CollectionType)
    if not isinstance(source.elem, CollectionType):
        return lambda c: c
    keep_undefined = source.kind == "Bag"  # USE's BagValue.flatten keeps undefined elements

    def flatten(c: OclCollection) -> OclCollection:
        out: list[Any] = []
        for inner in c:
            if inner is None:
                if keep_undefined:
                    out.append(None)
                continue
            out.extend(inner)
        return type(c)(out)  # type: ignore[call-arg]

    return flatten


def _flatten_match(p: list[Type]) -> Type | None:
    if not isinstance(p[0], CollectionType):
        return None
    if isinstance(p[0].elem, CollectionType):
        return CollectionType(p[0].kind, p[0].elem.elem)
    return p[0]


def _empty_check(negate: bool) -> Callable[[Any], Any]:
    def check(c: Any) -> Any:
        if c is None:
            return None
        return ocl_bool((len(c) == 0) != negate)

    return check


_register("size", 1, _coll1(lambda t: INTEGER), len)
_register("includes", 2, _elem_related(BOOLEAN), _includes, strict=False)
_register("excludes", 2, _elem_related(BOOLEAN), _excludes, strict=False)
_register("count", 2, _elem_related(INTEGER), _count, strict=False)
_register("includesAll", 2, _both_collections_related, lambda a, b: ocl_bool(all(x in a for x in b)))
_register("excludesAll", 2, _both_collections_related, lambda a, b: ocl_bool(not any(x in a for x in b)))
_register("isEmpty", 1, _coll1(lambda t: BOOLEAN), _empty_check(False), strict=False)
_register("notEmpty", 1, _coll1(lambda t: BOOLEAN), _empty_check(True), strict=False)
_register("max", 1, _extremum_match("max"), _extremum(_max))
_register("min", 1, _extremum_match("min"), _extremum(_min))
_register("sum", 1, _sum_match, make=_sum_make)
_register("product", 2, _product_match, make=_product_make)


def _as_set(c: OclCollection) -> OclSet:
    """USE adds the elements in the source's order: known when the source's order is (hashorder)."""
    return OclSet(c, known=getattr(c, "known", True))


def _as_bag(c: OclCollection) -> OclBag:
    return OclBag(c, known=getattr(c, "known", True))


_register("asSet", 1, _coll1(lambda t: CollectionType("Set", t.elem)), _as_set)
_register("asSequence", 1, _coll1(lambda t: CollectionType("Sequence", t.elem)), as_sequence)
_register("asOrderedSet", 1, _coll1(lambda t: CollectionType("OrderedSet", t.elem)), as_ordered_set)
_register("asBag", 1, _coll1(lambda t: CollectionType("Bag", t.elem)), _as_bag)
_register("flatten", 1, _flatten_match, make=_flatten_make)
_register("single", 1, _coll1(lambda t: t.elem), lambda c: next(iter(c)) if len(c) == 1 else None)


# ========================================================================================= Set / Bag
def _same_kind_common(kind: str, other: str, result_kind: str) -> Matcher:
    def match(p: list[Type]) -> Type | None:
        if _kind(p[0], kind) and _kind(p[1], other):
            common = _elem(p[0]).lcs(_elem(p[1]))
            if common is not None:
                return CollectionType(result_kind, common)
        return None

    return match


def _with_element(kind: str) -> Matcher:
    def match(p: list[Type]) -> Type | None:
        if _kind(p[0], kind):
            common = _elem(p[0]).lcs(p[1])
            if common is not None:
                return CollectionType(kind, common)
        return None

    return match


def _undefined_source(f: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def wrapped(c: Any, v: Any) -> Any:
        return None if c is None else f(c, v)

    return wrapped


def _set_union(a: OclSet, b: OclSet) -> OclSet:
    return OclSet._of_dict({**a._items, **b._items})


def _set_intersection(a: OclSet, b: OclCollection) -> OclSet:
    other = b if isinstance(b, OclSet) else OclSet(b)
    return OclSet._of_dict({x: None for x in a if x in other})


def _set_difference(a: OclSet, b: OclSet) -> OclSet:
    return OclSet._of_dict({x: None for x in a if x not in b})


def _set_including(a: OclSet, v: Any) -> OclSet:
    if v in a:
        return a
    items = dict(a._items)
    items[v] = None
    return OclSet._of_dict(items)


def _set_excluding(a: OclSet, v: Any) -> OclSet:
    if v not in a:
        return a
    items = dict(a._items)
    del items[v]
    return OclSet._of_dict(items)


def _set_symmetric_difference(a: OclSet, b: OclSet) -> OclSet:
    return _set_union(_set_difference(a, b), _set_difference(b, a))


def _bag_intersection(a: OclBag, b: OclBag) -> OclBag:
    out: list[Any] = []
    counts_b = b.counts
    for x, n in a.counts.items():
        out.extend([x] * min(n, counts_b.get(x, 0)))
    return OclBag(out)


def _bag_intersection_match(p: list[Type]) -> Type | None:
    if _kind(p[0], "Bag") and (_kind(p[1], "Bag") or p[1].is_void):
        if p[1].is_void:
            return p[0]
        common = _elem(p[0]).lcs(_elem(p[1]))
        if common is not None:
            return CollectionType("Bag", common)
    return None


_register("union", 2, _same_kind_common("Set", "Set", "Set"), _set_union)
_register("union", 2, _same_kind_common("Set", "Bag", "Bag"), lambda a, b: OclBag((*a, *b)))
_register("intersection", 2, _same_kind_common("Set", "Set", "Set"), _set_intersection)
_register("intersection", 2, _same_kind_common("Set", "Bag", "Set"), _set_intersection)
_register("-", 2, _same_kind_common("Set", "Set", "Set"), _set_difference)
_register("including", 2, _with_element("Set"), _undefined_source(_set_including), strict=False)
_register("excluding", 2, _with_element("Set"), _undefined_source(_set_excluding), strict=False)
_register("symmetricDifference", 2, _same_kind_common("Set", "Set", "Set"), _set_symmetric_difference)

_register("union", 2, _same_kind_common("Bag", "Bag", "Bag"), lambda a, b: OclBag((*a, *b)))
_register("union", 2, _same_kind_common("Bag", "Set", "Bag"), lambda a, b: OclBag((*a, *b)))
_register("intersection", 2, _bag_intersection_match, _bag_intersection)
_register(
    "intersection", 2, _same_kind_common("Bag", "Set", "Set"), lambda a, b: _set_intersection(OclSet(a), b)
)
_register("including", 2, _with_element("Bag"), _undefined_source(lambda a, v: OclBag((*a, v))), strict=False)
_register(
    "excluding",
    2,
    _with_element("Bag"),
    _undefined_source(lambda a, v: OclBag(x for x in a if not x == v)),
    strict=False,
)


# ==================================================================================== Sequence / OrderedSet
def _seq_match(kind: str, result: Callable[[CollectionType], Type]) -> Matcher:
    return lambda p: result(p[0]) if _kind(p[0], kind) else None  # type: ignore[arg-type]


def _index_match(kind: str, n_ints: int) -> Matcher:
    def match(p: list[Type]) -> Type | None:
        if _kind(p[0], kind) and all(t == INTEGER for t in p[1 : 1 + n_ints]):
            return p[0] if n_ints == 2 else _elem(p[0])
        return None

    return match


def _insert_at_match(kind: str) -> Matcher:
    def match(p: list[Type]) -> Type | None:
        if _kind(p[0], kind) and p[1] == INTEGER:
            common = _elem(p[0]).lcs(p[2])
            if common is not None:
                return CollectionType(kind, common)
        return None

    return match


def _index_of_match(kind: str) -> Matcher:
    def match(p: list[Type]) -> Type | None:
        if _kind(p[0], kind) and _elem(p[0]).lcs(p[1]) is not None:
            return INTEGER
        return None

    return match


def _sub_range(build: Callable[[tuple[Any, ...]], Any]) -> Callable[[Any, int, int], Any]:
    def sub(s: OclSequence, lower: int, upper: int) -> Any:
        if lower > upper or lower < 1 or upper > len(s.items):
            return None
        return build(s.items[lower - 1 : upper])

    return sub


def _at(s: OclSequence, i: int) -> Any:
    return s.items[i - 1] if 1 <= i <= len(s.items) else None


def _index_of_elem(s: Any, v: Any) -> Any:
    if s is None:
        return None
    i = s.index(v)
    return None if i < 0 else i + 1


def _seq_insert_at(build: Callable[[tuple[Any, ...]], Any]) -> Callable[[Any, int, Any], Any]:
    def insert(s: OclSequence, i: int, v: Any) -> Any:
        if i < 1 or i > len(s.items) + 1:
            return None
        items = list(s.items)
        items.insert(i - 1, v)
        return build(tuple(items))

    return insert


def _os_append(s: Any, v: Any) -> Any:
    if s is None:
        return None
    return s if v in s else OclOrderedSet.unchecked((*s.items, v))


def _os_prepend(s: Any, v: Any) -> Any:
    if s is None:
        return None
    return s if v in s else OclOrderedSet.unchecked((v, *s.items))


def _reverse(build: Callable[[tuple[Any, ...]], Any]) -> Callable[[Any], Any]:
    return lambda s: None if s is None else build(tuple(reversed(s.items)))


_register(
    "union", 2, _same_kind_common("Sequence", "Sequence", "Sequence"), lambda a, b: OclSequence((*a, *b))
)
_register(
    "append",
    2,
    _with_element("Sequence"),
    _undefined_source(lambda s, v: OclSequence((*s.items, v))),
    strict=False,
)
_register(
    "prepend",
    2,
    _with_element("Sequence"),
    _undefined_source(lambda s, v: OclSequence((v, *s.items))),
    strict=False,
)
_register("insertAt", 3, _insert_at_match("Sequence"), _seq_insert_at(OclSequence))
_register("subSequence", 3, _index_match("Sequence", 2), _sub_range(OclSequence))
_register("at", 2, _index_match("Sequence", 1), _at)
_register("indexOf", 2, _index_of_match("Sequence"), _index_of_elem, strict=False)
_register("first", 1, _seq_match("Sequence", lambda t: t.elem), lambda s: s.items[0] if s.items else None)
_register("last", 1, _seq_match("Sequence", lambda t: t.elem), lambda s: s.items[-1] if s.items else None)
_register(
    "including",
    2,
    _with_element("Sequence"),
    _undefined_source(lambda s, v: OclSequence((*s.items, v))),
    strict=False,
)
_register(
    "excluding",
    2,
    _with_element("Sequence"),
    _undefined_source(lambda s, v: OclSequence(x for x in s.items if not java_equals(v, x))),
    strict=False,
)
_register("reverse", 1, _seq_match("Sequence", lambda t: t), _reverse(OclSequence), strict=False)

_register("append", 2, _with_element("OrderedSet"), _os_append, strict=False)
_register("prepend", 2, _with_element("OrderedSet"), _os_prepend, strict=False)
# USE inserts without the uniqueness check here (its OrderedSetValue.insertAt adds to the list directly)
_register("insertAt", 3, _insert_at_match("OrderedSet"), _seq_insert_at(OclOrderedSet.unchecked))
_register("subOrderedSet", 3, _index_match("OrderedSet", 2), _sub_range(OclOrderedSet.unchecked))
_register("at", 2, _index_match("OrderedSet", 1), _at)
_register("indexOf", 2, _index_of_match("OrderedSet"), _index_of_elem, strict=False)
_register("first", 1, _seq_match("OrderedSet", lambda t: t.elem), lambda s: s.items[0] if s.items else None)
_register("last", 1, _seq_match("OrderedSet", lambda t: t.elem), lambda s: s.items[-1] if s.items else None)
_register(
    "reverse", 1, _seq_match("OrderedSet", lambda t: t), _reverse(OclOrderedSet.unchecked), strict=False
)
_register(
    "union",
    2,
    _same_kind_common("OrderedSet", "OrderedSet", "OrderedSet"),
    lambda a, b: OclOrderedSet((*a, *b)),
)
_register("including", 2, _with_element("OrderedSet"), _os_append, strict=False)
_register(
    "excluding",
    2,
    _with_element("OrderedSet"),
    _undefined_source(
        lambda s, v: OclOrderedSet.unchecked(tuple(x for x in s.items if not java_equals(v, x)))
    ),
    strict=False,
)


def signature(name: str, types: list[Type]) -> str:
    """USE's way of naming a call in error messages: ``Set(Integer)->foo(String)``."""
    source = types[0]
    sep = "->" if isinstance(source, CollectionType) else "."
    return f"{source}{sep}{name}(" + ", ".join(str(t) for t in types[1:]) + ")"


__all__ = [
    "OPERATIONS",
    "StdOp",
    "as_ordered_set",
    "as_sequence",
    "is_known",
    "lookup",
    "number_to_string",
    "signature",
]
