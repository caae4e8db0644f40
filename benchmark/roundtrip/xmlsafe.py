"""Hardened XML reading for the round-trip track: strict (for loading) and recovering (for partial credit).

Files scored here are written by LLMs, so nothing in them may expand entities, load a DTD or reach the
network. The DOCTYPE refusal and the strict parser are the metamodel layer's
(:mod:`benchmark.metamodel.xmlguard`); this module adds the *recovering* parse the scorer uses to read a
broken file as far as it goes, with the same protections.
"""

from __future__ import annotations

from lxml import etree

from benchmark.errors import BenchmarkError
from benchmark.metamodel.xmlguard import check_xml_prolog, parse_xml_safely

__all__ = ["check_xml_prolog", "parse_xml_recovering", "parse_xml_safely", "refuses_prolog"]


def refuses_prolog(data: bytes, file: str) -> BenchmarkError | None:
    """The error :func:`check_xml_prolog` would raise (a DOCTYPE or entity declaration), or None."""
    try:
        check_xml_prolog(data, file)
    except BenchmarkError as error:
        return error
    return None


def parse_xml_recovering(data: bytes) -> etree._Element | None:
    """As much of the element tree as libxml2 can recover from broken XML, or None.

    Callers must have checked the prolog first (:func:`refuses_prolog`): a file with a DOCTYPE is
    never parsed, not even leniently.
    """
    parser = etree.XMLParser(
        recover=True,
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )
    try:
        return etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError:
        return None
