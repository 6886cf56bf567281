"""Bad ratings typed into any page that edits the shared rating vectors, in every language.

Sources of truth: the engine (``parse_vector`` raises the ``InputError`` the text deserves, and
``error_message`` is its sentence in the session's language) and the locale files (each page's
``<page>.stale`` warning says the page still shows the last valid ratings). User flow: open a
shared link, break one vector; the message is translated, the typed text stays in the field and
the page keeps its last valid result instead of going blank.
"""

from __future__ import annotations

import pytest

from qwk_explained import InputError, parse_vector
from qwk_explained.present.i18n import error_message, t
from qwk_explained.present.languages import LANGUAGES
from tests.app.helpers import assert_clean, enter_text, open_app

#: The pages with the two rating vectors (each warns with its own ``<page>.stale``).
PAGES_WITH_RATINGS = ("walkthrough", "step_by_step", "theory", "pitfalls")
#: The Spanish seed's worked example, as its shared link writes it.
SPANISH_SEED = {"actual": "4,4,3,4,4,4,1,1,2,1", "predicted": "0,2,1,0,0,0,1,1,2,1"}
BAD_RATINGS = [
    ("actual", "4, x, 3, 4, 4, 4, 1, 1, 2, 1"),
    ("actual", "4, 2.5, 3, 4, 4, 4, 1, 1, 2, 1"),
    ("predicted", "nan, 2, 1, 0, 0, 0, 1, 1, 2, 1"),
    ("predicted", ""),
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("field", "text"), BAD_RATINGS)
@pytest.mark.parametrize("page", PAGES_WITH_RATINGS)
def test_bad_ratings_are_explained_in_the_users_language_and_kept(page, field, text, lang):
    at = open_app(page, lang=lang, **SPANISH_SEED)
    enter_text(at, "text_input", f"{field}_input", text)
    assert_clean(at)
    with pytest.raises(InputError) as raised:
        parse_vector(text)
    assert error_message(lang, raised.value) in [e.value for e in at.error]
    assert at.text_input(key=f"{field}_input").value == text
    assert t(lang, f"{page}.stale") in [w.value for w in at.warning]
