"""``python -m qwk_explained``: the same command line as ``qwk-explained``."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":  # pytest --doctest-modules imports this module: do not run then
    raise SystemExit(main())
