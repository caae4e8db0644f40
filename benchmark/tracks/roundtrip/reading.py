"""Reading a file as canonical lines: strictly when it is loadable, leniently (plain XML) when not.

Two model kinds share the procedure: Ecore metamodels (the S side) and SQL-XMI schemas (the T side). Loadable
means, in this order: the prolog declares no DOCTYPE; the XML is well-formed; the root has ``xmi:version`` and
the expected metamodel's namespace is declared; every element and attribute is a known class or feature of
that metamodel (:mod:`benchmark.tracks.roundtrip.conformance`); and pyecore loads the file with every
reference resolved. The first failure is the recorded reason. Except for a refused DOCTYPE (nothing is parsed
then), a file that is not loadable is still read as plain XML, recovering from syntax errors, so that it can
earn partial credit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pyecore.ecore as ecore
from lxml import etree

from benchmark.core.errors import BenchmarkError, InputFormatError
from benchmark.core.xmlguard import check_xml_prolog, parse_xml_recovering, parse_xml_safely
from benchmark.tracks.roundtrip.conformance import Problem, conformance_problem, model_roots
from benchmark.tracks.roundtrip.ecore_io import packages_from_pyecore
from benchmark.tracks.roundtrip.ecoremodel import ECORE_NS_URI
from benchmark.tracks.roundtrip.lenient import lenient_ecore, lenient_sql
from benchmark.tracks.roundtrip.lines import CanonicalLine, ecore_lines, sql_lines
from benchmark.tracks.roundtrip.pyecore_loading import load_ecore_file, load_instance_file
from benchmark.tracks.roundtrip.sql_io import schema_from_pyecore
from benchmark.tracks.roundtrip.sqlmeta import SQL_NS_URI, SQL_ROOT_CLASS, sql_package

ReadMode = Literal["model", "plain XML", "nothing"]


@dataclass(frozen=True)
class ModelKind:
    """What a file of one side must be, and how to turn it into lines either way."""

    name: Literal["ecore", "sql"]
    ns_uri: str
    root_classes: tuple[str, ...]
    allowed_uris: frozenset[str]
    metamodels: Callable[[], dict[str, Any]]
    load: Callable[[Path], tuple[CanonicalLine, ...]]
    lenient: Callable[[etree._Element], tuple[CanonicalLine, ...]]


def _load_ecore(path: Path) -> tuple[CanonicalLine, ...]:
    return ecore_lines(packages_from_pyecore(load_ecore_file(path)))


def _load_sql(path: Path) -> tuple[CanonicalLine, ...]:
    roots = load_instance_file(path, {SQL_NS_URI: sql_package()})
    lines: list[CanonicalLine] = []
    for root in roots:
        lines.extend(sql_lines(schema_from_pyecore(root)))
    return tuple(lines)


ECORE = ModelKind(
    name="ecore",
    ns_uri=ECORE_NS_URI,
    root_classes=("EPackage",),
    allowed_uris=frozenset({ECORE_NS_URI}),
    metamodels=lambda: {ECORE_NS_URI: ecore.eClass},
    load=_load_ecore,
    lenient=lambda root: ecore_lines(lenient_ecore(root)),
)
SQL = ModelKind(
    name="sql",
    ns_uri=SQL_NS_URI,
    root_classes=(SQL_ROOT_CLASS,),
    allowed_uris=frozenset(),
    metamodels=lambda: {SQL_NS_URI: sql_package()},
    load=_load_sql,
    lenient=lambda root: sql_lines(lenient_sql(root)),
)
MODEL_KINDS = {kind.name: kind for kind in (ECORE, SQL)}


@dataclass(frozen=True)
class ReadModel:
    """A file read for scoring: its lines, whether it is loadable, and why not."""

    file: str
    kind: str
    loadable: bool
    load_error: str | None
    read_as: ReadMode
    lines: tuple[CanonicalLine, ...]


def _reason(error: BenchmarkError) -> str:
    return error.message if error.line is None else f"{error.message} (line {error.line})"


def _pyecore_reason(error: Exception) -> str:
    """A load failure as one line; references that resolve to nothing are called what they are."""
    if isinstance(error, BenchmarkError):
        text = _reason(error)
    elif isinstance(error, KeyError):
        return f"dangling reference: nothing has the id or path {error.args[0]!r}"
    else:
        text = f"pyecore cannot load the file: {type(error).__name__}: {error}"
    if any(
        sign in text
        for sign in ("is unknown", "Index in path", "cannot resolve", "StopIteration", "KeyError")
    ):
        return f"dangling reference: {text}"
    return text


def read_model(path: str | Path, kind: ModelKind) -> ReadModel:
    """Lines of a (possibly broken) output file, with its loadability. Raises only when the file itself
    cannot be read from disk."""
    path = Path(path)
    file = str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputFormatError(f"cannot read file: {error.strerror}", file=file) from None

    def failed(reason: str, root: etree._Element | None) -> ReadModel:
        lines = kind.lenient(root) if root is not None else ()
        return ReadModel(
            file, kind.name, False, reason, "plain XML" if root is not None else "nothing", lines
        )

    if not data.strip():
        return failed("empty file", None)
    try:
        check_xml_prolog(data, file)
    except BenchmarkError as refused:
        return failed(_reason(refused), None)
    try:
        root = parse_xml_safely(data, file)
    except BenchmarkError as error:
        return failed(_reason(error), parse_xml_recovering(data))
    problem: Problem | None = conformance_problem(
        root, kind.ns_uri, kind.metamodels(), kind.root_classes, kind.allowed_uris
    )
    if problem is not None:
        return failed(str(problem), root)
    try:
        lines = kind.load(path)
    except Exception as error:  # pyecore's exceptions are the reason, whatever their type
        return failed(_pyecore_reason(error), root)
    return ReadModel(file, kind.name, True, None, "model", lines)


def read_reference(path: str | Path, kind: ModelKind) -> tuple[CanonicalLine, ...]:
    """Lines of a base or expected model, which must be loadable (they are ours, not an LLM's)."""
    read = read_model(path, kind)
    if not read.loadable:
        raise InputFormatError(f"reference model is not loadable: {read.load_error}", file=str(path))
    return read.lines


def kind_of(path: str | Path) -> ModelKind:
    """The model kind of a reference file, from its root element's namespace."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputFormatError(f"cannot read file: {error.strerror}", file=str(path)) from None
    check_xml_prolog(data, str(path))
    root = parse_xml_safely(data, str(path))
    namespaces = {etree.QName(element).namespace for element in model_roots(root)}
    for kind in MODEL_KINDS.values():
        if namespaces == {kind.ns_uri}:
            return kind
    raise InputFormatError(
        f"neither an Ecore metamodel nor a SQL-XMI schema (root namespaces: {sorted(map(str, namespaces))})",
        file=str(path),
    )
