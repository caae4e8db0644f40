"""Generic resampling and significance tests (``docs/STATISTICS.md``): cluster and paired bootstrap,
McNemar, sign-flip permutation, Holm. What is resampled (runs, transformations, constraints) is each track's
choice; the track-specific statistics live with the track (e.g. :mod:`benchmark.tracks.mapping.stats`).
"""
