"""Judging one answer of the OCL track: the constraint extracted from the answer, then compared with the
reference on every object state (:mod:`.judge`)."""
