"""Shared fixtures for the extractor tests: extract a snippet, look a binding up."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from benchmark.lang.atl import parse
from benchmark.tracks.mapping import interchange
from benchmark.tracks.mapping.extractor import extract
from benchmark.tracks.mapping.interchange import FeatureMatch, InterchangeDocument

#: Prepended to snippets that have no unit header (no line starting with module, query or library).
HEADER = "module M;\ncreate OUT : T from IN : S;\n"
_UNIT = re.compile(r"^(module|query|library)\b", re.MULTILINE)


def extract_text(text: str, file: str = "test.atl") -> InterchangeDocument:
    """Extract a snippet (with :data:`HEADER` when it has no unit header); the document must be valid
    against the shipped schema, whatever the test then checks."""
    source = text if _UNIT.search(text) else HEADER + text
    document = extract(parse(source, file=file), file=file)
    interchange.validate(document.to_json())
    return document


def binding(document: InterchangeDocument, source: str, target: str, feature: str) -> FeatureMatch:
    match = document.class_match(source, target)
    assert match is not None, (
        f"no class match {source} -> {target}: {[m.key for m in document.class_matches]}"
    )
    for candidate in match.feature_matches:
        if candidate.target_feature == feature:
            return candidate
    raise AssertionError(f"{source} -> {target} has no binding {feature}")


def paths(document: InterchangeDocument, source: str, target: str, feature: str) -> tuple[str, ...]:
    return binding(document, source, target, feature).source_paths


@pytest.fixture
def extract_atl() -> Callable[..., InterchangeDocument]:
    return extract_text


@pytest.fixture
def read_paths() -> Callable[[InterchangeDocument, str, str, str], tuple[str, ...]]:
    return paths


@pytest.fixture
def read_binding() -> Callable[[InterchangeDocument, str, str, str], FeatureMatch]:
    return binding
