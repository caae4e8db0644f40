"""Answer shapes a real model produced (tests/real_llm, SmolLM2-135M-Instruct) that the readers misread.

* A run file is a JSON object; a markdown fence inside one of its strings is not the file's fence. A
  failed run whose ``rawResponse`` held the model's fenced answer was read from that fence on: the run lost
  its provider (so ``pytest cases --provider P`` deselected it) and its error row said "found no JSON
  array" instead of why the run failed.
* An answer that is a JSON object is read only as the one array of mapping objects it holds
  (``{"mappings": [...]}``), never by searching it for an inner array: a fenced object cut off at
  max_tokens whose first inner array was ``[]`` was filed as a usable empty answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.core.errors import InputFormatError
from benchmark.core.fileio import dumps_json
from benchmark.tracks.mapping.scoring.suggestions import extract_json_array, load_suggestions, peek_provider

HEADER = {
    "jjodel": {"exportType": "suggested-mappings", "schemaVersion": 1},
    "transformation": {"name": "book2publication", "source": "Book", "target": "Publication"},
    "analysis": {"provider": "SmolLM2", "model": "SmolLM2-135M-Instruct", "modelLabel": "SmolLM2"},
}


def test_a_failed_run_whose_raw_answer_is_fenced_keeps_its_provider_and_reason(tmp_path: Path) -> None:
    path = tmp_path / "SmolLM2-SmolLM2-135M-Instruct-run01.json"
    raw = '```json\n{\n  "sourceClass": {"name":"title",\n  "family_id:"null}\n```\n'
    error = "response:4:14: the answer's JSON array is not valid JSON: Expecting ':' delimiter"
    generation = {"generator": "atlbench generate", "status": "failed", "error": error, "rawResponse": raw}
    path.write_text(dumps_json({**HEADER, "generation": generation}), encoding="utf-8")
    assert peek_provider(path) == ("SmolLM2", "SmolLM2-135M-Instruct")
    loaded = load_suggestions(path)  # an unusable run: scored as a run with no suggestions, reason kept
    assert loaded.mappings == () or list(loaded.mappings) == []
    assert loaded.unusable_reason is not None and error in loaded.unusable_reason


def test_a_fence_in_a_reason_does_not_hide_the_mappings(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    mapping = {
        "kind": "class",
        "source": {"class": "Book", "feature": None},
        "target": {"class": "Publication", "feature": None},
        "confidence": "high",
        "reason": "as in\n```\nrule Book2Publication { ... }\n```\n",
    }
    path.write_text(dumps_json({**HEADER, "mappings": [mapping]}), encoding="utf-8")
    assert peek_provider(path) == ("SmolLM2", "SmolLM2-135M-Instruct")
    loaded = load_suggestions(path)
    assert [(m.source_class, m.target_class) for m in loaded.mappings] == [("Book", "Publication")]


def test_an_answer_that_is_a_json_object_is_not_searched_for_an_inner_array() -> None:
    """SmolLM2's answer, cut off at max_tokens: a fenced object whose first inner array is ``[]``. It was
    read as an empty answer (a usable run with no mappings) instead of an unusable one."""
    answer = '```json\n{\n  "sourceClass": {\n    "ordered_by_kind":[]},\n  "targetClass": {\n    "x": "cut'
    with pytest.raises(InputFormatError):
        extract_json_array(answer, source="response")
    entries = extract_json_array('{"mappings": [{"sourceClass": "A"}]}', source="response")
    assert entries == [{"sourceClass": "A"}]  # the one array of a JSON-mode object is the answer
