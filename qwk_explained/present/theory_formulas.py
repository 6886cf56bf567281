r"""LaTeX for the theory page: kappa from P_o and P_e, the binary case, rescaling, Lin's formula.

Kept apart from :mod:`.formulas` (the steps) but written the same way: symbols
only, never words, so the formulas are the same in every language; every number goes through
:func:`.numbers.format_latex` (``0{,}25`` in Spanish and Turkish). Symbols: n_{ij}
are the cells of a 2 x 2 table (rows = actual rating 0/1), A and B the events "the actual rater
says 1" and "the predicted rater says 1", \bar a and \sigma_a^2 the mean and population variance
of the actual ratings, s_{ab} their covariance with the predicted ones, r Pearson's correlation.
"""

from __future__ import annotations

from collections.abc import Sequence

from qwk_explained.teaching.theory import BinaryKappa, ClosedForm, RescaledSums

from .formulas import UNDEFINED
from .numbers import format_latex

_QUAD = r"\qquad "
_P_AB = r"P(A \cap B)"
_CHANCE = r"\sigma_a^2 + \sigma_b^2 + (\bar a - \bar b)^2"


def _num(value: float | int, lang: str) -> str:
    return format_latex(value, lang)


def _count(value: int, lang: str) -> str:
    return format_latex(int(value), lang)


def _factor(value: float, lang: str) -> str:
    """A number that is multiplied or subtracted: negative ones go in parentheses."""
    text = _num(value, lang)
    return rf"\left({text}\right)" if value < 0 else text


# --- Cohen's kappa: P_o, P_e and the binary case -------------------------------------------------


def agreement_kappa_generic() -> str:
    r"""Cohen (1960): the agreement beyond chance, as a share of the most that is possible."""
    return r"\kappa = \frac{P_o - P_e}{1 - P_e}"


def binary_probabilities_generic() -> str:
    r"""P(A), P(B), P(A \cap B), P_o and P_e from the four cells of a 2 x 2 table."""
    return (
        r"\begin{gathered}"
        r"P(A) = \frac{n_{10} + n_{11}}{n}" + _QUAD
        + r"P(B) = \frac{n_{01} + n_{11}}{n}" + _QUAD
        + _P_AB + r" = \frac{n_{11}}{n} \\"
        r"P_o = \frac{n_{00} + n_{11}}{n}" + _QUAD
        + r"P_e = P(A)\,P(B) + \bigl(1 - P(A)\bigr)\bigl(1 - P(B)\bigr)"
        r"\end{gathered}"
    )


def binary_derivation() -> tuple[str, ...]:
    r"""From (P_o - P_e)/(1 - P_e) to the formula with P(A), P(B), P(A \cap B), in four lines."""
    return (
        r"P_o = " + _P_AB + r" + P(\bar A \cap \bar B) = " + _P_AB
        + r" + 1 - P(A \cup B) = 1 - P(A) - P(B) + 2\,P(A \cap B)",
        r"P_e = P(A)\,P(B) + \bigl(1 - P(A)\bigr)\bigl(1 - P(B)\bigr)"
        r" = 1 - P(A) - P(B) + 2\,P(A)\,P(B)",
        r"P_o - P_e = 2\,\bigl(" + _P_AB + r" - P(A)\,P(B)\bigr)" + _QUAD
        + r"1 - P_e = P(A) + P(B) - 2\,P(A)\,P(B)",
        r"\kappa = \frac{P_o - P_e}{1 - P_e} = \frac{2\,\bigl(" + _P_AB
        + r" - P(A)\,P(B)\bigr)}{P(A) + P(B) - 2\,P(A)\,P(B)}",
    )


def binary_plugged(k: BinaryKappa, lang: str = "en") -> tuple[str, ...]:
    r"""The same quantities with the table's numbers, ending in the two (equal) kappas.

    >>> from qwk_explained.teaching.theory import binary_kappa
    >>> print(binary_plugged(binary_kappa(15, 10, 5, 20), "es")[2])
    \kappa = \frac{0{,}7 - 0{,}5}{1 - 0{,}5} = \frac{0{,}2}{0{,}5} = 0{,}4
    """
    n00, n01, n10, n11 = k.counts
    n = _count(k.n, lang)
    pa, pb, pab = _num(k.p_a, lang), _num(k.p_b, lang), _num(k.p_ab, lang)
    po, pe = _num(k.p_o, lang), _num(k.p_e, lang)
    probabilities = (
        rf"P(A) = \frac{{{_count(n10, lang)} + {_count(n11, lang)}}}{{{n}}} = {pa}" + _QUAD
        + rf"P(B) = \frac{{{_count(n01, lang)} + {_count(n11, lang)}}}{{{n}}} = {pb}" + _QUAD
        + _P_AB + rf" = \frac{{{_count(n11, lang)}}}{{{n}}} = {pab}"
    )
    agreement = (
        rf"P_o = \frac{{{_count(n00, lang)} + {_count(n11, lang)}}}{{{n}}} = {po}" + _QUAD
        + rf"P_e = {pa} \cdot {pb} + {_num(1 - k.p_a, lang)} \cdot {_num(1 - k.p_b, lang)}"
        + f" = {pe}"
    )
    first = rf"\kappa = \frac{{{po} - {pe}}}{{1 - {pe}}} = "
    second = (rf"\kappa = \frac{{2\,({pab} - {pa} \cdot {pb})}}"
              rf"{{{pa} + {pb} - 2 \cdot {pa} \cdot {pb}}} = ")
    if k.kappa_agreement is None or k.kappa_events is None:
        first += rf"\frac{{0}}{{0}} = {UNDEFINED}"
        second += rf"\frac{{0}}{{0}} = {UNDEFINED}"
    else:
        first += (rf"\frac{{{_num(k.p_o - k.p_e, lang)}}}{{{_num(1 - k.p_e, lang)}}} = "
                  + _num(k.kappa_agreement, lang))
        second += (rf"\frac{{{_num(k.events_numerator, lang)}}}"
                   rf"{{{_num(k.events_denominator, lang)}}} = " + _num(k.kappa_events, lang))
    return probabilities, agreement, first, second


# --- weighted kappa ------------------------------------------------------------------------------


def unweighted_identity() -> str:
    r"""With w_{ij} = 1 for every disagreement, weighted kappa is Cohen's kappa. Three rows (the
    weights, the two sums, kappa): on one line it is wider than a 1280 px page's column."""
    return (
        r"\begin{gathered}"
        r"w_{ij} = \begin{cases} 0 & i = j \\ 1 & i \neq j \end{cases} \\"
        r"\Rightarrow\;"
        r"\sum_{i,j} w_{ij}\,\frac{O_{ij}}{n} = 1 - P_o,\quad"
        r"\sum_{i,j} w_{ij}\,\frac{E_{ij}}{n} = 1 - P_e \\"
        r"\Rightarrow\;"
        r"\kappa_w = 1 - \frac{1 - P_o}{1 - P_e} = \frac{P_o - P_e}{1 - P_e}"
        r"\end{gathered}"
    )


def rescaling_generic() -> str:
    r"""Multiplying w by c, or both O and E by c, cancels in the ratio."""
    return (
        r"1 - \frac{\sum_{i,j} c\,w_{ij}\, O_{ij}}{\sum_{i,j} c\,w_{ij}\, E_{ij}}"
        r" = 1 - \frac{c \sum_{i,j} w_{ij}\, O_{ij}}{c \sum_{i,j} w_{ij}\, E_{ij}}"
        r" = 1 - \frac{\sum_{i,j} w_{ij}\, O_{ij}}{\sum_{i,j} w_{ij}\, E_{ij}}"
        r"\qquad (c > 0)"
    )


def rescaling_plugged(rows: Sequence[RescaledSums], lang: str = "en") -> str:
    r"""``1 - \frac{0.45}{0.395} = 1 - \frac{3.15}{2.765} = 1 - \frac{4.5}{3.95} = -0.1392``."""
    parts = [rf"1 - \frac{{{_num(r.numerator, lang)}}}{{{_num(r.denominator, lang)}}}"
             for r in rows]
    kappa = rows[0].kappa if rows else None
    return " = ".join(parts) + " = " + (UNDEFINED if kappa is None else _num(kappa, lang))


def quadratic_moments_generic() -> str:
    r"""Quadratic weights turn both sums into mean squared differences of the ratings."""
    return (
        r"\begin{gathered}"
        r"\sum_{i,j} (i-j)^2\, \frac{O_{ij}}{n} = \frac{1}{n} \sum_{k} (a_k - b_k)^2 \\"
        r"\sum_{i,j} (i-j)^2\, \frac{E_{ij}}{n} = \sum_{i,j} (i-j)^2\, p_i\, q_j"
        r" = " + _CHANCE +
        r"\end{gathered}"
    )


# --- the closed form: Lin's concordance correlation coefficient ----------------------------------


def closed_form_generic() -> str:
    r"""QWK on the full range = 1 - sum of squared differences over its chance value = rho_c."""
    return (
        r"\kappa_q = 1 - \frac{\sum_k (a_k - b_k)^2}{n\,\bigl(" + _CHANCE + r"\bigr)}"
        r" = \frac{2\, s_{ab}}{" + _CHANCE + r"} = \rho_c"
    )


def closed_form_moments(c: ClosedForm, lang: str = "en") -> str:
    r"""The means, population variances and covariance of the two rating vectors."""
    return _QUAD.join([
        rf"n = {_count(c.n, lang)}",
        rf"\bar a = {_num(c.mean_a, lang)}",
        rf"\bar b = {_num(c.mean_b, lang)}",
        rf"\sigma_a^2 = {_num(c.var_a, lang)}",
        rf"\sigma_b^2 = {_num(c.var_b, lang)}",
        rf"s_{{ab}} = {_num(c.covariance, lang)}",
    ])


def closed_form_plugged(c: ClosedForm, lang: str = "en") -> str:
    r"""``\kappa_q = 1 - \frac{72}{10 \cdot (1.76 + 0.56 + (2.8 - 0.8)^2)} = ... = -0.1392``.

    >>> from qwk_explained.teaching.theory import closed_form
    >>> print(closed_form_plugged(closed_form([0, 4], [4, 0]), "es"))
    \kappa_q = 1 - \frac{32}{2 \cdot \bigl(4 + 4 + (2 - 2)^2\bigr)} = 1 - \frac{32}{16} = -1
    """
    head = (
        rf"\kappa_q = 1 - \frac{{{_num(c.sum_squared, lang)}}}{{{_count(c.n, lang)} \cdot \bigl("
        rf"{_num(c.var_a, lang)} + {_num(c.var_b, lang)} + ({_num(c.mean_a, lang)} - "
        rf"{_factor(c.mean_b, lang)})^2\bigr)}}"
    )
    tail = rf" = 1 - \frac{{{_num(c.sum_squared, lang)}}}{{{_num(c.denominator, lang)}}}"
    if c.kappa is None:
        return head + tail + f" = {UNDEFINED}"
    return head + tail + f" = {_num(c.kappa, lang)}"


def pearson_generic() -> str:
    r"""Lin's split: Pearson's r times a factor C_b <= 1 for different means and spreads."""
    return (
        r"\rho_c = r \cdot C_b" + _QUAD
        + r"r = \frac{s_{ab}}{\sigma_a\, \sigma_b}" + _QUAD
        + r"C_b = \frac{2\, \sigma_a\, \sigma_b}{" + _CHANCE + "}"
    )


def pearson_plugged(c: ClosedForm, lang: str = "en") -> str | None:
    r"""``\rho_c = r \cdot C_b = -0.4432 \cdot 0.3142 = -0.1392``; ``None`` for a constant rater."""
    if c.pearson is None or c.bias_factor is None or c.kappa is None:
        return None
    return (rf"\rho_c = r \cdot C_b = {_num(c.pearson, lang)} \cdot "
            rf"{_factor(c.bias_factor, lang)} = {_num(c.kappa, lang)}")
