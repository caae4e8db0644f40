"""At 1400 pixels nothing of a report page scrolls sideways and the page is not wider than the window,
in headless Chromium (:func:`benchmark.reports.browser.check_page`: every element that scrolls or clips
sideways, and every one that sticks out past the window or out of ``<main>``, as the page loads and with
every row and ``<details>`` unfolded): the bundled session's page, and the pages of a session of ATL Zoo
size (:mod:`zoo_sized`). The ``chromium`` fixture (``tests/conftest.py``) skips without a Chromium, unless
ATLBENCH_REQUIRE_BROWSER=1 (CI sets it): then it fails; it comes first, so that nothing is scored for a
test that skips.
"""

from __future__ import annotations

import re

import pytest

from benchmark.reports.browser import check_page
from benchmark.tracks.mapping.reports.scale import DRILLDOWN_HTML

WIDTH = 1400
SCROLLBAR = 15  # Chromium's, on a page longer than the window: what a reader's browser shows


def test_the_bundled_session_page_fits(chromium, bundled_session):
    check = check_page(bundled_session / "index.html", chromium=chromium, width=WIDTH, height=1200)
    assert check.problems == [] and check.sideways == []
    assert check.window_width == WIDTH - SCROLLBAR and check.page_width <= check.window_width
    assert check.counts["navTracks"] == 3 and check.counts["details"] >= 8  # the drill-down, unfolded too


@pytest.mark.parametrize("page", ["index.html", DRILLDOWN_HTML])
def test_a_zoo_sized_page_fits(chromium, zoo_sized, page):
    check = check_page(zoo_sized / page, chromium=chromium, width=WIDTH, height=1200, timeout=180)
    assert check.problems == [] and check.sideways == []
    assert check.window_width == WIDTH - SCROLLBAR and check.page_width <= check.window_width


def test_the_zoo_sized_drilldown_splits_its_columns_and_keeps_every_one(zoo_sized):
    """The drill-down's tables have four (bindings) or three (classes) key columns and one per series
    (16): too many for the page, each is shown as two tables of the key columns and half of the others."""
    html = (zoo_sized / DRILLDOWN_HTML).read_text(encoding="utf-8")
    captions = re.findall(r"<caption>columns (\d+)–(\d+) of (\d+)</caption>", html)
    assert sorted(set(captions)) == [
        ("12", "19", "19"),
        ("13", "20", "20"),
        ("4", "11", "19"),
        ("5", "12", "20"),
    ]
    first = html[html.index("<details") : html.index("</details>")]
    heads = re.findall(r"<thead><tr>(.*?)</tr></thead>", first)
    assert len(heads) == 4 and all(h.startswith("<th>Source class</th>") for h in heads)
    assert sum(h.count("<th>") for h in heads) == 2 * 4 + 16 + 2 * 3 + 16


def test_the_check_sees_what_scrolls_clips_or_sticks_out_sideways(chromium, tmp_path):
    """The negative control of the sideways checks: a box that scrolls, one that clips, a block wider
    than <main> but not than the window, and a table in a closed <details>, on a page that does not scroll;
    a table of unbreakable cells, on one that does; and a kit table of 40 columns, which fits."""
    from benchmark.core.results import ResultsHeader
    from benchmark.core.track import HtmlPart
    from benchmark.reports.page import PagePart, render_page
    from benchmark.reports.table import Table

    wide = "<table><tr>" + "<td>unbreakable-cell-text</td>" * 90 + "</tr></table>"
    boxes = (
        f'<div id="scroller" style="overflow-x: auto">{wide}</div>'
        f'<div id="clipper" style="overflow-x: hidden">{wide}</div>'
        '<div id="over-main" style="width: 1115px">x</div>'
        f'<details id="closed"><summary>closed</summary>{wide}</details>'
    )
    kit = Table(
        "kit",
        "Kit",
        ("Transformation", *(f"Synthetic-Provider{i} (stepwise)" for i in range(39))),
        tuple((f"T{r}_StateMachine2PetriNet", *(f"0.{i:03d}" for i in range(39))) for r in range(25)),
        keys=1,
    )
    pages = {"boxes": boxes, "raw": wide, "kit": kit.to_html()}
    checks = {}
    for name, content in pages.items():
        page = tmp_path / f"{name}.html"
        part = HtmlPart(sections=(("t", "Table", content),))
        page.write_text(render_page(ResultsHeader(), [PagePart("t", "T", "T", part)]), encoding="utf-8")
        checks[name] = check_page(page, chromium=chromium, width=WIDTH, height=900)
    boxes_found = "\n".join(checks["boxes"].sideways)
    assert not checks["boxes"].scrolls_sideways, checks["boxes"].page_width
    assert re.search(r"div#scroller \"[^\n]*\" scrolls sideways \(\d+ px of content in \d+ px\)", boxes_found)
    assert re.search(r"div#clipper \"[^\n]*\" clips sideways", boxes_found)
    assert re.search(r"div#over-main \"x\" sticks out 1\d px past <main>", boxes_found)
    assert len(checks["boxes"].sideways) == 4, boxes_found  # what a box holds is the box's
    closed = [line for line in checks["boxes"].sideways if "every <details> open" in line]
    assert len(closed) == 1 and closed[0].startswith("table ") and "sticks out" in closed[0]
    assert checks["raw"].scrolls_sideways and any("past <main>" in s for s in checks["raw"].sideways)
    assert "the page scrolls sideways" in "\n".join(checks["raw"].problems)
    assert checks["kit"].problems == [], checks["kit"].problems
    assert kit.to_html().count("<table") > 1  # split, the key column in each part
