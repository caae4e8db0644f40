"""The OCL language: UML/USE models, SOIL object states and an OCL evaluator with USE's semantics.

The OCL robustness track (:mod:`benchmark.tracks.ocl`) asks whether LLM-generated OCL invariants classify
object states exactly like reference invariants, as the USE tool would evaluate them. This package gives
that judgement in Python: model readers/writers (``.use``, PlantUML), a SOIL state reader, a lark grammar
of USE's OCL, a type checker against the model and an evaluator
that follows USE's semantics (see ``docs/OCL.md``).

Entry point: :class:`~benchmark.lang.ocl.engine.OclEngine`. The package depends on no other part of the
project except :mod:`benchmark.core.errors`.
"""

from benchmark.lang.ocl.check import CheckReport, InvariantResult, StructureViolation
from benchmark.lang.ocl.engine import EvalResult, OclEngine
from benchmark.lang.ocl.errors import (
    EvaluationError,
    ModelError,
    OclError,
    OclSyntaxError,
    OclTypeError,
    StateError,
)
from benchmark.lang.ocl.model import Model, models_equal
from benchmark.lang.ocl.parser import parse_expression
from benchmark.lang.ocl.printer import print_expr
from benchmark.lang.ocl.puml_io import parse_puml, read_puml, write_puml
from benchmark.lang.ocl.soil import parse_soil, read_soil
from benchmark.lang.ocl.use_io import parse_use, read_use, write_use

__all__ = [
    "CheckReport",
    "EvalResult",
    "EvaluationError",
    "InvariantResult",
    "Model",
    "ModelError",
    "OclEngine",
    "OclError",
    "OclSyntaxError",
    "OclTypeError",
    "StateError",
    "StructureViolation",
    "models_equal",
    "parse_expression",
    "parse_puml",
    "parse_soil",
    "parse_use",
    "print_expr",
    "read_puml",
    "read_soil",
    "read_use",
    "write_puml",
    "write_use",
]
