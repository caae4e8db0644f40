"""Reading a file as canonical lines: strictly when it is loadable, leniently (plain XML) when not.

Two model kinds share the procedure: Ecore metamodels (the S side) and SQL-XMI schemas (the T side). Loadable
means, in this order: the prolog declares no DOCTYPE; the XML is well-formed; the root has ``xmi:version`` and
the expected metamodel's namespace is declared; every element and attribute is a known class or feature of
that metamodel (:mod:`benchmark.tracks.roundtrip.reading.conformance`); and pyecore loads the file with every
reference resolved (the documents whose pyecore load is known exactly, the track's own forms and most
answers, are read from the element tree directly, to the same lines: :mod:`.direct`). The first failure is
the recorded reason. Except for a refused DOCTYPE (nothing is parsed then), a file that is not loadable is
still read as plain XML, recovering from syntax errors, so that it can earn partial credit.

An *answer* (an LLM's raw text) is read through :func:`read_answer`: the model document is first extracted
from prose, fences and several documents (:mod:`benchmark.tracks.roundtrip.reading.answer`), then read as
above; a bare model is its own extraction, byte for byte.

The SQL side's metamodel is a parameter (:func:`sql_model_kind`): the bundled ``sql.ecore`` by default,
or a study's own metamodel with the same classes and features under its own nsURI.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import pyecore.ecore as ecore
from lxml import etree

from benchmark.core.errors import BenchmarkError, InputFormatError
from benchmark.core.fileio import MAX_RUN_FILE_BYTES, read_bytes_capped
from benchmark.core.memo import BoundedMemo
from benchmark.core.xmlguard import check_xml_prolog, parse_xml_recovering, parse_xml_safely
from benchmark.lang.ecore.pyecore_loading import load_ecore_data, load_instance_data
from benchmark.tracks.roundtrip.models.ecore_io import packages_from_pyecore
from benchmark.tracks.roundtrip.models.ecoremodel import ECORE_NS_URI
from benchmark.tracks.roundtrip.models.lines import CanonicalLine, ecore_lines, sql_lines
from benchmark.tracks.roundtrip.models.sql_io import schema_from_pyecore
from benchmark.tracks.roundtrip.models.sqlmeta import SQL_NS_URI, SQL_ROOT_CLASS, sql_package
from benchmark.tracks.roundtrip.reading.answer import ExtractedAnswer, extract_model
from benchmark.tracks.roundtrip.reading.conformance import Problem, conformance_problem, model_roots
from benchmark.tracks.roundtrip.reading.direct import NotDirect, direct_ecore, direct_sql
from benchmark.tracks.roundtrip.reading.lenient import lenient_ecore, lenient_sql

ReadMode = Literal["model", "plain XML", "nothing"]
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@dataclass(frozen=True)
class ModelKind:
    """What a file of one side must be, and how to turn it into lines either way."""

    name: Literal["ecore", "sql"]
    ns_uri: str
    root_classes: tuple[str, ...]
    allowed_uris: frozenset[str]
    metamodels: Callable[[], dict[str, Any]]
    load: Callable[[str, bytes], tuple[CanonicalLine, ...]]  # (file, bytes) -> lines, raises on failure
    lenient: Callable[[etree._Element], tuple[CanonicalLine, ...]]
    # the conforming tree -> the lines ``load`` would give, without pyecore; raises NotDirect when it
    # cannot say (:mod:`.direct`), and ``load`` decides
    direct: Callable[[etree._Element], tuple[CanonicalLine, ...]] | None = None


def _load_ecore(file: str, data: bytes) -> tuple[CanonicalLine, ...]:
    return ecore_lines(packages_from_pyecore(load_ecore_data(file, data)))


def sql_model_kind(ns_uri: str, package: Callable[[], Any]) -> ModelKind:
    """The SQL side for the metamodel ``package()`` (an EPackage registered under ``ns_uri``)."""

    def load(file: str, data: bytes) -> tuple[CanonicalLine, ...]:
        roots = load_instance_data(file, data, {ns_uri: package()}, checked=True)  # read_model_data did
        lines: list[CanonicalLine] = []
        for root in roots:
            lines.extend(sql_lines(schema_from_pyecore(root)))
        return tuple(lines)

    def direct(root: etree._Element) -> tuple[CanonicalLine, ...]:
        if package() is not sql_package():  # a study's own metamodel: its defaults are pyecore's to read
            raise NotDirect("not the bundled sql.ecore")
        return sql_lines(direct_sql(root, ns_uri))

    return ModelKind(
        name="sql",
        ns_uri=ns_uri,
        root_classes=(SQL_ROOT_CLASS,),
        allowed_uris=frozenset(),
        metamodels=lambda: {ns_uri: package()},
        load=load,
        lenient=lambda root: sql_lines(lenient_sql(root)),
        direct=direct,
    )


ECORE = ModelKind(
    name="ecore",
    ns_uri=ECORE_NS_URI,
    root_classes=("EPackage",),
    allowed_uris=frozenset({ECORE_NS_URI}),
    metamodels=lambda: {ECORE_NS_URI: ecore.eClass},
    load=_load_ecore,
    lenient=lambda root: ecore_lines(lenient_ecore(root)),
    direct=lambda root: ecore_lines(direct_ecore(root)),
)
SQL = sql_model_kind(SQL_NS_URI, sql_package)
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
    answer: ExtractedAnswer | None = None  # how the model was found in the answer (read_answer only)

    @property
    def flags(self) -> tuple[str, ...]:
        """The XML comments of the document read (the inverse stage's flags)."""
        return self.answer.flags if self.answer is not None else ()


def _reason(error: BenchmarkError) -> str:
    return error.message if error.line is None else f"{error.message} (line {error.line})"


def _pyecore_reason(error: Exception) -> str:
    """A load failure as one line; references that resolve to nothing are called what they are. The
    memory addresses pyecore's messages show (``<... object at 0x7f...>``) are left out: the reason is
    part of the results, which must not change from one session to the next."""
    if isinstance(error, BenchmarkError):
        text = _reason(error)
    elif isinstance(error, KeyError):
        return f"dangling reference: nothing has the id or path {error.args[0]!r}"
    else:
        text = _ADDRESS.sub("", f"pyecore cannot load the file: {type(error).__name__}: {error}")
    if any(
        sign in text
        for sign in ("is unknown", "Index in path", "cannot resolve", "StopIteration", "KeyError")
    ):
        return f"dangling reference: {text}"
    return text


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise InputFormatError(f"cannot read file: {error.strerror}", file=str(path)) from None


def read_model(path: str | Path, kind: ModelKind) -> ReadModel:
    """Lines of a (possibly broken) model file, with its loadability. Raises only when the file itself
    cannot be read from disk."""
    path = Path(path)
    return read_model_data(_read_bytes(path), str(path), kind)


def read_model_data(data: bytes, file: str, kind: ModelKind, tree: etree._Element | None = None) -> ReadModel:
    """:func:`read_model` of bytes; ``file`` names them in the result and anchors relative references.
    ``tree``: the element tree already parsed from these very bytes (by :func:`parse_xml_safely`, after
    :func:`check_xml_prolog`: an answer's extraction ranks its documents so), not parsed again."""

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
        root = tree if tree is not None else parse_xml_safely(data, file)
    except BenchmarkError as error:
        return failed(_reason(error), parse_xml_recovering(data))
    problem: Problem | None = conformance_problem(
        root, kind.ns_uri, kind.metamodels(), kind.root_classes, kind.allowed_uris
    )
    if problem is not None:
        return failed(str(problem), root)
    try:
        lines = kind.direct(root) if kind.direct is not None else None
    except NotDirect:
        lines = None
    if lines is None:
        try:
            lines = kind.load(file, data)
        except Exception as error:  # pyecore's exceptions are the reason, whatever their type
            return failed(_pyecore_reason(error), root)
    return ReadModel(file, kind.name, True, None, "model", lines)


# answers read to a loadable model, by (kind, bytes): a study's answers repeat (a careful model gives the
# same answer at every k, among a case's stage evaluations, which are scored one after the other), and
# such a reading depends on nothing but the bytes (its file is only named)
ANSWER_MEMO_SIZE = 32
_answers: BoundedMemo[tuple[ModelKind, bytes], ReadModel] = BoundedMemo(ANSWER_MEMO_SIZE)


def read_answer_data(data: bytes, file: str, kind: ModelKind) -> ReadModel:
    """An answer's model: extracted from the text (``answer.py``), then read like a model file. When the
    model was cut out of a longer answer, a load error's line is the extracted document's, whose first
    line is ``answer.start_line`` of the answer (the JSON report says so). An answer with the same bytes as
    one read to a loadable model shortly before is that reading again (under its own file name)."""
    key = (kind, data)
    found = _answers.get(key)
    if found is not None:
        return replace(found, file=file)
    read = _read_answer_data(data, file, kind)
    if read.loadable:
        kept = replace(read, answer=replace(read.answer, tree=None)) if read.answer is not None else read
        _answers.put(key, kept)
    return read


def clear_answer_memo() -> None:
    """Forget the answers read (benchmarks timing a reading)."""
    _answers.clear()


def _read_answer_data(data: bytes, file: str, kind: ModelKind) -> ReadModel:
    extracted = extract_model(data, kind.ns_uri, kind.root_classes)
    if extracted.data is None:
        return ReadModel(file, kind.name, False, "; ".join(extracted.notes), "nothing", (), extracted)
    read = read_model_data(extracted.data, file, kind, extracted.tree)
    error = read.load_error
    if error is not None and extracted.extracted:
        error = (
            f"{error} [in the document extracted from {extracted.source}, from line {extracted.start_line}]"
        )
    return ReadModel(read.file, read.kind, read.loadable, error, read.read_as, read.lines, extracted)


def read_answer(path: str | Path, kind: ModelKind) -> ReadModel:
    """:func:`read_answer_data` of a file (a raw answer or a bare model); a file larger than a run file
    may be (:data:`~benchmark.core.fileio.MAX_RUN_FILE_BYTES`) is refused without being read."""
    path = Path(path)
    data = read_bytes_capped(path, limit=MAX_RUN_FILE_BYTES, what="answer file")
    return read_answer_data(data, str(path), kind)


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
