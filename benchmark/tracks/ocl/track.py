"""The OCL track's descriptor: what the study measures and which parts exist.

Part 1 (this package) provides the judge: models, object states and USE-faithful evaluation. Part 2 will
add the datasets, the meaning-preserving model transformations and the LLM runs; the descriptor names
them so that later code (and reports) refer to one definition instead of re-describing the track.
Nothing here runs anything.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Transformation:
    """A meaning-preserving model change the generated OCL must survive."""

    id: str
    description: str


@dataclass(frozen=True)
class TrackDescriptor:
    id: str
    title: str
    question: str
    model_formats: tuple[str, ...]
    state_format: str
    verdict: str
    judge: str
    transformations: tuple[Transformation, ...]
    available: tuple[str, ...]
    planned: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "title": self.title,
            "question": self.question,
            "model_formats": list(self.model_formats),
            "state_format": self.state_format,
            "verdict": self.verdict,
            "judge": self.judge,
            "transformations": [{"id": t.id, "description": t.description} for t in self.transformations],
            "available": list(self.available),
            "planned": list(self.planned),
        }


TRACK = TrackDescriptor(
    id="ocl",
    title="Robustness of LLM-generated OCL under model transformations",
    question=(
        "Does an LLM-generated invariant classify object states exactly like the reference invariant, "
        "as USE evaluates them, also after meaning-preserving transformations of the UML model?"
    ),
    model_formats=(".use", ".puml"),
    state_format=".soil",
    verdict=(
        "correct iff, on every object state of the dataset, the candidate invariant is OK exactly when the "
        "reference invariant is OK (OK = defined and true for all instances of the context class)"
    ),
    judge="benchmark.lang.ocl.engine.OclEngine (check / evaluate)",
    transformations=(
        Transformation("rename", "consistent renaming of classes, attributes, roles and enumerations"),
        Transformation("reify-attribute", "an attribute becomes an associated class holding the value"),
        Transformation("reify-association", "an association becomes a class with two to-one associations"),
    ),
    available=(
        "models (.use, .puml)",
        "object states (.soil)",
        "OCL type checker",
        "USE-faithful evaluator",
        "atlbench ocl check|eval|convert",
    ),
    planned=(
        "datasets of models, states and reference invariants",
        "model transformations",
        "LLM runs",
        "scoring and reports",
    ),
)
