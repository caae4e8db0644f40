"""The one error type of the metamodel layer.

Every way a metamodel file can be unusable (unsafe XML, not an Ecore metamodel, a KM3 syntax error, a
reference that resolves to nothing) surfaces as :class:`MetamodelError`, carrying the file and, where the
cause has a position, its line and column, so the CLI prints ``FILE:LINE:COL: error: ...``.
"""

from __future__ import annotations

from benchmark.core.errors import BenchmarkError


class MetamodelError(BenchmarkError):
    """A metamodel file (``.ecore`` or ``.km3``) that cannot be loaded safely and completely."""
