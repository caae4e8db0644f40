"""USE's iteration order of Sets and Bags: Java ``HashSet`` / ``HashMap`` bucket order.

USE keeps a Set in a ``java.util.HashSet`` (``SetValue``) and a Bag in a ``HashMap`` from element to count
(``HashBag``), and iterates them in the table's order. Where OCL leaves the order open (``any`` with
several matches, ``iterate``, ties of ``sortedBy``), that order decides USE's result, so the evaluator
iterates Sets and Bags in it:

* every value has USE's Java hash code: a String ``String.hashCode`` (over UTF-16 units), an Integer or
  Real ``Double.hashCode`` of its value (so ``1`` and ``1.0`` hash alike), a Boolean 1231/1237, an
  enumeration literal its literal's name, an object its name (``MObjectImpl``), undefined 0 (the
  ``OclVoid`` type's), a Set or Bag the sum of its elements', a Sequence or OrderedSet Java's list hash,
  a tuple its ``TreeMap`` of parts (``name ^ (name + value * 113)`` summed);
* an element goes to bucket ``(h ^ h >>> 16) & (capacity - 1)``; the table starts with 16 buckets and
  doubles whenever it would hold more than three quarters of them (``new HashSet()`` then ``add``, as
  every ``SetValue`` is built), so its capacity follows from the number of distinct elements;
* buckets are visited in index order; within a bucket, elements stay in the order they were added.

That last rule is the limit: the order in which USE added two elements that share a bucket comes from
how USE built the collection (its link sets, object sets and their own hash tables), which this
evaluator does not reproduce. :func:`hash_order` therefore also says which elements share a bucket,
and the operations whose result would change with their order report it
(:meth:`~benchmark.lang.ocl.compiler.EvalContext.order_dependent`) instead of silently picking one.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

_MASK = 0xFFFFFFFF


def int32(h: int) -> int:
    h &= _MASK
    return h - (1 << 32) if h & 0x80000000 else h


@lru_cache(maxsize=65536)
def string_hash(text: str) -> int:
    """Java's ``String.hashCode`` (``s[0]*31^(n-1) + ... + s[n-1]`` over UTF-16 code units, 32 bits)."""
    h = 0
    for unit in struct.unpack(f"<{len(text.encode('utf-16-le')) // 2}H", text.encode("utf-16-le")):
        h = (31 * h + unit) & _MASK
    return int32(h)


def double_hash(value: float) -> int:
    """Java's ``Double.hashCode``: the bits of the double folded to 32 (NaN canonical)."""
    bits = 0x7FF8000000000000 if value != value else struct.unpack(">q", struct.pack(">d", value))[0]
    bits &= 0xFFFFFFFFFFFFFFFF
    return int32(bits ^ (bits >> 32))


def capacity(distinct: int) -> int:
    """The table size of a ``HashSet``/``HashMap`` built empty and given ``distinct`` keys one by one."""
    size = 16
    while distinct > size * 3 // 4:
        size *= 2
    return size


def bucket(h: int, size: int) -> int:
    h &= _MASK
    return (h ^ (h >> 16)) & (size - 1)


def hash_order(
    items: Iterable[Any], hash_of: Callable[[Any], int]
) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """``items`` (distinct, in the order they were added) in the iteration order of a Java hash table
    built by adding them one by one, and each one's bucket (elements sharing a bucket keep the order
    they were added in); ``hash_of`` is the elements' Java hash code."""
    elements = tuple(items)
    mask = capacity(len(elements)) - 1
    # bucket() inlined: this runs for every Set and Bag the evaluator iterates
    buckets = [(h ^ (h >> 16)) & mask for h in (hash_of(x) & _MASK for x in elements)]
    order = sorted(range(len(elements)), key=buckets.__getitem__)  # stable: a bucket keeps the order added
    return tuple(elements[i] for i in order), tuple(buckets[i] for i in order)


__all__ = ["bucket", "capacity", "double_hash", "hash_order", "int32", "string_hash"]
