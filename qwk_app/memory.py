"""Memory a session frees goes back to the system, so the server's RSS returns near its baseline.

What a session alone uses (a long paste, an upload, and everything computed from it) is kept by
that session only (:mod:`qwk_app.compute`) and freed when Streamlit drops the session. Two things
stood between "dropped" and "back to the system" (measured with ``bench/memory_session.py``):

- A dropped session is garbage in reference cycles, which only Python's cyclic collector frees;
  it runs after enough allocations, so on a quiet server, or one serving small reruns (the app
  turns off Streamlit's collection after every run: ``runner.postScriptGC``), a heavy session's
  arrays stayed for good (+290 MB after it ended). :func:`start_collector` runs a collection
  every :data:`COLLECT_EVERY_S` seconds (a few tens of ms: the objects of the start-up are
  frozen, ``gc.freeze()`` in the frame).
- glibc's ``malloc`` raises its mmap threshold each time a large block is freed (up to 32 MB), so
  the next arrays of a few MB come from the heap, and a heap freed in the middle stays mapped.
  Measured in one process: six 2-million-rating pastes and their walkthroughs took RSS from 141
  to 357 MB, and freeing them all left it at 357 MB; with the threshold fixed
  (:func:`return_freed_memory`) it went back to 157 MB. That costs one ``mmap`` per large array
  (a page fault per page touched); the arrays of a class's vectors (a few hundred ratings) are
  far below it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import threading
import time

#: Blocks of this many bytes or more get a mapping of their own, unmapped when they are freed.
MMAP_THRESHOLD = 256 * 1024
#: ``mallopt``'s parameter for that threshold (glibc's ``M_MMAP_THRESHOLD``); setting it also
#: stops glibc from raising it.
_M_MMAP_THRESHOLD = -3


def return_freed_memory() -> bool:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD`; whether it could (not on a system
    without glibc, where the allocator has its own policy)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))


#: Seconds between two collections of the garbage cycles dropped sessions leave.
COLLECT_EVERY_S = 60.0
_COLLECTOR = "qwk-garbage-collector"


def start_collector(every: float = COLLECT_EVERY_S) -> bool:
    """Start, once per process, a daemon thread collecting garbage cycles every ``every``
    seconds; whether this call started it."""
    if any(thread.name == _COLLECTOR for thread in threading.enumerate()):
        return False

    def collect() -> None:
        while True:
            time.sleep(every)
            gc.collect()

    threading.Thread(target=collect, name=_COLLECTOR, daemon=True).start()
    return True
