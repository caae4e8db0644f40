"""The front door stays a front door: the README is short and starts with what a newcomer needs, and the
README and docs/ describe the method and the current state, not the history of how they came to be (that
belongs in commit messages)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = sorted([README, *(ROOT / "docs").rglob("*.md")])

#: what a measurement log looks like: a time of day, one of this project's issue numbers ("issue 23"; a
#: citation of another project's tracker keeps its "#"), a numbered round or session, a dated "measured
#: on", a "before/until this version"
LOG = re.compile(
    r"\b\d{1,2}:\d{2}(?:[–-]\d{1,2}:\d{2})? UTC\b"
    r"|\b[Ii]ssues? \d+"
    r"|\bissue-\d+"
    r"|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth) round\b"
    r"|\b(?:third|fourth|fifth|sixth|seventh|eighth) session\b"
    r"|\brounds? \d+\b"
    r"|\b(?:[Mm]easured|[Gg]enerated|[Rr]un|[Tt]aken)(?: again)? on \d{4}-\d{2}-\d{2}"
    r"|\b(?:[Uu]ntil|[Bb]efore) this version\b"
)


def _section(text: str, heading: str) -> list[str]:
    lines = text.splitlines()
    start = lines.index(heading)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


def test_the_readme_is_short_and_starts_with_install_run_and_test() -> None:
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines (at most 300: details go to docs/)"
    first = "\n".join(lines[:60])
    for command in ('pip install -e ".[dev]"', "pytest cases -n auto", "pytest -n auto"):
        assert command in first, f"README.md: {command!r} is not in its first 60 lines"
    assert first.count("```") >= 4, "README.md: the first 60 lines show the commands and what the reader sees"
    speed = _section(text, "## Speed")
    assert len(speed) <= 40, f"README.md: the Speed section has {len(speed)} lines (at most 40)"
    assert "python -m benchmark.bench" in "\n".join(speed), "each speed figure gives its bench command"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_measurement_log_in_the_front_door(page: Path) -> None:
    found = [
        f"{page.relative_to(ROOT)}:{number}: {match.group(0)!r}"
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        for match in LOG.finditer(line)
    ]
    assert not found, "history belongs in commit messages:\n" + "\n".join(found)


def test_the_log_pattern_finds_what_it_is_for() -> None:
    for line in (
        "Fifth session (09:02 UTC, load 1.7)",
        "main after issue 23's fourth round",
        "Measured on 2026-12-01 on the machine",
        "(issue-23e): the bootstrap",
        "Until this version the p-value",
    ):
        assert LOG.search(line), line
    for line in (
        'model = "gpt-4o-2024-08-06"',
        "date = 2025-06-01   # when the price was taken",
        "a round-trip stage, rounds of the bench (--rounds N)",
        "the session's helper",
        "as Python leaves a checkout after its first session",
        "lm-evaluation-harness refuses them for that reason, issue #825",
    ):
        assert not LOG.search(line), line
