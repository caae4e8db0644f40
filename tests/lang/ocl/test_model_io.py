"""``.use`` and PlantUML readers/writers: what they read, what they refuse, and fixed round trips."""

from __future__ import annotations

import pytest
from campus import CAMPUS_USE

from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.errors import ModelError, OclSyntaxError
from benchmark.lang.ocl.model import MANY, Multiplicity, model_key, models_equal
from benchmark.lang.ocl.puml_io import parse_puml, write_puml
from benchmark.lang.ocl.types import CollectionType
from benchmark.lang.ocl.use_io import parse_use, write_use


def test_use_reader_builds_the_model() -> None:
    m = parse_use(CAMPUS_USE, file="campus.use")
    assert list(m.enumerations) == ["Term", "Light", "Paint"]
    person = m.classes["Person"]
    assert person.abstract and [a.name for a in person.attributes] == ["name", "age", "nick", "initial"]
    assert person.attribute("initial").derive is not None
    assert m.classes["Student"].supers == ("Person",)
    assert m.classes["Student"].attribute("name") is person.attribute("name")  # inherited
    assert m.classes["Student"].operation("greeting").owner == "Person"
    assert m.associations["Owns"].kind == "composition"
    assert m.associations["Enrollment"].is_class and m.classes["Enrollment"].association is not None
    held_in = m.associations["HeldIn"]
    assert [e.name for e in held_in.ends] == ["course", "room"]  # USE's default role names
    assert held_in.ends[1].multiplicity == Multiplicity(((1, 1),))
    (nav,) = m.classes["Student"].navigations("enrollment")
    assert nav.result_type == CollectionType("Set", m.classes["Enrollment"].type)
    assert [i.qualified_name for i in m.invariants][-1] == "Person::inv1"


@pytest.mark.parametrize(
    ("text", "ranges", "printed", "collection"),
    [
        ("0..1", ((0, 1),), "0..1", False),
        ("*", ((0, MANY),), "*", True),
        ("1..*", ((1, MANY),), "1..*", True),
        ("1..8,10", ((1, 8), (10, 10)), "1..8,10", True),
        ("3", ((3, 3),), "3", True),
        ("1", ((1, 1),), "1", False),
    ],
)
def test_multiplicities(
    text: str, ranges: tuple[tuple[int, int], ...], printed: str, collection: bool
) -> None:
    m = Multiplicity.parse(text)
    assert m.ranges == ranges and str(m) == printed and m.is_collection is collection
    model = parse_use(
        f"model M\nclass A\nend\nassociation R between\n  A[{text}] role x\n  A[*] role y\nend\n"
    )
    assert model.associations["R"].ends[0].multiplicity == m


def test_multiplicity_membership() -> None:
    m = Multiplicity.parse("1..8,10")
    assert [n for n in range(12) if m.contains(n)] == [1, 2, 3, 4, 5, 6, 7, 8, 10]


def test_use_round_trip_of_the_campus_model() -> None:
    m = parse_use(CAMPUS_USE)
    text = write_use(m)
    again = parse_use(text)
    assert models_equal(m, again)
    assert write_use(again) == text  # printing is stable
    OclEngine(again)  # and the printed OCL type checks


def test_puml_round_trip_of_the_campus_model() -> None:
    m = parse_use(CAMPUS_USE)
    text = write_puml(m)
    assert "(Student, Course) .. Enrollment" in text
    assert 'Department "owner 1" *-- "rooms *" Room : Owns' in text
    assert "<> Exam" in text
    again = parse_puml(text)
    assert models_equal(m, again), (model_key(m), model_key(again))
    assert write_puml(again) == text
    OclEngine(again)


PUML = """\
@startuml Shop
' a shop, written for these tests
skinparam classAttributeIconSize 0
hide empty members
/' block
   comment '/
enum Status {
  open
  closed,
}
enum Size { small, large }
abstract class Item {
  +name : String
  -price : double
  # count : int
  ~tags : Set(String)
  total(factor : Integer) : Real
  --
}
interface Taxable
class Book extends Item <<entity>> {
  isbn : String
}
class Customer
class Order {
  status : Status
}
class Line
Item <|-- Food
class Food
Book ..|> Taxable
Customer "buyer 1" -- "orders *" Order : Places >
Order "1" *-- "lines 1..* {ordered}" Line : Has
Line "*" --> "item 1" Item
Customer "* shoppers" o-- "*" Item : Likes
(Customer, Item) .. Like
class Like {
  stars : Integer
}
note left of Order : a plain note, ignored
note as OCL
context Item inv positive: self.price > 0
context Item::total(factor : Integer) : Real body: self.price * factor
end note
package shop {
}
@enduml
"""


def test_puml_reader_subset() -> None:
    m = parse_puml(PUML, file="shop.puml")
    assert m.name == "Shop"
    assert m.enumerations["Status"].literals == ("open", "closed")
    assert m.enumerations["Size"].literals == ("small", "large")
    item = m.classes["Item"]
    assert item.abstract and m.classes["Taxable"].abstract
    assert [(a.name, str(a.type)) for a in item.attributes] == [
        ("name", "String"),
        ("price", "Real"),
        ("count", "Integer"),
        ("tags", "Set(String)"),
    ]
    assert item.operations[0].body is not None  # from the OCL note
    assert set(m.classes["Book"].supers) == {"Item", "Taxable"}
    assert m.classes["Food"].supers == ("Item",)
    places = m.associations["Places"]
    assert [(e.class_name, e.name, str(e.multiplicity)) for e in places.ends] == [
        ("Customer", "buyer", "1"),
        ("Order", "orders", "*"),
    ]
    has = m.associations["Has"]
    assert has.kind == "composition" and has.ends[0].class_name == "Order"  # the whole comes first
    assert has.ends[1].ordered and str(has.ends[1].multiplicity) == "1..*"
    assert has.ends[0].name == "order"  # no role: USE's default
    line_item = m.associations["Line_Item"]  # unnamed: named after its classes
    assert [e.navigable for e in line_item.ends] == [False, True]
    like = m.associations["Like"]
    assert like.is_class and like.kind == "aggregation" and m.classes["Like"].association is like
    assert like.ends[0].class_name == "Customer"  # the diamond of `o--` is at Customer: the whole comes first
    assert like.ends[0].name == "shoppers"
    assert [i.qualified_name for i in m.invariants] == ["Item::positive"]


def test_puml_models_evaluate(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "shop.puml"
    path.write_text(PUML, encoding="utf-8")
    engine = OclEngine.from_file(path)
    state = engine.state_from_text(
        "!new Book('b')\n!b.price := 2.5\n!new Customer('c')\n!new Like('l') between (c, b)\n!l.stars := 5\n"
    )
    assert engine.evaluate("b.total(2)", state).text == "5.0 : Real"
    assert engine.evaluate("c.like.stars", state).text == "Bag{5} : Bag(Integer)"
    assert engine.check(state).to_json()["invariants"] == {"Item::positive": "OK"}


@pytest.mark.parametrize(
    ("line", "message", "column"),
    [
        ("class A {\n  x : Nope\n}", "undefined type `Nope'", 7),
        ("class A\nA ..> B", "dotted relation", 3),
        ("class A\nA -- B", "undefined class `B'", 6),
        ('class A\nA "1 2" -- A', "two multiplicities", 1),
        ('class A\nA "x y" -- "z" A', "two role names", 1),
        ("class A {\n  String name\n}", "expected `name : Type'", 3),
        ("class A\nclass A", "declared twice", 1),
        ("usecase U", "unsupported PlantUML statement", 1),
        ("class A\nclass B\n(A, B) .. C", "undefined class `C'", 1),
        ("class A\nclass B\nclass C\n(A, B) .. C", "no association between `A' and `B'", 1),
        ("class A\nnote as OCL\ncontext A inv: self.zz > 0\nend note", "neither an attribute", 21),
        ("class A\nnote as N\nnever closed", "`note' without `end note'", 1),
        (
            "class A {\n  f()\n}\nnote as OCL\ncontext A::f() body: 1\nend note",
            "Missing return type for OCL query operation `f'.",
            12,
        ),
    ],
)
def test_puml_errors_are_positioned(line: str, message: str, column: int) -> None:
    text = "@startuml\n" + line + "\n@enduml\n"
    with pytest.raises((OclSyntaxError, ModelError, Exception)) as caught:
        OclEngine(parse_puml(text, file="d.puml"))
    error = caught.value
    assert message in error.message  # type: ignore[attr-defined]
    assert error.file == "d.puml" and error.line is not None and error.line >= 2  # type: ignore[attr-defined]
    assert error.column == column  # type: ignore[attr-defined]


def test_puml_missing_multiplicity_reads_as_many() -> None:
    m = parse_puml("@startuml\nclass A\nclass B\nA -- B : R\n@enduml\n")
    assert [str(e.multiplicity) for e in m.associations["R"].ends] == ["*", "*"]


def test_use_writer_keeps_class_body_invariants_in_the_class() -> None:
    text = write_use(
        parse_use(CAMPUS_USE.replace("class Room\nattributes", "class Room\nattributes\n  floor : Integer"))
    )
    assert "inv " not in text.split("class Room")[1].split("end")[0]
    m = parse_use("model M\nclass A\nattributes\n  x : Integer\nconstraints\n  inv: x > 0\nend\n")
    written = write_use(m)
    assert "  constraints\n    inv inv1: x > 0\nend" in written
    assert m.invariants[0].in_class_body


def test_puml_writer_keeps_slashes_in_strings_away_from_block_comments() -> None:
    m = parse_use(
        "model M\nclass A\nattributes\n  s : String\nend\nconstraints\ncontext A inv: self.s <> 'a/' + '/b'\n"
    )
    text = write_puml(m)
    assert "/'" not in text and "'/" not in text
    assert models_equal(parse_puml(text), m)


def test_puml_relations_need_no_spaces_around_the_arrow() -> None:
    m = parse_puml('@startuml\nclass A\nclass B\nA"1"--"b *"B:R\nB--|>A\n@enduml\n')
    assert [(e.class_name, e.name, str(e.multiplicity)) for e in m.associations["R"].ends] == [
        ("A", "a", "1"),
        ("B", "b", "*"),
    ]
    assert m.classes["B"].supers == ("A",)
