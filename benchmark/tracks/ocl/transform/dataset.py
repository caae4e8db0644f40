"""Transforming a whole dataset directory, whatever of the usual layouts it follows.

Discovery (:func:`discover`), documented in ``docs/OCL.md``:

* every ``.use`` file under the directory is a model. It sits either directly in the dataset
  (``DIR/<model>.use``, the flat layout) or alone in a folder of its own (``DIR/<model>/<model>.use``,
  or any one ``.use`` in a folder: the per-model layout);
* its PlantUML view is ``<stem>.puml`` next to it (in a per-model folder: the folder's only ``.puml``);
* its constraints files are ``<stem>.ocl`` next to it (per-model folder: every ``.ocl`` in the folder);
* its states are the ``.soil`` files a ``states.json`` lists for it -- a ``states.json`` anywhere in the
  dataset, keyed by model name or file stem (any ``*.soil`` string inside that entry counts, relative to
  the ``states.json``, the dataset or the model's folder), or a list of records with a ``model`` field --
  and otherwise: in a per-model folder every ``.soil`` below it; in the flat layout every ``.soil`` whose
  path has a folder named after the model or whose name starts with the model's stem followed by
  ``_``, ``-`` or ``.``;
* every ``specification.json`` in the dataset holds entries of the models it names (see :mod:`.spec`).

Output (:func:`transform_dataset`): the same relative paths under the output directory -- each model,
PlantUML view, constraints file and state transformed, each ``states.json`` copied unchanged (state
file names and verdicts do not change), a ``transformed_specification.json`` next to each
``specification.json`` (all its models transformed) and one ``mapping.json`` at the top:
``{"mode", "seed", "models": {model: mapping}}``. A ``.soil`` file claimed by no model and a
specification key naming no model are errors, since the transformed dataset would silently lack them.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.core.errors import ConfigurationError, InputFormatError
from benchmark.core.fileio import dumps_json
from benchmark.core.wording import plural
from benchmark.tracks.ocl.transform.files import (
    Loaded,
    ModelFiles,
    Result,
    load,
    transform_loaded,
    write_output,
)
from benchmark.tracks.ocl.transform.spec import model_entries, read_specification

_MODEL_NAME = re.compile(r"^\s*model\s+([A-Za-z_$][\w$]*)", re.MULTILINE)


@dataclass
class Dataset:
    root: Path
    models: list[ModelFiles]
    names: dict[Path, str]  # model name declared by each .use
    specifications: list[Path] = field(default_factory=list)
    states_json: list[Path] = field(default_factory=list)


def _files(root: Path, pattern: str) -> list[Path]:
    return sorted(
        p for p in root.rglob(pattern) if p.is_file() and not any(part.startswith(".") for part in p.parts)
    )


def _declared_name(path: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    found = _MODEL_NAME.search(re.sub(r"--[^\n]*|//[^\n]*", "", text))
    return found.group(1) if found else path.stem


def discover(root: Path) -> Dataset:
    """The models of a dataset directory and their files (see the module docstring)."""
    if not root.is_dir():
        raise ConfigurationError("no such dataset directory", file=str(root), field="--dataset")
    uses = _files(root, "*.use")
    if not uses:
        raise ConfigurationError("the dataset has no .use model", file=str(root), field="--dataset")
    soils = _files(root, "*.soil")
    states_json = _files(root, "states.json")
    state_lists = [(p, _read_json(p)) for p in states_json]
    per_folder = {use.parent for use in uses if use.parent != root and _count(uses, use.parent) == 1}
    names = {use: _declared_name(use) for use in uses}
    claimed: dict[Path, Path] = {}
    models = []
    for use in uses:
        folder = use.parent
        own_folder = folder in per_folder
        rel = use.relative_to(root)
        files = ModelFiles(use, rel)
        pumls = sorted(folder.glob("*.puml")) if own_folder else []
        puml = folder / f"{use.stem}.puml"
        files.puml = puml if puml.is_file() else (pumls[0] if len(pumls) == 1 else None)
        files.output_puml = (files.puml or puml).relative_to(root)
        ocls = (
            _files(folder, "*.ocl")
            if own_folder
            else [p for p in [folder / f"{use.stem}.ocl"] if p.is_file()]
        )
        files.constraints = [(p, p.relative_to(root)) for p in ocls]
        keys = (names[use], use.stem)
        listed = _listed_states(state_lists, keys, root, folder if own_folder else None)
        if listed is None:
            listed = [s for s in soils if _belongs(s, root, folder, own_folder, keys)]
        for state in listed:
            if state in claimed and claimed[state] != use:
                raise ConfigurationError(
                    f"state claimed by two models, {claimed[state].name} and {use.name}", file=str(state)
                )
            claimed[state] = use
        files.states = [(s, s.relative_to(root)) for s in listed]
        models.append(files)
    unclaimed = [s for s in soils if s not in claimed]
    if unclaimed:
        raise ConfigurationError(
            f"{plural(len(unclaimed), 'state file')} {'belongs' if len(unclaimed) == 1 else 'belong'} "
            "to no model (see docs/OCL.md for the layouts): "
            + ", ".join(str(s.relative_to(root)) for s in unclaimed[:5]),
            file=str(unclaimed[0]),
        )
    return Dataset(root, models, names, _specifications(root), states_json)


def _specifications(root: Path) -> list[Path]:
    """``specification.json`` files, and ``transformed_specification.json`` where a folder has no
    ``specification.json`` (so that a transformed dataset is a dataset again)."""
    found = _files(root, "specification.json")
    folders = {p.parent for p in found}
    found += [p for p in _files(root, "transformed_specification.json") if p.parent not in folders]
    return sorted(found)


def _count(uses: list[Path], folder: Path) -> int:
    return sum(1 for u in uses if u.parent == folder)


def _belongs(state: Path, root: Path, folder: Path, own_folder: bool, keys: tuple[str, ...]) -> bool:
    if own_folder:
        return folder in state.parents
    rel = state.relative_to(root)
    if any(part in keys for part in rel.parts[:-1]):
        return True
    return any(state.name.startswith(k + sep) for k in keys for sep in ("_", "-", "."))


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputFormatError(f"cannot read JSON: {error}", file=str(path)) from None


def _soil_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str) and value.endswith(".soil"):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str) and k.endswith(".soil"):
                yield k
            yield from _soil_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _soil_strings(v)


def _names_models(data: Any) -> bool:
    """Whether a ``states.json`` says which model each state is of (records with a ``model`` field)."""
    records = data.values() if isinstance(data, dict) else data if isinstance(data, list) else []
    return any(isinstance(r, dict) and "model" in r for r in records)


def _listed_states(
    lists: list[tuple[Path, Any]], keys: tuple[str, ...], root: Path, own_folder: Path | None
) -> list[Path] | None:
    """States a ``states.json`` lists for the model, or None when none mentions it. A ``states.json``
    in the model's own folder that names no model lists only that model's states."""
    found: list[Path] = []
    mentioned = False
    for path, data in lists:
        entries: list[Any] = []
        if isinstance(data, dict):
            entries = [data[k] for k in keys if k in data]
            entries += [{k: v} for k, v in data.items() if isinstance(v, dict) and v.get("model") in keys]
        elif isinstance(data, list):
            entries = [r for r in data if isinstance(r, dict) and r.get("model") in keys]
        inside = own_folder is not None and (path.parent == own_folder or own_folder in path.parents)
        if not entries and inside and not _names_models(data):
            entries = [data]
        for entry in entries:
            mentioned = True
            for name in _soil_strings(entry):
                found.append(_resolve(name, (path.parent, root, *([own_folder] if own_folder else [])), path))
    if not mentioned:
        return None
    unique: list[Path] = []
    for p in found:
        if p not in unique:
            unique.append(p)
    return unique


def _resolve(name: str, bases: tuple[Path, ...], listed_in: Path) -> Path:
    for base in bases:
        if (base / name).is_file():
            return base / name
    raise InputFormatError(f"lists state `{name}', which does not exist", file=str(listed_in))


def _is_entries(data: dict[str, Any]) -> bool:
    """A specification of one model: constraint entries at the top level."""
    key, entries = model_entries(data, ())
    return key is None and bool(entries)


def _spec_for(
    specs: dict[Path, dict[str, Any]], keys: tuple[str, ...], folder: Path, alone: bool
) -> Path | None:
    """The specification holding the model's entries: one keyed by its name or stem, else a one-model
    specification in its folder (or anywhere, when the dataset has only this model)."""
    for path, data in specs.items():
        if not _is_entries(data) and any(isinstance(data.get(k), dict) for k in keys):
            return path
    for path, data in specs.items():
        if _is_entries(data) and (path.parent == folder or alone):
            return path
    return None


@dataclass
class LoadedDataset:
    dataset: Dataset
    specifications: dict[Path, dict[str, Any]]
    models: list[tuple[Loaded, Path | None]]  # each model with the specification holding its entries


def load_dataset(root: Path) -> LoadedDataset:
    """Discover and read every model of the dataset with its files (raising positioned errors)."""
    dataset = discover(root)
    specs = {path: read_specification(path) for path in dataset.specifications}
    models = []
    for files in dataset.models:
        keys = (dataset.names[files.use], files.stem)
        spec_path = _spec_for(specs, keys, files.use.parent, len(dataset.models) == 1)
        models.append((load(files, specs[spec_path] if spec_path else None, str(spec_path or "")), spec_path))
    for path, data in specs.items():
        users = [loaded for loaded, spec_path in models if spec_path == path]
        if _is_entries(data):
            if not users:
                raise InputFormatError("this one-model specification belongs to no model", file=str(path))
            continue
        known = {loaded.spec_key for loaded in users}
        stray = [k for k in data if k not in known]
        if stray:
            raise InputFormatError(
                f"specification of model `{stray[0]}', which the dataset does not have",
                file=str(path),
                field=f"$.{stray[0]}",
            )
    return LoadedDataset(dataset, specs, models)


def transform_dataset(
    root: Path, mode: str, seed: int, out: Path, *, association_form: str = "class"
) -> list[tuple[str, Result]]:
    """Transform every model of the dataset under ``out`` (see the module docstring)."""
    if out.resolve() == root.resolve() or root.resolve() in out.resolve().parents:
        raise ConfigurationError(
            "the output directory must lie outside the dataset", file=str(out), field="--out"
        )
    loaded = load_dataset(root)
    transformed: dict[Path, dict[str, Any]] = {path: {} for path in loaded.specifications}
    results: list[tuple[str, Result]] = []
    for model, spec_path in loaded.models:
        result = transform_loaded(model, mode, seed, out, association_form=association_form)
        results.append((model.subject.model.name, result))
        if spec_path is not None:
            if result.spec_key is None:
                transformed[spec_path] = result.spec
            else:
                transformed[spec_path][result.spec_key] = result.spec
    for path, data in transformed.items():
        if not _is_entries(loaded.specifications[path]):  # the input's order of models
            data = {k: data[k] for k in loaded.specifications[path] if k in data}
        target = out / path.relative_to(root).with_name("transformed_specification.json")
        write_output(target, dumps_json(data))
    for path in loaded.dataset.states_json:
        target = out / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    mappings = {name: result.mapping.to_json() for name, result in results}
    document: dict[str, Any] = {"mode": mode, "seed": seed}
    if association_form != "class":
        document["association_form"] = association_form
    write_output(out / "mapping.json", dumps_json({**document, "models": mappings}))
    return results
