"""The OCL track's options, declared once for pytest, ``atlbench validate``, ``report``, ``generate --track
ocl`` and the sub-commands ``atlbench ocl transform`` and ``atlbench ocl synth``, in the grammar of
:mod:`benchmark.core.options`.

``--ocl-baselines`` (also spelt ``--ocl-baseline``) chooses the live baselines; ``--ocl-seed`` is the seed
of the model transformations (the runs' prompts were built with it, and ``atlbench ocl transform --seed``
and ``atlbench ocl synth --seed`` are the same option); ``--ocl-draws`` sets the bootstrap of the report's
intervals; ``--ocl-mode`` is the model variant the prompts of ``atlbench generate`` show.
"""

from __future__ import annotations

from benchmark.core.options import Option, integer, names, optional
from benchmark.tracks.ocl.baselines import BASELINES as BASELINE_NAMES
from benchmark.tracks.ocl.variants import ORIGINAL, modes


def parse_mode(text: str) -> str:
    if text not in modes():
        raise ValueError(f"must be original or a transformation mode ({', '.join(modes())}), got {text!r}")
    return text


BASELINES = Option(
    "--ocl-baselines",
    "all",
    f"OCL baselines run live: all, none, or a comma list ({', '.join(BASELINE_NAMES)})",
    names(BASELINE_NAMES, "baseline"),
    metavar="NAMES",
    aliases=("--ocl-baseline",),
)
SEED = Option(
    "--ocl-seed",
    "0",
    "seed of the OCL model transformations",
    integer("a whole number of at least 0", 0),
    metavar="S",
)
DRAWS = Option(
    "--ocl-draws",
    "",
    "bootstrap draws of the OCL intervals (default 2000)",
    optional(integer("a whole number of at least 1", 1)),
    metavar="N",
)
MODE = Option(
    "--ocl-mode",
    ORIGINAL,
    "the model variant the prompts show: original or a transformation mode",
    parse_mode,
)

TRACK_OPTIONS = (BASELINES, SEED)
REPORT_OPTIONS = (DRAWS,)
GENERATE_OPTIONS = (MODE,)
