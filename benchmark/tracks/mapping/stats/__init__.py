"""Statistics over the count table: intervals, stability, paired tests, profiles (``docs/STATISTICS.md``).

:func:`compute_statistics` computes everything a report shows; the building blocks are public for
scripts and notebooks.
"""

from benchmark.stats.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_DRAWS,
    DEFAULT_SEED,
    Interval,
    cluster_bootstrap,
    paired_bootstrap_delta,
    resample_sums,
    rng_for,
)
from benchmark.stats.significance import (
    McNemarResult,
    PermutationResult,
    holm,
    mcnemar,
    paired_swap_test,
    sign_flip_test,
)
from benchmark.tracks.mapping.stats.baseline import (
    BASELINE_PROVIDER,
    BaselineRelativeRecall,
    baseline_relative_recall,
    missed_by_baseline,
)
from benchmark.tracks.mapping.stats.items import is_right, majority_right, mapping_set
from benchmark.tracks.mapping.stats.profiles import (
    CategoryProfile,
    ConfidenceProfile,
    SliceScores,
    category_profile,
    confidence_profile,
)
from benchmark.tracks.mapping.stats.stability import Stability, jaccard, mean_pairwise_jaccard, stability
from benchmark.tracks.mapping.stats.summary import (
    PairComparison,
    ProviderStats,
    Statistics,
    TransformationTest,
    check_single_track,
    compute_statistics,
)

__all__ = [
    "BASELINE_PROVIDER",
    "DEFAULT_CONFIDENCE",
    "DEFAULT_DRAWS",
    "DEFAULT_SEED",
    "BaselineRelativeRecall",
    "CategoryProfile",
    "ConfidenceProfile",
    "Interval",
    "McNemarResult",
    "PairComparison",
    "PermutationResult",
    "ProviderStats",
    "SliceScores",
    "Stability",
    "Statistics",
    "TransformationTest",
    "baseline_relative_recall",
    "category_profile",
    "check_single_track",
    "cluster_bootstrap",
    "compute_statistics",
    "confidence_profile",
    "holm",
    "is_right",
    "jaccard",
    "majority_right",
    "mapping_set",
    "mcnemar",
    "mean_pairwise_jaccard",
    "missed_by_baseline",
    "paired_bootstrap_delta",
    "resample_sums",
    "rng_for",
    "paired_swap_test",
    "sign_flip_test",
    "stability",
]
