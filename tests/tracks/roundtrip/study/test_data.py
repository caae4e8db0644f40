"""The bundled data: hand-written base domains, byte-identical regeneration, manifest consistency."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import etree

from benchmark.tracks.roundtrip.models.ecore_io import read_ecore, write_ecore
from benchmark.tracks.roundtrip.models.ecoremodel import EcoreReference
from benchmark.tracks.roundtrip.operators import OPERATOR_NAMES
from benchmark.tracks.roundtrip.reading.models import kind_of, read_model
from benchmark.tracks.roundtrip.study.generate import check, generate, source_domains
from benchmark.tracks.roundtrip.study.manifest import default_data_dir

DATA = default_data_dir()
DOMAINS = [
    "blog",
    "fleet",
    "hospital",
    "library",
    "music",
    "recipes",
    "shop",
    "ticketing",
    "tracker",
    "university",
]


def test_the_ten_domains_are_bundled() -> None:
    assert [domain for domain, _ in source_domains(DATA)] == DOMAINS


def test_regeneration_is_byte_identical(tmp_path: Path) -> None:
    report = generate(DATA, tmp_path)
    produced = sorted(p.name for p in tmp_path.iterdir())
    bundled = sorted(p.name for p in DATA.iterdir() if p.is_file())
    assert produced == bundled
    assert len(produced) == 10 + 10 + 200 + 1  # S, T, deltas, manifest
    for name in produced:
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name
    assert sorted(report.copied) == [f"S_{d}.ecore" for d in DOMAINS]


def test_regenerating_in_place_rewrites_nothing_and_removes_stale_files(tmp_path: Path) -> None:
    (tmp_path / "S_library.ecore").write_bytes((DATA / "S_library.ecore").read_bytes())
    generate(tmp_path)
    (tmp_path / "Delta_add_class_T_gone.sql.xmi").write_text("stale", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("kept", encoding="utf-8")
    (tmp_path / "T_library.sql.xmi").write_text("tampered", encoding="utf-8")
    assert check(tmp_path) == [
        "T_library.sql.xmi: differs from a fresh generation",
        "Delta_add_class_T_gone.sql.xmi: stale (no base domain produces it)",
    ]
    report = generate(tmp_path)
    assert report.written == ["T_library.sql.xmi"]
    assert report.removed == ["Delta_add_class_T_gone.sql.xmi"]
    assert (tmp_path / "notes.txt").exists()
    assert check(tmp_path) == []


def test_no_atl_file_in_the_folder() -> None:
    assert not list(DATA.rglob("*.atl"))


@pytest.mark.parametrize("domain", DOMAINS)
def test_base_domain_is_canonical_and_has_the_required_features(domain: str) -> None:
    path = DATA / f"S_{domain}.ecore"
    package = read_ecore(path)
    assert write_ecore(package) == path.read_text(encoding="utf-8"), (
        "hand-written file is not in canonical form"
    )
    assert 5 <= len(package.classes) <= 12
    assert any(c.supertypes for c in package.classes), "inheritance"
    assert package.enums, "an enum"
    references = [f for _, f in package.iter_features() if isinstance(f, EcoreReference)]
    assert any(r.containment for r in references), "containment"
    assert any(r.many and not r.containment for r in references), "a many-to-many reference"


@pytest.mark.parametrize("domain", DOMAINS)
def test_bundled_files_load_strictly_and_read_the_same_leniently(domain: str) -> None:
    files = [DATA / f"S_{domain}.ecore", DATA / f"T_{domain}.sql.xmi"]
    files += [DATA / f"Delta_{op}_S_{domain}.ecore" for op in OPERATOR_NAMES]
    files += [DATA / f"Delta_{op}_T_{domain}.sql.xmi" for op in OPERATOR_NAMES]
    for path in files:
        kind = kind_of(path)
        read = read_model(path, kind)
        assert read.loadable, (path.name, read.load_error)
        lenient = kind.lenient(etree.parse(str(path)).getroot())
        assert [line.identity for line in lenient] == [line.identity for line in read.lines], path.name


def test_manifest_lists_every_case_with_its_witnesses() -> None:
    manifest = json.loads((DATA / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["track"] == "roundtrip" and manifest["operators"] == list(OPERATOR_NAMES)
    cases = manifest["cases"]
    assert [c["id"] for c in cases] == [f"{d}/{op}" for d in DOMAINS for op in OPERATOR_NAMES]
    for case in cases:
        for side in ("S", "T"):
            witness = case["witness"][side]
            assert witness["appears"] or witness["changes"] or witness["disappears"], (case["id"], side)
        for key in ("S", "T", "deltaS", "deltaT"):
            assert (DATA / case[key]).is_file()
