"""Scoring one run of the mapping track: reading its answer, comparing it with the ground truth."""
