"""The mapping track's report files (:mod:`.files`), tables, figures, LaTeX, its part of ``index.html``."""
