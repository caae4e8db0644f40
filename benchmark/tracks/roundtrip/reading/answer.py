"""The model in an answer as an LLM writes it: prose, markdown fences, several documents, comments.

A stage's answer should be one XML document, but models wrap it in prose ("Here is S'..."), put it in a
markdown fence, give several documents (S' and T' together, a draft and a correction) and, in the inverse
stage, are asked to flag what the example mapping does not cover in XML comments. :func:`extract_model`
finds the document to score, by these rules (``docs/ROUNDTRIP.md`` §6.1):

1. an answer that is a single XML document and nothing else is used byte for byte (a bare model scores
   exactly as before, line numbers included);
2. otherwise the documents are looked for inside the markdown fences (``` or ~~~, any info string, an
   unterminated last fence running to the end); when no fence holds one, in the whole text. A document
   is an XML prolog (declaration, comments, processing instructions, a DOCTYPE, only whitespace between
   them) and a root element up to its end tag, or up to the end of the text when it is cut off; a new
   ``<?xml`` declaration starts a new document;
3. each document is ranked by its root: all its model roots (an ``xmi:XMI`` wrapper's children, else the
   root element) of the stage's root class in the stage's namespace (rank 2), a root of that class in
   another or no namespace (rank 1), anything else (rank 0). When no document ranks above 0, the
   documents inside the unranked ones are looked for too (a word like ``<tables>`` in prose opens a
   "document" that swallows the real one);
4. the highest rank wins, well-formed before broken, then the **last** (the final answer of a model that
   corrects itself); when several documents tie on the rank, a note says which were found and which one
   was scored.

An answer asked for in the JSON envelope (``--answer-format schema``,
:mod:`benchmark.tracks.roundtrip.answer_schema`) is the object ``{"document": TEXT}``: TEXT is read by these
rules in its place, and the source says it came from the envelope.

The XML comments of the chosen document are its ``flags`` (whitespace collapsed, empty ones dropped). An
answer with no rank-1 document is not *usable*: there is no S' to give the forward stage.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from lxml import etree

from benchmark.core.errors import BenchmarkError
from benchmark.core.xmlguard import check_xml_prolog, parse_xml_recovering, parse_xml_safely
from benchmark.tracks.roundtrip.reading.conformance import _qname, model_roots

RANK_MATCH = 2  # root class and namespace of the stage's metamodel
RANK_ROOT_NAME = 1  # root class by local name, another or no namespace
RANK_OTHER = 0

_TOKEN = re.compile(
    r"(?P<comment><!--.*?(?:-->|\Z))"
    r"|(?P<cdata><!\[CDATA\[.*?(?:\]\]>|\Z))"
    r"|(?P<pi><\?.*?(?:\?>|\Z))"
    r"|(?P<doctype><!DOCTYPE(?:[^>\[]|\[[^\]]*\])*>?)"
    r"|(?P<end></[A-Za-z_][\w:.-]*\s*>)"
    r"|(?P<start><(?P<name>[A-Za-z_][\w:.-]*)(?P<attrs>(?:\s+[^\s=/<>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)"
    r"\s*(?P<empty>/)?>)",
    re.S,
)
_XMLNS = re.compile(r"""xmlns(?::([\w.-]+))?\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_FENCE_OPEN = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})(.*)$")
_ENCODING = re.compile(r"""^<\?xml[^>]*?encoding\s*=\s*["']([\w.:-]+)["']""")


@dataclass(frozen=True)
class _Document:
    text: str  # the document's text
    start: int  # offset in the scanned text
    end: int
    comments: tuple[str, ...]
    truncated: bool


class Ranked(NamedTuple):
    """A document's rank (module docstring, rule 3), whether it is well-formed, its root as written, and,
    when it is well-formed, its element tree and the bytes it was parsed from (read again by nobody:
    :func:`~.models.read_model_data` takes the tree)."""

    rank: int
    well_formed: bool
    shown: str
    tree: etree._Element | None = None
    data: bytes | None = None


@dataclass(frozen=True)
class _Candidate:
    document: _Document
    where: str  # "fenced block 2 of 3", "the text"
    offset: int  # offset of the scanned text in the answer
    rank: int
    well_formed: bool
    root: str  # the root element as written, for notes
    tree: etree._Element | None = None  # the parsed document, when well-formed


@dataclass(frozen=True)
class ExtractedAnswer:
    """The document chosen from one answer (``data`` None when the answer holds no XML document)."""

    data: bytes | None
    source: str  # "whole answer", "fenced block 2 of 3", "document 2 in the text", "no XML document"
    start_line: int  # line of the answer where the document starts (1-based); 0 when there is none
    flags: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    usable: bool = False  # a document rooted at the stage's root class was found
    documents: int = 0  # XML documents found in the answer
    prose: bool = False  # the answer had text besides the document
    extracted: bool = field(default=False)  # data is not the answer's own bytes
    text: str | None = None  # the document as text (None when the answer is not UTF-8)
    # ``data`` parsed (when well-formed) while ranking: read_model_data need not parse it again
    tree: etree._Element | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "startLine": self.start_line,
            "documents": self.documents,
            "usable": self.usable,
            "prose": self.prose,
            "notes": list(self.notes),
        }


# -- scanning ------------------------------------------------------------------------------------------
def _collapse(comment: str) -> str:
    body = comment[4:]
    body = body[:-3] if body.endswith("-->") else body
    return " ".join(body.split())


def _is_declaration(match: re.Match[str]) -> bool:
    """``<?xml ...?>`` (not ``<?xml-stylesheet ...?>``)."""
    return re.match(r"<\?xml(?:\s|\?>)", match.group(0)) is not None


def scan_documents(text: str) -> list[_Document]:
    """The XML documents of a text, in order (module docstring, rule 2)."""
    documents: list[_Document] = []
    depth = 0
    doc_start = 0
    prolog: list[re.Match[str]] = []
    comments: list[str] = []
    last_end = 0

    def emit(end: int, truncated: bool) -> None:
        documents.append(
            _Document(
                text[doc_start:end],
                doc_start,
                end,
                tuple(c for c in map(_collapse, comments) if c),
                truncated,
            )
        )

    for match in _TOKEN.finditer(text):
        kind = match.lastgroup  # the alternative that matched: the groups inside "start" close before it
        if depth:  # inside a document (most tokens): only its depth, its comments and a new declaration
            if kind == "start":
                if match.group("empty") is None:
                    depth += 1
                continue
            if kind == "end":
                depth -= 1
                if depth == 0:
                    emit(match.end(), truncated=False)
                    prolog, comments = [], []
                    last_end = match.end()  # (only read outside a document)
                continue
            if kind == "comment":
                comments.append(match.group(0))
                continue
            if kind != "pi" or not _is_declaration(match):
                continue
            emit(match.start(), truncated=True)  # a new declaration: the open document was cut off
            depth, prolog, comments = 0, [], []
            last_end = match.start()  # and the declaration starts the next prolog, below
        if text[last_end : match.start()].strip():
            prolog = []
        if kind in ("comment", "pi", "doctype"):
            prolog.append(match)
        elif kind == "start":
            run = prolog
            declarations = [m for m in run if _is_declaration(m)]
            if declarations:
                run = run[run.index(declarations[0]) :]
            doc_start = run[0].start() if run else match.start()
            comments = [m.group(0) for m in run if m.group("comment")]
            if match.group("empty"):
                emit(match.end(), truncated=False)
                prolog, comments = [], []
            else:
                depth = 1
        else:
            prolog = []
        last_end = match.end()
    if depth > 0:
        emit(len(text), truncated=True)
    return documents


@dataclass(frozen=True)
class _Block:
    text: str
    offset: int


def fenced_blocks(text: str) -> list[_Block]:
    """The contents of the markdown fences of a text (an unterminated last fence runs to the end)."""
    blocks: list[_Block] = []
    fence: str | None = None
    content_start = 0
    position = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if fence is None:
            opened = _FENCE_OPEN.match(line.rstrip("\r\n"))
            if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
                fence = opened.group(1)
                content_start = position + len(line)
        elif stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
            blocks.append(_Block(text[content_start:position], content_start))
            fence = None
        position += len(line)
    if fence is not None:
        blocks.append(_Block(text[content_start:], content_start))
    return blocks


# -- ranking -------------------------------------------------------------------------------------------
def _root_tag(document: _Document) -> re.Match[str] | None:
    return next((m for m in _TOKEN.finditer(document.text) if m.group("start")), None)


def _rank(document: _Document, ns_uri: str, root_classes: tuple[str, ...]) -> Ranked:
    """:func:`rank_data` of one document."""
    return rank_data(_encode(document.text), _root_tag(document), ns_uri, root_classes)


def rank_data(data: bytes, tag: re.Match[str] | None, ns_uri: str, root_classes: tuple[str, ...]) -> Ranked:
    """The rank of a document's bytes, with its tree when it is well-formed; ``tag`` is its root start tag
    as scanned, if known."""
    shown = tag.group("name") if tag is not None else "?"
    try:
        check_xml_prolog(data, "answer")
    except BenchmarkError:
        return Ranked(_rank_by_tag(tag, ns_uri, root_classes), False, shown)  # not parsed, not even leniently
    try:
        root = parse_xml_safely(data, "answer")
        well_formed = True
    except BenchmarkError:
        root = parse_xml_recovering(data)
        well_formed = False
    if root is None:
        return Ranked(_rank_by_tag(tag, ns_uri, root_classes), False, shown)
    if tag is None:
        shown = root.tag.rpartition("}")[2] if isinstance(root.tag, str) else "?"
    roots = [r for r in model_roots(root) if isinstance(r.tag, str)]
    names = [_qname(r.tag) for r in roots]
    if roots and all(ns == ns_uri and local in root_classes for ns, local in names):
        rank = RANK_MATCH
    elif any(local in root_classes for _, local in names):
        rank = RANK_ROOT_NAME
    else:
        rank = RANK_OTHER
    return Ranked(rank, well_formed, shown, root, data) if well_formed else Ranked(rank, False, shown)


def _rank_by_tag(tag: re.Match[str] | None, ns_uri: str, root_classes: tuple[str, ...]) -> int:
    """Rank from the root start tag alone (a document with a DOCTYPE, or one nothing can be recovered
    from)."""
    if tag is None:
        return RANK_OTHER
    prefix, _, local = tag.group("name").rpartition(":")
    if local not in root_classes:
        return RANK_OTHER
    declared = {
        m.group(1) or "": m.group(2) if m.group(2) is not None else m.group(3)
        for m in _XMLNS.finditer(tag.group("attrs") or "")
    }
    return RANK_MATCH if declared.get(prefix) == ns_uri else RANK_ROOT_NAME


def _candidates(
    text: str, where: str, offset: int, ns_uri: str, root_classes: tuple[str, ...]
) -> Iterator[_Candidate]:
    documents = scan_documents(text)
    for index, document in enumerate(documents, 1):
        label = where if len(documents) == 1 else f"document {index} of {len(documents)} in {where}"
        ranked = _rank(document, ns_uri, root_classes)
        yield _Candidate(document, label, offset, ranked.rank, ranked.well_formed, ranked.shown, ranked.tree)


def _nested(candidate: _Candidate, ns_uri: str, root_classes: tuple[str, ...]) -> list[_Candidate]:
    """Documents inside an unranked one, after its root start tag."""
    tag = _root_tag(candidate.document)
    if tag is None:
        return []
    inner = candidate.document.text[tag.end() :]
    offset = candidate.offset + candidate.document.start + tag.end()
    where = f"{candidate.where} (inside <{candidate.root}>)"
    return list(_candidates(inner, where, offset, ns_uri, root_classes))


# -- the rule ------------------------------------------------------------------------------------------
def _decode(raw: bytes) -> str | None:
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _encode(document: str) -> bytes:
    """The document's bytes in the encoding its declaration names (UTF-8 without one)."""
    declared = _ENCODING.match(document)
    if declared:
        try:
            return document.encode(codecs.lookup(declared.group(1)).name, errors="xmlcharrefreplace")
        except (LookupError, UnicodeError):
            pass
    return document.encode("utf-8")


def _line_at(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def envelope_document(text: str) -> str | None:
    """The document of an answer in the JSON envelope (``{"document": TEXT}``, nothing else), or ``None``
    when the answer is not one."""
    if not text.lstrip("\ufeff \t\r\n").startswith("{"):
        return None
    try:
        # strict=False: a raw line break inside the string is read as one (llama-cpp-python 0.3.36's
        # grammar lets the model write them; the schema check still reports the answer as not JSON)
        value = json.loads(text.lstrip("\ufeff"), strict=False)
    except ValueError:
        return None
    if isinstance(value, dict) and list(value) == ["document"] and isinstance(value["document"], str):
        return value["document"]
    return None


def extract_model(raw: bytes, ns_uri: str, root_classes: tuple[str, ...]) -> ExtractedAnswer:
    """The document to score in an answer (module docstring), with its flags and notes."""
    text = _decode(raw)
    inner = envelope_document(text) if text is not None else None
    if inner is not None:
        found = extract_model(inner.encode("utf-8"), ns_uri, root_classes)
        return replace(found, source=f"the JSON envelope's document ({found.source})", extracted=True)
    if text is None:  # not UTF-8: a bare model in another encoding, or nothing we can split
        ranked = rank_data(raw, None, ns_uri, root_classes)
        notes = ("not UTF-8 text: read as it is",)
        return ExtractedAnswer(
            raw, "whole answer", 1, (), notes, ranked.rank >= RANK_ROOT_NAME, 1, tree=ranked.tree
        )
    whole = scan_documents(text)
    if len(whole) == 1 and not text[: whole[0].start].strip() and not text[whole[0].end :].strip():
        ranked = _rank(whole[0], ns_uri, root_classes)
        return ExtractedAnswer(
            raw,
            "whole answer",
            1,
            whole[0].comments,
            (),
            ranked.rank >= RANK_ROOT_NAME,
            1,
            text=text.lstrip("\ufeff"),
            tree=ranked.tree if ranked.data == raw else None,  # the same bytes: the same tree
        )
    blocks = fenced_blocks(text)
    candidates: list[_Candidate] = []
    for index, block in enumerate(blocks, 1):
        where = "the fenced block" if len(blocks) == 1 else f"fenced block {index} of {len(blocks)}"
        candidates.extend(_candidates(block.text, where, block.offset, ns_uri, root_classes))
    if not candidates:
        candidates = list(_candidates(text, "the text", 0, ns_uri, root_classes))
    if candidates and max(c.rank for c in candidates) == RANK_OTHER:
        nested = [n for c in candidates for n in _nested(c, ns_uri, root_classes)]
        if nested and max(n.rank for n in nested) > RANK_OTHER:
            candidates = nested
    if not candidates:
        notes = ("the answer contains no XML document",)
        return ExtractedAnswer(None, "no XML document", 0, (), notes, prose=bool(text.strip()))
    best = max(candidates, key=lambda c: (c.rank, c.well_formed))
    tied = [c for c in candidates if (c.rank, c.well_formed) == (best.rank, best.well_formed)]
    chosen = tied[-1]
    notes: list[str] = []
    if len(tied) > 1:
        where = "; ".join(f"{c.where} (line {_line_at(text, c.offset + c.document.start)})" for c in tied)
        notes.append(f"ambiguous: {len(tied)} documents rooted at <{best.root}>: {where}; scored the last")
    if chosen.rank == RANK_OTHER:
        notes.append(f"no document is rooted at {' or '.join(root_classes)}; scored <{chosen.root}>")
    if chosen.document.truncated:
        notes.append("the document is cut off (its root element is never closed)")
    start = chosen.offset + chosen.document.start
    document = chosen.document
    rest = text[:start] + text[start + len(document.text) :]
    return ExtractedAnswer(
        data=_encode(document.text),
        source=chosen.where,
        start_line=_line_at(text, start),
        flags=document.comments,
        notes=tuple(notes),
        usable=chosen.rank >= RANK_ROOT_NAME,
        documents=len(candidates),
        prose=bool(re.sub(r"^[ \t]*(```|~~~).*$", "", rest, flags=re.M).strip()),
        extracted=True,
        text=document.text,
        tree=chosen.tree,  # parsed from _encode(document.text): data
    )
