"""Fixtures of the comparator tests: the worked example of docs/METRICS.md and its two metamodels.

The metamodel views are built directly (not loaded from files) so these tests depend only on the view
dataclasses, not on the .ecore/.km3 readers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.lang.ecore.view import ClassView, FeatureView, MetamodelView, PackageView
from benchmark.tracks.mapping import interchange
from benchmark.tracks.mapping.interchange import InterchangeDocument

DATA = Path(__file__).parent / "data"


def make_view(name: str, classes: dict[str, list[tuple[str, str, str]]], file: str = "") -> MetamodelView:
    """A view from ``{class: [(feature, kind, type), ...]}``, all in one package called ``name``."""
    views = []
    for class_name, features in classes.items():
        feature_views = tuple(
            FeatureView(name=f, owner=class_name, kind=kind, type_name=type_name)
            for f, kind, type_name in features
        )
        views.append(
            ClassView(
                name=class_name,
                qualified_name=f"{name}::{class_name}",
                package=name,
                features=feature_views,
                all_features=feature_views,
            )
        )
    package = PackageView(name=name, qualified_name=name, classifiers=tuple(classes))
    return MetamodelView(name=name, file=file or f"{name}.ecore", packages=(package,), classes=tuple(views))


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def ground_truth() -> InterchangeDocument:
    return interchange.load(DATA / "library2catalog.interchange.json")


@pytest.fixture
def library() -> MetamodelView:
    return make_view(
        "Library",
        {
            "Book": [
                ("title", "attribute", "EString"),
                ("isbn", "attribute", "EString"),
                ("chapters", "reference", "Chapter"),
                ("authors", "reference", "Author"),
            ],
            "Chapter": [("title", "attribute", "EString"), ("nbPages", "attribute", "EInt")],
            "Author": [("firstName", "attribute", "EString"), ("lastName", "attribute", "EString")],
        },
    )


@pytest.fixture
def catalog() -> MetamodelView:
    return make_view(
        "Catalog",
        {
            "Publication": [
                ("title", "attribute", "EString"),
                ("nbPages", "attribute", "EInt"),
                ("authors", "reference", "Person"),
                ("label", "attribute", "EString"),
                ("id", "attribute", "EString"),
                ("kind", "attribute", "EString"),
            ],
            "Person": [("fullName", "attribute", "EString"), ("created", "attribute", "EDate")],
            "Section": [("title", "attribute", "EString")],
        },
    )
