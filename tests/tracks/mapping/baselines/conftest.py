"""Small metamodels written for these tests, as ``.ecore`` text, loaded through the real loader."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from benchmark.lang.ecore import LoadedMetamodel, load_resource

HEADER = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<ecore:EPackage xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI"'
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
    ' xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore" {attributes}>\n'
)


def _ecore_package(attributes: str, body: str) -> str:
    return HEADER.format(attributes=attributes) + body + "\n</ecore:EPackage>\n"


@pytest.fixture
def ecore_package() -> Callable[[str, str], str]:
    """One root ``EPackage`` (``attributes`` such as ``name="shop"``) around ``body``, as file text."""
    return _ecore_package


@pytest.fixture
def write_ecore(tmp_path: Path) -> Callable[[str, str], Path]:
    def write(file_name: str, text: str) -> Path:
        path = tmp_path / file_name
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def load_ecore(write_ecore: Callable[[str, str], Path]) -> Callable[[str, str], LoadedMetamodel]:
    def load(file_name: str, text: str) -> LoadedMetamodel:
        return load_resource(write_ecore(file_name, text))

    return load
