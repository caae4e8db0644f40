"""Delta operators on hand-made packages: exact effects, clashes, the seed, and the documentation."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.tracks.roundtrip.models.ecoremodel import (
    EcoreAttribute,
    EcoreClass,
    EcorePackage,
    EcoreReference,
)
from benchmark.tracks.roundtrip.models.forward import forward
from benchmark.tracks.roundtrip.models.lines import sql_lines
from benchmark.tracks.roundtrip.models.sql_io import write_sql
from benchmark.tracks.roundtrip.operators import OPERATORS, OperatorNotApplicable, choose, operator

SHOP = EcorePackage(
    "shop",
    classifiers=(
        EcoreClass(
            "Order",
            features=(
                EcoreAttribute("tags", "EString", upper=-1),
                EcoreReference("lines", "Line", upper=-1, containment=True, opposite="order"),
                EcoreReference("buyer", "Customer"),
            ),
        ),
        EcoreClass("Line", features=(EcoreReference("order", "Order", opposite="lines"),)),
        EcoreClass("Customer", features=(EcoreReference("favourites", "Order", upper=-1),)),
        EcoreClass("Vip", supertypes=("Customer",)),
    ),
)


def both_sides(name: str, target: tuple[str, ...]) -> tuple[EcorePackage, str]:
    op = operator(name)
    delta_s = op.edit_s(SHOP, target)
    delta_t = op.edit_t(forward(SHOP), target)
    assert write_sql(forward(delta_s)) == write_sql(delta_t)
    return delta_s, write_sql(delta_t)


def test_rename_class_renames_auxiliary_tables_and_foreign_keys() -> None:
    delta_s, text = both_sides("rename_class", ("Order", "OrderRecord"))
    assert [c.name for c in delta_s.classes] == ["OrderRecord", "Line", "Customer", "Vip"]
    assert delta_s.eclass("Customer").feature("favourites").type == "OrderRecord"  # type: ignore[union-attr]
    assert 'name="OrderRecord_tags"' in text and "Order_tags" not in text
    assert 'name="fk_Line_lines_owner_id_OrderRecord"' in text
    assert 'referencedTable="OrderRecord"' in text


def test_delete_class_takes_its_containments_and_unmapped_opposites_along() -> None:
    cart = EcorePackage(
        "cart",
        classifiers=(
            EcoreClass(
                "Cart",
                features=(EcoreReference("items", "Item", upper=-1, containment=True, opposite="cart"),),
            ),
            EcoreClass(
                "Item",
                features=(
                    EcoreAttribute("name", "EString"),
                    EcoreReference("cart", "Cart", opposite="items"),
                ),
            ),
        ),
    )
    op = operator("delete_class")
    # Item.cart (the container side) is not mapped, so Cart counts as unreferenced; Item is contained by Cart.
    assert op.targets_s(cart) == [("Cart",)] and op.targets_t(forward(cart)) == [("Cart",)]
    delta_s = op.edit_s(cart, ("Cart",))
    delta_t = op.edit_t(forward(cart), ("Cart",))
    assert delta_s == EcorePackage(
        "cart", classifiers=(EcoreClass("Item", features=(EcoreAttribute("name", "EString"),)),)
    )
    assert [line.text for line in sql_lines(delta_t)] == [
        "schema cart",
        "table Item",
        "column Item/id; type=INTEGER; nullable=false; unique=false",
        "column Item/name; type=VARCHAR(255); nullable=true; unique=false",
        "primary key Item; columns=[id]",
    ]
    assert write_sql(forward(delta_s)) == write_sql(delta_t)


def test_delete_class_refuses_a_class_with_a_subclass_or_a_mapped_reference_to_it() -> None:
    op = operator("delete_class")
    targets = op.targets_s(SHOP)
    assert ("Customer",) not in targets  # Vip extends it
    assert ("Order",) not in targets  # Customer.favourites is typed Order


def test_to_many_turns_the_foreign_key_into_a_join_table() -> None:
    delta_s, text = both_sides("to_many", ("Order", "buyer"))
    assert delta_s.eclass("Order").feature("buyer").upper == -1  # type: ignore[union-attr]
    assert "buyer_id" not in text and 'name="Order_buyer"' in text


def test_to_many_is_only_offered_for_references_with_a_column() -> None:
    # Line.order is the container side of a containment pair: it owns no column, so it is not a target.
    assert operator("to_many").targets_s(SHOP) == [("Order", "buyer")]


def test_change_attribute_type_of_a_many_valued_attribute_changes_the_value_column() -> None:
    _, text = both_sides("change_attribute_type", ("Order", "tags", "EDate"))
    assert 'xmi:id="Order_tags.value" name="value" type="DATE"' in text


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("add_class", ("Vip", "a", "EString", "b", "EInt")),
        ("rename_class", ("Order", "Vip")),
        ("add_attribute", ("Customer", "favourites", "EString")),
        ("rename_attribute", ("Order", "tags", "buyer")),
        ("add_reference", ("Customer", "favourites", "Order")),
    ],
)
def test_clashing_targets_are_not_applicable(name: str, target: tuple[str, ...]) -> None:
    op = operator(name)
    with pytest.raises(OperatorNotApplicable):
        op.edit_s(SHOP, target)
    with pytest.raises(OperatorNotApplicable):
        op.edit_t(forward(SHOP), target)


def test_a_new_feature_must_not_clash_with_a_subclass_feature() -> None:
    package = EcorePackage(
        "p",
        classifiers=(
            EcoreClass("A"),
            EcoreClass("B", supertypes=("A",), features=(EcoreAttribute("x", "EInt"),)),
        ),
    )
    with pytest.raises(OperatorNotApplicable, match="inheritance"):
        operator("add_attribute").edit_s(package, ("A", "x", "EInt"))


def test_choose_is_deterministic_and_uses_every_item() -> None:
    items = list(range(7))
    picks = [choose(items, seed, "salt") for seed in range(200)]
    assert picks == [choose(items, seed, "salt") for seed in range(200)]
    assert set(picks) == set(items)
    assert [choose(items, seed, "other") for seed in range(200)] != picks
    with pytest.raises(OperatorNotApplicable):
        choose([], 0, "salt")


def test_unknown_operator_names_list_the_valid_ones() -> None:
    with pytest.raises(KeyError, match="add_class, delete_class"):
        operator("merge_classes")


def test_every_operator_and_witness_is_documented() -> None:
    docs = (Path(__file__).resolve().parents[4] / "docs" / "ROUNDTRIP.md").read_text(encoding="utf-8")
    for op in OPERATORS:
        section = docs.split(f"### `{op.name}`", 1)
        assert len(section) == 2, f"docs/ROUNDTRIP.md has no section for {op.name}"
        body = section[1].split("\n### ", 1)[0]
        for witness in op.witnesses:
            assert f"`{witness.describe()}`" in body, (op.name, witness.describe())
