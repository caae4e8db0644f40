"""USE's own test suite as a differential test of the OCL judge (read from a local checkout only).

``ATLBENCH_USE_SOURCES`` names a checkout of https://github.com/useocl/use; nothing of it is bundled.
:mod:`use_suite.formats` reads USE's expectation files, :mod:`use_suite.replay` runs them on our judge,
:mod:`use_suite.categories` names the reason of each difference, :mod:`use_suite.figures` counts.
``PYTHONPATH=tests/support python -m use_suite [PATH]`` prints the figures and every difference.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "ATLBENCH_USE_SOURCES"


def use_sources() -> Path | None:
    """The USE checkout named by ``ATLBENCH_USE_SOURCES``, or None when the variable is unset or empty."""
    value = os.environ.get(ENV_VAR, "").strip()
    return Path(value) if value else None
