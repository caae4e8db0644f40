import json
import shutil
from pathlib import Path

import pytest

from benchmark.cli import main
from benchmark.tracks.mapping.interchange import (
    ClassMatch,
    FeatureMatch,
    InterchangeDocument,
    ModelDecl,
    TransformationInfo,
)
from benchmark.tracks.mapping.scoring.compare import compare
from benchmark.tracks.mapping.scoring.suggestions import parse_suggestions
from benchmark.tracks.mapping.synth import PROFILES, TEMPLATE_NOISE, run_seed, synthesize, under_template

TREE = Path(__file__).resolve().parents[2] / "harness" / "data" / "tree"


def _truth(partial: bool = False) -> InterchangeDocument:
    label_paths = ("author", "title") if partial else ("title",)
    return InterchangeDocument(
        transformation=TransformationInfo(
            "Library2Catalog",
            "x.atl",
            in_models=(ModelDecl("IN", "Library"),),
            out_models=(ModelDecl("OUT", "Catalog"),),
        ),
        class_matches=(
            ClassMatch(
                "Book",
                "Entry",
                feature_matches=(
                    FeatureMatch("label", label_paths, label_paths),
                    FeatureMatch("size", ("pages",), ("pages",)),
                    FeatureMatch("kind", (), ()),  # target-only: a constant
                ),
            ),
            ClassMatch("Library", "Catalog", feature_matches=(FeatureMatch("title", ("name",), ("name",)),)),
        ),
    )


def _score(document: InterchangeDocument, export: dict, w: float = 0.5):
    return compare(document, parse_suggestions(export, source="<synth>")).scores(w)


def test_oracle_scores_perfectly_without_partial_bindings():
    truth = _truth()
    scores = _score(truth, synthesize(truth, noise=PROFILES["Synthetic-Oracle"], seed="s"))
    assert (scores.overall.precision, scores.overall.recall) == (1.0, 1.0)


def test_oracle_with_a_partial_binding_scores_exact_plus_w_partial():
    truth = _truth(partial=True)
    export = synthesize(truth, noise=PROFILES["Synthetic-Oracle"], seed="s")
    for w in (0.0, 0.5, 1.0):
        bindings = _score(truth, export, w).bindings
        # 2 exact (size, title) + 1 partial (label): TP = 2 + w, FP = FN = 1 - w
        assert bindings.precision == pytest.approx((2 + w) / 3)
        assert bindings.recall == pytest.approx((2 + w) / 3)


def test_same_seed_same_bytes_and_seeds_differ():
    truth = _truth(partial=True)
    noisy = PROFILES["Synthetic-Sloppy"]
    first = json.dumps(synthesize(truth, noise=noisy, seed=run_seed(0, noisy.name, "L2C", 1)))
    again = json.dumps(synthesize(truth, noise=noisy, seed=run_seed(0, noisy.name, "L2C", 1)))
    assert first == again
    others = {
        json.dumps(synthesize(truth, noise=noisy, seed=run_seed(0, noisy.name, "L2C", n)))
        for n in range(2, 8)
    }
    assert len(others - {first}) >= 5


def test_synthetic_runs_declare_themselves():
    truth = _truth()
    export = synthesize(truth, noise=PROFILES["Synthetic-Noisy"], seed="7")
    assert export["analysis"]["provider"] == "Synthetic-Noisy"
    assert export["synthetic"]["generator"] == "atlbench synth"
    assert "not produced by a language model" in export["synthetic"]["note"]
    assert export["synthetic"]["profile"]["name"] == "Synthetic-Noisy"


def test_noise_lowers_scores_on_average():
    truth = _truth(partial=True)
    noisy = [
        _score(truth, synthesize(truth, noise=PROFILES["Synthetic-Sloppy"], seed=str(n))).overall.f1
        for n in range(30)
    ]
    assert sum(noisy) / len(noisy) < 0.9
    assert max(noisy) <= 1.0


def test_cli_writes_runs_once_and_protects_edited_files(tmp_path, capsys):
    root = tmp_path / "tree"
    shutil.copytree(TREE, root)
    for runs in root.glob("*/runs"):
        shutil.rmtree(runs)
    assert main(["synth", str(root), "--profile", "Synthetic-Noisy", "--runs", "2"]) == 0
    files = sorted(p.relative_to(root).as_posix() for p in root.glob("*/runs/*.json"))
    assert files == [
        "Library2Catalog/runs/Synthetic-Noisy-run01.json",
        "Library2Catalog/runs/Synthetic-Noisy-run02.json",
        "Shapes2Figures/runs/Synthetic-Noisy-run01.json",
        "Shapes2Figures/runs/Synthetic-Noisy-run02.json",
    ]
    assert "4 written" in capsys.readouterr().out
    assert main(["synth", str(root), "--profile", "Synthetic-Noisy", "--runs", "2"]) == 0
    assert "4 unchanged" in capsys.readouterr().out
    edited = root / files[0]
    edited.write_text(edited.read_text().replace("Synthetic-Noisy", "Edited"))
    assert main(["synth", str(root), "--profile", "Synthetic-Noisy", "--runs", "2"]) == 1
    assert "exists and differs" in capsys.readouterr().err
    assert main(["synth", str(root), "--profile", "Synthetic-Noisy", "--runs", "2", "--force"]) == 0


def test_the_bytes_written_do_not_depend_on_how_the_root_is_spelled(tmp_path, capsys, monkeypatch):
    root = tmp_path / "tree"
    shutil.copytree(TREE, root)
    for runs in root.glob("*/runs"):
        shutil.rmtree(runs)
    assert main(["synth", str(root), "--profile", "Synthetic-Oracle", "--runs", "1"]) == 0
    assert "2 written" in capsys.readouterr().out
    monkeypatch.chdir(root)
    assert main(["synth", ".", "--profile", "Synthetic-Oracle", "--runs", "1"]) == 0
    assert "2 unchanged" in capsys.readouterr().out


def test_zero_runs_is_an_option_error(tmp_path, capsys):
    assert main(["synth", str(tmp_path), "--runs", "0"]) == 2
    assert capsys.readouterr().err == "error: --runs: must be a whole number of at least 1, got 0\n"


REPO = Path(__file__).resolve().parents[3]
# The bundled runs of the other templates (docs/SYNTHETIC_RUNS.md): written with `atlbench synth
# validation/T --profile Synthetic-Noisy --profile Synthetic-Sloppy --runs 2 --template NAME`.
TEMPLATE_FOLDERS = ("Class2Relational", "Grafcet2Petrinet")


def test_a_template_scales_the_noise_and_says_so():
    document = _truth(partial=True)
    noisy = PROFILES["Synthetic-Noisy"]
    terse = under_template(noisy, "terse")
    assert terse.drop_binding == pytest.approx(
        noisy.drop_binding * TEMPLATE_NOISE["terse"]["Synthetic-Noisy"]
    )
    assert under_template(noisy, "study") is noisy
    export = synthesize(
        document, noise=noisy, seed=run_seed(0, noisy.name, "L", 1, "terse"), template="terse"
    )
    assert export["analysis"]["template"] == "terse" and export["analysis"]["provider"] == "Synthetic-Noisy"
    assert export["synthetic"]["template"]["noiseFactor"] == TEMPLATE_NOISE["terse"]["Synthetic-Noisy"]
    assert "template" not in synthesize(document, noise=noisy, seed="s")["analysis"]
    assert run_seed(0, noisy.name, "L", 1) == "0:Synthetic-Noisy:L:1"  # the study's seeds as they were


def test_the_bundled_runs_of_the_other_templates_are_what_synth_writes(tmp_path, capsys):
    for name in TEMPLATE_FOLDERS:
        shutil.copytree(REPO / "validation" / name, tmp_path / name)
    for template in TEMPLATE_NOISE:
        for name in TEMPLATE_FOLDERS:
            arguments = ["synth", str(tmp_path / name), "--runs", "2", "--template", template]
            arguments += ["--profile", "Synthetic-Noisy", "--profile", "Synthetic-Sloppy"]
            assert main(arguments) == 0
            assert "0 written, 4 unchanged" in capsys.readouterr().out
    bundled = sorted(
        p.name for p in (REPO / "validation").glob("*/runs/*-*-run*.json") if "-terse-" in p.name
    )
    assert len(bundled) == 2 * len(TEMPLATE_FOLDERS) * 2  # two profiles, two runs each
