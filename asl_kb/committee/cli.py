"""Command-line wiring of the committee's commands, self-contained:
`add_parsers(sub)` adds `diff` and `search` to the asl-kb subparsers,
`run(args)` runs them and returns the exit code.

Exit codes: 0 nothing differs / nothing found, 1 something differs / a
witness found, 2 bad input (FILE:LINE: KEY: message), 3 incomplete with
nothing found.
"""
from __future__ import annotations

import json
import sys

from asl_kb.errors import PositionError

COMMANDS = ("diff", "search")


def _rule_set_args(p, default_to: str | None) -> None:
    p.add_argument("--from", dest="version_a", default="current", metavar="A",
                   help="rule set to compare from: current, prior, or a folder of .lp files overlaying the rules (default current)")
    p.add_argument("--to", dest="version_b", default=default_to, metavar="B",
                   help="rule set to compare to (default: prior; with --switch, the --from rule set)")
    p.add_argument("--switch", metavar="NAME", help="flip this switch of rules/core/versions.lp on the --to side")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--phase", action="store_true", help="compare the whole-phase outcomes too")


def add_parsers(sub) -> None:
    d = sub.add_parser("diff", help="positions (files, folders, globs) under two rule sets: outcomes that appear or vanish, and what causes them (exit 1 if any)")
    d.add_argument("paths", nargs="*", metavar="PATH", help="position files, folders, globs (default: the bundled default position)")
    _rule_set_args(d, None)
    s = sub.add_parser("search", help="search a scope of positions, smallest first (the rules committee's questions)")
    ss = s.add_subparsers(dest="search", required=True)
    sd = ss.add_parser("diff", help="the smallest positions of a scope where two rule sets part (exit 1 if any)")
    _rule_set_args(sd, None)
    _search_args(sd)
    sg = ss.add_parser("gaps", help="the smallest positions of a scope left without a legal outcome, or breaking a rule (exit 1 if any)")
    sg.add_argument("--rules", default="current", metavar="R", help="rule set: current, prior or a rules folder (default current)")
    sg.add_argument("--switch", metavar="NAME", help="flip this switch of rules/core/versions.lp")
    sg.add_argument("--format", choices=("text", "json"), default="text")
    _search_args(sg)


def _search_args(p) -> None:
    p.add_argument("--scope", default="tiny", metavar="NAME|FILE", help="shipped scope (tiny, small, medium) or a scope YAML (default tiny)")
    p.add_argument("--out", metavar="DIR", help="write each witness as a position YAML into DIR")
    p.add_argument("--witnesses", type=_positive, default=3, metavar="N", help="stop after N witnesses (default 3)")
    p.add_argument("--max-positions", type=_positive, metavar="N", help="try at most N positions")
    p.add_argument("--timeout", type=float, metavar="SECONDS", help="stop after this long; the report says it is incomplete")
    p.add_argument("--stream", metavar="FILE", help="append each judged position to this JSON-lines file as it is done")
    p.add_argument("--resume", action="store_true", help="with --stream, skip the positions the file already holds")
    p.add_argument("--workers", type=_positive, metavar="N", help="judge positions on N local Dask worker processes")
    p.add_argument("--scheduler", metavar="ADDRESS", help="judge positions on an existing Dask cluster (dask scheduler ADDRESS)")


def _positive(text: str) -> int:
    import argparse
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"not a whole number >= 1: {text!r}")
    return n


def _rule_sets(args):
    from asl_kb.committee.rulesets import parse_ruleset
    a = parse_ruleset(args.version_a, key="--from")
    to = args.version_b or (args.version_a if args.switch else "prior")
    b = parse_ruleset(to, switch=args.switch, key="--to")
    return a, b


def run(args) -> int:
    try:
        if args.command == "diff":
            return _diff(args)
        return _search(args)
    except PositionError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def _diff(args) -> int:
    from asl_kb.committee.corpus import corpus_diff, to_text
    from asl_kb.resources import default_position
    a, b = _rule_sets(args)
    report = corpus_diff(args.paths or [str(default_position())], a, b, phase=args.phase)
    if args.format == "json":
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(to_text(report, a.label, b.label))
    if report["differing"]:
        return 1
    return 0 if report["complete"] else 3


def _search(args) -> int:
    import contextlib
    from asl_kb.committee import gaps, search
    from asl_kb.committee.rulesets import parse_ruleset
    from asl_kb.committee.scope import load_scope
    if args.resume and not args.stream:
        print("error: --resume: needs --stream FILE", file=sys.stderr)
        return 2
    scope = load_scope(args.scope)
    options = dict(witnesses=args.witnesses, max_positions=args.max_positions, out=args.out,
                   timeout=args.timeout, stream=args.stream, resume=args.resume)
    with contextlib.ExitStack() as stack:
        if args.workers or args.scheduler:
            from asl_kb.committee.dask_run import cluster_evaluator
            options["evaluator"] = stack.enter_context(cluster_evaluator(args.workers, args.scheduler))
        if args.search == "diff":
            a, b = _rule_sets(args)
            report = search.search_diff(scope, a, b, phase=args.phase, **options)
            render = search.to_text
        else:
            rs = parse_ruleset(args.rules, switch=args.switch, key="--rules")
            report = gaps.search_gaps(scope, rs, **options)
            render = gaps.to_text
    if args.format == "json":
        shown = {k: v for k, v in report.items() if not k.startswith("_")}
        sys.stdout.write(json.dumps(shown, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render(report))
    if report["witnesses"]:
        return 1
    return 0 if report["complete"] else 3
