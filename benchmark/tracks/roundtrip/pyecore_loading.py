"""Loading XMI files with pyecore through the metamodel layer's guarded resource set.

Metamodels (``.ecore``) go through :func:`benchmark.lang.ecore.load_resource`; model files (SQL-XMI) go
through the same guarded machinery (DOCTYPE refusal, hardened parse, local files only, external
references resolved while parsing), with the metamodel registered in a fresh resource set so that nothing
leaks between files.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from benchmark.core.xmlguard import check_xml_prolog, parse_xml_safely
from benchmark.lang.ecore.ecore_io import new_resource_set
from benchmark.lang.ecore.errors import MetamodelError
from benchmark.lang.ecore.loader import load_resource


def load_ecore_file(path: str | Path) -> tuple[Any, ...]:
    """Root packages of an ``.ecore`` file (raises :class:`MetamodelError` with the reason)."""
    return tuple(load_resource(path).roots)


def load_instance_file(path: str | Path, metamodels: Mapping[str, Any]) -> tuple[Any, ...]:
    """Root objects of a model file conforming to ``metamodels`` (nsURI -> EPackage).

    pyecore's own exceptions (unknown feature, dangling reference, ...) propagate to the caller, which
    turns them into a reason.
    """
    data = Path(path).read_bytes()
    check_xml_prolog(data, str(path), error=MetamodelError)
    parse_xml_safely(data, str(path), error=MetamodelError)
    resource_set = new_resource_set()
    for ns_uri, package in metamodels.items():
        resource_set.metamodel_registry[ns_uri] = package
    resource = resource_set.get_resource(str(Path(path).resolve()))
    return tuple(resource.contents)
