"""``EditionDistance`` wrapped in ``CachingDistance``, as ``DefaultMatchEngine`` builds it.

distance(a, b) = location part + feature part, or infinity when above max(threshold(a), threshold(b)).
The location part charges the parent weight when the containers are not matched to each other, 5 when
only the position in the parent differs, and the containing-feature weight when the containing feature
differs. The feature part is EMF Compare's diff of the pair through a fake comparison holding only the
match (a, b): references first, then attributes, each feature's first change at full weight (names
scaled by 1 - dice), one more per further change. Reference values are compared by EMF Compare's
positional URI (``URIDistance``), never by the matches found so far.

Caching is part of the behaviour, not only of the speed: ``CachingDistance`` keeps the first value
computed for an unordered pair (in a 10,000-entry LRU), even if a container has been matched since,
and the reverse search of the double check reuses it in the other orientation. Both are reproduced.
Everything else here is arranged for speed only: a pair is rejected as soon as a lower bound of its
distance exceeds the threshold, which yields exactly the value EMF Compare returns (infinity).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from benchmark.tracks.mapping.baselines.emfcompare.dice import dice_coefficient
from benchmark.tracks.mapping.baselines.emfcompare.metaclasses import NAME_WEIGHT
from benchmark.tracks.mapping.baselines.emfcompare.scope import Node, Target

INFINITE = math.inf  # EMF Compare's Double.MAX_VALUE: "no match"
INDEX_CHANGE = 5  # EditionDistance: same container, different position
CACHE_SIZE = 10_000  # CachingDistance's AccessBasedLRUCache


def proximity(a_path: tuple[str, ...], b_path: tuple[str, ...]) -> int:
    """``URIDistance.proximity``: 0 (same location) to 10, comparing paths from the leaf up."""
    common = 0
    for x, y in zip(a_path, b_path, strict=False):
        if x != y:
            break
        common += 1
    if common == 0:
        return 10
    to_go = (len(a_path) - common) + (len(b_path) - common)
    return (to_go * 10) // (common * 2 + to_go)


class EditionDistance:
    """The measure, given the in-progress matches (``match_of``: object -> its match, if any)."""

    def __init__(self, match_of: Callable[[Node], Any]) -> None:
        self._match_of = match_of

    # -- equality of values (EditionDistance's fake EqualityHelper) -------------------------------

    @staticmethod
    def matching_values(object1: Target | None, object2: Target | None, a: Node, b: Node) -> bool:
        """``EqualityHelper.matchingValues`` for reference values in the fake comparison of (a, b)."""
        if object1 is object2:
            return True
        if object1 is None or object2 is None:
            return False
        if object1 is a or object1 is b:  # the fake match's own objects match each other only
            return object2 is a or object2 is b
        if object2 is a or object2 is b or object1.metaclass != object2.metaclass:
            return False
        # EditionDistance.matchingURIs: a value contained in a or b compares by its last segment only.
        container1 = object1.container
        if (container1 is a or container1 is b) and object2.has_container:
            return object1.fragment == object2.fragment
        return proximity(object1.path, object2.path) == 0

    def same_container(self, a: Node, b: Node) -> bool:
        """``CountingDiffEngine.haveSameContainer``."""
        a_container = a.container
        b_container = b.container
        if a_container is None or b_container is None:
            return a_container is None and b_container is None
        match_a = self._match_of(a_container)
        match_b = self._match_of(b_container)
        if match_a is None and match_b is None:
            # Neither container matched yet: fall back to the positional URI (EqualityHelper).
            return self.matching_values(a_container, b_container, a, b)
        return (match_a is not None and match_a.holds(b_container)) or (
            match_b is not None and match_b.holds(a_container)
        )

    def location(self, a: Node, b: Node) -> float:
        changes = 0.0
        if not self.same_container(a, b):
            changes += a.meta.parent_weight
        elif a.index != b.index:
            changes += INDEX_CHANGE
        if a.feature_key != b.feature_key:
            changes += max(a.meta.containing_feature_weight, b.meta.containing_feature_weight)
        return changes

    # -- the feature part (CountingDiffEngine + CountingDiffProcessor) ----------------------------

    def features(self, a: Node, b: Node, limit: float) -> float:
        """The feature part; stops as soon as it exceeds ``limit`` (the result is then only a bound)."""
        counter = 0.0
        meta = a.meta
        a_set, b_set = a.ref_set, b.ref_set
        a_refs, b_refs = a.refs, b.refs
        matching = self.matching_values
        for i, reference in enumerate(meta.references):
            if not (a_set[i] or b_set[i]):
                continue  # FeatureFilter: a reference set on neither side is not checked
            if counter > limit:
                return counter
            if reference.many:
                changes = _multi_valued_changes(a_refs[i], b_refs[i], a, b, matching)
                if changes:
                    counter += reference.weight
                    for _ in range(changes - 1):
                        counter += 1
            else:
                left, right = a_refs[i], b_refs[i]
                if not (left is None and right is None) and not matching(left, right, a, b):
                    counter += reference.weight
        a_attrs, b_attrs = a.attrs, b.attrs
        for i, attribute in enumerate(meta.attributes):
            if counter > limit:
                return counter
            left, right = a_attrs[i], b_attrs[i]
            if left == right or (left is None and right == "") or (right is None and left == ""):
                continue
            if left.__class__ is str and right.__class__ is str:
                counter += attribute.weight * (1 - dice_coefficient(left, right))
            else:
                counter += attribute.weight
        return counter

    def measure(self, a: Node, b: Node, maximum: float) -> float:
        changes = self.location(a, b)
        if changes <= maximum:
            changes += self.features(a, b, maximum)
        return changes

    def distance(self, a: Node, b: Node) -> float:
        maximum = a.threshold if a.threshold >= b.threshold else b.threshold
        changes = self.location(a, b)
        if changes > maximum:
            return INFINITE
        # Lower bound before the full diff: the name alone (sums of non-negative doubles never shrink).
        if (
            a.identity_key != b.identity_key
            and a.meta.attributes
            and a.meta.attributes[0].weight == NAME_WEIGHT
        ):
            left, right = a.attrs[0], b.attrs[0]
            if left.__class__ is str and right.__class__ is str:
                bound = NAME_WEIGHT * (1 - dice_coefficient(left, right))
            else:
                bound = float(NAME_WEIGHT)
            if changes + bound > maximum:
                return INFINITE
        changes += self.features(a, b, maximum)
        return changes if changes <= maximum else INFINITE

    def are_identic(self, a: Node, b: Node) -> bool:
        """``EditionDistance.areIdentic``: ``measure(a, b, 0) == 0`` (not cached by EMF Compare)."""
        if a.identity_key != b.identity_key:
            return False  # the first attribute (name or source) differs: at least one change
        if a.index != b.index or a.feature_key != b.feature_key or not self.same_container(a, b):
            return False
        return self.features(a, b, 0.0) == 0


def _multi_valued_changes(
    left_values: Sequence[Target],
    right_values: Sequence[Target],
    a: Node,
    b: Node,
    matching: Callable[[Any, Any, Node, Node], bool],
) -> int:
    """How many changes ``computeMultiValuedFeatureDifferencesTwoWay`` reports (ordered, unique lists)."""
    if len(left_values) == len(right_values) and all(
        x is y for x, y in zip(left_values, right_values, strict=True)
    ):
        return 0
    lcs = _longest_common_subsequence(right_values, left_values, a, b, matching)
    right_without_lcs = _trim_lcs(right_values, lcs, a, b, matching)
    changes = 0
    cursor = 0
    current = lcs[0] if lcs else None
    for candidate in left_values:
        if matching(candidate, current, a, b):
            cursor += 1
            current = lcs[cursor] if cursor < len(lcs) else None
            continue
        # DefaultDiffEngine.indexOf(list, element): matchingValues(list item, element)
        index = next((k for k, item in enumerate(right_without_lcs) if matching(item, candidate, a, b)), -1)
        if index >= 0:
            del right_without_lcs[index]
        changes += 1  # a MOVE (ordered feature) or an ADD: both are one change
    left_without_lcs = _trim_lcs(left_values, lcs, a, b, matching)
    for candidate in right_without_lcs:
        if not any(matching(item, candidate, a, b) for item in left_without_lcs):
            changes += 1  # DELETE
    return changes


def _trim_lcs(
    source: Sequence[Target], lcs: Sequence[Target], a: Node, b: Node, matching: Callable[..., bool]
) -> list[Target]:
    result: list[Target] = []
    cursor = 0
    for position, current in enumerate(source):
        if cursor >= len(lcs):
            result.extend(source[position:])
            break
        if matching(current, lcs[cursor], a, b):
            cursor += 1
        else:
            result.append(current)
    return result


def _longest_common_subsequence(
    sequence1: Sequence[Target], sequence2: Sequence[Target], a: Node, b: Node, matching: Callable[..., bool]
) -> list[Target]:
    """``DiffUtil.longestCommonSubsequence`` (prefix/suffix trimming, then the short-matrix LCS)."""
    start = 0
    while (
        start < len(sequence1)
        and start < len(sequence2)
        and matching(sequence1[start], sequence2[start], a, b)
    ):
        start += 1
    end1, end2 = len(sequence1), len(sequence2)
    suffix: list[Target] = []
    while end1 > start and end2 > start and matching(sequence1[end1 - 1], sequence2[end2 - 1], a, b):
        suffix.append(sequence1[end1 - 1])
        end1 -= 1
        end2 -= 1
    first = sequence1[start:end1]
    second = sequence2[start:end2]
    size1, size2 = len(first), len(second)
    matrix = [[0] * (size2 + 1) for _ in range(size1 + 1)]
    for i in range(1, size1 + 1):
        item = first[i - 1]
        row, previous = matrix[i], matrix[i - 1]
        for j in range(1, size2 + 1):
            current = previous[j - 1]
            if_no_match = previous[j] if previous[j] >= row[j - 1] else row[j - 1]
            if if_no_match > current:
                row[j] = if_no_match
            elif matching(item, second[j - 1], a, b):
                row[j] = current + 1
            else:
                row[j] = if_no_match
    middle: list[Target] = []
    i, j = size1, size2
    while i > 0 and j > 0:
        length = matrix[i][j]
        left = matrix[i][j - 1]
        up = matrix[i - 1][j]
        if length > left and length > up:
            middle.append(first[i - 1])
            i -= 1
            j -= 1
        elif left >= up:
            j -= 1
        else:
            i -= 1
    middle.reverse()
    suffix.reverse()
    return list(sequence1[:start]) + middle + suffix


class CachingDistance:
    """``CachingDistance``: the first value computed for an unordered pair, in a 10,000-entry LRU.

    When no more than 10,000 pairs can ever be compared (the usual case) a plain dict behaves exactly
    like the LRU and is cheaper; ``exact_lru`` selects the access-ordered map otherwise.
    """

    def __init__(self, measure: EditionDistance, *, exact_lru: bool) -> None:
        self._measure = measure
        self._exact_lru = exact_lru
        self._cache: dict[int, float] | OrderedDict[int, float] = OrderedDict() if exact_lru else {}
        self.computed = 0

    def distance(self, a: Node, b: Node) -> float:
        key = (a.uid << 32) | b.uid if a.uid < b.uid else (b.uid << 32) | a.uid
        cache = self._cache
        value = cache.get(key)
        if value is not None:
            if self._exact_lru:
                cache.move_to_end(key)  # type: ignore[union-attr]
            return value
        value = self._measure.distance(a, b)
        self.computed += 1
        cache[key] = value
        if self._exact_lru and len(cache) > CACHE_SIZE:
            cache.popitem(last=False)  # type: ignore[call-arg]
        return value

    def are_identic(self, a: Node, b: Node) -> bool:
        return self._measure.are_identic(a, b)
