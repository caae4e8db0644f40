"""One entry point for metamodel files, whatever their notation: :func:`load_resource`.

``.km3`` text is turned into the same pyecore objects the KM3-to-Ecore tooling would have written to an
``.ecore`` file, so everything downstream (the view, EMF Compare's match engine, name baselines) sees one
kind of input. Loads are cached per (path, content hash) in the process, and a cached load is used only
while the files its references read are unchanged: the baselines and the comparator load the same few
metamodels for many pairs, and UML-sized files take more than a second.

The cached pyecore objects are shared between callers; treat them as read-only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType

from pyecore.ecore import EObject, EPackage

from benchmark.core.fileio import sha256_file
from benchmark.core.memo import BoundedMemo
from benchmark.lang.ecore.errors import MetamodelError

KM3_SUFFIX = ".km3"
CACHE_SIZE = 256


@dataclass(frozen=True)
class LoadedMetamodel:
    """The pyecore objects of one metamodel file.

    ``roots``: root EPackages in file order (a KM3 file: one per top-level package). ``xmi_ids``: the
    ``xmi:id`` of each object that carries one (EMF Compare pairs such objects by id before anything else);
    empty for KM3 and for the usual id-less ``.ecore``. ``dependencies``: (absolute path, SHA-256) of the
    other files read to resolve references (``eType="Other.ecore#//C"``); whatever is derived from the
    roots depends on them too (see :func:`dependencies_unchanged`). Equality and hashing use ``file`` and
    the identity of the roots, so a loaded metamodel can key a cache.
    """

    file: str
    roots: tuple[EPackage, ...]
    xmi_ids: Mapping[EObject, str] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    dependencies: tuple[tuple[str, str], ...] = field(default=(), compare=False)


def dependencies_unchanged(dependencies: tuple[tuple[str, str], ...]) -> bool:
    """Whether every (file, SHA-256) still holds: an edited or deleted referenced file means that a load
    (or anything computed from it) is out of date."""
    try:
        return all(sha256_file(file) == digest for file, digest in dependencies)
    except OSError:
        return False


_cache: BoundedMemo[tuple[str, str], LoadedMetamodel] = BoundedMemo(CACHE_SIZE)


def _read(path: Path, file: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise MetamodelError("no such metamodel file", file=file) from None
    except IsADirectoryError:
        raise MetamodelError("is a directory, not a metamodel file", file=file) from None
    except OSError as error:
        raise MetamodelError(f"cannot read metamodel file: {error.strerror}", file=file) from None


# What a file that is not a metamodel probably is, by suffix, for the message that refuses it.
_OTHER_KINDS = {
    ".atl": "an ATL transformation",
    ".json": "a JSON file",
    ".use": "a USE model (the OCL track)",
    ".puml": "a PlantUML model (the OCL track)",
    ".soil": "a SOIL object state (the OCL track)",
    ".md": "a Markdown file",
    ".txt": "a text file",
}


def _refuse_non_metamodel(file: str, path: Path, data: bytes) -> None:
    """A file that is neither ``.km3`` nor XML is said to be what its suffix says, rather than reported
    as "not well-formed XML" (``atlbench metamodel T.atl``). An ``.ecore``/``.xmi`` file, or any file that
    starts like XML, goes on to the XML reader and its positioned errors."""
    suffix = path.suffix.lower()
    if suffix in (".ecore", ".xmi") or data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return
    kind = _OTHER_KINDS.get(suffix, f"a {suffix} file" if suffix else "a file without suffix")
    raise MetamodelError(
        f"not a metamodel: this is {kind}, neither Ecore XML nor KM3; give an .ecore or .km3 file",
        file=file,
    )


def _load_uncached(file: str, path: Path, data: bytes) -> LoadedMetamodel:
    if path.suffix.lower() != KM3_SUFFIX:
        _refuse_non_metamodel(file, path, data)
    if path.suffix.lower() == KM3_SUFFIX:
        from benchmark.lang.ecore.km3 import load_km3_text

        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")  # the zoo's KM3 files are ISO-8859-1 when not ASCII
        roots = load_km3_text(text, file)
        return LoadedMetamodel(file=file, roots=roots, xmi_ids=MappingProxyType({}))
    from benchmark.lang.ecore.ecore_io import load_ecore

    roots, xmi_ids, dependencies = load_ecore(file, data)
    return LoadedMetamodel(
        file=file, roots=roots, xmi_ids=MappingProxyType(xmi_ids), dependencies=dependencies
    )


def load_resource(path: str | Path) -> LoadedMetamodel:
    """Load an ``.ecore`` (single ``EPackage`` or ``xmi:XMI`` multi-root) or ``.km3`` metamodel.

    Raises :class:`MetamodelError` naming the file (and line, column where known) for unsafe XML, files
    that are not metamodels, KM3 syntax errors and references that resolve to nothing.
    """
    file = str(path)
    resolved = Path(path).resolve()
    data = _read(resolved, file)
    key = (str(resolved), hashlib.sha256(data).hexdigest())
    cached = _cache.get(key)
    if cached is not None and dependencies_unchanged(cached.dependencies):
        return cached if cached.file == file else replace(cached, file=file)
    loaded = _load_uncached(file, resolved, data)
    _cache.put(key, loaded)
    return loaded


def clear_cache() -> None:
    """Forget every cached load (tests that mutate loaded objects, long sessions)."""
    _cache.clear()
