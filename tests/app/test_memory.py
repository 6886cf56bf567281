"""Freed memory goes back to the system (reliability report, H3: RSS never came down after a
heavy session ended).

glibc raises its mmap threshold each time a large block is freed, so the next large arrays come
from the heap, and freed heap with live objects above it stays mapped. Each case runs in a fresh
process (the threshold is process-wide): twenty 16 MB arrays interleaved with small objects that
stay, then freed. Source of truth: the process's own RSS (psutil).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests import ROOT

SCRIPT = """
import gc, sys, psutil, numpy as np
if sys.argv[1] == "fixed":
    from qwk_app.memory import return_freed_memory
    assert return_freed_memory()
rss = lambda: psutil.Process().memory_info().rss
warm = np.ones(2_000_000); del warm  # a freed large block raises glibc's dynamic threshold
base = rss()
big, pinned = [], []
for _ in range(20):
    big.append(np.ones(2_000_000))      # 16 MB each, 320 MB in all
    pinned.append(bytearray(200_000))   # a small object that stays, between them
del big; gc.collect()
print((rss() - base) / 2**20)
"""


def kept_mb(mode: str) -> float:
    done = subprocess.run([sys.executable, "-c", SCRIPT, mode], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=120)
    return float(done.stdout.strip())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_a_fixed_mmap_threshold_returns_freed_arrays_to_the_system():
    assert kept_mb("dynamic") > 200, "the case must show glibc keeping freed memory"
    assert kept_mb("fixed") < 40
