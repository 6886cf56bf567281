"""/guided, the step-by-step page's old address, kept for links shared before the rename.

The frame serves that address as a hidden page drawing ``pages/step_by_step.py``
(``qwk_app.frame.ALIASES``). This file is only for a freshly started server, which runs a
deep-linked file of ``pages/`` alone until some session has called ``st.navigation`` (and shows
"page not found" for a path with no file): ``page_guard`` runs the frame, which draws the
step-by-step page at this address.
"""

from qwk_app.frame import page_guard

page_guard()
