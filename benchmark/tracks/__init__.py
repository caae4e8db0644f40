"""The studies, one package per track: :mod:`.mapping` (RQ1, ATL bindings), :mod:`.roundtrip`
(Ecore<->SQL by example) and :mod:`.ocl` (OCL robustness). A track imports the core, the harness's public
pieces and the languages it needs, never another track."""
