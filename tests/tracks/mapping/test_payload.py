from benchmark.core.rows import Row
from benchmark.tracks.mapping.counts import BindingCounts, ClassCounts
from benchmark.tracks.mapping.payload import BindingItem, ClassItem, CountSlice, RunRow


def test_row_survives_the_json_string_that_crosses_xdist():
    row = RunRow.of(
        provider="Synthetic-Noisy",
        model="seed-7",
        transformation="Grafcet2Petrinet",
        run="run03",
        classes=ClassCounts(4, 1, 1),
        bindings=BindingCounts(exact=10, partial=2, only_atl=3),
        bindings_by_kind={"attribute": BindingCounts(exact=6), "reference": BindingCounts(exact=4)},
        confidence_slices={"high": CountSlice(ClassCounts(3, 0, 2), BindingCounts(exact=5))},
        class_items=(ClassItem("Step", "Place", "tp", "high"),),
        binding_items=(BindingItem("Step", "Place", "name", "exact", "attribute", ("name",), ("name",)),),
    )
    text = row.to_envelope().dumps()
    assert isinstance(text, str)
    envelope = Row.loads(text)
    assert envelope.key == ("atl", "Synthetic-Noisy", "seed-7", "Grafcet2Petrinet", "run03", "study", "free")
    assert "provider" not in envelope.payload and envelope.payload["class"] == {"tp": 4, "fp": 1, "fn": 1}
    assert RunRow.from_envelope(envelope) == row
    assert row.scores(0.5).classes.precision == 0.8
