"""The round-trip track's options, declared once for pytest, ``atlbench validate``, ``report``,
``generate --track roundtrip`` and ``atlbench roundtrip synth``, in the grammar of
:mod:`benchmark.core.options`.

``--roundtrip-baselines`` chooses the live baselines (``all``, ``none`` or a comma list of echo and
oracle); ``--roundtrip-draws`` and ``--roundtrip-seed`` set the bootstrap of the report's intervals;
``--examples`` and ``--example-seed`` say how many example pairs a prompt shows and how the others are
picked. ``atlbench roundtrip synth --examples`` is the same option with the bundled runs' default.
"""

from __future__ import annotations

from dataclasses import replace

from benchmark.core.options import Option, integer, integers, names
from benchmark.tracks.roundtrip.names import BUNDLED_EXAMPLES, ECHO, ORACLE

BASELINES = Option(
    "--roundtrip-baselines",
    "all",
    "live baselines scored beside the runs: all, none, or a comma list of echo (the unchanged base "
    "model) and oracle (the expected model)",
    names((ECHO, ORACLE), "baseline"),
    metavar="LIST",
)
DRAWS = Option(
    "--roundtrip-draws",
    "2000",
    "bootstrap draws of the round-trip intervals (0: none)",
    integer("a whole number of bootstrap draws, 0 for none", 0),
    metavar="N",
)
SEED = Option("--roundtrip-seed", "20240517", "seed of the round-trip bootstrap", integer(), metavar="S")
EXAMPLES = Option(
    "--examples",
    "1",
    "numbers k of example pairs per prompt, e.g. 1,2,4",
    integers("numbers of example pairs of at least 1 separated by commas (1,2,4)", 1),
    metavar="K,...",
)
EXAMPLE_SEED = Option(
    "--example-seed", "0", "seed of the rule that picks the k - 1 other example pairs", integer(), metavar="N"
)

TRACK_OPTIONS = (BASELINES,)
REPORT_OPTIONS = (DRAWS, SEED)
GENERATE_OPTIONS = (EXAMPLES, EXAMPLE_SEED)

# ``atlbench roundtrip synth``: the bundled synthetic runs (docs/ROUNDTRIP.md §14).
SYNTH_OPTIONS = (
    replace(EXAMPLES, default=",".join(str(k) for k in BUNDLED_EXAMPLES)),
    Option("--runs", "1", "runs per (case, k)", integer("a whole number of at least 1", 1), metavar="N"),
    Option("--seed", "0", "base seed of the noise", integer(), metavar="N"),
)
