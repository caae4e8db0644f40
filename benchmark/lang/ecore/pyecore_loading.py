"""Loading XMI files with pyecore through the metamodel layer's guarded resource set.

Metamodels (``.ecore``) go through :func:`benchmark.lang.ecore.ecore_io.load_ecore`; model files (SQL-XMI)
go through the same guarded machinery (DOCTYPE refusal, hardened parse, local files only, external
references resolved while parsing), with the metamodel registered in a fresh resource set so that nothing
leaks between files. Both take the bytes to load, so that what is loaded can be a document extracted from
an answer rather than a whole file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from benchmark.core.xmlguard import check_xml_prolog, parse_xml_safely
from benchmark.lang.ecore.ecore_io import guarded_uri, load_ecore, new_resource_set
from benchmark.lang.ecore.errors import MetamodelError
from benchmark.lang.ecore.loader import load_resource


def load_ecore_file(path: str | Path) -> tuple[Any, ...]:
    """Root packages of an ``.ecore`` file (raises :class:`MetamodelError` with the reason); cached per
    path and content by the metamodel layer."""
    return tuple(load_resource(path).roots)


def _xmi_name(file: str, suffix: str) -> str:
    """A name pyecore parses as XMI: it picks the parser by extension, and an answer filed in a ``.json``
    run file would otherwise go to its JSON reader."""
    return file if Path(file).suffix.lower() in (".ecore", ".xmi") else f"{file}{suffix}"


def load_ecore_data(file: str, data: bytes) -> tuple[Any, ...]:
    """Root packages of ``.ecore`` bytes (``file`` names them and anchors relative references); not
    cached."""
    roots, _, _ = load_ecore(_xmi_name(file, ".ecore"), data)
    return roots


def load_instance_data(
    file: str, data: bytes, metamodels: Mapping[str, Any], *, checked: bool = False
) -> tuple[Any, ...]:
    """Root objects of model bytes conforming to ``metamodels`` (nsURI -> EPackage).

    ``checked``: the caller has already run the XML guard on these very bytes (no DOCTYPE, well-formed),
    so they are not parsed once more. pyecore's own exceptions (unknown feature, dangling reference, ...)
    propagate to the caller, which turns them into a reason.
    """
    if not checked:
        check_xml_prolog(data, file, error=MetamodelError)
        parse_xml_safely(data, file, error=MetamodelError)
    resource_set = new_resource_set()
    for ns_uri, package in metamodels.items():
        resource_set.metamodel_registry[ns_uri] = package
    resource = resource_set.get_resource(guarded_uri(str(Path(_xmi_name(file, ".xmi")).resolve()), data))
    return tuple(resource.contents)


def load_instance_file(path: str | Path, metamodels: Mapping[str, Any]) -> tuple[Any, ...]:
    """Root objects of a model file conforming to ``metamodels``."""
    return load_instance_data(str(path), Path(path).read_bytes(), metamodels)
