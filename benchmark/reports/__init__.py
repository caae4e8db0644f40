"""Generic report writing: each track writes its own files through its ``write_reports`` hook; this
package owns what spans tracks (``index.html`` with one section per track) and the shared renderers."""
