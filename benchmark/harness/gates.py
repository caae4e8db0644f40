"""CI gates over a session's results: ``--min-score`` (and each track's spelling, e.g. ``--min-f1``) and
``--compare`` with ``--max-drop``. Each track says what its headline score is (:meth:`Track.headline`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from benchmark.core.results import Results
from benchmark.core.track import Track
from benchmark.harness.options import Gate


def min_score_failures(results: Results, gates: Sequence[Gate], tracks: Mapping[str, Track]) -> list[str]:
    """A message for each provider below its bar (or with no scored run in that track)."""
    failures = []
    totals: dict[str, dict[str, float]] = {}
    for gate in gates:
        track = tracks[gate.track]
        if gate.track not in totals:
            section = results.section(gate.track)
            totals[gate.track] = track.headline(section.rows if section else ())
        scores = totals[gate.track]
        if gate.provider not in scores:
            failures.append(f"{gate}: no scored run of provider {gate.provider!r} in the {gate.track} track")
        elif scores[gate.provider] < gate.bar:
            failures.append(f"{gate}: {track.headline_name} is {scores[gate.provider]:.4f}")
    return failures


def compare_with(
    results: Results, previous: Results, max_drop: float | None, tracks: Mapping[str, Track]
) -> tuple[list[str], list[str]]:
    """(lines describing the change per track and provider, failures for drops larger than ``max_drop``).

    Both sessions are summarised by this session's tracks, with this session's options: the mapping track
    re-scores the saved counts at this session's partial weight, so another ``--partial-weight`` is compared
    on the same formula, not reported as a change.
    """
    lines: list[str] = []
    failures: list[str] = []
    for name in sorted(set(results.tracks) | set(previous.tracks)):
        track = tracks.get(name)
        if track is None:
            lines.append(f"{name}: not a track of this session; not compared")
            continue
        now_section, before_section = results.section(name), previous.section(name)
        now = track.headline(now_section.rows if now_section else ())
        before = track.headline(before_section.rows if before_section else ())
        lines.append(f"change of {track.headline_name} ({name}) against the saved session:")
        now_options = now_section.options if now_section else {}
        before_options = before_section.options if before_section else {}
        for key in sorted(set(now_options) | set(before_options)):
            if now_options.get(key) != before_options.get(key):
                lines.append(
                    f"  settings differ: {key} was {before_options.get(key)!r}, is {now_options.get(key)!r}"
                )
        refusal = track.incomparable(now_options, before_options) if now_section and before_section else None
        if refusal is not None:
            lines.append(f"  no drop verdict: {refusal}")
        for provider in sorted(set(now) | set(before)):
            old, new = before.get(provider), now.get(provider)
            if old is None or new is None:
                state = "new in this session" if old is None else "absent from this session"
                lines.append(f"  {provider}: {state}")
                continue
            delta = new - old
            lines.append(f"  {provider}: {old:.4f} -> {new:.4f} ({delta:+.4f})")
            if max_drop is not None and refusal is None and -delta > max_drop:
                failures.append(
                    f"{provider}: {track.headline_name} ({name}) dropped by {-delta:.4f} "
                    f"(more than --max-drop {max_drop:g})"
                )
    return lines, failures
