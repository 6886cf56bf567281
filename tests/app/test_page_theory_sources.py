"""The theory page names its sources and says what the data say about the interpretation scales.

Sources of truth: the five documents the app grew from (Aman Arora's Spanish Kaggle notebook
"Quadratic Kappa Metric explained in 5 simple steps", the English PANDA notebook "Quadratic
Weighted Kappa", a Chinese blog post, a Turkish notebook and a Spanish note "Coeficiente Kappa",
listed in ``qwk_explained.present.sources``), the published works the app relies on, and the
algebra of the caveat: with D the unweighted and Q the quadratic disagreement (observed o,
expected by chance e), quadratic kappa is below unweighted kappa exactly when Q_o / D_o >
Q_e / D_e, i.e. when the observed disagreements lie farther apart, on average, than those chance
would produce.
"""

from __future__ import annotations

import numpy as np
import pytest

from qwk_app.references import references_markdown, sources_markdown
from qwk_explained import walkthrough
from qwk_explained.present import sources
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching import theory
from qwk_explained.teaching.examples import BY_NAME
from tests.app.helpers import assert_clean, open_app


def _caveat_texts(at) -> list[str]:
    return [m.value for m in at.markdown]


@pytest.mark.parametrize(("example", "variant"), [
    ("seed_es", "lower"),            # -0.1392 against 0.3023: far misses dominate
    ("seed_zh", "higher"),           # 0.8724 against 0.75: near misses
    ("full_disagreement", "equal"),  # -1 and -1: two ratings used, all disagreements alike
    ("constant", "undefined"),       # every rating the same: no kappa at all
])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_scales_caveat_follows_the_data(lang: str, example: str, variant: str) -> None:
    data = BY_NAME[example]
    at = open_app("theory", lang=lang, actual=",".join(map(str, data.actual)),
                  predicted=",".join(map(str, data.predicted)))
    assert_clean(at)
    values = theory.kappa_by_weighting(walkthrough(data.actual, data.predicted))

    def shown(kappa: float | None) -> str:
        return t(lang, "common.undefined") if kappa is None else format_number(kappa, lang)

    expected = t(lang, f"theory.scales_caveat.{variant}", quadratic=shown(values["quadratic"]),
                 unweighted=shown(values["unweighted"]))
    assert expected in _caveat_texts(at)
    others = {"higher", "lower", "equal", "undefined"} - {variant}
    for other in others:
        assert t(lang, f"theory.scales_caveat.{other}", quadratic=shown(values["quadratic"]),
                 unweighted=shown(values["unweighted"])) not in _caveat_texts(at)


def test_the_lower_sentence_gives_the_exact_reason() -> None:
    """Over random tables: quadratic < unweighted exactly when the mean quadratic weight of the
    observed disagreements exceeds that of the chance disagreements (the sentence's "why")."""
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(400):
        size = int(rng.integers(3, 7))
        actual = rng.integers(0, size, 30)
        predicted = np.clip(actual + rng.integers(-3, 4, 30), 0, size - 1)
        result = walkthrough(actual, predicted, min_rating=0, max_rating=size - 1)
        off = ~np.eye(result.size, dtype=bool)
        d_o, d_e = result.observed_norm[off].sum(), result.expected_norm[off].sum()
        if d_o == 0 or d_e == 0 or result.kappa is None:
            continue
        unweighted = 1 - d_o / d_e
        farther = result.numerator / d_o > result.denominator / d_e
        if not np.isclose(result.kappa, unweighted):
            assert (result.kappa < unweighted) == farther
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_reference_list_cites_every_work_and_source(lang: str) -> None:
    at = open_app("theory", lang=lang)
    bodies = [m.value for m in at.markdown]
    assert references_markdown(lang) in bodies and sources_markdown(lang) in bodies
    assert t(lang, "theory.references_heading") in [h.value for h in at.header]
    for ref in sources.REFERENCES:
        assert t(lang, f"theory.ref.{ref.code}") in references_markdown(lang)
        assert ref.link is None or f"]({ref.link})" in references_markdown(lang)
    for source in sources.SOURCES:
        if source.example:
            # Each document is tied to the example button it gave, by that button's label.
            assert t(lang, f"presets.{source.example}") in sources_markdown(lang)
        assert source.link is None or f"]({source.link})" in sources_markdown(lang)


def test_references_cite_the_works_the_page_relies_on() -> None:
    """Every author and year the app quotes in its sentences is in the reference list."""
    citations = " ".join(ref.citation for ref in sources.REFERENCES)
    for name, year in [("Cohen, J.", "1960"), ("Cohen, J.", "1968"),
                       ("Fleiss, J. L., Cohen, J., & Everitt, B. S.", "1969"),
                       ("Landis, J. R., & Koch, G. G.", "1977"), ("Fleiss, J. L.", "1981"),
                       ("Lin, L. I.-K.", "1989"), ("Feinstein, A. R., & Cicchetti", "1990"),
                       ("Altman, D. G.", "1991"), ("Hamner, B.", "Metrics")]:
        assert any(name in ref.citation and year in ref.citation for ref in sources.REFERENCES)
    # The three interpretation scales the page shows are cited with the years it prints.
    assert all(str(year) in citations for year in theory.SCALE_YEARS.values())
