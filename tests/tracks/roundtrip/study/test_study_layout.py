"""A study's own folder (--roundtrip-root): files, SQL metamodel, answers (docs/ROUNDTRIP.md §11)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmark.core.errors import InputFormatError
from benchmark.tracks.roundtrip.models.sqlmeta import SQL_NS_URI
from benchmark.tracks.roundtrip.scoring.scorer import score_stage
from benchmark.tracks.roundtrip.study.load import load_study
from benchmark.tracks.roundtrip.study.manifest import default_data_dir
from benchmark.tracks.roundtrip.study.own_layout import study_answers

DATA = default_data_dir()
STUDY_NS = "http://example.org/study/relational"


def make_study(root: Path, *, ns: str = STUDY_NS, metamodel_name: str = "Relational.ecore") -> Path:
    """Two pairs and two operators of the bundled data, under another SQL nsURI, with the study's names."""
    root.mkdir(parents=True, exist_ok=True)
    sql = (Path(__file__).parents[4] / "benchmark/tracks/roundtrip/models/sql.ecore").read_text(
        encoding="utf-8"
    )
    (root / "metamodel").mkdir()
    (root / "metamodel" / metamodel_name).write_text(sql.replace(SQL_NS_URI, ns), encoding="utf-8")
    names = ["S_{p}.ecore", "T_{p}.sql.xmi", "Delta_{o}_S_{p}.ecore", "Delta_{o}_T_{p}.sql.xmi"]
    for pair in ("library", "shop"):
        for operator in ("to_many", "add_class"):
            for pattern in names:
                name = pattern.format(p=pair, o=operator)
                text = (DATA / name).read_text(encoding="utf-8")
                (root / name).write_text(text.replace(SQL_NS_URI, ns), encoding="utf-8")
    return root


def test_the_study_layout_gives_its_pairs_cases_and_sql_metamodel(tmp_path: Path) -> None:
    study = load_study(make_study(tmp_path / "study"))
    assert study.layout == "study" and [p.name for p in study.pairs] == ["library", "shop"]
    assert [c.case_id for c in study.cases] == [
        "library/add_class", "library/to_many", "shop/add_class", "shop/to_many",
    ]  # fmt: skip
    assert study.sql_kind.ns_uri == STUDY_NS  # read from the file, not hard-coded
    assert study.sql_metamodel.name == "Relational.ecore"
    case = study.case("library/to_many")
    assert case.forward.kind.ns_uri == STUDY_NS
    oracle = score_stage(case.forward, case.delta_target)
    assert oracle.loadable and oracle.equivalent and oracle.delta_detected
    assert score_stage(case.inverse, case.delta_source).equivalent


def test_a_t_answer_in_the_bundled_namespace_is_not_loadable_in_the_study(tmp_path: Path) -> None:
    study = load_study(make_study(tmp_path / "study"))
    case = study.case("shop/to_many")
    report = score_stage(case.forward, DATA / "Delta_to_many_T_shop.sql.xmi")
    assert not report.loadable and f"namespace {STUDY_NS} is not declared" in str(report.load_error)
    assert report.counts.equivalent()  # leniently read, every line is right; it is still not equivalent


def test_answers_are_found_by_name(tmp_path: Path) -> None:
    root = make_study(tmp_path / "study")
    answers = root / "answers"
    (answers / "DeepSeek").mkdir(parents=True)
    shutil.copy(root / "Delta_to_many_S_library.ecore", answers / "GPT5_inverse_to_many_library_k2.ecore")
    shutil.copy(root / "Delta_to_many_T_library.sql.xmi", answers / "GPT5_forward_to_many_library_k2_sql.xmi")
    shutil.copy(
        root / "Delta_add_class_S_shop.ecore", answers / "DeepSeek" / "inverse_shop_add_class_run3.ecore"
    )
    shutil.copy(root / "Delta_add_class_S_shop.ecore", answers / "Qwen_inverse_Delta_add_class_T_shop.ecore")
    (answers / "GPT5_inverse_rename_class_library.ecore").write_text("<x/>", encoding="utf-8")
    study = load_study(root)
    assert len(study.cases) == 4  # the answers are not mistaken for cases
    found, skipped = study_answers(study)
    described = sorted((a.provider, a.case.case_id, a.stage, a.k, a.run) for a in found)
    assert described == [
        ("DeepSeek", "shop/add_class", "inverse", 1, 3),
        ("GPT5", "library/to_many", "forward", 2, 1),
        ("GPT5", "library/to_many", "inverse", 2, 1),
        ("Qwen", "shop/add_class", "inverse", 1, 1),
    ]
    ((path, reason),) = skipped
    assert path.name == "GPT5_inverse_rename_class_library.ecore" and "names no case of the study" in reason


def test_an_incomplete_case_and_an_incomplete_pair_are_skipped_with_the_reason(tmp_path: Path) -> None:
    root = make_study(tmp_path / "study")
    (root / "Delta_to_many_T_shop.sql.xmi").unlink()
    shutil.copy(DATA / "S_blog.ecore", root / "S_blog.ecore")
    study = load_study(root)
    assert "shop/to_many" not in [c.case_id for c in study.cases]
    reasons = sorted(reason for _, reason in study.skipped)
    assert reasons == [
        "base pair blog has no T_blog.sql.xmi",
        "case shop/to_many has no Delta_to_many_T file",
    ]


def test_a_sql_metamodel_without_a_feature_the_track_reads_is_refused(tmp_path: Path) -> None:
    root = make_study(tmp_path / "study")
    metamodel = root / "metamodel" / "Relational.ecore"
    metamodel.write_text(
        metamodel.read_text(encoding="utf-8").replace('name="nullable"', 'name="isNullable"')
    )
    with pytest.raises(
        InputFormatError, match=r"reads Column.nullable, which this SQL metamodel does not"
    ) as caught:
        load_study(root)
    assert caught.value.file == str(metamodel) and caught.value.field == "Column.nullable"


def test_several_candidate_metamodels_are_refused(tmp_path: Path) -> None:
    root = make_study(tmp_path / "study")
    shutil.copy(root / "metamodel" / "Relational.ecore", root / "Other.ecore")
    with pytest.raises(InputFormatError, match="several candidate SQL metamodels"):
        load_study(root)


def test_without_a_metamodel_the_tracks_own_is_used(tmp_path: Path) -> None:
    root = make_study(tmp_path / "study", ns=SQL_NS_URI)
    shutil.rmtree(root / "metamodel")
    study = load_study(root)
    assert study.sql_kind.ns_uri == SQL_NS_URI and study.sql_metamodel.name == "sql.ecore"


def test_a_folder_without_pairs_is_not_a_study(tmp_path: Path) -> None:
    with pytest.raises(InputFormatError, match="no base pair"):
        load_study(tmp_path)
