"""Shared links opened as the very first visit of a freshly started server.

Streamlit runs a ``pages/`` folder in its old automatic multipage mode until some session has
called ``st.navigation``, so a cold server runs a deep-linked page file alone; ``page_guard`` must
then wrap it in the frame (see ``qwk_app/frame.py``). Each test starts its own never-visited server
and checks the page is inside the frame (translated navigation with this page current, language
picker, heading) and shows the state the link carried. Sources of truth: the locale files, the
engine's kappa, the link's own parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

import pytest

from qwk_app.compare import EXAMPLE
from qwk_explained import compare, walkthrough
from qwk_explained.present.catalogue import STEPS
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from tests.browser.helpers import (
    SEED_ACTUAL,
    SEED_PREDICTED,
    SLUGS,
    App,
    expect,
    page_path,
    page_titles,
)

pytestmark = pytest.mark.browser

#: Per page: language, and the parameters of its shared link (kept in the URL once it has run).
LINKS: dict[str, tuple[str, dict[str, str]]] = {
    # The walkthrough is st.navigation's default page: its link is "/" (see test_flows for
    # "/walkthrough", which Streamlit does not serve).
    "walkthrough": ("tr", {"actual": SEED_ACTUAL, "predicted": SEED_PREDICTED}),
    "step_by_step": ("es", {"step": "3", "actual": SEED_ACTUAL, "predicted": SEED_PREDICTED}),
    "checker": ("zh", {"table": "0,4,1;0,8,0;0,1,5"}),
    "theory": ("zh", {}),
    "pitfalls": ("es", {}),
    "practice": ("tr", {"seed": "42"}),
    "compare": ("zh", {}),
    "thresholds": ("tr", {}),
    "teach": ("es", {}),
    "join": ("zh", {}),
}


def test_every_page_has_a_link():
    """Invariant: the table above covers exactly the frame's pages."""
    assert set(LINKS) == set(SLUGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_first_visit_is_a_deep_link(slug: str, cold_server: Callable[[], str],
                                    new_app: Callable[..., App]):
    """User flow: someone opens a shared link to this page on a server nobody has visited yet."""
    lang, params = LINKS[slug]
    query = "&".join(f"{k}={v}" for k, v in {"lang": lang, **params}.items())
    app = new_app(cold_server())
    app.open(f"{page_path(slug)}?{query}")

    assert urlsplit(app.page.url).path == page_path(slug)
    app.wait_for_query(lang=lang, **params)
    assert app.heading() in page_titles(slug, lang)
    expect(app.language_box()).to_have_value(LANGUAGES[lang].name)
    titles = app.nav_titles()
    assert titles == [t(lang, f"nav.{s}") for s in SLUGS]
    assert not set(titles) & set(SLUGS), titles  # never raw file names
    assert app.current_nav_title() == t(lang, f"nav.{slug}")

    if slug == "walkthrough":
        kappa = format_number(walkthrough(SEED_ACTUAL, SEED_PREDICTED).kappa, lang)
        expect(app.metric(t(lang, "common.kappa"))).to_have_text(kappa)
        expect(app.textbox(t(lang, "inputs.actual_label"))).to_have_value(SEED_ACTUAL)
    if slug == "step_by_step":
        progress = t(lang, "step_by_step.progress", step=format_number(3, lang),
                     total=format_number(len(STEPS), lang))
        expect(app.page.get_by_text(progress, exact=True)).to_be_visible()
    if slug == "compare":
        example = compare(EXAMPLE["actual"], EXAMPLE["model_a"], EXAMPLE["model_b"])
        expect(app.metric(t(lang, "compare.model_a"))).to_have_text(
            format_number(example.kappa_a, lang))
    app.assert_clean()


def test_a_link_to_the_old_guided_address_opens_the_step_by_step_page(
        cold_server: Callable[[], str], new_app: Callable[..., App]):
    """User flow: a link shared before the page was renamed (/guided) still opens the step-by-step
    page at the linked step, as the first visit of a cold server; the share box gives the new
    address."""
    app = new_app(cold_server())
    app.open(f"/guided?lang=en&step=3&actual={SEED_ACTUAL}&predicted={SEED_PREDICTED}")
    app.wait_for_query(lang="en", step="3")
    assert app.heading() in page_titles("step_by_step", "en")
    # The old address is a hidden page: the navigation lists the pages as ever.
    assert app.nav_titles() == [t("en", f"nav.{s}") for s in SLUGS]
    progress = t("en", "step_by_step.progress", step="3", total=str(len(STEPS)))
    expect(app.page.get_by_text(progress, exact=True)).to_be_visible()
    expect(app.page.get_by_text("/step_by_step?", exact=False).first).to_be_visible()
    app.assert_clean()
