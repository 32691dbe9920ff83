"""Run clingo on the rules and a position's facts.

The rules derive each broken unit's rout graph one stage at a time: the
static part (#program base) is grounded first, then #program step(t,p) for
t = 0, 1, ... (p = t-1), each followed by #program carry(t), which copies what
the next stage needs (the states the rout may go on from, what each epoch
knows) under other names (was_*/2,3). The grounder tells predicates apart by
name, not by the stage number in their first argument, so reading the previous
stage under another name, grounded in an earlier call, keeps every stage
stratified: each stage grounds to facts. The program has one answer set, which
holds every legal outcome: there is no search to cut short, and the result is
complete by construction.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import clingo

from asl_kb.asp.control import new_control


#: six moves at most (A10.5: six MF, no Location cheaper than one MF), plus a
#: stage for each concealed unit that may drop concealment on the way (A10.533)
MAX_MOVES = 6


@dataclass
class SolveStats:
    ground_seconds: float = 0.0
    solve_seconds: float = 0.0
    atoms: int = 0
    stages: int = 0


def _grew(ctl, stage: int) -> bool:
    """Whether this stage left a state the rout may go on from (grew/1)."""
    return ctl.symbolic_atoms[clingo.Function("grew", [clingo.Number(stage)])] is not None


def solve(facts: str, concealed: int = 0, entry: str = "rout.lp") -> tuple[list[clingo.Symbol], SolveStats]:
    """The shown atoms of the program's answer set, and timing figures.
    `entry`: rout.lp, or an entry program that includes it (why_not.lp)."""
    stats = SolveStats()
    ctl = new_control(entry, facts)
    t0 = time.perf_counter()
    ctl.ground([("base", [])])
    stats.ground_seconds += time.perf_counter() - t0
    for stage in range(MAX_MOVES + concealed + 1):
        t0 = time.perf_counter()
        ctl.ground([("step", [clingo.Number(stage), clingo.Number(stage - 1)])])
        ctl.ground([("carry", [clingo.Number(stage)])])
        stats.ground_seconds += time.perf_counter() - t0
        stats.stages = stage + 1
        if not _grew(ctl, stage):
            break
    t0 = time.perf_counter()
    ctl.ground([("final", [])])
    stats.ground_seconds += time.perf_counter() - t0
    t0 = time.perf_counter()
    shown: list[list[clingo.Symbol]] = []
    ctl.solve(on_model=lambda m: shown.append(m.symbols(shown=True)))
    stats.solve_seconds += time.perf_counter() - t0
    stats.atoms = len(ctl.symbolic_atoms)
    return shown[0], stats
