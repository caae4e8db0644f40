"""The two baselines of the OCL track, computed live for every dataset model and mode.

* **Oracle** answers with the reference itself, transformed for the mode: it is correct everywhere, so
  its robustness is 100 % in every mode. It checks the pipeline (the transformations, the judge, the
  scores) end to end: anything less is a bug, not a finding.
* **Rename-blind** answers with the *original* reference, unchanged, whatever the mode: the answer of a
  model that ignores the transformation. On the original it is the Oracle; under ``rename`` its answers
  name classes and roles that no longer exist (type errors), under reification they navigate the old
  way. It shows that the score catches an answer that did not read the transformed model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchmark.tracks.ocl.variants import Variant

ORACLE = "Oracle"
RENAME_BLIND = "Rename-blind"
BASELINES = (ORACLE, RENAME_BLIND)


def baseline_answers(name: str, variant: Variant, original: Variant) -> dict[str, str]:
    """The baseline's raw answer for every constraint of ``variant``'s model."""
    if name == ORACLE:
        return dict(variant.references)
    if name == RENAME_BLIND:
        return dict(original.references)
    raise ValueError(f"unknown baseline {name!r}")


__all__ = ["BASELINES", "ORACLE", "RENAME_BLIND", "baseline_answers"]
