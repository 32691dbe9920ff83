"""A run's time budget (--timeout): one deadline for the whole run, checked
in every phase (the facts' reach and LOS scans, between clingo's ground
calls, while it solves, while the answer is read), and a watchdog for the
one place no check can reach: inside a single clingo ground call.

Python code calls `check(where)` at the top of each loop step that may be
long; past the deadline it raises TimedOut (the caller answers with what it
has, complete: false). `where` is also kept as the phase the run is in, for
the watchdog's answer. The watchdog (`watchdog()`, armed by the CLI only:
it ends the process) fires when the deadline is overrun by more than the
slack a deadline is kept within (10 % or 1 s, whichever is larger), writes
the answer its caller prepared and exits 3 (incomplete).

And its memory room (--max-memory: RLIMIT_DATA, which the CLI sets): native
code that finds the memory gone does not always fail softly (orjson and
clingo ended the process, glibc aborted a thread), so a run asks
`require_room(need, where)` before handing such code a large task, and
answers the MemoryError it raises as cut by the cap.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time

from asl_kb import process

#: the run's deadline, its --timeout, its phase and whether it has answered
#: are fields of the process's state (asl_kb/process.py), changed here only
_STATE = process.STATE
#: held while the answer is written: the watchdog never writes into it
ANSWER_LOCK = threading.Lock()


class TimedOut(Exception):
    """The deadline passed; the message says where the work was cut."""

    #: set (not always) by the reader it cut: the units read in full and their odds table
    done: list
    table: object


def slack(timeout: float) -> float:
    """How far past `timeout` seconds a run may end: 10 % or 1 s, whichever
    is larger."""
    return max(1.0, 0.1 * timeout)


@contextlib.contextmanager
def deadline_in(timeout: float | None):
    """Inside the block, check() raises TimedOut `timeout` seconds from now
    (or at the deadline already set, if that is sooner)."""
    state = _STATE
    before = state.deadline, state.timeout
    if timeout is not None:
        mine = time.monotonic() + timeout
        if before[0] is None or mine < before[0]:
            state.deadline, state.timeout = mine, timeout
    try:
        yield
    finally:
        state.deadline, state.timeout = before


def deadline() -> float | None:
    return _STATE.deadline


def timeout() -> float | None:
    """The --timeout in force (None: none)."""
    return _STATE.timeout


def passed() -> bool:
    at = _STATE.deadline
    return at is not None and time.monotonic() > at


def check(where: str) -> None:
    """Note the phase; raise TimedOut(where) past the deadline."""
    state = _STATE
    state.phase = where
    if state.deadline is not None and time.monotonic() > state.deadline:
        raise TimedOut(where)


def phase() -> str:
    return _STATE.phase


def finish() -> None:
    """The run has answered (the watchdog, if armed, stays silent)."""
    with ANSWER_LOCK:
        _STATE.finished = True


def watchdog(timeout: float, answer) -> threading.Timer:
    """Arm a timer that fires half way through the run's slack (the
    run has not ended though its deadline passed: it is inside a call no
    check reaches). It calls `answer(where)` -- which returns the text that
    says the run was cut and what it figured -- writes it to standard output
    and ends the process with exit 3. Cancel it when the run has answered."""

    def fire():
        if not ANSWER_LOCK.acquire(blocking=False):
            return  # the run is writing its own answer
        if _STATE.finished:
            return  # ... or has written it
        try:
            out = answer(_STATE.phase)
            sys.stdout.write(out)
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            process.exit_now(3)

    # fire half way through the slack: writing the answer (a thousand units
    # named) and ending the process take a moment
    t = threading.Timer(max(0.0, timeout + slack(timeout) / 2), fire)
    t.daemon = True
    t.start()
    return t


def cap_memory(mib: int, beyond: int = 0) -> None:
    """Cap the process's data (RLIMIT_DATA: the heap and anonymous memory,
    where clingo grounds) at `mib` MiB -- beyond `beyond` bytes it holds
    already (a child forked from a warm server: asl_kb/serve/work.py) --
    below any cap already set (--max-memory). Past it an allocation fails
    with MemoryError, which a run answers as cut. (Where the resource module
    or the limit is missing: no cap.)"""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        want = mib * 2**20 + beyond
        if hard != resource.RLIM_INFINITY:
            want = min(want, hard)
        if soft == resource.RLIM_INFINITY or want < soft:
            resource.setrlimit(resource.RLIMIT_DATA, (want, hard))
    except (ImportError, AttributeError, ValueError, OSError):
        pass


def memory_cap() -> tuple:
    """The process's data limits (soft, hard) as they are: for
    restore_memory_cap() once a run capped in a caller's process is done."""
    import resource

    return resource.getrlimit(resource.RLIMIT_DATA)


def restore_memory_cap(before: tuple) -> None:
    """Give back the limits memory_cap() found: the CLI's main() runs inside
    a caller's process (tests, tools), whose later work must not inherit
    one run's cap."""
    import resource

    resource.setrlimit(resource.RLIMIT_DATA, before)


def data_used() -> int | None:
    """Bytes of data (the heap and anonymous memory: what RLIMIT_DATA and so
    --max-memory count) the process holds, as Linux counts them
    (/proc/self/statm); None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[5]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def data_room() -> int | None:
    """Bytes of data the process may still take under its cap (RLIMIT_DATA);
    None without a cap or where it cannot be read."""
    soft = data_cap()
    used = None if soft is None else data_used()
    return None if soft is None or used is None else soft - used


def data_cap() -> int | None:
    """The process's data cap in bytes (RLIMIT_DATA's soft limit; what
    --max-memory sets), None without one."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
    except (ImportError, OSError, ValueError, AttributeError):
        return None
    return None if soft == resource.RLIM_INFINITY else soft


def require_room(need: int, where: str, room: int | None = None) -> None:
    """Raise MemoryError (said: the cap was reached while `where`) unless the
    process has `need` bytes of data left under its cap (`room`: as
    data_room() says, where the caller measured it); no cap, no question."""
    room = data_room() if room is None else room
    if room is not None and room < need:
        raise MemoryError(f"no room under the memory cap for {where}")


def thread_need() -> int:
    """The data a new thread needs with room to spare: its stack is data too
    (RLIMIT_STACK's size, 8 MiB here), and where there is none glibc ends
    the process ("cannot allocate memory for thread-local data") or the
    thread fails to start (clingo's solving thread: a RuntimeError)."""
    try:
        import resource

        stack = resource.getrlimit(resource.RLIMIT_STACK)[0]
    except (ImportError, OSError, ValueError, AttributeError):
        stack = -1
    if stack <= 0 or stack > (64 << 20):
        stack = 8 << 20
    return stack + (16 << 20)


def room_for_thread() -> bool:
    """Whether a new thread fits under the memory cap (thread_need): a run
    that can do without one asks before it starts one."""
    try:
        require_room(thread_need(), "a thread")
    except MemoryError:
        return False
    return True
