"""Unsafe XML is refused before any parser expands anything, with the file and line in the error."""

from __future__ import annotations

from pathlib import Path

import pyecore.resources.xmi
import pytest

from benchmark.core import xmlguard
from benchmark.core.xmlguard import check_xml_prolog
from benchmark.lang.ecore import MetamodelError, load_resource

BILLION_LAUGHS = """<?xml version="1.0" encoding="UTF-8"?>
<!-- a classic: ten levels of ten-fold entity expansion -->
<!DOCTYPE lolz [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
  <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
  <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
  <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
  <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
  <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<ecore:EPackage xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore" name="&lol9;"/>
"""


def external_entity(target: Path) -> str:
    return f"""<?xml version="1.0"?>
<!DOCTYPE ecore:EPackage [ <!ENTITY secret SYSTEM "file://{target}"> ]>
<ecore:EPackage xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore" name="&secret;"/>
"""


@pytest.fixture
def no_xml_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any XML parser call fails the test: refusal must happen before parsing."""

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("an XML parser was called on an unsafe file")

    monkeypatch.setattr(xmlguard.etree, "fromstring", forbidden)
    monkeypatch.setattr(pyecore.resources.xmi, "parse", forbidden)


def test_billion_laughs_is_refused_before_parsing_with_file_and_line(
    tmp_path: Path, no_xml_parsing: None
) -> None:
    path = tmp_path / "lol.ecore"
    path.write_text(BILLION_LAUGHS, encoding="utf-8")
    with pytest.raises(MetamodelError, match="entity declarations") as caught:
        load_resource(path)
    assert (caught.value.file, caught.value.line, caught.value.column) == (str(path), 3, 1)
    assert str(path) in str(caught.value)


def test_external_entities_are_refused_and_nothing_is_read(tmp_path: Path, no_xml_parsing: None) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET", encoding="utf-8")
    path = tmp_path / "xxe.ecore"
    path.write_text(external_entity(secret), encoding="utf-8")
    with pytest.raises(MetamodelError) as caught:
        load_resource(path)
    assert caught.value.line == 2
    assert "DOCTYPE" in caught.value.message and "TOP-SECRET" not in str(caught.value)


def test_a_doctype_without_entities_is_refused_too(tmp_path: Path) -> None:
    path = tmp_path / "dtd.ecore"
    path.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE ecore:EPackage SYSTEM "http://example.invalid/ecore.dtd">\n'
        '<ecore:EPackage xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore" name="x"/>\n',
        encoding="utf-8",
    )
    with pytest.raises(MetamodelError, match="<!DOCTYPE declaration"):
        load_resource(path)


def test_prolog_scan_accepts_comments_and_processing_instructions() -> None:
    check_xml_prolog(
        b'\xef\xbb\xbf<?xml version="1.0"?>\n<!-- <!DOCTYPE x> in a comment -->\n<?pi x?>\n<a/>', "f"
    )


def test_prolog_scan_sees_utf16_documents() -> None:
    text = '<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE a [<!ENTITY e "x">]>\n<a>&e;</a>'
    with pytest.raises(MetamodelError, match="entity declarations") as caught:
        check_xml_prolog(text.encode("utf-16"), "f", error=MetamodelError)
    assert caught.value.line == 2


def test_undeclared_entity_references_fail_as_syntax_errors(tmp_path: Path) -> None:
    path = tmp_path / "undeclared.ecore"
    path.write_text(
        '<?xml version="1.0"?>\n<ecore:EPackage xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore" '
        'name="&undeclared;"/>\n',
        encoding="utf-8",
    )
    with pytest.raises(MetamodelError, match="not well-formed XML") as caught:
        load_resource(path)
    assert caught.value.line == 2


def test_the_no_parsing_guard_would_notice_a_parse(no_xml_parsing: None, data: Path) -> None:
    from benchmark.lang.ecore.loader import clear_cache

    clear_cache()
    with pytest.raises(AssertionError, match="XML parser was called"):
        load_resource(data / "bookstore.ecore")


def test_a_doctype_after_a_long_leading_comment_is_still_found() -> None:
    text = "<?xml version='1.0'?>\n<!--" + "x" * (3 << 20) + "-->\n<!DOCTYPE a [<!ENTITY e 'x'>]>\n<a/>"
    with pytest.raises(MetamodelError, match="entity declarations") as caught:
        check_xml_prolog(text.encode("ascii"), "f", error=MetamodelError)
    assert caught.value.line == 3


def test_the_guard_raises_the_callers_error_type() -> None:
    """The guard is in the core and knows no metamodel layer: by default its refusal is an input error."""
    from benchmark.core.errors import InputFormatError

    with pytest.raises(InputFormatError, match="entity declarations") as caught:
        check_xml_prolog(b"<?xml version='1.0'?>\n<!DOCTYPE a [<!ENTITY e 'x'>]>\n<a/>", "f")
    assert not isinstance(caught.value, MetamodelError)
