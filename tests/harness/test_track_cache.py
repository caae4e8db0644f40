"""The ATL track's disk cache (pytest's ``.pytest_cache``) never serves a stale entry.

Each test plays two sessions: two :class:`AtlTrack` instances sharing one cache directory, as two
``pytest`` invocations share ``.pytest_cache``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from validate_session import mapping_track

from benchmark.core.diskcache import DiskCache
from benchmark.tracks.mapping.track import AtlTrack

TREE = Path(__file__).parent / "data" / "tree"

ENTRIES = """<?xml version="1.0" encoding="UTF-8"?>
<ecore:EPackage xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore" name="Entries" nsURI="http://example.org/test/entries"
    nsPrefix="entries">
  <eClassifiers xsi:type="ecore:EClass" name="{name}"/>
</ecore:EPackage>
"""


def _track(root: Path, cache: Path) -> AtlTrack:
    return mapping_track(root, cache)


def test_a_cached_view_names_the_file_it_was_read_from(tmp_path: Path) -> None:
    """Two trees holding the same metamodel bytes: each session's view names its own file."""
    cache = tmp_path / "cache"
    first, second = tmp_path / "first", tmp_path / "second"
    for root in (first, second):
        shutil.copytree(TREE / "Library2Catalog", root / "Library2Catalog")

    warm = _track(first, cache)
    assert warm.ground_truth_error("Library2Catalog") is None
    again = _track(second, cache)
    metamodels = again.truths.get("Library2Catalog").metamodels
    assert metamodels is not None and metamodels.source is not None
    assert metamodels.source.file == str(second / "Library2Catalog" / "Library.ecore")


def test_editing_a_referenced_file_invalidates_the_cached_view(tmp_path: Path) -> None:
    """Catalog.ecore types a reference with a class of Entries.ecore: the view depends on both files."""
    cache = tmp_path / "cache"
    folder = tmp_path / "tree" / "Library2Catalog"
    shutil.copytree(TREE / "Library2Catalog", folder)
    catalog = folder / "Catalog.ecore"
    catalog.write_text(
        catalog.read_text().replace(
            'name="entries" upperBound="-1" eType="#//Entry"',
            'name="entries" upperBound="-1" eType="ecore:EClass Entries.ecore#//Entry"',
        )
    )
    entries = folder / "Entries.ecore"
    entries.write_text(ENTRIES.format(name="Entry"))
    assert _track(folder.parent, cache).ground_truth_error("Library2Catalog") is None

    entries.write_text(ENTRIES.format(name="Item"))  # Catalog.ecore's reference no longer resolves
    problem = _track(folder.parent, cache).ground_truth_error("Library2Catalog")
    assert problem is not None and "Entries.ecore#//Entry" in problem


def test_a_value_rejected_by_its_check_is_computed_again(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path)
    cache.put("n", "k", "old")
    value = cache.get_or_compute("n", "k", lambda: "new", valid=lambda found: found != "old")
    assert value == "new" and (cache.hits, cache.misses) == (0, 1)
    assert cache.get_or_compute("n", "k", lambda: "unused", valid=lambda found: found != "old") == "new"
    assert cache.hits == 1
