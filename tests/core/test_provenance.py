"""Where a folder's files come from in git: the commit of a checkout, or in words why there is none (a source
archive, a copy inside another checkout, a repository without a commit, no git at all), and how
``results.json``'s header keeps it and a report names it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from git_trees import archive, checkout, git, no_git_above

from benchmark import __version__
from benchmark.core.provenance import (
    NO_COMMIT_YET,
    NO_GIT,
    NOT_A_CHECKOUT,
    NOT_A_FOLDER,
    NOT_IN_THE_COMMIT,
    GitSource,
    git_source,
    versions,
)
from benchmark.core.results import Results, ResultsHeader


def test_a_checkout_gives_its_commit_and_whether_its_tracked_files_changed(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    commit = checkout(repo)
    assert len(commit) == 40
    assert git_source(repo, changes=True) == GitSource(commit=commit, changed=False)
    assert git_source(repo / "data") == GitSource(commit=commit)  # changes not asked: not looked at
    (repo / "new.txt").write_text("untracked\n")  # not part of any commit: not a change to it
    assert git_source(repo, changes=True).changed is False
    (repo / "data" / "a.txt").write_text("edited\n")
    assert git_source(repo, changes=True) == GitSource(commit=commit, changed=True)
    assert git_source(repo / "data", changes=True).changed is True
    assert git_source(repo / "data", changes=True).to_json() == {
        "gitCommit": commit,
        "uncommittedChanges": True,
    }


def test_a_source_archive_is_not_a_checkout_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_git_above(tmp_path, monkeypatch)
    repo = tmp_path / "repo"
    checkout(repo)
    unpacked = archive(repo, tmp_path / "release")
    assert (unpacked / "data" / "a.txt").read_text() == "a\n" and not (unpacked / ".git").exists()
    for folder in (unpacked, unpacked / "data"):
        assert git_source(folder, changes=True) == GitSource(missing=NOT_A_CHECKOUT)
    assert git_source(unpacked).to_json() == {
        "gitCommit": None,
        "uncommittedChanges": None,
        "gitCommitMissing": "not a git checkout",
    }


def test_a_copy_inside_another_checkout_is_not_given_that_checkouts_commit(tmp_path: Path) -> None:
    """An archive unpacked in someone's checkout, or data not committed yet: the commit around it holds
    other files, so it is not theirs (git would find it walking up)."""
    outer = tmp_path / "outer"
    checkout(outer)
    inside = archive(outer, outer / "vendored" / "release")
    assert git_source(inside, changes=True) == GitSource(missing=NOT_IN_THE_COMMIT)


def test_a_repository_without_a_commit_a_missing_folder_and_no_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_git_above(tmp_path, monkeypatch)
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    git(fresh, "init", "-q")
    assert git_source(fresh) == GitSource(missing=NO_COMMIT_YET)
    assert git_source(tmp_path / "absent") == GitSource(missing=NOT_A_FOLDER)
    repo = tmp_path / "repo"
    checkout(repo)
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    assert git_source(repo) == GitSource(missing=NO_GIT)


def test_the_results_header_keeps_the_commit_or_why_there_is_none(tmp_path: Path) -> None:
    found = versions()
    assert found["atl-binding-bench"] == __version__
    with_commit = ResultsHeader(versions=found, git_commit="a" * 40)
    without = ResultsHeader(versions=found, git_commit_missing=NOT_A_CHECKOUT)
    assert "gitCommitMissing" not in with_commit.to_json()
    assert without.to_json()["gitCommit"] is None and without.to_json()["gitCommitMissing"] == NOT_A_CHECKOUT
    for header in (with_commit, without):
        path = Results(header).save(tmp_path / "results.json")
        assert Results.load(path).header == header
    assert with_commit.source_words() == f"atl-binding-bench {__version__}, commit {'a' * 40}"
    assert without.source_words() == f"atl-binding-bench {__version__}, no git commit: not a git checkout"
    # a file written before the reason was recorded (or by hand): no commit, and nothing assumed
    (tmp_path / "old.json").write_text(
        json.dumps({"format": "atlbench-results", "version": 2, "header": {"gitCommit": None}, "tracks": {}})
    )
    assert Results.load(tmp_path / "old.json").header.source_words() == "no git commit: none recorded"
