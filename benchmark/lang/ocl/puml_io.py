"""Reading and writing the PlantUML class-diagram subset that model datasets use.

Read (one statement per line, positions kept for errors):

* ``@startuml [Name]`` / ``@enduml`` (the model is called ``Name``, else after the file);
* ``class C``, ``abstract class C``, ``abstract C``, ``interface C`` (an abstract class),
  ``class C extends A, B``, optional ``<<stereotype>>``, a body ``{ ... }`` with attributes
  ``[+-#~] name : Type`` and operations ``[+-#~] name(p : T, ...) [: Type]``;
* ``enum E { a, b }`` or one literal per line;
* generalization ``Sub --|> Super``, ``Super <|-- Sub`` (also ``..|>`` / ``<|..``);
* associations ``A "role 1" -- "other *" B : Name``: an end label holds a role and a multiplicity,
  either may be missing, and ``{ordered}``; ``*--``/``--*`` is a composition, ``o--``/``--o`` an
  aggregation (the diamond marks the whole); ``-->``, ``<--``, ``<-->``, ``x--`` record navigability;
  direction hints (``-up->``) and line styles (``-[#red]-``) are accepted;
* association classes ``(A, B) .. C`` on the association between ``A`` and ``B``;
* n-ary associations through a diamond: ``<> Name`` and ``Name -- "role mult" C`` per end;
* ``note as OCL ... end note`` (any alias starting with ``OCL``) holding OCL contexts:
  ``context C inv n: e``, ``context C::op(...) : T body: e``, ``... pre/post``,
  ``context C::attr : T derive: e`` / ``init: e``;
* ``'`` comments, ``/' ... '/`` block comments, and layout directives (``skinparam``, ``hide``,
  ``show``, ``title``, ``left to right direction``, ``package``/``namespace`` braces), which carry no
  model content. Any other line is a positioned error.

Missing multiplicities are read as ``*``; a missing association name becomes ``A_B``. Types may use the
OCL names or the common aliases ``int``, ``boolean``, ``double``, ``float``, ``string``. The writer always
writes roles, multiplicities and names, so write -> read gives an equal model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lark import Token

from benchmark.lang.ocl import ast
from benchmark.lang.ocl.errors import ModelError, OclSyntaxError
from benchmark.lang.ocl.model import (
    Association,
    AssociationEnd,
    Attribute,
    Class,
    Enumeration,
    Model,
    Multiplicity,
    Operation,
    Parameter,
    Position,
)
from benchmark.lang.ocl.parser import parse_tree, parse_type, split_lines, transform
from benchmark.lang.ocl.printer import print_expr
from benchmark.lang.ocl.textfile import read_text_file
from benchmark.lang.ocl.types import Type
from benchmark.lang.ocl.use_io import (
    _ModelAssembler,
    _ModelBuilder,
    _RawInvariantContext,
    _RawOperationContext,
    type_text,
)

TYPE_ALIASES = {
    "int": "Integer",
    "Int": "Integer",
    "integer": "Integer",
    "long": "Integer",
    "short": "Integer",
    "float": "Real",
    "double": "Real",
    "real": "Real",
    "bool": "Boolean",
    "boolean": "Boolean",
    "string": "String",
    "str": "String",
}

_IDENT = r"[A-Za-z_$][A-Za-z0-9_$]*"
_MULT_PART = r"(?:\*|\d+(?:\.\.(?:\d+|\*))?)"
_MULT = re.compile(rf"{_MULT_PART}(?:,{_MULT_PART})*")
_STEREO = r"(?:\s*<<[^>]*>>)?"
_CLASS = re.compile(
    rf"^(?P<kind>abstract\s+class|abstract|class|interface|enum)\s+(?P<name>{_IDENT}){_STEREO}"
    rf"(?:\s+extends\s+(?P<supers>{_IDENT}(?:\s*,\s*{_IDENT})*))?{_STEREO}\s*(?P<brace>\{{)?\s*(?P<rest>.*?)\s*$"
)
_ASSOC_CLASS = re.compile(rf"^\(\s*(?P<a>{_IDENT})\s*,\s*(?P<b>{_IDENT})\s*\)\s*\.\.+\s*(?P<c>{_IDENT})\s*$")
_DIAMOND = re.compile(rf"^<>\s*(?P<name>{_IDENT})\s*$")
# an arrow: optional head, a line of `-` or `.` (with an optional direction hint or [style]), optional head
_ARROW_TEXT = (
    r"(?P<lhead><\||\*|o|<|x|\+|#|\})?(?P<line>[-.]+(?:(?:up|down|left|right|u|d|l|r|\[[^\]]*\])[-.]*)?)"
    r"(?P<rhead>\|>|\*|o|>|x|\+|#|\{)?"
)
_ARROW = re.compile(rf"^{_ARROW_TEXT}$")
_RELATION = re.compile(
    rf'^(?P<left>{_IDENT})\s*(?:"(?P<llabel>[^"]*)")?\s*(?P<arrow>[^\s"]*[-.][^\s"]*?)\s*(?:"(?P<rlabel>[^"]*)")?\s*'
    rf"(?P<right>{_IDENT})\s*(?::\s*(?P<name>.*?))?\s*$"
)
_ATTRIBUTE = re.compile(rf"^(?:\{{field\}}\s*)?[-+#~]?\s*(?P<name>{_IDENT})\s*:\s*(?P<type>.+?)\s*$")
_OPERATION_HEAD = re.compile(rf"^(?:\{{method\}}\s*)?[-+#~]?\s*(?P<name>{_IDENT})\s*\(")


def _split_operation(text: str) -> tuple[str, str, str | None] | None:
    """``name(p : Set(T), q : U) : R`` -> name, parameter text, result type text (nested parentheses ok)."""
    m = _OPERATION_HEAD.match(text)
    if m is None:
        return None
    depth, i = 1, m.end()
    while i < len(text) and depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    if depth:
        return None
    rest = text[i:].strip()
    if rest and not rest.startswith(":"):
        return None
    return m["name"], text[m.end() : i - 1], rest[1:].strip() or None if rest else None


def _split_top_level(text: str) -> list[str]:
    """Split at commas outside parentheses."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        depth += {"(": 1, ")": -1}.get(ch, 0)
        current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


_IGNORED = re.compile(
    r"^(skinparam|hide|show|title|left to right direction|top to bottom direction|scale|header|footer|caption"
    r"|center header|right header|left header|!theme|allow_mixing|set namespaceSeparator)\b"
)
_CONTAINER = re.compile(
    rf"^(package|namespace)\s+(?:\"[^\"]*\"|[\w.$]+)(?:\s+as\s+{_IDENT})?{_STEREO}\s*\{{\s*$"
)


@dataclass
class _End:
    cls: str
    label: str | None
    column: int


@dataclass
class _Relation:
    line: int
    column: int
    kind: str  # association | aggregation | composition
    name: str | None
    left: _End
    right: _End
    left_navigable: bool
    right_navigable: bool
    whole_is_right: bool


@dataclass
class _Reader:
    file: str | None
    model_name: str
    classes: dict[str, Class] = field(default_factory=dict)
    enums: dict[str, Enumeration] = field(default_factory=dict)
    generalizations: list[tuple[str, str, int, int]] = field(default_factory=list)
    relations: list[_Relation] = field(default_factory=list)
    assoc_classes: list[tuple[str, str, str, int, int]] = field(default_factory=list)
    diamonds: dict[str, tuple[int, int]] = field(default_factory=dict)
    notes: list[tuple[int, str]] = field(default_factory=list)
    attribute_types: list[tuple[Class, str, str, int, int]] = field(default_factory=list)
    operation_specs: list[tuple[Class, str, str, str | None, int, int]] = field(default_factory=list)

    def error(self, message: str, line: int, column: int = 1) -> OclSyntaxError:
        return OclSyntaxError(message, file=self.file, line=line, column=column)


def read_puml(path: str | Path) -> Model:
    path = Path(path)
    text = read_text_file(path, ModelError, "model")
    return parse_puml(text, file=str(path), default_name=path.stem)


def _strip_block_comments(lines: list[str]) -> list[str]:
    out = []
    inside = False
    for raw in lines:
        line = raw
        if inside:
            end = line.find("'/")
            if end < 0:
                out.append("")
                continue
            line = " " * (end + 2) + line[end + 2 :]
            inside = False
        start = line.find("/'")
        if start >= 0:
            end = line.find("'/", start + 2)
            if end < 0:
                inside = True
                line = line[:start]
            else:
                line = line[:start] + " " * (end + 2 - start) + line[end + 2 :]
        out.append(line)
    return out


def parse_puml(text: str, *, file: str | None = None, default_name: str = "Model") -> Model:
    """Parse PlantUML text into a finalized :class:`Model`."""
    reader = _Reader(file, default_name)
    lines = _strip_block_comments(split_lines(text))
    i = 0
    depth = 0  # open package/namespace braces
    while i < len(lines):
        number = i + 1
        raw = lines[i]
        line = raw.strip()
        column = len(raw) - len(raw.lstrip()) + 1
        i += 1
        if not line or line.startswith("'"):
            continue
        if line.startswith("@startuml"):
            name = line[len("@startuml") :].strip()
            if name:
                if not re.fullmatch(_IDENT, name):
                    raise reader.error(f"model name `{name}' is not an identifier", number, column)
                reader.model_name = name
            continue
        if line.startswith("@enduml") or _IGNORED.match(line):
            continue
        if line.startswith("legend"):
            while i < len(lines) and lines[i].strip() != "endlegend":
                i += 1
            i += 1
            continue
        if _CONTAINER.match(line):
            depth += 1
            continue
        if line == "}" and depth > 0:
            depth -= 1
            continue
        if line.startswith("note "):
            i = _read_note(reader, lines, i, line, number, column)
            continue
        m = _CLASS.match(line)
        if m:
            i = _read_classifier(reader, lines, i, m, number, column)
            continue
        m = _ASSOC_CLASS.match(line)
        if m:
            reader.assoc_classes.append((m["a"], m["b"], m["c"], number, column))
            continue
        m = _DIAMOND.match(line)
        if m:
            reader.diamonds[m["name"]] = (number, column)
            continue
        m = _RELATION.match(line)
        if m:
            _read_relation(reader, m, number, column, raw)
            continue
        raise reader.error(f"unsupported PlantUML statement `{line}'", number, column)
    return _assemble(reader)


def _read_note(reader: _Reader, lines: list[str], i: int, line: str, number: int, column: int) -> int:
    """Skip an ordinary note; keep the content of ``note as OCL...`` for the OCL contexts."""
    alias = re.match(rf"^note\s+as\s+(?P<alias>{_IDENT})\s*$", line)
    block = alias is not None or re.match(r"^note\s+(left|right|top|bottom)(\s+of\s+[\w.$]+)?\s*$", line)
    if not block:
        return i  # one-line note: `note "text" as N`, `note left of A : text`
    start = i
    while i < len(lines) and lines[i].strip() not in ("end note", "endnote"):
        i += 1
    if i >= len(lines):
        raise reader.error("`note' without `end note'", number, column)
    if alias is not None and alias["alias"].startswith("OCL"):
        reader.notes.append((start + 1, "\n".join(lines[start:i])))
    return i + 1


def _read_classifier(
    reader: _Reader, lines: list[str], i: int, m: re.Match[str], number: int, column: int
) -> int:
    kind = m["kind"].split()[0]
    name = m["name"]
    pos = Position(reader.file, number, column + m.start("name"))
    body_lines: list[tuple[int, int, str]] = []
    rest = m["rest"] or ""
    if m["brace"]:
        if rest:
            if not rest.endswith("}"):
                raise reader.error(
                    "put the members of a class on their own lines", number, column + m.start("rest")
                )
            inner = rest[:-1].strip()
            if inner:
                for part in re.split(r"[;,]" if kind == "enum" else r";", inner):
                    if part.strip():
                        body_lines.append((number, column + m.start("rest"), part.strip()))
        else:
            while True:
                if i >= len(lines):
                    raise reader.error(f"`{name}' has no closing `}}'", number, column)
                raw = lines[i]
                i += 1
                text = raw.strip()
                if text == "}":
                    break
                if (
                    text
                    and not text.startswith("'")
                    and not re.fullmatch(r"(--|\.\.|==|__)(.*(--|\.\.|==|__))?", text)
                ):
                    body_lines.append((i, len(raw) - len(raw.lstrip()) + 1, text))
    elif rest:
        raise reader.error(f"unexpected `{rest}' after `{name}'", number, column + m.start("rest"))
    if name in reader.classes or name in reader.enums:
        raise reader.error(f"`{name}' is declared twice", number, column)
    if kind == "enum":
        literals: list[str] = []
        for line_no, col, text in body_lines:
            for lit in (x.strip() for x in text.split(",")):
                if not lit:
                    continue
                if not re.fullmatch(_IDENT, lit):
                    raise reader.error(f"`{lit}' is not an enumeration literal", line_no, col)
                literals.append(lit)
        reader.enums[name] = Enumeration(name, tuple(literals), pos)
        return i
    supers = tuple(s.strip() for s in m["supers"].split(",")) if m["supers"] else ()
    cls = Class(name, abstract=kind in ("abstract", "interface"), supers=supers, position=pos)
    reader.classes[name] = cls
    for line_no, col, text in body_lines:
        text = re.sub(r"^\{(static|abstract|classifier)\}\s*", "", text)
        op = _split_operation(text)
        if op is not None:
            reader.operation_specs.append((cls, op[0], op[1], op[2], line_no, col))
            continue
        attr = _ATTRIBUTE.match(text)
        if attr:
            reader.attribute_types.append(
                (cls, attr["name"], attr["type"], line_no, col + attr.start("type"))
            )
            continue
        raise reader.error(f"expected `name : Type' or `name(params) : Type', found `{text}'", line_no, col)
    return i


def _read_relation(reader: _Reader, m: re.Match[str], number: int, column: int, raw: str) -> None:
    arrow = _ARROW.match(m["arrow"])
    where = column + m.start("arrow")
    if arrow is None:
        raise reader.error(f"unsupported relation `{m['arrow']}'", number, where)
    lhead, rhead = arrow["lhead"] or "", arrow["rhead"] or ""
    dotted = "." in arrow["line"]
    left = _End(m["left"], m["llabel"], column + m.start("left"))
    right = _End(m["right"], m["rlabel"], column + m.start("right"))
    if rhead == "|>" or lhead == "<|":
        if m["llabel"] is not None or m["rlabel"] is not None:
            raise reader.error("a generalization carries no end labels", number, where)
        sub, sup = (left.cls, right.cls) if rhead == "|>" else (right.cls, left.cls)
        reader.generalizations.append((sub, sup, number, where))
        return
    if dotted:
        raise reader.error(
            f"dotted relation `{m['arrow']}' (dependency) is not supported; use `--' for associations and "
            "`(A, B) .. C' for association classes",
            number,
            where,
        )
    kind = "association"
    whole_is_right = False
    if "*" in (lhead, rhead) or "o" in (lhead, rhead):
        if lhead in ("*", "o") and rhead in ("*", "o"):
            raise reader.error("an association has at most one whole (diamond)", number, where)
        kind = "composition" if "*" in (lhead, rhead) else "aggregation"
        whole_is_right = rhead in ("*", "o")
    left_navigable = lhead not in ("x",) and not (rhead == ">" and lhead != "<")
    right_navigable = rhead not in ("x",) and not (lhead == "<" and rhead != ">")
    name = m["name"]
    if name is not None:
        name = re.sub(r"^[<>]\s*|\s*[<>]$", "", name).strip()
        if not re.fullmatch(_IDENT, name):
            raise reader.error(
                f"association name `{name}' is not an identifier", number, column + m.start("name")
            )
    reader.relations.append(
        _Relation(
            number, column, kind, name or None, left, right, left_navigable, right_navigable, whole_is_right
        )
    )


def _label(reader: _Reader, end: _End, line: int) -> tuple[str | None, Multiplicity, bool]:
    role: str | None = None
    multiplicity: Multiplicity | None = None
    ordered = False
    text = end.label or ""
    for token in re.findall(r"\{[^}]*\}|[^\s{}]+", text):
        if token.startswith("{"):
            words = {w.strip() for w in token[1:-1].split(",")}
            if "ordered" in words:
                ordered = True
            continue
        if _MULT.fullmatch(token):
            if multiplicity is not None:
                raise reader.error(f"end label `{text}' has two multiplicities", line, end.column)
            multiplicity = Multiplicity.parse(token)
        elif re.fullmatch(rf"[-+#~]?{_IDENT}", token):
            if role is not None:
                raise reader.error(f"end label `{text}' has two role names", line, end.column)
            role = token.lstrip("-+#~")
        else:
            raise reader.error(f"cannot read `{token}' in end label `{text}'", line, end.column)
    return role, multiplicity or Multiplicity.parse("*"), ordered


def _type(reader: _Reader, model: Model, text: str, line: int, column: int) -> Type:
    text = TYPE_ALIASES.get(text.strip(), text.strip())
    try:
        texpr = parse_type(text, file=reader.file, line=line, column=column)
    except OclSyntaxError:
        raise reader.error(f"cannot read the type `{text}'", line, column) from None
    return _ModelAssembler(reader.file).resolve(model, _alias_type(texpr))


def _alias_type(t: ast.TypeExpr) -> ast.TypeExpr:
    if isinstance(t, ast.SimpleTypeExpr) and t.name in TYPE_ALIASES:
        return ast.SimpleTypeExpr(TYPE_ALIASES[t.name], line=t.line, column=t.column)
    if isinstance(t, ast.CollectionTypeExpr):
        return ast.CollectionTypeExpr(t.kind, _alias_type(t.elem), line=t.line, column=t.column)
    if isinstance(t, ast.TupleTypeExpr):
        return ast.TupleTypeExpr(tuple((n, _alias_type(p)) for n, p in t.parts), line=t.line, column=t.column)
    return t


def _assemble(reader: _Reader) -> Model:
    model = Model(reader.model_name, file=reader.file)
    for enum in reader.enums.values():
        model.add_enumeration(enum)
    for cls in reader.classes.values():
        model.add_class(cls)
    for sub, sup, line, column in reader.generalizations:
        for name in (sub, sup):
            if name not in model.classes:
                raise reader.error(f"undefined class `{name}' in generalization", line, column)
        cls = model.classes[sub]
        if sup not in cls.supers:
            cls.supers = (*cls.supers, sup)
    for cls, name, type_text_, line, column in reader.attribute_types:
        cls.attributes.append(
            Attribute(
                name,
                _type(reader, model, type_text_, line, column),
                position=Position(reader.file, line, column),
            )
        )
    for cls, name, params_text, result_text, line, column in reader.operation_specs:
        params = []
        for part in _split_top_level(params_text):
            pm = re.fullmatch(rf"(?P<name>{_IDENT})\s*:\s*(?P<type>.+)", part)
            if pm is None:
                raise reader.error(f"parameter `{part}' is not `name : Type'", line, column)
            params.append(Parameter(pm["name"], _type(reader, model, pm["type"], line, column)))
        result = _type(reader, model, result_text, line, column) if result_text else None
        if any(o.name == name for o in cls.operations):
            raise reader.error(f"class `{cls.name}' already defines an operation `{name}'", line, column)
        cls.operations.append(
            Operation(name, tuple(params), result, position=Position(reader.file, line, column))
        )
    _assemble_associations(reader, model)
    model.finalize()
    for line, body in reader.notes:
        _apply_note(reader, model, line, body)
    return model


def _assemble_associations(reader: _Reader, model: Model) -> None:
    used_names: set[str] = set()
    plain: list[tuple[_Relation, Association]] = []
    nary: dict[str, list[tuple[_Relation, _End]]] = {}
    for rel in reader.relations:
        ends = []
        for end in (rel.left, rel.right):
            if end.cls in reader.diamonds:
                continue
            if end.cls not in model.classes:
                raise reader.error(f"undefined class `{end.cls}' in association", rel.line, end.column)
            ends.append(end)
        diamond = next((e.cls for e in (rel.left, rel.right) if e.cls in reader.diamonds), None)
        if diamond is not None:
            if len(ends) != 1 or rel.kind != "association" or rel.name is not None:
                raise reader.error(
                    "a diamond line connects the diamond and one class, without name", rel.line, rel.column
                )
            nary.setdefault(diamond, []).append((rel, ends[0]))
            continue
        assoc_ends = []
        for end, navigable in ((rel.left, rel.left_navigable), (rel.right, rel.right_navigable)):
            role, mult, ordered = _label(reader, end, rel.line)
            assoc_ends.append(
                AssociationEnd(
                    end.cls, mult, role, ordered, navigable, Position(reader.file, rel.line, end.column)
                )
            )
        if rel.whole_is_right:
            assoc_ends.reverse()  # the first end is the whole, as in USE
        name = rel.name or _fresh_name(f"{rel.left.cls}_{rel.right.cls}", used_names, model)
        if name in used_names:
            raise reader.error(f"association `{name}' is declared twice", rel.line, rel.column)
        used_names.add(name)
        plain.append(
            (
                rel,
                Association(name, rel.kind, assoc_ends, position=Position(reader.file, rel.line, rel.column)),
            )
        )
    for a, b, c, line, column in reader.assoc_classes:
        if c not in model.classes:
            raise reader.error(f"undefined class `{c}' for the association class", line, column)
        matches = [
            (rel, assoc) for rel, assoc in plain if sorted(e.class_name for e in assoc.ends) == sorted((a, b))
        ]
        if len(matches) > 1:
            matches = [(rel, assoc) for rel, assoc in matches if assoc.name == c]
        if len(matches) != 1:
            found = "no" if not matches else "several"
            raise reader.error(
                f"{found} association between `{a}' and `{b}' for association class `{c}'", line, column
            )
        rel, assoc = matches[0]
        used_names.discard(assoc.name)
        ac = Association(
            c, assoc.kind, assoc.ends, is_class=True, position=Position(reader.file, line, column)
        )
        plain[plain.index((rel, assoc))] = (rel, ac)  # the association class keeps the line's place
        model.classes[c].association = ac
    for rel, assoc in plain:
        if not assoc.is_class:
            model.add_association(assoc)
        elif assoc.name in model.associations:
            raise reader.error(
                f"model already contains an association named `{assoc.name}'", rel.line, rel.column
            )
        else:
            model.associations[assoc.name] = assoc
    for diamond, lines in nary.items():
        nary_ends: list[AssociationEnd] = []
        for rel, end in lines:
            role, mult, ordered = _label(reader, end, rel.line)
            nary_ends.append(
                AssociationEnd(
                    end.cls, mult, role, ordered, position=Position(reader.file, rel.line, end.column)
                )
            )
        line, column = reader.diamonds[diamond]
        if len(nary_ends) < 3:
            raise reader.error(f"diamond `{diamond}' needs at least three connected classes", line, column)
        model.add_association(
            Association(diamond, "association", nary_ends, position=Position(reader.file, line, column))
        )
    for diamond, (line, column) in reader.diamonds.items():
        if diamond not in nary:
            raise reader.error(f"diamond `{diamond}' is not connected", line, column)


def _fresh_name(base: str, used: set[str], model: Model) -> str:
    name, n = base, 1
    while name in used or name in model.classes:
        n += 1
        name = f"{base}{n}"
    return name


# ------------------------------------------------------------------------------------------- OCL notes
class _NoteBuilder(_ModelBuilder):
    def ocl_note(self, c: list[Any]) -> list[Any]:
        return c

    def body_context(self, c: list[Any]) -> tuple[str, Any]:
        cls, op = c[0], c[1]
        params = [x for x in c[2:] if isinstance(x, tuple)]
        result = next((x for x in c[2:] if isinstance(x, ast.TypeExpr)), None)
        return "body", (cls, op, params, result, c[-1])

    def attribute_context(self, c: list[Any]) -> tuple[str, Any]:
        cls, attr, typ, kind, expr = c
        return "attribute", (cls, attr, typ, str(kind), expr)


def _apply_note(reader: _Reader, model: Model, line: int, body: str) -> None:
    padding = "\n" * (line - 1)
    tree = parse_tree(padding + body, "ocl_note", file=reader.file)
    assembler = _ModelAssembler(reader.file)
    for item in transform(_NoteBuilder(reader.file), tree):
        if isinstance(item, _RawInvariantContext):
            assembler.add_invariants(model, item)
        elif isinstance(item, _RawOperationContext):
            assembler.add_conditions(model, item)
        elif item[0] == "body":
            cls_tok, op_tok, params, result, expr = item[1]
            op = _operation(assembler, model, cls_tok, op_tok, params, result)
            if op.body is not None:
                raise assembler.error(f"operation `{cls_tok}::{op_tok}' has two bodies", op_tok)
            if op.result is None:  # as in .use files (USE's ASTOperation): a query needs its result type
                raise assembler.error(f"Missing return type for OCL query operation `{op_tok}'.", op_tok)
            op.body = expr
        else:
            cls_tok, attr_tok, typ, kind, expr = item[1]
            cls = model.classes.get(str(cls_tok))
            attr = next((a for a in cls.attributes if a.name == str(attr_tok)), None) if cls else None
            if cls is None or attr is None:
                raise assembler.error(f"class `{cls_tok}' has no attribute `{attr_tok}'", attr_tok)
            if assembler.resolve(model, typ) != attr.type:
                raise assembler.error(
                    f"type of `{cls_tok}::{attr_tok}' does not match its declaration", attr_tok
                )
            if kind == "derive":
                attr.derive = expr
            else:
                attr.init = expr


def _operation(
    assembler: _ModelAssembler,
    model: Model,
    cls_tok: Token,
    op_tok: Token,
    params: list[Any],
    result: ast.TypeExpr | None,
) -> Operation:
    cls = model.classes.get(str(cls_tok))
    if cls is None:
        raise assembler.error(f"undefined class `{cls_tok}'", cls_tok)
    op = next((o for o in cls.operations if o.name == str(op_tok)), None)
    if op is None:
        raise assembler.error(f"class `{cls.name}' has no operation `{op_tok}'", op_tok)
    declared = tuple(Parameter(str(n), assembler.resolve(model, t)) for n, t in params)
    result_type = assembler.resolve(model, result) if result is not None else None
    if declared != op.params or result_type != op.result:
        raise assembler.error(f"signature of `{cls.name}::{op.name}' does not match its declaration", op_tok)
    return op


# ------------------------------------------------------------------------------------------- writing
def _end_label(end: AssociationEnd) -> str:
    label = f"{end.name} {end.multiplicity}"
    if end.ordered:
        label += " {ordered}"
    return f'"{label}"'


def _arrow(assoc: Association) -> str:
    first, second = assoc.ends
    left = "<" if first.navigable and not second.navigable else ""
    right = ">" if second.navigable and not first.navigable else ""
    if not first.navigable and not second.navigable:
        left, right = "x", "x"
    if assoc.kind == "composition":
        left = "*"
    elif assoc.kind == "aggregation":
        left = "o"
    return f"{left}--{right}"


def _signature(op: Operation) -> str:
    params = ", ".join(f"{p.name} : {type_text(p.type)}" for p in op.params)
    result = f" : {type_text(op.result)}" if op.result is not None else ""
    return f"{op.name}({params}){result}"


def write_puml(model: Model) -> str:
    """The model as a PlantUML class diagram (OCL parts in a ``note as OCL``)."""
    out = [f"@startuml {model.name}", ""]
    for enum in model.enumerations.values():
        out.append(f"enum {enum.name} {{")
        out.extend(f"  {lit}" for lit in enum.literals)
        out.append("}")
    for cls in model.classes.values():
        head = "abstract class" if cls.abstract else "class"
        if cls.attributes or cls.operations:
            out.append(f"{head} {cls.name} {{")
            out.extend(f"  {a.name} : {type_text(a.type)}" for a in cls.attributes)
            out.extend(f"  {_signature(op)}" for op in cls.operations)
            out.append("}")
        else:
            out.append(f"{head} {cls.name}")
    out.append("")
    for cls in model.classes.values():
        for sup in cls.supers:
            out.append(f"{sup} <|-- {cls.name}")
    # binary associations in model order, then n-ary ones: the order reading gives back
    ordered = [a for a in model.associations.values() if not a.is_nary]
    ordered += [a for a in model.associations.values() if a.is_nary]
    for assoc in ordered:
        if assoc.is_nary:
            if assoc.is_class:
                raise ModelError(
                    f"the n-ary association class `{assoc.name}' cannot be written as PlantUML",
                    **_where(assoc),
                )
            out.append(f"<> {assoc.name}")
            out.extend(f"{assoc.name} -- {_end_label(end)} {end.class_name}" for end in assoc.ends)
            continue
        first, second = assoc.ends
        out.append(
            f"{first.class_name} {_end_label(first)} {_arrow(assoc)} {_end_label(second)} {second.class_name}"
            f" : {assoc.name}"
        )
        if assoc.is_class:
            out.append(f"({first.class_name}, {second.class_name}) .. {assoc.name}")
    note = _note_lines(model)
    if note:
        out.append("")
        out.append("note as OCL")
        out.extend(note)
        out.append("end note")
    out.append("")
    out.append("@enduml")
    return "\n".join(out) + "\n"


def _where(assoc: Association) -> dict[str, Any]:
    p = assoc.position
    return {"file": p.file, "line": p.line, "column": p.column}


def _ocl(expr: ast.Expr) -> str:
    return print_expr(expr, for_plantuml=True)


def _note_lines(model: Model) -> list[str]:
    lines: list[str] = []
    for cls in model.classes.values():
        for attr in cls.attributes:
            for kind, expr in (("derive", attr.derive), ("init", attr.init)):
                if expr is not None:
                    lines.append(
                        f"context {cls.name}::{attr.name} : {type_text(attr.type)} {kind}: {_ocl(expr)}"
                    )
        for op in cls.operations:
            if op.body is not None:
                lines.append(f"context {cls.name}::{_signature(op)} body: {_ocl(op.body)}")
            for cond in op.conditions:
                name = f" {cond.name}" if cond.name else ""
                lines.append(f"context {cls.name}::{_signature(op)} {cond.kind}{name}: {_ocl(cond.expr)}")
    for inv in model.invariants:
        variables = f"{', '.join(inv.variables)} : " if inv.explicit_variables else ""
        lines.append(f"context {variables}{inv.class_name} inv {inv.name}: {_ocl(inv.expr)}")
    return lines


__all__ = ["TYPE_ALIASES", "parse_puml", "read_puml", "write_puml"]
