"""The groups of a rout program (asl_kb/asp/groups.py) solved in forked
worker processes, one process per group and `jobs` at a time, their answers
handed back in group order.

Why processes: clingo grounds in one thread, and a group's program is
grounded and solved on its own facts, so two groups on two cores take the
wall time of one. Why one process per group: each worker's memory is one
group's Control, returned to the system when it ends (the parent never
holds a Control), and a worker whose parent is gone ends with its group
(its answer finds no reader). A worker's answer comes back as text -- the
shown symbols as one tuple term, read with clingo.parse_term -- and is read
in group order, so the graph (asl_kb/engines/graph.py) is built exactly as
in one process: the outputs are the same byte for byte.

Honest bounds: a worker keeps the run's deadline (solve() checks it between
ground calls) and is ended by SIGALRM past it and its slack (a ground call
no check reaches); the parent waits for an answer no longer than the
deadline, then ends the workers and raises TimedOut, so a cut run lists the
units of the groups read before it. A worker inherits the process's memory
cap (--max-memory: RLIMIT_DATA) kept to its share, so that the run as a
whole stays within it: the parent's data, and an equal part of what is left
for each worker running at once; a worker past it reports a MemoryError,
which the parent raises again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator, Sequence

import clingo

from asl_kb import budget
from asl_kb.asp.solve import SolveStats, TimedOut, solve


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not Linux)
        return os.cpu_count() or 1


#: worker processes a run with several groups uses (None: cores()); 1: none
#: (every group solved in this process)
JOBS: int | None = None


def jobs() -> int:
    """How many groups are solved at once: JOBS, or the cores, where
    os.fork exists."""
    if not hasattr(os, "fork"):
        return 1
    return max(1, JOBS if JOBS is not None else cores())


def solve_groups(
    texts: Sequence[str | Callable[[], str]], concealed: int, deadline: float | None, n: int
) -> Generator[tuple[Sequence[clingo.Symbol], SolveStats], None, None]:
    """(shown symbols, stats) of each group's facts text, in order; with
    n > 1 and more than one group, `n` groups at a time in worker processes.
    A text may be a function that makes it (called where it is solved: the
    worker builds its group's facts, asl_kb/asp/groups.py)."""
    if n <= 1 or len(texts) <= 1:
        for t in texts:
            yield solve(_text(t), concealed, deadline=deadline)
        return
    deadline = _until(deadline)
    cap = _share(n)
    # each worker's read end -> (its group, pid, what it wrote so far); a new
    # one starts as soon as any ends (groups ground in times no count of
    # Locations foretells), the answers are yielded in group order
    running: dict[int, tuple[int, int, list[bytes]]] = {}
    ended: dict[int, tuple | BaseException] = {}  # group -> its answer read, or why none
    todo = enumerate(texts)
    try:
        for i in range(len(texts)):
            while True:
                # (a free core takes the next group before this one is read)
                while len(running) < n:
                    nxt = next(todo, None)
                    if nxt is None:
                        break
                    pid, fd = _start(nxt[1], concealed, deadline, cap)
                    running[fd] = (nxt[0], pid, [])
                if i in ended:
                    break
                fd = _ready(list(running), deadline)
                k, pid, chunks = running[fd]
                chunk = os.read(fd, 1 << 20)
                if chunk:
                    chunks.append(chunk)
                    continue
                del running[fd]
                os.close(fd)
                _, status = os.waitpid(pid, 0)
                # (read at once: a later group's answer while an earlier
                # one is still being solved)
                ended[k] = _outcome(b"".join(chunks), status, cap)
            got = ended.pop(i)
            if isinstance(got, BaseException):
                raise got
            yield got
    finally:
        for fd, (_, pid, _) in running.items():
            _end(pid, fd)


def _text(t: str | Callable[[], str]) -> str:
    return t if isinstance(t, str) else t()


def _until(deadline: float | None) -> float | None:
    run = budget.deadline()
    return run if deadline is None else deadline if run is None else min(run, deadline)


def _share(n: int) -> int | None:
    """The data limit of a worker (RLIMIT_DATA, which counts the parent's
    data a worker is forked with) when the process is capped: the parent's
    data now and 1/n of the rest of the cap. None: no cap."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
        if soft == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/status", encoding="ascii") as f:
            data = next(int(x.split()[1]) * 1024 for x in f if x.startswith("VmData:"))
    except (ImportError, OSError, StopIteration, ValueError):
        return None
    return data + max(0, soft - data) // n


def _start(text: str | Callable[[], str], concealed: int, deadline: float | None, cap: int | None) -> tuple[int, int]:
    # (math, pickle, select and signal imported where a run forks: a run of
    # one group, a rulebook position, needs none of them)
    import math
    import pickle
    import signal

    r, w = os.pipe()
    try:
        pid = os.fork()
    except OSError:  # no memory for another process (EAGAIN, ENOMEM)
        os.close(r)
        os.close(w)
        raise MemoryError from None
    if pid == 0:  # the worker: solve, write the answer, end
        code = 0
        try:
            os.close(r)
            if cap is not None:
                import resource

                resource.setrlimit(resource.RLIMIT_DATA, (cap, resource.getrlimit(resource.RLIMIT_DATA)[1]))
            if deadline is not None:
                left = deadline - time.monotonic()
                signal.signal(signal.SIGALRM, signal.SIG_DFL)
                signal.alarm(max(1, math.ceil(left + budget.slack(max(left, 0.0)))))
            try:
                symbols, stats = solve(_text(text), concealed, deadline=deadline)
                # one tuple term, written by clingo in one call and read
                # with one parse_term in the parent
                answer: tuple = ("ok", str(clingo.Function("", symbols)), stats)
            except TimedOut as e:
                answer = ("timeout", str(e))
            except MemoryError:
                answer = ("memory",)
            except Exception as e:  # a bug: the parent says which
                answer = ("error", f"{type(e).__name__}: {e}")
            with os.fdopen(w, "wb") as out:
                out.write(pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))
        except BaseException:
            code = 1
        finally:
            os._exit(code)  # no atexit, no buffers of the parent flushed twice
    os.close(w)
    return pid, r


def _ready(fds: list[int], deadline: float | None) -> int:
    """A read end with something to read (or its end); TimedOut once the
    deadline passes first."""
    import select

    wait = None if deadline is None else max(0.0, deadline - time.monotonic())
    ready, _, _ = select.select(fds, [], [], wait)
    if not ready:
        raise TimedOut("grounding the rout graphs")
    return min(ready)


#: the exit status of a process the C library ends when it cannot allocate a
#: new thread's data ("cannot allocate memory for thread-local data: ABORT")
_LOADER_ABORT = 127


def _outcome(data: bytes, status: int, cap: int | None) -> tuple | BaseException:
    """_answer(), or what it raises (raised in the group's turn)."""
    try:
        return _answer(data, status, cap)
    except (TimedOut, MemoryError, RuntimeError) as e:
        return e


def _answer(data: bytes, status: int, cap: int | None) -> tuple[Sequence[clingo.Symbol], SolveStats]:
    import pickle
    import signal

    if not data:  # the worker ended without an answer
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM:
            raise TimedOut("grounding the rout graphs")
        if cap is not None and (os.WIFSIGNALED(status) or os.WEXITSTATUS(status) == _LOADER_ABORT):
            # under its share of the cap, an allocation no MemoryError
            # reaches (a thread's stack and data: the C library aborts, or
            # a C extension reads the null pointer it got)
            raise MemoryError
        raise RuntimeError(f"a worker solving a group ended without an answer (wait status {status})")
    answer = pickle.loads(data)
    if answer[0] == "timeout":
        raise TimedOut(answer[1])
    if answer[0] == "memory":
        raise MemoryError
    if answer[0] == "error":
        raise RuntimeError(f"a worker solving a group: {answer[1]}")
    return clingo.parse_term(answer[1]).arguments, answer[2]


def _end(pid: int, fd: int) -> None:
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.close(fd)
    os.waitpid(pid, 0)
