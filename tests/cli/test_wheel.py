"""The package as a user gets it: a wheel built from the checkout, installed in a fresh virtual
environment, run from a folder where nothing of the checkout is importable.

Sources of truth: the engine and the locale files of the checkout (the installed CLI must print
the kappa line and the translated interpretation that the checkout computes, in every language of
the language record), and the README's "Python API" section (its example, run against the
installed wheel, must print exactly the output the README shows under it).

The wheel is built from a clean copy of the checkout (what git would not ignore), so neither an
earlier build/ folder nor the editable install's egg-info can slip files into it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from qwk_explained import walkthrough
from qwk_explained.present.i18n import t
from qwk_explained.present.languages import LANGUAGES
from qwk_explained.present.numbers import format_number
from qwk_explained.teaching.interpret import landis_koch
from tests import ROOT, clean_copy
from tests.cli.helpers import flat

# One wheel and one environment for the module: its tests share a worker of a parallel run.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]

#: The Spanish seed's worked example.
ACTUAL, PREDICTED = "4,4,3,4,4,4,1,1,2,1", "0,2,1,0,0,0,1,1,2,1"
#: pip may fetch setuptools (build isolation) and numpy (the wheel's dependency), or take them
#: from its cache; either way a few minutes at the very most.
PIP_TIMEOUT_S = 300


@dataclass(frozen=True)
class Installed:
    """A virtual environment holding only the wheel and its dependencies, and a folder to run
    from with nothing of the checkout in it."""

    venv: Path
    cwd: Path

    @property
    def bin(self) -> Path:
        return self.venv / ("Scripts" if os.name == "nt" else "bin")

    def run(self, program: str, *args: str) -> subprocess.CompletedProcess[str]:
        # No PYTHONPATH (or a user site) can reach the checkout; a wide terminal keeps every
        # printed line whole.
        env = {key: value for key, value in os.environ.items()
               if key not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
        env.update(PYTHONNOUSERSITE="1", COLUMNS="100")
        return subprocess.run([str(self.bin / program), *args], cwd=self.cwd, env=env,
                              capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    source = clean_copy(base / "source")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "wheel", "--no-deps", str(source), "-w", str(base / "dist")],
                   check=True, timeout=PIP_TIMEOUT_S)
    wheels = sorted((base / "dist").glob("qwk_explained-*.whl"))
    assert len(wheels) == 1, wheels
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=PIP_TIMEOUT_S)
    result = Installed(venv, base / "elsewhere")
    result.cwd.mkdir()
    subprocess.run([str(result.bin / "python"), "-m", "pip", "--disable-pip-version-check",
                    "--quiet", "install", str(wheels[0])], check=True, timeout=PIP_TIMEOUT_S)
    return result


def test_the_package_imported_is_the_installed_wheel(installed: Installed):
    """Nothing of the checkout on the path: qwk_explained comes from the venv, the app does not
    come at all (the wheel ships the engine, the CLI and the locales, not the Streamlit app)."""
    code = ("import importlib.util, qwk_explained; print(qwk_explained.__file__); "
            "print(importlib.util.find_spec('qwk_app'))")
    run = installed.run("python", "-c", code)
    assert run.returncode == 0, run.stderr
    location, app = run.stdout.splitlines()
    assert Path(location).resolve().is_relative_to(installed.venv.resolve()), location
    assert app == "None"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_installed_cli_speaks_every_language(installed: Installed, lang: str):
    """The console script: exit status 0, the kappa line with the number as the language writes
    it, and its band's sentence in the language (read from the wheel's own locale files)."""
    run = installed.run("qwk-explained", "--actual", ACTUAL, "--predicted", PREDICTED,
                        "--lang", lang)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    kappa = walkthrough(ACTUAL, PREDICTED).kappa
    lines = run.stdout.splitlines()
    assert t(lang, "cli.value_line", label=t(lang, "common.kappa"),
             value=format_number(kappa, lang)) in lines
    band = t(lang, f"common.band.{landis_koch(kappa)}")
    sentence = re.sub(r"\*\*(.+?)\*\*", r"\1", t(lang, "steps.kappa_band", band=band))
    assert flat(sentence) in flat(run.stdout)


def _readme_example() -> tuple[str, str]:
    """The code of the README's "Python API" section and the output it shows below it."""
    readme = (ROOT / "README.md").read_text("utf-8")
    match = re.search(r"^## Python API\n(.*?)(?=^## )", readme, re.DOTALL | re.MULTILINE)
    assert match, 'README.md has no "## Python API" section'
    blocks = re.findall(r"^```(\w+)\n(.*?)^```", match.group(1), re.DOTALL | re.MULTILINE)
    kinds = [kind for kind, _ in blocks]
    assert kinds[:2] == ["python", "text"], f"expected a python block, then its output: {kinds}"
    return blocks[0][1], blocks[1][1]


def test_the_readme_python_example_prints_what_the_readme_shows(installed: Installed):
    code, shown = _readme_example()
    run = installed.run("python", "-c", code)
    assert run.returncode == 0, run.stderr
    assert run.stdout == shown
