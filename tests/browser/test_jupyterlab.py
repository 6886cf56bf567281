"""The English notebook in a real JupyterLab, driven by Debian's Chromium.

JupyterLab (from PyPI, as users install it) serves a temporary folder on 127.0.0.1 with a random
token; the test opens ``notebooks/qwk_en.ipynb`` there, runs every cell, and types into the
widget. Sources of truth: the engine (the kappa the widget must show after the edit) and the app's
error message for a bad rating. Nothing here needs the internet: the widget's JavaScript comes
from the Python package, plotly's from its JupyterLab extension.

The screenshots go to ``screenshots/`` (git-ignored).
"""

from __future__ import annotations

import importlib.util
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from qwk_explained import walkthrough
from qwk_explained.core.errors import InputError
from qwk_explained.present.i18n import message, t
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.examples import BY_NAME

# One JupyterLab server for the module: its tests share a worker of a parallel run.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("jupyterlab")]

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "qwk_en.ipynb"
SCREENSHOTS = ROOT / "screenshots"
START_TIMEOUT_S = 60
#: Opening the notebook, starting its kernel and running every cell (plotly, the widget).
RUN_TIMEOUT_MS = 60_000
EDIT_TIMEOUT_MS = 20_000
EXAMPLE = BY_NAME["seed_en"]
#: One prediction of grade 1 for a biopsy of grade 5 moved to 4 (the notebook suggests it).
EDITED = (2, 2, 2, 3, 2, 4, 1, 1, 1, 3)


@dataclass
class Lab:
    url: str
    token: str
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _quiet_settings(folder: Path) -> None:
    # No "news" toast and no update check: the machine has loopback only, and the toast would
    # cover the notebook in the screenshot.
    settings = folder / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}', encoding="utf-8")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server and the kernels it started (its own session), whatever state it is in."""
    if process.poll() is None:
        process.terminate()  # JupyterLab shuts its kernels down on SIGTERM
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


@pytest.fixture(scope="module")
def jupyterlab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    if importlib.util.find_spec("jupyterlab") is None:
        reason = "jupyterlab is not installed: `pip install -r requirements-dev.txt`"
        if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
            pytest.fail(f"{reason} (CI is set: browser tests must run in CI)", pytrace=False)
        pytest.skip(reason)
    home = tmp_path_factory.mktemp("jupyterlab")
    served = home / "served"
    served.mkdir()
    shutil.copy(NOTEBOOK, served / NOTEBOOK.name)
    _quiet_settings(home / "settings")
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
        # The kernel starts in the served folder: it must import this checkout's package.
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    port, token = _free_port(), secrets.token_hex(16)
    log = home / "jupyterlab.log"
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
               "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={token}",
               f"--ServerApp.root_dir={served}",
               "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    with open(log, "wb") as sink:
        process = subprocess.Popen(command, cwd=served, env=env, stdout=sink,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    lab = Lab(f"http://127.0.0.1:{port}", token, log)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"JupyterLab exited with {process.returncode}:\n{lab.output()}")
            try:
                with urllib.request.urlopen(f"{lab.url}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not answer in {START_TIMEOUT_S} s:\n"
                                f"{lab.output()}")
                time.sleep(0.3)
        yield lab
    finally:
        _stop(process)


def _open_with_a_running_kernel(page: Any, lab: Lab) -> None:
    """Open the notebook and wait until its kernel is connected and idle (the status bar says
    so); "Run All" before that asks which kernel to start instead of running."""
    page.goto(f"{lab.url}/lab/tree/{NOTEBOOK.name}?token={lab.token}")
    page.get_by_text(re.compile(r"\(ipykernel\) \| Idle$")).wait_for(timeout=RUN_TIMEOUT_MS)


def _run_all_cells(page: Any) -> None:
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator(".lm-Menu-item", has_text=re.compile(r"^Run All Cells")).click()


def test_english_notebook_runs_and_the_widget_follows_an_edit(browser: Any, jupyterlab: Lab):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page_errors: list[str] = []
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    try:
        _open_with_a_running_kernel(page, jupyterlab)
        _run_all_cells(page)
        explorer = page.locator(".qwk-explorer")
        explorer.wait_for(timeout=RUN_TIMEOUT_MS)
        kappa = explorer.locator(".qwk-kappa")
        before = walkthrough(EXAMPLE.actual, EXAMPLE.predicted).kappa
        label = t("en", "common.kappa")
        expect(kappa).to_have_text(f"{label}: {format_number(before, 'en')}")

        # Every cell ran without an error, and the rich display drew its tables and formulas.
        assert page.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
        step_one = page.locator(".qwk-explained").first
        expect(step_one.locator("table.qwk-observed")).to_be_visible()
        assert step_one.locator("math").first.bounding_box()["height"] > 5

        predicted = explorer.locator("textarea[name='predicted']")
        predicted.fill(", ".join(map(str, EDITED)))
        after = walkthrough(EXAMPLE.actual, EDITED).kappa
        assert format_number(after, "en") != format_number(before, "en")
        expect(kappa).to_have_text(f"{label}: {format_number(after, 'en')}",
                                   timeout=EDIT_TIMEOUT_MS)
        SCREENSHOTS.mkdir(exist_ok=True)
        explorer.screenshot(path=SCREENSHOTS / "jupyterlab_widget.png")

        predicted.fill("2, 2, x")
        problem = message("en", InputError("not_integer", token="x", position=3))
        expect(explorer.locator(".qwk-field-predicted .qwk-error")).to_have_text(
            problem, timeout=EDIT_TIMEOUT_MS)
        expect(predicted).to_have_value("2, 2, x")
        expect(kappa).to_have_text(f"{label}: {format_number(after, 'en')}")
        page.screenshot(path=SCREENSHOTS / "jupyterlab_notebook.png")
        assert page_errors == [], page_errors
    except Exception:
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=SCREENSHOTS / "jupyterlab_failure.png")
        print(jupyterlab.output())  # shown by pytest with the failure
        raise
    finally:
        context.close()
