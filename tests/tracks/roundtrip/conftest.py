"""Small hand-written models shared by the scoring and loadability tests (see docs/ROUNDTRIP.md §8).

A conftest rather than an importable module: the suite runs with ``--import-mode=importlib``, where test
modules cannot import their neighbours; tests get the texts through the ``models`` fixture.
"""

from __future__ import annotations

import types
from pathlib import Path

import pytest

SQL_NS = (
    'xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xmlns:sql="http://atl-binding-bench.org/roundtrip/sql/1.0"'
)
ECORE_NS = (
    'xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore"'
)
E = "ecore:EDataType http://www.eclipse.org/emf/2002/Ecore#//"

# -- the worked example: add_attribute Book.pages on the SQL side ----------------------------------
BASE_T = f"""<?xml version="1.0" encoding="UTF-8"?>
<sql:Schema xmi:version="2.0" {SQL_NS} name="lib">
  <tables xmi:id="Book" name="Book">
    <columns xmi:id="Book.id" name="id" type="INTEGER" nullable="false" unique="false"/>
    <columns xmi:id="Book.title" name="title" type="VARCHAR(255)" nullable="false" unique="false"/>
    <columns xmi:id="Book.year" name="year" type="INTEGER" nullable="true" unique="false"/>
    <primaryKey columns="Book.id"/>
  </tables>
</sql:Schema>
"""
EXPECTED_T = BASE_T.replace(
    '    <primaryKey columns="Book.id"/>',
    '    <columns xmi:id="Book.pages" name="pages" type="INTEGER" nullable="true" unique="false"/>\n'
    '    <primaryKey columns="Book.id"/>',
)
# EMF-style positional references, lower-case table name, synonyms, defaults left out.
OUTPUT_T = f"""<?xml version="1.0" encoding="UTF-8"?>
<sql:Schema xmi:version="2.0" {SQL_NS} name="lib">
  <tables name="book">
    <columns name="id" type="INT" nullable="false"/>
    <columns name="title" type="TEXT" nullable="true"/>
    <columns name="pages" type="INTEGER"/>
    <columns name="author" type="VARCHAR(100)"/>
    <primaryKey columns="//@tables.0/@columns.0"/>
  </tables>
</sql:Schema>
"""
OUTPUT_T_WITHOUT_DELTA = OUTPUT_T.replace('    <columns name="pages" type="INTEGER"/>\n', "")

# -- an Ecore case: Book.pages renamed pageCount, Book.author made many -------------------------------
BASE_S = f"""<?xml version="1.0" encoding="UTF-8"?>
<ecore:EPackage xmi:version="2.0" {ECORE_NS} name="lib" nsURI="http://example.org/lib" nsPrefix="lib">
  <eClassifiers xsi:type="ecore:EClass" name="Item" abstract="true">
    <eStructuralFeatures xsi:type="ecore:EAttribute" name="title" lowerBound="1" eType="{E}EString"/>
  </eClassifiers>
  <eClassifiers xsi:type="ecore:EClass" name="Book" eSuperTypes="#//Item">
    <eStructuralFeatures xsi:type="ecore:EAttribute" name="pages" eType="{E}EInt"/>
    <eStructuralFeatures xsi:type="ecore:EReference" name="author" eType="#//Person"/>
  </eClassifiers>
  <eClassifiers xsi:type="ecore:EClass" name="Person">
    <eStructuralFeatures xsi:type="ecore:EAttribute" name="name" eType="{E}EString"/>
  </eClassifiers>
  <eClassifiers xsi:type="ecore:EEnum" name="Genre">
    <eLiterals name="A"/>
    <eLiterals name="B" value="1"/>
  </eClassifiers>
</ecore:EPackage>
"""
EXPECTED_S = BASE_S.replace('name="pages"', 'name="pageCount"').replace(
    'name="author" eType', 'name="author" upperBound="-1" eType'
)
OUTPUT_S = f"""<?xml version="1.0" encoding="UTF-8"?>
<ecore:EPackage xmi:version="2.0" {ECORE_NS} name="lib" nsURI="http://example.org/lib" nsPrefix="lib">
  <eClassifiers xsi:type="ecore:EClass" name="Item">
    <eStructuralFeatures xsi:type="ecore:EAttribute" name="title" lowerBound="1" eType="{E}EString"/>
  </eClassifiers>
  <eClassifiers xsi:type="ecore:EClass" name="Book" eSuperTypes="#//Item">
    <eStructuralFeatures xsi:type="ecore:EAttribute" name="pageCount" eType="{E}EIntegerObject"/>
    <eStructuralFeatures xsi:type="ecore:EAttribute" name="pages" eType="{E}EInt"/>
    <eStructuralFeatures xsi:type="ecore:EReference" name="author" upperBound="-1" eType="#//Person"/>
  </eClassifiers>
  <eClassifiers xsi:type="ecore:EClass" name="Person">
    <eStructuralFeatures xsi:type="ecore:EAttribute" name="name" eType="{E}EString"/>
  </eClassifiers>
  <eClassifiers xsi:type="ecore:EClass" name="Book" eSuperTypes="#//Item"/>
  <eClassifiers xsi:type="ecore:EEnum" name="Genre">
    <eLiterals name="A"/>
  </eClassifiers>
</ecore:EPackage>
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def models() -> types.SimpleNamespace:
    return types.SimpleNamespace(
        BASE_T=BASE_T,
        EXPECTED_T=EXPECTED_T,
        OUTPUT_T=OUTPUT_T,
        OUTPUT_T_WITHOUT_DELTA=OUTPUT_T_WITHOUT_DELTA,
        BASE_S=BASE_S,
        EXPECTED_S=EXPECTED_S,
        OUTPUT_S=OUTPUT_S,
        ECORE_NS=ECORE_NS,
        SQL_NS=SQL_NS,
        E=E,
        write=write,
    )
