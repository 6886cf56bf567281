"""qwk-explained: the Streamlit entry point (``streamlit run app.py``).

The frame (language, shared settings, navigation, URL state) lives in :mod:`qwk_app.frame`; each
page is a file in ``pages/``.
"""

from qwk_app import frame

frame.run()
