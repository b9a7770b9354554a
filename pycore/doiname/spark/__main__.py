"""``python -m doiname.spark``: see :mod:`doiname.spark.cli`."""

from doiname.spark.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
