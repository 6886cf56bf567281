"""The Streamlit side of qwk-explained: frame, shared state, inputs and step renderers.

Kept apart from :mod:`qwk_explained`, which stays free of Streamlit so the engine and the CLI run
anywhere. Pages in ``pages/`` import from here and never do maths themselves.
"""
