"""Which tracks exist: the ``atlbench.tracks`` entry-point group.

A package registers a track in its ``pyproject.toml``::

    [project.entry-points."atlbench.tracks"]
    atl = "benchmark.tracks.mapping.track:AtlTrack"

so a track can live outside this repository. Entry points are read once per process; a track class is
imported only when asked for (import cost stays off the start-up path of tracks not used).
"""

from __future__ import annotations

from functools import cache
from importlib import metadata

from benchmark.core.errors import ConfigurationError
from benchmark.core.options import Option
from benchmark.core.track import Track

GROUP = "atlbench.tracks"


@cache
def _entry_points() -> dict[str, metadata.EntryPoint]:
    found: dict[str, metadata.EntryPoint] = {}
    for entry in metadata.entry_points(group=GROUP):
        found.setdefault(entry.name, entry)  # the first installation on sys.path wins, as for imports
    return found


def track_names() -> tuple[str, ...]:
    return tuple(sorted(_entry_points()))


@cache
def track_class(name: str) -> type[Track]:
    entries = _entry_points()
    if name not in entries:
        known = ", ".join(track_names()) or "none (is the package installed?)"
        raise ConfigurationError(f"unknown track {name!r}; known tracks: {known}", field="--track")
    cls = entries[name].load()
    if not (isinstance(cls, type) and issubclass(cls, Track)) or cls.name != name:
        raise ConfigurationError(
            f"entry point {name!r} of group {GROUP} ({entries[name].value}) is not a Track named {name!r}"
        )
    return cls


def track_classes() -> tuple[type[Track], ...]:
    return tuple(track_class(name) for name in track_names())


def declared_options(attribute: str) -> list[Option]:
    """Every installed track's options of one kind (``report_options``, ``generate_options``), each flag
    once: a flag that two tracks declare means the same thing to both commands."""
    seen: dict[str, Option] = {}
    for cls in track_classes():
        for option in getattr(cls, attribute):
            seen.setdefault(option.flag, option)
    return list(seen.values())
