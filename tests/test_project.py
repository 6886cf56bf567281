"""The project's own files: the license it declares, and pre-commit hooks that run offline.

Sources of truth: ``pyproject.toml`` (the license declared to package indexes) and pre-commit
itself, run on the whole checkout with an empty cache folder, as on a fresh clone.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from tests import ROOT


def test_the_license_file_is_the_one_pyproject_declares():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text("utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text


@pytest.mark.slow
def test_the_pre_commit_hooks_pass_on_the_checkout_without_a_network(tmp_path: Path):
    """Every hook is local (nothing to download) and passes on the checkout as committed."""
    if shutil.which("git") is None:
        pytest.skip("pre-commit needs git")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path), "PIP_NO_INDEX": "1"}
    done = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files",
                           "--show-diff-on-failure"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    ran = {line.split(".")[0].strip() for line in done.stdout.splitlines() if "Passed" in line}
    assert len(ran) == 3, done.stdout
