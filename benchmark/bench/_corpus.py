"""The corpus of the ``parse`` and ``extract`` benchmarks: every ``.atl`` file below a directory.

Both benchmarks find their files and count their bytes here, so that the two report the same corpus the
same way. Bytes are the files' sizes on disk: that is what a MB/s figure is read against, and counting
the decoded text again (re-encoded as UTF-8) would count a cp1252 comment's characters twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from benchmark.core.errors import ConfigurationError


@dataclass(frozen=True)
class AtlCorpus:
    directory: Path
    files: tuple[str, ...]
    #: Total size of ``files`` in bytes, as stored.
    size: int

    @classmethod
    def below(cls, directory: Path) -> AtlCorpus:
        """The ``.atl`` files below ``directory``, sorted; an error when there is none."""
        if not directory.is_dir():
            raise ConfigurationError("not a directory", file=directory)
        paths = sorted(path for path in directory.rglob("*.atl") if path.is_file())
        if not paths:
            raise ConfigurationError("no .atl file below this directory", file=directory)
        return cls(directory, tuple(str(path) for path in paths), sum(path.stat().st_size for path in paths))

    def describe(self) -> str:
        """The ``corpus``, ``files`` and ``bytes`` lines both benchmarks start with."""
        return f"corpus: {self.directory}\nfiles: {len(self.files)}\nbytes: {self.size}"
