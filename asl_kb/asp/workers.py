"""The groups of a rout program (asl_kb/asp/groups.py) solved in child
processes (asl_kb/children.py), one child per group and `jobs` at a time,
their answers handed back in group order.

Why processes: clingo grounds in one thread, and a group's program is
grounded and solved on its own facts, so two groups on two cores take the
wall time of one. Why one process per group: each child's memory is one
group's Control, returned to the system when it ends (the parent never
holds a Control). A child's answer comes back as text -- the shown symbols
as one tuple term, read with clingo.parse_term -- and is read in group
order, so the graph (asl_kb/engines/graph.py) is built exactly as in one
process: the outputs are the same byte for byte.

Honest bounds: a child keeps the run's deadline (solve() checks it between
ground calls) and is ended by its alarm past it and its slack (a ground
call no check reaches); the parent waits for an answer no longer than the
deadline, then ends the children and raises TimedOut, so a cut run lists
the units of the groups read before it. A child inherits the process's
memory cap (--max-memory: RLIMIT_DATA) kept to its share, so that the run
as a whole stays within it: the parent's data, and an equal part of what is
left for each child running at once; a child past it reports a
MemoryError, which the parent raises again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence

import clingo

from asl_kb import budget, children
from asl_kb.asp.solve import SolveStats, TimedOut, solve


def jobs(asked: int | None = None) -> int:
    """How many groups are solved at once, where os.fork exists: `asked`
    (the worker processes a run with several groups uses; 1: none, every
    group solved in this process), or the cores."""
    if not children.can_fork():
        return 1
    return max(1, asked if asked is not None else children.cores())


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
    # a child started now -> its group; a new one starts as soon as any ends
    # (groups ground in times no count of Locations foretells), the answers
    # are yielded in group order
    running: dict[children.Child, int] = {}
    ended: dict[int, tuple | BaseException] = {}  # group -> its answer read, or why none
    todo = enumerate(texts)
    try:
        for i in range(len(texts)):
            while True:
                # (a free core takes the next group before this one is read)
                _start(running, todo, n, (concealed, deadline, cap))
                if i in ended:
                    break
                ready = children.ready(running, _left(deadline))
                if not ready:
                    raise TimedOut("grounding the rout graphs")
                for child in ready:
                    # (read at once: a later group's answer while an earlier
                    # one is still being solved)
                    ended[running.pop(child)] = _outcome(child)
            got = ended.pop(i)
            if isinstance(got, BaseException):
                raise got
            yield got
    finally:
        for child in running:
            child.kill()


def _start(running: dict, todo, n: int, how: tuple) -> None:
    """Children for the next groups of `todo` while fewer than `n` run
    (`how`: _launch's concealed, deadline and cap)."""
    while len(running) < n:
        nxt = next(todo, None)
        if nxt is None:
            break
        running[_launch(nxt[1], *how)] = nxt[0]


def _launch(text, concealed: int, deadline: float | None, cap: int | None) -> children.Child:
    """A child solving one group, its alarm set past the deadline."""
    alarm = None
    if deadline is not None:
        left = deadline - time.monotonic()
        alarm = left + budget.slack(max(left, 0.0))
    return children.start(_solved, text, concealed, deadline, memory=cap, alarm=alarm)


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def _solved(text: str | Callable[[], str], concealed: int, deadline: float | None) -> tuple[str, SolveStats]:
    """A child's answer: the shown symbols as one tuple term (written by
    clingo in one call, read with one parse_term in the parent) and the stats."""
    symbols, stats = solve(_text(text), concealed, deadline=deadline)
    return str(clingo.Function("", symbols)), stats


def _outcome(child: children.Child) -> tuple | BaseException:
    """A child's (shown symbols, stats), or what it raised (raised in the
    group's turn)."""
    try:
        text, stats = child.result()
    except children.AlarmRang:
        return TimedOut("grounding the rout graphs")
    except (TimedOut, MemoryError) as e:
        return e
    except children.ChildFailed as e:
        return RuntimeError(f"a child solving a group: {e}")
    except Exception as e:  # a bug: said, in the group's turn
        return RuntimeError(f"a child solving a group: {type(e).__name__}: {e}")
    return clingo.parse_term(text).arguments, stats


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
