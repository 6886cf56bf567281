"""Text from strangers at the class's trust boundary (Hypothesis, adversarial strategies): every
Unicode category, huge lengths, markup, SQL and JSON that is not what it claims. Checked against
the rules of :mod:`qwk_class.codes` and the database's own rows: what is kept is the cleaned text,
exactly, through bound parameters; anything else is refused with a translatable reason."""

from __future__ import annotations

import itertools
import unicodedata

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwk_class import codes
from qwk_class.classroom import ClassData, Classroom
from qwk_class.store import Store, students, submissions
from qwk_explained.core.errors import QwkError

HOSTILE = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "**bold** [link](http://x)",
    "'); DROP TABLE students;--", "Robert'); DELETE FROM submissions; --", "$$\\frac{1}{0}$$",
    ":red[red] :material/home:", "\u202eevil\u202c", "a\u0000b", "\ud7ff\ue000\U0010ffff",
    "ＡＢＣ１２３", "İıŞşĞğ", "٣٫١٤", "x" * 100_000, "\n" * 50, "null", "{\"a\": 1}",
]
text = st.one_of(st.text(st.characters(codec=None, exclude_categories=["Cs"]), max_size=300),
                 st.sampled_from(HOSTILE),
                 st.text(alphabet="<>&'\";-*_[]()#!`$\\{}|:%\u202e\u200b", max_size=60))
values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), text,
              st.floats(allow_nan=True, allow_infinity=True)),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(text, inner, max_size=6),
    max_leaves=30)

_names = itertools.count()


@given(text)
def test_a_nickname_is_printable_short_and_stable(typed: str) -> None:
    cleaned = codes.clean_nickname(typed)
    if cleaned is None:
        return
    assert 0 < len(cleaned) <= codes.MAX_NICKNAME
    assert cleaned == cleaned.strip() and "  " not in cleaned
    assert not any(unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Cn"} for ch in cleaned)
    assert codes.clean_nickname(cleaned) == cleaned


@given(st.one_of(text, st.integers(), st.none(), st.binary()))
def test_a_typed_code_is_read_or_refused(typed: object) -> None:
    found = codes.read_code(typed)
    assert found is None or (len(found) == codes.CODE_LENGTH
                             and set(found) <= set(codes.ALPHABET))
    assert codes.read_key(typed) in (None, typed)


@pytest.fixture(scope="module")
def sqlite_room(tmp_path_factory) -> Classroom:
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('hostile') / 'classes.sqlite3'}")
    store.migrate()
    return Classroom(store)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(nickname=text, guess=text, answers=values, practice=text)
def test_strangers_text_is_kept_as_typed_or_refused(sqlite_room: Classroom, nickname: str,
                                                    guess: str, answers: object,
                                                    practice: str) -> None:
    room = sqlite_room
    started = room.start(ClassData("4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1"),
                         f"host-{next(_names)}")
    try:
        student, _ = room.join(started.code, nickname, "phones")
    except QwkError as refused:
        assert refused.key.startswith("classroom.errors.")
        assert codes.clean_nickname(nickname) is None
        return
    with room.store.read() as db:
        kept = db.execute(sa.select(students.c.nickname).where(
            students.c.id == student.id)).scalar_one()
    assert kept == codes.clean_nickname(nickname)
    for activity, send in (("guess", lambda: room.submit_guess(student, guess, "en")),
                           ("check", lambda: room.submit_check(student, answers, "en")),
                           ("practice", lambda: room.submit_practice(student, 2, practice, "en"))):
        room.open(started.code, started.key, activity)
        try:
            receipt = send()
        except QwkError as refused:  # a reason the page translates; never anything else
            assert refused.key
            continue
        with room.store.read() as db:
            payload = db.execute(sa.select(submissions.c.payload).where(
                submissions.c.student_id == student.id,
                submissions.c.question == receipt.question)).scalar_one()
        assert payload  # stored as JSON text, read back by the teacher's view:
    assert room.summary(started.code, started.key).state.students == 1
