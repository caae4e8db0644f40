"""The round-trip study's names (stages, baselines), apart from the code that reads and scores models.

Every session loads each registered track to add its options, so what the track module needs at import
time lives here, and the readers, scorer and operators (pyecore, lxml) load only when the track runs.
"""

from __future__ import annotations

TRACK_NAME = "roundtrip"
INVERSE = "inverse"
FORWARD = "forward"
STAGES = (INVERSE, FORWARD)
ECHO = "Echo"  # baseline: the unchanged base model as the answer (what "did nothing" earns)
ORACLE = "Oracle"  # baseline: the expected model itself (100 % everywhere, or the scorer is wrong)
BASELINES = {"echo": ECHO, "oracle": ORACLE}
BUNDLED_EXAMPLES = (1, 2)  # the values of k of the bundled synthetic runs (``atlbench roundtrip synth``)
