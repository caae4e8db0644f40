"""Errors of the OCL track, all positioned so the CLI can print ``FILE:LINE:COL: error: ...``.

They derive from :class:`benchmark.core.errors.BenchmarkError`: a bad model, state or expression is the user's
input problem, never a crash. The subclasses only name the stage that rejected the input, so callers can
tell a syntax error from a type error without parsing messages.
"""

from __future__ import annotations

from benchmark.core.errors import BenchmarkError


class OclError(BenchmarkError):
    """Base class of every error raised by :mod:`benchmark.lang.ocl`."""


class OclSyntaxError(OclError):
    """The text does not follow the grammar (OCL expression, ``.use`` model, SOIL line, PlantUML line)."""


class OclTypeError(OclError):
    """A well-formed expression that USE would reject: unknown name, wrong arity, ill-typed operation."""


class ModelError(OclError):
    """A model that parses but is inconsistent (unknown class, duplicate role, inheritance cycle...)."""


class StateError(OclError):
    """A SOIL object state that cannot be built (unknown object, wrong participant class...)."""


class EvaluationError(OclError):
    """Evaluation stopped the way USE's does (a to-one navigation met several links).

    USE reports such an invariant as ``N/A``; our checker reports it as ``FAILED`` because it is not
    "defined and true", and keeps this message as the reason.
    """
