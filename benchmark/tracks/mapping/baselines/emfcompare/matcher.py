"""``IdentifierEObjectMatcher`` delegating to ``ProximityEObjectMatcher``: who is matched to whom.

1. ID phase: objects carrying an ``xmi:id`` are paired by id and never reach the proximity matcher.
2. Indexing: the remaining objects of both sides are indexed in lock-step (left, right, left, ...) into
   one index per metaclass. The indexes live in a Java ``HashMap`` whose iteration order decides which
   left objects are processed first; it is reproduced from Java's ``String.hashCode``.
3. Matching, left-driven and greedy: containers before their contents; for each object an identical
   candidate if any, else the closest candidate (ascending distance, equal distances overwriting each
   other as in a ``TreeMap``) whose own closest counterpart is the object (the double check). An object
   without a counterpart stays unmatched and is never retried.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from benchmark.core.gcpause import collector_paused
from benchmark.tracks.mapping.baselines.emfcompare.distance import (
    CACHE_SIZE,
    INFINITE,
    CachingDistance,
    EditionDistance,
)
from benchmark.tracks.mapping.baselines.emfcompare.scope import Node, build_scope

LEFT = 0
RIGHT = 1
MATCH_AHEAD_EVERY = 10_000  # ProximityEObjectMatcher.NB_ELEMENTS_BETWEEN_MATCH_AHEAD (left objects)
MATCH_AHEAD_WINDOW = 1_000  # ProximityIndex.SEARCH_WINDOW


@dataclass(eq=False)
class Match:
    """One entry of the comparison: a matched pair, or one side alone (unmatched)."""

    left: Node | None = None
    right: Node | None = None
    distance: float | None = None  # of a proximity pair (0.0 when identical); None for id and unmatched

    def holds(self, node: Node) -> bool:
        return node is self.left or node is self.right

    @property
    def metaclass(self) -> str:
        node = self.left if self.left is not None else self.right
        assert node is not None
        return node.metaclass

    @property
    def is_pair(self) -> bool:
        return self.left is not None and self.right is not None


@dataclass
class MatchStatistics:
    """Counters for the benchmark command (how much work a comparison took)."""

    left_objects: int = 0
    right_objects: int = 0
    id_matches: int = 0
    distances_computed: int = 0
    exact_lru: bool = False
    match_ahead_passes: int = 0


@dataclass
class MatchResult:
    matches: list[Match]
    statistics: MatchStatistics = field(default_factory=MatchStatistics)

    def pairs(self) -> list[Match]:
        return [m for m in self.matches if m.is_pair]


def java_string_hash(text: str) -> int:
    """``String.hashCode`` (over UTF-16 code units), as an unsigned 32-bit value."""
    value = 0
    data = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        value = (31 * value + int.from_bytes(data[i : i + 2], "little")) & 0xFFFFFFFF
    return value


def java_hashmap_order(keys: Sequence[str]) -> list[str]:
    """Iteration order of a ``java.util.HashMap`` filled with ``keys`` in this order.

    Buckets are ``(h ^ (h >>> 16)) & (capacity - 1)``; the capacity starts at 16 and doubles when the
    size exceeds 0.75 x capacity; within a bucket (and across resizes) insertion order is kept.
    """
    capacity = 16
    while len(keys) > capacity * 3 // 4:
        capacity *= 2

    def bucket(key: str) -> int:
        h = java_string_hash(key)
        return (h ^ (h >> 16)) & (capacity - 1)

    return [key for _, key in sorted(((bucket(k), i), k) for i, k in enumerate(keys))]


class _TypeIndex:
    """``ProximityIndex``: the remaining objects of one metaclass, per side, in insertion order."""

    __slots__ = ("sides", "by_identity")

    def __init__(self) -> None:
        self.sides: tuple[dict[Node, None], dict[Node, None]] = ({}, {})
        # Objects by first attribute (name): only those can be identical (see are_identic).
        self.by_identity: tuple[dict[Any, list[Node]], dict[Any, list[Node]]] = ({}, {})

    def add(self, node: Node) -> None:
        self.sides[node.side][node] = None
        self.by_identity[node.side].setdefault(node.identity_key, []).append(node)


class ProximityMatcher:
    """``ProximityEObjectMatcher`` over :class:`Node`s, with ``CachingDistance(EditionDistance)``."""

    def __init__(
        self, match_of: dict[Node, Match], matches: list[Match], statistics: MatchStatistics
    ) -> None:
        self.match_of = match_of
        self.matches = matches
        self.statistics = statistics
        self.indexes: dict[str, _TypeIndex] = {}
        self.edition = EditionDistance(match_of.get)
        self.meter: CachingDistance | None = None

    # -- indexing ---------------------------------------------------------------------------------

    def index(self, lefts: Sequence[Node], rights: Sequence[Node]) -> None:
        """Index both sides in lock-step, matching ahead of time every 10,000 left objects.

        Objects enter the scope (``isInScope``) as they are indexed, which matters for a match-ahead
        pass: it only sees what has been indexed so far.
        """
        sizes: dict[str, list[int]] = {}
        for node in (*lefts, *rights):
            sizes.setdefault(node.meta.type_key, [0, 0])[node.side] += 1
        pairs = sum(left * right for left, right in sizes.values())
        self.meter = CachingDistance(self.edition, exact_lru=pairs > CACHE_SIZE)
        indexed_lefts = 0
        segment = 0
        for position in range(max(len(lefts), len(rights))):
            if position < len(lefts):
                indexed_lefts += 1
                self._add(lefts[position])
            if position < len(rights):
                self._add(rights[position])
            if indexed_lefts // MATCH_AHEAD_EVERY > segment:
                self._match_ahead_of_time()
                segment += 1

    def _add(self, node: Node) -> None:
        node.in_scope = True
        key = node.meta.type_key
        type_index = self.indexes.get(key)
        if type_index is None:
            type_index = self.indexes[key] = _TypeIndex()
        type_index.add(node)

    def _match_ahead_of_time(self) -> None:
        """``matchAheadOfTime``: metaclasses with over 1,000 pending objects, without unmatches."""
        self.statistics.match_ahead_passes += 1
        for side in (LEFT, RIGHT):
            order = java_hashmap_order(list(self.indexes))
            todo = [
                node
                for key in order
                if len(self.indexes[key].sides[side]) > MATCH_AHEAD_WINDOW
                for node in self.indexes[key].sides[side]
            ]
            self._match_list(todo, create_unmatches=False)

    def _values_still_there(self, side: int) -> list[Node]:
        order = java_hashmap_order(list(self.indexes))
        return [node for key in order for node in self.indexes[key].sides[side]]

    # -- matching ---------------------------------------------------------------------------------

    def run(self) -> None:
        for side in (LEFT, RIGHT):
            todo = self._values_still_there(side)
            while todo:
                todo = self._match_list(todo, create_unmatches=True)
        # createUnmatchesForRemainingObjects: nothing can remain once every object had its turn.
        for side in (RIGHT, LEFT):
            for node in self._values_still_there(side):
                self._record(node, None)

    def _match_list(self, todo: Sequence[Node], *, create_unmatches: bool) -> list[Node]:
        discovered: list[Node] = []  # requiredContainers, built by add(0, ...), i.e. reversed
        match_of = self.match_of
        for node in todo:
            container = node.container
            while container is not None and container.in_scope:
                if container not in match_of:
                    discovered.append(container)
                container = container.container
        discovered.reverse()
        remaining: dict[Node, None] = {}
        for node in (*discovered, *todo):
            if node not in match_of and not self._try_to_match(node, create_unmatches):
                remaining[node] = None
        return list(remaining)

    def _ready(self, node: Node) -> bool:
        container = node.container
        return container is None or not container.in_scope or container in self.match_of

    def _try_to_match(self, node: Node, create_unmatches: bool) -> bool:
        if not self._ready(node):
            return False
        counterpart, distance = self._closest_double_checked(node)
        if counterpart is None and not create_unmatches:
            return False  # matching ahead of time: the object stays in the index for the main pass
        self._record(node, counterpart, distance)
        return True

    def _record(self, node: Node, counterpart: Node | None, distance: float | None = None) -> None:
        left, right = (node, counterpart) if node.side == LEFT else (counterpart, node)
        match = Match(left, right, distance if counterpart is not None else None)
        self.matches.append(match)
        type_index = self.indexes[node.meta.type_key]
        for member in (left, right):
            if member is not None:
                self.match_of[member] = match
                type_index.sides[member.side].pop(member, None)

    def _identical(self, node: Node, type_index: _TypeIndex, storage: dict[Node, None]) -> Node | None:
        """``findIdenticMatch``: the first ready candidate with measure == 0 (only same-named ones can)."""
        meter = self.meter
        assert meter is not None
        for candidate in type_index.by_identity[1 - node.side].get(node.identity_key, ()):
            if candidate in storage and self._ready(candidate) and meter.are_identic(node, candidate):
                return candidate
        return None

    def _closest_double_checked(self, node: Node) -> tuple[Node | None, float]:
        """``findTheClosest(..., shouldDoubleCheck=true)``, with the distance of the accepted candidate."""
        type_index = self.indexes[node.meta.type_key]
        storage = type_index.sides[1 - node.side]
        identical = self._identical(node, type_index, storage)
        if identical is not None:
            return identical, 0.0
        assert self.meter is not None
        distance = self.meter.distance
        candidates: dict[float, Node] = {}
        for candidate in storage:
            value = distance(node, candidate)
            if value < INFINITE:
                candidates[value] = candidate  # TreeMap.put: equal distances overwrite
        for value in sorted(candidates):
            candidate = candidates[value]
            if self._closest(candidate) is node:
                return candidate, value
        return None, INFINITE

    def _closest(self, node: Node) -> Node | None:
        """``findTheClosest(..., shouldDoubleCheck=false)``: the double check's reverse search."""
        type_index = self.indexes[node.meta.type_key]
        storage = type_index.sides[1 - node.side]
        identical = self._identical(node, type_index, storage)
        if identical is not None:
            return identical
        assert self.meter is not None
        distance = self.meter.distance
        best: Node | None = None
        best_value = INFINITE
        for candidate in storage:
            if best_value == 0:
                break
            value = distance(node, candidate)
            if value < best_value:
                best, best_value = candidate, value
        return best


def _identifier_phase(
    lefts: Sequence[Node],
    rights: Sequence[Node],
    left_ids: Mapping[Any, str],
    right_ids: Mapping[Any, str],
    matches: list[Match],
    match_of: dict[Node, Match],
) -> tuple[list[Node], list[Node]]:
    """``IdentifierEObjectMatcher.matchPerId``; returns the objects without an id, per side."""
    by_id: dict[str, Match] = {}
    left_rest: list[Node] = []
    right_rest: list[Node] = []
    for node in lefts:
        identifier = left_ids.get(node.obj) if node.obj is not None else None
        if identifier is None:
            left_rest.append(node)
            continue
        match = Match(left=node)
        matches.append(match)
        match_of[node] = match
        by_id[identifier] = match  # a duplicate id on the left: the last one wins
    for node in rights:
        identifier = right_ids.get(node.obj) if node.obj is not None else None
        if identifier is None:
            right_rest.append(node)
            continue
        known = by_id.get(identifier)
        if known is None:
            known = Match(right=node)
            matches.append(known)
            by_id[identifier] = known
        elif known.right is not None:
            match_of.pop(known.right, None)  # duplicate id on the right: the earlier object is dropped
        known.right = node
        match_of[node] = known
    return left_rest, right_rest


def _ids(mapping: Mapping[Any, str] | None) -> Mapping[Any, str]:
    return {} if mapping is None else mapping


def match_roots(
    left_roots: Iterable[Any],
    right_roots: Iterable[Any],
    *,
    left_ids: Mapping[Any, str] | None = None,
    right_ids: Mapping[Any, str] | None = None,
) -> MatchResult:
    """EMF Compare's default match engine on two resources given by their root objects.

    The cyclic garbage collector is paused meanwhile: a comparison allocates hundreds of thousands of
    small objects (no cycles), and each collection it triggers would walk every pyecore object the
    loader keeps cached, which costs up to a second in a long batch and frees nothing.
    """
    with collector_paused():
        return _match_roots(left_roots, right_roots, left_ids, right_ids)


def _match_roots(
    left_roots: Iterable[Any],
    right_roots: Iterable[Any],
    left_ids: Mapping[Any, str] | None,
    right_ids: Mapping[Any, str] | None,
) -> MatchResult:
    lefts, _ = build_scope(tuple(left_roots), LEFT)
    rights, _ = build_scope(tuple(right_roots), RIGHT)
    for uid, node in enumerate((*lefts, *rights)):
        node.uid = uid
    matches: list[Match] = []
    match_of: dict[Node, Match] = {}
    left_rest, right_rest = _identifier_phase(
        lefts, rights, _ids(left_ids), _ids(right_ids), matches, match_of
    )
    statistics = MatchStatistics(left_objects=len(lefts), right_objects=len(rights), id_matches=len(matches))
    if left_rest or right_rest:
        proximity = ProximityMatcher(match_of, matches, statistics)
        proximity.index(left_rest, right_rest)
        proximity.run()
        assert proximity.meter is not None
        statistics.distances_computed = proximity.meter.computed
        statistics.exact_lru = proximity.meter._exact_lru  # noqa: SLF001
    return MatchResult(matches, statistics)


class Resource(Protocol):
    """What the engine needs of a loaded metamodel (``benchmark.lang.ecore.LoadedMetamodel``)."""

    @property
    def roots(self) -> tuple[Any, ...]: ...

    @property
    def xmi_ids(self) -> Any: ...


def match(left: Resource, right: Resource) -> MatchResult:
    """Every match EMF Compare makes between two metamodels: pairs and unmatched objects of each side.

    ``left`` drives the matching (the outcome is not symmetric); objects carrying an ``xmi:id`` are
    paired by id first, exactly as EMF Compare does.
    """
    return match_roots(left.roots, right.roots, left_ids=left.xmi_ids, right_ids=right.xmi_ids)
