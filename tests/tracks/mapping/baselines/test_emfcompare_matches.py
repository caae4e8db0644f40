"""Matches worked out by hand from EMF Compare's algorithm on small metamodels written for these tests.

Reminders used in the arithmetic below (see docs/EMF_COMPARE_PORT.md):

* threshold(o) = (weights of o's set features + containing-feature weight) x ratio(number set), and a
  pair's limit is the larger threshold of the two;
* distance = parent weight when the containers are not matched to each other (classes 20, features
  350), else 5 when the positions differ; plus name 400 x (1 - dice), other attributes 100, references
  50 (reference values compare by position: two ``EString`` hrefs are equal);
* containers are matched first; an identical candidate wins at once; otherwise the closest candidates
  are tried in ascending distance (equal distances: the later candidate replaces the earlier), and one
  is accepted only if the object is its own closest counterpart (double check).

Every expectation was also checked against EMF Compare 3.5.3 itself (the local Java build described in
docs/EMF_COMPARE_PORT.md); the tests do not need Java.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from benchmark.lang.ecore import LoadedMetamodel
from benchmark.tracks.mapping.baselines.emfcompare import MatchResult, match
from benchmark.tracks.mapping.baselines.emfcompare.naming import qualified_name

STRING = "ecore:EDataType http://www.eclipse.org/emf/2002/Ecore#//EString"
Loader = Callable[[str, str], LoadedMetamodel]
Package = Callable[[str, str], str]


def _pairs(result: MatchResult) -> set[tuple[str, str, str]]:
    return {(m.metaclass, qualified_name(m.left), qualified_name(m.right)) for m in result.pairs()}


def _unmatched(result: MatchResult) -> set[str]:
    names = set()
    for m in result.matches:
        if not m.is_pair:
            node = m.left if m.left is not None else m.right
            names.add(("-" if m.left is not None else "+") + qualified_name(node))
    return names


def _distance(result: MatchResult, source: str) -> float | None:
    return next(m.distance for m in result.pairs() if qualified_name(m.left) == source)


def _attribute(name: str, extra: str = "") -> str:
    return f'<eStructuralFeatures xsi:type="ecore:EAttribute" name="{name}" eType="{STRING}" {extra}/>'


def _eclass(name: str, *features: str, extra: str = "") -> str:
    return f'<eClassifiers xsi:type="ecore:EClass" name="{name}" {extra}>{"".join(features)}</eClassifiers>'


def _classes(*names: str) -> str:
    return "".join(_eclass(name) for name in names)


def test_same_named_features_match_across_unmatched_classes(
    load_ecore: Loader, ecore_package: Package
) -> None:
    novel = _eclass("Novel", _attribute("title"), _attribute("author"))
    magazine = _eclass("Magazine", _attribute("title"), _attribute("authors"))
    left = load_ecore("shop.ecore", ecore_package('name="shop"', novel))
    right = load_ecore("store.ecore", ecore_package('name="store"', magazine))
    result = match(left, right)
    # Packages: roots (same "container"), name only -> threshold (400 + 20) x 0.6 = 252;
    #   dice(shop, store) = 0 -> 400 > 252: unmatched.
    # Classes: threshold 252; packages not matched to each other -> +20; dice(Novel, Magazine) = 0 -> 420.
    # title/title: threshold (400 name + 50 eType + 150) x 0.6 = 360; owners unmatched -> +350;
    #   same name, same eType position -> 350 <= 360: matched across the unmatched classes.
    # author/authors: 350 + 400 x (1 - 10/11) = 386.36 > 360: unmatched.
    assert _pairs(result) == {("EAttribute", "shop/Novel/title", "store/Magazine/title")}
    assert _distance(result, "shop/Novel/title") == 350
    assert _unmatched(result) == {
        "-shop",
        "-shop/Novel",
        "-shop/Novel/author",
        "+store",
        "+store/Magazine",
        "+store/Magazine/authors",
    }


def test_renamed_class_in_matched_packages(load_ecore: Loader, ecore_package: Package) -> None:
    left = load_ecore("v1.ecore", ecore_package('name="library"', _eclass("Book", _attribute("title"))))
    right = load_ecore("v2.ecore", ecore_package('name="library"', _eclass("Books", _attribute("title"))))
    result = match(left, right)
    # Packages identical (distance 0). Book/Books: same container, same position, only the name differs:
    #   dice = 2 x 3 / (3 + 4) = 6/7 -> 400 x (1 - 6/7) = 57.14 <= 252. title/title then identical.
    assert _pairs(result) == {
        ("EPackage", "library", "library"),
        ("EClass", "library/Book", "library/Books"),
        ("EAttribute", "library/Book/title", "library/Books/title"),
    }
    assert _distance(result, "library") == 0
    assert _distance(result, "library/Book") == 400 * (1 - 6 / 7)
    assert _distance(result, "library/Book/title") == 0
    assert _unmatched(result) == set()


def test_completely_different_feature_name_inside_matched_classes(
    load_ecore: Loader, ecore_package: Package
) -> None:
    flags = 'ordered="false" unique="false" lowerBound="1"'

    def order(*features: str) -> str:
        return ecore_package('name="p"', _eclass("Order", *features))

    left = load_ecore("left.ecore", order(_attribute("date", flags), _attribute("total", flags)))
    right = load_ecore(
        "right.ecore", order(_attribute("placedOn", flags), _attribute("amount", 'lowerBound="1"'))
    )
    result = match(left, right)
    # p/p and Order/Order identical. date: name, ordered, unique, lowerBound, eType set ->
    #   (400 + 100 + 100 + 100 + 50 + 150) x 0.465 = 418.5. date/placedOn: same container, both at
    #   position 0, dice = 0 -> 400 <= 418.5: matched although no bigram is shared.
    # total/amount: position 1 both, dice = 0 -> 400, plus ordered and unique differ -> 600 > 418.5.
    assert _pairs(result) == {
        ("EPackage", "p", "p"),
        ("EClass", "p/Order", "p/Order"),
        ("EAttribute", "p/Order/date", "p/Order/placedOn"),
    }
    assert _distance(result, "p/Order/date") == 400
    assert _unmatched(result) == {"-p/Order/total", "+p/Order/amount"}


def test_objects_with_an_xmi_id_are_paired_by_id_only(load_ecore: Loader, ecore_package: Package) -> None:
    left = load_ecore(
        "left.ecore",
        ecore_package(
            'xmi:id="p1" name="a"',
            _eclass("Foo", _attribute("x"), extra='xmi:id="c1"'),
        ),
    )
    right = load_ecore(
        "right.ecore",
        ecore_package(
            'xmi:id="p1" name="b"',
            _eclass("Bar", _attribute("x"), extra='xmi:id="c1"') + _eclass("Foo"),
        ),
    )
    assert set(left.xmi_ids.values()) == {"p1", "c1"}
    result = match(left, right)
    # a/b and Foo/Bar share ids: paired whatever their names. x has no id: the proximity matcher finds
    # its container Foo matched (by id) to Bar, so x/x is identical. The right Foo has no id and every
    # left object is already matched: it stays unmatched although its name equals the left Foo's.
    assert _pairs(result) == {
        ("EPackage", "a", "b"),
        ("EClass", "a/Foo", "b/Bar"),
        ("EAttribute", "a/Foo/x", "b/Bar/x"),
    }
    assert [m.distance for m in result.pairs() if m.metaclass != "EAttribute"] == [None, None]
    assert _unmatched(result) == {"+b/Foo"}


def test_equal_distances_the_later_candidate_wins(load_ecore: Loader, ecore_package: Package) -> None:
    left = load_ecore("left.ecore", ecore_package('name="p"', _classes("A", "B", "Node")))
    right = load_ecore("right.ecore", ecore_package('name="p"', _classes("Nodes", "Noded")))
    result = match(left, right)
    # A, B: dice with Nodes/Noded is 0 (one-character comparison) -> 400 (+5) > 252: unmatched.
    # Node (position 2): Nodes (position 0) and Noded (position 1) are both at 5 + 400 x (1 - 6/7) =
    #   62.14, the same double; the TreeMap keeps the later one, Noded, whose own closest left object
    #   (A and B are gone) is Node: Node/Noded, not Node/Nodes.
    assert _pairs(result) == {("EPackage", "p", "p"), ("EClass", "p/Node", "p/Noded")}
    assert _distance(result, "p/Node") == 5 + 400 * (1 - 6 / 7)
    assert _unmatched(result) == {"-p/A", "-p/B", "+p/Nodes"}


def test_double_check_leaves_an_object_unmatched(load_ecore: Loader, ecore_package: Package) -> None:
    left = load_ecore("left.ecore", ecore_package('name="p"', _classes("Items", "Item")))
    right = load_ecore("right.ecore", ecore_package('name="p"', _classes("Item", "Itemz")))
    result = match(left, right)
    # Items (position 0) first. Item(0): 400 x (1 - 6/7) = 57.14; Itemz(1): 5 + 400 x (1 - 6/8) = 105.
    #   Item's closest left is Item(1) at 5 (same name, positions differ), not Items: rejected.
    #   Itemz's closest left is Item at 57.14 (dice(Itemz, Item) = 6/7, same position), not Items:
    #   rejected. Items stays unmatched although Itemz was free.
    # Item(1): Item(0) at 5 is closest, and Item(1) is its closest: matched. Itemz stays unmatched.
    assert _pairs(result) == {("EPackage", "p", "p"), ("EClass", "p/Item", "p/Item")}
    assert _distance(result, "p/Item") == 5
    assert _unmatched(result) == {"-p/Items", "+p/Itemz"}


@pytest.mark.parametrize("swap", [False, True])
def test_the_outcome_depends_on_which_side_drives(
    swap: bool, load_ecore: Loader, ecore_package: Package
) -> None:
    first = load_ecore("first.ecore", ecore_package('name="p"', _classes("Items", "Item")))
    second = load_ecore("second.ecore", ecore_package('name="p"', _classes("Item", "Itemz")))
    result = match(second, first) if swap else match(first, second)
    # Swapped, Item(0) drives first: its closest is Item(1) at 5, which points back: matched. Itemz then
    #   has Items at 5 + 400 x (1 - 6/8) = 105: Items' closest remaining is Itemz: matched too.
    expected = {("EPackage", "p", "p"), ("EClass", "p/Item", "p/Item")}
    if swap:
        expected.add(("EClass", "p/Itemz", "p/Items"))
    assert _pairs(result) == expected
