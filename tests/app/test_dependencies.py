"""The app needs only what ``requirements.txt`` installs: every page runs, and the warm launcher
starts and opens every page, where plotly and tornado cannot be imported.

Source of truth: ``requirements.txt`` and the ``app`` extra of ``pyproject.toml`` (the app's
runtime dependencies). The test environment has both (the notebooks draw with plotly, and
Streamlit imports it when it is there; JupyterLab brings tornado, which Streamlit's server no
longer does), so each check runs in a fresh interpreter in which importing them fails, as it does
in an install of the app alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
import tomllib

from qwk_app.server import free_port
from tests import ROOT
from tests.app.helpers import PAGE_SLUGS

#: Run first in each interpreter: from here on ``import plotly`` (or tornado) raises ImportError.
_NO_PLOTLY = "import sys\nsys.modules['plotly'] = sys.modules['tornado'] = None\n"


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", _NO_PLOTLY + code], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)


def test_plotly_is_no_runtime_dependency_of_the_app():
    requirements = (ROOT / "requirements.txt").read_text("utf-8")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "optional-dependencies"]
    assert "plotly" not in requirements
    assert not [spec for spec in extras["app"] if spec.startswith("plotly")]
    assert [spec for spec in extras["notebook"] if spec.startswith("plotly")]


def test_the_launcher_preloads_without_plotly():
    done = _run("from qwk_app import frame, launch\nlaunch.preload()\nprint('ok')")
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr


@pytest.mark.slow
def test_every_page_runs_without_plotly():
    """Every page, opened as a browser would, draws without an exception or an error."""
    code = (
        "from tests.app.helpers import open_app\n"
        f"for slug in {list(PAGE_SLUGS)!r}:\n"
        "    at = open_app(slug, lang='en', actual='4,4,3,4,4,4,1,1,2,1',\n"
        "                  predicted='0,2,1,0,0,0,1,1,2,1')\n"
        "    assert not at.exception, (slug, [e.value for e in at.exception])\n"
        "    assert not at.error, (slug, [e.value for e in at.error])\n"
        "    assert at.title, slug\n"
        "    print(slug)\n")
    done = _run(code)
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stdout.split() == list(PAGE_SLUGS)


@pytest.mark.slow
def test_the_launcher_opens_every_page_before_the_first_visitor(tmp_path):
    """``make run`` starts the app through the launcher: it reports the server warm (every page
    opened once, over Streamlit's websocket) on its own, with no visitor."""
    log = tmp_path / "launch.log"
    arguments = ["--port", str(free_port()), "--address", "127.0.0.1", "--server.headless",
                 "true", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    code = _NO_PLOTLY + f"from qwk_app.launch import main\nmain({arguments!r})\n"
    with open(log, "wb") as sink:
        process = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=sink,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=os.name == "posix")
    try:
        deadline = time.monotonic() + 120
        while "warm in" not in log.read_text(errors="replace"):
            assert process.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.5)
        assert "failed" not in log.read_text(errors="replace")
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
