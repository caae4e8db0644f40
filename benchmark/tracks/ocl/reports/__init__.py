"""The OCL track's report files, terminal tables, figure and its part of ``index.html`` (:mod:`.files`)."""
