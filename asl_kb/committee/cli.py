"""Command-line wiring of the committee's commands, self-contained:
`add_parsers(sub, common)` adds `diff` and `search` to the asl-kb subparsers,
`run(args)` runs them and returns the exit code.

Exit codes: 0 nothing differs / nothing found, 1 something differs / a
witness found, 2 bad input (FILE:LINE: KEY: message; `diff` reports a file
it cannot compare and compares the others: 2 only when none could be), 3
incomplete with nothing found.
"""

from __future__ import annotations

import json
import sys

from asl_kb.errors import NoAnswerSet, PositionError

COMMANDS = ("diff", "search")


def _rule_set_args(p) -> None:
    p.add_argument(
        "--from",
        dest="version_a",
        metavar="A",
        help="rule set compared from: current, prior, or a folder of .lp files overlaying the rules "
        "(default: --rules, else current)",
    )
    p.add_argument(
        "--to",
        dest="version_b",
        metavar="B",
        help="rule set compared to (default: prior; with --switch, the --from rule set)",
    )
    p.add_argument(
        "--switch", metavar="NAME", help="flip this switch of rules/core/versions.lp on the --to side (default: none)"
    )
    p.add_argument("--phase", action="store_true", help="compare the whole-phase outcomes too (default: off)")


def add_parsers(sub, common) -> None:
    """`diff` and `search` with the common options (`common()`: their parent parser)."""
    d = sub.add_parser(
        "diff",
        parents=[common()],
        help="positions (files, folders, globs) under two rule sets: outcomes that appear or vanish, "
        "and what causes them (exit 1 if any)",
        description="Run positions under two rule sets (--from, --to, --switch: docs/committee.md); "
        "one table of the outcomes that appear (+) or vanish (-) and the switch or rule "
        "folder that causes each.",
    )
    d.add_argument(
        "paths", nargs="*", metavar="PATH", help="position files, folders, globs (default: the bundled A10.531 EX)"
    )
    d.add_argument(
        "--voluntary-break",
        action="store_true",
        help="compare too which unbroken units may break voluntarily (A10.41) and what would follow, "
        "as outcomes --voluntary-break lists them (default: off)",
    )
    _rule_set_args(d)
    s = sub.add_parser(
        "search",
        parents=[common()],
        help="search a scope of positions, smallest first: where two rule sets part, or gaps (exit 1 if found)",
    )
    ss = s.add_subparsers(
        dest="search",
        required=True,
        metavar="SEARCH",
        help="diff (where two rule sets part), gaps (no legal outcome, a rule broken), find (where an "
        "assertion's condition holds) or coverage (what the scopes give of what the rules read)",
    )
    sd = ss.add_parser("diff", parents=[common()], help="the smallest positions of a scope where two rule sets part")
    _rule_set_args(sd)
    _search_args(sd, grow=True)
    sd.add_argument(
        "--impact",
        action="store_true",
        help="judge every position of the scope (or bound) for the impact table, past the N-th witness "
        "(the first N shown; default: the table covers the positions judged before the search stopped)",
    )
    sg = ss.add_parser(
        "gaps",
        parents=[common()],
        help="the smallest positions of a scope left without a legal outcome, or breaking a rule",
    )
    sg.add_argument(
        "--rule-set", metavar="R", help="rule set: current, prior or a rules folder (default: --rules, else current)"
    )
    sg.add_argument("--switch", metavar="NAME", help="flip this switch of rules/core/versions.lp (default: none)")
    _search_args(sg)
    sf = ss.add_parser(
        "find",
        parents=[common()],
        help="an assertion's condition (--where ASSERTION) checked within bounds: the smallest position where "
        "it holds, or that none within them does (exit 1 if found)",
    )
    sf.add_argument(
        "--where",
        required=True,
        metavar="ASSERTION",
        help="clauses over the contract's predicates and the position's facts deriving found or found(...)",
    )
    sf.add_argument("--switch", metavar="NAME", help="flip this switch of rules/core/versions.lp (default: none)")
    _search_args(sf, grow=True)
    sc = ss.add_parser(
        "coverage",
        parents=[common()],
        help="each input of rules/core/defined.lp: the shipped scopes that produce it, the clauses that read it",
    )
    sc.add_argument(
        "--scope",
        action="append",
        metavar="NAME|FILE",
        help="a scope to look at (repeatable; default: every shipped scope)",
    )
    sc.add_argument(
        "--sample",
        type=_positive,
        default=40,
        metavar="N",
        help="positions looked at per scope, spread over it (default: 40)",
    )


def _search_args(p, grow: bool = False) -> None:
    p.add_argument(
        "--scope",
        default=None,
        metavar="NAME|FILE",
        help="shipped scope (tiny, small, medium, disrupted, guards, prisoners, concealed, escape, "
        "combat, features) or a scope YAML"
        + (
            ", or 'shipped': every shipped scope one after another, smallest first, passing over those "
            "that never produce what the changed clauses read, until a witness"
            if grow
            else ""
        )
        + " (default: the bounds read off the rules, smallest first, the positions the solver's, "
        "until a witness; at most 20000 positions in all unless --max-positions)",
    )
    p.add_argument(
        "--generate",
        action="store_true",
        help="let the solver choose the positions within the scope's bounds (committee/generate.py); "
        "'for every position within bounds' only after an exhaustive run (default: off with --scope; "
        "without it, and for search find, always)",
    )
    p.add_argument("--out", metavar="DIR", help="write each witness as a position YAML into DIR (default: none)")
    p.add_argument("--witnesses", type=_positive, default=3, metavar="N", help="stop after N witnesses (default: 3)")
    p.add_argument("--max-positions", type=_positive, metavar="N", help="try at most N positions (default: all)")
    p.add_argument(
        "--max-units",
        type=_positive,
        metavar="N",
        help="without --scope: only the bounds read off the rules of at most N units, each walked to its end "
        "(default: every bound, up to 3 units)",
    )
    p.add_argument(
        "--stream",
        metavar="FILE",
        help="append each judged position to this JSON-lines file as it is done (default: none)",
    )
    p.add_argument(
        "--resume", action="store_true", help="with --stream, skip the positions the file already holds (default: off)"
    )
    p.add_argument(
        "--workers",
        type=_positive,
        metavar="N",
        help="judge positions N at a time in child processes of this one (default: in this process)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="judge positions on an existing Dask cluster, other machines too (default: none)",
    )
    p.add_argument(
        "--progress",
        action="store_true",
        help="draw a progress bar on standard error (default: only when it is a terminal)",
    )


def at_least(least: int, unit: str = ""):
    """An argparse type: a whole number (of `unit`) >= `least`."""

    def whole(text: str) -> int:
        import argparse

        try:
            n = int(text)
        except ValueError:
            n = least - 1
        if n < least:
            raise argparse.ArgumentTypeError(f"not a whole number{' of ' + unit if unit else ''} >= {least}: {text!r}")
        return n

    return whole


_positive = at_least(1)


def _parsed(text: str, switch: str | None = None, key: str = "rules"):
    """rulesets.parse_ruleset, and a folder written against older rules
    said on stderr (committee/stale.py)."""
    from asl_kb.committee import stale
    from asl_kb.committee.rulesets import parse_ruleset

    rs = parse_ruleset(text, switch=switch, key=key)
    stale.warn(rs)
    return rs


def _rule_sets(args):
    if args.version_a and args.rules and args.version_a != args.rules:
        from asl_kb.errors import PositionError

        raise PositionError(
            "--from", None, None, f"--from {args.version_a} and --rules {args.rules} name different rule sets"
        )
    frm = args.version_a or args.rules or "current"
    a = _parsed(frm, key="--from" if args.version_a else "--rules")
    to = args.version_b or (frm if args.switch else "prior")
    b = _parsed(to, switch=args.switch, key="--to")
    return a, b


def run(args) -> int:
    try:
        if args.command == "diff":
            return _diff(args)
        return _search(args)
    except NoAnswerSet as e:  # a rules folder that rules out every outcome
        print(f"asl-kb {args.command}: {e}", file=sys.stderr)
        return 1
    except PositionError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def _diff(args) -> int:
    from asl_kb.committee.corpus import corpus_diff, to_text
    from asl_kb.resources import default_position

    a, b = _rule_sets(args)
    report = corpus_diff(
        args.paths or [str(default_position())], a, b, phase=args.phase, voluntary_break=args.voluntary_break
    )
    _stale(report, a, b)
    if args.format == "json":
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(to_text(report, a.label, b.label, args.limit))
    # a file that could not be compared is reported, and the others are:
    # the exit code is theirs, bad input (2) when there were none
    for e in report.get("errors", ()):
        print(f"error: {e['error']}", file=sys.stderr)
    if report.get("errors") and not report["per_position"]:
        return 2
    if report["differing"]:
        return 1
    return 0 if report["complete"] else 3


def _stale(report: dict, a, b) -> None:
    """A rule set's folder written against older rules (committee/stale.py):
    JSON `stale`, each finding with the folder it is in."""
    from asl_kb.committee import stale

    found = [{"folder": str(rs.folder), **f} for rs in (a, b) for f in stale.findings(rs)]
    if found:
        report["stale"] = found


#: the --scope of search diff that walks every shipped scope in turn
SHIPPED = "shipped"


def _index(args, report: dict, a, b) -> None:
    """With --out DIR: DIR/index.html, the impact table and each witness
    with its two-board page (committee/impact.py)."""
    if args.out:
        from asl_kb.committee import impact, search

        impact.write_index(args.out, report, lambda file: search.board_command(a, b, file))


def _grown(args, since: float) -> int:
    """search diff without --scope: the bounds read off the rules
    (committee/grow.py); with --scope shipped, the shipped scopes, smallest
    first (--timeout counted from `since`, a time.monotonic())."""
    from asl_kb.committee import grow, search
    from asl_kb.committee.progress import Bar

    unread = _unread(args)
    if unread is not None:
        return unread
    a, b = _rule_sets(args)
    bar = Bar(None, "witness") if args.progress or sys.stderr.isatty() else None
    try:
        walk = _walk_options(args, since)
        shipped = args.scope == SHIPPED
        if shipped:  # (--max-units bounds the bounds read off the rules)
            walk.pop("max_units")
            walk["generate"] = args.generate
        walk["impact"] = args.impact
        report = (search.grow_diff if shipped else grow.diff)(a, b, phase=args.phase, **walk, progress=bar)
        _stale(report, a, b)
        _index(args, report, a, b)
    finally:
        if bar is not None:
            bar.close()
    if shipped:
        return _said(args, report, search.grown_text)
    return _said(args, report, _grown_text(f"search diff {a.label} -> {b.label}", search.to_text))


def _walk_options(args, since: float) -> dict:
    """What a search without a scope is told of its walk."""
    return dict(
        witnesses=args.witnesses,
        max_positions=args.max_positions,
        timeout=args.timeout,
        since=since,
        out=args.out,
        max_units=args.max_units,
    )


def _grown_text(what: str, render):
    """A report grown over the bounds read off the rules, in text: each
    bound walked, then the witnesses as `render` says them."""
    from asl_kb.committee import grow

    return lambda report: grow.text(report, what) + (render(report) if report["witnesses"] else "")


def _said(args, report: dict, render) -> int:
    """A search's report on stdout (JSON, or `render`'s text); its exit code."""
    if args.format == "json":
        shown = {k: v for k, v in report.items() if not k.startswith("_")}
        sys.stdout.write(json.dumps(shown, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render(report))
    if report["witnesses"]:
        return 1
    return 0 if report["complete"] else 3


def _grown_gaps(args, since: float) -> int:
    """search gaps --generate without --scope (committee/grow.py)."""
    from asl_kb.committee import gaps, grow
    from asl_kb.committee.progress import Bar

    unread = _unread(args)
    if unread is not None:
        return unread
    rs = _parsed(
        args.rule_set or args.rules or "current", switch=args.switch, key="--rule-set" if args.rule_set else "--rules"
    )
    bar = Bar(None, "finding") if args.progress or sys.stderr.isatty() else None
    try:
        report = grow.gaps(rs, **_walk_options(args, since), progress=bar)
    finally:
        if bar is not None:
            bar.close()
    return _said(args, report, _grown_text(f"search gaps under {rs.label}", gaps.to_text))


def _unread(args) -> int | None:
    """Exit 2 where --scheduler, --workers or --stream is given to a search
    that judges its positions in this process, one bound after another
    (_grown, _grown_gaps, _find: none of them reads these): refused before
    any work, not passed over in silence. None where none is given."""
    given = (("--scheduler", args.scheduler), ("--workers", args.workers), ("--stream", args.stream))
    key = next((key for key, value in given if value), None)
    if key is None:
        return None
    print(
        f"error: {key}: only search diff or gaps over one --scope reads it (this search judges "
        "its positions in this process, one scope or bound after another)",
        file=sys.stderr,
    )
    return 2


def _without_scope(args, since: float) -> int:
    """search diff/gaps without --scope (or diff with --scope shipped): grown."""
    if args.search == "diff":
        return _grown(args, since)
    return _grown_gaps(args, since)


def _find(args, since: float) -> int:
    """search find --where ASSERTION: within --scope's bounds, else within
    the bounds read off the assertion's clauses, smallest first, until one
    holds it (committee/grow.py)."""
    from asl_kb.committee import find, grow
    from asl_kb.committee.asked import Asked
    from asl_kb.committee.scope import load_scope

    unread = _unread(args)
    if unread is not None:
        return unread
    rs = _parsed(args.rules or "current", switch=args.switch, key="--rules")
    find.read_where(args.where)  # (checked before any position is judged)
    walk = dict(max_positions=args.max_positions, timeout=args.timeout, since=since)
    if not args.scope:
        report = grow.find(rs, args.where, args.witnesses, args.out, max_units=args.max_units, **walk)
        return _said(args, report, _grown_text(f"search find {args.where} under {rs.label}", find.to_text))
    asked = Asked(args.witnesses, walk.pop("max_positions"), args.out)
    report = find.search_find(load_scope(args.scope), rs, args.where, asked, **walk)
    return _said(args, report, find.to_text)


def _coverage(args) -> int:
    from asl_kb.committee import coverage
    from asl_kb.committee.scope import SCOPES_DIR, load_scope

    folder = None
    if args.rules:  # the clauses read: the rule set's (a version's are the shipped files)
        from asl_kb.committee.rulesets import materialize

        rs = _parsed(args.rules, key="--rules")
        folder = materialize(rs.folder) if rs.folder is not None else None
    names = args.scope or sorted(p.stem for p in SCOPES_DIR.glob("*.yaml"))
    report = coverage.coverage([load_scope(n) for n in names], args.sample, folder)
    if args.format == "json":
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(coverage.to_text(report, args.limit if args.limit is not None else 3))
    return 0


def _refused_early(args) -> int | None:
    """Exit 2 for --resume without --stream, or a search diff's --out
    DIR/index.html that cannot be written (committee/impact.py), before any work."""
    from asl_kb.committee.impact import index_problem

    if args.resume and not args.stream:
        print("error: --resume: needs --stream FILE", file=sys.stderr)
        return 2
    why = index_problem(args.out) if args.search == "diff" and args.out else None
    if why:
        print(f"error: {why}", file=sys.stderr)
        return 2
    return None


def _search(args) -> int:
    if args.search == "coverage":
        return _coverage(args)
    import time

    # --timeout counts from here: the scope's loading and a cluster's start
    # are in it (a run ends within 10 % of it)
    since = time.monotonic()
    import contextlib
    from asl_kb.committee import gaps, search
    from asl_kb.committee.scope import load_scope

    refused = _refused_early(args)
    if refused is not None:
        return refused
    from asl_kb.committee.progress import bar_for

    if args.search == "find":
        return _find(args, since)
    if args.scope is None or args.scope == SHIPPED and args.search == "diff":
        return _without_scope(args, since)
    scope = load_scope(args.scope)
    bar = bar_for(scope, args.progress, "witness" if args.search == "diff" else "finding")
    options = dict(
        witnesses=args.witnesses,
        max_positions=args.max_positions,
        out=args.out,
        stream=args.stream,
        resume=args.resume,
        progress=bar,
    )
    with contextlib.ExitStack() as stack:
        if bar is not None:
            stack.callback(bar.close)
        if args.scheduler:
            from asl_kb.committee.dask_run import cluster_evaluator

            options["evaluator"] = stack.enter_context(cluster_evaluator(scheduler=args.scheduler))
        elif args.workers:
            from asl_kb.committee.scan import forked

            options["evaluator"] = stack.enter_context(forked(args.workers))
        options.update(timeout=args.timeout, since=since, generate=args.generate)
        if args.search == "diff":
            a, b = _rule_sets(args)
            report = search.search_diff(scope, a, b, phase=args.phase, impact=args.impact, **options)
            _stale(report, a, b)
            _index(args, report, a, b)
            render = search.to_text
        else:
            rs = _parsed(
                args.rule_set or args.rules or "current",
                switch=args.switch,
                key="--rule-set" if args.rule_set else "--rules",
            )
            from asl_kb.committee.asked import Asked

            keys = ("witnesses", "max_positions", "out", "evaluator", "generate")
            asked = Asked(*(options.pop(k, None) for k in keys))
            report = gaps.search_gaps(scope, rs, asked, **options)
            render = gaps.to_text
    if args.format == "json":
        shown = {k: v for k, v in report.items() if not k.startswith("_")}
        sys.stdout.write(json.dumps(shown, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render(report))
    if report["witnesses"]:
        return 1
    return 0 if report["complete"] else 3
