"""What importing each layer loads, seen from ``sys.modules`` in a fresh interpreter.

Source of truth: the layer rule of ``pyproject.toml`` (core <- teaching <- present <- cli <-
notebook), now at run time. import-linter reads the import statements; it cannot see that a
package's ``__init__`` runs before any of its submodules, so when the top level imported the
notebook layer, ``import qwk_explained.core.steps`` loaded it under the app and the command line
while every contract passed. Here each layer's modules are imported in a new process and nothing
of a layer above it may be in ``sys.modules`` afterwards.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import pytest

import qwk_explained
from tests import ROOT

#: The layers from the bottom up: importing one loads none of those after it.
LAYERS = ("core", "teaching", "present", "cli", "notebook")


def _loaded_after(code: str) -> set[str]:
    """The modules in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def _package_modules(loaded: set[str]) -> set[str]:
    return {name for name in loaded if name.split(".")[0] == "qwk_explained"}


def test_the_top_level_loads_nothing_until_a_name_is_read():
    loaded = _loaded_after("import qwk_explained")
    assert _package_modules(loaded) == {"qwk_explained"}
    assert "numpy" not in loaded


@pytest.mark.parametrize("layer", LAYERS[:-1])
def test_a_layer_loads_no_layer_above_it(layer):
    """Every module of the layer (plotly's figures included), then nothing above it."""
    code = ("import importlib, pkgutil\n"
            f"import qwk_explained.{layer} as layer\n"
            "for module in pkgutil.walk_packages(layer.__path__, layer.__name__ + '.'):\n"
            "    importlib.import_module(module.name)")
    loaded = _package_modules(_loaded_after(code))
    modules = {f"qwk_explained.{layer}.{module.name}"
               for module in pkgutil.iter_modules([str(ROOT / "qwk_explained" / layer)])}
    assert modules and modules <= loaded
    above = {f"qwk_explained.{name}" for name in LAYERS[LAYERS.index(layer) + 1:]}
    assert not {name for name in loaded if ".".join(name.split(".")[:2]) in above}


def test_every_public_name_is_handed_out():
    """The top level's names resolve to the objects of the modules that define them."""
    from qwk_explained.core.steps import Walkthrough
    from qwk_explained.notebook.display import walkthrough

    for name in qwk_explained.__all__:
        assert getattr(qwk_explained, name) is not None, name
    assert qwk_explained.Walkthrough is Walkthrough
    assert qwk_explained.walkthrough is walkthrough
    assert set(qwk_explained.__all__) <= set(dir(qwk_explained))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        qwk_explained.nothing  # noqa: B018
