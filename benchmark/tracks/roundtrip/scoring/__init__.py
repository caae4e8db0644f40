"""Scoring one stage evaluation: the scorer's line verdicts and counts (:mod:`.scorer`, :mod:`.counts`), and a
run case's stage read, scored and cached (:mod:`.stage`)."""
