"""Whole-phase benchmark (--phase): prints figures, asserts nothing.

Positions: S stacks of two broken Russian squads in open ground, each stack
ADJACENT to a German squad that can take prisoners, the stacks far apart.
Every stack surrenders (or is rejected) as a stack, so the units are all
coupled through No Quarter (A20.3) and Guard capacity (A20.51): the phase
program enumerates every combination. For S = 1..4 it prints the time of
outcomes(..., phase=True), the number of whole-phase outcomes, and whether
the enumeration completed.

Usage: .venv/bin/python benchmarks/bench_phase.py [--max-stacks N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from asl_kb.engines.outcomes import outcomes  # noqa: E402
from asl_kb.position.loader import load_position_text  # noqa: E402


def position(stacks: int) -> str:
    units = []
    for i in range(stacks):
        col = "ACEGIKMOQSUWY"[i * 3 % 13]
        row = 2 + 4 * (i // 4)
        units.append(f"  - {{id: R{i}a, side: russian, type: squad, counter: 4-4-7, at: {col}{row}, status: [broken]}}")
        units.append(f"  - {{id: R{i}b, side: russian, type: squad, counter: 4-4-7, at: {col}{row}, status: [broken]}}")
        units.append(f"  - {{id: G{i}, side: german, type: squad, counter: 4-6-7, at: {col}{row + 1}}}")
    return "name: phase benchmark\nattacker: russian\nmap: {area: [A1, Z10]}\nunits:\n" + "\n".join(units) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-stacks", type=int, default=4)
    args = ap.parse_args()
    print(f"{'stacks':>6} {'broken':>6} {'seconds':>8} {'outcomes':>9} {'complete':>8}")
    for s in range(1, args.max_stacks + 1):
        pos = load_position_text(position(s), "<bench>")
        t0 = time.perf_counter()
        r = outcomes(pos, phase=True)
        dt = time.perf_counter() - t0
        assert r.phase is not None  # asked with phase=True
        print(f"{s:>6} {2 * s:>6} {dt:>8.3f} {str(r.phase.count):>9} {str(r.complete):>8}")


if __name__ == "__main__":
    main()
