"""The mapping track's options, declared once for pytest, ``atlbench validate``, ``diff`` and ``report``.

``--partial-weight`` (alias ``--partial-match-weight``, the seed study's spelling) is the weight w of a
partial binding (``docs/METRICS.md``); ``--confidence`` keeps only suggestions with the given confidence
labels; ``--baseline`` chooses the baselines run live.
"""

from __future__ import annotations

from benchmark.core.errors import ConfigurationError
from benchmark.core.options import Option, number
from benchmark.tracks.mapping.metrics import DEFAULT_PARTIAL_WEIGHT


def parse_confidence(text: str) -> str | None:
    """``all`` gives ``None`` (keep everything); otherwise the spelling as given, once checked."""
    from benchmark.tracks.mapping.suggestions import parse_confidence_filter

    parse_confidence_filter(text)  # raises a ConfigurationError naming the bad label
    return None if text.strip().lower() in ("", "all") else text


def parse_baselines(spec: str) -> tuple[str, ...]:
    """``all``/``none``/comma list, case- and punctuation-insensitive, to registry names."""
    from benchmark.tracks.mapping.baselines import BASELINES

    def squash(text: str) -> str:
        return "".join(ch for ch in text.lower() if ch.isalnum())

    known = {squash(name): name for name in BASELINES}
    words = [w.strip() for w in spec.split(",") if w.strip()]
    if not words or words == ["none"]:
        return ()
    if words == ["all"]:
        return tuple(sorted(BASELINES))
    chosen = []
    for word in words:
        if squash(word) not in known:
            raise ConfigurationError(
                f"unknown baseline {word!r}; choose all, none or some of: {', '.join(sorted(BASELINES))}"
            )
        chosen.append(known[squash(word)])
    return tuple(dict.fromkeys(chosen))


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
BASELINE = Option(
    "--baseline",
    default="all",
    help="baselines run live: all, none, or a comma list (emfcompare, nameequality)",
    parse=parse_baselines,
    metavar="NAMES",
)

SCORING_OPTIONS = (PARTIAL_WEIGHT, CONFIDENCE)
TRACK_OPTIONS = (PARTIAL_WEIGHT, CONFIDENCE, BASELINE)


def optional_weight(text: str) -> float | None:
    return None if text.strip() == "" else PARTIAL_WEIGHT.parse(text)


def positive_int(text: str) -> int | None:
    if text.strip() == "":
        return None
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"must be a whole number, got {text!r}") from None
    if value < 1:
        raise ValueError(f"must be at least 1, got {value}")
    return value


def optional_int(text: str) -> int | None:
    if text.strip() == "":
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"must be a whole number, got {text!r}") from None


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
    Option("--draws", "", "bootstrap draws (default 2000)", positive_int, metavar="N"),
    Option("--seed", "", "bootstrap seed (default: fixed)", optional_int, metavar="S"),
    Option(
        "--partial-weight",
        "",
        "re-apply another partial weight to the stored counts (default: the rows' own; "
        f"{SEED_PARTIAL_WEIGHT}: the seed study's spelling)",
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
