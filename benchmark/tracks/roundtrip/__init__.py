"""The round-trip Ecore <-> SQL track (``docs/ROUNDTRIP.md``): a study's data (:mod:`.study`), the models it
reads and writes (:mod:`.models`), reading answers (:mod:`.reading`), the ten delta operators
(:mod:`.operators`), scoring a stage evaluation (:mod:`.scoring`), the reports (:mod:`.reports`), and the
track's hooks (:mod:`.track`) with its rooms (:mod:`.options`, :mod:`.collection`, :mod:`.payload`,
:mod:`.llm_task`, :mod:`.synth`)."""
