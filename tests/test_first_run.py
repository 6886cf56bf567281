"""A first run on a fresh machine prints no traceback: the app and the notebook API installed as a
user installs them, each in a new virtual environment that holds nothing of the test tools.

Sources of truth: ``requirements.txt`` and the ``Makefile`` (``make run`` itself builds the first
environment and starts the launcher), the ``app`` and ``notebook`` extras of ``pyproject.toml``
(the other two), and the English notebook (its code cells, run as Jupyter runs them, with the
results formatted for display). A module the runtime lacks (tornado, once) shows up here as a
traceback in the server's output, or as a warm-up that never finishes.

The test environment holds every package of every extra and of the test tools, so nothing short
of a fresh environment catches a missing runtime dependency. pip installs from the package
registry or its cache; each environment takes a minute or so.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from qwk_app.server import free_port
from tests import clean_copy

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("first_run")]

#: Creating an environment and installing the app's packages (streamlit, pandas, pyarrow...).
INSTALL_TIMEOUT_S = 600
#: From the launcher's start until it has opened every page once.
WARM_TIMEOUT_S = 180


def _environ() -> dict[str, str]:
    """This process's environment without anything that reaches the test environment."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV")}
    env["PYTHONNOUSERSITE"] = "1"
    # As on a machine with no display (CI): no browser opened, no first-run e-mail prompt.
    env["STREAMLIT_SERVER_HEADLESS"] = "true"
    env["PATH"] = os.pathsep.join(
        part for part in env.get("PATH", "").split(os.pathsep)
        if Path(sys.prefix) not in Path(part).parents)
    return env


def _venv(folder: Path, *requirements: str) -> Path:
    """A new virtual environment with ``pip install <requirements>``; its python."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, env=_environ(),
                   timeout=INSTALL_TIMEOUT_S)
    python = folder / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    *requirements], check=True, env=_environ(), timeout=INSTALL_TIMEOUT_S)
    return python


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return clean_copy(tmp_path_factory.mktemp("first_run") / "source")


def _serve_once(command: list[str], cwd: Path, log: Path, port: int) -> str:
    """Run ``command`` (it starts the app on ``port``) until the launcher has opened every page
    once, open the page once more, stop it; the server's whole output."""
    with open(log, "wb") as sink:
        process = subprocess.Popen(command, cwd=cwd, env=_environ(), stdout=sink,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    try:
        deadline = time.monotonic() + INSTALL_TIMEOUT_S + WARM_TIMEOUT_S
        while "qwk-explained: warm in" not in log.read_text(errors="replace"):
            output = log.read_text(errors="replace")
            assert process.poll() is None, output
            assert "qwk-explained: warming" not in output, output
            assert time.monotonic() < deadline, output
            time.sleep(0.5)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/?lang=en", timeout=30) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=20)
    return log.read_text(errors="replace")


def test_make_run_on_a_fresh_checkout_prints_no_traceback(source: Path, tmp_path: Path):
    """``make run`` itself: a new .venv from requirements.txt, the launcher, every page opened."""
    port = free_port()
    output = _serve_once(["make", "--no-print-directory", "run", f"PORT={port}",
                          "ADDRESS=127.0.0.1", f"PYTHON={sys.executable}"],
                         source, tmp_path / "make-run.log", port)
    assert "Traceback" not in output, output
    assert "Error" not in output, output


def test_the_app_extra_alone_serves_without_a_traceback(source: Path, tmp_path: Path):
    """``pip install ".[app]"`` in a new environment, then the launcher as ``make run`` starts
    it (from the checkout, where app.py and pages/ are)."""
    python = _venv(tmp_path / "venv", f"{source}[app]")
    port = free_port()
    output = _serve_once([str(python), "-m", "qwk_app.launch", "--port", str(port),
                          "--address", "127.0.0.1"], source, tmp_path / "app.log", port)
    assert "Traceback" not in output, output
    assert "Error" not in output, output


#: Runs a notebook's code cells in IPython as Jupyter would, each result formatted for display
#: (HTML, MathML, the widget's view); exits 1 after the first cell that fails.
_RUN_NOTEBOOK = """
import json, sys
from IPython.core.interactiveshell import InteractiveShell

shell = InteractiveShell.instance()
for cell in json.load(open(sys.argv[1], encoding="utf-8"))["cells"]:
    if cell["cell_type"] == "code" and not shell.run_cell("".join(cell["source"])).success:
        sys.exit(1)
print("every cell ran")
"""


def test_the_notebook_extra_alone_runs_a_notebook_without_a_traceback(source: Path,
                                                                      tmp_path: Path):
    """``pip install ".[notebook]"`` in a new environment, then the English notebook's cells,
    run from a folder where nothing of the checkout is importable."""
    python = _venv(tmp_path / "venv", f"{source}[notebook]")
    done = subprocess.run([str(python), "-c", _RUN_NOTEBOOK,
                           str(source / "notebooks" / "qwk_en.ipynb")], cwd=tmp_path,
                          env=_environ(), capture_output=True, text=True, timeout=300,
                          check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "Traceback" not in output, output
    assert output.strip().endswith("every cell ran"), output
