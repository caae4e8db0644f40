"""index.html renders in headless Chromium: no console errors, every image loaded, no network, not blank,
no sideways scroll at 1400 px. The ``chromium`` fixture (``tests/conftest.py``) skips when no Chromium is
installed, unless ATLBENCH_REQUIRE_BROWSER=1 (CI sets it): then it fails.
"""

from __future__ import annotations

from benchmark.reports.browser import check_page, find_chromium


def test_a_page_of_three_tracks_fits_1400_pixels(chromium, three_tracks):
    """The session's page with all three tracks (and odd names) at 1400 px: nothing broken, not blank, no
    sideways scroll; one navigation entry per track with its sections below it; long tables collapsed
    past 20 rows, every row shown once their switch is on."""
    check = check_page(three_tracks / "index.html", chromium=chromium, width=1400, height=1800)
    assert check.problems == [] and not check.scrolls_sideways
    assert check.window_width == 1400 and check.page_width <= 1400
    assert check.screenshot.startswith(b"\x89PNG") and not check.blank
    assert check.counts["navTracks"] == 3 and check.counts["navLinks"] >= 3 + 10
    assert len(check.images) == 4 + 1 + 2 and all(i["naturalWidth"] > 300 for i in check.images)
    assert check.counts["collapsed"] >= 1 and check.counts["hiddenRows"] > 0
    assert check.counts["hiddenRowsWhenShown"] == 0


def test_a_wide_table_scrolls_in_its_box_not_the_page(chromium, tmp_path):
    """The negative control of the sideways check: a table wider than the window outside the kit's box
    makes the page scroll, inside it does not."""
    from benchmark.core.results import ResultsHeader
    from benchmark.core.track import HtmlPart
    from benchmark.reports.page import PagePart, render_page
    from benchmark.reports.table import Table

    wide = Table(
        "wide", "Wide", tuple(f"column {i}" for i in range(60)), (tuple("x" * 12 for _ in range(60)),)
    )
    raw = "<table><tr>" + "<td>unbreakable-cell-text</td>" * 90 + "</tr></table>"
    for name, content, sideways in (("boxed", wide.to_html(), False), ("raw", raw, True)):
        page = tmp_path / f"{name}.html"
        part = HtmlPart(sections=(("t", "Table", content),))
        page.write_text(render_page(ResultsHeader(), [PagePart("t", "T", "T", part)]), encoding="utf-8")
        check = check_page(page, chromium=chromium, width=1400, height=900)
        assert check.scrolls_sideways is sideways, (name, check.page_width)


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
