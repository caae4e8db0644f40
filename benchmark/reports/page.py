"""``index.html``: one self-contained page for the whole session, one part per track.

Inline CSS, figures as data URIs, no script, no network: a Content-Security-Policy meta tag forbids every
fetch except ``data:`` images, so the page provably needs nothing but itself; it can be mailed, attached
to a CI run or opened from a file system. Each track contributes an :class:`~benchmark.core.track.HtmlPart`
(header lines, notes, sections); the navigation beside the page has one short entry per track (its
:attr:`~benchmark.core.track.Track.label`) with the track's sections below it. A session of several tracks
gives each track's section ids a prefix (``atl-results``), so that links and ids never collide.

Nothing on the page scrolls sideways at 1400 pixels, and nothing is wider than the window
(``tests/reports/test_page_fits.py`` checks it in a real browser, on the bundled session and on one of
Zoo size): a table is as wide as the page's column at most, and fits it by wrapping, never by scrolling.
Headings wrap at their spaces and hyphens, long names at their words (the kit marks where:
:func:`~benchmark.reports.table.Table.to_html`), a number before its interval, any other long word
where it must; a table of more than :data:`~benchmark.reports.table.MANY_COLUMNS` columns is set
smaller, one too wide for the page is split (:func:`~benchmark.reports.table.column_groups`), and one of
more than :data:`~benchmark.reports.table.COLLAPSE_AFTER` rows shows that many and a switch for the
rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from benchmark.core.results import ResultsHeader
from benchmark.core.track import HtmlPart
from benchmark.reports.table import COLLAPSE_AFTER

CSS = f"""
:root {{ --fg:#1d2430; --muted:#5b6575; --line:#d9dee6; --head:#f2f4f8;
  --ok:#d8f0d8; --bad:#f8d7d5; --mix:#fff1c9; --link:#23508f; }}
* {{ box-sizing: border-box; }}
body {{ font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  margin: 0; }}
header {{ background: #23324a; color: #fff; padding: 18px 28px; }}
header h1 {{ margin: 0 0 6px; font-size: 22px; }}
header p {{ margin: 2px 0; color: #d6dceb; font-size: 13px; overflow-wrap: anywhere; }}
.page {{ display: grid; grid-template-columns: 15rem minmax(0, 1fr); align-items: start; }}
nav {{ position: sticky; top: 0; max-height: 100vh; overflow-y: auto; padding: 14px 12px 14px 20px;
  border-right: 1px solid var(--line); background: #fafbfd; font-size: 13px; }}
nav ul {{ list-style: none; margin: 0; padding: 0; }}
nav > ul > li {{ margin-bottom: 12px; }}
nav a {{ color: var(--link); text-decoration: none; overflow-wrap: anywhere; }}
nav a.track {{ font-weight: 600; color: var(--fg); }}
nav li li a {{ display: block; padding: 1px 0 1px 10px; }}
main {{ padding: 8px 28px 40px; min-width: 0; max-width: 1400px; overflow-wrap: break-word; }}
section {{ margin-top: 26px; }}
section.track {{ margin-top: 10px; }}
h2.track {{ font-size: 20px; margin: 18px 0 0; color: #23324a; }}
h2 {{ font-size: 18px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }}
h3 {{ font-size: 15px; margin: 18px 0 6px; }}
.fits {{ max-width: 100%; }}
table {{ border-collapse: collapse; margin: 8px 0; font-size: 13px; max-width: 100%; }}
th, td {{ border: 1px solid var(--line); padding: 3px 8px; vertical-align: top; overflow-wrap: break-word; }}
table.many {{ font-size: 12px; }}
table.many th, table.many td {{ padding: 2px 5px; }}
th {{ background: var(--head); text-align: left; font-weight: 600; }}
caption {{ caption-side: top; text-align: left; color: var(--muted); font-size: 12px; padding: 2px 0; }}
td.r {{ text-align: right; font-variant-numeric: tabular-nums; }}
.ci {{ display: inline-block; }}
.long > .more {{ position: absolute; opacity: 0; pointer-events: none; }}
.long > .more:not(:checked) + .fits tbody tr:nth-child(n+{COLLAPSE_AFTER + 1}) {{ display: none; }}
.long > label {{ cursor: pointer; color: var(--link); font-size: 12.5px; }}
.long > .more:checked ~ label .show, .long > .more:not(:checked) ~ label .hide {{ display: none; }}
.notes {{ color: var(--muted); font-size: 12.5px; margin: 4px 0 0; padding-left: 18px; }}
.callout {{ background: #fff8e1; border-left: 4px solid #f0b400; padding: 8px 12px; margin: 10px 0; }}
figure {{ margin: 12px 0 22px; }}
figure img {{ max-width: 100%; height: auto; border: 1px solid var(--line); background: #fff; }}
figcaption {{ color: var(--muted); font-size: 12.5px; max-width: 900px; }}
details {{ margin: 6px 0; }}
summary {{ cursor: pointer; font-weight: 600; }}
td.ok {{ background: var(--ok); }} td.bad {{ background: var(--bad); }} td.mix {{ background: var(--mix); }}
td.absent {{ color: #aab; text-align: center; }}
code {{ font-size: 12px; overflow-wrap: anywhere; }}
.legend span {{ display: inline-block; padding: 1px 8px; margin-right: 6px; border: 1px solid var(--line); }}
@media (max-width: 900px) {{
  .page {{ display: block; }}
  nav {{ position: static; max-height: none; border-right: 0; border-bottom: 1px solid var(--line); }}
}}
"""

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"


@dataclass(frozen=True)
class PagePart:
    """One track on the page: its registry name, its short label (the navigation), its title (the
    heading of its part) and what it contributes."""

    name: str
    label: str
    title: str
    part: HtmlPart


def _scoped(content: str, name: str) -> str:
    """A track's HTML with the ids of its collapsible tables made unique on the page."""
    return content.replace('id="more-', f'id="more-{name}-').replace('for="more-', f'for="more-{name}-')


def render_page(header: ResultsHeader, parts: Sequence[PagePart]) -> str:
    """The page from the session header and each track's part, in track order."""
    provenance = [
        f"Results created {header.created or 'unknown'} · {header.source_words()}"
        + (f" · validation root {header.validation_root}" if header.validation_root else "")
    ]
    several = len(parts) > 1
    notes: list[str] = []
    nav: list[str] = []
    main: list[str] = []
    for page in parts:
        part, name = page.part, page.name
        provenance += [f"{page.label}: {line}" if several else line for line in part.provenance]
        notes += [f"{page.label}: {note}" if several else note for note in part.notes]
        sections = [*part.sections, *([part.footer] if part.footer is not None else [])]
        ids = [f"{name}-{key}" if several else key for key, _, _ in sections]
        links = "".join(
            f'<li><a href="#{ident}">{escape(heading)}</a></li>'
            for ident, (_, heading, _) in zip(ids, sections, strict=True)
        )
        nav.append(f'<li><a class="track" href="#{name}">{escape(page.label)}</a><ul>{links}</ul></li>')
        main.append(f'<section class="track" id="{name}"><h2 class="track">{escape(page.title)}</h2>')
        for ident, (_, heading, content) in zip(ids, sections, strict=True):
            main.append(
                f'<section id="{ident}"><h2>{escape(heading)}</h2>\n{_scoped(content, name)}\n</section>'
            )
        main.append("</section>")
    versions = ", ".join(f"{k} {v}" for k, v in sorted(header.versions.items()))
    if versions:
        provenance.append(f"Versions: {versions}")
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>atl-binding-bench report</title>",
        f"<style>{CSS}</style></head><body>",
        "<header><h1>atl-binding-bench report</h1>"
        + "".join(f"<p>{escape(p)}</p>" for p in provenance)
        + "</header>",
        '<div class="page">',
        "<nav><ul>" + "".join(nav) + "</ul></nav>",
        "<main>",
    ]
    if notes:
        items = "".join(f"<li>{escape(n)}</li>" for n in notes)
        body.append(f'<div class="callout"><b>Read this first</b><ul>{items}</ul></div>')
    body += main
    body.append("</main></div></body></html>")
    return "\n".join(body) + "\n"


__all__ = ["CSP", "CSS", "PagePart", "render_page"]
