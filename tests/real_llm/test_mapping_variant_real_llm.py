"""One task variant of the mapping track end to end against a real model behind a real server
(llama.cpp, SmolLM2-135M-Instruct; ``docs/VARIANTS.md``): ``atlbench generate --variant synonym`` on the
smallest bundled transformation (copied to a temporary tree), a second ``generate --offline`` from the
committed raw log alone that writes the same bytes without a request, and ``pytest cases`` scoring the run
against the renamed ground truth. As in ``test_mapping_real_llm.py``, nothing depends on what the model
says: its answer is filed, recorded with the variant's renaming, and scored (or scored as unusable)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from real_llm_tools import TRACEBACK, atlbench, clean_environment, tree_bytes

from benchmark.lang.ecore import load_metamodel
from benchmark.tracks.mapping.variants.rules import draw_renaming

pytestmark = pytest.mark.real_llm

REPO = Path(__file__).resolve().parents[2]
TRANSFORMATION = "book2publication"  # the smallest prompt (about 1,800 tokens)
PROVIDER = "SmolLM2"
SEED = 7  # a variant seed other than the default: it must reach the run file


def _arguments(validation: Path, config: Path, cache: Path, *extra: str) -> list[str]:
    return [
        "generate", "--provider", PROVIDER, "--validation-root", str(validation), "-k", TRANSFORMATION,
        "--variant", "synonym", "--atl-variant-seed", str(SEED),
        "--config", str(config), "--cache-dir", str(cache), "--no-progress", *extra,
    ]  # fmt: skip


@pytest.fixture(scope="module")
def generated(real_llm_server: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("real-llm-variant")
    validation = root / "validation"
    shutil.copytree(
        REPO / "validation" / TRANSFORMATION,
        validation / TRANSFORMATION,
        ignore=shutil.ignore_patterns("runs"),
    )
    config = real_llm_server.write_config(root / "atlbench.toml", PROVIDER, max_tokens=256, seed=42)
    counted = real_llm_server.chat_requests()
    result = atlbench(
        *_arguments(validation, config, root / "cache", "--json", str(root / "report.json")), cwd=root
    )
    print(f"\nreal_llm variant: exit {result.returncode}\n{result.stdout}{result.stderr}")
    report = root / "report.json"
    return {
        "root": root,
        "validation": validation,
        "config": config,
        "result": result,
        "report": json.loads(report.read_text(encoding="utf-8")) if report.exists() else None,
        "requests": real_llm_server.chat_requests() - counted,
    }


def _run_file(validation: Path) -> Path:
    [path] = sorted((validation / TRANSFORMATION / "runs" / "synonym").glob(f"{PROVIDER}-*-run01.json"))
    return path


def test_generate_files_the_variant_run_with_its_renaming(generated: dict[str, Any]) -> None:
    result = generated["result"]
    assert TRACEBACK not in result.stdout + result.stderr
    assert result.returncode in (0, 1), result.stderr
    assert generated["requests"] >= 1
    [run] = generated["report"]["runs"]
    assert run["status"] in ("ok", "failed") and run["label"] == f"{TRANSFORMATION} synonym run01"
    document = json.loads(_run_file(generated["validation"]).read_text(encoding="utf-8"))
    folder = generated["validation"] / TRANSFORMATION
    renaming = draw_renaming(
        "synonym", load_metamodel(folder / "Book.ecore"), load_metamodel(folder / "Publication.ecore"), SEED
    )
    assert renaming is not None and renaming.source is not None
    assert document["variant"] == renaming.to_json()
    assert document["transformation"]["source"] == renaming.source.packages["Book"]
    assert document["generation"]["status"] in ("ok", "unusable")
    assert (folder / "runs" / "synonym" / ".log" / f"{PROVIDER}.jsonl").is_file()


def test_offline_replay_from_the_log_writes_the_same_bytes(
    generated: dict[str, Any], real_llm_server: Any, tmp_path: Path
) -> None:
    validation = tmp_path / "validation"
    shutil.copytree(generated["validation"], validation)
    expected = tree_bytes(validation)
    _run_file(validation).unlink()
    counted = real_llm_server.chat_requests()
    result = atlbench(
        *_arguments(validation, generated["config"], tmp_path / "fresh-cache", "--offline"), cwd=tmp_path
    )
    assert real_llm_server.chat_requests() == counted
    assert TRACEBACK not in result.stdout + result.stderr
    assert "; 0 requests sent; 1 cache hit (0 cache, 1 log); " in result.stdout, result.stdout
    assert tree_bytes(validation) == expected


def test_the_variant_run_is_scored_against_the_renamed_ground_truth(
    generated: dict[str, Any], tmp_path: Path
) -> None:
    validation = tmp_path / "validation"
    shutil.copytree(generated["validation"], validation)
    reports = tmp_path / "reports"
    command = [
        sys.executable, "-m", "pytest", str(REPO / "cases" / "test_rq1.py"),
        "--validation-root", str(validation), "--reports-dir", str(reports),
        "--provider", PROVIDER, "--baseline", "none", "-p", "no:cacheprovider", "-q", "-k", "synonym",
    ]  # fmt: skip
    result = subprocess.run(
        command, cwd=REPO, env=clean_environment(), capture_output=True, text=True, timeout=900
    )
    output = result.stdout + result.stderr
    assert TRACEBACK not in output and "INTERNALERROR" not in output, output
    assert result.returncode == 0, output
    assert f"test_run[{TRANSFORMATION}-synonym-{PROVIDER}-" in output or "1 passed" in output, output
    rows = json.loads((reports / "results.json").read_text(encoding="utf-8"))["tracks"]["atl"]["rows"]
    [row] = rows
    assert row["provider"] == PROVIDER and row["status"] == "ok", row
    assert row["payload"]["variant"]["name"] == "synonym" and row["payload"]["variant"]["seed"] == SEED
    generation = json.loads(_run_file(validation).read_text(encoding="utf-8"))["generation"]
    if generation["status"] == "unusable":
        assert (
            row["payload"]["suggestions"] == 0 and generation["error"] in row["payload"]["extra"]["unusable"]
        )
    assert "Task variants" in output and (reports / "rq1_variants.csv").is_file()
