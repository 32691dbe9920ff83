"""asl-kb command line: `asl-kb outcomes [POSITION.yaml]`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from asl_kb.errors import PositionError
from asl_kb.resources import default_position
from asl_kb.position.loader import load_position
from asl_kb.committee import cli as committee_cli

DEFAULT_POSITION = default_position()


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="asl-kb", description="ASL rout and surrender outcomes, explained by rule number")
    sub = ap.add_subparsers(dest="command", required=True)
    o = sub.add_parser("outcomes", help="every legal outcome of a position's Rout Phase")
    o.add_argument("position", nargs="?", default=str(DEFAULT_POSITION), help="position YAML (default: the bundled default position)")
    o.add_argument("--rules", help="rule version (current, prior); overrides the position's `rules`")
    o.add_argument("--format", choices=("text", "json"), default="text")
    o.add_argument("--all-paths", action="store_true", help="list every path of each rout fate")
    o.add_argument("--voluntary-break", action="store_true",
                   help="also say which unbroken units may break voluntarily (A10.41) and what would follow")
    o.add_argument("--phase", action="store_true",
                   help="also list the whole-phase outcomes: the units' fates combined in rout order (A10.5, A20.3, A20.21, A20.51)")
    o.add_argument("--limit", type=_count, metavar="N", help="with --phase, list at most N whole-phase outcomes (all are counted)")
    committee_cli.add_parsers(sub)   # diff, search (asl_kb/committee/cli.py)
    c = sub.add_parser("check", help="does the position leave a unit or the phase without a legal outcome, or break a rule? (exit 1 if so)")
    c.add_argument("position", nargs="?", default=str(DEFAULT_POSITION))
    c.add_argument("--format", choices=("text", "json"), default="text")
    _report_parser(sub)
    return ap


def _report_parser(sub) -> None:
    r = sub.add_parser("report", help="one self-contained HTML page: the hex map with every fate drawn")
    r.add_argument("position", nargs="?", default=str(DEFAULT_POSITION))
    r.add_argument("-o", "--output", metavar="FILE", help="write the page to FILE (default: standard output, unless --png)")
    r.add_argument("--rules", help="rule version (current, prior); overrides the position's `rules`")
    r.add_argument("--phase", action="store_true", help="add the whole-phase outcomes (as `outcomes --phase`)")
    r.add_argument("--limit", type=_count, metavar="N", help="with --phase, list at most N whole-phase outcomes")
    r.add_argument("--all-paths", action="store_true", help="draw every path of each rout fate")
    r.add_argument("--fate", metavar="UNIT:N", help="open with UNIT's N-th fate drawn (numbered as in `outcomes`)")
    r.add_argument("--png", metavar="FILE",
                   help="also write a PNG of the map with --fate drawn, else the first broken unit's first fate (needs Chromium)")


def _report(position, args) -> int:
    import dataclasses
    if args.rules:
        if args.rules not in ("current", "prior"):
            print(f"error: --rules: unknown rule version {args.rules!r} (current, prior)", file=sys.stderr)
            return 2
        position = dataclasses.replace(position, rules=args.rules)
    from asl_kb.engines.outcomes import outcomes
    from asl_kb.report.html import to_html
    fate = None
    if args.fate:
        unit, _, n = args.fate.rpartition(":")
        if not unit or not n.isdigit():
            print(f"error: --fate: expected UNIT:N (e.g. RG2:2), got {args.fate!r}", file=sys.stderr)
            return 2
        fate = (unit, int(n))
    result = outcomes(position, all_paths=args.all_paths, phase=args.phase, limit=args.limit)
    try:
        page = to_html(result, position, all_paths=args.all_paths, fate=fate)
    except ValueError as e:
        print(f"error: --fate: {e}", file=sys.stderr)
        return 2
    if args.png:
        from asl_kb.report import png
        try:
            png.screenshot_map(to_html(result, position, all_paths=args.all_paths, fate=fate,
                                       select_first=True), args.png)
        except png.BrowserMissing as e:
            print(f"error: --png: {e}", file=sys.stderr)
            return 2
    if args.output:
        Path(args.output).write_text(page, encoding="utf-8")
    elif not args.png:
        sys.stdout.write(page)
    return 0 if result["complete"] else 3


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"not a whole number >= 0: {text!r}")
    return n


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.command in committee_cli.COMMANDS:
        return committee_cli.run(args)
    try:
        position = load_position(args.position)
    except PositionError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.command == "check":
        return _check(position, args)
    if args.command == "report":
        return _report(position, args)
    if args.rules:
        if args.rules not in ("current", "prior"):
            print(f"error: --rules: unknown rule version {args.rules!r} (current, prior)", file=sys.stderr)
            return 2
        import dataclasses
        position = dataclasses.replace(position, rules=args.rules)
    from asl_kb.engines.outcomes import outcomes
    from asl_kb.report.render import to_json, to_text
    result = outcomes(position, all_paths=args.all_paths, voluntary_break=args.voluntary_break,
                      phase=args.phase, limit=args.limit)
    out = to_json(result) if args.format == "json" else to_text(result, args.all_paths)
    sys.stdout.write(out)
    return 0 if result["complete"] else 3


def _check(position, args) -> int:
    import json
    from asl_kb.engines.check import check
    r = check(position)
    if args.format == "json":
        sys.stdout.write(json.dumps(r, indent=2, ensure_ascii=False) + "\n")
    else:
        out = [f"{r['position']} — rules: {r['rules']}: " + ("consistent" if r["consistent"] else "NOT consistent")]
        for f in r["findings"]:
            if f["kind"] == "no_legal_outcome":
                out.append(f"  {f['unit']}: no legal outcome")
                out += [f"      [{b['rule']}] {b['says']}" for b in f["because"]]
            else:
                out.append(f"  {f['kind'].replace('_', ' ')}:")
                out += [f"      [{c['rule']}] {c['violated']}" for c in f["clauses"]]
        sys.stdout.write("\n".join(out) + "\n")
    return 0 if r["consistent"] else 1


if __name__ == "__main__":
    sys.exit(main())
