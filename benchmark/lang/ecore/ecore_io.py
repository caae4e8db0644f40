"""Loading ``.ecore`` files with pyecore: local files only, well-known platform URIs mapped, no proxies left.

pyecore alone gets three things wrong for this benchmark (see ``emf-compare-match-engine.md`` part 2):

* it would follow ``http://`` references over the network (``HttpURIConverter`` is registered globally) and
  would parse any referenced file with lxml's entity-expanding default parser;
* ``platform:/plugin/org.eclipse.emf.ecore/model/Ecore.ecore#//...`` and UML's
  ``platform:/plugin/org.eclipse.uml2.types/model/Types.ecore#//...`` do not resolve (pyecore issues #62,
  #78), so UML-based metamodels fail to load;
* references to other resources stay ``EProxy`` wrappers, which break identity comparisons (``a is b``) in
  the match engine and delay resolution errors to whoever touches the value first.

So every resource of the load goes through a converter that only reads local files and runs the XML guard
on them; a decoder maps the well-known URIs to pyecore's Ecore package and to a stand-in UML types
package; and external references are resolved while parsing, so the resulting objects are the real ones
and an unresolvable reference is a load error naming the reference.

KM3-generated ``EDataType``s (``String``, ``Integer``, ...) have no ``instanceClassName``; they get a Python
type by name (:func:`apply_python_types`) so that instances of the metamodel can be created.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterator
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from lxml import etree
from pyecore.ecore import EClass, EDataType, EEnum, EObject, EPackage, EProxy
from pyecore.resources import ResourceSet
from pyecore.resources.resource import URI, AbstractURIConverter, MetamodelDecoder, Resource, global_registry
from pyecore.resources.xmi import XMIResource

from benchmark.core.xmlguard import check_xml_prolog, parse_xml_safely, pyecore_parser
from benchmark.lang.ecore.errors import MetamodelError

ECORE_NS_URI = "http://www.eclipse.org/emf/2002/Ecore"
XMI_NS_URI = "http://www.omg.org/XMI"
UML_TYPES_NS_URI = "http://www.eclipse.org/uml2/5.0.0/Types"

_UML_TYPES_URI = re.compile(
    r"(?:^|/)org\.eclipse\.uml2\.types/model/Types\.ecore$|^http://www\.eclipse\.org/uml2/\d+\.\d+\.\d+/Types$"
)
_LINE_IN_MESSAGE = re.compile(r"\bline (\d+)")


# ---------------------------------------------------------------------------------------------- datatypes


def _parse_bool(text: str) -> bool:
    return text.strip().lower() == "true"


# Python type, from_string, default value, by the simple name KM3 (and hand-written metamodels) use.
_PYTHON_TYPES: dict[str, tuple[type, Any, Any]] = {}
for _names, _type, _from_string, _default in (
    (("String", "Char", "Character", "Text"), str, str, None),
    (("Integer", "Int", "Long", "Short", "Byte", "BigInteger", "UnlimitedNatural", "Natural"), int, int, 0),
    (("Boolean", "Bool"), bool, _parse_bool, False),
    (("Double", "Real", "Float", "Decimal", "BigDecimal", "Number"), float, float, 0.0),
):
    for _name in _names:
        _PYTHON_TYPES[_name] = (_type, _from_string, _default)


def python_type_for(datatype_name: str) -> tuple[type, Any, Any]:
    """``(python type, from_string, default)`` for a datatype without an instance class.

    Unknown names get ``object`` (any value accepted, strings kept as they are), never a failure: the
    metamodel is usable even when a datatype is exotic.
    """
    return _PYTHON_TYPES.get(datatype_name, (object, str, None))


def apply_python_type(datatype: EDataType) -> None:
    """Give an ``EDataType`` without an instance class a Python type, so instances can be created.

    Only pyecore's Python-side attributes change (``eType``, ``from_string``, ``default_value``); the Ecore
    feature ``instanceClassName`` stays unset, as in the file.
    """
    if isinstance(datatype, EEnum) or datatype.instanceClassName:
        return
    python_type, from_string, default = python_type_for(datatype.name or "")
    datatype.eType = python_type
    datatype.from_string = from_string
    datatype.default_value = default


def apply_python_types(roots: tuple[EPackage, ...]) -> None:
    """:func:`apply_python_type` for every datatype of the packages."""
    for obj in iter_proper_contents(roots):
        if isinstance(obj, EDataType):
            apply_python_type(obj)


@cache
def _containments(metaclass: EClass) -> tuple[Any, ...]:
    return tuple(reference for reference in metaclass.eAllReferences() if reference.containment)


def iter_proper_contents(roots: tuple[EObject, ...] | list[EObject]) -> Iterator[EObject]:
    """Roots and all their contents, depth first, parents before children, containment order.

    (pyecore's ``eContents`` recomputes the containment features on every call, several times slower.)
    """
    stack: list[EObject] = list(reversed(roots))
    while stack:
        obj = stack.pop()
        yield obj
        children: list[EObject] = []
        for reference in _containments(obj.eClass):
            value = obj.eGet(reference)
            if reference.many:
                children.extend(value)
            elif value is not None:
                children.append(value)
        stack.extend(reversed(children))


# ------------------------------------------------------------------------------- well-known resources


@lru_cache(maxsize=1)
def uml_types_package() -> EPackage:
    """Stand-in for UML2's ``Types.ecore`` (not shipped with pyecore), shared by every load like EMF's.

    Same names, nsURI and instance classes as ``org.eclipse.uml2.types/model/Types.ecore``.
    """
    package = EPackage("types", nsURI=UML_TYPES_NS_URI, nsPrefix="types")
    for name, instance_class in (
        ("Boolean", "boolean"),
        ("Integer", "int"),
        ("Real", "double"),
        ("String", "java.lang.String"),
        ("UnlimitedNatural", "int"),
    ):
        package.eClassifiers.append(EDataType(name, instanceClassName=instance_class))
    return package


@lru_cache(maxsize=1)
def ecore_supplement() -> EPackage:
    """EMF Ecore classifiers that pyecore's Ecore package lacks, with EMF's names and instance classes.

    UML.ecore types derived caches with ``EMap<EJavaObject, EJavaObject>``; without these, such a reference
    would resolve to nothing. They live in a package of their own (pyecore's Ecore is a module that cannot
    take new classifiers), consulted only when pyecore's Ecore has no classifier of that name.
    """
    package = EPackage("ecore", nsURI=ECORE_NS_URI, nsPrefix="ecore")
    for name, instance_class in (
        ("EEList", "org.eclipse.emf.common.util.EList"),
        ("EEnumerator", "org.eclipse.emf.common.util.Enumerator"),
        ("EFeatureMap", "org.eclipse.emf.ecore.util.FeatureMap"),
        ("EInvocationTargetException", "java.lang.reflect.InvocationTargetException"),
        ("EMap", "org.eclipse.emf.common.util.EMap"),
        ("EResource", "org.eclipse.emf.ecore.resource.Resource"),
        ("EResourceSet", "org.eclipse.emf.ecore.resource.ResourceSet"),
        ("ETreeIterator", "org.eclipse.emf.common.util.TreeIterator"),
    ):
        package.eClassifiers.append(EDataType(name, instanceClassName=instance_class))
    package.eClassifiers.append(EClass("EFactory"))
    return package


def _split_reference(path: str) -> tuple[str, str]:
    path = Resource.normalize(path)
    uri, _, fragment = path.rpartition("#")
    return uri, fragment


def _well_known_package(uri: str, fragment: str) -> Any | None:
    """pyecore's Ecore package or the UML types stand-in for a URI that names one of them, else ``None``."""
    if uri == ECORE_NS_URI or (uri.rsplit("/", 1)[-1] == "Ecore.ecore" and fragment.startswith("//")):
        # Name-based fragments only: a positional "/0/..." fragment into a file called Ecore.ecore is a
        # KM3-style copy (the zoo has several), which must be loaded as a file.
        return global_registry[ECORE_NS_URI]
    if _UML_TYPES_URI.search(uri):
        return uml_types_package()
    return None


class _WellKnownDecoder:
    """A pyecore decoder: references into Ecore and UML types resolve without touching any file."""

    @staticmethod
    def can_resolve(path: str, from_resource: Resource | None = None) -> bool:
        uri, fragment = _split_reference(path)
        return bool(uri) and _well_known_package(uri, fragment) is not None

    @staticmethod
    def resolve(path: str, from_resource: Resource | None = None) -> Any:
        uri, fragment = _split_reference(path)
        package = _well_known_package(uri, fragment)
        found = MetamodelDecoder.resolve(f"{uri}#{fragment}", {uri: package})
        if found is None and package is global_registry[ECORE_NS_URI]:
            found = ecore_supplement().getEClassifier(fragment.strip("/"))
        return found


# ------------------------------------------------------------------------------------- local files only


class _GuardedURI(URI):
    """A local file, read once and checked by the XML guard before pyecore's parser sees it."""

    def __init__(self, uri: str, data: bytes | None = None) -> None:
        super().__init__(uri)
        self._data = data
        self._guarded_stream: io.BytesIO | None = None
        self.sha256: str | None = None  # of the bytes parsed, once read

    @property
    def local_path(self) -> str:
        return self.plain[len("file://") :] if self.plain.startswith("file://") else self.plain

    def create_instream(self) -> io.BytesIO:
        data = self._data
        if data is None:
            file = self.local_path
            try:
                data = Path(file).read_bytes()
            except OSError as error:
                raise MetamodelError(f"cannot read referenced file: {error.strerror}", file=file) from None
            check_xml_prolog(data, file, error=MetamodelError)
        self.sha256 = hashlib.sha256(data).hexdigest()
        self._guarded_stream = io.BytesIO(data)
        return self._guarded_stream

    def close_stream(self) -> None:
        if self._guarded_stream is not None:
            self._guarded_stream.close()

    def create_outstream(self) -> Any:
        raise MetamodelError("metamodels are loaded read-only", file=self.plain)


class _LocalFilesOnly(AbstractURIConverter):
    """Placed before pyecore's global converters, so its ``HttpURIConverter`` is never reached."""

    @staticmethod
    def can_handle(uri: URI) -> bool:
        return True

    @staticmethod
    def convert(uri: URI) -> URI:
        if uri.protocol not in (None, "file"):
            raise MetamodelError(
                f"refusing to load {uri.plain!r}: only local files are read (never the network); "
                "the Ecore and UML types platform URIs are mapped, others are not available"
            )
        return _GuardedURI(uri.plain)


class _UnresolvedReference(Exception):
    def __init__(self, reference: str, cause: str) -> None:
        super().__init__(reference, cause)
        self.reference = reference
        self.cause = cause


class GuardedXMIResource(XMIResource):
    """An XMI resource parsed with the XML guard's parser (comments allowed anywhere, no entities) whose
    external references are resolved (to real objects) while it is parsed."""

    def __init__(self, uri: URI | None = None, use_uuid: bool = False) -> None:
        super().__init__(uri, use_uuid)
        self.decoders.insert(0, _WellKnownDecoder)

    def load(self, options: Any = None) -> None:
        with pyecore_parser():
            super().load(options)

    def _resolve_external(self, path: str) -> Any:
        path = Resource.normalize(path)
        try:
            decoded = self.resolve_object(path)
        except MetamodelError:
            raise
        except Exception as error:  # pyecore raises TypeError/KeyError/StopIteration/... for one cause
            raise _UnresolvedReference(path, f"{type(error).__name__}: {error}") from None
        if decoded is None:
            raise _UnresolvedReference(path, "no element at this fragment")
        if isinstance(decoded, EProxy):
            decoded = decoded.force_resolve()
        if not hasattr(decoded, "_inverse_rels"):  # a static pyecore class (EModelElement): its EClass
            decoded = decoded.eClass
        return decoded

    @lru_cache  # noqa: B019 - pyecore's own method is cached the same way and cleared by _clean_registers
    def _resolve_nonhref(self, path: str) -> Any:
        uri, _fragment = self._is_external(path)
        if uri:
            return self._resolve_external(path)
        return super()._resolve_nonhref(path)

    def _decode_node(self, parent_eobj: EObject, node: Any) -> Any:
        feature, obj, attributes, references, from_tag = super()._decode_node(parent_eobj, node)
        if isinstance(obj, EProxy) and not obj.resolved:  # <eType href="..."/> and similar
            obj = self._resolve_external(obj._proxy_path)
        return feature, obj, attributes, references, from_tag


def guarded_uri(path: str, data: bytes | None = None) -> URI:
    """A local file's URI for :meth:`ResourceSet.get_resource`, read once (or given as ``data``, already
    checked by the caller) and checked by the XML guard before pyecore parses it."""
    return _GuardedURI(path, data)


def new_resource_set() -> ResourceSet:
    resource_set = ResourceSet()
    resource_set.uri_converter.append(_LocalFilesOnly)
    for extension in ("ecore", "xmi", "*"):
        resource_set.resource_factory[extension] = GuardedXMIResource
    return resource_set


# ------------------------------------------------------------------------------------------ the loader


def _describe(element: etree._Element) -> str:
    qname = etree.QName(element)
    prefix = element.prefix
    return f"{prefix}:{qname.localname}" if prefix else qname.localname


def check_is_metamodel(root: etree._Element, file: str) -> None:
    """An ``ecore:EPackage`` root, or an ``xmi:XMI`` wrapper holding only ``ecore:EPackage`` roots.

    Instance models saved with an ``.ecore`` extension (the zoo has 75) are refused by name here instead
    of failing deep inside pyecore with an unknown-namespace ``KeyError``.
    """
    package_tag = f"{{{ECORE_NS_URI}}}EPackage"
    if root.tag == package_tag:
        return
    if root.tag == f"{{{XMI_NS_URI}}}XMI":
        children = [child for child in root if isinstance(child.tag, str)]
        if not children:
            raise MetamodelError("not an Ecore metamodel: the xmi:XMI element is empty", file=file)
        for child in children:
            if child.tag != package_tag:
                raise MetamodelError(
                    f"not an Ecore metamodel: root object <{_describe(child)}> is not an ecore:EPackage "
                    "(an instance model saved as .ecore?)",
                    file=file,
                    line=child.sourceline,
                )
        return
    raise MetamodelError(
        f"not an Ecore metamodel: the root element is <{_describe(root)}>, expected ecore:EPackage or "
        "xmi:XMI (an instance model saved as .ecore?)",
        file=file,
        line=root.sourceline,
    )


def _line_of(message: str) -> int | None:
    found = _LINE_IN_MESSAGE.search(message)
    return int(found.group(1)) if found else None


def load_ecore(
    file: str, data: bytes
) -> tuple[tuple[EPackage, ...], dict[EObject, str], tuple[tuple[str, str], ...]]:
    """Root packages (file order), the ``xmi:id`` of every object that has one, and the other files read
    to resolve references (absolute path and SHA-256 of the bytes parsed, sorted).

    ``data`` is the file content already read by the caller (so what is checked is what is parsed). The
    referenced files are part of what was loaded: a cache of the result must check them too.
    """
    check_xml_prolog(data, file, error=MetamodelError)
    check_is_metamodel(parse_xml_safely(data, file, error=MetamodelError), file)
    resource_set = new_resource_set()
    main = str(Path(file).resolve())
    try:
        resource = resource_set.get_resource(_GuardedURI(main, data))
    except MetamodelError as error:
        if error.file is None:
            error.file = file
        raise
    except _UnresolvedReference as error:
        raise MetamodelError(
            f"cannot resolve reference {error.reference!r}: {error.cause}", file=file
        ) from None
    except Exception as error:  # pyecore reports problems as ValueError/KeyError/TypeError/...
        message = f"{type(error).__name__}: {error}"
        raise MetamodelError(
            f"pyecore cannot load this metamodel: {message}", file=file, line=_line_of(message)
        ) from None
    roots = tuple(resource.contents)
    for index, root in enumerate(roots):
        if not isinstance(root, EPackage):
            raise MetamodelError(f"root object {index} is a {root.eClass.name}, not an EPackage", file=file)
    xmi_ids: dict[EObject, str] = {}
    for obj in iter_proper_contents(roots):
        _check_no_proxies(obj, file)
        if isinstance(obj, EDataType):
            apply_python_type(obj)
        xmi_id = getattr(obj, "_internal_id", None)
        if xmi_id:
            xmi_ids[obj] = xmi_id
    return roots, xmi_ids, _files_read(resource_set, main)


def _files_read(resource_set: ResourceSet, main: str) -> tuple[tuple[str, str], ...]:
    """(path, SHA-256) of every local file the resource set parsed besides ``main`` (pyecore keys a
    resource under several spellings of its URI, so the resources are read, not the keys)."""
    files = {
        (resource.uri.local_path, resource.uri.sha256)
        for resource in resource_set.resources.values()
        if isinstance(resource.uri, _GuardedURI) and resource.uri.sha256 is not None
    }
    return tuple(sorted(entry for entry in files if entry[0] != main))


@cache
def _cross_references(metaclass: EClass) -> tuple[Any, ...]:
    """Non-containment, non-container, non-derived references of a metaclass: where proxies could hide."""
    return tuple(
        reference
        for reference in metaclass.eAllReferences()
        if not reference.derived
        and not reference.containment
        and not (reference.eOpposite is not None and reference.eOpposite.containment)
    )


def _check_no_proxies(obj: EObject, file: str) -> None:
    """Every cross reference holds a real object: the loader's promise to the match engine."""
    for reference in _cross_references(obj.eClass):
        value = obj.eGet(reference)
        values = value if reference.many else (value,)
        for item in values:
            if isinstance(item, EProxy):
                raise MetamodelError(
                    f"reference {reference.name} of {getattr(obj, 'name', obj)!s} is still an "
                    f"unresolved proxy to {item._proxy_path!r}",
                    file=file,
                )
