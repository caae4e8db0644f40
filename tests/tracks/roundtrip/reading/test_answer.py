"""Extracting the model from an answer as an LLM writes it (docs/ROUNDTRIP.md §6.1)."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from benchmark.tracks.roundtrip.reading.answer import extract_model
from benchmark.tracks.roundtrip.reading.models import ECORE, SQL, ModelKind, read_answer_data, read_model_data


def extract(text: str | bytes, kind: ModelKind):  # type: ignore[no-untyped-def]
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return extract_model(raw, kind.ns_uri, kind.root_classes)


def doc(model: str) -> bytes:
    """An extracted document: from its prolog to its root's end tag."""
    return model.rstrip().encode("utf-8")


def fenced(model: str, info: str = "xml") -> str:
    return f"```{info}\n{model}```\n"


def test_a_bare_model_is_used_byte_for_byte(models: types.SimpleNamespace) -> None:
    raw = ("\ufeff" + models.EXPECTED_T + "\n\n").encode("utf-8")
    found = extract(raw, SQL)
    assert found.data == raw and found.source == "whole answer" and found.start_line == 1
    assert found.usable and not found.extracted and found.notes == ()


def test_prose_and_a_fence_around_the_model(models: types.SimpleNamespace) -> None:
    answer = "Here is T':\n\n" + fenced(models.EXPECTED_T) + "\nThe new column is `pages`.\n"
    found = extract(answer, SQL)
    assert found.data == doc(models.EXPECTED_T)
    assert (found.source, found.start_line, found.prose, found.usable) == ("the fenced block", 4, True, True)
    read = read_answer_data(answer.encode("utf-8"), "answer.txt", SQL)
    assert read.loadable and read.lines == read_model_data(found.data, "m", SQL).lines


def test_the_document_whose_root_is_the_stages_metamodel_is_taken(models: types.SimpleNamespace) -> None:
    answer = "S':\n" + fenced(models.EXPECTED_S) + "and T':\n" + fenced(models.EXPECTED_T)
    assert extract(answer, ECORE).data == doc(models.EXPECTED_S)
    assert extract(answer, ECORE).source == "fenced block 1 of 2"
    assert extract(answer, SQL).data == doc(models.EXPECTED_T)
    assert extract(answer, SQL).notes == ()


def test_several_matching_documents_take_the_last_and_say_so(models: types.SimpleNamespace) -> None:
    corrected = models.EXPECTED_T.replace('name="year"', 'name="yearPublished"')
    answer = fenced(models.EXPECTED_T) + "Sorry, corrected:\n" + fenced(corrected)
    found = extract(answer, SQL)
    assert found.data == doc(corrected)
    (note,) = found.notes
    assert note.startswith("ambiguous: 2 documents rooted at <sql:Schema>: fenced block 1 of 2 (line 2)")
    assert note.endswith("scored the last")


def test_a_well_formed_document_beats_a_later_broken_one(models: types.SimpleNamespace) -> None:
    broken = models.EXPECTED_T.replace("</sql:Schema>", "</sql:Schem>")
    found = extract(fenced(models.EXPECTED_T) + fenced(broken), SQL)
    assert found.data == doc(models.EXPECTED_T) and found.notes == ()


def test_documents_in_unfenced_prose(models: types.SimpleNamespace) -> None:
    answer = "Here you go. " + models.EXPECTED_T.rstrip() + " Hope this helps!"
    found = extract(answer, SQL)
    assert found.data == doc(models.EXPECTED_T)
    assert (found.source, found.start_line) == ("the text", 1)


def test_a_tag_like_word_in_prose_does_not_swallow_the_model(models: types.SimpleNamespace) -> None:
    body = models.EXPECTED_T.split("\n", 1)[1]  # no XML declaration to start a new document
    answer = "Each <tables> element is a table:\n" + body
    found = extract(answer, SQL)
    assert found.usable and found.data == doc(body)
    assert read_answer_data(answer.encode("utf-8"), "a", SQL).loadable


def test_a_cut_off_answer_keeps_what_it_has(models: types.SimpleNamespace) -> None:
    cut = models.EXPECTED_T[: models.EXPECTED_T.index("    <primaryKey")]
    found = extract("Here is T':\n```xml\n" + cut, SQL)
    assert found.usable and found.data == cut.encode("utf-8")
    assert found.notes == ("the document is cut off (its root element is never closed)",)
    read = read_answer_data(("```xml\n" + cut).encode("utf-8"), "a", SQL)
    assert not read.loadable and read.read_as == "plain XML"
    assert "[in the document extracted from the fenced block, from line 2]" in str(read.load_error)
    assert [line.key for line in read.lines][-1] == "Book/pages"


def test_an_answer_without_xml_is_unusable() -> None:
    found = extract("I cannot produce S' from this input.", ECORE)
    assert (found.data, found.usable, found.documents) == (None, False, 0)
    read = read_answer_data(b"I cannot produce S' from this input.", "a", ECORE)
    assert (read.loadable, read.read_as, read.lines) == (False, "nothing", ())
    assert read.load_error == "the answer contains no XML document"


def test_a_document_of_the_other_side_is_read_but_unusable(models: types.SimpleNamespace) -> None:
    found = extract("S':\n" + fenced(models.EXPECTED_T), ECORE)
    assert not found.usable
    assert found.notes == ("no document is rooted at EPackage; scored <sql:Schema>",)
    read = read_answer_data(("S':\n" + fenced(models.EXPECTED_T)).encode("utf-8"), "a", ECORE)
    assert not read.loadable and "namespace http://www.eclipse.org/emf/2002/Ecore is not declared" in str(
        read.load_error
    )


def test_the_root_class_in_a_wrong_namespace_is_usable_but_not_loadable(
    models: types.SimpleNamespace,
) -> None:
    wrong = models.EXPECTED_T.replace(
        "http://atl-binding-bench.org/roundtrip/sql/1.0", "http://example.org/sql"
    )
    found = extract("T':\n" + fenced(wrong), SQL)
    assert found.usable
    read = read_answer_data(("T':\n" + fenced(wrong)).encode("utf-8"), "a", SQL)
    assert not read.loadable and "is not declared" in str(read.load_error) and len(read.lines) == 7


def test_an_xmi_wrapper_of_packages_matches(models: types.SimpleNamespace) -> None:
    header, rest = models.EXPECTED_S.split("\n", 2)[1], models.EXPECTED_S.split("\n", 2)[2]
    namespaces = header[header.index("xmlns:xmi") : header.index(" name=")]
    wrapped = (
        f'<xmi:XMI xmi:version="2.0" {namespaces}>\n'
        '<ecore:EPackage name="lib" nsURI="http://example.org/lib" nsPrefix="lib">\n' + rest + "</xmi:XMI>\n"
    )
    found = extract("Answer:\n" + fenced(wrapped) + fenced(models.EXPECTED_T), ECORE)
    assert found.usable and found.data == doc(wrapped)


def test_a_doctype_stays_with_its_document_and_is_refused(models: types.SimpleNamespace) -> None:
    hostile = models.EXPECTED_T.replace("<sql:Schema", '<!DOCTYPE x [<!ENTITY e "e">]>\n<sql:Schema', 1)
    read = read_answer_data(("T':\n" + fenced(hostile)).encode("utf-8"), "a", SQL)
    assert (read.loadable, read.read_as) == (False, "nothing")
    assert "refusing XML with entity declarations" in str(read.load_error)


def test_flags_are_the_documents_comments(models: types.SimpleNamespace) -> None:
    model = models.EXPECTED_S.replace(
        "  <eClassifiers",
        "  <!--   Book.pageCount:\n        renamed   -->\n  <!---->\n"
        "  <?xml-stylesheet href='x'?>\n  <eClassifiers",
        1,
    )
    answer = "<!-- a comment in the prose is not a flag -->\nS':\n" + fenced(model)
    found = extract(answer, ECORE)
    assert found.flags == ("Book.pageCount: renamed",)
    assert read_answer_data(answer.encode("utf-8"), "a", ECORE).loadable


def test_a_declared_encoding_is_kept(tmp_path: Path, models: types.SimpleNamespace) -> None:
    latin = models.EXPECTED_T.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace(
        'name="lib"', 'name="bibliothèque"'
    )
    found = extract("T':\n" + fenced(latin), SQL)
    assert found.data == latin.rstrip().encode("iso-8859-1")
    read = read_answer_data(("T':\n" + fenced(latin)).encode("utf-8"), "a", SQL)
    assert read.loadable and read.lines[0].key == "bibliothèque"
    bare = latin.encode("iso-8859-1")  # not UTF-8: taken as it is
    assert extract(bare, SQL).data == bare and extract(bare, SQL).usable


@pytest.mark.parametrize("fence", ["```", "~~~", "````"])
def test_fence_styles(models: types.SimpleNamespace, fence: str) -> None:
    answer = f"Here:\n{fence}xml title\n{models.EXPECTED_T}{fence}\nbye"
    assert extract(answer, SQL).data == doc(models.EXPECTED_T)


def test_an_answer_stored_in_a_json_file_still_loads_as_xmi(models: types.SimpleNamespace) -> None:
    """pyecore picks its parser by the file name's extension; a run file is ``.json``."""
    answer = ("S':\n" + fenced(models.EXPECTED_S)).encode("utf-8")
    assert read_answer_data(answer, "runs/x/y/OpenAI-k1-run01-inverse.json", ECORE).loadable
    t_answer = ("T':\n" + fenced(models.EXPECTED_T)).encode("utf-8")
    assert read_answer_data(t_answer, "runs/x/y/OpenAI-k1-run01-forward.json", SQL).loadable


def test_an_answer_read_again_is_the_same_reading_under_its_own_name(models: types.SimpleNamespace) -> None:
    answer = ("Here is T':\n\n" + fenced(models.EXPECTED_T)).encode("utf-8")
    first = read_answer_data(answer, "first.json", SQL)
    again = read_answer_data(answer, "again.json", SQL)
    assert (first.file, again.file) == ("first.json", "again.json")
    assert again.loadable and again.lines == first.lines and again.answer == first.answer
    broken = answer.replace(b"</", b"<", 1)  # not loadable: read each time (its reason is its own)
    assert not read_answer_data(broken, "b.json", SQL).loadable
    assert read_answer_data(broken, "c.json", SQL).file == "c.json"
