"""Score a validation tree through the harness, as ``atlbench validate`` and the pytest session do."""

from __future__ import annotations

from pathlib import Path

from benchmark.core.options import LIST
from benchmark.core.registry import track_class
from benchmark.harness.options import VALIDATION_ROOT, read_session_options
from benchmark.harness.session import Harness
from benchmark.tracks.mapping.payload import RunRow


def mapping_harness(root: Path, cache_dir: Path | None = None, **given: str) -> Harness:
    """A harness of the mapping track on ``root`` with options given by their ``dest`` (text, as typed)."""
    cls = track_class("atl")

    def read(option):
        if option is VALIDATION_ROOT:
            return str(root), Path.cwd()
        default = () if option.kind == LIST else option.default
        return given.get(option.dest, default), Path.cwd()

    return Harness(read_session_options(read, [cls]), {"atl": cls}, cache_dir=cache_dir)


def mapping_track(root: Path, cache_dir: Path | None = None, **given: str):
    """The mapping track on ``root``, baselines off unless ``atl_baselines`` is given."""
    given.setdefault("atl_baselines", "none")
    return mapping_harness(root, cache_dir, **given).track("atl")


def score_tree(root: Path, **given: str) -> list[RunRow]:
    """Every run of the mapping track under ``root``, decoded."""
    rows, _ = mapping_harness(root, **given).score_all(["atl"])
    return [RunRow.from_envelope(row) for row in rows]
