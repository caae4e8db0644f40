"""Scoring one stage evaluation: canonical lines, the scorer's verdicts and counts, type synonyms, and the
delta witnesses."""
