"""The round-trip track's report files (:mod:`.files`), the sheet and its summaries, and the figures."""
