"""Run clingo on the rules and a position's facts.

The rules derive each broken unit's rout graph one stage at a time: the
static part (#program base) is grounded first, then #program step(t,p) for
t = 0, 1, ... (p = t-1). After each stage the (single) answer set so far is
read and what the next stage needs of it (the states the rout may go on from,
what each epoch knows) is added back as facts (was_*/2,3), so every stage is
grounded exactly from the one before. The program has one answer set, which
holds every legal outcome: there is no search to cut short, and the result is
complete by construction.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import clingo

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
if not (RULES_DIR / "main.lp").exists():  # installed without the source tree
    RULES_DIR = Path(__file__).resolve().parent / "rules"

#: six moves at most (A10.5: six MF, no Location cheaper than one MF), plus a
#: stage for each concealed unit that may drop concealment on the way (A10.533)
MAX_MOVES = 6
#: what one stage hands to the next, as facts
CARRIED = {"movable": "was_movable", "kn": "was_kn", "dnode": "was_dnode", "pnode": "was_pnode",
           "live": "was_live", "ku": "was_ku"}


@dataclass
class SolveStats:
    ground_seconds: float = 0.0
    solve_seconds: float = 0.0
    atoms: int = 0
    stages: int = 0


def _carry(ctl, stage: int) -> list[str]:
    """The facts the next stage needs: the carried atoms of this stage that are
    true in the (single) answer set of the program so far."""
    candidates = []
    for name, carried in CARRIED.items():
        for arity in (2, 3):
            for atom in ctl.symbolic_atoms.by_signature(name, arity):
                first = atom.symbol.arguments[0]
                if first.type == clingo.SymbolType.Number and first.number == stage:
                    candidates.append((carried, atom))
    facts: list[str] = []
    models = 0

    def on_model(m):
        nonlocal models
        models += 1
        for carried, atom in candidates:
            if atom.is_fact or m.is_true(atom.literal):
                facts.append(f"{carried}({','.join(str(x) for x in atom.symbol.arguments)}).")

    result = ctl.solve(on_model=on_model)
    if not result.satisfiable or models != 1:
        raise RuntimeError("the rules gave no single answer set for this position")
    return facts


def solve(facts: str, concealed: int = 0) -> tuple[list[clingo.Symbol], SolveStats]:
    """The shown atoms of the program's answer set, and timing figures."""
    stats = SolveStats()
    ctl = clingo.Control(["--warn=none"])
    ctl.load(str(RULES_DIR / "main.lp"))
    ctl.add("base", [], facts)
    t0 = time.perf_counter()
    ctl.ground([("base", [])])
    stats.ground_seconds += time.perf_counter() - t0
    for stage in range(MAX_MOVES + concealed + 1):
        t0 = time.perf_counter()
        ctl.ground([("step", [clingo.Number(stage), clingo.Number(stage - 1)])])
        stats.ground_seconds += time.perf_counter() - t0
        t0 = time.perf_counter()
        carry = _carry(ctl, stage)
        stats.solve_seconds += time.perf_counter() - t0
        stats.stages = stage + 1
        if not any(c.startswith(("was_pnode", "was_dnode")) for c in carry):
            break
        t0 = time.perf_counter()
        ctl.add(f"stage{stage}", [], "\n".join(carry))
        ctl.ground([(f"stage{stage}", [])])
        stats.ground_seconds += time.perf_counter() - t0
    t0 = time.perf_counter()
    shown: list[list[clingo.Symbol]] = []
    ctl.solve(on_model=lambda m: shown.append(m.symbols(shown=True)))
    stats.solve_seconds += time.perf_counter() - t0
    stats.atoms = len(ctl.symbolic_atoms)
    return shown[0], stats
