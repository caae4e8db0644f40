"""``python -m benchmark.bench``: see :mod:`benchmark.bench`."""

from benchmark.bench import main

raise SystemExit(main())
