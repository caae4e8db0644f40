"""The registry of baselines: a baseline's name (its ``analysis.provider``) to its function, each entry
importing its module on first call, so registering a baseline is one line and listing them imports nothing
heavy; :func:`run_baseline` loads the two metamodels and runs one."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmark.core.errors import ConfigurationError
from benchmark.core.memo import BoundedMemo

if TYPE_CHECKING:
    from benchmark.lang.ecore.loader import LoadedMetamodel
    from benchmark.lang.ecore.view import MetamodelView

BaselineFunction = Callable[["LoadedMetamodel", "LoadedMetamodel"], dict[str, Any]]


def _lazy(module: str, function: str) -> BaselineFunction:
    """A baseline function that imports ``module`` when it is first called."""

    def run(source: LoadedMetamodel, target: LoadedMetamodel) -> dict[str, Any]:
        implementation: BaselineFunction = getattr(importlib.import_module(module), function)
        return implementation(source, target)

    run.__name__ = function
    run.__qualname__ = function
    run.__doc__ = f"Lazily imported {module}.{function}."
    return run


BASELINES: dict[str, BaselineFunction] = {
    "EMFCompare": _lazy("benchmark.tracks.mapping.baselines.emfcompare.document", "emf_compare"),
    "NameEquality": _lazy("benchmark.tracks.mapping.baselines.name_equality", "name_equality"),
}


def run_baseline(
    name: str, source_path: str | Path, target_path: str | Path, *, transformation: str | None = None
) -> dict[str, Any]:
    """Load both metamodels (``.ecore`` or ``.km3``) and run the baseline called ``name``.

    ``transformation`` names the export's transformation (default: ``<Source>2<Target>`` from the main
    package names, the ATL Zoo's convention).
    """
    baseline = _baseline(name)
    from benchmark.lang.ecore import load_resource

    return _named(baseline(load_resource(source_path), load_resource(target_path)), transformation)


def run_baseline_on_views(
    name: str, source: MetamodelView, target: MetamodelView, *, transformation: str | None = None
) -> dict[str, Any]:
    """Run the baseline called ``name`` on metamodels given as views (a task variant's renamed or
    reordered metamodels, ``docs/VARIANTS.md``): each is written as an ``.ecore`` file
    (:func:`benchmark.lang.ecore.write.ecore_text`) in a temporary folder and loaded like any other, so
    the baseline reads exactly what ``atlbench variant export`` writes for a person. The loaded pair is
    kept for the next baseline on the same two texts (:func:`_load_views`)."""
    baseline = _baseline(name)
    return _named(baseline(*_load_views(source, target)), transformation)


def _baseline(name: str) -> BaselineFunction:
    try:
        return BASELINES[name]
    except KeyError:
        known = ", ".join(sorted(BASELINES))
        raise ConfigurationError(f"unknown baseline {name!r}; known baselines: {known}") from None


def _named(document: dict[str, Any], transformation: str | None) -> dict[str, Any]:
    if transformation is not None:
        document["transformation"]["name"] = transformation
    return document


#: loaded pairs of views kept (each baseline of a session runs on the same variants' views)
VIEW_LOADS_SIZE = 16
_view_loads: BoundedMemo[tuple[str, ...], tuple[LoadedMetamodel, LoadedMetamodel]] = BoundedMemo(
    VIEW_LOADS_SIZE
)


def _load_views(source: MetamodelView, target: MetamodelView) -> tuple[LoadedMetamodel, LoadedMetamodel]:
    """The two views written as ``.ecore`` files and loaded, or the pair loaded from the same two file
    names and texts before: a loaded metamodel is a function of its file's name and text (the loader
    keeps its own loads by path and content, which a fresh temporary folder never matches), and the
    baselines only read it."""
    import tempfile

    from benchmark.lang.ecore import load_resource
    from benchmark.lang.ecore.write import ecore_text

    files = [(role, view.name, ecore_text(view)) for role, view in (("source", source), ("target", target))]
    key = tuple(part for file in files for part in file)
    loaded = _view_loads.get(key)
    if loaded is not None:
        return loaded
    with tempfile.TemporaryDirectory(prefix="atlbench-variant-") as folder:
        paths = []
        for role, stem, text in files:
            path = Path(folder) / role / f"{stem}.ecore"
            path.parent.mkdir()
            path.write_text(text, encoding="utf-8")
            paths.append(path)
        loaded = (load_resource(paths[0]), load_resource(paths[1]))
    _view_loads.put(key, loaded)
    return loaded
