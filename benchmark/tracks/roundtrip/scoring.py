"""The round-trip scorer: one output model against the expected model (and the base, for the delta).

``score(base, expected, output)`` reads the base and expected models strictly (they are the benchmark's
own files), the output as far as it can (:mod:`benchmark.tracks.roundtrip.reading`), and classifies every
canonical line:

* lines are grouped by normalized key; within a key, an output line identical to an expected line is
  paired first (**Cr**), then remaining lines pair in document order (**InCr**, with the properties that
  differ); expected lines left over are **Miss**, output lines left over **Ad**;
* **DeltaDetected**: every expected line the delta added or changed (not identical in the base) is Cr,
  and no key the delta removed (in the base, absent from the expected model) is in the output;
* the formulas (%Correct, %WSuccess, equivalence) are :class:`benchmark.tracks.roundtrip.counts.LineCounts`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from benchmark.tracks.roundtrip.counts import LineCounts
from benchmark.tracks.roundtrip.lines import CanonicalLine
from benchmark.tracks.roundtrip.reading import ModelKind, ReadModel, kind_of, read_model, read_reference

Verdict = Literal["Cr", "InCr", "Miss", "Ad"]
DeltaRole = Literal["added", "changed", "removed"]


@dataclass(frozen=True)
class LineVerdict:
    verdict: Verdict
    kind: str
    key: str
    expected: CanonicalLine | None
    output: CanonicalLine | None
    differences: tuple[str, ...] = ()
    delta: DeltaRole | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "kind": self.kind,
            "key": self.key,
            "expected": self.expected.text if self.expected is not None else None,
            "output": self.output.text if self.output is not None else None,
            "differences": list(self.differences),
            "delta": self.delta,
        }


def match_lines(expected: Sequence[CanonicalLine], output: Sequence[CanonicalLine]) -> list[LineVerdict]:
    """Verdicts for every expected line (in order), then every unmatched output line (Ad, in order)."""
    outputs_by_key: dict[str, list[int]] = defaultdict(list)
    for index, line in enumerate(output):
        outputs_by_key[line.normalized_key].append(index)
    used: set[int] = set()
    partner: dict[int, int] = {}
    for index, line in enumerate(expected):  # identical lines first, so duplicates cannot steal them
        same = next(
            (
                o
                for o in outputs_by_key[line.normalized_key]
                if o not in used and output[o].identity == line.identity
            ),
            None,
        )
        if same is not None:
            partner[index] = same
            used.add(same)
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
        differences = line.differences(found)
        verdict: Verdict = "InCr" if differences else "Cr"
        verdicts.append(LineVerdict(verdict, line.kind, line.key, line, found, differences))
    verdicts.extend(
        LineVerdict("Ad", line.kind, line.key, None, line)
        for index, line in enumerate(output)
        if index not in used
    )
    return verdicts


def counts_of(verdicts: Sequence[LineVerdict]) -> LineCounts:
    tally = {v: sum(1 for line in verdicts if line.verdict == v) for v in ("Cr", "InCr", "Miss", "Ad")}
    return LineCounts(cr=tally["Cr"], incr=tally["InCr"], miss=tally["Miss"], ad=tally["Ad"])


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
    delta_detected: bool
    delta_misses: tuple[str, ...]
    lines: tuple[LineVerdict, ...]

    @property
    def pct_correct(self) -> float:
        return self.counts.pct_correct()

    @property
    def pct_wsuccess(self) -> float:
        return self.counts.pct_wsuccess(self.delta_detected)

    @property
    def equivalent(self) -> bool:
        return self.counts.equivalent()

    def to_json(self) -> dict[str, Any]:
        return {
            "loadable": self.loadable,
            "loadError": self.load_error,
            **self.counts.to_json(),
            "pctCorrect": self.pct_correct,
            "pctWSuccess": self.pct_wsuccess,
            "deltaDetected": self.delta_detected,
            "equivalent": self.equivalent,
            "model": self.model,
            "readAs": self.read_as,
            "expectedLines": self.expected_lines,
            "deltaMisses": list(self.delta_misses),
            "files": {"base": self.base, "expected": self.expected, "output": self.output},
            "lines": [line.to_json() for line in self.lines],
        }


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
    base_identities = {line.identity for line in base}
    base_keys = {line.normalized_key for line in base}
    removed_keys = base_keys - {line.normalized_key for line in expected}
    annotated: list[LineVerdict] = []
    misses: list[str] = []
    for verdict in verdicts:
        role: DeltaRole | None = None
        if verdict.expected is not None and verdict.expected.identity not in base_identities:
            role = "changed" if verdict.expected.normalized_key in base_keys else "added"
            if verdict.verdict != "Cr":
                misses.append(f"{role} line not correct ({verdict.verdict}): {verdict.expected.text}")
        elif verdict.output is not None and verdict.output.normalized_key in removed_keys:
            role = "removed"
            misses.append(f"removed line still present: {verdict.output.text}")
        annotated.append(
            LineVerdict(
                verdict.verdict,
                verdict.kind,
                verdict.key,
                verdict.expected,
                verdict.output,
                verdict.differences,
                role,
            )
        )
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
        delta_detected=not misses,
        delta_misses=tuple(misses),
        lines=tuple(annotated),
    )


def score(
    base: str | Path, expected: str | Path, output: str | Path, kind: ModelKind | None = None
) -> ScoreReport:
    """Score ``output`` against ``expected``; ``base`` is the model before the delta. The model kind
    (Ecore or SQL-XMI) comes from the expected file unless given."""
    kind = kind or kind_of(expected)
    base_lines = read_reference(base, kind)
    expected_lines = read_reference(expected, kind)
    read = read_model(output, kind)
    return score_lines(base_lines, expected_lines, read, base_file=str(base), expected_file=str(expected))
