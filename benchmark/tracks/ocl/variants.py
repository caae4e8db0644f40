"""The model variants of the study: a dataset model as it is, or transformed by one of the seven modes.

A :class:`Variant` is everything a mode gives one model: the model with its reference constraints, its
object states, the PlantUML view an LLM is shown (no constraints), the specification's prose with the
identifiers replaced, and the reference of each constraint as ``context C inv id: expr``. The
transformations themselves are :mod:`benchmark.tracks.ocl.transform`'s (``transform(subject, mode,
seed)``); this module only runs them on a dataset model and keeps the result in memory. The states stay
objects, never SOIL text: parsing SOIL and evaluating its values is what costs, so a
:class:`VariantSource` parses a model's states once and every mode transforms those objects (the modes
that begin with the same steps share those steps' results).
:meth:`Referee.of <benchmark.tracks.ocl.scoring.judge.Referee.of>` turns a variant into the judge.

Given a :class:`~benchmark.core.diskcache.DiskCache`, a source also keeps the parsed model with its states
and every variant it built on disk (pickled: loading one is some hundred times faster than parsing and
transforming), keyed by the bytes of the model's files, its part of the specification, the mode, the seed
and a fingerprint of the code that builds them, so an edited file or transformation gives a new entry.
The parsed original is only read when a variant is not in the cache.

``original`` is the identity mode: the dataset files as they are.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # the OCL library loads when a variant is built, not when the track is registered
    from benchmark.core.diskcache import DiskCache
    from benchmark.lang.ocl.model import Invariant, Model
    from benchmark.lang.ocl.state import ObjectState
    from benchmark.tracks.ocl.dataset import Dataset, DatasetModel

T = TypeVar("T")

ORIGINAL = "original"
#: what builds a variant: the OCL library (parser, checker, states) and the transformations
CODE = ("lang/ocl", "tracks/ocl/transform", "tracks/ocl/variants", "tracks/ocl/dataset")


def modes() -> tuple[str, ...]:
    """``original`` and the seven transformation modes, in the study's order."""
    from benchmark.tracks.ocl.transform import MODES

    return (ORIGINAL, *MODES)


def reference_text(inv: Invariant) -> str:
    """``context C inv name: expr`` on one line, as the specification writes a reference."""
    from benchmark.lang.ocl.printer import print_expr

    variables = f"{', '.join(inv.variables)} : " if inv.explicit_variables else ""
    return f"context {variables}{inv.class_name} inv {inv.name}: {print_expr(inv.expr)}"


@dataclass(frozen=True)
class Variant:
    name: str  # the dataset model's name (folder)
    mode: str
    seed: int
    model: Model  # finalized, the reference constraints among its invariants
    states: dict[str, ObjectState]  # state file (relative to the model folder) -> state of ``model``
    puml: str  # the PlantUML view an LLM is shown, without constraints
    texts: dict[str, str]  # constraint id -> specification prose
    references: dict[str, str]  # constraint id -> reference constraint, ``context C inv id: expr``


class VariantSource:
    """Builds the variants of one dataset model, reading its files once (SOIL reading dominates), and
    through ``cache`` (when given) not at all once they are on disk."""

    def __init__(self, entry: DatasetModel, cache: DiskCache | None = None) -> None:
        self.entry = entry
        self.cache = cache
        #: seed -> the results of the transformation steps the modes share (``transform``'s ``steps_done``)
        self._steps_done: dict[int, dict[tuple[str, ...], Any]] = {}

    @cached_property
    def key(self) -> str:
        """The content key of this model's inputs and of the code that builds its variants."""
        from benchmark.core.diskcache import code_fingerprint

        entry = self.entry
        digest = hashlib.sha256(code_fingerprint(*CODE).encode())
        for path in (entry.use_file, entry.puml_file, *(entry.state_path(s) for s in entry.verdicts)):
            digest.update(b"\0" + str(path).encode() + b"\0" + path.read_bytes())
        spec = {cid: [c.text, c.ocl] for cid, c in entry.constraints.items()}
        digest.update(json.dumps(spec, sort_keys=True).encode())
        return digest.hexdigest()

    def _cached(self, what: str, compute: Callable[[], T]) -> T:
        if self.cache is None:
            return compute()
        return self.cache.get_or_compute("ocl-variants", f"{self.key}-{what}", compute)

    @cached_property
    def _parsed(self) -> tuple[Model, dict[str, ObjectState]]:
        return self._cached("parsed", self._parse)

    def _parse(self) -> tuple[Model, dict[str, ObjectState]]:
        from benchmark.lang.ocl.compiler import Runtime
        from benchmark.lang.ocl.soil import read_soil
        from benchmark.lang.ocl.use_io import read_use

        model = read_use(self.entry.use_file)
        runtime = Runtime(model) if self.entry.verdicts else None  # compiled once for all its states
        states = {
            name: read_soil(self.entry.state_path(name), model, runtime=runtime).state
            for name in self.entry.verdicts
        }
        return model, states

    @property
    def model(self) -> Model:
        return self._parsed[0]

    @property
    def states(self) -> dict[str, ObjectState]:
        return self._parsed[1]

    def variant(self, mode: str, seed: int = 0) -> Variant:
        """The variant for ``mode`` (deterministic for ``seed``); the original files for ``original``.
        Built with the cyclic garbage collector paused (:mod:`benchmark.core.gcpause`)."""
        from benchmark.core.gcpause import collector_paused

        with collector_paused():
            if mode == ORIGINAL:
                return self._build(mode, seed)
            return self._cached(f"{mode}-{seed}", lambda: self._build(mode, seed))

    def _build(self, mode: str, seed: int) -> Variant:
        entry, model = self.entry, self.model
        texts = {cid: c.text for cid, c in entry.constraints.items()}
        if mode == ORIGINAL:
            references = {cid: reference_text(_invariant(model, cid)) for cid in entry.constraints}
            puml = _shown_diagram(entry)
            return Variant(entry.name, mode, seed, model, dict(self.states), puml, texts, references)

        from benchmark.lang.ocl.model import Model
        from benchmark.lang.ocl.puml_io import write_puml
        from benchmark.tracks.ocl.transform import transform
        from benchmark.tracks.ocl.transform.spec import replace_identifiers, substitutions
        from benchmark.tracks.ocl.transform.subject import Subject

        subject = Subject(model, [], list(self.states.values()))
        new, mapping = transform(subject, mode, seed, steps_done=self._steps_done.setdefault(seed, {}))
        subs = substitutions(mapping, model)
        texts = {
            cid: replace_identifiers(text, subs, _invariant(model, cid).class_name, model)
            for cid, text in texts.items()
        }
        view = Model(new.model.name, new.model.enumerations, new.model.classes, new.model.associations)
        return Variant(
            entry.name,
            mode,
            seed,
            new.model,
            dict(zip(self.states, new.states, strict=True)),
            write_puml(view),
            texts,
            {cid: reference_text(_invariant(new.model, cid)) for cid in entry.constraints},
        )


UNREADABLE_TASK = "runs"  # the task of a run file that cannot be read


class Tasks:
    """``<dataset model>-<mode>`` and back (a model's name may hold dashes; a mode is known)."""

    def __init__(self, dataset: Dataset | None) -> None:
        self.dataset = dataset
        self._known: dict[str, tuple[str, str]] = {}

    def of(self, model: str, mode: str) -> str:
        task = f"{model}-{mode}"
        self._known[task] = (model, mode)
        return task

    def split(self, task: str) -> tuple[str, str] | None:
        """(dataset model, mode) of ``task``, or ``None`` when it names none of the dataset."""
        if task in self._known:
            return self._known[task]
        for mode in modes():
            model = task[: -len(mode) - 1] if task.endswith(f"-{mode}") else None
            if model and self.dataset is not None and model in self.dataset.models:
                return self._known.setdefault(task, (model, mode))
        return None


class Variants:
    """The variants of one dataset for one seed, each built once per process (through the disk cache when
    one is given). A variant that cannot be built is said once, as the reason."""

    def __init__(self, dataset: Dataset, seed: int, cache: DiskCache | None = None) -> None:
        self.dataset = dataset
        self.seed = seed
        self.cache = cache
        self._sources: dict[str, VariantSource] = {}
        self._variants: dict[tuple[str, str], Variant | str] = {}

    def variant(self, model: str, mode: str) -> Variant:
        """The variant; raises :class:`~benchmark.core.track.GroundTruthProblem` when it cannot be built."""
        from benchmark.core.errors import BenchmarkError
        from benchmark.core.track import GroundTruthProblem

        key = (model, mode)
        if key not in self._variants:
            entry = self.dataset.models[model]
            try:
                if model not in self._sources:
                    self._sources[model] = VariantSource(entry, self.cache)
                self._variants[key] = self._sources[model].variant(mode, self.seed)
            except BenchmarkError as error:  # a broken model or state breaks every mode: said without one
                shared = error.file in {
                    str(entry.use_file),
                    *(str(entry.state_path(s)) for s in entry.verdicts),
                }
                self._variants[key] = f"{model}: {error}" if shared else f"{model} ({mode}): {error}"
        found = self._variants[key]
        if isinstance(found, str):
            raise GroundTruthProblem(found)
        return found

    def key(self, model: str, mode: str) -> str:
        """The content key of a variant (its model's files, specification, mode, seed and the code that
        builds it), for what is computed from the variant alone: its judgements (:mod:`.scoring.runs`)."""
        if model not in self._sources:
            self._sources[model] = VariantSource(self.dataset.models[model], self.cache)
        return f"{self._sources[model].key}-{mode}-{self.seed}"


def _shown_diagram(entry: DatasetModel) -> str:
    """The PlantUML text an LLM is shown for the original model, read and parsed: a diagram that is not a
    model (a dangling association end, a line that is no PlantUML) is a positioned error naming the file,
    not a broken prompt sent to every provider."""
    from benchmark.lang.ocl.errors import ModelError
    from benchmark.lang.ocl.puml_io import parse_puml
    from benchmark.lang.ocl.textfile import read_text_file

    text = read_text_file(entry.puml_file, ModelError, "model")
    parse_puml(text, file=str(entry.puml_file), default_name=entry.name)
    return text


def _invariant(model: Model, cid: str) -> Invariant:
    for inv in model.invariants:
        if inv.name == cid:
            return inv
    raise KeyError(f"model {model.name} has no invariant {cid}")


__all__ = [
    "ORIGINAL",
    "UNREADABLE_TASK",
    "Tasks",
    "Variant",
    "VariantSource",
    "Variants",
    "modes",
    "reference_text",
]
