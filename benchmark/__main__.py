"""``python -m benchmark`` is the same program as the ``atlbench`` console script."""

from benchmark.cli import main

raise SystemExit(main())
