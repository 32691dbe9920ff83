"""Python's cyclic garbage collector paused while one answer is figured.

A rout graph is read into ~10^5 objects, none left in a cycle
(tests/asp/test_collector.py), and the collector walked them again and again:
on an open board 4 full collections, 0.13 s of 0.7; on 16 spread boards
0.5 s. `paused()` turns it off for the block and back on, as it was, when
the last block under way in the process ends (threads may overlap). Used by
`outcomes()` and by the CLI around a one-position command; the committee's
long searches keep it on between positions.
"""

from __future__ import annotations

import contextlib
import gc
import threading

_LOCK = threading.Lock()
#: blocks under way, and whether the collector was on when the first began
_under_way = 0
_was_enabled = False


@contextlib.contextmanager
def paused():
    global _under_way, _was_enabled
    with _LOCK:
        if _under_way == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _under_way += 1
    try:
        yield
    finally:
        with _LOCK:
            _under_way -= 1
            if _under_way == 0 and _was_enabled:
                gc.enable()


#: what a process that ends at its answer keeps rather than frees (None: it
#: frees as usual): the CLI's one-position commands end without Python's
#: teardown (cli.run), so freeing an answer's objects -- an open board's
#: graph 5 ms, its JSON data 6 ms -- would only delay the answer
_KEPT: list | None = None


def ends_at_answer() -> None:
    """From now on keep() keeps: the process ends once it has answered."""
    global _KEPT
    if _KEPT is None:
        _KEPT = []


def keep(obj) -> None:
    """Keep `obj` (an answer's objects, about to be dropped) unfreed until the
    process ends, where it ends at its answer; else nothing."""
    if _KEPT is not None:
        _KEPT.append(obj)


def let_go() -> None:
    """Free what keep() kept: an answer that could not be written in the
    memory left needs that memory for the answer that says so (cli.py)."""
    if _KEPT:
        _KEPT.clear()
