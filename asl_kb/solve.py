"""Run clingo on the rules and a position's facts: ground once, then solve
the fates of one broken unit at a time (the #external focus/1 switch),
enumerating one answer set per distinct outcome (projection)."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import clingo

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
if not (RULES_DIR / "main.lp").exists():  # installed without the source tree
    RULES_DIR = Path(__file__).resolve().parent / "rules"

#: what distinguishes two outcomes of a unit; --all-paths adds the path
GROUP_KEY = ("fate/2", "final/3", "low_crawl/1", "int_at/3", "opt_int_at/3")


@dataclass
class UnitModels:
    unit: str
    models: list[list[clingo.Symbol]] = field(default_factory=list)
    complete: bool = True
    reason: str | None = None


@dataclass
class SolveStats:
    ground_seconds: float = 0.0
    solve_seconds: float = 0.0
    atoms: int = 0
    rules: int = 0


class Solver:
    def __init__(self, facts: str, all_paths: bool = False, max_models: int = 5000,
                 timeout: float = 60.0):
        self.max_models = max_models
        self.timeout = timeout
        self.stats = SolveStats()
        self.ctl = clingo.Control(["--project=project", "--warn=none", "--models=0",
                                   "--parallel-mode=1", "--seed=0"])
        self.ctl.load(str(RULES_DIR / "main.lp"))
        projected = GROUP_KEY + (("path/4",) if all_paths else ())
        self.ctl.add("base", [], facts + "".join(f"#project {p}.\n" for p in projected))
        t0 = time.perf_counter()
        self.ctl.ground([("base", [])])
        self.stats.ground_seconds = time.perf_counter() - t0
        self.stats.atoms = len(self.ctl.symbolic_atoms)
        self.says = {}
        for atom in self.ctl.symbolic_atoms.by_signature("says", 2):
            name, text = atom.symbol.arguments
            self.says[name.name] = text.string

    def unit_models(self, unit: str, routing: list[str]) -> UnitModels:
        for other in routing:
            self.ctl.assign_external(
                clingo.Function("focus", [clingo.String(other)]), other == unit)
        out = UnitModels(unit)
        t0 = time.perf_counter()
        deadline = t0 + self.timeout
        with self.ctl.solve(yield_=True, async_=True) as handle:
            while True:
                handle.resume()
                left = deadline - time.perf_counter()
                if left <= 0 or not handle.wait(left):
                    handle.cancel()
                    out.complete, out.reason = False, f"time limit of {self.timeout:g} s reached"
                    break
                model = handle.model()
                if model is None:
                    break
                out.models.append(model.symbols(shown=True))
                if len(out.models) >= self.max_models:
                    out.complete, out.reason = False, f"more than {self.max_models} outcomes"
                    break
        self.stats.solve_seconds += time.perf_counter() - t0
        return out
