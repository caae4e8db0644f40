"""The mapping track's page in headless Chromium: its four figures loaded, its tables and drill-down there,
nothing fetched, not blank (``chromium``: ``tests/conftest.py``)."""

from __future__ import annotations

from benchmark.reports.browser import check_page


def test_report_page_renders(chromium, written_reports):
    _, out = written_reports
    check = check_page(out / "index.html", chromium=chromium)
    assert check.problems == []
    assert check.title == "atl-binding-bench report"
    assert len(check.images) == 4 and all(i["naturalWidth"] > 300 for i in check.images)
    assert check.counts["figures"] == 4 and check.counts["tables"] >= 10
    assert check.counts["details"] == 1 + 3  # McNemar details + one drill-down per transformation
    assert check.requests and all(u.startswith(("file:", "data:")) for u in check.requests)
    assert check.screenshot.startswith(b"\x89PNG") and not check.blank
