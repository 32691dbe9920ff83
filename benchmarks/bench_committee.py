"""Positions judged per second per core by `asl-kb search diff` on a scope
(printed, not asserted): serial, then 2 at a time in child processes
(`--workers 2`: asl_kb/children.py), then on a 2-worker local Dask cluster
(`--scheduler`'s code path, on this machine).

N positions spread evenly over the scope (the first ones, a lone unit, are
the cheapest) are judged under two rule-set pairs: `current_rout_path`
flipped, whose clause acts in the staged rout graph's final part -- each
position is judged on a slice of the stages up to the captor its clause
needs (relevance.py `_staged_slice`), and where one may hold it is run,
both readings on one grounding -- and `massacre_in_location` flipped, whose
clauses no position of the shipped scopes can touch (a slice of the base
program shows it without running them). The 2-worker figures are timed
with every worker warm (rules read, slices built); the cluster's start-up
and that warm-up are printed on their own; the children are forked warm
from a warm parent. `bench_switches.py` gives whole
scopes, start-up included.

    .venv/bin/python benchmarks/bench_committee.py [SCOPE] [N]
"""

from __future__ import annotations

import argparse
import functools
import time

from asl_kb.committee.enumerate import candidates, to_yaml
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.committee.scope import load_scope
from asl_kb.committee.search import judge_diff


def main() -> None:
    ap = argparse.ArgumentParser(
        description="Positions judged per second per core by `asl-kb search diff` (prints figures, asserts nothing)."
    )
    ap.add_argument("scope", nargs="?", default="small", help="a shipped scope or a scope file (default: small)")
    ap.add_argument("n", nargs="?", type=int, default=20, help="positions judged (default: 20)")
    args = ap.parse_args()
    scope = load_scope(args.scope)
    n = args.n
    cs = list(candidates(scope))
    step = max(1, len(cs) // n)
    jobs = [(c.index, f"{scope.name} #{c.index + 1}", to_yaml(scope, c)) for c in cs[::step][:n]]
    from asl_kb.committee.dask_run import cluster_evaluator
    from asl_kb.committee.scan import forked

    a = parse_ruleset("current")
    for switch, what in (
        ("current_rout_path", "judged on the stages, run where a captor may be"),
        ("massacre_in_location", "positions shown untouched, not run"),
    ):
        judge = functools.partial(judge_diff, a=a, b=parse_ruleset("current", switch=switch), phase=False)
        judge(*jobs[0][1:])  # warm: imports, the slices
        t, c = time.perf_counter(), time.process_time()
        for _, name, text in jobs:
            judge(name, text)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        print(
            f"{scope.name} --switch {switch} ({what}): serial: {len(jobs)} positions, "
            f"{len(jobs) / wall:.1f} per second, {len(jobs) / cpu:.1f} per CPU second"
        )
        with forked(2) as make:
            t = time.perf_counter()
            done = [x for batch in range(0, len(jobs), 16) for x in make(judge)(jobs[batch : batch + 16])]
            wall = time.perf_counter() - t
        print(
            f"{scope.name} --switch {switch} ({what}): 2 children: {len(done)} positions, "
            f"{len(done) / wall:.1f} per second, {len(done) / wall / 2:.1f} per core"
        )
        t = time.perf_counter()
        with cluster_evaluator(workers=2) as make:
            evaluate = make(judge)
            evaluate.warm(*jobs[0][1:])  # every worker warm: rules read, slices built
            start = time.perf_counter() - t
            t = time.perf_counter()
            done = list(evaluate(jobs))
            wall = time.perf_counter() - t
        print(
            f"{scope.name} --switch {switch} ({what}): 2 workers: {len(done)} positions, "
            f"{len(done) / wall:.1f} per second, {len(done) / wall / 2:.1f} per core "
            f"(start-up and warm-up before: {start:.1f} s)"
        )


if __name__ == "__main__":
    main()
