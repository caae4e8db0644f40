"""The mapping track's options, declared once for pytest, ``atlbench validate``, ``diff``, ``report`` and
``synth``, in the grammar of :mod:`benchmark.core.options`.

``--partial-weight`` is the weight w of a partial binding (``docs/METRICS.md``); ``--confidence`` keeps
only suggestions with the given confidence labels; ``--atl-baselines`` (also spelt ``--baseline``, its
name before every track had ``--<track>-baselines``) chooses the baselines run live. ``atlbench report``
takes ``--atl-draws`` and ``--atl-seed`` (also ``--draws`` and ``--seed``) for the bootstrap.
``--atl-variant-seed`` is the seed of a task variant's renaming (``docs/VARIANTS.md``): the baselines'
in a session, and the runs' in ``atlbench generate`` (with ``--variant``, also spelt ``--atl-variant``)
and ``atlbench synth``.
"""

from __future__ import annotations

from benchmark.core.options import Option, integer, names, number, optional
from benchmark.tracks.mapping.confidence import parse_confidence_filter
from benchmark.tracks.mapping.counts import DEFAULT_PARTIAL_WEIGHT
from benchmark.tracks.mapping.variants.names import DEFAULT_SEED, parse_variants


def parse_confidence(text: str) -> str | None:
    """``all`` gives ``None`` (keep everything); otherwise the spelling as given, once checked."""
    parse_confidence_filter(text)  # raises a ConfigurationError naming the bad label
    return None if text.strip().lower() in ("", "all") else text


def parse_baselines(text: str) -> tuple[str, ...]:
    """``all``/``none``/comma list of the registered baselines (:data:`~.baselines.BASELINES`, imported
    when an option is read, not when the track is registered)."""
    from benchmark.tracks.mapping.baselines import BASELINES

    return names(sorted(BASELINES), "baseline")(text)


#: The seed study's Java analyzer spells the partial weight ``--partial-match-weight``; researchers who know
#: its commands type it, so every command and the pytest session accept it.
SEED_PARTIAL_WEIGHT = "--partial-match-weight"

PARTIAL_WEIGHT = Option(
    "--partial-weight",
    default=f"{DEFAULT_PARTIAL_WEIGHT:g}",
    help=f"weight w in [0, 1] of a partial binding ({SEED_PARTIAL_WEIGHT}: the seed study's spelling)",
    parse=number("a number in [0, 1]", 0.0, 1.0),
    metavar="W",
    aliases=(SEED_PARTIAL_WEIGHT,),
)
CONFIDENCE = Option(
    "--confidence",
    default="all",
    help="confidence filter: all, high, high,medium, ...",
    parse=parse_confidence,
    metavar="LABELS",
)
BASELINES = Option(
    "--atl-baselines",
    default="all",
    help="baselines run live: all, none, or a comma list (emfcompare, nameequality)",
    parse=parse_baselines,
    metavar="NAMES",
    aliases=("--baseline",),
)

VARIANT_SEED = Option(
    "--atl-variant-seed",
    default=str(DEFAULT_SEED),
    help="seed of a task variant's renaming: the baselines' on a variant, the runs' in generate and synth",
    parse=integer("a whole number of at least 0", 0),
    metavar="S",
)
VARIANT = Option(
    "--atl-variant",
    default="original",
    help="task variants to prompt: original, synonym, opaque, shuffled, name-only, all, or a comma list "
    "(docs/VARIANTS.md)",
    parse=parse_variants,
    metavar="VARIANTS",
    aliases=("--variant",),
)

SCORING_OPTIONS = (PARTIAL_WEIGHT, CONFIDENCE)
TRACK_OPTIONS = (PARTIAL_WEIGHT, CONFIDENCE, BASELINES, VARIANT_SEED)
GENERATE_OPTIONS = (VARIANT, VARIANT_SEED)
# ``atlbench variant export``: the variants to write (synonym unless said) and their seed.
EXPORT_OPTIONS = (
    Option(
        "--atl-variant",
        default="synonym",
        help=VARIANT.help,
        parse=parse_variants,
        metavar="VARIANTS",
        aliases=("--variant",),
    ),
    VARIANT_SEED,
)


def optional_weight(text: str) -> float | None:
    return None if text.strip() == "" else PARTIAL_WEIGHT.parse(text)


def level(text: str) -> str:
    if text not in ("overall", "binding", "class"):
        raise ValueError(f"must be overall, binding or class, got {text!r}")
    return text


REPORT_OPTIONS = (
    Option(
        "--level",
        "overall",
        "level the statistics and figures use: overall (classes + bindings pooled), binding or class",
        level,
        metavar="LEVEL",
    ),
    Option(
        "--atl-draws",
        "",
        "bootstrap draws (default 2000)",
        optional(integer("a whole number of at least 1", 1)),
        metavar="N",
        aliases=("--draws",),
    ),
    Option(
        "--atl-seed",
        "",
        "bootstrap seed (default: fixed)",
        optional(integer()),
        metavar="S",
        aliases=("--seed",),
    ),
    Option(
        "--partial-weight",
        "",
        "apply another partial weight to the stored counts (default: the session's)",
        optional_weight,
        metavar="W",
        aliases=(SEED_PARTIAL_WEIGHT,),
    ),
    Option(
        "--baseline",
        "",
        "provider whose misses define baseline-relative recall (default EMFCompare)",
        str,
        metavar="PROVIDER",
    ),
)

# ``atlbench synth``: the mapping track's synthetic runs (docs/SYNTHETIC_RUNS.md).
SYNTH_OPTIONS = (
    Option(
        "--runs",
        "3",
        "runs per profile and transformation",
        integer("a whole number of at least 1", 1),
        metavar="N",
    ),
    Option(
        "--first-run", "1", "number of the first run", integer("a whole number of at least 1", 1), metavar="N"
    ),
    Option("--seed", "0", "base seed of the noise", integer(), metavar="S"),
    VARIANT,
    VARIANT_SEED,
)
