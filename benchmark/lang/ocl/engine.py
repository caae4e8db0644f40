"""The OCL track's entry point: load a model once, then evaluate expressions and check states.

>>> engine = OclEngine.from_file("company.use")                           # doctest: +SKIP
>>> state = engine.load_state("company.soil")                             # doctest: +SKIP
>>> engine.evaluate("Employee.allInstances->size()", state).text          # doctest: +SKIP
'2 : Integer'

The CLI (``atlbench ocl``), the benchmark script and the tests all go through this class.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.lang.ocl import ast
from benchmark.lang.ocl.check import CheckReport, check_state, use_order
from benchmark.lang.ocl.compiler import RECURSION_TOO_DEEP, CompiledExpression, MultiplicityViolation, Runtime
from benchmark.lang.ocl.errors import EvaluationError, ModelError
from benchmark.lang.ocl.model import Model
from benchmark.lang.ocl.parser import parse_expression
from benchmark.lang.ocl.soil import SoilResult, SoilSession, parse_soil, read_soil
from benchmark.lang.ocl.state import ObjectState
from benchmark.lang.ocl.textfile import read_text_file
from benchmark.lang.ocl.types import Type
from benchmark.lang.ocl.use_io import parse_constraints, parse_use, read_use
from benchmark.lang.ocl.values import Obj, runtime_type, to_json, to_use_string, to_use_string_with_type


@dataclass(frozen=True)
class EvalResult:
    value: Any
    static_type: Type

    @property
    def type(self) -> Type:
        """The type USE prints: the runtime type of the value."""
        return runtime_type(self.value)

    @property
    def text(self) -> str:
        """``Set{1,2} : Set(Integer)``, as USE's ``?`` command prints it."""
        return to_use_string_with_type(self.value)

    @property
    def value_text(self) -> str:
        return to_use_string(self.value)

    def to_json(self) -> dict[str, Any]:
        return {"type": str(self.type), "value": to_json(self.value)}


class OclEngine:
    """A compiled model plus helpers to load states and evaluate against them."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.runtime = Runtime(model)

    @classmethod
    def from_file(cls, path: str | Path) -> OclEngine:
        path = Path(path)
        if path.suffix.lower() in (".puml", ".plantuml", ".pu", ".wsd"):
            from benchmark.lang.ocl.puml_io import read_puml

            return cls(read_puml(path))
        return cls(read_use(path))

    @classmethod
    def from_text(cls, text: str, *, file: str | None = None) -> OclEngine:
        return cls(parse_use(text, file=file))

    def add_constraints(self, text: str, *, file: str | None = None) -> list[str]:
        """Add the invariants of a constraints file (USE's ``constraints -load``); returns their names."""
        before = (list(self.model.invariants), self.model.invariant_counter)
        try:
            added = parse_constraints(text, self.model, file=file)
            compiled = [self.runtime.compile_invariant(inv) for inv in added]
        except Exception:
            self.model.invariants[:], self.model.invariant_counter = before  # all or nothing
            raise
        self.runtime.invariants.extend(compiled)
        return [inv.qualified_name for inv in added]

    def add_constraints_file(self, path: str | Path) -> list[str]:
        """:meth:`add_constraints` with the text of a file (errors name the file)."""
        return self.add_constraints(read_text_file(path, ModelError, "constraints"), file=str(path))

    # -- states ---------------------------------------------------------------------------------
    def load_state(self, path: str | Path) -> ObjectState:
        return read_soil(path, self.model, runtime=self.runtime).state

    def load_soil(self, path: str | Path) -> SoilResult:
        return read_soil(path, self.model, runtime=self.runtime)

    def state_from_text(self, text: str, *, file: str | None = None) -> ObjectState:
        return parse_soil(text, self.model, file=file, runtime=self.runtime).state

    def soil_session(self, *, file: str | None = None) -> SoilSession:
        """An empty state that SOIL commands change one at a time (USE's shell); see :class:`SoilSession`."""
        return SoilSession(self.model, self.runtime, file=file)

    # -- expressions ----------------------------------------------------------------------------
    def compile(
        self,
        expr: str | ast.Expr,
        state: ObjectState | None = None,
        *,
        variables: dict[str, Type] | None = None,
        soil_variables: dict[str, Any] | None = None,
        file: str | None = None,
    ) -> CompiledExpression:
        """Check an expression. As in USE's shell, the objects of ``state`` are in scope by name, and so
        are the variables a SOIL file assigned (``soil_variables``); ``variables`` declares further ones
        whose values are passed to :meth:`evaluate` as ``bindings``.
        """
        tree = parse_expression(expr, file=file) if isinstance(expr, str) else expr
        objects: Mapping[str, Obj] = state.objects if state is not None else {}
        declared = dict(variables or {})
        if soil_variables:
            bound = {k: v for k, v in soil_variables.items() if isinstance(v, Obj)}
            objects = ChainMap(bound, dict(objects))
            declared.update({k: runtime_type(v) for k, v in soil_variables.items() if not isinstance(v, Obj)})
        return self.runtime.compiler(objects=objects, file=file).compile_query(tree, declared)

    def evaluate(
        self,
        expr: str | ast.Expr | CompiledExpression,
        state: ObjectState,
        bindings: dict[str, Any] | None = None,
    ) -> EvalResult:
        """Evaluate in ``state``; ``bindings`` gives the values of declared variables (and SOIL values)."""
        compiled = expr if isinstance(expr, CompiledExpression) else self.compile(expr, state)
        env = compiled.frame(self.runtime.context(state))
        for name, value in (bindings or {}).items():
            if name in compiled.slots:
                env[compiled.slots[name]] = value
        try:
            value = compiled.fn(env)
        except MultiplicityViolation as violation:
            raise EvaluationError(f"could not evaluate: {violation}") from None
        except RecursionError:
            raise EvaluationError(f"could not evaluate: {RECURSION_TOO_DEEP}") from None
        return EvalResult(value, compiled.type)

    def check(self, state: ObjectState) -> CheckReport:
        return check_state(self.runtime, state)

    def invariant_names(self) -> list[str]:
        """``Class::name`` of every invariant, in the order ``check`` reports them (USE's)."""
        return [ci.invariant.qualified_name for ci in sorted(self.runtime.invariants, key=use_order)]
