"""Child processes: the one way asl-kb works in parallel on this machine.

A child is a forked copy of this process that runs one function: it starts
in about a millisecond and finds everything the parent figured (a group's
reach, the parsed rules, a warm engine) without being sent it. Its return
value comes back pickled through a pipe; a child that talks (`talk=True`)
also gets a channel for messages both ways (a worker that runs task after
task). A cluster of other machines is Dask's job (asl_kb/committee/dask_run.py).

    child = start(fn, *args, memory=None, alarm=None, talk=False)
        fn(*args) in a new child, or fn(channel, *args) with `talk`;
        `memory`: its data cap in bytes (RLIMIT_DATA); `alarm`: seconds
        after which it is ended (SIGALRM, inside a C call too)
    child.fileno()      readable once it has answered (or ended): select(),
                        asyncio's loop.add_reader()
    child.result()      wait for its answer: fn's return value; what fn
                        raised, raised again here (ChildFailed where it cannot
                        be pickled); EOFError-free: a child that ended without
                        an answer raises TimedOut (its alarm), MemoryError
                        (under its memory cap) or ChildFailed
    child.send(obj), child.recv()     with `talk`: messages to and from fn
    child.kill()        end it and every process it started; reap it (again: nothing)
    with start(...) as child:         killed on leaving the block, if still running
    ready(children, timeout)          the children with something to read

Guarantees (Linux; elsewhere, where os.fork is missing, jobs() is 1 and
callers run the work in their own process):

- No child outlives its parent. Each asks the kernel to SIGKILL it when its
  parent dies (prctl PR_SET_PDEATHSIG), whatever ends the parent -- SIGTERM,
  SIGKILL, a crash -- so nothing is left re-parented to init; one whose
  parent died before it asked ends at once. The children it starts in turn
  ask the same: a tree dies from the top.
- No child outlives the work that started it. kill() -- and leaving a
  `with` block, a closed generator, an exception -- ends the child's whole
  process group: it leads its own, so what it started (a subprocess, a
  browser) goes with it. A request cancelled kills its tree.
- A child ends with os._exit (asl_kb/process.py): never the parent's atexit
  handlers, never the parent's buffers flushed twice. Ctrl-C reaches the
  parent alone (the child is in its own group), which kills its children
  on the way out.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable

from asl_kb import process
from asl_kb.budget import TimedOut

#: the exit status of a process the C library ends when it cannot allocate a
#: new thread's data ("cannot allocate memory for thread-local data: ABORT")
LOADER_ABORT = 127
#: prctl(2): ask for a signal when the parent dies
_PR_SET_PDEATHSIG = 1


class ChildFailed(RuntimeError):
    """A child ended without an answer, or with an exception that could not
    come back as itself."""


class AlarmRang(TimedOut):
    """A child ended by its alarm (start(alarm=...)) before it answered."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not Linux)
        return os.cpu_count() or 1


def can_fork() -> bool:
    return hasattr(os, "fork")


@functools.cache
def _prctl():
    """The C library's prctl (None where there is none: not Linux), looked
    up once in the parent: every child finds it."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def _die_with_parent(parent: int) -> None:
    import signal

    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request took
        process.exit_now(1)


class _Answer(tuple):
    """A child's last message: ("ok", value) or ("raised", exception)."""


def alive() -> list[Child]:
    """The children this process started and has not yet seen end (the
    process's state, process.STATE.alive)."""
    return list(process.STATE.alive)


class Child:
    """A forked child running one function (start())."""

    def __init__(self, pid: int, conn, talk: bool, capped: bool, said=None):
        self.pid, self._conn, self._talk, self._capped = pid, conn, talk, capped
        #: a capped child's standard error (a file): what the C library
        #: says as it ends one under its cap is the parent's to say or not
        self._said = said
        self._status: int | None = None
        self._answer: tuple | None = None
        process.STATE.alive.add(self)

    # -- the parent's side

    def fileno(self) -> int:
        return self._conn.fileno()

    def send(self, obj) -> None:
        self._conn.send(obj)

    def recv(self):
        """The next message of a talking child (EOFError once it has ended)."""
        return self._conn.recv()

    def result(self):
        """fn's return value (waiting for it), or what fn raised."""
        if self._answer is None:
            try:
                while True:  # (a talking child's messages not read are dropped)
                    msg = self._conn.recv()
                    if isinstance(msg, _Answer):
                        self._answer = tuple(msg)
                        break
            except (EOFError, OSError):
                self._answer = ("ended",)
            self._reap()
        if self._answer[0] == "ok":
            return self._answer[1]
        if self._answer[0] == "raised":
            raise self._answer[1]
        raise self._ended_without_answer()

    def _ended_without_answer(self) -> BaseException:
        import signal

        status = self._status or 0
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM:
            return AlarmRang("a child process past its alarm")
        said = self._words()
        if self._capped and (os.WIFSIGNALED(status) or os.WEXITSTATUS(status) == LOADER_ABORT):
            # under its memory cap, an allocation no MemoryError reaches (a
            # thread's stack and data: the C library aborts, or a C extension
            # reads the null pointer it got); what it printed is not said
            return MemoryError()
        return ChildFailed(
            f"a child process ended without an answer (wait status {status})" + (f": {said}" if said else "")
        )

    def _words(self) -> str:
        """What a capped child wrote to standard error (said once)."""
        said, self._said = self._said, None
        if said is None:
            return ""
        try:
            said.seek(0)
            return " ".join(said.read(4000).decode("utf-8", "replace").split())
        except OSError:
            return ""
        finally:
            said.close()

    def _reap(self) -> None:
        if self._status is None:
            try:
                self._status = os.waitpid(self.pid, 0)[1]
            except ChildProcessError:
                self._status = 0
        self._conn.close()
        if self._answer is None or self._answer[0] != "ended":
            self._words()  # (it answered, or was ended: nothing it printed is said)
        process.STATE.alive.discard(self)

    def running(self) -> bool:
        if self._status is not None:
            return False
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if pid == 0:
            return True
        self._status = status
        self._reap()
        return False

    def kill(self) -> None:
        """End the child and its process group, and reap it."""
        import signal

        if self._status is not None:
            return
        for kill in (os.killpg, os.kill):
            try:
                kill(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self._reap()

    def __enter__(self) -> Child:
        return self

    def __exit__(self, *exc) -> None:
        self.kill()


def start(fn: Callable, *args, memory: int | None = None, alarm: float | None = None, talk: bool = False) -> Child:
    """fn(*args) (fn(channel, *args) with `talk`) in a new child process."""
    import signal  # noqa: F401  (imported before the fork: the child finds it imported)
    from multiprocessing.connection import Pipe

    _prctl()
    said = None
    if memory is not None:
        import tempfile

        said = tempfile.TemporaryFile()
    mine, theirs = Pipe(duplex=talk)
    parent = os.getpid()
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        pid = os.fork()
    except OSError:  # no memory for another process (EAGAIN, ENOMEM)
        mine.close()
        theirs.close()
        if said is not None:
            said.close()
        raise MemoryError from None
    if pid == 0:
        code = 0
        try:
            _set_up_child(parent, mine, said, memory, alarm)
            _answer(theirs, fn, args, talk, memory is not None)
        except BaseException:
            code = 1
        finally:
            process.exit_now(code)
    theirs.close()
    try:  # (as the child does: a kill() before the child has run finds its group)
        os.setpgid(pid, pid)
    except OSError:
        pass
    return Child(pid, mine, talk, memory is not None, said)


def _set_up_child(parent: int, mine, said, memory: int | None, alarm: float | None) -> None:
    """The child in its own process group, ending with its parent, its
    stderr in `said`, capped at `memory` bytes of data, its alarm set."""
    import signal

    os.setpgid(0, 0)
    _die_with_parent(parent)
    mine.close()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if said is not None:
        os.dup2(said.fileno(), 2)
    if memory is not None:
        import resource

        resource.setrlimit(resource.RLIMIT_DATA, (memory, resource.getrlimit(resource.RLIMIT_DATA)[1]))
    if alarm is not None:
        import math

        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(max(1, math.ceil(alarm)))


def _answer(theirs, fn: Callable, args: tuple, talk: bool, capped: bool) -> None:
    """fn's value, or what it raised, sent to the parent."""
    try:
        value = fn(theirs, *args) if talk else fn(*args)
        answer = _Answer(("ok", value))
    except BaseException as e:  # handed to the parent, which raises it again
        if capped and isinstance(e, SystemError):
            # (a C extension's allocation failed under the cap:
            # "error return without exception set")
            e = MemoryError()
        answer = _Answer(("raised", e))
    try:
        if answer[0] == "raised":  # (one the parent cannot make again is said in words)
            import pickle

            pickle.loads(pickle.dumps(answer[1]))
        theirs.send(answer)
    except Exception as e:  # an answer that does not pickle
        said = answer[1] if answer[0] == "raised" else e
        theirs.send(_Answer(("raised", ChildFailed(f"{type(said).__name__}: {said}"))))


def ready(children: Iterable[Child], timeout: float | None = None) -> list[Child]:
    """The children with something to read (an answer, a message, their
    end), waiting at most `timeout` seconds ([]: none in time)."""
    from multiprocessing.connection import wait

    by_conn = {c._conn: c for c in children}
    return [by_conn[c] for c in wait(list(by_conn), timeout)]
