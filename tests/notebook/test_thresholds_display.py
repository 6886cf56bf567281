"""Cut points display themselves in a notebook: the mime bundle in every language.

Sources of truth: the command line (``text/plain`` is what ``qwk-explained thresholds`` prints,
``application/json`` its ``--json`` object), the locale files for the sentences, the core's
result for every number; invariants of the markup (Markdown and HTML carry the same sentences
and tables; no script in the HTML).
"""

from __future__ import annotations

import json
from html import unescape

import pytest

from qwk_explained import Thresholds, cli, optimize_thresholds
from qwk_explained.core import thresholds as core
from qwk_explained.notebook.thresholds import ExplainedThresholds
from qwk_explained.present.i18n import LANGUAGES, t
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.examples import scored_example

ACTUAL, SCORES = scored_example()


@pytest.fixture(scope="module")
def result() -> ExplainedThresholds:
    return optimize_thresholds(ACTUAL, SCORES)


def test_it_is_the_cores_result(result) -> None:
    plain = core.optimize_thresholds(ACTUAL, SCORES)
    assert isinstance(result, Thresholds)
    assert (result.cuts, result.kappa, result.cv_kappa, result.starts) == (
        plain.cuts, plain.kappa, plain.cv_kappa, plain.starts)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_representation_in_each_language(result, lang, capsys, tmp_path) -> None:
    explanation = result.explain(lang)
    bundle = explanation._repr_mimebundle_()
    assert "application/json" not in bundle  # JupyterLab would show a tree of numbers instead
    assert set(bundle) >= {"text/markdown", "text/plain"}
    path = tmp_path / "scored.csv"
    path.write_text("\n".join(f"{a},{s}" for a, s in zip(ACTUAL, SCORES, strict=True)),
                    encoding="utf-8")
    assert cli.main(["thresholds", "--actual-file", str(path), "--lang", lang]) == 0
    assert bundle["text/plain"] == capsys.readouterr().out
    optimism = t(lang, "thresholds.optimism_large", gap=format_number(result.optimism, lang),
                 cv=format_number(result.cv_kappa, lang), kappa=format_number(result.kappa, lang))
    assert optimism in bundle["text/markdown"]
    if "text/html" in bundle:
        html = bundle["text/html"]
        assert "<script" not in html
        assert optimism in unescape(html)
        assert html.count("<table") == bundle["text/markdown"].count("|:---|") == 2


def test_json_only_on_request_and_as_the_command_writes_it(result, capsys, tmp_path) -> None:
    bundle = result._repr_mimebundle_(include=["application/json"])
    path = tmp_path / "scored.csv"
    path.write_text("\n".join(f"{a};{s}" for a, s in zip(ACTUAL, SCORES, strict=True)),
                    encoding="utf-8")
    assert cli.main(["thresholds", "--actual-file", str(path), "--json"]) == 0
    assert bundle == {"application/json": json.loads(capsys.readouterr().out)}


def test_without_cross_validation_it_says_so() -> None:
    result = optimize_thresholds(ACTUAL, SCORES, folds=0)
    text = str(result.explain("zh"))
    assert t("zh", "thresholds.no_cross_validation") in text
    assert t("zh", "thresholds.versus_rounding_in_sample",
             rounding=format_number(result.starts[0].kappa, "zh"),
             kappa=format_number(result.kappa, "zh")) in text
