"""The benchmark's pytest plugin: hooks only (options, collection, parametrisation, deselection).

Loaded by the project's ``conftest.py`` (``pytest_plugins``). The flow, identical with and without
pytest-xdist:

1. Every process (controller and workers) builds the same sorted cases, once per track, for each test
   module marked ``atlbench_track(NAME)`` (``pytest_generate_tests``).
2. A run case scores its run and records the row (:mod:`benchmark.harness.fixtures`).
3. The controller's :class:`~benchmark.harness.state.BenchmarkSession` collects the rows, checks them,
   writes ``results.json`` and the reports, applies the gates and prints the tables.

The options are the harness's and every registered track's (:mod:`benchmark.harness.options`), so a track
installed from another package brings its options with it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from benchmark.core.collector import RUN_MARKER
from benchmark.core.errors import BenchmarkError
from benchmark.core.options import FLAG, LIST, Option
from benchmark.core.track import RunCase, Track
from benchmark.harness.fixtures import atlbench_ground_truth, atlbench_run  # noqa: F401  (fixtures)
from benchmark.harness.options import all_options, read_session_options
from benchmark.harness.session import Harness
from benchmark.harness.state import SESSION_KEY, TRACK_MARKER, BenchmarkSession, session_of

GROUND_TRUTH_MARKER = "atlbench_ground_truth"


def _track_classes() -> tuple[type[Track], ...]:
    from benchmark.core.registry import track_classes

    return track_classes()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("atlbench", "atl-binding-bench benchmark")
    try:
        options = all_options(_track_classes())
    except BenchmarkError as error:
        raise pytest.UsageError(f"atlbench: {error}") from None
    for option in options:
        spellings = [(option.flag, option.ini, option.help_text())]
        spellings += [(alias, _alias_dest(option, alias), argparse.SUPPRESS) for alias in option.aliases]
        for flag, dest, text in spellings:
            if option.kind == LIST:
                group.addoption(
                    flag, dest=dest, action="append", default=None, metavar=option.metavar, help=text
                )
            elif option.kind == FLAG:
                group.addoption(flag, dest=dest, action="store_true", default=None, help=text)
            else:
                group.addoption(flag, dest=dest, default=None, metavar=option.metavar, help=text)
        kind = "linelist" if option.kind == LIST else None
        parser.addini(option.ini, option.help, type=kind, default=[] if kind else option.default)
        for alias in option.alias_inis:  # the older spelling of the key, read when the key is unset
            parser.addini(alias, f"older spelling of {option.ini}", type=kind, default=[] if kind else "")


def _alias_dest(option: Option, alias: str) -> str:
    return f"{option.ini}__as__{alias.lstrip('-').replace('-', '_')}"


def _reader(config: pytest.Config) -> Any:
    """An option's raw value and the folder a relative path in it is relative to (command line: where
    pytest was invoked; ini file: the ini file's folder)."""

    def read(option: Option) -> tuple[Any, Path, Option]:
        given = config.getoption(option.ini)
        if given is not None:
            return given, config.invocation_params.dir, option
        for alias in option.aliases:
            given = config.getoption(_alias_dest(option, alias))
            if given is not None:
                return given, config.invocation_params.dir, option.spelled(alias)
        base = config.inipath.parent if config.inipath else config.rootpath
        value = config.getini(option.ini)
        if value in (option.default, []):
            for alias, key in zip(option.aliases, option.alias_inis, strict=True):
                if config.getini(key) not in ("", []):
                    return config.getini(key), base, option.spelled(alias)
        return value, base, option

    return read


def pytest_configure(config: pytest.Config) -> None:
    from benchmark.core.gcpause import collect_less_often
    from benchmark.harness.exit import skip_final_collection

    skip_final_collection()
    collect_less_often()
    config.addinivalue_line("markers", f"{TRACK_MARKER}(name): run this module's cases for a benchmark track")
    config.addinivalue_line("markers", f"{RUN_MARKER}: a benchmark run case (it records one row)")
    config.addinivalue_line("markers", f"{GROUND_TRUTH_MARKER}: a benchmark ground-truth case")
    classes = _track_classes()
    try:
        options = read_session_options(_reader(config), classes)
        _check_given_roots(config, classes, options)
    except BenchmarkError as error:
        raise pytest.UsageError(f"atlbench: {error}") from None
    cache_plugin = getattr(config, "cache", None)  # absent with -p no:cacheprovider
    cache = cache_plugin.mkdir("atlbench") if cache_plugin is not None else None
    harness = Harness(
        options, {cls.name: cls for cls in classes}, cache_dir=cache, source_dir=config.rootpath
    )
    state = BenchmarkSession(config, harness)
    config.stash[SESSION_KEY] = state
    config.pluginmanager.register(state, "atlbench-session")


AUTO_CHOICE_KEY = pytest.StashKey["object"]()  # the autoworkers.Choice -n auto made, for the header


@pytest.hookimpl(optionalhook=True, tryfirst=True)  # before xdist's own answer (a -p plugin loads before it)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """pytest-xdist asks how many workers ``-n auto`` starts: none when the note the previous session of the
    same cases left says one process is faster (:mod:`benchmark.harness.autoworkers`), else xdist's count
    (``None`` hands the question on to xdist's own answer)."""
    from xdist.plugin import pytest_xdist_auto_num_workers as xdist_count

    from benchmark.harness import autoworkers

    try:
        options = read_session_options(_reader(config), _track_classes())
    except BenchmarkError:
        return None  # pytest_configure reports it
    choice = autoworkers.choose(config, autoworkers.data_roots(options), xdist_count(config))
    if choice is None:
        return None
    config.stash[AUTO_CHOICE_KEY] = choice
    return choice.workers


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """pytest-xdist's default mode keeps a track module's cases on one worker
    (:mod:`benchmark.harness.scheduling`); a mode the user names with ``--dist`` is xdist's own."""
    if config.getvalue("dist") != "load":
        return None
    from benchmark.harness.scheduling import TrackScheduling

    return TrackScheduling(config, log)


def pytest_report_header(config: pytest.Config) -> str | None:
    choice = config.stash.get(AUTO_CHOICE_KEY, None)
    return f"atlbench: {choice.reason}" if choice is not None else None  # type: ignore[attr-defined]


def _check_given_roots(config: pytest.Config, classes: Any, options: Any) -> None:
    """A data root the user gave (command line or ini file) must be a folder: one line, exit 4, before
    any collection (instead of a traceback per xdist worker)."""
    from benchmark.core.errors import ConfigurationError
    from benchmark.harness.options import VALIDATION_ROOT, root_option

    wanted = [(VALIDATION_ROOT, options.validation_root)]
    wanted += [(root_option(cls), options.roots[cls.name]) for cls in classes]
    for option, path in wanted:
        given = config.getoption(option.ini) is not None or config.getini(option.ini) != option.default
        if given and not path.is_dir():
            raise ConfigurationError("not a folder", file=path, field=option.flag)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker(TRACK_MARKER)
    wants_truth = "atlbench_ground_truth" in metafunc.fixturenames
    wants_run = "atlbench_run" in metafunc.fixturenames
    if marker is None or not (wants_truth or wants_run):
        return
    session = session_of(metafunc.config)
    session.benchmark_collected = True
    try:
        collection = session.harness.collection(marker.args[0])
    except BenchmarkError as error:
        raise pytest.UsageError(f"atlbench: {error}") from None
    if wants_truth:
        metafunc.parametrize(
            "atlbench_ground_truth",
            [
                pytest.param(c, id=c.case_id, marks=pytest.mark.atlbench_ground_truth)
                for c in collection.ground_truths
            ],
            indirect=True,
        )
    if wants_run:
        metafunc.parametrize(
            "atlbench_run",
            [pytest.param(c, id=c.case_id, marks=pytest.mark.atlbench_run) for c in collection.runs],
            indirect=True,
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``--provider`` deselects other providers' runs (reported by pytest as deselected, not lost)."""
    providers = {p.lower() for p in session_of(config).harness.options.providers}
    if not providers:
        return
    keep, drop = [], []
    for item in items:
        case = getattr(getattr(item, "callspec", None), "params", {}).get("atlbench_run")
        (drop if isinstance(case, RunCase) and case.provider.lower() not in providers else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


__all__ = ["BenchmarkSession", "GROUND_TRUTH_MARKER", "TRACK_MARKER"]
