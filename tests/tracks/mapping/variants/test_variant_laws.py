"""The laws of the mapping track's task variants (``docs/VARIANTS.md``), on every bundled transformation
and, with Hypothesis, on seeds:

* every name of both metamodels is renamed, or listed as kept with its reason;
* the ground truth renamed and scored against itself (and every bundled run, renamed the same way)
  gives the counts of the original, on every variant;
* renaming then renaming back is the identity (views and ground truth); ``shuffled`` put back in the
  original order is the original view;
* helper-expanded source paths are renamed segment by segment, and navigate the renamed metamodel
  exactly where the original ones navigate the original.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from variant_laws import check_names

from benchmark.lang.ecore.view import MetamodelView
from benchmark.lang.words.synonyms import spellings
from benchmark.tracks.mapping.discovery import discover
from benchmark.tracks.mapping.ground_truth import (
    Metamodels,
    consistency_problems,
    load_ground_truth,
    resolve_metamodels,
)
from benchmark.tracks.mapping.interchange import InterchangeDocument
from benchmark.tracks.mapping.jjodel import export_document
from benchmark.tracks.mapping.scoring.compare import compare
from benchmark.tracks.mapping.scoring.suggestions import load_suggestions, parse_suggestions
from benchmark.tracks.mapping.synth import PROFILES, synthesize
from benchmark.tracks.mapping.variants.apply import rename_document, rename_entry, rename_view, renamed_views
from benchmark.tracks.mapping.variants.names import OPAQUE, SHUFFLED, SYNONYM
from benchmark.tracks.mapping.variants.renaming import (
    NAMESPACES,
    Order,
    Renaming,
    renaming_problems,
    view_names,
)
from benchmark.tracks.mapping.variants.rules import SECTION, draw_renaming

VALIDATION = Path(__file__).resolve().parents[4] / "validation"
VARIANTS = (SYNONYM, OPAQUE, SHUFFLED)
NAMES = sorted(t.name for t in discover(VALIDATION).transformations)


@dataclass(frozen=True)
class Transformation:
    name: str
    document: InterchangeDocument
    source: MetamodelView
    target: MetamodelView
    runs: tuple[Path, ...]


@cache
def transformation(name: str) -> Transformation:
    folder = next(t for t in discover(VALIDATION).transformations if t.name == name)
    document = load_ground_truth(folder.atl_file)
    metamodels = resolve_metamodels(document, folder.metamodel_files, folder=folder.path)
    assert metamodels.source is not None and metamodels.target is not None
    return Transformation(name, document, metamodels.source, metamodels.target, folder.suggestion_files)


def counts(document: InterchangeDocument, suggestions, source: MetamodelView, target: MetamodelView):
    result = compare(document, suggestions, source_view=source, target_view=target)
    return (
        result.classes,
        result.bindings,
        result.bindings_by_kind,
        len(result.hallucinated_classes or ()),
        len(result.hallucinated_features or ()),
        {k: (v.classes, v.bindings) for k, v in result.confidence_slices.items()},
    )


def renamed_run(path: Path, renaming: Renaming):
    """A bundled run with every name it gives renamed as the variant renames the metamodels."""
    original = load_suggestions(path)
    entries = [rename_entry(m.to_entry(), renaming) for m in original.mappings]
    document = export_document(
        transformation="t", source="s", target="t", provider=original.provider, model="m", mappings=entries
    )
    return original, parse_suggestions(document)


# --------------------------------------------------------------------------------------- every name


@pytest.mark.parametrize("variant", (SYNONYM, OPAQUE))
@pytest.mark.parametrize("name", NAMES)
def test_every_name_of_both_metamodels_is_renamed_or_kept_with_its_reason(name: str, variant: str) -> None:
    t = transformation(name)
    renaming = draw_renaming(variant, t.source, t.target, 0)
    assert renaming is not None
    check_names(renaming, t.source, t.target)  # renamed validly and apart, or kept with its reason
    for role, view in (("source", t.source), ("target", t.target)):
        side = renaming.side(role)
        assert side is not None
        # only data types and packages of data types are kept
        assert {k.kind for k in side.kept} <= {"datatype", "package"}
        renamed = rename_view(view, side)
        assert renamed.name != view.name and len(renamed.classes) == len(view.classes)


@pytest.mark.parametrize("name", NAMES)
def test_a_synonym_is_never_an_original_name_and_a_shared_name_moves_together(name: str) -> None:
    t = transformation(name)
    renaming = draw_renaming(SYNONYM, t.source, t.target, 0)
    assert renaming is not None and renaming.source is not None and renaming.target is not None
    originals = {n: set(view_names(t.source)[n]) | set(view_names(t.target)[n]) for n in NAMESPACES}
    for side in (renaming.source, renaming.target):
        for namespace in NAMESPACES:
            assert not set(side.namespace(namespace).values()) & originals[namespace]
        for kind, old in side.fallbacks:
            namespace = (
                "literals" if kind == "literal" else next(n for n in NAMESPACES if old in side.namespace(n))
            )
            assert side.namespace(namespace)[old] not in spellings(old, 0, SECTION)
    for namespace in NAMESPACES:
        source_map, target_map = renaming.source.namespace(namespace), renaming.target.namespace(namespace)
        for old in set(source_map) & set(target_map):
            assert source_map[old] == target_map[old], f"{old} renamed apart in the two metamodels"


@pytest.mark.parametrize("name", NAMES)
def test_opaque_ids_keep_nothing_of_the_word_and_differ_between_the_metamodels(name: str) -> None:
    t = transformation(name)
    renaming = draw_renaming(OPAQUE, t.source, t.target, 0)
    assert renaming is not None and renaming.source is not None and renaming.target is not None
    for namespace in NAMESPACES:
        source_ids = set(renaming.source.namespace(namespace).values())
        target_ids = set(renaming.target.namespace(namespace).values())
        assert not source_ids & target_ids
        assert all(re.fullmatch(r"[PCEarfv]\d{2,}", new) for new in source_ids | target_ids)


# ------------------------------------------------------------------------------ counts are invariant


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", NAMES)
def test_the_renamed_ground_truth_scored_against_itself_gives_the_original_counts(
    name: str, variant: str
) -> None:
    t = transformation(name)
    renaming = draw_renaming(variant, t.source, t.target, 0)
    assert renaming is not None
    source, target = renamed_views(renaming, t.source, t.target)
    assert source is not None and target is not None
    document = rename_document(t.document, renaming)
    assert consistency_problems(document, Metamodels(source, target)) == []
    oracle = PROFILES["Synthetic-Oracle"]
    original = parse_suggestions(
        synthesize(t.document, noise=oracle, seed="law", source_view=t.source, target_view=t.target)
    )
    renamed = parse_suggestions(
        synthesize(document, noise=oracle, seed="law", source_view=source, target_view=target)
    )
    assert counts(document, renamed, source, target) == counts(t.document, original, t.source, t.target)


@pytest.mark.parametrize("variant", (SYNONYM, OPAQUE))
@pytest.mark.parametrize("name", NAMES)
def test_every_bundled_run_renamed_scores_as_the_original_run(name: str, variant: str) -> None:
    t = transformation(name)
    renaming = draw_renaming(variant, t.source, t.target, 0)
    assert renaming is not None
    source, target = renamed_views(renaming, t.source, t.target)
    assert source is not None and target is not None
    document = rename_document(t.document, renaming)
    # The synthetic runs: a real answer may name a class of one metamodel on the other side (SmolLM2-135M's
    # schema answers give `Book::Book`, a source class, as a target class); the renaming is per side, so it
    # cannot rename that name, and the check for made-up names (either metamodel) finds it only once the
    # source metamodel is renamed. Such an answer scores alike in every other count.
    runs = [
        p
        for p in t.runs
        if "/runs/" in p.as_posix() and p.parent.name == "runs" and p.name.startswith("Synthetic-")
    ]
    assert runs
    for path in runs:
        original, renamed = renamed_run(path, renaming)
        assert counts(document, renamed, source, target) == counts(
            t.document, original, t.source, t.target
        ), path


# --------------------------------------------------------------------------------- there and back


@pytest.mark.parametrize("variant", (SYNONYM, OPAQUE))
@pytest.mark.parametrize("name", NAMES)
def test_renaming_then_renaming_back_is_the_identity(name: str, variant: str) -> None:
    t = transformation(name)
    renaming = draw_renaming(variant, t.source, t.target, 0)
    assert renaming is not None
    back = renaming.inverse()
    there = renamed_views(renaming, t.source, t.target)
    assert renamed_views(back, *there) == (t.source, t.target)
    assert rename_document(rename_document(t.document, renaming), back) == t.document
    assert Renaming.from_json(renaming.to_json()) == renaming


@pytest.mark.parametrize("name", NAMES)
def test_shuffled_keeps_every_name_and_put_back_in_order_is_the_original(name: str) -> None:
    t = transformation(name)
    renaming = draw_renaming(SHUFFLED, t.source, t.target, 0)
    assert renaming is not None and renaming.source is not None
    shuffled = rename_view(t.source, renaming.source)
    assert view_names(shuffled) == view_names(t.source)
    order = replace(renaming.source, order=None)
    assert order.renamed == 0
    original_order = Order(
        {p.qualified_name: p.classifiers for p in t.source.packages},
        {c.name: tuple(f.name for f in c.features) for c in t.source.classes},
    )
    assert rename_view(shuffled, replace(renaming.source, order=original_order)) == t.source


# -------------------------------------------------------------------------------- paths by segment


def _navigates(view: MetamodelView, class_name: str, path: str) -> bool:
    current = class_name
    for segment in path.split("."):
        feature = view.find_feature(current, segment)
        if feature is None:
            return False
        current = feature.type_name
    return True


@pytest.mark.parametrize("variant", (SYNONYM, OPAQUE))
@pytest.mark.parametrize("name", NAMES)
def test_helper_expanded_paths_are_renamed_segment_by_segment(name: str, variant: str) -> None:
    t = transformation(name)
    renaming = draw_renaming(variant, t.source, t.target, 0)
    assert renaming is not None and renaming.source is not None
    source, _ = renamed_views(renaming, t.source, t.target)
    assert source is not None
    renamed = rename_document(t.document, renaming)
    features = renaming.source.features
    multi = 0
    for before, after in zip(t.document.class_matches, renamed.class_matches, strict=True):
        for fb, fa in zip(before.feature_matches, after.feature_matches, strict=True):
            for path_before, path_after in zip(fb.source_paths, fa.source_paths, strict=True):
                segments = path_before.split(".")
                multi += len(segments) > 1
                assert path_after.split(".") == [features.get(s, s) for s in segments]
                assert _navigates(source, after.source_class, path_after) == _navigates(
                    t.source, before.source_class, path_before
                )
    if name == "Class2Relational":
        assert multi > 0  # owner.name, type.name: helper-expanded paths of two segments


# ---------------------------------------------------------------------------------- any seed at all


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**31),
    name=st.sampled_from(("book2publication", "Class2Relational", "Grafcet2Petrinet", "Java2Table")),
    variant=st.sampled_from(VARIANTS),
)
def test_the_laws_hold_for_any_seed(seed: int, name: str, variant: str) -> None:
    t = transformation(name)
    renaming = draw_renaming(variant, t.source, t.target, seed)
    assert renaming is not None and renaming.source is not None and renaming.target is not None
    assert renaming_problems(renaming.source, t.source, "source") == []
    assert renaming_problems(renaming.target, t.target, "target") == []
    assert draw_renaming(variant, t.source, t.target, seed) == renaming  # reproducible
    source, target = renamed_views(renaming, t.source, t.target)
    assert source is not None and target is not None
    document = rename_document(t.document, renaming)
    noisy = PROFILES["Synthetic-Noisy"]
    original, renamed = renamed_run_from(t, renaming, noisy, seed)
    assert counts(document, renamed, source, target) == counts(t.document, original, t.source, t.target)
    if variant != SHUFFLED:
        assert renamed_views(renaming.inverse(), source, target) == (t.source, t.target)
        assert rename_document(document, renaming.inverse()) == t.document


def renamed_run_from(t: Transformation, renaming: Renaming, profile, seed: int):
    document = synthesize(
        t.document, noise=profile, seed=f"law/{seed}", source_view=t.source, target_view=t.target
    )
    original = parse_suggestions(document)
    entries = [rename_entry(m.to_entry(), renaming) for m in original.mappings]
    renamed = export_document(
        transformation="t", source="s", target="t", provider="p", model="m", mappings=entries
    )
    return original, parse_suggestions(renamed)
