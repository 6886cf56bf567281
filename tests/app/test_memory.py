"""Freed memory goes back to the system (reliability report, H3: RSS never came down after a
heavy session ended).

glibc raises its mmap threshold each time a large block is freed, so the next large arrays come
from the heap, and freed heap with live objects above it stays mapped; and a session Streamlit
drops is garbage in reference cycles, freed only by a collection, which a quiet server never
runs. Each case runs in a fresh process (both are process-wide). Source of truth: the process's
own RSS (psutil).
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


COLLECTOR = """
import gc, time, psutil
from qwk_app.memory import return_freed_memory, start_collector
return_freed_memory()
gc.disable()  # as on a quiet server: no allocations, so no automatic collection
rss = lambda: psutil.Process().memory_info().rss
base = rss()
session = {"arrays": bytearray(300 * 2**20)}
session["self"] = session  # a dropped session is garbage in reference cycles
del session
time.sleep(0.5)
kept = (rss() - base) / 2**20
assert start_collector(every=0.2) and not start_collector(every=0.2)  # one per process
time.sleep(1.0)
print(kept, (rss() - base) / 2**20)
"""


def test_the_collector_frees_what_dropped_sessions_leave_in_cycles():
    done = subprocess.run([sys.executable, "-c", COLLECTOR], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=120)
    before, after = map(float, done.stdout.split())
    assert before > 250, "the cycle holds its memory until a collection"
    assert after < 40
