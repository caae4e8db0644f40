"""The round-trip track's line counts and the sheet's formulas (%Correct, %WSuccess, equivalence)."""

from __future__ import annotations

from dataclasses import dataclass

from benchmark.core.metrics import ratio


@dataclass(frozen=True)
class LineCounts:
    """Round-trip track: canonical-line verdicts of one output model (see ``docs/ROUNDTRIP.md``).

    Cr: key present, every property equal; InCr: key present, some property differs; Miss: expected key
    absent; Ad: output key not expected. LOC counts the output's lines (Cr + InCr + Ad).
    """

    cr: int = 0
    incr: int = 0
    miss: int = 0
    ad: int = 0

    @property
    def loc(self) -> int:
        return self.cr + self.incr + self.ad

    def pct_correct(self) -> float:
        """%Correct = Cr / (LOC + Miss - Ad), i.e. Cr over the expected lines (Cr + InCr + Miss)."""
        return ratio(self.cr, self.loc + self.miss - self.ad)

    def pct_wsuccess(self, delta_detected: bool) -> float:
        """%WSuccess = (Cr - InCr - Miss - Ad - 2 x [delta undetected]) / LOC; may be negative."""
        return ratio(self.cr - self.incr - self.miss - self.ad - (0 if delta_detected else 2), self.loc)

    def equivalent(self) -> bool:
        """Every expected line correct (Cr = expected count) and nothing wrong or extra (InCr = Ad = 0)."""
        return self.incr == 0 and self.miss == 0 and self.ad == 0

    def to_json(self) -> dict[str, int]:
        return {"LOC": self.loc, "Cr": self.cr, "InCr": self.incr, "Ad": self.ad, "Miss": self.miss}
