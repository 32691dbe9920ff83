"""Issue 9's budget (printed, not asserted): `search diff --switch X --scope
SCOPE` for every switch of rules/core/versions.lp, one after the other, N
positions at a time in child processes (`--workers N`: asl_kb/children.py),
with each switch's result, its wall
time and the whole run's wall time (the target: all of them within 10
minutes on `small`, on this project's 2-core machine).

    .venv/bin/python benchmarks/bench_switches.py [SCOPE] [WORKERS] [SECONDS]

SECONDS (default: none) stops each switch's search after that long; its
line then says how many positions it tried.
"""

from __future__ import annotations

import sys
import time

from asl_kb.committee.scan import forked
from asl_kb.committee.rulesets import VERSIONS, parse_ruleset
from asl_kb.committee.scope import load_scope
from asl_kb.committee.search import search_diff


def switches() -> list[str]:
    """The switches of rules/core/versions.lp, in the file's order."""
    from asl_kb.position.loader import declared_switches

    return declared_switches()


def main() -> None:
    scope = load_scope(sys.argv[1] if len(sys.argv) > 1 else "small")
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else None
    a = parse_ruleset(VERSIONS[0])
    start = time.perf_counter()
    with forked(workers) as make:
        for name in switches():
            t = time.perf_counter()
            r = search_diff(scope, a, a.flipped(name), witnesses=1, evaluator=make, timeout=limit)
            found = (
                f"witness at position {r['witnesses'][0]['index'] + 1}"
                if r["witnesses"]
                else f"none in {r['tried']}" + ("" if r["complete"] else " (stopped)")
            )
            print(
                f"{name:32s} {found:28s} ({r.get('untouched', 0)} untouched, not run)  "
                f"{time.perf_counter() - t:7.1f} s",
                flush=True,
            )
    print(
        f"all {len(switches())} switches over {scope.name} on {workers} worker(s): {time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
