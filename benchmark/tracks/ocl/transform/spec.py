"""The natural-language specification of the constraints, and how it follows a transformation.

``specification.json`` maps a model to its constraints: ``{model: {constraint id: {"text": ..., "ocl":
...}}}`` (a file holding one model's entries, ``{constraint id: {...}}``, is read too). ``ocl`` is the
reference constraint, either a whole ``context C inv name: expr`` or only its expression; an expression
alone takes its context from the model's invariant of that id (``name`` or ``C::name``).

Transforming a specification keeps every key and every other field, rewrites ``ocl`` with the model
(it is one more invariant of the :class:`~.subject.Subject`) and replaces identifiers in ``text``
(:func:`substitutions` gives the original names and their final ones). A text that marks identifiers
with backticks (as ``validation/ocl`` does: ``A `Member` ...``) has them replaced inside the backticks
only, whole words, so the prose around them is never touched. Otherwise every whole-word, case-sensitive
occurrence is replaced, except words of two letters or fewer and common English words (a role called
``of`` must not rewrite the prose); such prose may use a model name as an ordinary word too ("30 days"
when an attribute is ``days``), and it is replaced there as well, since the text cannot tell the two
apart. When one old name has several new ones (``name`` of two classes renamed apart) the one of the
constraint's context class wins, and an article before a replaced name follows it (``a Book`` -> ``an
Item``, ``a `Book``` -> ``an `Item```).
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.core.errors import InputFormatError
from benchmark.lang.ocl.errors import OclError
from benchmark.lang.ocl.model import Invariant, Model
from benchmark.lang.ocl.parser import parse_expression
from benchmark.lang.ocl.printer import print_expr
from benchmark.lang.ocl.textfile import read_text_file
from benchmark.lang.ocl.use_io import parse_constraints
from benchmark.tracks.ocl.transform.mapping import Mapping
from benchmark.tracks.ocl.transform.names import component
from benchmark.tracks.ocl.transform.subject import detached

_PROSE = frozenset(
    """the and for not are but all any can has have had its was were with from that this these those each
    every some must may should shall will when then than into onto over under upon only also both none
    one two more most less least same other such which where who whom whose what""".split()
)


@dataclass
class SpecEntry:
    """One constraint of the specification, parsed against its model."""

    constraint_id: str
    entry: dict[str, Any]
    invariants: list[Invariant] = field(default_factory=list)  # empty when the entry has no OCL
    whole: bool = True  # ``ocl`` was a whole ``context ... inv`` (False: an expression only)
    context: str | None = None  # context class (original name), for text substitution


def read_specification(path: Path) -> dict[str, Any]:
    text = read_text_file(path, OclError, "specification")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputFormatError(
            f"not JSON: {error.msg}", file=str(path), line=error.lineno, column=error.colno
        ) from None
    if not isinstance(data, dict):
        raise InputFormatError(
            "a specification is a JSON object (model -> constraint id -> entry)", file=str(path)
        )
    return data


def _is_entry(value: Any) -> bool:
    return isinstance(value, dict) and ("text" in value or "ocl" in value)


def model_entries(spec: dict[str, Any], names: tuple[str, ...]) -> tuple[str | None, dict[str, Any]]:
    """The key and entries of the model known by one of ``names`` (model name, file stem); a
    specification of one model (entries at the top level) belongs to any model."""
    if spec and all(_is_entry(v) for v in spec.values()):
        return None, spec
    for name in names:
        if isinstance(spec.get(name), dict):
            return name, spec[name]
    return None, {}


def parse_entries(
    entries: dict[str, Any], model: Model, known: list[Invariant], *, model_key: str | None, file: str
) -> list[SpecEntry]:
    """Parse the ``ocl`` of every entry against ``model`` (``known``: invariants that give a bare
    expression its context)."""
    parsed = []
    for cid, entry in entries.items():
        where = f"$.{model_key}.{cid}" if model_key is not None else f"$.{cid}"
        if not isinstance(entry, dict):
            raise InputFormatError(
                "a constraint entry is an object with `text' and `ocl'", file=file, field=where
            )
        item = SpecEntry(cid, entry)
        ocl = entry.get("ocl")
        if ocl is None:
            item.context = _context_of(cid, known)
            parsed.append(item)
            continue
        if not isinstance(ocl, str):
            raise InputFormatError("`ocl' must be a string", file=file, field=f"{where}.ocl")
        try:
            if re.match(r"\s*(--[^\n]*\n\s*)*context\b", ocl):
                item.invariants = parse_constraints(ocl, detached(model), file=file)
                item.context = item.invariants[0].class_name if item.invariants else None
            else:
                item.whole = False
                context = _invariant_for(cid, known)
                if context is None:
                    raise InputFormatError(
                        f"`ocl' is an expression without `context', and the model has no invariant `{cid}' "
                        "to take the context from",
                        file=file,
                        field=f"{where}.ocl",
                    )
                expr = parse_expression(ocl, file=file)
                item.invariants = [
                    Invariant(
                        context.class_name, context.name, expr, context.variables, context.explicit_variables
                    )
                ]
                item.context = context.class_name
        except OclError as error:  # positions are within the `ocl' string; the field says which one
            if error.field is None:
                error.field = f"{where}.ocl"
            raise
        parsed.append(item)
    return parsed


def _invariant_for(cid: str, known: list[Invariant]) -> Invariant | None:
    for inv in known:
        if cid in (inv.name, inv.qualified_name):
            return inv
    return None


def _context_of(cid: str, known: list[Invariant]) -> str | None:
    inv = _invariant_for(cid, known)
    return inv.class_name if inv is not None else None


def entry_ocl(item: SpecEntry, invariants: list[Invariant]) -> str:
    """The ``ocl`` text of a transformed entry, in the form the original had."""
    if not item.whole:
        return print_expr(invariants[0].expr)
    lines = []
    for inv in invariants:
        variables = f"{', '.join(inv.variables)} : " if inv.explicit_variables else ""
        lines.append(f"context {variables}{inv.class_name} inv {inv.name}: {print_expr(inv.expr)}")
    return "\n".join(lines)


@dataclass(frozen=True)
class Substitution:
    old: str
    new: str
    owners: frozenset[str]  # original classes the name belongs to (empty: a type or association name)


def substitutions(mapping: Mapping, model: Model) -> list[Substitution]:
    """Identifier replacements implied by ``mapping`` for the original ``model``."""
    found: list[Substitution] = []

    def add(old: str, new: str, owners: frozenset[str] = frozenset()) -> None:
        if old != new:
            found.append(Substitution(old, new, owners))

    def role_owners(association: str) -> frozenset[str]:
        assoc = model.associations.get(association)
        return frozenset(e.class_name for e in assoc.ends) if assoc is not None else frozenset()

    for old, new in mapping.renamed:
        kind = old[0]
        if kind == "attribute":
            add(old[1][1], new[1][1], frozenset({old[1][0]}))
        elif kind == "role":
            add(old[1][1], new[1][1], role_owners(old[1][0]))
        else:
            add(old[1], new[1])
    for record in mapping.reified_attributes:
        owner, attribute = record["old"][1]
        add(attribute, record["role"][1][1], frozenset({owner}))
    for record in mapping.reified_associations:
        add(record["old"][1], record["class"][1])
        for end in record["ends"]:
            add(end["old"][1][1], end["role"][1][1], role_owners(record["old"][1]))
    return found


def replace_identifiers(text: str, subs: list[Substitution], context: str | None, model: Model) -> str:
    """``text`` with identifiers replaced (see the module docstring): inside backticks only when the
    text marks identifiers with backticks, else every whole-word occurrence but small and common words."""
    marked = "`" in text
    table = _table(subs, context, model, prose=not marked)
    if not table:
        return text
    names = "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True))
    word = re.compile(r"(?<![\w$])(" + names + r")(?!\w)")
    article = r"(?:\b(a|an|A|An)(\s+))?"

    def with_article(m: re.Match[str], new: str, changed: bool) -> str:
        if m.group(1) is None or not changed:
            return (m.group(1) or "") + (m.group(2) or "") + new
        fitting = "an" if _vowel_sound(new.lstrip("`")) else "a"
        return (fitting.capitalize() if m.group(1)[0].isupper() else fitting) + m.group(2) + new

    if marked:

        def span(m: re.Match[str]) -> str:
            inner = m.group(3)
            new = word.sub(lambda w: table[w.group(1)], inner)
            first_changed = word.match(inner) is not None
            return with_article(m, f"`{new}`", first_changed)

        return re.sub(article + r"`([^`\n]*)`", span, text)
    return re.sub(article + word.pattern, lambda m: with_article(m, table[m.group(3)], True), text)


def _table(subs: list[Substitution], context: str | None, model: Model, *, prose: bool) -> dict[str, str]:
    """Old name -> new name; one of the context class's elements wins when a name has several."""
    related: frozenset[str] = frozenset()
    if context is not None and context in model.classes:
        related = component(model.classes[context])
    table: dict[str, str] = {}
    preferred: set[str] = set()
    for sub in subs:
        if prose and (len(sub.old) <= 2 or sub.old.lower() in _PROSE):
            continue
        mine = bool(sub.owners & related)
        if sub.old not in table or (mine and sub.old not in preferred):
            table[sub.old] = sub.new
            if mine:
                preferred.add(sub.old)
    return table


def _vowel_sound(word: str) -> bool:
    """Whether ``word`` takes "an" (a rough English rule: a written vowel, except a spoken "you"/"wun")."""
    lower = word.lower()
    return lower[:1] in "aeiou" and not lower.startswith(("uni", "use", "usu", "eu", "one"))


def transformed_entry(
    item: SpecEntry, invariants: list[Invariant], subs: list[Substitution], model: Model
) -> dict:
    """The entry with ``text`` and ``ocl`` transformed and every other field kept."""
    out = copy.deepcopy(item.entry)
    if isinstance(out.get("text"), str):
        out["text"] = replace_identifiers(out["text"], subs, item.context, model)
    if item.invariants:
        out["ocl"] = entry_ocl(item, invariants)
    return out


__all__ = [
    "SpecEntry",
    "Substitution",
    "entry_ocl",
    "model_entries",
    "parse_entries",
    "read_specification",
    "replace_identifiers",
    "substitutions",
    "transformed_entry",
]
