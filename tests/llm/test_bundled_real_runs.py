"""The bundled real runs of SmolLM2-135M-Instruct replay byte for byte from their committed raw logs.

They were generated against a real llama.cpp server (docs/LLM_RUNS.md, "The bundled real runs"); CI has no
model, so this test checks what a reader of the tables can check without one: a copy of each generated
subset, its run files deleted, ``atlbench generate --offline`` with the repository's provider entry and an
empty cache directory rewrites every run file with the same bytes, from the raw logs alone, sends nothing,
and leaves the logs untouched. The calls are the ones that generated the runs, in the three answer formats
(free, schema and grounded: the schema runs' cache keys hold their schema's hash and dialect, the free
runs' keys are what they always were).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from benchmark.cli import main
from benchmark.llm.task import FILED_NO_ANSWER, FILED_OK, FILED_REFUSED, FILED_UNUSABLE

REPO = Path(__file__).resolve().parents[2]
VALIDATION = REPO / "validation"
CONFIG = REPO / "atlbench.toml"
PROVIDER = "SmolLM2-135M"
MAPPING = (
    "book2publication",
    "Java2Table",
    "Class2Relational",
    "table2spreadsheet",
    "spreedsheet2XML",
    "Grafcet2Petrinet",
    "mysql2km3",
)
OCL_MODELS = ("library", "hotel")
FORMATS = ["--answer-format", "free,schema,grounded"]
OCL = ["--track", "ocl", "--max-tokens", "512", "--ocl-mode"]
ROUNDTRIP_CASES = ("blog/add_attribute", "blog/rename_class", "library/add_attribute", "library/rename_class")


def _selectors(names: tuple[str, ...]) -> list[str]:
    return [argument for name in names for argument in ("-k", name)]


# (folders copied, generate arguments, run files the call writes): the calls of docs/LLM_RUNS.md.
CALLS = {
    "atl": (MAPPING, [*FORMATS, *_selectors(MAPPING)], 3 * len(MAPPING)),
    "ocl-original": (("ocl",), [*OCL, "original", *FORMATS, *_selectors(OCL_MODELS)], 3),
    "ocl-rename": (("ocl",), [*OCL, "rename", *FORMATS, *_selectors(OCL_MODELS)], 3),
    "roundtrip": (
        ("roundtrip",),
        [
            "--track",
            "roundtrip",
            "--examples",
            "1",
            "--answer-format",
            "free,schema",
            *_selectors(ROUNDTRIP_CASES),
        ],
        2 * 2 * len(ROUNDTRIP_CASES),  # per format, an inverse and a forward stage (which may be "not run")
    ),
}


def _ours(root: Path) -> list[Path]:
    """The provider's run files below ``root`` (raw logs and other providers' runs excluded)."""
    return sorted(
        path
        for path in root.rglob("*.json")
        if "runs" in path.parts and ".log" not in path.parts and PROVIDER in path.relative_to(root).as_posix()
    )


def _tree(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize("call", sorted(CALLS))
def test_the_bundled_real_runs_replay_byte_for_byte_from_their_logs(call: str, tmp_path: Path) -> None:
    folders, arguments, expected_files = CALLS[call]
    validation = tmp_path / "validation"
    for folder in folders:
        shutil.copytree(VALIDATION / folder, validation / folder)
    bundled = _tree(validation)
    ours = _ours(validation)
    written = [
        path for path in ours if not (call.startswith("ocl-") and path.stem != call.removeprefix("ocl-"))
    ]
    assert len(written) == expected_files, [p.relative_to(validation).as_posix() for p in ours]
    assert list(validation.rglob(f"runs/.log/{PROVIDER}.jsonl")), "no raw log of the provider is committed"
    for path in written:
        path.unlink()

    report = tmp_path / "report.json"
    status = main(
        [
            "generate", "--provider", PROVIDER, *arguments, "--offline", "--validation-root", str(validation),
            "--config", str(CONFIG), "--cache-dir", str(tmp_path / "empty-cache"), "--no-progress",
            "--json", str(report),
        ]
    )  # fmt: skip

    session = json.loads(report.read_text(encoding="utf-8"))
    statuses = {run["status"] for run in session["runs"]}
    assert statuses <= {FILED_OK, FILED_UNUSABLE}, session["runs"]  # every answer was in a log
    assert FILED_NO_ANSWER not in statuses and FILED_REFUSED not in statuses
    assert status == (0 if statuses == {FILED_OK} else 1)  # unusable answers are failures of the model
    stats = session["stats"]
    assert stats["requests"] == 0 and stats["failures"] == 0, stats
    assert stats["log_hits"] > 0 and stats["cache_hits"] == 0, stats  # from the committed logs alone
    assert _tree(validation) == bundled  # the run files, byte for byte; the logs untouched


LOCAL_PATH = re.compile(r'"(/(?:work|tmp|home|root|Users)/|[A-Za-z]:\\\\)')


def test_the_bundled_real_runs_name_no_local_folder() -> None:
    """Run files, raw logs and call manifests are committed: they must not carry the paths of the machine
    that made them (the manifest records paths under the current directory relative to it)."""
    files = [path for path in VALIDATION.rglob("*") if path.is_file() and PROVIDER in path.as_posix()]
    files += [
        path for path in VALIDATION.rglob("runs/.log/calls/*.jsonl") if PROVIDER in path.read_text("utf-8")
    ]
    assert files
    leaks = {
        path.relative_to(VALIDATION).as_posix(): found.group(0)
        for path in files
        if (found := LOCAL_PATH.search(path.read_text(encoding="utf-8")))
    }
    assert leaks == {}
