"""A run file holds every dataset model's answers of one mode; each model's run case costs only its own.

The bundled real runs of SmolLM2-135M (``validation/ocl/runs/SmolLM2-135M/run01/``, and ``schema/run01/``,
``grounded/run01/`` for its other answer formats) answer the constraints of two models per file: before the
ledger was scoped per case, the harness copied the whole file's ledger
into both cases' rows, and the cost table counted every request twice (40 requests for 20 sent).
"""

from __future__ import annotations

from pathlib import Path

from benchmark.core.track import TrackContext
from benchmark.harness.ledger import with_ledger
from benchmark.llm.ledger import LEDGER_KEY, file_ledger, row_ledger
from benchmark.tracks.ocl.track import OclTrack

DATASET = Path(__file__).resolve().parents[3] / "validation" / "ocl"
PROVIDER = "SmolLM2-135M"


def test_each_model_of_a_shared_run_file_counts_only_its_own_requests() -> None:
    track = OclTrack(TrackContext(data_root=DATASET, options={"ocl_baselines": (), "ocl_seed": 0}))
    every = [c for c in track.collect().runs if c.provider == PROVIDER]
    assert sorted((c.case_id, c.answer_format) for c in every if c.task.startswith("library-original")) == [
        (f"library-original-{PROVIDER}-grounded-run01", "grounded"),
        (f"library-original-{PROVIDER}-run01", "free"),
        (f"library-original-{PROVIDER}-schema-run01", "schema"),
    ]
    cases = sorted((c for c in every if c.answer_format == "free"), key=lambda c: c.case_id)
    assert [c.case_id for c in cases] == [
        f"hotel-original-{PROVIDER}-run01",
        f"hotel-rename-{PROVIDER}-run01",
        f"library-original-{PROVIDER}-run01",
        f"library-rename-{PROVIDER}-run01",
    ]
    for mode in ("original", "rename"):
        shared = [c for c in cases if c.task.endswith(f"-{mode}")]
        (path,) = {c.file for c in shared}
        whole = file_ledger(path)
        assert whole is not None and whole.requests == 20  # 10 constraints of each model
        parts = [file_ledger(path, c.ledger_scope) for c in shared]
        assert [p.requests for p in parts if p is not None] == [10, 10]  # hotel, library
        assert sum(p.input_tokens or 0 for p in parts if p is not None) == whole.input_tokens
        assert sorted(s for p in parts if p is not None for s in p.seconds) == sorted(whole.seconds)

    library = cases[2]
    row = with_ledger(track.score_run(library), library)
    ledger = row_ledger(row.provenance)
    assert ledger is not None and ledger.requests == 10 and LEDGER_KEY in row.provenance
    assert ledger.cost_usd == 0 and ledger.cost_note == "local"
