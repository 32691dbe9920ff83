"""Positions judged per second per core by `asl-kb search diff` on a scope
(printed, not asserted): serial, then on a 2-worker local Dask cluster.

    .venv/bin/python benchmarks/bench_committee.py [SCOPE] [N]
"""
from __future__ import annotations

import sys
import time

from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.committee.scope import load_scope
from asl_kb.committee.search import search_diff


def main() -> None:
    scope = load_scope(sys.argv[1] if len(sys.argv) > 1 else "small")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    a, b = parse_ruleset("current"), parse_ruleset("current", switch="massacre_in_location")
    t = time.perf_counter()
    r = search_diff(scope, a, b, max_positions=n, witnesses=10**9)
    serial = r["tried"] / (time.perf_counter() - t)
    print(f"{scope.name}: serial: {r['tried']} positions, {serial:.1f} per second (1 core)")
    from asl_kb.committee.dask_run import cluster_evaluator
    with cluster_evaluator(workers=2) as ev:
        t = time.perf_counter()
        r = search_diff(scope, a, b, max_positions=n, witnesses=10**9, evaluator=ev)
        two = r["tried"] / (time.perf_counter() - t)
    print(f"{scope.name}: 2 workers: {r['tried']} positions, {two:.1f} per second, {two / 2:.1f} per core")


if __name__ == "__main__":
    main()
