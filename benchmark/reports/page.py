"""``index.html``: one self-contained page for the whole session, one part per track.

Inline CSS, figures as data URIs, no script, no network: a Content-Security-Policy meta tag forbids every
fetch except ``data:`` images, so the page provably needs nothing but itself; it can be mailed, attached
to a CI run or opened from a file system. Each track contributes an :class:`~benchmark.core.track.HtmlPart`
(header lines, notes, sections); a session of one track lays its sections out at the top level, a session
of several gives each track's sections a prefix so that the navigation says whose they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from benchmark.core.results import ResultsHeader
from benchmark.core.track import HtmlPart

CSS = """
:root { --fg:#1d2430; --muted:#5b6575; --line:#d9dee6; --head:#f2f4f8;
  --ok:#d8f0d8; --bad:#f8d7d5; --mix:#fff1c9; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  margin: 0; }
header { background: #23324a; color: #fff; padding: 18px 28px; }
header h1 { margin: 0 0 6px; font-size: 22px; }
header p { margin: 2px 0; color: #d6dceb; font-size: 13px; }
nav { padding: 10px 28px; border-bottom: 1px solid var(--line); background: #fafbfd;
  position: sticky; top: 0; }
nav a { margin-right: 14px; color: #23508f; text-decoration: none; font-size: 13px; }
main { padding: 8px 28px 40px; max-width: 1400px; }
section { margin-top: 26px; }
h2 { font-size: 18px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; vertical-align: top; }
th { background: var(--head); text-align: left; font-weight: 600; }
td.r { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.notes { color: var(--muted); font-size: 12.5px; margin: 4px 0 0; padding-left: 18px; }
.callout { background: #fff8e1; border-left: 4px solid #f0b400; padding: 8px 12px; margin: 10px 0; }
figure { margin: 12px 0 22px; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); background: #fff; }
figcaption { color: var(--muted); font-size: 12.5px; max-width: 900px; }
details { margin: 6px 0; }
summary { cursor: pointer; font-weight: 600; }
td.ok { background: var(--ok); } td.bad { background: var(--bad); } td.mix { background: var(--mix); }
td.absent { color: #aab; text-align: center; }
code { font-size: 12px; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 6px; border: 1px solid var(--line); }
"""

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"


def render_page(header: ResultsHeader, parts: Sequence[tuple[str, str, HtmlPart]]) -> str:
    """The page from the session header and ``(track name, track title, part)`` in track order."""
    provenance = [
        f"Results created {header.created or 'unknown'}"
        + (f" · commit {header.git_commit}" if header.git_commit else "")
        + (f" · validation root {header.validation_root}" if header.validation_root else "")
    ]
    several = len(parts) > 1
    sections: list[tuple[str, str, str]] = []
    notes: list[str] = []
    footers: list[tuple[str, str, str]] = []
    for name, title, part in parts:
        provenance += [f"{title}: {line}" if several else line for line in part.provenance]
        notes += [f"{title}: {note}" if several else note for note in part.notes]
        for key, heading, content in part.sections:
            sections.append(
                (f"{name}-{key}", f"{title} · {heading}", content) if several else (key, heading, content)
            )
        if part.footer is not None:
            key, heading, content = part.footer
            footers.append((f"{name}-{key}", f"{title} · {heading}", content) if several else part.footer)
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
        "<nav>" + "".join(f'<a href="#{key}">{escape(title)}</a>' for key, title, _ in sections) + "</nav>",
        "<main>",
    ]
    if notes:
        items = "".join(f"<li>{escape(n)}</li>" for n in notes)
        body.append(f'<div class="callout"><b>Read this first</b><ul>{items}</ul></div>')
    for key, title, content in sections:
        body.append(f'<section id="{key}"><h2>{escape(title)}</h2>\n{content}\n</section>')
    for key, title, content in footers:
        body.append(f'<section id="{key}"><h2>{escape(title)}</h2>{content}</section>')
    body.append("</main></body></html>")
    return "\n".join(body) + "\n"


__all__ = ["CSP", "CSS", "render_page"]
