"""The mapping track's task variants, by name, and the option grammar that selects them.

``original`` is the task as it always was; every other variant is a probe of where a score comes from
(``docs/VARIANTS.md``): ``synonym`` (every name of both metamodels replaced by a synonym, structure
intact), ``opaque`` (every name replaced by a neutral id, structure intact), ``shuffled`` (names intact,
classes and features in another order) and ``name-only`` (no metamodel content at all: the
transformation's and the metamodels' names only).
"""

from __future__ import annotations

from benchmark.core.options import names

ORIGINAL = "original"
SYNONYM = "synonym"
OPAQUE = "opaque"
SHUFFLED = "shuffled"
NAME_ONLY = "name-only"
VARIANTS = (ORIGINAL, SYNONYM, OPAQUE, SHUFFLED, NAME_ONLY)
#: the variants that rename the metamodels' elements
RENAMING = (SYNONYM, OPAQUE)
#: the variants whose prompt shows metamodels, and so the variants the baselines run on: a baseline reads
#: the two metamodels and nothing else, and ``name-only`` has none to give it
WITH_METAMODELS = (ORIGINAL, SYNONYM, OPAQUE, SHUFFLED)
#: the seed of a variant's renaming unless ``--atl-variant-seed`` says another
DEFAULT_SEED = 0


def parse_variants(text: str) -> tuple[str, ...]:
    """A comma list of variants (``synonym,opaque``; ``all``), in any case and punctuation
    (``nameonly`` is ``name-only``); ``none`` or nothing gives ``original`` alone."""
    chosen = names(VARIANTS, "variant")(text)
    return chosen or (ORIGINAL,)


def variant_of_baseline_run(run: str) -> tuple[str, str]:
    """(variant, baseline) of a baseline case's run name: ``EMFCompare`` (the original variant) or
    ``synonym/EMFCompare`` (:func:`baseline_run`)."""
    variant, _, baseline = run.rpartition("/")
    return (variant or ORIGINAL), baseline


def baseline_run(baseline: str, variant: str) -> str:
    """The run name of a baseline on a variant: the baseline's name for ``original`` (as always), else
    ``<variant>/<baseline>``, as a run file of that variant is filed in ``runs/<variant>/``."""
    return baseline if variant == ORIGINAL else f"{variant}/{baseline}"


__all__ = [
    "DEFAULT_SEED",
    "NAME_ONLY",
    "OPAQUE",
    "ORIGINAL",
    "RENAMING",
    "SHUFFLED",
    "SYNONYM",
    "VARIANTS",
    "WITH_METAMODELS",
    "baseline_run",
    "parse_variants",
    "variant_of_baseline_run",
]
