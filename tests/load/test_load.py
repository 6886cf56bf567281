"""A small classroom against the real server: concurrent sessions never see each other's results.

Runs ``bench.load_classroom`` (5 sessions x 2 edits over Streamlit's websocket protocol, on a
loopback port, and one upload) and checks against the engine: every session got its own kappa, n
and URL back (``qwk_explained.walkthrough`` on its own vectors, in its own language), with no
exception, error message, websocket failure or timeout. No timing assertion: the figures are the
benchmark's job.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench import load_classroom
from tests import ROOT

pytestmark = pytest.mark.slow


def test_concurrent_sessions_get_their_own_results_without_errors():
    """User flow x 5 at once: open a shared link with one's own vectors, edit twice; meanwhile a
    sixth session uploads a 2 MB CSV (the browser's protocol: upload URL, PUT with the XSRF
    token, rerun) and must see the engine's kappa for that file."""
    report = load_classroom.run_load(sessions=5, edits=2, items=60, timeout=60,
                                     global_timeout=180, upload_mb=2)
    assert not report.errors, report.errors
    assert not report.cross_talk, report.cross_talk
    assert report.complete, report.table()
    assert len(report.upload_seconds) == 1
    assert report.peak_rss > 0


def test_the_plans_give_every_session_different_vectors_and_expectations():
    """The cross-talk check can only see a mix-up if sessions differ: n and kappa per session."""
    plans = load_classroom.make_plans(6, 2, 40)
    assert len({len(p.predicted.split(",")) for p in plans}) == 6
    assert len({p.actuals for p in plans}) == 6
    expected = [load_classroom.expected_metrics(p, 0) for p in plans]
    assert len({tuple(sorted(e.items())) for e in expected}) == 6


def test_pandas_is_imported_with_the_frame_not_inside_a_session():
    """Regression: a session importing pandas for the first time (opening the table editor,
    uploading a large file) made plotly fail in every other session rendering at that moment,
    which found the half-initialised module in sys.modules. The frame imports it up front."""
    code = "import sys, qwk_app.frame; sys.exit('pandas' not in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


def test_a_paste_is_bounded_by_what_a_rating_field_holds(capsys):
    """--paste-items goes up to what a field of TYPED_MAX_CHARS characters holds ("3, 3, ...")."""
    from qwk_app.compute import TYPED_MAX_CHARS, TYPED_MAX_RATINGS

    assert 3 * TYPED_MAX_RATINGS - 2 < TYPED_MAX_CHARS <= 3 * (TYPED_MAX_RATINGS + 1) - 2
    with pytest.raises(SystemExit):
        load_classroom.main(["--paste-items", str(TYPED_MAX_RATINGS + 1)])
    assert f"paste-items 0..{TYPED_MAX_RATINGS}" in capsys.readouterr().err


def test_the_class_alone_and_with_the_paster_are_printed_side_by_side():
    """M4: what a paster costs the others is the ratio of the class's edit times without and with
    it, from runs of the same invocation."""
    def report(seconds: list[float], paste_items: int = 0) -> load_classroom.Report:
        return load_classroom.Report(2, 2, 10, 0.0, [1.0, 1.0], seconds, [], [], 1, 1, 1.0,
                                     load_before=1.5, paste_items=paste_items,
                                     pastes=3 if paste_items else 0)

    table = load_classroom.side_by_side([report([1.0, 1.0, 2.0, 2.0])],
                                        [report([1.5, 1.5, 3.0, 3.0], 2_000_000)])
    assert "3 pastes of 2,000,000 ratings a field" in table
    rows = {line.split()[0] + line.split()[1]: line.split()[2:] for line in table.splitlines()
            if line.startswith("edit")}
    assert rows["editp50"] == ["1.500s", "2.250s", "1.50"]
    assert rows["editmax"] == ["2.000s", "3.000s", "1.50"]
