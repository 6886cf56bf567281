"""The Streamlit side of qwk-explained: frame, shared state, inputs and step renderers.

Kept apart from :mod:`qwk_explained`, which stays free of Streamlit so the engine and the CLI run
anywhere. Pages in ``pages/`` import from here and never do maths themselves.
"""

from __future__ import annotations

from pathlib import Path

#: The checkout: ``app.py``, ``pages/`` and ``.streamlit/config.toml`` are read from here.
ROOT = Path(__file__).resolve().parent.parent
