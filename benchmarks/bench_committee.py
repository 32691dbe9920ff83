"""Positions judged per second per core by `asl-kb search diff` on a scope
(printed, not asserted): serial, then on a 2-worker local Dask cluster.

Two rule-set pairs: `current_rout_path` flipped, whose clause acts on the
staged rout graph -- every position is run under both rule sets (the
engine's own speed) -- and `massacre_in_location` flipped, whose clauses
no position of the shipped scopes can touch (asl_kb/committee/relevance.py
shows it without running them).

    .venv/bin/python benchmarks/bench_committee.py [SCOPE] [N]
"""
from __future__ import annotations

import sys
import time

from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.committee.scope import load_scope
from asl_kb.committee.search import search_diff


def _rate(scope, a, b, n, evaluator=None) -> tuple[int, float, float]:
    t = time.perf_counter()
    c = time.process_time()
    r = search_diff(scope, a, b, max_positions=n, witnesses=10**9, evaluator=evaluator)
    return r["tried"], r["tried"] / (time.perf_counter() - t), time.process_time() - c


def main() -> None:
    scope = load_scope(sys.argv[1] if len(sys.argv) > 1 else "small")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    from asl_kb.committee.dask_run import cluster_evaluator
    a = parse_ruleset("current")
    for switch, what in (("current_rout_path", "every position run under both"),
                         ("massacre_in_location", "positions shown untouched, not run")):
        b = parse_ruleset("current", switch=switch)
        tried, serial, cpu = _rate(scope, a, b, n)
        print(f"{scope.name} --switch {switch} ({what}): serial: {tried} positions, {serial:.1f} per second "
              f"(1 core; {tried / cpu if cpu else 0:.1f} per CPU second)")
        with cluster_evaluator(workers=2) as ev:
            tried, two, _ = _rate(scope, a, b, n, ev)
        print(f"{scope.name} --switch {switch} ({what}): 2 workers: {tried} positions, {two:.1f} per second, "
              f"{two / 2:.1f} per core")


if __name__ == "__main__":
    main()
