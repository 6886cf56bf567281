"""The project's own files: the license it declares, and pre-commit hooks that run offline.

Sources of truth: ``pyproject.toml`` (the license declared to package indexes) and pre-commit
itself, run on the whole checkout with an empty cache folder, as on a fresh clone.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import re
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


@pytest.mark.xdist_group("grouping_check")
def test_a_parallel_run_keeps_an_xdist_group_on_one_worker(request: pytest.FixtureRequest):
    """``--dist loadgroup`` (``make test``) sends the tests of an ``xdist_group`` to one worker by
    suffixing their node ids with the group's name; when that stops (pytest 9.2 with
    pytest-xdist 3.8, pytest-dev/pytest-xdist#1386) nothing fails, but every worker builds the
    groups' costly fixtures (the built wheel, the diagnosis rates) again."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not a worker of a --dist loadgroup run")
    assert request.node.nodeid.endswith("@grouping_check"), request.node.nodeid


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


# --- make bench ---------------------------------------------------------------------------------


def _bench_scripts() -> list[str]:
    """The scripts of ``bench/``: the modules that run as ``python -m bench.<name>``."""
    return sorted(path.stem for path in (ROOT / "bench").glob("*.py")
                  if 'if __name__ == "__main__"' in path.read_text(encoding="utf-8"))


def _bench_recipe() -> dict[str, list[str]]:
    """Each ``$(PY) -m bench.<name> <options>`` line of the Makefile's ``bench`` target."""
    recipe = re.search(r"^bench:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(encoding="utf-8"),
                       re.MULTILINE)
    assert recipe is not None
    runs = {}
    for line in recipe.group(1).splitlines():
        words = line.split()
        assert words[:2] == ["$(PY)", "-m"] and words[2].startswith("bench."), line
        runs[words[2].removeprefix("bench.")] = words[3:]
    return runs


def test_make_bench_runs_every_bench_script_and_the_readme_names_each():
    scripts = _bench_scripts()
    assert {"bench_core", "bench_batch", "grading_audit", "load_classroom"} <= set(scripts)
    assert sorted(_bench_recipe()) == scripts
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    performance = readme.split("\n## Performance\n", 1)[1].split("\n## ", 1)[0]
    for name in scripts:
        assert f"`{name}`" in performance or f"bench/{name}.py" in performance, name


class _Parsed(Exception):
    pass


@pytest.mark.parametrize("name", _bench_scripts())
def test_make_bench_gives_each_script_options_it_takes(name, monkeypatch):
    """The quick settings are real options: each script's own parser reads them (and the run
    stops right there)."""
    module = importlib.import_module(f"bench.{name}")
    original = argparse.ArgumentParser.parse_args

    def parse_then_stop(self, args=None, namespace=None):
        original(self, args, namespace)  # exits with status 2 on an option it does not take
        raise _Parsed

    options = _bench_recipe()[name]
    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    monkeypatch.setattr(sys, "argv", [name, *options])
    with pytest.raises(_Parsed):
        if "argv" in inspect.signature(module.main).parameters:
            module.main(options)
        else:
            module.main()
