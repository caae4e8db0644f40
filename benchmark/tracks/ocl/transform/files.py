"""Transforming one model's files: the ``.use`` model, constraints files, SOIL states, specification.

:func:`load` reads them into a :class:`~.subject.Subject` (the ``.use`` file's invariants stay in the
model; those of constraints files and of the specification become extra invariants) and remembers where
each part came from; :func:`write` writes the transformed parts back under the output names a
:class:`ModelFiles` gives them:

* the model as ``.use`` (its constraints section transformed) and as PlantUML -- the PlantUML carries
  the invariants only when the input's ``.puml`` did (it is usually the prompt's view of the model, and
  the reference constraints are what the LLM must write);
* each constraints file, transformed, under its own name;
* each state, rebuilt for the new model and written by :func:`~benchmark.lang.ocl.soil_writer.write_soil`
  under its own name (comments, ``check`` lines and the statements' history are not kept: the state is);
* the specification entries (see :mod:`.spec`) and the mapping are returned for the caller to write,
  because a dataset writes one specification and one mapping file for all its models.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.core.errors import ConfigurationError
from benchmark.core.fileio import write_text_atomic
from benchmark.lang.ocl.errors import ModelError
from benchmark.lang.ocl.model import Invariant
from benchmark.lang.ocl.puml_io import read_puml, write_puml
from benchmark.lang.ocl.soil import read_soil
from benchmark.lang.ocl.soil_writer import write_soil
from benchmark.lang.ocl.textfile import read_text_file
from benchmark.lang.ocl.use_io import parse_constraints, read_use, write_constraints, write_use
from benchmark.tracks.ocl.transform.mapping import Mapping
from benchmark.tracks.ocl.transform.modes import transform
from benchmark.tracks.ocl.transform.spec import (
    SpecEntry,
    model_entries,
    parse_entries,
    substitutions,
    transformed_entry,
)
from benchmark.tracks.ocl.transform.subject import Subject, detached


@dataclass
class ModelFiles:
    """The input files of one model and the output path of each (relative to the output directory)."""

    use: Path
    output_use: Path
    puml: Path | None = None  # an existing PlantUML view of the model, if any
    output_puml: Path | None = None
    constraints: list[tuple[Path, Path]] = field(default_factory=list)  # (input, output)
    states: list[tuple[Path, Path]] = field(default_factory=list)

    @property
    def stem(self) -> str:
        return self.use.stem


@dataclass
class Loaded:
    files: ModelFiles
    subject: Subject
    constraint_counts: list[int]  # invariants per constraints file, in order, at the start of extra
    spec: list[SpecEntry]  # entries of this model, their invariants after the constraints files'
    spec_key: str | None = None  # the model's key in the specification (None: entries at the top level)


def load(files: ModelFiles, spec: dict[str, Any] | None = None, spec_file: str = "") -> Loaded:
    """Read and check the model's files (raising positioned errors); ``spec`` is a parsed
    specification that may hold this model's entries."""
    model = read_use(files.use)
    extra: list[Invariant] = []
    counts = []
    counter = model.invariant_counter
    for path, _ in files.constraints:
        scratch = detached(model, counter)
        added = parse_constraints(read_text_file(path, ModelError, "constraints"), scratch, file=str(path))
        counter = scratch.invariant_counter
        counts.append(len(added))
        extra.extend(added)
    entries: list[SpecEntry] = []
    key = None
    if spec is not None:
        key, found = model_entries(spec, (model.name, files.stem))
        entries = parse_entries(found, model, [*model.invariants, *extra], model_key=key, file=spec_file)
        for item in entries:
            extra.extend(item.invariants)
    states = [read_soil(path, model).state for path, _ in files.states]
    subject = Subject(model, extra, states)
    subject.check()
    return Loaded(files, subject, counts, entries, key)


@dataclass
class Result:
    mapping: Mapping
    spec: dict[str, dict[str, Any]]  # constraint id -> transformed entry (in input order)
    spec_key: str | None  # the model's key in the specification (None: entries at the top level)


def transform_loaded(
    loaded: Loaded, mode: str, seed: int, out: Path, *, association_form: str = "class"
) -> Result:
    """Transform and write one model's files under ``out``."""
    new, mapping = transform(loaded.subject, mode, seed, association_form=association_form)
    files = loaded.files
    write_output(out / files.output_use, write_use(new.model))
    if files.output_puml is not None:
        with_invariants = files.puml is not None and bool(read_puml(files.puml).invariants)
        view = new.model if with_invariants else detached(new.model)
        write_output(out / files.output_puml, write_puml(view))
    position = 0
    for (_, output), count in zip(files.constraints, loaded.constraint_counts, strict=True):
        write_output(out / output, write_constraints(new.extra[position : position + count]))
        position += count
    for (source, output), state in zip(files.states, new.states, strict=True):
        form = (
            "" if association_form == "class" else f" --association-as {association_form.replace('_', '-')}"
        )
        header = f"{source.name}, transformed by `atlbench ocl transform --mode {mode} --seed {seed}{form}'"
        write_output(out / output, write_soil(state, header=header))
    subs = substitutions(mapping, loaded.subject.model)
    spec: dict[str, dict[str, Any]] = {}
    for item in loaded.spec:
        count = len(item.invariants)
        spec[item.constraint_id] = transformed_entry(
            item, new.extra[position : position + count], subs, loaded.subject.model
        )
        position += count
    return Result(mapping, spec, loaded.spec_key)


def write_output(path: Path, text: str) -> None:
    try:
        write_text_atomic(path, text)
    except OSError as error:
        raise ConfigurationError(
            f"cannot write: {error.strerror or error}", file=str(path), field="--out"
        ) from None


def single_model_files(
    model: Path, constraints: list[Path], states: list[Path], *, puml: Path | None = None
) -> ModelFiles:
    """Output names for the command line's one-model form: everything flat in the output directory,
    under its input file name (``<model>.use``, ``<model>.puml``)."""
    files = ModelFiles(model, Path(model.name), puml, Path(model.stem + ".puml"))
    seen: dict[str, Path] = {model.name: model, model.stem + ".puml": model}
    for flag, paths, target in (
        ("--constraints", constraints, files.constraints),
        ("--states", states, files.states),
    ):
        for path in paths:
            if path.name in seen:
                raise ConfigurationError(
                    f"two inputs would be written as `{path.name}' (also {seen[path.name]}); rename one",
                    file=str(path),
                    field=flag,
                )
            seen[path.name] = path
            target.append((path, Path(path.name)))
    return files
