"""The session's options: the harness's own, plus every registered track's, from one declaration each.

Harness options: ``--validation-root``, ``--reports-dir``, ``--provider``, ``--compare``, ``--max-drop``,
``--min-score TRACK:PROVIDER=X``, ``--allow-missing-runs``. Per track: ``--<name>-root`` (its data, default
``<validation root>/<data_dir>``), the options it declares, and its spelling of ``--min-score`` if it has
one (the mapping track's ``--min-f1 PROVIDER=X``). Everything can also be set in ``pytest.ini``
(``atlbench_<flag>``); a relative path is relative to where it was given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.core.errors import ConfigurationError
from benchmark.core.options import FLAG, LIST, PATH, Option, number, optional, switch
from benchmark.core.track import Track

VALIDATION_ROOT = Option(
    "--validation-root", "validation", "validation tree to benchmark", kind=PATH, metavar="DIR"
)
REPORTS_DIR = Option(
    "--reports-dir", "reports", "where the report files are written", kind=PATH, metavar="DIR"
)
PROVIDER = Option(
    "--provider",
    "",
    "only run cases of this provider (repeatable)",
    kind=LIST,
    metavar="NAME",
    ini_name="atlbench_providers",
)
COMPARE = Option(
    "--compare", "", "a saved results.json to compare this session with", kind=PATH, metavar="FILE"
)
MAX_DROP = Option(
    "--max-drop",
    "",
    "fail when a provider's headline score drops by more than this against --compare (default: never fail)",
    optional(number("a number")),
    metavar="X",
)
MIN_SCORE = Option(
    "--min-score",
    "",
    "TRACK:PROVIDER=X: fail when that provider's headline score in that track is below X (repeatable)",
    kind=LIST,
    metavar="TRACK:PROVIDER=X",
)

ALLOW_MISSING_RUNS = Option(
    "--allow-missing-runs",
    "false",
    "accept runs that got no answer (network error, timeout, retries exhausted): list them and pass; "
    "without it a session with missing runs fails, since its tables compare providers on different runs",
    switch,
    kind=FLAG,
)

HARNESS_OPTIONS = (VALIDATION_ROOT, REPORTS_DIR, PROVIDER, COMPARE, MAX_DROP, MIN_SCORE, ALLOW_MISSING_RUNS)


def root_option(track: type[Track]) -> Option:
    where = track.default_data_dir()
    default = f"<validation root>/{where}" if where else "the validation root"
    return Option(
        f"--{track.name}-root",
        "",
        f"data of the {track.name} track (default: {default})",
        kind=PATH,
        metavar="DIR",
    )


def alias_option(track: type[Track]) -> Option | None:
    if track.min_score_alias is None:
        return None
    return Option(
        track.min_score_alias,
        "",
        f"PROVIDER=X: fail when that provider's {track.headline_name} "
        f"in the {track.name} track is below X (repeatable)",
        kind=LIST,
        metavar="PROVIDER=X",
    )


def track_options(track: type[Track]) -> tuple[Option, ...]:
    alias = alias_option(track)
    return (root_option(track), *track.options, *((alias,) if alias else ()))


def all_options(tracks: Sequence[type[Track]]) -> tuple[Option, ...]:
    """Every option of the session; two declarations of one flag are a configuration error."""
    options = list(HARNESS_OPTIONS)
    owners = {flag: "the harness" for option in options for flag in option.flags}
    for track in tracks:
        for option in track_options(track):
            for flag in option.flags:  # an alias is a flag too
                if flag in owners and owners[flag] != track.name:
                    raise ConfigurationError(
                        f"track {track.name!r} declares {flag}, which {owners[flag]} already "
                        "declares; give the track's option a prefix of its own"
                    )
            if option.flag not in owners:
                owners.update(dict.fromkeys(option.flags, track.name))
                options.append(option)
    return tuple(options)


@dataclass(frozen=True)
class Gate:
    track: str
    provider: str
    bar: float
    spelling: str  # as the user wrote it, for the message

    def __str__(self) -> str:
        return self.spelling


@dataclass(frozen=True)
class SessionOptions:
    validation_root: Path
    reports_dir: Path
    providers: tuple[str, ...] = ()
    compare: Path | None = None
    max_drop: float | None = None
    gates: tuple[Gate, ...] = ()
    allow_missing_runs: bool = False
    roots: dict[str, Path] = field(default_factory=dict)  # track name -> its data root
    values: dict[str, dict[str, Any]] = field(default_factory=dict)  # track name -> dest -> value

    def to_json(self) -> dict[str, Any]:
        return {
            "validationRoot": str(self.validation_root),
            "providers": list(self.providers),
            "minScore": [str(g) for g in self.gates],
            "compare": str(self.compare) if self.compare else None,
            "maxDrop": self.max_drop,
            "allowMissingRuns": self.allow_missing_runs,
            "roots": {name: str(root) for name, root in sorted(self.roots.items())},
        }


def _gate(text: str, track: str | None, flag: str, known: Sequence[str]) -> Gate:
    head, sep, value = text.rpartition("=")
    if track is None:
        track, colon, provider = head.partition(":")
        if not colon:
            raise ConfigurationError(f"takes TRACK:PROVIDER=X, got {text!r}", field=flag)
        if track not in known:
            raise ConfigurationError(
                f"unknown track {track!r} in {text!r}; tracks: {', '.join(known)}", field=flag
            )
    else:
        provider = head
    if not sep or not provider.strip():
        raise ConfigurationError(
            f"takes {'' if flag != '--min-score' else 'TRACK:'}PROVIDER=X, got {text!r}", field=flag
        )
    bar = number("a number")(value)
    return Gate(track, provider.strip(), bar, f"{flag} {text}")


def read_session_options(
    read: Callable[[Option], tuple[Any, Path]], tracks: Sequence[type[Track]]
) -> SessionOptions:
    """The checked options; ``read(option)`` gives (raw value, the folder a relative path is relative to)."""

    def value(option: Option) -> Any:
        try:
            return option.convert(*read(option))
        except ConfigurationError:
            raise
        except ValueError as error:
            raise ConfigurationError(str(error), field=option.flag) from None

    names = [t.name for t in tracks]
    root = value(VALIDATION_ROOT)
    gates = [_gate(g, None, "--min-score", names) for g in value(MIN_SCORE)]
    roots: dict[str, Path] = {}
    values: dict[str, dict[str, Any]] = {}
    for track in tracks:
        given = value(root_option(track))
        roots[track.name] = given if given is not None else (root / track.default_data_dir()).resolve()
        values[track.name] = {option.dest: value(option) for option in track.options}
        alias = alias_option(track)
        if alias is not None:
            gates += [_gate(g, track.name, alias.flag, names) for g in value(alias)]
    return SessionOptions(
        validation_root=root,
        reports_dir=value(REPORTS_DIR),
        providers=value(PROVIDER),
        compare=value(COMPARE),
        max_drop=value(MAX_DROP),
        gates=tuple(gates),
        allow_missing_runs=value(ALLOW_MISSING_RUNS),
        roots=roots,
        values=values,
    )
