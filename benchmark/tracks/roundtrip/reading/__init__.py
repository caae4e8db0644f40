"""Reading what a run or an answer holds: the model extracted from an answer, read strictly or leniently,
its conformance, and the track's run files."""
