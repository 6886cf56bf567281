"""The engine: from ratings to every step of weighted kappa, and its statistics.

Pure Python and numpy. It imports nothing from the layers above it (``teaching``, ``present``,
``cli``) and never builds a sentence: problems are :class:`~.errors.InputError` codes.

Modules, in the order data flows through them: ``parse`` (text), ``csvfile`` (files), ``tables``
(contingency tables), ``validate`` (arrays), ``scale`` (the rating labels), ``counting`` (O in one
pass), ``weights`` (w), ``steps`` (every step: O, w, histograms, E, normalization, num/den,
kappa), ``stats`` (SE, z, p, CI), ``fast`` (kappa alone).
"""
