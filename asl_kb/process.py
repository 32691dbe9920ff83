"""How an asl-kb process spends and ends: the process machinery that earns
its keep, in one place, behind one switch.

The speed of a run comes from the encoding and the grounding; these are
the few things about the Python process around them worth keeping, each
measured (docs/design.md "The process"):

- `paused()`: Python's cyclic garbage collector off while one answer is
  figured (outcomes(), a web answer). A rout graph is read into ~10^5
  objects in no cycle (tests/test_process.py), and the collector
  walked them again and again (docs/performance.md). Back on, as it was, when the last block
  under way in the process ends (threads may overlap).
- `one_position()` and `end()`: a one-position command (`outcomes`,
  `check`, `why-not`) keeps the collector off for the whole process (the
  modules it imports make cycles it walked ~40 times) and, once its answer
  is written and flushed, ends without Python's teardown: freeing the rout
  graph, the clingo Control and every module cost a rulebook position a
  tenth of its run, with nothing left to do.
- `file_holding()`: a temporary file for clingo to read a position's facts
  from (it reads files by name only; a file in memory, /proc/self/fd/N, it
  cannot open), made in $TMPDIR or /tmp without the tempfile module: it and
  what it imports (random, shutil) cost a rulebook position's run more than
  the file.

The switch: QUICK, on unless the environment sets ASL_KB_PLAIN=1. Off,
every function here is the plain path (the collector as Python runs it, the
usual exit, tempfile's file): the answers are the same byte for byte
(tests/test_process.py runs both).

Not switched: `exit_now()`, the end of a process that must not run
Python's exit -- a forked child (asl_kb/children.py), which would run its
parent's exit handlers and flush its parent's buffers again, and the
watchdog past --timeout (asl_kb/budget.py), whose run is inside a C call
no Python exit would wait out.

And the process's state, `STATE` (a `State`): every value a process keeps
and changes from one call to the next -- the deadline and phase of
--timeout, the collector's pauses, the progress of the run under way, the
live children, the boards folder of --vasl-boards, clingo's warnings, the
entry programs parsed, the facts remembered, and the memos no functools
cache can be (kept()) -- is a field of this one object. Here, because it
belongs to the process, not to one answer, as the rest of this module
does: a forked child inherits all of it, the watchdog's thread reads the
run's phase from it, and a test sees or resets it in one place. Each field
is changed by the one module its comment names, through that module's
functions. Elsewhere a module holds constants and functools' caches of
pure functions, never state (tests/test_state.py checks it).
"""

from __future__ import annotations

import collections
import contextlib
import gc
import os
import sys
import threading
from typing import Any

#: the machinery on (False: the plain path; ASL_KB_PLAIN=1)
QUICK = os.environ.get("ASL_KB_PLAIN", "") in ("", "0")

_LOCK = threading.Lock()


class State:
    """What this process keeps from one call to the next (each field
    changed by the module named, read through its functions). A plain
    class: dataclasses would import inspect into every command's start."""

    def __init__(self) -> None:
        # -- the run's time budget, --timeout (asl_kb/budget.py)
        #: time.monotonic() past which budget.check() raises TimedOut (None: no deadline)
        self.deadline: float | None = None
        #: the --timeout the deadline stands for (messages)
        self.timeout: float | None = None
        #: the phase the run is in (the last check's `where`)
        self.phase = "starting"
        #: the run has answered: the watchdog has nothing to add
        self.finished = False
        # -- the collector's pauses (paused(), below): blocks under way, and
        # whether the collector was on when the first began
        self.under_way = 0
        self.was_enabled = False
        #: the units the run in progress has read so far, and its graph: what
        #: the watchdog's answer lists when a ground call overruns the
        #: deadline (asl_kb/engines/outcomes.py)
        self.progress: dict[str, Any] = {}
        #: the children of this process not yet reaped (asl_kb/children.py)
        self.alive: set[Any] = set()
        #: `--vasl-boards DIR` as the command line gave it (asl_kb/vasl/archive.py)
        self.boards_option: str | None = None
        # -- clingo in this process (asl_kb/asp/control.py)
        #: every clingo warning met so far, as (code, message)
        self.warnings: list[tuple[str, str]] = []
        #: the entry programs a Control has loaded (the next ones get their
        #: statements parsed once)
        self.loaded: set[str] = set()
        #: an entry program's path -> (the files it read, with their text;
        #: its statements): parsed once, reused while none of its files changed
        self.parsed: collections.OrderedDict[str, tuple] = collections.OrderedDict()
        #: a complete rules folder made from an overlay folder -> that folder
        self.made_from: dict[Any, Any] = {}
        # -- the facts of positions built lately (asl_kb/asp/facts.py)
        #: when a dict (facts.remember_facts()), the facts kept and what
        #: follows their header: `make mutate`'s workers and the committee's
        #: trials run the same positions under many rule sets
        self.remembered: collections.OrderedDict[Any, Any] | None = None
        self.remember_at_most = 0
        #: the memos no functools cache can be (kept()), by name
        self.memos: dict[str, dict] = {}


#: this process's state
STATE = State()


def kept(name: str) -> dict:
    """The process's memo `name` (its module's, and what it keeps: e.g.
    "committee.edits undone"), empty at first: a memo that no functools
    cache can be, as it depends on files as they are, on what was met
    first, or is cleared by its module."""
    memos = STATE.memos
    got = memos.get(name)
    if got is None:
        got = memos[name] = {}
    return got


@contextlib.contextmanager
def paused():
    """The cyclic garbage collector off inside the block (QUICK)."""
    if not QUICK:
        yield
        return
    state = STATE
    with _LOCK:
        if state.under_way == 0:
            state.was_enabled = gc.isenabled()
            gc.disable()
        state.under_way += 1
    try:
        yield
    finally:
        with _LOCK:
            state.under_way -= 1
            if state.under_way == 0 and state.was_enabled:
                gc.enable()


def one_position() -> None:
    """This process answers one position and ends (QUICK): the collector off
    until it does."""
    if QUICK:
        gc.disable()


def end(code: int) -> None:
    """End a one-position command's process with `code`, its answer written:
    without Python's teardown (QUICK), else as usual (sys.exit). Where the
    answer cannot be flushed (the reader closed the pipe) Python's own exit
    reports it."""
    if QUICK:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except OSError:
            sys.exit(code)
        exit_now(code)
    sys.exit(code)


@contextlib.contextmanager
def file_holding(data: bytes, suffix: str):
    """A temporary file holding `data`, its path yielded, removed after the
    block. (QUICK: named here, in $TMPDIR or /tmp; where that folder cannot
    take it, and on the plain path, by tempfile.)"""
    fd = -1
    if QUICK:
        folder = os.environ.get("TMPDIR") or "/tmp"
        try:
            while fd < 0:
                path = os.path.join(folder, f"asl-kb-{os.getpid()}-{os.urandom(6).hex()}{suffix}")
                try:
                    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                except FileExistsError:
                    continue
        except OSError:
            fd = -1
    if fd < 0:
        import tempfile

        fd, path = tempfile.mkstemp(prefix="asl-kb-", suffix=suffix)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        yield path
    finally:
        os.unlink(path)


def exit_now(code: int) -> None:
    """End the process at once: no exit handlers, no buffers flushed."""
    os._exit(code)
