"""``python -m doiname``: the command line (see :mod:`doiname.cli`)."""

from .cli import main

raise SystemExit(main())
