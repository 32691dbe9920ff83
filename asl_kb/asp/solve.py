"""Run clingo on the rules and a position's facts.

The rules derive each broken unit's rout graph one stage at a time: the
static part (#program base) is grounded first, then #program step(t,p) for
t = 0, 1, ... (p = t-1) -- with #program plan(t,p), the destinations figured,
in the same call at the stages the rules name (plans/1) -- each followed by
#program carry(t), which copies what the next stage needs (the states the
rout may go on from, what each epoch knows) under other names (was_*/2,3).
The grounder tells predicates apart by name, not by the stage number in
their first argument, so reading the previous stage under another name,
grounded in an earlier call, keeps every stage stratified: each stage
grounds to facts. The program has one answer set, which
holds every legal outcome: there is no search to cut short, and the result is
complete by construction.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import clingo

from asl_kb import budget
from asl_kb.asp import control
from asl_kb.asp.control import new_control
from asl_kb.budget import TimedOut  # noqa: F401 - raised here, caught by the callers
from asl_kb.record import Record, record


#: six moves at most (A10.5: six MF, no Location cheaper than one MF), plus a
#: stage for each concealed unit that may drop concealment on the way (A10.533)
MAX_MOVES = 6


def _check(deadline: float | None, where: str) -> None:
    budget.check(where)
    if deadline is not None and time.monotonic() > deadline:
        raise TimedOut(where)


def _until(deadline: float | None) -> float | None:
    """The sooner of `deadline` and the run's (asl_kb/budget.py)."""
    run = budget.deadline()
    return run if deadline is None else deadline if run is None else min(run, deadline)


@record
class SolveStats(Record):
    """Timing figures of a run: grounding and solving seconds, ground atoms, stages."""

    ground_seconds: float = 0.0
    solve_seconds: float = 0.0
    atoms: int = 0
    stages: int = 0


def _grew(ctl, stage: int) -> bool:
    """Whether this stage left a state the rout may go on from (grew/1)."""
    return ctl.symbolic_atoms[clingo.Function("grew", [clingo.Number(stage)])] is not None


def _stage_parts(ctl, stage: int) -> list:
    """The parts grounded for a stage: step(t,p), and plan(t,p) in the same
    call when the rules say the stage may figure a destination (plans/1)."""
    args = [clingo.Number(stage), clingo.Number(stage - 1)]
    if ctl.symbolic_atoms[clingo.Function("plans", [clingo.Number(stage)])] is not None:
        return [("step", args), ("plan", args)]
    return [("step", args)]


def solve(
    facts: str, concealed: int = 0, entry: str = "rout.lp", deadline: float | None = None
) -> tuple[Sequence[clingo.Symbol], SolveStats]:
    """The shown atoms of the program's answer set, and timing figures.
    `entry`: rout.lp, or an entry program that includes it (why_not.lp).
    Past `deadline` (time.monotonic()) it raises TimedOut: checked between the
    ground calls (grounding cannot be interrupted from inside) and while
    solving (cancelled)."""
    stats = SolveStats()
    deadline = _until(deadline)
    _check(deadline, "grounding the rout graphs (reading the rules and facts)")
    ctl = new_control(entry, facts)
    ground_stages(ctl, concealed, stats, deadline)
    t0 = time.perf_counter()
    shown: list[Sequence[clingo.Symbol]] = []
    if deadline is None or not budget.room_for_thread():
        # (solved in this thread where the memory cap leaves no room for
        # clingo's solving thread: the watchdog still bounds the run)
        ctl.solve(on_model=lambda m: shown.append(m.symbols(shown=True)))
    else:
        _check(deadline, "solving the rout graphs")
        with ctl.solve(on_model=lambda m: shown.append(m.symbols(shown=True)), async_=True) as handle:
            if not handle.wait(max(0.0, deadline - time.monotonic())):
                handle.cancel()
                raise TimedOut("solving the rout graphs")
    stats.solve_seconds += time.perf_counter() - t0
    if not shown:
        raise control.no_answer_set(entry)
    stats.atoms = len(ctl.symbolic_atoms)
    return shown[0], stats


class Stages:
    """What the stage loop grounds and reads between its ground calls: the
    parts of a stage (step, and plan where the rules say), its carry,
    whether it grew. (A grounding of several variants at once watches its
    size here: asp/once.py.)"""

    def parts(self, ctl, stage: int) -> list:
        return _stage_parts(ctl, stage)

    def carry(self, ctl, stage: int) -> list:
        return [("carry", [clingo.Number(stage)])]

    def grew(self, ctl, stage: int) -> bool:
        return _grew(ctl, stage)


def ground_stages(
    ctl,
    concealed: int = 0,
    stats: SolveStats | None = None,
    deadline: float | None = None,
    stages: Stages | None = None,
) -> None:
    """Ground #program base, the stages step/carry until one leaves nothing
    to go on from, then #program final."""
    stats = SolveStats() if stats is None else stats
    stages = Stages() if stages is None else stages
    _check(deadline, "grounding the rout graphs (the static part)")
    room = GroundCallMemory()
    t0 = time.perf_counter()
    ctl.ground([("base", [])])
    stats.ground_seconds += time.perf_counter() - t0
    room.took()
    for stage in range(MAX_MOVES + concealed + 1):
        _check(deadline, f"grounding the rout graphs, before stage {stage}")
        room.ask(2, f"grounding the rout graphs, stage {stage}")
        t0 = time.perf_counter()
        ctl.ground(stages.parts(ctl, stage))
        ctl.ground(stages.carry(ctl, stage))
        stats.ground_seconds += time.perf_counter() - t0
        stats.stages = stage + 1
        room.took()
        if not stages.grew(ctl, stage):
            break
    _check(deadline, "grounding the rout graphs, before the final part")
    # (the final part derives, for every stage at once, more than one stage)
    room.ask(3, "grounding the rout graphs, the final part")
    t0 = time.perf_counter()
    ctl.ground([("final", [])])
    stats.ground_seconds += time.perf_counter() - t0


#: data kept free under the memory cap beyond what a ground call is
#: expected to take (GroundCallMemory)
GROUND_SLACK = 16 << 20


class GroundCallMemory:
    """The memory a run's ground calls take, asked before each next one:
    clingo does not always fail softly when an allocation fails inside a
    ground call under the cap (RLIMIT_DATA) -- at some sizes it ends the
    process, SIGSEGV -- so a ground call is not begun without room for
    `factor` times what the largest one before it took, and GROUND_SLACK:
    a MemoryError instead, which the run answers as cut by the cap. With no
    cap (or no /proc), nothing is asked."""

    def __init__(self):
        #: (nothing measured without a cap)
        self.cap = budget.data_cap()
        self.used = budget.data_used() if self.cap is not None else None
        self.most = 0

    def took(self) -> None:
        """A ground call has ended: what it took."""
        if self.cap is None:
            return
        now = budget.data_used()
        if now is not None and self.used is not None:
            self.most = max(self.most, now - self.used)
        self.used = now

    def ask(self, factor: int, where: str) -> None:
        # (the room left after the last ground call: nothing is taken between)
        if self.cap is None or self.used is None:
            return
        budget.require_room(factor * self.most + GROUND_SLACK, where, room=self.cap - self.used)
