"""Refuse XML that could expand entities or read other files before any XML parser sees it.

pyecore parses with lxml's default parser, which honours internal entity declarations: a "billion laughs"
file would expand to gigabytes, and an external entity could read local files or reach the network. Entity
declarations can only live in a document type declaration, and a DOCTYPE can only sit in the prolog, before
the root element. So scanning the prolog (XML declaration, comments, processing instructions) and refusing
any ``<!DOCTYPE`` there is both quick and complete: nothing is expanded because nothing is
parsed yet. Ecore and XMI files never need a DOCTYPE.

:func:`parse_xml_safely` then parses with entity resolution, DTD loading and network access switched off,
for the structural checks the loader makes before handing the same bytes to pyecore;
:func:`parse_xml_recovering` does the same for a broken file, as far as it goes (the round-trip scorer
reads such files for partial credit). :func:`pyecore_parser` makes the same parser the one pyecore's own
``lxml.etree.parse`` call uses, for the time of one load: pyecore parses with lxml's default parser, which
keeps comments and processing instructions as tree nodes and then fails on them ("Invalid tag name
'<cyfunction Comment ...>'"), although XML allows both anywhere.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from contextlib import contextmanager

from lxml import etree

from benchmark.core.errors import BenchmarkError, InputFormatError

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def _decode_for_scan(data: bytes) -> str:
    """Text good enough to scan the ASCII-only prolog markup, whatever the declared encoding."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace")
    if data[:4] in (b"<\x00?\x00", b"<\x00\x00\x00"):
        return data.decode("utf-16-le" if data[:4] == b"<\x00?\x00" else "utf-32-le", errors="replace")
    if data[:4] in (b"\x00<\x00?", b"\x00\x00\x00<"):
        return data.decode("utf-16-be" if data[:4] == b"\x00<\x00?" else "utf-32-be", errors="replace")
    # Latin-1 maps every byte to one character, so positions (and line numbers) stay exact for ASCII
    # markup in UTF-8 and single-byte encodings alike.
    return data.decode("latin-1")


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def check_xml_prolog(data: bytes, file: str, *, error: type[BenchmarkError] = InputFormatError) -> None:
    """Raise ``error`` (the caller's error type; :class:`InputFormatError` by default) when the prolog
    declares a DOCTYPE (and so possibly entities).

    Only the prolog is scanned (the whole file is decoded, however long its leading comments are, but
    the scan stops at the root element).
    """
    text = _decode_for_scan(data)
    position = 0
    length = len(text)
    while position < length:
        if text[position].isspace():
            position += 1
            continue
        if text.startswith("<?", position):
            end = text.find("?>", position + 2)
            if end < 0:
                break  # malformed: let the parser report it
            position = end + 2
        elif text.startswith("<!--", position):
            end = text.find("-->", position + 4)
            if end < 0:
                break
            position = end + 3
        elif text.startswith("<!", position):
            line, column = _position(text, position)
            declaration = text[position : position + 9]
            declares_entities = "<!ENTITY" in text[position : position + (1 << 16)]
            what = "entity declarations" if declares_entities else f"a {declaration.strip()} declaration"
            raise error(
                f"refusing XML with {what}: DTDs can expand entities exponentially (billion laughs) or "
                "pull in other files and URLs; Ecore/XMI files never need one, remove the <!DOCTYPE> block",
                file=file,
                line=line,
                column=column,
            )
        else:
            break  # the root element starts: no DOCTYPE can follow
    return None


def _safe_parser(*, recover: bool = False) -> etree.XMLParser:
    """No DTD, no entity expansion, no network; comments and processing instructions dropped (they are
    legal anywhere in XML and carry no model content)."""
    return etree.XMLParser(
        recover=recover,
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


def parse_xml_safely(
    data: bytes, file: str, *, error: type[BenchmarkError] = InputFormatError
) -> etree._Element:
    """The root element, parsed without DTDs, entity expansion or network access.

    Call :func:`check_xml_prolog` first; this is the second line of defence and the syntax checker.
    """
    try:
        root = etree.fromstring(data, parser=_safe_parser())
    except etree.XMLSyntaxError as syntax:
        line, column = syntax.position if syntax.position else (syntax.lineno, None)
        raise error(f"not well-formed XML: {syntax.msg}", file=file, line=line, column=column) from None
    if root is None:
        raise error("empty XML document", file=file)
    return root


def parse_xml_recovering(data: bytes) -> etree._Element | None:
    """As much of the element tree as libxml2 can recover from broken XML (same protections), or None.

    For scorers that give partial credit to a broken file. Call :func:`check_xml_prolog` first: a file
    with a DOCTYPE must not be parsed at all, not even leniently.
    """
    try:
        return etree.fromstring(data, parser=_safe_parser(recover=True))
    except etree.XMLSyntaxError:
        return None


@contextmanager
def pyecore_parser() -> Iterator[None]:
    """Within the block, lxml parse calls that pass no parser (pyecore's ``XMIResource.load``) use the safe
    parser of :func:`parse_xml_safely`: no DTD or entity expansion, and comments and processing
    instructions are dropped instead of reaching pyecore as nodes it cannot decode.

    lxml's default parser is per thread, so this changes nothing for other threads; the previous
    default is restored on exit, also after an error.
    """
    previous = etree.get_default_parser()
    etree.set_default_parser(_safe_parser())
    try:
        yield
    finally:
        etree.set_default_parser(previous)
