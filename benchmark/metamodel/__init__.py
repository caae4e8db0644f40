"""Metamodels (``.ecore`` through pyecore, ``.km3`` through a small grammar) and their read-only view."""

from benchmark.metamodel.view import (
    AmbiguousNameError,
    ClassView,
    DataTypeView,
    EnumView,
    FeatureView,
    MetamodelView,
    PackageView,
    UnknownNameError,
)

__all__ = [
    "AmbiguousNameError",
    "ClassView",
    "DataTypeView",
    "EnumView",
    "FeatureView",
    "MetamodelView",
    "PackageView",
    "UnknownNameError",
]
