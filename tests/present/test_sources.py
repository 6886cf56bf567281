"""The reference list in the reader's citation style (review es M5).

Sources of truth: APA 7 and its Spanish and Turkish editions ("y"/"ve" between the last two
authors without a comma, "2.ª ed.", "2. bs."); the titles stay as published.
"""

from __future__ import annotations

import pytest

from qwk_explained.present import sources
from qwk_explained.present.languages import LANGUAGES

_BY_CODE = {reference.code: reference for reference in sources.REFERENCES}


@pytest.mark.parametrize(("lang", "landis", "fleiss"), [
    ("en", "Landis, J. R., & Koch, G. G. (1977)", "Proportions (2nd ed.)"),
    ("es", "Landis, J. R. y Koch, G. G. (1977)", "Proportions (2.ª ed.)"),
    ("tr", "Landis, J. R. ve Koch, G. G. (1977)", "Proportions (2. bs.)"),
    ("zh", "Landis, J. R., & Koch, G. G. (1977)", "Proportions (2nd ed.)")])
def test_the_citation_style_follows_the_reader(lang: str, landis: str, fleiss: str) -> None:
    assert sources.cite(_BY_CODE["landis1977"], lang).startswith(landis)
    assert fleiss in sources.cite(_BY_CODE["fleiss1981"], lang)
    three = sources.cite(_BY_CODE["fleiss1969"], lang)
    assert three.startswith("Fleiss, J. L., Cohen, J.") and "Everitt, B. S. (1969)" in three


@pytest.mark.parametrize("lang", ["es", "tr"])
def test_no_english_style_word_is_left_in_a_translated_reference_list(lang: str) -> None:
    for reference in sources.REFERENCES:
        cited = sources.cite(reference, lang)
        assert "&" not in cited and "ed.)" not in cited.replace("ª ed.)", ""), cited


def test_titles_are_never_translated() -> None:
    for lang in LANGUAGES:
        for reference in sources.REFERENCES:
            title = reference.citation.split("). ", 1)[-1][:30]
            assert title in sources.cite(reference, lang)
