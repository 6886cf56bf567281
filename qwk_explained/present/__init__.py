"""Everything a reader sees: languages and translations, numbers, LaTeX formulas, plotly figures
(``figures`` imports plotly, so it is imported only where figures are drawn), the one outline of
a written walkthrough (``outline``) with its Markdown and plain text (``markup``), worksheets, the
checker's sentences and the step catalogue every surface iterates.

Built on :mod:`qwk_explained.core` and :mod:`qwk_explained.teaching`.
"""
