"""Meaning-preserving model transformations of the OCL robustness study.

Three transformations -- identifier renaming (:mod:`.rename`), attribute reification
(:mod:`.reify_attribute`) and association reification (:mod:`.reify_association`) -- alone and combined
in seven modes (:mod:`.modes`). Each rewrites the model, every expression that refers to what changed
(invariants of the model, of constraints files and of the specification, operation bodies, derived and
initial values), every object state, and the specification's prose, and records a :class:`.mapping.Mapping`.

The law they obey (tested in ``tests/tracks/ocl/transform/test_transform_law.py``): for every mode, invariant
and state, the transformed invariant's verdict on the transformed state is the original invariant's verdict
on the original state. Entry points: :func:`.modes.transform` on a :class:`.subject.Subject` in memory,
:mod:`.files` for one model's files, :mod:`.dataset` for a dataset directory, and ``atlbench ocl
transform`` on the command line. ``docs/OCL.md`` describes the rules with a worked example per mode.
"""

from benchmark.tracks.ocl.transform.modes import MODES, transform

__all__ = ["MODES", "transform"]
