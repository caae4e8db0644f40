"""Realistic new names for model identifiers: a word-level synonym table and a word-like fallback.

Renaming must look like another modeller's choice of words, not obfuscation (``x1``), or it measures
nothing but the model's loss of meaning. An identifier is split into words (``startDate`` -> ``start``,
``Date``; ``HeldIn`` -> ``Held``, ``In``), each word found in :data:`SYNONYMS` (the data file
``synonyms.txt``, written for this benchmark; plurals are looked up by their singular and pluralised
again) is replaced by one of its synonyms, and the words are joined again with the original
capitalisation. The synonym of a word is drawn once per word and
seed, so ``Course``, ``course`` and ``courses`` become ``Module``, ``module`` and ``modules`` together;
the word's other synonyms are the next choices when the drawn one is taken.

An identifier with no word in the table keeps its words and gains a qualifier that is a real word and
says what kind of element it is: ``Widget`` -> ``RegisteredWidget``, ``credits`` -> ``recordedCredits``,
``rooms`` -> ``linkedRooms``, ``HeldIn`` -> ``HeldInLink`` (see :data:`QUALIFIERS`). :func:`candidates`
yields the synonym spelling first, then each qualified spelling, then numbered ones; the renaming step
takes the first one that is a legal, unused name.

A name that is not an identifier (real metamodels hold enumeration literals such as ``ost_Windows 3.1``;
a file may hold a digit first, accents, other scripts, ``$``) is renamed from its :func:`identifier_form`
(``ost_Windows_3_1``), so that every candidate is an ASCII identifier, and the candidates are finite: a
caller that rules out a set of names passes ``numbered`` greater than its size, and one of the numbered
names is then free (they are distinct, and none is a keyword: each ends in a digit).

The table has sections: the lines before the first ``[name]`` line are the general table every caller
reads; a section (``[metamodels]``: the words of metamodels, in their modelling sense) is read first by a
caller that names it (``domain="metamodels"``), the general table after it. A caller that names no
section reads exactly the general table, so a section never changes what the OCL track draws.
"""

from __future__ import annotations

import itertools
import random
import re
import unicodedata
from collections.abc import Iterator
from importlib import resources

_PLURAL_EXCEPTIONS = {"person": "people", "child": "children", "staff": "staff", "class": "classes"}
_SINGULAR_EXCEPTIONS = {v: k for k, v in _PLURAL_EXCEPTIONS.items()}


def _entries(lines: list[str]) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        word, _, rest = line.partition(":")
        synonyms = tuple(s.strip() for s in rest.split(",") if s.strip() and s.strip() != word.strip())
        out.setdefault(word.strip().lower(), synonyms)
    return out


def _parse(table: str) -> tuple[dict[str, tuple[str, ...]], dict[str, dict[str, tuple[str, ...]]]]:
    """(the general table, the sections by name) of the data file's text."""
    sections: dict[str | None, list[str]] = {None: []}
    current: str | None = None
    for line in table.strip().splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            current = stripped[1:-1].strip()
            sections.setdefault(current, [])
            continue
        sections[current].append(line)
    general = _entries(sections.pop(None))
    return general, {name: _entries(lines) for name, lines in sections.items() if name is not None}


_TABLE = resources.files("benchmark.lang.words").joinpath("synonyms.txt").read_text(encoding="utf-8")

#: word (lower case, singular) -> its synonyms: the general table of the data file ``synonyms.txt``
#: beside this module
SYNONYMS: dict[str, tuple[str, ...]]
#: section name -> (word -> synonyms): the sections of the data file, read first by callers naming them
SECTIONS: dict[str, dict[str, tuple[str, ...]]]
SYNONYMS, SECTIONS = _parse(_TABLE)


#: Qualifiers of the fallback, per element kind: (where, words). A class ``Widget`` becomes
#: ``RegisteredWidget``, an attribute ``credits`` ``recordedCredits``, an association ``HeldIn``
#: ``HeldInLink``.
QUALIFIERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "class": ("prefix", ("Registered", "Recorded", "Managed", "Listed", "Tracked")),
    "enumeration": ("suffix", ("Kind", "Option", "Choice", "Category")),
    "attribute": ("prefix", ("recorded", "stated", "declared", "current", "given")),
    "role": ("prefix", ("related", "linked", "assigned", "associated", "connected")),
    "association": ("suffix", ("Link", "Relation", "Connection", "Relationship", "Association")),
    # the kinds of a metamodel's names that the OCL track does not rename (the mapping track's variants)
    "reference": ("prefix", ("related", "linked", "assigned", "associated", "connected")),
    "package": ("suffix", ("Model", "Schema", "Domain", "Language")),
    "literal": ("suffix", ("Value", "Case", "Option", "Choice")),
}

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[^A-Za-z0-9]+")


def split_words(identifier: str) -> list[str]:
    """``startDate`` -> ``start``, ``Date``; ``ISBNCode`` -> ``ISBN``, ``Code``; separators kept."""
    return _WORD.findall(identifier)


def pluralize(word: str) -> str:
    if word in _PLURAL_EXCEPTIONS:
        return _PLURAL_EXCEPTIONS[word]
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    if re.search(r"(s|x|z|ch|sh)$", word):
        return word + "es"
    return word + "s"


def _singulars(word: str) -> list[str]:
    found = [_SINGULAR_EXCEPTIONS[word]] if word in _SINGULAR_EXCEPTIONS else []
    if word.endswith("ies"):
        found.append(word[:-3] + "y")
    if word.endswith("es"):
        found.append(word[:-2])
    if word.endswith("s") and not word.endswith("ss"):
        found.append(word[:-1])
    return found


def synonyms_of(word: str, seed: int, section: str | None = None) -> list[str]:
    """The synonyms of ``word`` in its case, the one drawn for the seed first (plurals through their
    singular); empty when the table has none. With ``section``, that section of the table is read first
    (the word, then its singulars), the general table after it."""
    lower = word.lower()
    tables = ([SECTIONS[section]] if section is not None else []) + [SYNONYMS]
    found: list[str] = []
    for table in tables:
        found = _ordered(lower, seed, table)
        if not found:
            for singular in _singulars(lower):
                found = [pluralize(s) for s in _ordered(singular, seed, table)]
                if found:
                    break
        if found:
            break
    return [_match_case(word, s) for s in found]


def synonym_of(word: str, seed: int, section: str | None = None) -> str | None:
    """The synonym drawn for ``word`` (see :func:`synonyms_of`), or None."""
    found = synonyms_of(word, seed, section)
    return found[0] if found else None


def _ordered(word: str, seed: int, table: dict[str, tuple[str, ...]]) -> list[str]:
    options = list(table.get(word, ()))
    if not options:
        return []
    drawn = random.Random(f"synonym/{seed}/{word}").choice(options)
    return [drawn, *(o for o in options if o != drawn)]


def _match_case(original: str, word: str) -> str:
    if original.isupper() and len(original) > 1:
        return word.upper()
    if original[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


_MAX_SPELLINGS = 12


def spellings(identifier: str, seed: int, section: str | None = None) -> list[str]:
    """``identifier`` with its words replaced by synonyms (``section`` read first, see
    :func:`synonyms_of`): every word drawn first, then the other combinations (at most a dozen); empty
    when no word has a synonym."""
    words = split_words(identifier)
    options: list[list[str]] = []
    for i, word in enumerate(words):
        found = synonyms_of(word, seed, section) if word[:1].isalpha() else []
        if i > 0 and words[i - 1][:1].isalpha():  # camelCase: later words start in upper case
            found = [f[:1].upper() + f[1:] for f in found]
        options.append(found or [word])
    if all(len(o) == 1 and o[0] == w for o, w in zip(options, words, strict=True)):
        return []
    out = []
    for combination in itertools.islice(itertools.product(*options), _MAX_SPELLINGS + 1):
        text = "".join(combination)
        if text != identifier:
            out.append(text)
    return out[:_MAX_SPELLINGS]


def with_synonyms(identifier: str, seed: int, section: str | None = None) -> str:
    """Every word of ``identifier`` that has a synonym replaced by the drawn one (or the identifier)."""
    found = spellings(identifier, seed, section)
    return found[0] if found else identifier


def qualified(identifier: str, kind: str, seed: int) -> list[str]:
    """The identifier with each qualifier of its kind, in an order drawn for the seed."""
    where, words = QUALIFIERS[kind]
    order = list(words)
    random.Random(f"qualifier/{seed}/{kind}/{identifier}").shuffle(order)
    if where == "suffix":
        return [identifier + q for q in order]
    first_upper = identifier[:1].isupper()
    return [
        (q[:1].upper() + q[1:] if first_upper else q) + identifier[:1].upper() + identifier[1:] for q in order
    ]


#: letters that have no ASCII form by decomposition, and the ASCII they are written with
_ASCII_SPELLING = str.maketrans(
    {"ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "œ": "oe", "Œ": "OE", "ł": "l", "Ł": "L",
     "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ı": "i"}
)  # fmt: skip
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def identifier_form(name: str) -> str:
    """``name`` as an ASCII identifier to rename from: the name itself when it is one; else its letters
    without their accents (``Größe`` -> ``Grosse``, ``café`` -> ``cafe``), every run of other characters
    one ``_`` between words (``ost_Windows 3.1`` -> ``ost_Windows_3_1``, ``ost_OS/2`` -> ``ost_OS_2``),
    and ``_`` before a digit first (``3DModel`` -> ``_3DModel``). Letters with no ASCII form (``名前``)
    separate words like other characters; empty when nothing is left."""
    if IDENTIFIER.match(name):
        return name
    decomposed = unicodedata.normalize("NFKD", name.translate(_ASCII_SPELLING))
    kept = "".join(
        c if c.isascii() and (c.isalnum() or c == "_") else " "
        for c in decomposed
        if not unicodedata.combining(c)
    )
    joined = "_".join(kept.split())
    return "_" + joined if joined[:1].isdigit() else joined


def candidates(
    identifier: str, kind: str, seed: int, section: str | None = None, *, numbered: int = 100
) -> Iterator[str]:
    """New names for an element, best first, every one an ASCII identifier: the synonym spellings of its
    :func:`identifier_form` (drawn synonyms, then the others; ``section`` of the table read first), the
    qualified spellings of the first one and of the identifier form, then ``numbered`` numbered ones as
    a last resort that real models never reach. A caller that rules out fewer than ``numbered`` names
    (and only names it can list) always finds one (module docstring)."""
    base = identifier_form(identifier)
    found = spellings(base, seed, section) if base else []
    yield from found
    primary = found[0] if found else base
    first_qualified = qualified(primary, kind, seed)
    yield from first_qualified
    if found:
        yield from qualified(base, kind, seed)
    stem = primary or first_qualified[0]
    for n in range(2, numbered + 2):
        yield f"{stem}{n}"
