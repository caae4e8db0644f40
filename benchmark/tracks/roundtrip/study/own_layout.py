"""A study's own folder (``--roundtrip-root DIR``): its pairs, deltas, SQL metamodel and answers.

The published study keeps its files as

* ``S_<pair>.ecore`` and ``T_<pair>.sql.xmi``: the base pairs;
* ``Delta_<op>_S_<pair>.ecore`` and ``Delta_<op>_T_<pair>.sql.xmi``: one case per (pair, operator) that
  has both (a case missing one of its four files is skipped, with the reason);
* one more ``.ecore`` file, anywhere in the folder: its SQL metamodel. Its nsURI is read from the file
  (SQL-XMI files must declare that namespace); its classes must have the features this track reads
  (``Schema.name/tables``, ``Table.name/columns/primaryKey/foreignKeys``, ``Column.name/type/nullable/
  unique``, ``PrimaryKey.columns``, ``ForeignKey.name/columns/referencedTable/referencedColumns``), more
  are allowed. Without one, the track's own ``sql.ecore`` is used;
* answers, anywhere below the folder: ``<provider>_inverse_<rest>.ecore`` (an S') and
  ``<provider>_forward_<rest>_sql.xmi`` (a T'), where ``<rest>`` names one operator and one pair of the
  study (``<op>_<pair>``, ``<pair>_<op>``, or the input's own ``Delta_<op>_T_<pair>``) and may add
  ``k<N>`` (example pairs, default 1) and ``run<N>`` (default 1), anywhere. When nothing precedes
  ``inverse``/``forward``, the provider is the answer's folder name. A file that matches the pattern but
  names no case is skipped, with the reason.

Operator names are the study's own: they need not be the bundled operators.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pyecore.ecore as ecore

from benchmark.core.errors import InputFormatError
from benchmark.tracks.roundtrip.models.sqlmeta import SQL_METAMODEL_FILE, SQL_ROOT_CLASS
from benchmark.tracks.roundtrip.names import FORWARD, INVERSE
from benchmark.tracks.roundtrip.reading.models import ModelKind, sql_model_kind
from benchmark.tracks.roundtrip.study.cases import BasePair, RoundTripCase, Study

_SOURCE = re.compile(r"^S_(?P<pair>.+)\.ecore$")
_TARGET = re.compile(r"^T_(?P<pair>.+)\.sql\.xmi$")
_DELTA = re.compile(r"^Delta_(?P<rest>.+)_(?P<side>[ST])_(?P<pair>.+?)(?P<ext>\.ecore|\.sql\.xmi)$")
_INVERSE_ANSWER = re.compile(r"^(?P<provider>.*?)_?inverse_(?P<rest>.+)\.ecore$")
_FORWARD_ANSWER = re.compile(r"^(?P<provider>.*?)_?forward_(?P<rest>.+)_sql\.xmi$")
_K = re.compile(r"^k(\d+)$")
_RUN = re.compile(r"^(?:run|r)(\d+)$")

# What the track reads from a SQL-XMI file: every class and feature must exist in a study's metamodel.
REQUIRED_FEATURES: dict[str, tuple[str, ...]] = {
    SQL_ROOT_CLASS: ("name", "tables"),
    "Table": ("name", "columns", "primaryKey", "foreignKeys"),
    "Column": ("name", "type", "nullable", "unique"),
    "PrimaryKey": ("columns",),
    "ForeignKey": ("name", "columns", "referencedTable", "referencedColumns"),
}


@dataclass(frozen=True)
class StudyAnswer:
    """One answer file of a study: which case, stage, provider, k and run it is."""

    file: Path
    case: RoundTripCase
    stage: str
    provider: str
    k: int
    run: int


def _is_model_file(path: Path) -> bool:
    return bool(
        _SOURCE.match(path.name)
        or _TARGET.match(path.name)
        or _DELTA.match(path.name)
        or _INVERSE_ANSWER.match(path.name)
        or _FORWARD_ANSWER.match(path.name)
    )


def _sql_metamodel(root: Path) -> Path:
    candidates = sorted(
        p for p in root.rglob("*.ecore") if p.is_file() and not _is_model_file(p) and "runs" not in p.parts
    )
    if len(candidates) > 1:
        names = ", ".join(str(p.relative_to(root)) for p in candidates)
        raise InputFormatError(
            f"several candidate SQL metamodels ({names}): keep one .ecore besides the S_ and Delta_ files",
            file=str(root),
        )
    return candidates[0] if candidates else SQL_METAMODEL_FILE


@cache
def _metamodel_package(path: Path) -> Any:
    from benchmark.lang.ecore.pyecore_loading import load_ecore_file

    roots = [r for r in load_ecore_file(path) if isinstance(r, ecore.EPackage)]
    if len(roots) != 1:
        raise InputFormatError(
            f"a SQL metamodel must hold one root EPackage, found {len(roots)}", file=str(path)
        )
    package = roots[0]
    if not package.nsURI:
        raise InputFormatError("the SQL metamodel's EPackage has no nsURI", file=str(path))
    for class_name, features in REQUIRED_FEATURES.items():
        found = package.getEClassifier(class_name)
        if not isinstance(found, ecore.EClass):
            raise InputFormatError(
                f"the round-trip track reads class {class_name}, which this SQL metamodel does not define",
                file=str(path),
                field=class_name,
            )
        names = {f.name for f in found.eAllStructuralFeatures()}
        for feature in features:
            if feature not in names:
                raise InputFormatError(
                    f"the round-trip track reads {class_name}.{feature}, which this SQL metamodel does not "
                    "define",
                    file=str(path),
                    field=f"{class_name}.{feature}",
                )
    return package


def study_sql_kind(path: Path) -> ModelKind:
    """The SQL side of a study whose metamodel is ``path`` (checked, nsURI from the file)."""
    package = _metamodel_package(path.resolve())
    return sql_model_kind(str(package.nsURI), lambda: package)


def read_study_layout(root: Path) -> Study:
    """The study in ``root`` (module docstring). Raises :class:`InputFormatError` when the folder holds no
    base pair or its SQL metamodel is unusable."""
    files = sorted(p for p in root.rglob("*") if p.is_file() and "runs" not in p.relative_to(root).parts)
    sources = {m.group("pair"): p for p in files if (m := _SOURCE.match(p.name))}
    targets = {m.group("pair"): p for p in files if (m := _TARGET.match(p.name))}
    skipped: list[tuple[Path, str]] = []
    pairs = []
    for name in sorted(set(sources) | set(targets)):
        if name in sources and name in targets:
            pairs.append(BasePair(name, sources[name], targets[name]))
        else:
            missing = f"T_{name}.sql.xmi" if name in sources else f"S_{name}.ecore"
            skipped.append((sources.get(name) or targets[name], f"base pair {name} has no {missing}"))
    if not pairs:
        raise InputFormatError(
            "no base pair (S_<pair>.ecore with T_<pair>.sql.xmi): not a round-trip study folder",
            file=str(root),
        )
    metamodel = _sql_metamodel(root)
    kind = study_sql_kind(metamodel)
    known = {p.name for p in pairs}
    deltas: dict[tuple[str, str], dict[str, Path]] = {}
    for path in files:
        match = _DELTA.match(path.name)
        if match is None:
            continue
        side, pair, operator = match.group("side"), match.group("pair"), match.group("rest")
        expected_ext = ".ecore" if side == "S" else ".sql.xmi"
        if match.group("ext") != expected_ext or pair not in known:
            skipped.append((path, f"not a delta of a base pair ({', '.join(sorted(known))})"))
            continue
        deltas.setdefault((pair, operator), {})[side] = path
    cases = []
    for (pair_name, operator), sides in sorted(deltas.items()):
        pair = next(p for p in pairs if p.name == pair_name)
        if set(sides) != {"S", "T"}:
            have = next(iter(sides.values()))
            missing_side = "T" if "S" in sides else "S"
            skipped.append((have, f"case {pair_name}/{operator} has no Delta_{operator}_{missing_side} file"))
            continue
        cases.append(
            RoundTripCase(
                case_id=f"{pair_name}/{operator}",
                domain=pair_name,
                operator=operator,
                seed=None,
                target=(),
                source=pair.source,
                target_model=pair.target,
                delta_source=sides["S"],
                delta_target=sides["T"],
                sql_kind=kind,
            )
        )
    return Study(root, "study", tuple(pairs), tuple(cases), kind, metamodel, tuple(skipped))


# -- answers -----------------------------------------------------------------------------------------
def _parse_rest(rest: str, study: Study) -> tuple[RoundTripCase, int, int] | str:
    """(case, k, run) named by the part of an answer's name after the stage, or why it names none."""
    tokens = rest.split("_")
    k = run = 1
    kept: list[str] = []
    for token in tokens:
        if (found := _K.match(token)) is not None:
            k = int(found.group(1))
        elif (found := _RUN.match(token)) is not None:
            run = int(found.group(1))
        else:
            kept.append(token)
    text = "_".join(kept).removeprefix("Delta_")
    matches = [case for case in study.cases if _names(text, case.domain, case.operator)]
    if len(matches) == 1:
        return matches[0], k, run
    if not matches:
        return f"names no case of the study (pair and operator expected in {rest!r})"
    return f"names several cases ({', '.join(c.case_id for c in matches)})"


def _names(text: str, pair: str, operator: str) -> bool:
    """Whether ``text`` is the pair and the operator, joined by ``_`` in either order."""
    return text in (
        f"{operator}_{pair}",
        f"{pair}_{operator}",
        f"{operator}_S_{pair}",
        f"{operator}_T_{pair}",
    )


def study_answers(study: Study) -> tuple[list[StudyAnswer], list[tuple[Path, str]]]:
    """The answer files below the study's folder, and those that name no case (with the reason)."""
    answers: list[StudyAnswer] = []
    skipped: list[tuple[Path, str]] = []
    for path in sorted(p for p in study.root.rglob("*") if p.is_file()):
        for stage, pattern in ((INVERSE, _INVERSE_ANSWER), (FORWARD, _FORWARD_ANSWER)):
            match = pattern.match(path.name)
            if match is None or _DELTA.match(path.name) or _SOURCE.match(path.name):
                continue
            parsed = _parse_rest(match.group("rest"), study)
            if isinstance(parsed, str):
                skipped.append((path, f"{stage} answer {parsed}"))
                break
            case, k, run = parsed
            provider = match.group("provider").strip("_") or path.parent.name
            answers.append(StudyAnswer(path, case, stage, provider, k, run))
            break
    return answers, skipped
