"""The OCL track's options, declared once for pytest, ``atlbench validate``, ``report``, ``generate --track
ocl`` and the sub-commands ``atlbench ocl transform`` and ``atlbench ocl synth``, in the grammar of
:mod:`benchmark.core.options`.

``--ocl-baselines`` (also spelt ``--ocl-baseline``) chooses the live baselines; ``--ocl-seed`` is the seed
of the model transformations (the runs' prompts were built with it, and ``atlbench ocl transform --seed``
and ``atlbench ocl synth --seed`` are the same option); ``--ocl-draws`` sets the bootstrap of the report's
intervals; ``--ocl-mode`` is the model variant the prompts of ``atlbench generate`` show. ``--ocl-judge``
chooses who judges the answers (the built-in judge, a local USE found through ``--ocl-use`` or
``ATLBENCH_USE``, or both, with ``--ocl-accept-disagreements`` to pass a session where they differ);
``--ocl-use-timeout`` is how long USE may take for one command (opening or checking one state) before
it is taken as hung and replaced.
"""

from __future__ import annotations

from benchmark.core.options import FLAG, PATH, Option, integer, names, number, optional, switch
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

BUILTIN, USE, BOTH = "builtin", "use", "both"


def parse_judge(text: str) -> str:
    if text not in (BUILTIN, USE, BOTH):
        raise ValueError(f"must be {BUILTIN}, {USE} or {BOTH}, got {text!r}")
    return text


JUDGE = Option(
    "--ocl-judge",
    BUILTIN,
    "who judges the OCL answers: builtin, use (a local USE, see --ocl-use) or both (the tables are the "
    "built-in judge's; every disagreement is listed and fails the session)",
    parse_judge,
    metavar="JUDGE",
)
USE_PATH = Option(
    "--ocl-use",
    "",
    "the local USE of --ocl-judge use|both: its `use' launcher, installation folder or folder of jars "
    "(default: $ATLBENCH_USE)",
    kind=PATH,
    metavar="PATH",
)
USE_TIMEOUT = Option(
    "--ocl-use-timeout",
    "30",
    "seconds USE may take for one command of --ocl-judge use|both (opening or checking one state) before "
    "it is taken as hung, replaced, and the state judged again (default 30)",
    number("a number of seconds above 0", 0.001),
    metavar="SECONDS",
)
ACCEPT_DISAGREEMENTS = Option(
    "--ocl-accept-disagreements",
    "false",
    "with --ocl-judge both: list the disagreements between the judges and pass",
    switch,
    kind=FLAG,
)

TRACK_OPTIONS = (BASELINES, SEED, JUDGE, USE_PATH, USE_TIMEOUT, ACCEPT_DISAGREEMENTS)
REPORT_OPTIONS = (DRAWS,)
GENERATE_OPTIONS = (MODE,)
