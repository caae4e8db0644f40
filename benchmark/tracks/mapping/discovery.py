"""A validation tree on disk: transformation folders, their metamodels and their suggestion files.

``atlbench validate`` and the pytest plugin read the same layout through this module: every direct
subfolder of the root that holds exactly one ``.atl`` file is a transformation (the ground truth); its
metamodels are the ``.ecore``/``.km3`` files anywhere below it, and its runs are the ``*.json`` files
anywhere below it. Folders without exactly one ``.atl`` file belong to other tracks and are skipped by
rule, but always reported, as are files under hidden directories and run or metamodel files lying
directly in the root (other than the manifest of a tree built from the ATL Zoo); a suggestion file of a
valid folder is never lost (a file that cannot be scored becomes an error row naming the reason).

Which of its metamodels is the source and which the target is the ground truth's to say
(:mod:`benchmark.tracks.mapping.ground_truth`); the cases of a session are :mod:`.collection`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmark.core.errors import BenchmarkError

METAMODEL_SUFFIXES = (".ecore", ".km3")  # in order of preference for twins of one metamodel
SUGGESTION_SUFFIX = ".json"
#: The manifest ``atlbench zoo build`` writes beside the task folders (:mod:`.zoo.manifest`): not a run.
TREE_MANIFEST = "zoo-manifest.json"


class CorpusError(BenchmarkError):
    """A validation tree that cannot be read as documented (a missing root, ambiguous metamodels...)."""


# ------------------------------------------------------------------------------------- discovery


@dataclass(frozen=True)
class TransformationFolder:
    """One transformation: its folder, ATL file, metamodel files and suggestion files (sorted), and the
    metamodel or suggestion files left out because they sit under a hidden directory."""

    name: str
    path: Path
    atl_file: Path
    metamodel_files: tuple[Path, ...] = ()
    suggestion_files: tuple[Path, ...] = ()
    hidden_files: tuple[Path, ...] = ()

    def run_id(self, suggestion_file: Path) -> str:
        """The run's name: the file's path below the folder without ``.json`` (``runs/Claude-run03``)."""
        return suggestion_file.relative_to(self.path).with_suffix("").as_posix()


@dataclass(frozen=True)
class Skipped:
    """A folder or file left out by rule, with the rule."""

    path: Path
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"path": str(self.path), "reason": self.reason}


@dataclass(frozen=True)
class Discovery:
    root: Path
    transformations: tuple[TransformationFolder, ...]
    skipped_folders: tuple[Skipped, ...] = ()
    ignored_files: tuple[Skipped, ...] = ()


def _hidden(path: Path, base: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(base).parts)


def files_below(folder: Path, suffixes: Sequence[str]) -> tuple[list[Path], list[Path]]:
    """(visible, hidden) regular files below ``folder`` with one of ``suffixes``, sorted."""
    visible: list[Path] = []
    hidden: list[Path] = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix.lower() in suffixes:
            (hidden if _hidden(path, folder) else visible).append(path)
    return visible, hidden


def _atl_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() == ".atl")


def inspect_folder(folder: Path) -> TransformationFolder | Skipped:
    """A transformation folder, or the reason ``folder`` is not one."""
    atl_files = _atl_files(folder)
    if len(atl_files) != 1:
        found = ", ".join(p.name for p in atl_files)
        reason = "no .atl file" if not atl_files else f"{len(atl_files)} .atl files ({found}); expected one"
        return Skipped(folder, reason)
    visible, hidden = files_below(folder, (*METAMODEL_SUFFIXES, SUGGESTION_SUFFIX))
    return TransformationFolder(
        name=folder.name,
        path=folder,
        atl_file=atl_files[0],
        metamodel_files=tuple(p for p in visible if p.suffix.lower() in METAMODEL_SUFFIXES),
        suggestion_files=tuple(p for p in visible if p.suffix.lower() == SUGGESTION_SUFFIX),
        hidden_files=tuple(hidden),
    )


def discover(root: str | Path) -> Discovery:
    """Every transformation folder of a validation tree (``root`` itself when it holds one ``.atl``)."""
    root = Path(root)
    if not root.is_dir():
        raise CorpusError("validation root is not a directory", file=root)
    candidates = [root] if len(_atl_files(root)) == 1 else None
    if candidates is None:
        candidates = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    transformations: list[TransformationFolder] = []
    skipped: list[Skipped] = []
    ignored: list[Skipped] = []
    for folder in candidates:
        found = inspect_folder(folder)
        if isinstance(found, Skipped):
            skipped.append(found)
            continue
        transformations.append(found)
        ignored.extend(Skipped(p, "inside a hidden directory") for p in found.hidden_files)
    if candidates != [root]:
        entries = sorted(root.iterdir())
        skipped.extend(
            Skipped(p, "hidden directory") for p in entries if p.is_dir() and p.name.startswith(".")
        )
        ignored.extend(
            Skipped(p, "not inside a transformation folder")
            for p in entries
            if p.is_file()
            and p.suffix.lower() in (SUGGESTION_SUFFIX, *METAMODEL_SUFFIXES)
            and p.name != TREE_MANIFEST
        )
    return Discovery(root, tuple(transformations), tuple(skipped), tuple(ignored))
