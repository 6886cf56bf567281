"""What the app cites: the published works behind each claim, and the documents its examples
come from, each named as a reader can find it.

A bibliography entry keeps its titles in their own language, as in any reference list; only
the words of the citation style follow the reader's (:func:`cite`: "y" for "&" and "2.ª ed."
in Spanish). What each work is used for, and what each example document is, are sentences in
the locales (``theory.ref.<code>``, ``theory.source.<code>``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from qwk_explained.teaching.examples import ExampleName

from .i18n import t

#: The published works (``theory.ref.<code>`` in the locales).
ReferenceCode = Literal["cohen1960", "cohen1968", "fleiss1969", "landis1977", "fleiss1981",
                        "lin1989", "feinstein1990", "altman1991", "hamner"]
#: The documents the project grew from (``theory.source.<code>`` in the locales).
SourceCode = Literal["petfinder_es", "panda_en", "blog_zh", "notebook_tr", "note_es"]


@dataclass(frozen=True)
class Reference:
    """A published work: ``theory.ref.<code>`` says what the app takes from it; ``citation`` is
    written in APA's English style (:func:`cite` writes it in the reader's)."""

    code: ReferenceCode
    citation: str
    link: str | None = None


@dataclass(frozen=True)
class Source:
    """A document an example comes from: ``theory.source.<code>`` says what it is, ``example`` is
    the preset built from its worked example (``teaching.examples``), ``title`` its own heading
    where it has one, ``link`` where the document itself names its address."""

    code: SourceCode
    title: str | None = None
    example: ExampleName | None = None
    link: str | None = None


REFERENCES: tuple[Reference, ...] = (
    Reference("cohen1960", "Cohen, J. (1960). A coefficient of agreement for nominal scales. "
              "Educational and Psychological Measurement, 20(1), 37–46.",
              "https://doi.org/10.1177/001316446002000104"),
    Reference("cohen1968", "Cohen, J. (1968). Weighted kappa: nominal scale agreement with "
              "provision for scaled disagreement or partial credit. Psychological Bulletin, "
              "70(4), 213–220.", "https://doi.org/10.1037/h0026256"),
    Reference("fleiss1969", "Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample "
              "standard errors of kappa and weighted kappa. Psychological Bulletin, 72(5), "
              "323–327.", "https://doi.org/10.1037/h0028106"),
    Reference("landis1977", "Landis, J. R., & Koch, G. G. (1977). The measurement of observer "
              "agreement for categorical data. Biometrics, 33(1), 159–174.",
              "https://doi.org/10.2307/2529310"),
    Reference("fleiss1981", "Fleiss, J. L. (1981). Statistical Methods for Rates and "
              "Proportions (2nd ed.). New York: Wiley."),
    Reference("lin1989", "Lin, L. I.-K. (1989). A concordance correlation coefficient to "
              "evaluate reproducibility. Biometrics, 45(1), 255–268.",
              "https://doi.org/10.2307/2532051"),
    Reference("feinstein1990", "Feinstein, A. R., & Cicchetti, D. V. (1990). High agreement but "
              "low kappa: I. The problems of two paradoxes. Journal of Clinical Epidemiology, "
              "43(6), 543–549.", "https://doi.org/10.1016/0895-4356(90)90158-L"),
    Reference("altman1991", "Altman, D. G. (1991). Practical Statistics for Medical Research. "
              "London: Chapman and Hall."),
    Reference("hamner", "Hamner, B. Metrics: machine learning evaluation metrics. GitHub: "
              "benhamner/Metrics.", "https://github.com/benhamner/Metrics"),
)

def cite(reference: Reference, lang: str) -> str:
    """``reference``'s citation with the style's own words in ``lang``: the "&" between authors
    and the edition, as a reference list in that language writes them ("Landis, J. R. y Koch,
    G. G. (1977)", "(2.ª ed.)": no comma before a word, as APA's Spanish and Turkish editions
    write it); names and titles stay as published."""
    word = t(lang, "theory.citation_and")
    return (reference.citation.replace(", & ", ", & " if word == "&" else f" {word} ")
            .replace("(2nd ed.)", f"({t(lang, 'theory.citation_second_edition')})"))


#: The five documents the project grew from. The Spanish notebook names the Kaggle notebook it
#: translates (Aman Arora's), and the PANDA notebook names its own address; those are linked.
SOURCES: tuple[Source, ...] = (
    Source("petfinder_es", "Quadratic Kappa Metric explained in 5 simple steps", "seed_es",
           "https://www.kaggle.com/aroraaman/quadratic-kappa-metric-explained-in-5-simple-steps"),
    Source("panda_en", "Quadratic Weighted Kappa", "seed_en",
           "https://www.kaggle.com/reighns/understanding-the-quadratic-weighted-kappa/"),
    Source("blog_zh", None, "seed_zh"),
    Source("notebook_tr", "Quadratic Weighted Kappa (QWK)", "seed_tr"),
    Source("note_es", "Coeficiente Kappa"),
)
