"""The round-trip track's line counts and the sheet's formulas (%Correct, %WSuccess, equivalence).

``docs/ROUNDTRIP.md`` §8 gives each definition against the study's sheet, with a worked example. Two
deliberate departures from the sheet, each kept next to the sheet's own value where it differs:

* %WSuccess subtracts only the *harmful* additions (``Ad[harmful]``: lines with an image in the schema),
  not every addition;
* %WSuccess divides by ``LOC + Miss`` (every line of the output or of the expected model), not by LOC: with
  LOC an empty answer scored 0, above any half-right answer (whose numerator is at most 0). With
  ``LOC + Miss`` an empty answer scores ``-1 - 2/E`` (E expected lines) and any answer with one correct
  line scores at least -1. The sheet's formula stays available as :meth:`LineCounts.pct_wsuccess_sheet`.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmark.core.metrics import ratio

DELTA_PENALTY = 2  # the sheet's "2[Δ undetected]": once per stage evaluation


@dataclass(frozen=True)
class LineCounts:
    """Round-trip track: canonical-line verdicts of one output model (see ``docs/ROUNDTRIP.md``).

    Cr: key present, every property equal; InCr: key present, some property differs; Miss: expected key
    absent; Ad: output key not expected, of which ``ad_harmful`` have an image in the schema. LOC counts
    the output's lines (Cr + InCr + Ad).
    """

    cr: int = 0
    incr: int = 0
    miss: int = 0
    ad: int = 0
    ad_harmful: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.ad_harmful <= self.ad:
            raise ValueError(f"ad_harmful={self.ad_harmful} must be between 0 and ad={self.ad}")

    @property
    def loc(self) -> int:
        return self.cr + self.incr + self.ad

    @property
    def expected(self) -> int:
        """Lines of the expected model: Cr + InCr + Miss."""
        return self.cr + self.incr + self.miss

    def pct_correct(self) -> float:
        """%Correct = Cr / (LOC + Miss - Ad), i.e. Cr over the expected lines (Cr + InCr + Miss)."""
        return ratio(self.cr, self.loc + self.miss - self.ad)

    def _numerator(self, additions: int, delta_detected: bool) -> int:
        return self.cr - self.incr - self.miss - additions - (0 if delta_detected else DELTA_PENALTY)

    def pct_wsuccess(self, delta_detected: bool) -> float:
        """%WSuccess = (Cr - InCr - Miss - Ad[harmful] - 2 x [delta undetected]) / (LOC + Miss)."""
        return ratio(self._numerator(self.ad_harmful, delta_detected), self.loc + self.miss)

    def pct_wsuccess_sheet(self, delta_detected: bool) -> float:
        """The sheet's own %WSuccess: (Cr - InCr - Miss - Ad - 2 x [delta undetected]) / LOC; 0 when
        LOC = 0."""
        return ratio(self._numerator(self.ad, delta_detected), self.loc)

    def equivalent(self) -> bool:
        """Every expected line correct and nothing wrong or extra (InCr = Miss = Ad = 0); the report
        also requires the output to be loadable."""
        return self.incr == 0 and self.miss == 0 and self.ad == 0

    def to_json(self) -> dict[str, int]:
        return {
            "LOC": self.loc,
            "Cr": self.cr,
            "InCr": self.incr,
            "Ad": self.ad,
            "AdHarmful": self.ad_harmful,
            "Miss": self.miss,
        }
