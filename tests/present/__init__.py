"""The presentation layer (qwk_explained.present): formulas, figures, worksheets, locales, the
step catalogue."""
