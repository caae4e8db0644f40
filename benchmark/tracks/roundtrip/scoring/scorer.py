"""The round-trip scorer: one output model against the expected model (and the base, for the delta).

``score(base, expected, output)`` reads the base and expected models strictly (they are the benchmark's
own files, and their lines are cached per content), the output as an answer (the model is extracted from
prose and fences first, :mod:`benchmark.tracks.roundtrip.reading.answer`) as far as it can
(:mod:`benchmark.tracks.roundtrip.reading.models`), and classifies every canonical line:

* lines are grouped by normalized key; within a key, an output line identical to an expected line is
  paired first (**Cr**), then remaining lines pair in document order (**InCr**, with the properties that
  differ); expected lines left over are **Miss**, output lines left over **Ad** (harmful when the line has
  an image in the schema, :func:`benchmark.tracks.roundtrip.models.lines.has_schema_image`);
* the **delta lines** are what the delta did to the base: every expected line not identical to a base line
  (added or changed) and every base key absent from the expected model (removed). The output
  *reproduces* an added or changed line when that line is Cr, a removed one when the key is absent;
  **DeltaDetected** = every delta line reproduced; **deltaRecall** = reproduced / delta lines;
  **deltaPrecision** = reproduced / the output's own changes to the base (its lines not identical to a
  base line, and the base keys it lacks), 0 when it changes nothing;
* the formulas (%Correct, %WSuccess, equivalence) are
:class:`benchmark.tracks.roundtrip.scoring.counts.LineCounts`.
"""

from __future__ import annotations

import hashlib
import os
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from benchmark.core.errors import InputFormatError
from benchmark.core.memo import BoundedMemo
from benchmark.core.metrics import ratio
from benchmark.tracks.roundtrip.models.lines import CanonicalLine, has_schema_image
from benchmark.tracks.roundtrip.reading.models import (
    ModelKind,
    ReadModel,
    clear_answer_memo,
    kind_of,
    read_answer,
    read_model_data,
)
from benchmark.tracks.roundtrip.scoring.counts import LineCounts

if TYPE_CHECKING:
    from benchmark.tracks.roundtrip.study.cases import Stage

Verdict = Literal["Cr", "InCr", "Miss", "Ad"]
DeltaRole = Literal["added", "changed", "removed"]


class LineVerdict(NamedTuple):
    """One line's verdict. A named tuple: a session makes one per line of every scored model (some
    hundred thousand), far more cheaply than a frozen dataclass."""

    verdict: Verdict
    kind: str
    key: str
    expected: CanonicalLine | None
    output: CanonicalLine | None
    differences: tuple[str, ...] = ()
    delta: DeltaRole | None = None
    harmful: bool | None = None  # Ad lines only: the addition has an image in the schema

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "kind": self.kind,
            "key": self.key,
            "expected": self.expected.text if self.expected is not None else None,
            "output": self.output.text if self.output is not None else None,
            "differences": list(self.differences),
            "delta": self.delta,
            "harmful": self.harmful,
        }


def match_lines(expected: Sequence[CanonicalLine], output: Sequence[CanonicalLine]) -> list[LineVerdict]:
    """Verdicts for every expected line (in order), then every unmatched output line (Ad, in order)."""
    outputs_by_key: dict[str, list[int]] = defaultdict(list)
    for index, line in enumerate(output):
        outputs_by_key[line.normalized_key].append(index)
    # the output lines of each identity, last first: the first unused one is at the end (an output line
    # is only ever taken by an expected line of its own identity in the first pass)
    outputs_by_identity: dict[tuple[str, tuple[tuple[str, str], ...]], list[int]] = {}
    for index in range(len(output) - 1, -1, -1):
        outputs_by_identity.setdefault(output[index].identity, []).append(index)
    used: set[int] = set()
    partner: dict[int, int] = {}
    for index, line in enumerate(expected):  # identical lines first, so duplicates cannot steal them
        same = outputs_by_identity.get(line.identity)
        if same:
            partner[index] = taken = same.pop()
            used.add(taken)
    identical = set(partner)  # same identity: the same normalized properties, so no differences
    for index, line in enumerate(expected):
        if index in partner:
            continue
        other = next((o for o in outputs_by_key[line.normalized_key] if o not in used), None)
        if other is not None:
            partner[index] = other
            used.add(other)
    verdicts: list[LineVerdict] = []
    for index, line in enumerate(expected):
        if index not in partner:
            verdicts.append(LineVerdict("Miss", line.kind, line.key, line, None))
            continue
        found = output[partner[index]]
        differences = () if index in identical else line.differences(found)
        verdict: Verdict = "InCr" if differences else "Cr"
        verdicts.append(LineVerdict(verdict, line.kind, line.key, line, found, differences))
    verdicts.extend(
        LineVerdict("Ad", line.kind, line.key, None, line, harmful=has_schema_image(line))
        for index, line in enumerate(output)
        if index not in used
    )
    return verdicts


def counts_of(verdicts: Sequence[LineVerdict]) -> LineCounts:
    tally = {v: sum(1 for line in verdicts if line.verdict == v) for v in ("Cr", "InCr", "Miss", "Ad")}
    harmful = sum(1 for line in verdicts if line.verdict == "Ad" and line.harmful)
    return LineCounts(
        cr=tally["Cr"], incr=tally["InCr"], miss=tally["Miss"], ad=tally["Ad"], ad_harmful=harmful
    )


@dataclass(frozen=True)
class DeltaScores:
    """How much of the delta the output reproduces, and how much of what it changed is the delta."""

    lines: int  # delta lines: added + changed + removed
    reproduced: int
    output_changes: int  # the output's lines not identical to a base line + the base keys it lacks
    misses: tuple[str, ...]  # delta lines not reproduced, as text

    @property
    def detected(self) -> bool:
        return self.reproduced == self.lines

    @property
    def recall(self) -> float:
        """Reproduced delta lines over delta lines (1 when the delta changed nothing)."""
        return ratio(self.reproduced, self.lines) if self.lines else 1.0

    @property
    def precision(self) -> float:
        """Reproduced delta lines over the output's own changes; 0 when the output changes nothing."""
        return ratio(self.reproduced, self.output_changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "deltaLines": self.lines,
            "deltaReproduced": self.reproduced,
            "outputChanges": self.output_changes,
            "deltaRecall": self.recall,
            "deltaPrecision": self.precision,
        }


@dataclass(frozen=True)
class ScoreReport:
    """Everything the scorer found for one output; ``to_json`` is the documented JSON shape."""

    model: str
    base: str
    expected: str
    output: str
    loadable: bool
    load_error: str | None
    read_as: str
    expected_lines: int
    counts: LineCounts
    delta: DeltaScores
    verdicts: tuple[LineVerdict, ...]  # as matched (:func:`match_lines`)
    roles: tuple[DeltaRole | None, ...]  # each verdict's delta role (:func:`_delta`)
    flags: tuple[str, ...] = ()
    extraction: dict[str, Any] | None = None

    @cached_property
    def lines(self) -> tuple[LineVerdict, ...]:
        """The verdicts with their delta roles (made when asked for: a stage evaluation's payload needs
        only the counts)."""
        return tuple(
            verdict._replace(delta=role) for verdict, role in zip(self.verdicts, self.roles, strict=True)
        )

    @property
    def delta_detected(self) -> bool:
        return self.delta.detected

    @property
    def delta_misses(self) -> tuple[str, ...]:
        return self.delta.misses

    @property
    def pct_correct(self) -> float:
        return self.counts.pct_correct()

    @property
    def pct_wsuccess(self) -> float:
        return self.counts.pct_wsuccess(self.delta_detected)

    @property
    def pct_wsuccess_sheet(self) -> float:
        return self.counts.pct_wsuccess_sheet(self.delta_detected)

    @property
    def equivalent(self) -> bool:
        """Loadable, every expected line Cr, nothing wrong or extra: an unloadable file never is."""
        return self.loadable and self.counts.equivalent()

    def to_json(self) -> dict[str, Any]:
        return {
            "loadable": self.loadable,
            "loadError": self.load_error,
            **self.counts.to_json(),
            "pctCorrect": self.pct_correct,
            "pctWSuccess": self.pct_wsuccess,
            "pctWSuccessSheet": self.pct_wsuccess_sheet,
            "deltaDetected": self.delta_detected,
            **self.delta.to_json(),
            "equivalent": self.equivalent,
            "flags": list(self.flags),
            "model": self.model,
            "readAs": self.read_as,
            "expectedLines": self.expected_lines,
            "deltaMisses": list(self.delta_misses),
            "extraction": self.extraction,
            "files": {"base": self.base, "expected": self.expected, "output": self.output},
            "lines": [line.to_json() for line in self.lines],
        }


def _delta(
    base: Sequence[CanonicalLine],
    expected: Sequence[CanonicalLine],
    output: Sequence[CanonicalLine],
    verdicts: Sequence[LineVerdict],
) -> tuple[DeltaScores, tuple[DeltaRole | None, ...]]:
    """The delta scores and each verdict's delta role (module docstring)."""
    base_identities = {line.identity for line in base}
    base_keys = {line.normalized_key for line in base}
    removed_keys = base_keys - {line.normalized_key for line in expected}
    output_keys = {line.normalized_key for line in output}
    roles: list[DeltaRole | None] = []
    misses: list[str] = []
    delta_lines = reproduced = 0
    for verdict in verdicts:
        role: DeltaRole | None = None
        if verdict.expected is not None and verdict.expected.identity not in base_identities:
            role = "changed" if verdict.expected.normalized_key in base_keys else "added"
            delta_lines += 1
            if verdict.verdict == "Cr":
                reproduced += 1
            else:
                misses.append(f"{role} line not correct ({verdict.verdict}): {verdict.expected.text}")
        elif verdict.output is not None and verdict.output.normalized_key in removed_keys:
            role = "removed"
            misses.append(f"removed line still present: {verdict.output.text}")
        roles.append(role)
    delta_lines += len(removed_keys)
    reproduced += len(removed_keys - output_keys)
    changes = sum(1 for line in output if line.identity not in base_identities) + len(base_keys - output_keys)
    return DeltaScores(delta_lines, reproduced, changes, tuple(misses)), tuple(roles)


def score_lines(
    base: Sequence[CanonicalLine],
    expected: Sequence[CanonicalLine],
    read: ReadModel,
    *,
    base_file: str = "",
    expected_file: str = "",
) -> ScoreReport:
    """Score already-read lines (the file-free core of :func:`score`)."""
    verdicts = match_lines(expected, read.lines)
    delta, roles = _delta(base, expected, read.lines, verdicts)
    return ScoreReport(
        model=read.kind,
        base=base_file,
        expected=expected_file,
        output=read.file,
        loadable=read.loadable,
        load_error=read.load_error,
        read_as=read.read_as,
        expected_lines=len(expected),
        counts=counts_of(verdicts),
        delta=delta,
        verdicts=tuple(verdicts),
        roles=roles,
        flags=read.flags,
        extraction=read.answer.to_json() if read.answer is not None else None,
    )


# -- reference models, read once per content -------------------------------------------------------------
REFERENCE_CACHE_SIZE = 1024
_references: BoundedMemo[tuple[str, str, str, str], tuple[CanonicalLine, ...]] = BoundedMemo(
    REFERENCE_CACHE_SIZE
)


def reference(path: str | Path, kind: ModelKind) -> tuple[str, tuple[CanonicalLine, ...]]:
    """The SHA-256 (hex) of a base or expected model's bytes, and its lines; the model must be loadable
    (they are ours, not an LLM's).

    The lines are cached per (kind, absolute path, SHA-256 of the bytes): a study scores every case's base
    and expected model once per stage and provider, and loading them is most of a scoring's time. The
    file is read and hashed on every call (a few kilobytes), so an edited file has another hash and is read
    again; the hash is returned because a stage's disk-cache key is made of it
    (:meth:`~benchmark.tracks.roundtrip.scoring.stage.StageScorer.score`), which then need not read the
    file once more.
    """
    file = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise InputFormatError(f"cannot read file: {error.strerror}", file=file) from None
    digest = hashlib.sha256(data).hexdigest()
    # the absolute path, not the resolved one: resolving costs a system call per folder on every call, and
    # two spellings of one file (a symbolic link) only cost a second entry
    key = (kind.name, kind.ns_uri, os.path.abspath(file), digest)
    cached = _references.get(key)
    if cached is not None:
        return digest, cached
    read = read_model_data(data, file, kind)
    if not read.loadable:
        raise InputFormatError(f"reference model is not loadable: {read.load_error}", file=file)
    _references.put(key, read.lines)
    return digest, read.lines


def reference_lines(path: str | Path, kind: ModelKind) -> tuple[CanonicalLine, ...]:
    """Lines of a base or expected model, which must be loadable (:func:`reference`, cached the same way)."""
    return reference(path, kind)[1]


def score(
    base: str | Path, expected: str | Path, output: str | Path, kind: ModelKind | None = None
) -> ScoreReport:
    """Score ``output`` (a bare model or a raw answer) against ``expected``; ``base`` is the model before
    the delta. The model kind (Ecore or SQL-XMI) comes from the expected file unless given."""
    kind = kind or kind_of(expected)
    base_lines = reference_lines(base, kind)
    expected_lines = reference_lines(expected, kind)
    read = read_answer(output, kind)
    return score_lines(base_lines, expected_lines, read, base_file=str(base), expected_file=str(expected))


def clear_reference_cache() -> None:
    """Forget every cached reference model, and the answers read (benchmarks, long sessions)."""
    _references.clear()
    clear_answer_memo()


def score_stage(stage: Stage, output: str | Path) -> ScoreReport:
    """``output`` (a model file or an answer) scored as the stage's answer: against its expected model,
    with its base model as the base."""
    return score(stage.base, stage.expected, output, stage.kind)
