"""The seven transformation modes of the study and the order their steps run in.

A combined mode runs its steps one after the other on the result of the previous one, always in the
order association reification, attribute reification, renaming:

* reifying associations first leaves the attributes as they were (link classes have none), so the
  attribute step picks the same attributes as in mode ``attribute``;
* renaming last renames the classes, associations and roles the reifications created too, and names
  every original element as in mode ``rename`` (synonyms are drawn per word and seed).

So ``full`` is ``rename`` applied to ``attribute_association``, and every mode's mapping lists old names of
the original model against names of the final one.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING

from benchmark.core.errors import ConfigurationError

if TYPE_CHECKING:  # the steps load the OCL checker; the mode names must stay cheap (``atlbench --help``)
    from benchmark.tracks.ocl.transform.mapping import Mapping
    from benchmark.tracks.ocl.transform.subject import Subject

    Step = Callable[[Subject, int, Mapping], Subject]
    #: (association form, steps run so far) -> the subject they gave and the mapping they recorded
    StepResults = dict[tuple[str, ...], tuple[Subject, Mapping]]

MODES: dict[str, tuple[str, ...]] = {
    "rename": ("rename",),
    "attribute": ("attribute",),
    "association": ("association",),
    "rename_attribute": ("attribute", "rename"),
    "rename_association": ("association", "rename"),
    "attribute_association": ("association", "attribute"),
    "full": ("association", "attribute", "rename"),
}


def transform(
    subject: Subject,
    mode: str,
    seed: int = 0,
    *,
    association_form: str = "class",
    steps_done: StepResults | None = None,
) -> tuple[Subject, Mapping]:
    """The transformed subject and the mapping of ``mode`` (deterministic for ``seed``).

    ``association_form`` says what the association step makes of an association: a class with two
    associations (``class``, the study's modes) or an association class (``association_class``; see
    :mod:`.reify_association`).

    ``steps_done``, an initially empty dict kept by the caller for one ``subject`` and ``seed``, shares
    the steps the modes have in common: ``full`` starts from ``attribute_association``'s result, which
    starts from ``association``'s. A step never changes its input and its result does not depend on the
    mapping it records into, so a shared prefix gives the same subject, and its mapping is copied (with
    this mode's name) before the next step records into it.

    The result is type checked (model, invariants, extra invariants) before it is returned, so a
    transformation that produced something the judge would reject fails here, loudly.
    """
    if mode not in MODES:
        raise ConfigurationError(
            f"unknown transformation mode {mode!r}; expected one of {', '.join(MODES)}", field="--mode"
        )
    from benchmark.tracks.ocl.transform.mapping import Mapping

    steps = _steps(association_form)
    mapping = Mapping(subject.model.name, mode, seed)
    done: tuple[str, ...] = (association_form,)
    for step in MODES[mode]:
        done += (step,)
        if steps_done is not None and done in steps_done:
            subject, recorded = steps_done[done]
            mapping = copy.deepcopy(recorded)
            mapping.mode = mode
            continue
        subject = steps[step](subject, seed, mapping)
        if steps_done is not None:
            steps_done[done] = (subject, copy.deepcopy(mapping))
    subject.check()
    return subject, mapping


def _steps(association_form: str) -> dict[str, Step]:
    from functools import partial

    from benchmark.tracks.ocl.transform.reify_association import FORMS, reify_associations
    from benchmark.tracks.ocl.transform.reify_attribute import reify_attributes
    from benchmark.tracks.ocl.transform.rename import rename

    if association_form not in FORMS:
        raise ConfigurationError(
            f"unknown association form {association_form!r}; expected one of {', '.join(FORMS)}",
            field="--association-as",
        )
    association = partial(reify_associations, form=association_form)
    return {"association": association, "attribute": reify_attributes, "rename": rename}
