"""index.html renders in headless Chromium: no console errors, every image loaded, no network, not blank,
nothing sideways at 1400 px (``test_page_fits.py`` checks that on the bundled and a Zoo-sized session).
The ``chromium`` fixture (``tests/conftest.py``) skips when no Chromium is installed, unless
ATLBENCH_REQUIRE_BROWSER=1 (CI sets it): then it fails.
"""

from __future__ import annotations

from benchmark.reports.browser import check_page, find_chromium

SCROLLBAR = 15  # Chromium's, on a page longer than the window


def test_a_page_of_three_tracks_fits_1400_pixels(chromium, three_tracks):
    """The session's page with all three tracks (and odd names) at 1400 px: nothing broken, not blank, no
    sideways scroll; one navigation entry per track with its sections below it; long tables collapsed
    past 20 rows, every row shown once their switch is on."""
    check = check_page(three_tracks / "index.html", chromium=chromium, width=1400, height=1800)
    assert check.problems == [] and not check.scrolls_sideways
    assert check.window_width == 1400 - SCROLLBAR and check.page_width <= check.window_width
    assert check.screenshot.startswith(b"\x89PNG") and not check.blank
    assert check.counts["navTracks"] == 3 and check.counts["navLinks"] >= 3 + 10
    assert len(check.images) == 4 + 1 + 2 and all(i["naturalWidth"] > 300 for i in check.images)
    assert check.counts["collapsed"] >= 1 and check.counts["hiddenRows"] > 0
    assert check.counts["hiddenRowsWhenShown"] == 0


def test_the_check_sees_broken_pages(chromium, tmp_path):
    """The negative control: the same check must flag what the report page must never do."""
    page = tmp_path / "broken.html"
    page.write_text(
        "<!DOCTYPE html><html><head><title>broken</title></head><body><h1>x</h1>"
        '<img src="missing.png" alt="missing"><img src="http://203.0.113.1/x.png" alt="remote">'
        '<script>console.error("boom"); undefinedFunction();</script></body></html>',
        encoding="utf-8",
    )
    check = check_page(page, chromium=chromium)
    problems = "\n".join(check.problems)
    assert "console error: boom" in problems
    assert "undefinedFunction" in problems
    assert "image not loaded: missing" in problems
    assert "network request: http://203.0.113.1/x.png" in problems
    assert "blank screenshot" in problems  # a heading on white is not a rendered report
    assert not check.ok


def test_find_chromium_honours_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("ATLBENCH_CHROMIUM", str(tmp_path / "no-such-browser"))
    assert find_chromium() is None
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n", encoding="utf-8")
    monkeypatch.setenv("ATLBENCH_CHROMIUM", str(fake))
    assert find_chromium() == str(fake)
