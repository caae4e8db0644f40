"""A round-trip study from its folder: the bundled layout when it has a ``manifest.json``
(:mod:`.manifest`), a study's own layout otherwise (:mod:`.own_layout`)."""

from __future__ import annotations

from pathlib import Path

from benchmark.core.errors import InputFormatError
from benchmark.tracks.roundtrip.study.cases import Study
from benchmark.tracks.roundtrip.study.generate import MANIFEST_NAME
from benchmark.tracks.roundtrip.study.manifest import bundled_study, default_data_dir
from benchmark.tracks.roundtrip.study.own_layout import read_study_layout


def load_study(root: str | Path | None = None) -> Study:
    """The study in ``root`` (default: the bundled data): the bundled layout when it has a
    ``manifest.json``, the study's own layout otherwise."""
    folder = Path(root) if root is not None else default_data_dir()
    if not folder.is_dir():
        raise InputFormatError("no such folder: not a round-trip data folder", file=str(folder))
    if (folder / MANIFEST_NAME).is_file():
        return bundled_study(folder)
    return read_study_layout(folder)
