"""Lists of metamodel pairs (``SOURCE<TAB>TARGET`` per line), shared by the CLI and the speed benchmark.

Line ``n`` (1-based) of a list is pair number ``n - 1``, whose output is ``NNN.json`` (``000.json`` for
the first line). Blank lines and lines starting with ``#`` are not pairs; they keep their number, so
that output names always point back at the list's lines. Relative paths are resolved against the list
file's directory, so a list can travel with its metamodels.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from benchmark.core.errors import BenchmarkError, InputFormatError
from benchmark.core.wording import plural

ENGINE_ALIASES = {"emfcompare": "EMFCompare", "name-equality": "NameEquality"}


@dataclass(frozen=True)
class PairSpec:
    """One line of a pairs list."""

    list_file: str
    line: int
    source: Path
    target: Path

    @property
    def output_name(self) -> str:
        return f"{self.line - 1:03d}.json"


def read_pairs(list_file: str | Path) -> tuple[list[PairSpec], list[BenchmarkError]]:
    """The pairs of a list file, and one error (with file and line) per malformed line."""
    file = str(list_file)
    try:
        text = Path(list_file).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputFormatError("no such pairs list", file=file) from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputFormatError(f"cannot read pairs list: {error}", file=file) from None
    base = Path(list_file).resolve().parent
    pairs: list[PairSpec] = []
    errors: list[BenchmarkError] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 2 or not fields[0].strip() or not fields[1].strip():
            errors.append(
                InputFormatError(
                    f"expected SOURCE<TAB>TARGET, found {plural(len(fields), 'tab-separated field')}: "
                    f"{line!r}",
                    file=file,
                    line=number,
                )
            )
            continue
        source, target = (base / Path(f.strip()) for f in fields)
        pairs.append(PairSpec(file, number, source, target))
    return pairs, errors


def engine_name(name: str) -> str:
    """The registry name (``EMFCompare``) for a command-line engine name (``emfcompare``)."""
    return ENGINE_ALIASES.get(name, name)
