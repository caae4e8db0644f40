"""``atlbench ocl``: check object states, evaluate OCL, convert and transform models, synthetic runs.

* ``atlbench ocl check MODEL STATE [--constraints FILE] [--json]`` -- structure and every invariant,
  OK or FAILED, as USE's ``check``; exit 1 when anything failed.
* ``atlbench ocl eval MODEL STATE 'EXPR' [--json]`` -- the value and its type, printed like USE
  (``Set{1,2} : Set(Integer)``); an expression may start with ``-`` (``'-(3-(8+4))'``), no ``--`` needed.
* ``atlbench ocl convert FILE --to use|puml [-o OUT]`` -- between the two model notations.
* ``atlbench ocl transform --mode MODE MODEL.use [--constraints F.ocl] [--states S.soil ...]``
  ``[--spec specification.json] [--seed N] --out DIR``, or ``--dataset DIR`` instead of the model and its
  files -- a meaning-preserving transformation of the robustness study
  (:mod:`benchmark.tracks.ocl.transform`).
* ``atlbench ocl synth [--root DIR] [--seed N]`` -- the track's synthetic noisy runs
  (:mod:`benchmark.tracks.ocl.synth`), written below ``DIR/runs/``.

MODEL is a ``.use`` or PlantUML (``.puml``) file, STATE a SOIL file. Input errors print as
``FILE:LINE:COL: error: ...`` and exit 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_OK = 0
EXIT_FAILED = 1

# Marks an argument that starts with `-` but is a positional; argv cannot contain NUL, so no real
# argument starts with it.
_POSITIONAL_MARK = "\0"


class _DashPositionalParser(argparse.ArgumentParser):
    """An argument parser on which an argument that starts with a single ``-`` but is none of the
    parser's options is a positional: the expression ``-(3-(8+4))`` of ``ocl eval`` (argparse alone
    takes it for an unknown option and wants ``--`` before it; it only lets ``-5`` through)."""

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def,override]
        arguments = list(sys.argv[1:] if args is None else args)
        if "--" in arguments:  # the user separated positionals already
            return super().parse_known_args(arguments, namespace)
        marked = [_POSITIONAL_MARK + a if self._is_dash_positional(a) else a for a in arguments]
        parsed, extras = super().parse_known_args(marked, namespace)
        for key, value in vars(parsed).items():
            if isinstance(value, str) and value.startswith(_POSITIONAL_MARK):
                setattr(parsed, key, value[len(_POSITIONAL_MARK) :])
        return parsed, [a[len(_POSITIONAL_MARK) :] if a.startswith(_POSITIONAL_MARK) else a for a in extras]

    def _is_dash_positional(self, argument: str) -> bool:
        if not argument.startswith("-") or argument.startswith("--") or argument == "-":
            return False
        return argument[:2] not in self._option_string_actions  # `-h`, `-oOUT` stay options


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from benchmark.core.wording import plain_text

    parser = subparsers.add_parser(
        "ocl",
        help="OCL track: check states, evaluate OCL, convert models",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(
        dest="ocl_command", metavar="SUBCOMMAND", required=True, parser_class=_DashPositionalParser
    )

    check = commands.add_parser("check", help="check a SOIL state against the model's invariants")
    check.add_argument("model", type=Path, help="model file (.use or .puml)")
    check.add_argument("state", type=Path, help="object state (.soil)")
    check.add_argument(
        "--constraints",
        type=Path,
        action="append",
        default=[],
        help="extra invariants (context C inv n: expr ...); may be repeated",
    )
    check.add_argument("--json", action="store_true", help="print {invariants, structure} as JSON")
    check.set_defaults(handler=run_check)

    evaluate = commands.add_parser("eval", help="evaluate an OCL expression in a SOIL state")
    evaluate.add_argument("model", type=Path, help="model file (.use or .puml)")
    evaluate.add_argument("state", type=Path, help="object state (.soil)")
    evaluate.add_argument("expression", help="OCL expression; objects are in scope by name")
    evaluate.add_argument("--json", action="store_true", help='print {"type": ..., "value": ...}')
    evaluate.set_defaults(handler=run_eval)

    convert = commands.add_parser("convert", help="convert a model between .use and PlantUML")
    convert.add_argument("file", type=Path, help="model file (.use or .puml)")
    convert.add_argument("--to", required=True, choices=["use", "puml"], help="output notation")
    convert.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
    convert.set_defaults(handler=run_convert)

    from benchmark.core.options import add_to_argparse
    from benchmark.tracks.ocl.options import SEED
    from benchmark.tracks.ocl.transform.modes import MODES

    transform = commands.add_parser(
        "transform", help="rename or reify model elements, rewriting constraints, states and specification"
    )
    transform.add_argument("model", type=Path, nargs="?", help="model file (.use); or use --dataset")
    transform.add_argument("--mode", required=True, choices=list(MODES), help="transformation mode")
    transform.add_argument(
        "--constraints",
        type=Path,
        action="append",
        default=[],
        help="constraints file (.ocl); may be repeated",
    )
    transform.add_argument(
        "--states", type=Path, nargs="+", action="extend", default=[], help="object states (.soil)"
    )
    transform.add_argument("--spec", type=Path, help="specification.json (model -> constraint id -> entry)")
    transform.add_argument("--dataset", type=Path, help="transform every model of this dataset directory")
    add_to_argparse(transform, [SEED.spelled("--seed")])
    transform.add_argument(
        "--association-as",
        choices=["class", "association-class"],
        default="class",
        help="what association reification makes of an association: a class with two associations "
        "(default, the track's modes) or an association class",
    )
    transform.add_argument("--out", type=Path, required=True, help="output directory")
    transform.set_defaults(handler=run_transform)

    synth = commands.add_parser(
        "synth", help="write the synthetic noisy runs of the OCL track (runs/Synthetic-*/RUN/MODE.json)"
    )
    synth.add_argument("--root", type=Path, help="the OCL dataset (default: validation/ocl)")
    add_to_argparse(synth, [SEED.spelled("--seed")])
    synth.add_argument(
        "--template",
        default="study",
        choices=("study", "terse", "stepwise"),
        help="the prompt template the runs pretend to answer: another than study (the default) writes the "
        "made-up template-sensitive profiles below runs/<provider>/<template>/",
    )
    synth.add_argument(
        "--model", dest="models", action="append", default=[], help="only this dataset model (repeatable)"
    )
    synth.add_argument(
        "--mode",
        dest="modes",
        action="append",
        default=[],
        choices=["original", *MODES],
        help="only this mode (repeatable)",
    )
    synth.set_defaults(handler=run_synth)


def _engine(model: Path, constraints: list[Path] | None = None):  # type: ignore[no-untyped-def]
    from benchmark.core.errors import InputFormatError
    from benchmark.lang.ocl.engine import OclEngine

    if not model.is_file():
        raise InputFormatError("no such model file", file=str(model))
    engine = OclEngine.from_file(model)
    for path in constraints or []:
        if not path.is_file():
            raise InputFormatError("no such constraints file", file=str(path))
        engine.add_constraints_file(path)
    return engine


def _state(engine, path: Path):  # type: ignore[no-untyped-def]
    return _soil(engine, path).state


def _soil(engine, path: Path):  # type: ignore[no-untyped-def]
    from benchmark.core.errors import InputFormatError

    if not path.is_file():
        raise InputFormatError("no such state file", file=str(path))
    result = engine.load_soil(path)
    if result.skipped:
        lines = ", ".join(str(n) for n, _ in result.skipped)
        print(
            f"{path}: note: ignored {len(result.skipped)} command(s) that do not change the state "
            f"(line {lines})",
            file=sys.stderr,
        )
    return result


def run_check(args: argparse.Namespace) -> int:
    from benchmark.core.fileio import dumps_json

    engine = _engine(args.model, args.constraints)
    state = _state(engine, args.state)
    report = engine.check(state)
    sys.stdout.write(dumps_json(report.to_json()) if args.json else report.to_text())
    return EXIT_OK if report.ok else EXIT_FAILED


def run_eval(args: argparse.Namespace) -> int:
    from benchmark.core.fileio import dumps_json

    engine = _engine(args.model)
    soil = _soil(engine, args.state)
    compiled = engine.compile(args.expression, soil.state, soil_variables=soil.variables, file="<expression>")
    result = engine.evaluate(compiled, soil.state, soil.variables)
    sys.stdout.write(dumps_json(result.to_json()) if args.json else result.text + "\n")
    return EXIT_OK


def run_convert(args: argparse.Namespace) -> int:
    from benchmark.core.errors import ConfigurationError, InputFormatError
    from benchmark.core.fileio import write_text_atomic
    from benchmark.lang.ocl.engine import OclEngine
    from benchmark.lang.ocl.puml_io import write_puml
    from benchmark.lang.ocl.use_io import write_use

    if not args.file.is_file():
        raise InputFormatError("no such model file", file=str(args.file))
    model = OclEngine.from_file(args.file).model  # compiling checks the OCL parts too
    text = write_use(model) if args.to == "use" else write_puml(model)
    if args.output is not None:
        try:
            write_text_atomic(args.output, text)
        except OSError as error:
            raise ConfigurationError(
                f"cannot write: {error.strerror or error}", file=str(args.output), field="-o"
            ) from None
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _seed(args: argparse.Namespace) -> int:
    """``--seed``: the track's ``--ocl-seed`` under the sub-command's spelling (same parser, same message)."""
    from benchmark.core.options import read_argparse
    from benchmark.tracks.ocl.options import SEED

    return read_argparse(args, [SEED.spelled("--seed")])["seed"]


def run_transform(args: argparse.Namespace) -> int:
    from benchmark.core.errors import ConfigurationError, InputFormatError
    from benchmark.core.fileio import dumps_json
    from benchmark.tracks.ocl.transform.dataset import transform_dataset
    from benchmark.tracks.ocl.transform.files import load, single_model_files, transform_loaded, write_output
    from benchmark.tracks.ocl.transform.spec import read_specification

    seed = _seed(args)
    if (args.model is None) == (args.dataset is None):
        raise ConfigurationError("give either a MODEL.use or --dataset DIR", field="MODEL")
    form = args.association_as.replace("-", "_")
    if args.dataset is not None:
        if args.constraints or args.states or args.spec:
            raise ConfigurationError(
                "--constraints, --states and --spec come from the dataset; do not give them with --dataset",
                field="--dataset",
            )
        results = transform_dataset(args.dataset, args.mode, seed, args.out, association_form=form)
        for name, result in results:
            print(f"{name}: {_summary(result.mapping)}")
        print(f"wrote {len(results)} model(s) to {args.out}")
        return EXIT_OK
    for path, what in [
        (args.model, "model"),
        *((p, "constraints") for p in args.constraints),
        *((p, "state") for p in args.states),
        *([(args.spec, "specification")] if args.spec else []),
    ]:
        if not path.is_file():
            raise InputFormatError(f"no such {what} file", file=str(path))
    sibling = args.model.with_suffix(".puml")
    files = single_model_files(
        args.model, args.constraints, args.states, puml=sibling if sibling.is_file() else None
    )
    spec = read_specification(args.spec) if args.spec else None
    loaded = load(files, spec, str(args.spec or ""))
    result = transform_loaded(loaded, args.mode, seed, args.out, association_form=form)
    if spec is not None:
        data = result.spec if result.spec_key is None else {result.spec_key: result.spec}
        write_output(args.out / "transformed_specification.json", dumps_json(data))
    write_output(args.out / "mapping.json", dumps_json(result.mapping.to_json()))
    print(f"{result.mapping.model}: {_summary(result.mapping)}")
    print(f"wrote {args.out}")
    return EXIT_OK


def run_synth(args: argparse.Namespace) -> int:
    from benchmark.tracks.ocl.dataset import load_dataset
    from benchmark.tracks.ocl.synth import write_synthetic_runs

    seed = _seed(args)  # the options are checked before any file is read
    dataset = load_dataset(args.root)
    written = write_synthetic_runs(dataset, seed, args.template, args.models, args.modes)
    print(f"wrote {len(written)} synthetic run file(s) below {dataset.root / 'runs'}")
    return EXIT_OK


def _summary(mapping) -> str:  # type: ignore[no-untyped-def]
    data = mapping.to_json()
    renamed = sum(len(v) for v in data["renamed"].values())
    return (
        f"{renamed} element(s) renamed, {len(data['reified_attributes'])} attribute(s) and "
        f"{len(data['reified_associations'])} association(s) reified"
    )
