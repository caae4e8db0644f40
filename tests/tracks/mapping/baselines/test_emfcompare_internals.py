"""Engine parts whose Java behaviour matters for the result: HashMap order, CachingDistance, generic types."""

from __future__ import annotations

from collections.abc import Callable

from benchmark.lang.ecore import LoadedMetamodel
from benchmark.tracks.mapping.baselines.emfcompare.distance import CACHE_SIZE, CachingDistance
from benchmark.tracks.mapping.baselines.emfcompare.matcher import java_hashmap_order, java_string_hash
from benchmark.tracks.mapping.baselines.emfcompare.naming import qualified_name
from benchmark.tracks.mapping.baselines.emfcompare.scope import build_scope

NS = "http://www.eclipse.org/emf/2002/Ecore:"


def test_java_string_hash() -> None:
    assert java_string_hash("") == 0
    assert java_string_hash("hello") == 99162322  # "hello".hashCode()
    assert java_string_hash(NS + "EClass") == -1766950484 & 0xFFFFFFFF  # printed by Java 17


def test_type_index_order_is_javas_hashmap_order() -> None:
    # Expected orders printed by Java 17 (HashMap.keySet() after inserting the keys in this order).
    small = ["EPackage", "EClass", "EAttribute", "EReference", "EDataType"]
    assert [k[len(NS) :] for k in java_hashmap_order([NS + k for k in small])] == small
    thirteen = [
        "EPackage", "EAnnotation", "EStringToStringMapEntry", "EClass", "EAttribute", "EReference",
        "EOperation", "EParameter", "EDataType", "EEnum", "EEnumLiteral", "EGenericType", "ETypeParameter",
    ]  # fmt: skip
    # Thirteen keys exceed 0.75 x 16: the table doubles to 32 buckets, which reorders the keys.
    assert [k[len(NS) :] for k in java_hashmap_order([NS + k for k in thirteen])] == [
        "EPackage", "EParameter", "EClass", "EOperation", "EReference", "ETypeParameter", "EDataType",
        "EStringToStringMapEntry", "EAttribute", "EEnumLiteral", "EEnum", "EAnnotation", "EGenericType",
    ]  # fmt: skip


class _Node:
    def __init__(self, uid: int) -> None:
        self.uid = uid


class _CountingMeasure:
    def __init__(self, values: Callable[[_Node, _Node], float]) -> None:
        self.values = values
        self.calls: list[tuple[int, int]] = []

    def distance(self, a: _Node, b: _Node) -> float:
        self.calls.append((a.uid, b.uid))
        return self.values(a, b)


def test_caching_distance_keeps_the_first_value_of_an_unordered_pair() -> None:
    measure = _CountingMeasure(lambda a, b: float(10 * a.uid + b.uid))  # deliberately not symmetric
    cache = CachingDistance(measure, exact_lru=False)  # type: ignore[arg-type]
    a, b = _Node(1), _Node(2)
    assert cache.distance(a, b) == 12
    assert cache.distance(b, a) == 12  # the reverse search reuses the value of the first orientation
    assert measure.calls == [(1, 2)]


def test_caching_distance_lru_evicts_the_least_recently_used() -> None:
    measure = _CountingMeasure(lambda a, b: 1.0)
    cache = CachingDistance(measure, exact_lru=True)  # type: ignore[arg-type]
    anchor = _Node(0)
    nodes = [_Node(i) for i in range(1, CACHE_SIZE + 2)]
    cache.distance(anchor, nodes[0])
    for node in nodes[1:CACHE_SIZE]:
        cache.distance(anchor, node)
    cache.distance(anchor, nodes[0])  # a hit refreshes the pair: it is now the most recent
    cache.distance(anchor, nodes[CACHE_SIZE])  # entry 10,001 evicts the oldest, (0, 2)
    calls_before = len(measure.calls)
    cache.distance(anchor, nodes[0])
    assert len(measure.calls) == calls_before  # still cached
    cache.distance(anchor, nodes[1])
    assert len(measure.calls) == calls_before + 1  # evicted, computed again


def test_generic_types_in_scope_only_with_arguments(
    load_ecore: Callable[[str, str], LoadedMetamodel], ecore_package: Callable[[str, str], str]
) -> None:
    java_class = "ecore:EDataType http://www.eclipse.org/emf/2002/Ecore#//EJavaClass"
    body = f"""
      <eClassifiers xsi:type="ecore:EClass" name="C">
        <eStructuralFeatures xsi:type="ecore:EAttribute" name="plain">
          <eGenericType eClassifier="{java_class}"/>
        </eStructuralFeatures>
        <eStructuralFeatures xsi:type="ecore:EAttribute" name="wild">
          <eGenericType eClassifier="{java_class}"><eTypeArguments/></eGenericType>
        </eStructuralFeatures>
      </eClassifiers>"""
    loaded = load_ecore("generic.ecore", ecore_package('name="g"', body))
    nodes, _ = build_scope(loaded.roots, 0)
    # DefaultComparisonScope drops EGenericTypes without arguments unless they are an argument or bound.
    assert [qualified_name(n) for n in nodes] == [
        "g",
        "g/C",
        "g/C/plain",
        "g/C/wild",
        "g/C/wild/@eGenericType",
        "g/C/wild/@eGenericType/@eTypeArguments.0",
    ]
    by_name = {qualified_name(n): n for n in nodes}
    # eType is set for the plain generic type (it is a plain type), not for EJavaClass<?>.
    assert by_name["g/C/plain"].ref_set == (True,) and by_name["g/C/wild"].ref_set == (False,)


def test_matching_ahead_of_time_every_10000_left_objects() -> None:
    from pyecore.ecore import EEnum, EEnumLiteral, EPackage

    from benchmark.tracks.mapping.baselines.emfcompare import match_roots

    def enumeration(count: int, *extra: str) -> EPackage:
        package = EPackage("p")
        literals = EEnum("E")
        package.eClassifiers.append(literals)
        for name in (*(f"L{i}" for i in range(count)), *extra):
            literals.eLiterals.append(EEnumLiteral(name))
        return package

    # 10,004 left objects: after the 10,000th, the literals (over 1,000 pending) are matched ahead of
    # time, their containers first; an object without a counterpart is not given up then, and only the
    # main pass records it as unmatched.
    result = match_roots([enumeration(10_001, "onlyLeft")], [enumeration(10_001)])
    assert result.statistics.match_ahead_passes == 1
    assert len(result.pairs()) == 10_003
    assert [qualified_name(m.left) for m in result.matches if not m.is_pair] == ["p/E/onlyLeft"]
