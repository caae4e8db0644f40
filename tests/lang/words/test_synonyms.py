"""The shared synonym table: its sections, and what a caller that names none (the OCL track) reads."""

from __future__ import annotations

import re
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.lang.words.synonyms import (
    QUALIFIERS,
    SECTIONS,
    SYNONYMS,
    candidates,
    identifier_form,
    split_words,
    synonym_of,
    synonyms_of,
    with_synonyms,
)

IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*\Z")
ASCII_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _general_lines() -> list[str]:
    """The data file's lines before its first section, as the OCL track has always read them."""
    text = resources.files("benchmark.lang.words").joinpath("synonyms.txt").read_text(encoding="utf-8")
    lines = []
    for line in text.splitlines():
        if line.strip().startswith("["):
            break
        lines.append(line)
    return lines


def test_the_general_table_is_the_lines_before_the_first_section() -> None:
    words = {
        line.partition(":")[0].strip().lower()
        for line in _general_lines()
        if line.strip() and not line.startswith("#")
    }
    assert set(SYNONYMS) == words
    assert "metamodels" in SECTIONS
    # a section's words are not in the general table unless it has them too: "grafcet" is only there
    assert "grafcet" in SECTIONS["metamodels"] and "grafcet" not in SYNONYMS


def test_a_caller_naming_no_section_reads_the_general_table_only() -> None:
    # "class" means a group of pupils in the general table and a type in the metamodels section
    assert set(synonyms_of("class", 0)) == set(SYNONYMS["class"])
    in_metamodels = {s[:1].upper() + s[1:] for s in SECTIONS["metamodels"]["class"]}
    assert set(synonyms_of("Class", 0, "metamodels")) == in_metamodels
    assert synonym_of("grafcet", 0) is None
    assert synonym_of("grafcet", 0, "metamodels") in SECTIONS["metamodels"]["grafcet"]


def test_a_section_falls_back_to_the_general_table_and_plurals_go_through_the_singular() -> None:
    assert "course" not in SECTIONS["metamodels"]
    assert synonym_of("course", 4, "metamodels") == synonym_of("course", 4)
    singular = synonym_of("attribute", 1, "metamodels")
    assert singular is not None and synonym_of("attributes", 1, "metamodels") == singular + "s"
    assert with_synonyms("nbPages", 0, "metamodels") == "nb" + synonym_of("Pages", 0, "metamodels")


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_every_entry_of_a_section_gives_identifiers_other_than_the_word(section: str) -> None:
    for word, synonyms in SECTIONS[section].items():
        assert synonyms, f"{word}: no synonym"
        for synonym in synonyms:
            assert IDENTIFIER.match(synonym), f"{word}: {synonym!r} is not an identifier"
            assert synonym.lower() != word
            assert word not in [w.lower() for w in split_words(synonym)], f"{word}: {synonym} keeps the word"


def test_the_fallback_has_a_qualifier_for_every_kind_of_metamodel_name() -> None:
    for kind in ("class", "enumeration", "attribute", "reference", "package", "literal"):
        assert kind in QUALIFIERS
        first = next(candidates("Zorblax", kind, 2, "metamodels"))
        assert first != "Zorblax" and "Zorblax" in first.replace("zorblax", "Zorblax")


# ------------------------------------------------------------------------------ any name at all

ANY_NAME = st.text(min_size=0, max_size=14)


@settings(max_examples=300, deadline=None)
@given(name=ANY_NAME)
def test_the_identifier_form_of_any_name_is_an_identifier_or_empty_and_an_identifier_is_its_own(
    name: str,
) -> None:
    form = identifier_form(name)
    assert form == "" or ASCII_IDENTIFIER.match(form)
    assert identifier_form(form) == form
    if ASCII_IDENTIFIER.match(name):
        assert form == name


@settings(max_examples=300, deadline=None)
@given(
    name=ANY_NAME,
    kind=st.sampled_from(sorted(QUALIFIERS)),
    seed=st.integers(0, 2**31),
    section=st.sampled_from((None, "metamodels")),
    refused=st.sets(st.text(alphabet="RegistdValuKnOpCh_0123456789", max_size=12), max_size=40),
)
def test_the_candidates_of_any_name_are_finite_identifiers_and_one_is_free(
    name: str, kind: str, seed: int, section: str | None, refused: set[str]
) -> None:
    """Whatever the name (``ost_Windows 3.1``, ``$x``, ``名前``, empty), every candidate is an ASCII
    identifier, there are finitely many, and a caller that refuses fewer names than it asks numbered
    ones for finds a free one among them (the guarantee that stops a renaming from looping)."""
    found = list(candidates(name, kind, seed, section, numbered=len(refused) + 1))
    assert found and all(ASCII_IDENTIFIER.match(c) for c in found)
    assert any(c not in refused for c in found)
    assert found == list(candidates(name, kind, seed, section, numbered=len(refused) + 1))  # reproducible


def test_names_that_are_not_identifiers_are_renamed_from_their_words() -> None:
    assert identifier_form("ost_Windows 3.1") == "ost_Windows_3_1"
    assert identifier_form("ost_OS/2") == "ost_OS_2" and identifier_form("rt_child of") == "rt_child_of"
    assert identifier_form("Größe") == "Grosse" and identifier_form("café") == "cafe"
    assert identifier_form("3DModel") == "_3DModel" and identifier_form("$Person") == "Person"
    # a name with no ASCII letter at all: the qualifiers of its kind alone
    assert identifier_form("名前") == "" and next(candidates("名前", "class", 0)) in QUALIFIERS["class"][1]
    # an identifier's candidates are those it always had
    assert next(candidates("Book", "class", 0)) == next(candidates("Book", "class", 0, numbered=1))
