"""Metamodels (``.ecore`` through pyecore, ``.km3`` through a small grammar) and their read-only view.

``load_resource`` gives the pyecore objects (for EMF Compare's match engine), ``load_metamodel`` /
``build_view`` the notation-independent :class:`MetamodelView`. The loaders import pyecore and lark, so
they are imported on first use: ``import benchmark.lang.ecore`` stays cheap for code that only needs the
view types.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from benchmark.lang.ecore.errors import MetamodelError
from benchmark.lang.ecore.view import (
    AmbiguousNameError,
    ClassView,
    DataTypeView,
    EnumView,
    FeatureView,
    MetamodelView,
    PackageView,
    UnknownNameError,
)

if TYPE_CHECKING:
    from benchmark.lang.ecore.build import build_view, load_metamodel
    from benchmark.lang.ecore.loader import LoadedMetamodel, load_resource

_LAZY = {
    "LoadedMetamodel": "benchmark.lang.ecore.loader",
    "load_resource": "benchmark.lang.ecore.loader",
    "build_view": "benchmark.lang.ecore.build",
    "load_metamodel": "benchmark.lang.ecore.build",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "AmbiguousNameError",
    "ClassView",
    "DataTypeView",
    "EnumView",
    "FeatureView",
    "LoadedMetamodel",
    "MetamodelError",
    "MetamodelView",
    "PackageView",
    "UnknownNameError",
    "build_view",
    "load_metamodel",
    "load_resource",
]
