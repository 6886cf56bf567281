"""The README's example of where kappa is lost, the bootstrap and ``compare`` (its second pair of
python and text blocks under "## Python API") prints exactly what the README shows: the
documentation's numbers are the engine's (the first pair runs against the wheel in
test_wheel.py)."""

from __future__ import annotations

import re
import subprocess
import sys

from tests import ROOT


def test_the_readme_example_of_issue_21_prints_what_the_readme_shows():
    readme = (ROOT / "README.md").read_text("utf-8")
    match = re.search(r"^## Python API\n(.*?)(?=^## )", readme, re.DOTALL | re.MULTILINE)
    assert match
    blocks = re.findall(r"^```(\w+)\n(.*?)^```", match.group(1), re.DOTALL | re.MULTILINE)
    assert [kind for kind, _ in blocks][:4] == ["python", "text", "python", "text"]
    (_, code), (_, shown) = blocks[2], blocks[3]
    assert "compare(" in code and "bootstrap(" in code
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout == shown
