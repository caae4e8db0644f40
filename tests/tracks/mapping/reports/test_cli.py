"""``atlbench report``: regenerates every artefact from results.json alone, byte for byte."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from benchmark.cli import main

ROOT = Path(__file__).resolve().parents[4]
REPORT_DRAWS = 200  # as in conftest.written_reports


def test_report_regenerates_the_same_bytes_in_and_out_of_process(
    written_reports, results_file, tmp_path, capsys
):
    """``atlbench report`` on the saved file gives exactly what ``write_reports`` gave on the session
    (same options): once in this process, once in a fresh one (other hash seed, other import order)."""
    paths, reference = written_reports
    names = sorted(p.name for p in paths)
    assert main(["report", str(results_file), "-o", str(tmp_path / "one"), "--draws", str(REPORT_DRAWS)]) == 0
    printed = capsys.readouterr().out
    assert "F1 [95% CI]" in printed and "wrote 15 files" in printed
    assert "excluded: T01_Model12Model/runs/Alpha-run01.json: $.mappings[0]: not valid JSON" in printed
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "123"}
    command = [
        sys.executable,
        "-m",
        "benchmark",
        "report",
        str(results_file),
        "-o",
        str(tmp_path / "two"),
        "--draws",
        str(REPORT_DRAWS),
    ]
    completed = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    for folder in ("one", "two"):
        assert sorted(p.name for p in (tmp_path / folder).iterdir()) == names
        for name in names:
            assert (tmp_path / folder / name).read_bytes() == (reference / name).read_bytes(), (folder, name)


def test_options_reach_the_statistics(results_file, tmp_path):
    out = tmp_path / "binding"
    assert (
        main(
            [
                "report",
                str(results_file),
                "-o",
                str(out),
                "--draws",
                "40",
                "--seed",
                "9",
                "--level",
                "binding",
                "--partial-weight",
                "1",
            ]
        )
        == 0
    )
    statistics = (out / "statistics.json").read_text(encoding="utf-8")
    for expected in ('"level": "binding"', '"draws": 40', '"seed": 9', '"partialWeight": 1.0'):
        assert expected in statistics


def test_input_errors_exit_2_with_a_location(tmp_path, capsys):
    assert main(["report", str(tmp_path / "missing.json"), "-o", str(tmp_path)]) == 2
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "atlbench-results",\n  "version": 1,,}', encoding="utf-8")
    assert main(["report", str(broken), "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{broken}:2:" in err and "error: not valid JSON" in err
    other = tmp_path / "other.json"
    other.write_text('{"format": "something-else"}', encoding="utf-8")
    assert main(["report", str(other), "-o", str(tmp_path)]) == 2
    assert "not an atlbench-results file" in capsys.readouterr().err


def test_bad_options_exit_2(results_file, tmp_path, capsys):
    assert main(["report", str(results_file), "-o", str(tmp_path), "--draws", "0"]) == 2
    assert "error: --draws: must be a whole number of at least 1, got 0" in capsys.readouterr().err
    assert main(["report", str(results_file), "-o", str(tmp_path), "--partial-weight", "2"]) == 2
    assert "error: --partial-weight: must be a number in [0, 1], got 2" in capsys.readouterr().err


def test_rows_of_a_track_that_is_not_installed_exit_2_and_write_nothing(small_results, tmp_path, capsys):
    from dataclasses import replace

    mixed = replace(small_results, rows=(*small_results.rows, small_results.rows[0].replaced(track="nosuch")))
    path = mixed.save(tmp_path / "results.json")
    assert main(["report", str(path), "-o", str(tmp_path / "out"), "--draws", "10"]) == 2
    assert "unknown track 'nosuch'; known tracks: atl" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_report_of_one_track_and_a_version_1_file(results_file, tmp_path, capsys):
    """``--track`` rebuilds one track's files; a version-1 results.json (the mapping track alone, flat
    rows) gives the same files as its version-2 twin."""
    import json

    data = json.loads(results_file.read_text())
    section = data["tracks"]["atl"]
    v1_rows = [
        {
            **{k: v for k, v in r.items() if k not in ("task", "payload", "provenance")},
            "transformation": r["task"],
            **r["payload"],
            "rowFormat": 1,
        }
        for r in section["rows"]
    ]
    v1_facts = [
        {"name": f["task"], "track": f["track"], "file": f["file"], "error": f["error"], **f["payload"]}
        for f in section["facts"]
    ]
    old = tmp_path / "v1.json"
    old.write_text(
        json.dumps(
            {
                "format": "atlbench-results",
                "version": 1,
                "header": data["header"],
                "transformations": v1_facts,
                "rows": v1_rows,
            }
        )
    )
    assert main(["report", str(old), "-o", str(tmp_path / "v1"), "--draws", "10"]) == 0
    assert (
        main(["report", str(results_file), "-o", str(tmp_path / "v2"), "--draws", "10", "--track", "atl"])
        == 0
    )
    names = sorted(p.name for p in (tmp_path / "v2").iterdir())
    assert "index.html" in names and "rq1_per_run.csv" in names
    for name in names:
        assert (tmp_path / "v1" / name).read_bytes() == (tmp_path / "v2" / name).read_bytes(), name
    assert main(["report", str(results_file), "-o", str(tmp_path / "x"), "--track", "roundtrip"]) == 2
    assert "no rows of track 'roundtrip'" in capsys.readouterr().err
