"""The OCL robustness dataset on disk: models, natural-language specifications, object states, verdicts.

The study gives an LLM a class model and one specification and judges the constraint it writes by the
object states: correct when it classifies every state of the model as the reference constraint does. This
module reads that material (``validation/ocl/README.md`` describes the layout)::

    ROOT/specification.json      model -> constraint id -> {"text", "ocl", "covers"}
    ROOT/<model>/<model>.use     the class model with the reference constraints (``constraints`` section)
    ROOT/<model>/<model>.puml    the same class model as PlantUML, without constraints (what an LLM sees)
    ROOT/<model>/states/*.soil   object states
    ROOT/<model>/states.json     "states/<file>.soil" -> constraint id -> true (holds) | false (violated)
    ROOT/runs/                   the LLM runs judged against the above (:mod:`benchmark.tracks.ocl.runs`)

Reading checks the shape and every cross reference: each model of the specification has its folder and
both model files, each constraint names feature categories from :data:`CATEGORIES`, each state file is
listed in ``states.json`` and each listed file exists, and each state gives a verdict for exactly the
model's constraints. Problems raise :class:`DatasetError` naming the file and the JSON field. Whether the
recorded verdicts are *true* is the evaluator's question, not the reader's:
``tests/tracks/ocl/test_dataset.py`` evaluates every reference constraint on every state and compares.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.core.errors import InputFormatError
from benchmark.core.wording import word

SPECIFICATION_NAME = "specification.json"
STATES_NAME = "states.json"
STATES_DIR = "states"
STATE_SUFFIX = ".soil"
RUNS_DIR = "runs"  # the LLM runs of the track (benchmark.tracks.ocl.runs), not a model

# The feature categories a reference constraint is tagged with ("covers"); the dataset covers each one.
CATEGORIES: dict[str, str] = {
    "navigation-optional": "navigation to an association end of multiplicity 0..1 (possibly empty)",
    "navigation-many": "navigation to an association end that yields a collection",
    "forAll": "the forAll iterator",
    "exists": "the exists iterator",
    "select": "the select iterator",
    "reject": "the reject iterator",
    "collect": "the collect iterator",
    "isUnique": "the isUnique iterator",
    "one": "the one iterator",
    "any": "the any iterator",
    "closure": "the closure iterator (transitive navigation)",
    "collection": "collection operations (size, includes, excludes, sum, isEmpty, including, ...)",
    "allInstances": "C.allInstances()",
    "arithmetic": "arithmetic (+ - * / div, unary minus, abs)",
    "comparison": "ordering comparisons (< <= > >=)",
    "string": "String literals or operations (size, substring, concat, toUpperCase, indexOf, ...)",
    "enumeration": "enumeration literals",
    "inheritance": "a context or navigation in a class hierarchy, or a type test",
    "oclIsKindOf": "oclIsKindOf",
    "oclIsTypeOf": "oclIsTypeOf",
    "association-class": "navigation to, from or through an association class",
    "undefined": "undefined values: oclIsUndefined, isDefined, isUndefined, or an empty 0..1 end",
}


class DatasetError(InputFormatError):
    """A dataset file that does not have the documented shape, or files that do not refer to each other."""


def default_root() -> Path:
    """``validation/ocl`` of the repository this package lives in, else of the working directory."""
    in_repository = Path(__file__).resolve().parents[3] / "validation" / "ocl"
    return in_repository if in_repository.is_dir() else Path.cwd() / "validation" / "ocl"


@dataclass(frozen=True)
class Constraint:
    """One reference constraint: what the LLM is told (``text``) and the answer (``ocl``)."""

    model: str
    id: str
    text: str
    ocl: str  # ``context C inv id: expr``
    covers: tuple[str, ...]

    @property
    def key(self) -> str:
        return f"{self.model}/{self.id}"


@dataclass(frozen=True)
class DatasetModel:
    """One model folder: the two notations of the class model, its constraints and its states."""

    name: str
    folder: Path
    constraints: dict[str, Constraint]  # in specification order
    verdicts: dict[str, dict[str, bool]]  # state file (relative to the folder) -> constraint id -> holds

    @property
    def use_file(self) -> Path:
        return self.folder / f"{self.name}.use"

    @property
    def puml_file(self) -> Path:
        return self.folder / f"{self.name}.puml"

    @property
    def states_file(self) -> Path:
        return self.folder / STATES_NAME

    def state_path(self, state: str) -> Path:
        return self.folder / state

    def states_where(self, constraint_id: str, holds: bool) -> list[str]:
        """The states on which the reference of ``constraint_id`` holds (or is violated)."""
        return [state for state, verdicts in self.verdicts.items() if verdicts[constraint_id] is holds]


@dataclass(frozen=True)
class Dataset:
    root: Path
    models: dict[str, DatasetModel]  # in specification order

    def constraints(self) -> Iterator[Constraint]:
        for model in self.models.values():
            yield from model.constraints.values()

    @property
    def state_count(self) -> int:
        return sum(len(m.verdicts) for m in self.models.values())


def load_dataset(root: str | Path | None = None) -> Dataset:
    """Read and cross-check the dataset below ``root`` (default: :func:`default_root`)."""
    root = Path(root) if root is not None else default_root()
    spec_file = root / SPECIFICATION_NAME
    spec = _read_json(spec_file)
    if not isinstance(spec, dict) or not spec:
        raise DatasetError("expected an object mapping model names to their constraints", file=spec_file)
    models: dict[str, DatasetModel] = {}
    for name, entries in spec.items():
        field = f"$.{name}"
        folder = root / name
        for path in (folder / f"{name}.use", folder / f"{name}.puml", folder / STATES_NAME):
            if not path.is_file():
                raise DatasetError(f"model `{name}' has no file {path.name}", file=path, field=field)
        if not isinstance(entries, dict) or not entries:
            raise DatasetError(
                "expected an object mapping constraint ids to entries", file=spec_file, field=field
            )
        constraints = {
            cid: _constraint(name, cid, entry, spec_file, f"{field}.{cid}") for cid, entry in entries.items()
        }
        models[name] = DatasetModel(name, folder, constraints, _verdicts(folder, constraints))
    strays = sorted(
        p.name
        for p in root.iterdir()
        if p.is_dir() and not p.name.startswith(".") and p.name not in models and p.name != RUNS_DIR
    )
    if strays:
        raise DatasetError(
            f"{word(len(strays), 'folder')} not in the specification: {', '.join(strays)}", file=spec_file
        )
    return Dataset(root, models)


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise DatasetError(f"cannot read: {error.strerror or error}", file=path) from None
    except UnicodeDecodeError as error:
        raise DatasetError(f"not UTF-8 text (byte {error.start})", file=path) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise DatasetError(
            f"not valid JSON: {error.msg}", file=path, line=error.lineno, column=error.colno
        ) from None


def _constraint(model: str, cid: str, entry: Any, file: Path, field: str) -> Constraint:
    if not isinstance(entry, dict) or set(entry) != {"text", "ocl", "covers"}:
        raise DatasetError(
            'expected an object with exactly "text", "ocl" and "covers"', file=file, field=field
        )
    text, ocl, covers = entry["text"], entry["ocl"], entry["covers"]
    if not isinstance(text, str) or not text.strip():
        raise DatasetError("expected a non-empty string", file=file, field=f"{field}.text")
    if not isinstance(ocl, str) or not ocl.startswith("context ") or f" inv {cid}:" not in ocl:
        raise DatasetError(
            f"expected `context C inv {cid}: ...' (the invariant is named after its id)",
            file=file,
            field=f"{field}.ocl",
        )
    if not isinstance(covers, list) or not covers or not all(isinstance(c, str) for c in covers):
        raise DatasetError("expected a non-empty list of category names", file=file, field=f"{field}.covers")
    unknown = sorted(set(covers) - set(CATEGORIES))
    if unknown:
        raise DatasetError(
            f"unknown categor{'y' if len(unknown) == 1 else 'ies'}: {', '.join(unknown)}",
            file=file,
            field=f"{field}.covers",
        )
    if len(set(covers)) != len(covers):
        raise DatasetError("a category is listed twice", file=file, field=f"{field}.covers")
    return Constraint(model, cid, text, ocl, tuple(covers))


def _verdicts(folder: Path, constraints: dict[str, Constraint]) -> dict[str, dict[str, bool]]:
    file = folder / STATES_NAME
    data = _read_json(file)
    if not isinstance(data, dict) or not data:
        raise DatasetError("expected an object mapping state files to verdicts", file=file)
    on_disk = {
        p.relative_to(folder).as_posix()
        for p in (folder / STATES_DIR).glob(f"*{STATE_SUFFIX}")
        if p.is_file()
    }
    unlisted = sorted(on_disk - set(data))
    if unlisted:
        raise DatasetError(
            f"{word(len(unlisted), 'state file')} without verdicts: {', '.join(unlisted)}", file=file
        )
    verdicts: dict[str, dict[str, bool]] = {}
    for state, given in data.items():
        field = f"$[{json.dumps(state)}]"
        if state not in on_disk:
            raise DatasetError(f"no such state file {STATES_DIR}/*{STATE_SUFFIX}", file=file, field=field)
        if not isinstance(given, dict) or not all(isinstance(v, bool) for v in given.values()):
            raise DatasetError(
                "expected an object mapping constraint ids to true or false", file=file, field=field
            )
        if set(given) != set(constraints):
            missing = sorted(set(constraints) - set(given))
            extra = sorted(set(given) - set(constraints))
            detail = "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"unknown {', '.join(extra)}" if extra else "",
                )
                if part
            )
            raise DatasetError(
                f"verdicts must name exactly the model's constraints ({detail})", file=file, field=field
            )
        verdicts[state] = {cid: given[cid] for cid in constraints}
    return verdicts


__all__ = [
    "CATEGORIES",
    "Constraint",
    "Dataset",
    "DatasetError",
    "DatasetModel",
    "default_root",
    "load_dataset",
]
