"""Hypothesis strategies for random, valid USE models with typed invariants and SOIL states.

Used by the transformation law test (``tests/tracks/ocl/transform/test_transform_law.py``). A generated model
has what the study's models have: inheritance, attributes of the basic types, an enumeration and a collection
type, the same attribute name in unrelated classes, binary associations with every multiplicity shape
(``0..1``, ``1``, ``*``, ``1..*``, ``0..3``; ordered ends), reflexive ones, compositions, an association
class now and then. Invariants are built by a typed generator over that model, so each one checks:
navigation to one and to many, the collect shorthand (``xs.attr``, ``xs.role``), implicit iterator
variables, ``forAll``/``exists``/``one``/``select``/``reject``/``collect``/``any``/``isUnique``/
``closure``, ``allInstances``, ``oclIsKindOf``, ``let``, ``if``, arithmetic, strings, undefined values.
States assign random values (or none) and random links, also ones that break multiplicities, so the
evaluator's undefined and N/A paths are exercised too.

Names come from pools of ordinary model words, so the renaming draws from its synonym table as it does on
real models.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hypothesis import assume
from hypothesis import strategies as st

from benchmark.lang.ocl.model import role_name_for
from benchmark.tracks.ocl.transform.names import is_legal

CLASS_POOL = ("Person", "Course", "Room", "Book", "Order", "Team", "Player", "Shop")
SUB_POOL = ("Student", "Member", "Manager")
ATTRIBUTE_POOL = (
    ("name", "String"),
    ("age", "Integer"),
    ("price", "Real"),
    ("title", "String"),
    ("score", "Integer"),
    ("active", "Boolean"),
    ("level", "Level"),
    ("tags", "Set(Integer)"),
    ("code", "String"),
    ("capacity", "Integer"),
)
ROLE_POOL = ("owner", "members", "items", "friends", "boss", "staff", "parts", "holder", "players", "shops")
MULTIPLICITIES = ("0..1", "1", "*", "1..*", "0..3")


@dataclass
class GenClass:
    name: str
    supers: tuple[str, ...] = ()
    attributes: list[tuple[str, str]] = field(default_factory=list)
    association_class: bool = False

    @property
    def declaration(self) -> str:
        return self.name


@dataclass
class GenEnd:
    cls: str
    mult: str
    role: str
    ordered: bool = False

    @property
    def many(self) -> bool:
        return self.mult not in ("0..1", "1")


@dataclass
class GenAssociation:
    name: str
    kind: str
    ends: tuple[GenEnd, GenEnd]
    attributes: list[tuple[str, str]] = field(default_factory=list)  # association class when non-empty
    is_class: bool = False


@dataclass
class GenModel:
    classes: list[GenClass]
    associations: list[GenAssociation]

    def cls(self, name: str) -> GenClass:
        return next(c for c in self.classes if c.name == name)

    def ancestors(self, name: str) -> list[str]:
        out = [name]
        for sup in self.cls(name).supers:
            out.extend(a for a in self.ancestors(sup) if a not in out)
        return out

    def descendants(self, name: str) -> list[str]:
        return [c.name for c in self.classes if name in self.ancestors(c.name)]

    def attributes(self, name: str) -> list[tuple[str, str]]:
        return [a for anc in self.ancestors(name) for a in self.cls(anc).attributes]

    def navigations(self, name: str) -> list[tuple[str, str, bool, bool]]:
        """(role, target class, to many, ordered) navigable from class ``name`` (inherited included)."""
        found = []
        ancestors = self.ancestors(name)
        for assoc in self.associations:
            for i, end in enumerate(assoc.ends):
                other = assoc.ends[1 - i]
                if other.cls in ancestors:
                    found.append((end.role, end.cls, end.many, end.ordered))
                if assoc.is_class and end.cls in ancestors:  # participant -> link objects
                    found.append((assoc.name[:1].lower() + assoc.name[1:], assoc.name, other.many, False))
            if assoc.is_class and assoc.name in ancestors:
                found.extend((end.role, end.cls, False, False) for end in assoc.ends)
        return found

    def concrete(self) -> list[str]:
        return [c.name for c in self.classes if not c.association_class]

    def use_text(self, invariants: list[tuple[str, str, str]]) -> str:
        out = ["model Generated", "", "enum Level { low, high }", ""]
        for c in self.classes:
            if c.association_class:
                continue
            supers = f" < {', '.join(c.supers)}" if c.supers else ""
            out.append(f"class {c.name}{supers}")
            if c.attributes:
                out.append("attributes")
                out.extend(f"  {n} : {t}" for n, t in c.attributes)
            out.append("end")
        for a in self.associations:
            head = "associationclass" if a.is_class else a.kind
            out.append(f"{head} {a.name} between")
            out.extend(f"  {e.cls}[{e.mult}] role {e.role}{' ordered' if e.ordered else ''}" for e in a.ends)
            if a.is_class and a.attributes:
                out.append("attributes")
                out.extend(f"  {n} : {t}" for n, t in a.attributes)
            out.append("end")
        if invariants:
            out.append("constraints")
            out.extend(f"context {c} inv {n}: {e}" for c, n, e in invariants)
        return "\n".join(out) + "\n"


#: legal USE names that a renaming must still find new names for: ``$`` first (USE's grammar allows it),
#: underscores and digits, names the renaming makes up itself (qualified and numbered fallbacks) and
#: synonyms of the pools' words
ODD_IDENTIFIERS = (
    "$Person", "$x", "_", "__a", "_9", "Person2", "RegisteredPerson", "RecordedBook", "recordedName",
    "linkedOwner", "ownerLink", "Individual", "Volume", "name2", "Name_1", "x9", "A", "b",
)  # fmt: skip
#: names the generated text uses for itself (the model, its enumeration and its literals, the association
#: class's attribute, the generator's variables ``v1``..., roles ``peer1``...): never drawn
_FIXED = re.compile(r"Generated|Level|low|high|grade|self|result|v\d+|peer\d+")


def _free_for_the_generator(name: str) -> bool:
    return is_legal(name[1:] if name.startswith("$") else name) and not _FIXED.fullmatch(name)


def odd_identifiers() -> st.SearchStrategy[str]:
    """Legal USE names of unusual shapes (:data:`ODD_IDENTIFIERS` and any ``$``/letter/``_`` first)."""
    shaped = st.from_regex(r"\$?[A-Za-z_][A-Za-z0-9_]{0,7}", fullmatch=True)
    return st.one_of(st.sampled_from(ODD_IDENTIFIERS), shaped).filter(_free_for_the_generator)


def _named(draw: st.DrawFn, model: GenModel, names: st.SearchStrategy[str]) -> GenModel:
    """The model with every class, attribute, role and association name replaced by a drawn name, one
    distinct new name per old name (so every name the model kept apart stays apart). A drawn association
    class whose USE link role (its name, first letter in lower case) would read as another name is
    rejected."""
    old = [c.name for c in model.classes] + [a.name for a in model.associations]
    old += [n for c in model.classes for n, _ in c.attributes]
    old += [e.role for a in model.associations for e in a.ends]
    old = list(dict.fromkeys(n for n in old if n != "grade"))
    new = draw(st.lists(names, min_size=len(old), max_size=len(old), unique=True))
    to = dict(zip(old, new, strict=True))
    to["grade"] = "grade"
    link_roles = [role_name_for(to[a.name]) for a in model.associations if a.is_class]
    assume(len(set(link_roles)) == len(link_roles))
    assume(not set(link_roles) & (set(new) - {to[a.name] for a in model.associations if a.is_class}))
    for c in model.classes:
        c.name = to[c.name]
        c.supers = tuple(to[s] for s in c.supers)
        c.attributes = [(to[n], t) for n, t in c.attributes]
    for a in model.associations:
        a.name = to[a.name]
        a.attributes = [(to[n], t) for n, t in a.attributes]
        for e in a.ends:
            e.cls, e.role = to[e.cls], to[e.role]
    return model


@st.composite
def models(draw: st.DrawFn, names: st.SearchStrategy[str] | None = None) -> GenModel:
    """A model over the pools' names, or, with ``names``, the same shapes with every name drawn from it
    (:func:`odd_identifiers`)."""
    pool_names = draw(st.lists(st.sampled_from(CLASS_POOL), min_size=2, max_size=3, unique=True))
    classes = [GenClass(n) for n in pool_names]
    if draw(st.booleans()):
        classes.append(GenClass(draw(st.sampled_from(SUB_POOL)), (draw(st.sampled_from(pool_names)),)))
    model = GenModel(classes, [])
    for c in classes:  # attribute names unique within a hierarchy (USE forbids redefinition)
        taken = {n for anc in model.ancestors(c.name) for n, _ in model.attributes(anc)}
        taken |= {n for d in model.descendants(c.name) for n, _ in model.cls(d).attributes}
        pool = [a for a in ATTRIBUTE_POOL if a[0] not in taken]
        c.attributes = draw(st.lists(st.sampled_from(pool), max_size=3, unique_by=lambda a: a[0]))
    for i in range(draw(st.integers(1, 3))):
        is_class = i == 0 and draw(st.integers(0, 3)) == 0
        plain = [c.name for c in classes if not c.association_class]
        a_cls = draw(st.sampled_from(plain))
        # an association class between one class, or a class and its subclass, makes its link-object
        # navigation ambiguous (USE wants a role qualification there): kept out
        related = set(model.ancestors(a_cls)) | set(model.descendants(a_cls))
        partners = [c for c in plain if c not in related] if is_class else plain
        if not partners:
            is_class, partners = False, plain
        b_cls = draw(st.sampled_from(partners))
        ends = []
        for cls in (a_cls, b_cls):
            ends.append(GenEnd(cls, draw(st.sampled_from(MULTIPLICITIES)), ""))
        for j, end in enumerate(ends):
            end.ordered = end.many and draw(st.booleans())
            seen_from = ends[1 - j].cls
            end.role = _free_role(model, draw, seen_from, [e.role for e in ends])
        kind = "composition" if not is_class and draw(st.integers(0, 4)) == 0 else "association"
        if kind == "composition":
            ends[0].mult = draw(st.sampled_from(("0..1", "1")))
        name = ("Link" if is_class else "Rel") + f"{i}{ends[0].cls}{ends[1].cls}"
        assoc = GenAssociation(name, kind, (ends[0], ends[1]), is_class=is_class)
        if is_class:
            assoc.attributes = [("grade", "Integer")]
            classes.append(GenClass(name, (), list(assoc.attributes), association_class=True))
        model.associations.append(assoc)
    return _named(draw, model, names) if names is not None else model


def _free_role(model: GenModel, draw: st.DrawFn, seen_from: str, others: list[str]) -> str:
    comp = set(model.ancestors(seen_from)) | set(model.descendants(seen_from))
    for c in list(comp):
        comp |= set(model.ancestors(c)) | set(model.descendants(c))
    taken = set(others)
    for c in comp:
        taken |= {n for n, _ in model.attributes(c)} | {n[0] for n in model.navigations(c)}
        taken |= {n for d in model.descendants(c) for n, _ in model.cls(d).attributes}
    pool = [r for r in ROLE_POOL if r not in taken]
    if pool:
        return draw(st.sampled_from(pool))
    n = 1
    while f"peer{n}" in taken:
        n += 1
    return f"peer{n}"


# ---------------------------------------------------------------------------------------- invariants
class _Gen:
    """A typed expression generator over one model; ``draw`` makes every choice."""

    def __init__(self, model: GenModel, draw: st.DrawFn) -> None:
        self.model = model
        self.draw = draw
        self.fresh = 0

    def var(self) -> str:
        self.fresh += 1
        return f"v{self.fresh}"

    def pick(self, items):  # type: ignore[no-untyped-def]
        return self.draw(st.sampled_from(items))

    # a source is (text, class, implicit): implicit sources are written as bare names
    def feature(self, source: tuple[str, str, bool], name: str) -> str:
        text, _, implicit = source
        return name if implicit else f"{text}.{name}"

    def boolean(self, scope: list[tuple[str, str, bool]], depth: int) -> str:
        src = self.pick(scope)
        attrs = self.model.attributes(src[1])
        navs = self.model.navigations(src[1])
        options = ["cmp", "defined", "literal"]
        if depth > 0:
            options += ["not", "and", "or", "implies", "let", "if"]
            if navs:  # navigations are what the transformations rewrite: drawn more often
                options += ["forAll", "exists", "one", "select", "isUnique", "any", "implicit", "collect"] * 2
                options += ["kindofcollection"] * 4
            options += ["allInstances", "kind"]
        if any(t == "String" for _, t in attrs):
            options.append("string")
        if any(t == "Boolean" for _, t in attrs):
            options.append("boolattr")
        if any(t == "Level" for _, t in attrs):
            options.append("enum")
        if any(t == "Set(Integer)" for _, t in attrs):
            options.append("tags")
        choice = self.pick(options)
        d = depth - 1
        if choice == "cmp":
            op = self.pick(["<", ">", "<=", ">=", "=", "<>"])
            return f"{self.integer(scope, max(d, 0))} {op} {self.integer(scope, max(d, 0))}"
        if choice == "defined":
            feats = [n for n, t in attrs if not t.startswith("Set")] + [
                n for n, _, many, _ in navs if not many
            ]
            if not feats:
                return "true"
            method = self.pick(["isDefined()", "oclIsUndefined()", "isUndefined()"])
            return f"{self.feature(src, self.pick(feats))}.{method}"
        if choice == "literal":
            return self.pick(["true", "false"])
        if choice == "not":
            return f"not ({self.boolean(scope, d)})"
        if choice in ("and", "or", "implies"):
            return f"({self.boolean(scope, d)}) {choice} ({self.boolean(scope, d)})"
        if choice == "let":
            name = self.var()
            value = self.integer(scope, d)
            body = self.boolean(scope, d)
            return f"let {name} = {value} in {name} >= 0 or ({body})"
        if choice == "if":
            parts = [self.boolean(scope, d) for _ in range(3)]
            return "if {} then {} else {} endif".format(*parts)
        if choice in ("forAll", "exists", "one", "select", "any", "collect", "isUnique"):
            coll, target = self.collection(scope, d)
            v = self.var()
            inner = [(v, target, False), *[s for s in scope if not s[2]]]
            body = self.boolean(inner, d)
            if choice == "select":
                kind, op, n = (
                    self.pick(["select", "reject"]),
                    self.pick([">", "<=", "="]),
                    self.pick([0, 1, 2]),
                )
                return f"{coll}->{kind}({v} | {body})->size() {op} {n}"
            if choice == "any":
                return f"{coll}->any({v} | {body}).isDefined()"
            if choice == "collect":
                ints = [n for n, t in self.model.attributes(target) if t == "Integer"]
                if not ints:
                    return f"{coll}->collect({v} | {v})->size() >= 0"
                return f"{coll}->collect({v} | {v}.{self.pick(ints)})->includes({self.pick([0, 1, 18])})"
            if choice == "isUnique":
                feats = [n for n, t in self.model.attributes(target) if t in ("Integer", "String")]
                key = f"{v}.{self.pick(feats)}" if feats else v
                return f"{coll}->isUnique({v} | {key})"
            return f"{coll}->{choice}({v} | {body})"
        if choice == "kindofcollection":  # tells a Set from a Bag, an OrderedSet from a Sequence
            coll, _ = self.collection(scope, d)
            return self.pick(
                [
                    f"{coll} = {coll}->asSet()",
                    f"{coll} = {coll}->asOrderedSet()",
                    f"{coll}->including({coll}->any(true))->size() = {coll}->size()",
                    f"{coll}->asBag() = {coll}",
                ]
            )
        if choice == "implicit":  # an iterator without variable: bare names refer to its element
            coll, target = self.collection(scope, d)
            body = self.boolean([("", target, True)], d)
            return f"{coll}->{self.pick(['forAll', 'exists'])}({body})"
        if choice == "allInstances":
            cls = self.pick(
                self.model.concrete() + [c.name for c in self.model.classes if c.association_class]
            )
            v = self.var()
            return f"{cls}.allInstances()->exists({v} | {self.boolean([(v, cls, False)], d)})"
        if choice == "kind":
            cls = self.pick([c.name for c in self.model.classes])
            text = "self" if not src[2] and src[0] == "self" else src[0] if not src[2] else "self"
            return f"{text}.{self.pick(['oclIsKindOf', 'oclIsTypeOf'])}({cls})"
        if choice == "string":
            name = self.pick([n for n, t in attrs if t == "String"])
            feat = self.feature(src, name)
            return self.pick(
                [f"{feat} <> ''", f"{feat}.size() > 1", f"{feat} = 'bob'", f"{feat}.concat('x') <> 'ax'"]
            )
        if choice == "boolattr":
            return self.feature(src, self.pick([n for n, t in attrs if t == "Boolean"]))
        if choice == "enum":
            return f"{self.feature(src, self.pick([n for n, t in attrs if t == 'Level']))} = Level::high"
        name = self.pick([n for n, t in attrs if t == "Set(Integer)"])
        return f"{self.feature(src, name)}->includes({self.pick([1, 2])})"

    def integer(self, scope: list[tuple[str, str, bool]], depth: int) -> str:
        src = self.pick(scope)
        ints = [n for n, t in self.model.attributes(src[1]) if t == "Integer"]
        navs = self.model.navigations(src[1])
        options = ["literal"] + (["attr"] * 3 if ints else [])
        if depth > 0:
            options += ["plus", "size", "allsize", "if"]
            if navs:
                options += ["sum", "toone"]
        choice = self.pick(options)
        d = depth - 1
        if choice == "literal":
            return str(self.pick([0, 1, 2, 18, -1]))
        if choice == "attr":
            return self.feature(src, self.pick(ints))
        if choice == "plus":
            return f"({self.integer(scope, d)} {self.pick(['+', '-', '*'])} {self.integer(scope, d)})"
        if choice == "size":
            if navs:
                return f"{self.collection(scope, d)[0]}->size()"
            return "1"
        if choice == "allsize":
            return f"{self.pick(self.model.concrete())}.allInstances()->size()"
        if choice == "if":
            parts = [self.boolean(scope, d), self.integer(scope, d), self.integer(scope, d)]
            return "if {} then {} else {} endif".format(*parts)
        if choice == "sum":  # the collect shorthand over a collection
            coll, target = self.collection(scope, d)
            tints = [n for n, t in self.model.attributes(target) if t == "Integer"]
            if not tints:
                return f"{coll}->size()"
            return f"{coll}.{self.pick(tints)}->sum()"
        ones = [(r, c) for r, c, many, _ in navs if not many]
        if not ones:
            return "0"
        role, target = self.pick(ones)
        tints = [n for n, t in self.model.attributes(target) if t == "Integer"]
        if not tints:
            return f"{self.feature(src, role)}->size()"
        return f"{self.feature(src, role)}.{self.pick(tints)}"

    def collection(self, scope: list[tuple[str, str, bool]], depth: int) -> tuple[str, str]:
        """A collection of objects and its element class."""
        src = self.pick(scope)
        navs = self.model.navigations(src[1])
        if not navs:
            cls = self.pick(self.model.concrete())
            return f"{cls}.allInstances()", cls
        role, target, many, _ = self.pick(navs)
        base = self.feature(src, role) if many else f"{self.feature(src, role)}->asSet()"
        if not many and self.draw(st.booleans()):
            base = f"{self.feature(src, role)}->asSequence()"  # another arrow on a to-one navigation
        further = self.model.navigations(target)
        if depth > 0 and further and self.draw(st.booleans()):
            role2, target2, _, _ = self.pick(further)
            base, target = f"{base}.{role2}", target2  # collect shorthand over navigations
            base = f"{base}->asSet()" if self.draw(st.booleans()) else base
        if depth > 0 and self.draw(st.integers(0, 3)) == 0:
            reflexive = [r for r, c, _, _ in self.model.navigations(target) if c == target]
            if reflexive:
                v = self.var()
                base = f"{base}->closure({v} | {v}.{self.pick(reflexive)})"
        return base, target


@st.composite
def invariants(draw: st.DrawFn, model: GenModel, count: int = 4) -> list[tuple[str, str, str]]:
    """``count`` invariants (context, name, expression)."""
    out = []
    for i in range(count):
        gen = _Gen(model, draw)
        context = draw(st.sampled_from([c.name for c in model.classes]))
        scope = [("self", context, False)]
        if draw(st.booleans()):
            scope = [("self", context, True)]  # bare names: the implicit self
        out.append((context, f"law{i}", gen.boolean(scope, 2)))
    return out


# ---------------------------------------------------------------------------------------- states
_VALUES = {
    "String": ("''", "'a'", "'bob'"),
    "Integer": ("0", "1", "18", "-1", "70"),
    "Real": ("0.5", "2.0", "-1.5"),
    "Boolean": ("true", "false"),
    "Level": ("Level::low", "#high"),
    "Set(Integer)": ("Set{}", "Set{1}", "Set{1, 2}"),
}


def _object_name(class_name: str, index: int, used: set[str]) -> str:
    """``person0``: the class name in lower case (letters and digits only) and the index; another
    spelling when that is taken (``$A`` and ``a`` would both give ``a0``) or starts with no letter."""
    name = re.sub(r"[^a-z0-9]", "", class_name.lower()) + str(index)
    if name in used or not name[:1].isalpha():
        name = f"o{len(used)}_{name}"
    used.add(name)
    return name


@st.composite
def states(draw: st.DrawFn, model: GenModel) -> str:
    """A SOIL state: objects of the concrete classes, random values, random (not always valid) links."""
    lines = []
    used: set[str] = set()
    objects: dict[str, list[str]] = {}
    for cls in model.concrete():
        for i in range(draw(st.integers(0, 3))):
            name = _object_name(cls, i, used)
            lines.append(f"!new {cls}('{name}')")
            for anc in model.ancestors(cls):
                objects.setdefault(anc, []).append(name)
            for attr, t in model.attributes(cls):
                if draw(st.integers(0, 4)) > 0:
                    lines.append(f"!set {name}.{attr} := {draw(st.sampled_from(_VALUES[t]))}")
    seen = set()
    for assoc in model.associations:
        left, right = objects.get(assoc.ends[0].cls, []), objects.get(assoc.ends[1].cls, [])
        if not left or not right:
            continue
        pairs = draw(
            st.lists(st.tuples(st.sampled_from(left), st.sampled_from(right)), max_size=5, unique=True)
        )
        for n, (a, b) in enumerate(pairs):
            if (assoc.name, a, b) in seen:
                continue
            seen.add((assoc.name, a, b))
            if assoc.is_class:
                link = _object_name(assoc.name, n, used)
                lines.append(f"!new {assoc.name}('{link}') between ({a}, {b})")
                if draw(st.booleans()):
                    lines.append(f"!set {link}.grade := {draw(st.sampled_from(_VALUES['Integer']))}")
            else:
                lines.append(f"!insert ({a}, {b}) into {assoc.name}")
    return "\n".join(lines) + "\n"


@dataclass
class Scenario:
    model: GenModel
    invariants: list[tuple[str, str, str]]
    states: list[str]


@st.composite
def scenarios(draw: st.DrawFn, names: st.SearchStrategy[str] | None = None) -> Scenario:
    model = draw(models(names))
    return Scenario(model, draw(invariants(model)), [draw(states(model)) for _ in range(2)])
