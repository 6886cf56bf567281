"""The four walkthrough notebooks run top to bottom in a real Jupyter kernel, and are committed
without outputs.

Source of truth: each notebook checks its own numbers against its reference document with
``assert`` cells (the seed examples: kappa -0.1392, 0.8724, 0.9538), so running it is the test;
nbclient fails on the first cell that raises. The output check stands in for nbstripout: a
committed output would be stale the moment the library changes, and would bloat every diff.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from qwk_explained.present.languages import LANGUAGES
from tests import ROOT

NOTEBOOKS = ROOT / "notebooks"
#: Kernel start, imports and every cell; a notebook takes about 3 s on the 2-core machine.
CELL_TIMEOUT_S = 120


def _notebook(lang: str) -> Path:
    return NOTEBOOKS / f"qwk_{lang}.ipynb"


def test_one_notebook_per_language():
    assert sorted(path.name for path in NOTEBOOKS.glob("*.ipynb")) == sorted(
        _notebook(lang).name for lang in LANGUAGES)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_committed_notebooks_hold_no_outputs(lang):
    notebook = json.loads(_notebook(lang).read_text("utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [], cell["id"]
            assert cell["execution_count"] is None, cell["id"]
        assert "attachments" not in cell or not cell["attachments"], cell["id"]
    assert set(notebook["metadata"]) <= {"kernelspec", "language_info"}


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_each_notebook_speaks_its_language_and_ends_with_the_widget(lang):
    notebook = nbformat.read(_notebook(lang), as_version=4)
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    languages = set(re.findall(r"""lang\s*=\s*"([a-z]{2})"|explain\("([a-z]{2})\"""",
                               "\n".join(code)))
    assert {value for pair in languages for value in pair if value} == {lang}
    assert code[-1].startswith("explore(") and f'lang="{lang}"' in code[-1]


@pytest.mark.slow
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_notebook_runs_in_a_real_kernel(lang):
    notebook = nbformat.read(_notebook(lang), as_version=4)
    # The kernel starts in the checkout, so it imports this checkout's qwk_explained.
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT_S, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    outputs = [output for cell in notebook.cells if cell.cell_type == "code"
               for output in cell.outputs]
    assert not [o for o in outputs if o.output_type == "stream" and o.name == "stderr"]
    shown = [o.data for o in outputs if o.output_type in ("execute_result", "display_data")]
    explanations = [data["text/html"] for data in shown if "text/html" in data]
    assert explanations and all(f'lang="{lang}"' in html for html in explanations)
    assert any("application/vnd.plotly.v1+json" in data for data in shown)
    assert "application/vnd.jupyter.widget-view+json" in shown[-1]
