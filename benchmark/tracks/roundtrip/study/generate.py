"""Build the bundled round-trip data from the hand-written base domains.

For every ``S_<id>.ecore`` in the source folder: ``T_<id>.sql.xmi = forward(S)``, and for every operator
``Delta_<op>_S_<id>.ecore = apply_S(S, seed)`` and ``Delta_<op>_T_<id>.sql.xmi = apply_T(T, seed)``, the
first seed (from a per-domain start, :func:`first_seed`) whose target applies. Each pair is checked
before it is written: the T-side edit must equal the forward mapping of the S-side edit byte for byte,
and both diffs must match the operator's witnesses. ``manifest.json`` lists every case with its seed,
target and witness lines.

Everything is a function of the source files, so regenerating gives identical bytes.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.core.errors import InputFormatError
from benchmark.core.fileio import dumps_json, write_text_atomic
from benchmark.core.wording import plural
from benchmark.tracks.roundtrip.models.ecore_io import read_ecore, write_ecore
from benchmark.tracks.roundtrip.models.ecoremodel import EcorePackage
from benchmark.tracks.roundtrip.models.forward import ForwardMappingError, forward
from benchmark.tracks.roundtrip.models.lines import ecore_lines, sql_lines
from benchmark.tracks.roundtrip.models.sql_io import write_sql
from benchmark.tracks.roundtrip.models.sqlmeta import SQL_NS_URI
from benchmark.tracks.roundtrip.operators import OPERATORS, DeltaOperator, OperatorNotApplicable
from benchmark.tracks.roundtrip.operators.witness import diff_lines, witness_problems

MANIFEST_NAME = "manifest.json"
MANIFEST_FORMAT_VERSION = 1
SEED_TRIES = 64  # seeds tried per (domain, operator) before giving up
SOURCE_PATTERN = re.compile(r"^S_([A-Za-z0-9-]+)\.ecore$")
GENERATED_PATTERNS = (
    re.compile(r"^T_[A-Za-z0-9-]+\.sql\.xmi$"),
    re.compile(r"^Delta_[a-z_]+_S_[A-Za-z0-9-]+\.ecore$"),
    re.compile(r"^Delta_[a-z_]+_T_[A-Za-z0-9-]+\.sql\.xmi$"),
    re.compile(rf"^{re.escape(MANIFEST_NAME)}$"),
)


class GenerationError(InputFormatError):
    """A base domain the generator cannot turn into a full set of cases."""


def target_file(domain: str) -> str:
    return f"T_{domain}.sql.xmi"


def delta_source_file(operator: str, domain: str) -> str:
    return f"Delta_{operator}_S_{domain}.ecore"


def delta_target_file(operator: str, domain: str) -> str:
    return f"Delta_{operator}_T_{domain}.sql.xmi"


def source_domains(source_dir: Path) -> list[tuple[str, Path]]:
    """(domain id, path) of every ``S_<id>.ecore``, sorted by id."""
    found = []
    for path in sorted(source_dir.iterdir()):
        match = SOURCE_PATTERN.match(path.name)
        if match:
            found.append((match.group(1), path))
    return found


def first_seed(domain: str) -> int:
    """Where the seed search starts for a domain: a stable hash of its id, so that domains get different
    picks from the same operator (a plain 0 would give every domain the same new class name) and adding
    a domain changes no other domain's files."""
    return int.from_bytes(hashlib.sha256(domain.encode()).digest()[:4], "big") % 1000


def _delta(
    operator: DeltaOperator, domain: str, package: EcorePackage, file: Path
) -> tuple[int, Any, EcorePackage]:
    """The first seed (from :func:`first_seed` on) whose target applies on the S side."""
    reasons = []
    start = first_seed(domain)
    for seed in range(start, start + SEED_TRIES):
        try:
            target = operator.pick_s(package, seed)
            return seed, target, operator.edit_s(package, target)
        except OperatorNotApplicable as error:
            reasons.append(error.message)
            if "offers no target" in error.message:
                break
    raise GenerationError(
        f"operator {operator.name} cannot be applied to domain {domain}: {reasons[-1]}", file=str(file)
    )


def build(source_dir: Path, progress: Callable[[str], None] | None = None) -> dict[str, str]:
    """Every generated file name -> text (including the manifest), computed in memory."""
    files: dict[str, str] = {}
    domains_json: list[dict[str, Any]] = []
    cases_json: list[dict[str, Any]] = []
    sources = source_domains(source_dir)
    if not sources:
        raise GenerationError("no base domain (S_<id>.ecore) found", file=str(source_dir))
    for domain, path in sources:
        package = read_ecore(path)
        try:
            schema = forward(package)
        except ForwardMappingError as error:  # it names the element; the user also needs the file
            error.file = str(path)
            raise
        files[target_file(domain)] = write_sql(schema)
        domains_json.append(
            {
                "id": domain,
                "S": path.name,
                "T": target_file(domain),
                "classes": len(package.classes),
                "enums": len(package.enums),
                "tables": len(schema.tables),
                "sLines": len(ecore_lines(package)),
                "tLines": len(sql_lines(schema)),
            }
        )
        for operator in OPERATORS:
            seed, target, delta_package = _delta(operator, domain, package, path)
            target_t = operator.pick_t(schema, seed)
            delta_schema = operator.edit_t(schema, target_t)
            delta_text = write_sql(delta_schema)
            if target_t != target or delta_text != write_sql(forward(delta_package)):
                raise RuntimeError(f"commutation law broken by {operator.name} on {domain} (seed {seed})")
            s_diff = diff_lines(ecore_lines(package), ecore_lines(delta_package))
            t_diff = diff_lines(sql_lines(schema), sql_lines(delta_schema))
            problems = witness_problems(operator, "S", target, s_diff) + witness_problems(
                operator, "T", target, t_diff
            )
            if problems:
                raise RuntimeError(f"{domain}: " + "; ".join(problems))
            files[delta_source_file(operator.name, domain)] = write_ecore(delta_package)
            files[delta_target_file(operator.name, domain)] = delta_text
            cases_json.append(
                {
                    "id": f"{domain}/{operator.name}",
                    "domain": domain,
                    "operator": operator.name,
                    "seed": seed,
                    "target": list(target),
                    "targetParts": list(operator.target_parts),
                    "S": path.name,
                    "T": target_file(domain),
                    "deltaS": delta_source_file(operator.name, domain),
                    "deltaT": delta_target_file(operator.name, domain),
                    "witness": {"S": s_diff.to_json(), "T": t_diff.to_json()},
                }
            )
        if progress is not None:
            classes = plural(len(package.classes), "class", "classes")
            sizes = f"{classes} -> {plural(len(schema.tables), 'table')}"
            progress(f"{domain}: {sizes}, {plural(len(OPERATORS), 'delta')}")
    files[MANIFEST_NAME] = dumps_json(
        {
            "formatVersion": MANIFEST_FORMAT_VERSION,
            "track": "roundtrip",
            "generatedBy": "atlbench roundtrip generate",
            "sqlNsURI": SQL_NS_URI,
            "operators": [op.name for op in OPERATORS],
            "domains": domains_json,
            "cases": cases_json,
        }
    )
    return files


@dataclass
class GenerationReport:
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    copied: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


def _is_generated_name(name: str) -> bool:
    return any(pattern.match(name) for pattern in GENERATED_PATTERNS)


def generate(
    source_dir: Path, out_dir: Path | None = None, progress: Callable[[str], None] | None = None
) -> GenerationReport:
    """Write the generated files into ``out_dir`` (default: the source folder).

    A different ``out_dir`` also receives copies of the base domains, so it is a complete data folder.
    Generated-looking files that the sources no longer produce are removed (and reported).
    """
    out_dir = out_dir or source_dir
    files = build(source_dir, progress)
    report = GenerationReport()
    out_dir.mkdir(parents=True, exist_ok=True)
    if out_dir.resolve() != source_dir.resolve():
        for _, path in source_domains(source_dir):
            data = path.read_bytes()
            destination = out_dir / path.name
            if not destination.exists() or destination.read_bytes() != data:
                destination.write_bytes(data)
            report.copied.append(path.name)
    for name, text in sorted(files.items()):
        destination = out_dir / name
        if destination.exists() and destination.read_bytes() == text.encode("utf-8"):
            report.unchanged.append(name)
            continue
        write_text_atomic(destination, text)
        report.written.append(name)
    for path in sorted(out_dir.iterdir()):
        if path.is_file() and _is_generated_name(path.name) and path.name not in files:
            path.unlink()
            report.removed.append(path.name)
    return report


def check(source_dir: Path, data_dir: Path | None = None) -> list[str]:
    """Differences between what ``generate`` would write and ``data_dir`` (empty: up to date)."""
    data_dir = data_dir or source_dir
    files = build(source_dir)
    problems = []
    for name, text in sorted(files.items()):
        path = data_dir / name
        if not path.exists():
            problems.append(f"{name}: missing")
        elif path.read_bytes() != text.encode("utf-8"):
            problems.append(f"{name}: differs from a fresh generation")
    for path in sorted(data_dir.iterdir()):
        if path.is_file() and _is_generated_name(path.name) and path.name not in files:
            problems.append(f"{path.name}: stale (no base domain produces it)")
    return problems
