"""asl-kb command line: `asl-kb outcomes|diff|check|why-not POSITION ...`.

Every subcommand takes the common options it uses (--rules, --format,
--limit, --timeout, --max-memory, --debug, --version: `report` writes HTML
only, so takes no --format; `serve` answers in its page, so takes neither
--format nor --limit; any other option is refused) and exits with one of the
codes in EXIT_CODES (documented in docs/output-format.md, with what each
subcommand does with a position that breaks a rule).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from pathlib import Path

from asl_kb import budget, process
from asl_kb.errors import AslKbError, NoAnswerSet, PositionError
from asl_kb.resources import default_position
from asl_kb.committee import cli as committee_cli

DEFAULT_POSITION = default_position()
VERSIONS = ("current", "prior")

#: exit status -> meaning (one table for every subcommand)
EXIT_OK, EXIT_DIFFERS, EXIT_BAD_INPUT, EXIT_INCOMPLETE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 70, 130
EXIT_CODES = {
    EXIT_OK: "ok: the answer is complete (outcomes listed; diff: nothing differs; search: none found; check: consistent; "
    "why-not: the fate is legal)",
    EXIT_DIFFERS: "the answer is no: check or outcomes found a unit or phase without a legal outcome (check: "
    "or a broken rule); why-not: the fate is not legal; diff: some outcome differs; search: a witness found; "
    "any: a rules folder leaves a program no answer set",
    EXIT_BAD_INPUT: "bad input: a position file (FILE:LINE: KEY: message), a rules folder or scope file (the same "
    "form), an option, a unit, a fate, a --scheduler that cannot be reached",
    EXIT_INCOMPLETE: "incomplete: a listing was cut (--all-paths, --phase limits) or the run was "
    "(--timeout, --max-memory); the result says why",
    EXIT_INTERNAL: "internal error: a bug in asl-kb (rerun with --debug for the traceback)",
    EXIT_INTERRUPTED: "interrupted: Ctrl-C (SIGINT) stopped the run before it answered",
}
#: whole-phase outcomes listed when --limit is not given: the engine's
#: DEFAULT_PHASE_LISTING (asl_kb/engines/outcomes.py; not imported here, the
#: CLI's start is benchmarked; tests/cli/test_cli.py holds the two equal)
DEFAULT_PHASE_LIMIT = 100


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("asl-kb")
    except Exception:  # not installed: a source checkout
        return "unknown"


class _VersionAction(argparse._VersionAction):
    """--version: the installed version, looked up only when asked
    (importlib.metadata costs more than the rest of the parser)."""

    def __call__(self, parser, namespace, values, option_string=None):
        self.version = f"asl-kb {_version()}"
        super().__call__(parser, namespace, values, option_string)


def _report_parser(sub, common) -> None:
    r = sub.add_parser(
        "report",
        parents=[common(output_format=False)],
        help="one self-contained HTML page: the hex map with every fate drawn",
    )
    _position_arg(r)
    _switch_arg(r)
    r.add_argument(
        "--to",
        metavar="B",
        help="a second rule set (as --rules): the two boards side by side, --rules (left) and B (right), "
        "with the outcomes that appear or vanish marked and their causes, as `diff --to B` names "
        "them; --switch then flips on the B side (default: one board)",
    )
    r.add_argument(
        "-o", "--output", metavar="FILE", help="write the page to FILE (default: standard output, unless --png)"
    )
    r.add_argument(
        "--phase", action="store_true", help="add the whole-phase outcomes (as `outcomes --phase`) (default: off)"
    )
    r.add_argument(
        "--all-paths", action="store_true", help="draw every path of each rout fate (default: the example path)"
    )
    r.add_argument(
        "--all",
        action="store_true",
        help="draw every route to a destination (default: its best, as `outcomes` lists it)",
    )
    r.add_argument(
        "--fate",
        metavar="UNIT:N",
        help="open with UNIT's N-th fate drawn (numbered as in `outcomes`; default: none drawn)",
    )
    r.add_argument(
        "--png",
        metavar="FILE",
        help="also write a PNG of the map with --fate drawn, else the first broken unit's first fate (needs Chromium; default: no PNG)",
    )


def _report(position, args) -> int:
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
    _refuse_broken(position, result)
    try:
        page = to_html(result, position, all_paths=args.all_paths, fate=fate, every_route=args.all)
    except ValueError as e:
        print(f"error: --fate: {e}", file=sys.stderr)
        return 2
    if args.png:
        from asl_kb.report import png

        try:
            png.screenshot_map(
                to_html(result, position, all_paths=args.all_paths, fate=fate, select_first=True, every_route=args.all),
                args.png,
            )
        except png.BrowserMissing as e:
            print(f"error: --png: {e}", file=sys.stderr)
            return 2
        except OSError as e:  # (checked before the work: the disk filled, the folder went)
            print(f"error: --png: {args.png}: cannot write: {e.strerror or e}", file=sys.stderr)
            return EXIT_BAD_INPUT
    return _write_page(page, args, result.complete)


def _write_page(page: str, args, complete: bool) -> int:
    """The report page to -o FILE, else to standard output (unless --png)."""
    with budget.ANSWER_LOCK:
        if args.output:
            try:
                Path(args.output).write_text(page, encoding="utf-8")
            except OSError as e:
                print(f"error: --output: {args.output}: cannot write: {e.strerror}", file=sys.stderr)
                return EXIT_BAD_INPUT
        elif not args.png:
            sys.stdout.write(page)
    return EXIT_OK if complete else EXIT_INCOMPLETE


def _report_pair(position, args, a, b) -> int:
    """`report --to B`: the page of two boards (asl_kb/report/pair.py), the
    position under rule set a (left) and b (right)."""
    from asl_kb.committee.compare import compare
    from asl_kb.engines.outcomes import outcomes
    from asl_kb.report.pair import to_pair_html

    if args.fate or args.png:
        print("error: --fate, --png: they draw one board, not the two of --to", file=sys.stderr)
        return EXIT_BAD_INPUT
    results = []
    for rs in (a, b):
        with rs.active():
            p = rs.apply(position)
            result = outcomes(p, all_paths=args.all_paths, phase=args.phase, limit=args.limit)
            _refuse_broken(p, result)
        results.append(result)
    left, right = results
    d = compare(position, a, b, phase=args.phase)
    page = to_pair_html(position, (a, left), (b, right), d, all_paths=args.all_paths)
    return _write_page(page, args, left.complete and right.complete and d["complete"])


#: seconds `outcomes` may take before it answers with what it has (--timeout)
DEFAULT_TIMEOUT = 600.0
#: seconds each answer of `serve` may take before the page gets what it has
#: (a player waits for it: a large position's answer says it is incomplete
#: within a minute, and the page can cancel it sooner)
DEFAULT_SERVE_TIMEOUT = 60.0
#: MiB of memory (the process's data: heap and clingo's) `outcomes` may use
#: before it answers with what it has (--max-memory); the benchmarks' peaks
#: are in docs/performance.md
DEFAULT_MAX_MEMORY = 4096


def _seconds(text: str) -> float:
    try:
        n = float(text)
    except ValueError:
        n = -1.0
    if not n > 0 or n == float("inf"):
        raise argparse.ArgumentTypeError(f"not a number of seconds > 0: {text!r}")
    return n


_mib = committee_cli.at_least(64, "MiB")


_count = committee_cli.at_least(0)


def _columns() -> int:
    """The terminal's width, as shutil.get_terminal_size() gives it: argparse
    asks shutil for it at every add_argument, and importing shutil (with
    bz2, lzma, fnmatch) costs a run more than the call."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]  # None: caught
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help is as wide as the terminal (the
    subcommands' parsers are of this class too: add_subparsers)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", lambda prog: argparse.HelpFormatter(prog, width=_columns()))
        super().__init__(*args, **kwargs)


@functools.cache
def _common(
    output_format: bool = True, limit: bool = True, timeout: float = DEFAULT_TIMEOUT, rules: bool = True
) -> argparse.ArgumentParser:
    """The common options, as a parent parser of the subcommands that use
    them: a subcommand without an output of its own to shape (`report`
    writes HTML, `serve` a web page) does not take --format or --limit, so
    that argparse refuses them; its args still carry the defaults the
    shared code reads (text, no limit); one that runs no rules (`import`)
    takes no --rules. `timeout`: --timeout's default (`serve` answers a
    player who waits: DEFAULT_SERVE_TIMEOUT)."""
    c = _Parser(add_help=False)
    g = c.add_argument_group("common options")
    if rules:
        g.add_argument(
            "--rules",
            metavar="RULES",
            help="rule set: a rule version (current, prior) or a rules folder overlaying the shipped rules "
            "(docs/committee.md) (default: the position's `rules`, else current)",
        )
    else:
        c.set_defaults(rules=None)
    if output_format:
        g.add_argument(
            "--format",
            choices=("text", "json"),
            default="text",
            help="output format: text for players, json for tools (default: text)",
        )
    else:
        c.set_defaults(format="text")
    if limit:
        g.add_argument(
            "--limit",
            type=_count,
            metavar="N",
            help="list at most N items of each listing (fates or destinations of a unit, "
            "whole-phase outcomes, prisoners' options, diff entries, findings, objections); "
            "everything is still counted. JSON lists every fate whatever N (default: "
            f"{DEFAULT_PHASE_LIMIT} whole-phase outcomes, every other listing in full)",
        )
    else:
        c.set_defaults(limit=None)
    g.add_argument(
        "--timeout",
        type=_seconds,
        default=timeout,
        metavar="SECONDS",
        help=f"past SECONDS, answer with complete: false and what was cut, exit 3 (default: {timeout:g})",
    )
    g.add_argument(
        "--max-memory",
        type=_mib,
        default=DEFAULT_MAX_MEMORY,
        metavar="MIB",
        help="past MIB of memory, answer with complete: false and what was cut, exit 3 "
        f"(default: {DEFAULT_MAX_MEMORY})",
    )
    g.add_argument(
        "--debug",
        action="store_true",
        default=argparse.SUPPRESS,
        help="on an internal error, print the traceback (default: one line, exit 70; "
        "also accepted before the subcommand)",
    )
    g.add_argument(
        "--vasl-boards",
        metavar="DIR",
        help="the VASL boards folder a position on real boards reads its board archives from "
        "(default: $ASL_KB_VASL_BOARDS, else vasl_boards in ~/.config/asl-kb/config.toml; docs/real-boards.md)",
    )
    g.add_argument("--version", action=_VersionAction, help="print the program's version and exit")
    return c


def _switch_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--switch",
        metavar="NAME",
        help="flip this switch of rules/core/versions.lp against the rule set (default: none)",
    )


def _position_arg(p: argparse.ArgumentParser, optional: bool = True) -> None:
    if optional:
        p.add_argument(
            "position",
            nargs="?",
            default=str(DEFAULT_POSITION),
            metavar="POSITION",
            help="position YAML file, or a VASL saved game (.vsav) (default: the bundled A10.531 EX, "
            "facts/rout/A10.531-EX.yaml)",
        )
    else:
        p.add_argument("position", metavar="POSITION", help="position YAML file, or a VASL saved game (.vsav)")
    _attacker_arg(p)


def _attacker_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--attacker",
        metavar="SIDE",
        help="a VASL saved game's ATTACKER: a side of the game (german) or axis/allied (default: the player "
        "whose Player Turn the game's Phase Track shows; docs/vasl-games.md)",
    )


def _import_parser(sub, common) -> None:
    i = sub.add_parser(
        "import",
        parents=[common(output_format=False, limit=False, rules=False)],
        help="read a VASL saved game (.vsav) as a position file: the boards, every unit on them, its status",
        description="Read a VASL saved game (.vsav) as an ordinary position file (docs/vasl-games.md): its "
        "boards from the VASL boards folder, every unit on them with its board-prefixed hex, identity and "
        "status (broken, DM, CX, pinned, concealed, hidden, ...). What it cannot place or identify is "
        "listed in the file's notes and on standard error.",
    )
    i.add_argument("game", metavar="GAME", help="the VASL saved game (.vsav)")
    i.add_argument(
        "-o",
        "--output",
        dest="position_out",
        metavar="FILE",
        help="write the position to FILE (.yaml) (default: standard output)",
    )
    _attacker_arg(i)


def _import(args) -> int:
    """`asl-kb import GAME`: the position's YAML to -o FILE or standard
    output, the warnings to standard error."""
    from asl_kb.vasl.game import read_game

    imported = read_game(args.game, boards=getattr(args, "vasl_boards", None), attacker=args.attacker)
    text = imported.text
    _warn(imported.file, imported.warnings)
    with budget.ANSWER_LOCK:
        if args.position_out:
            try:
                Path(args.position_out).write_text(text, encoding="utf-8")
            except OSError as e:
                print(f"error: --output: {args.position_out}: cannot write: {e.strerror}", file=sys.stderr)
                return EXIT_BAD_INPUT
        else:
            sys.stdout.write(text)
    return EXIT_OK


def _warn(file: str, warnings) -> None:
    """What a saved game's import did not read, on standard error."""
    for w in warnings:
        print(f"warning: {file}: {w}", file=sys.stderr)


def is_save(path: str) -> bool:
    """Whether a position argument names a VASL saved game: a .vsav, or a
    zip (a YAML file never begins with PK)."""
    if path.lower().endswith(".vsav"):
        return True
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"PK\x03\x04"
    except OSError:
        return False


def _load(args):
    """The position the arguments name: a position file, or a VASL saved
    game imported (asl_kb/vasl/game.py), its warnings on standard error."""
    from asl_kb.position.loader import load_position

    if args.position != "-" and is_save(args.position):
        from asl_kb.vasl.game import load_game

        position, imported = load_game(args.position, attacker=args.attacker)
        _warn(imported.file, imported.warnings)
        return position
    if args.attacker is not None:
        raise AslKbError(f"--attacker: only for a VASL saved game; {args.position} names its attacker")
    return load_position(args.position)


def _outcomes_parser(sub, common) -> None:
    o = sub.add_parser(
        "outcomes",
        parents=[common()],
        help="every legal outcome of a position's Rout Phase",
        description="Every legal outcome of a position's Rout Phase: each broken unit's fates "
        "(summarised per destination; --all lists every one), Heat of Battle, "
        "Disrupted and prisoners' outcomes.",
    )
    _position_arg(o)
    _switch_arg(o)
    o.add_argument(
        "--all",
        action="store_true",
        help="list every fate in the text (default: a summary per destination: Low Crawl and "
        "the routes no other route there beats)",
    )
    o.add_argument(
        "--all-paths",
        action="store_true",
        help="list every path of each rout fate (implies --all; default: one example path)",
    )
    o.add_argument(
        "--voluntary-break",
        action="store_true",
        help="also say which unbroken units may break voluntarily (A10.41) and what would follow (default: off)",
    )
    o.add_argument(
        "--phase",
        action="store_true",
        help="also list the whole-phase outcomes: the units' fates combined in rout order "
        "(A10.5, A20.3, A20.21, A20.51) (default: off)",
    )


def _check_parser(sub, common) -> None:
    c = sub.add_parser(
        "check",
        parents=[common()],
        help="does the position leave a unit or the phase without a legal outcome, or break a rule? (exit 1 if so)",
        description="Find the units or whole phase the rules leave without a legal outcome, "
        "and the rules the position breaks, with the clauses in conflict.",
    )
    _position_arg(c)
    _switch_arg(c)


def _why_not_parser(sub, common) -> None:
    w = sub.add_parser(
        "why-not",
        parents=[common()],
        help="is a fate legal for a unit, and if not, which rules forbid it? (exit 1 if not legal)",
        description="Propose a fate for a broken unit: `rout LOCATION` (a hex or HEX@LEVEL), "
        "`surrender CAPTOR` (a unit id), `stay` or `eliminated` (for Failure to Rout). The answer: "
        "'it is legal: fate N' (its number in `outcomes --all`), or the rules and "
        "clauses that forbid it, derived in rules/why_not.lp.",
    )
    _position_arg(w, optional=False)
    _switch_arg(w)
    w.add_argument("unit", metavar="UNIT", help="the id of the unit the fate is proposed for")
    w.add_argument("fate", nargs="+", metavar="FATE", help="rout LOCATION | surrender CAPTOR | stay | eliminated")


def _los_parser(sub, common) -> None:
    l = sub.add_parser(
        "los",
        parents=[common(limit=False)],
        help="the LOS between pairs of Locations: clear or blocked, where, and the hindrance DRM",
        description="The LOS between pairs of Locations (a hex such as 2O5, or HEX@N: the N-th level of a "
        "building in it). On VASL boards, VASL's LOS over the boards' artwork (docs/real-boards.md); on a "
        "painted map, the hex model's. Either a position and its pairs (asl-kb los POSITION A B [C D ...]), "
        "or one board without a position (asl-kb los --board NAME --pairs FILE: one pair `FROM TO` a line).",
    )
    l.add_argument(
        "position", nargs="?", metavar="POSITION", help="position YAML file (default: none, --board and --pairs)"
    )
    l.add_argument("locations", nargs="*", metavar="LOCATION", help="pairs of Locations: A B [C D ...] (default: none)")
    l.add_argument(
        "--board",
        metavar="NAME",
        help="a VASL board, as VASL names it (02 for the archive bd02) (default: none, the position's map)",
    )
    l.add_argument(
        "--pairs",
        metavar="FILE",
        help="the pairs, one `FROM TO` a line, - for standard input (default: none, the command line's)",
    )


def _serve_parser(sub, common) -> None:
    s = sub.add_parser(
        "serve",
        parents=[common(output_format=False, limit=False, timeout=DEFAULT_SERVE_TIMEOUT)],
        help="a local web app: build a position on the hex map, see every legal outcome as you go",
        description="A local web app (docs/serve.md): the position's map drawn as `report` draws it, "
        "units, terrain and the header edited with the mouse, every change checked by the "
        "loader and answered by the engine, the position saved as YAML. "
        "Needs the serve extra: pip install 'asl-kb[serve]'.",
    )
    s.add_argument(
        "position", nargs="?", metavar="POSITION", help="position YAML file to open (default: a new position)"
    )
    s.add_argument(
        "--switch",
        metavar="NAME",
        help="flip this switch of rules/core/versions.lp against --rules (default: none; --rules current "
        "where none is given)",
    )
    s.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on: an address of a network opens the app to that network, with no "
        "authentication; 0.0.0.0 is refused (default: 127.0.0.1, this machine only)",
    )
    s.add_argument("--port", type=committee_cli.at_least(1), default=8000, help="port to listen on (default: 8000)")
    # the common --timeout and --max-memory cap each answer, not the server
    s.add_argument(
        "--workers",
        type=committee_cli.at_least(1),
        default=2,
        metavar="N",
        help="answers figured at once, each in its own process (default: 2)",
    )


#: the subcommands in the order `--help` lists them, each with what adds its
#: parser (diff and search together: asl_kb/committee/cli.py)
SUBCOMMANDS = {
    "outcomes": _outcomes_parser,
    "diff": committee_cli.add_parsers,
    "search": committee_cli.add_parsers,
    "check": _check_parser,
    "why-not": _why_not_parser,
    "report": _report_parser,
    "los": _los_parser,
    "import": _import_parser,
    "serve": _serve_parser,
}


def _parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser: for the arguments `argv`, when they name
    a subcommand, only that subcommand's parser (all of them cost a run ~2
    ms); else (no argv, no subcommand, a misspelt one, `--help`) every one,
    so that the usage and errors list them all."""
    words = [a for a in argv or () if not a.startswith("-")]
    only = words[0] if words and words[0] in SUBCOMMANDS else None
    ap = _Parser(
        prog="asl-kb",
        description="ASL rout and surrender outcomes, explained by rule number",
        epilog="exit codes: " + "; ".join(f"{k} {v.split(':')[0]}" for k, v in EXIT_CODES.items()),
    )
    ap.add_argument("--version", action=_VersionAction, help="print the program's version and exit")
    ap.add_argument(
        "--debug", action="store_true", help="on an internal error, print the traceback (default: one line, exit 70)"
    )
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    added = []
    for name, add in SUBCOMMANDS.items():
        if (only is None or name == only) and add not in added:
            add(sub, _common)
            added.append(add)
    return ap


#: the subcommands that answer for one position and are done: their process
#: ends at its answer (asl_kb/process.py)
ONE_POSITION = ("outcomes", "check", "why-not", "los")


def run() -> None:
    """The `asl-kb` command (and `python -m asl_kb`): the command in this
    process, which it then ends: a one-position command's as
    asl_kb/process.py ends it; past --timeout inside a call no check
    reaches, the watchdog answers and ends it (asl_kb/budget.py). The
    committee's commands (worker processes, Dask clusters) and `report`
    (a browser) end the usual way."""
    argv = sys.argv[1:]
    args = _parser(argv).parse_args(argv)
    if args.command in ONE_POSITION:
        process.one_position()
    code = _main(args, watchdog=True)
    budget.finish()
    if args.command in ONE_POSITION:
        process.end(code)
    sys.exit(code)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _parser(argv).parse_args(argv)
    before = budget.memory_cap()
    try:
        return _main(args, watchdog=False)
    finally:
        budget.restore_memory_cap(before)


def _main(args, watchdog: bool) -> int:
    """The command, its answer written; its exit status. With `watchdog`
    (the process is the command's own: run()), a run past --timeout inside
    a ground call is answered from another thread, which ends the process."""
    problem = _output_problem(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return _answer(args, watchdog)


def _answer(args, watchdog: bool) -> int:
    """_main's command run, bounded, each way it may end said."""
    timer = None
    #: what the run has read so far: the watchdog's answer names its position
    seen: dict = {}
    try:
        # (the watchdog's thread started before the cap: a thread's stack
        # counts as data, and one refused under the cap is no answer at all)
        if args.command not in ("search", "serve") and watchdog:
            timer = _arm_watchdog(args, seen)
        # (the server is not capped: each answer is, beyond the server's own
        # memory, in its child process: asl_kb/serve/work.py)
        if args.command != "serve":
            budget.cap_memory(args.max_memory)
        # one position, one answer: the cyclic garbage collector paused
        # (asl_kb/process.py); the committee's long searches keep it on
        # (and keep their own --timeout: they answer with what they found);
        # the server applies it to each answer
        if args.command in ("search", "serve"):
            return _run(args, seen)
        with budget.deadline_in(args.timeout), process.paused():
            return _run(args, seen)
    except NoAnswerSet as e:  # a rules folder that rules out every outcome
        print(f"asl-kb {args.command}: {e}", file=sys.stderr)
        return EXIT_DIFFERS
    except (PositionError, AslKbError) as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except budget.TimedOut as e:
        return _cut(args, f"--timeout {args.timeout:g} s passed while {e}", {"timeout": args.timeout, "while": str(e)})
    except MemoryError:
        return _cut(
            args,
            f"the memory cap (--max-memory {args.max_memory} MiB) was reached",
            {"memory_mib": args.max_memory, "while": budget.phase()},
        )
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception as e:  # a bug: one line, or the traceback with --debug
        return _internal_error(args, e)
    finally:
        if timer is not None:
            timer.cancel()


def _internal_error(args, e: Exception) -> int:
    first = (str(e).strip().splitlines() or [""])[0]
    if args.debug:
        import traceback

        traceback.print_exc()
        print(f"internal error: {type(e).__name__}: {first}", file=sys.stderr)
    else:
        print(f"internal error: {type(e).__name__}: {first} (rerun with --debug for the traceback)", file=sys.stderr)
    return EXIT_INTERNAL


def _cut(args, why: str, cut: dict) -> int:
    """The answer of a subcommand cut by --timeout or --max-memory where it
    has nothing of its own to say (check, why-not, report, diff): complete:
    false, why, and where it was; exit 3. (`outcomes` answers with the units
    done: asl_kb/engines/outcomes.py.)"""
    with budget.ANSWER_LOCK:
        if args.format == "json":
            import json

            sys.stdout.write(
                json.dumps({"complete": False, "incomplete_because": [why], "cut": cut}, indent=2, ensure_ascii=False)
                + "\n"
            )
        else:
            print(f"asl-kb {args.command}: INCOMPLETE: {why}", file=sys.stderr)
    return EXIT_INCOMPLETE


#: the options naming a file or folder a subcommand writes: (option, dest,
#: the suffixes the file may have (None: any), whether it names a folder)
OUTPUTS = (
    ("--output", "output", (".html", ".htm"), False),
    ("--output", "position_out", (".yaml", ".yml"), False),
    ("--png", "png", (".png",), False),
    ("--stream", "stream", None, False),
    ("--out", "out", None, True),
)


def _output_problem(args) -> str | None:
    """What is wrong with an output path the arguments name (asl_kb/outputs.py),
    before any work is done."""
    from asl_kb import outputs

    for option, dest, suffixes, folder in OUTPUTS:
        found = outputs.problem(option, getattr(args, dest, None), suffixes, folder)
        if found:
            return found
    return None


def _refuse_broken(position, result) -> None:
    """A position that breaks a rule of the prisoners program (a Guard over
    capacity, a Guard that is not armed Personnel, an Unarmed unit attacking
    an AFV) is refused like one that breaks a rule of
    rules/core/position_checks.lp (outcomes() refuses those itself): exit 2,
    FILE:LINE: KEY: the rule's words. `asl-kb check` lists them all (exit 1).
    (A result not cut is one whose run checked position_checks.lp first.)"""
    from asl_kb.engines.legality import refuse_prisoners

    if result.cut is None:
        refuse_prisoners(position, result.prisoners)


def _run(args, seen: dict) -> int:
    if args.command in committee_cli.COMMANDS:
        return committee_cli.run(args)
    if getattr(args, "vasl_boards", None):
        from asl_kb.vasl import archive

        archive.use_folder(args.vasl_boards)
    if args.command == "serve":
        from asl_kb.serve.server import serve

        return serve(args)
    if args.command == "los":
        from asl_kb.vasl import query

        out = query.run(args)
        with budget.ANSWER_LOCK:
            _write(out)
        return EXIT_OK
    if args.command == "import":
        return _import(args)
    position = seen["position"] = _load(args)
    if getattr(args, "to", None):  # report --to: two rule sets, as diff's --from/--to/--switch
        from asl_kb.committee.rulesets import parse_ruleset, discard_materialized

        try:
            return _report_pair(
                position,
                args,
                parse_ruleset(args.rules or position.rules, key="--rules"),
                parse_ruleset(args.to, switch=args.switch, key="--to"),
            )
        finally:
            discard_materialized()
    if args.rules in VERSIONS and not args.switch:
        from asl_kb.record import replace

        position = seen["position"] = replace(position, rules=args.rules)
    elif args.rules or args.switch:
        # a rule set (version, rules folder, a switch flipped): the command
        # runs under it (docs/committee.md "Rule sets")
        from asl_kb.committee.rulesets import parse_ruleset, discard_materialized

        rs = parse_ruleset(args.rules or position.rules, switch=args.switch)
        from asl_kb.committee import stale

        stale.warn(rs)  # a folder written against older rules: said on stderr
        try:
            with rs.active():
                return _command(rs.apply(position), args, rs)
        finally:
            discard_materialized()
    return _command(position, args, None)


def _command(position, args, rs) -> int:
    if args.command == "check":
        return _check(position, args, rs)
    if args.command == "report":
        return _report(position, args)
    if args.command == "why-not":
        return _why_not(position, args, rs)
    from asl_kb.engines.outcomes import outcomes
    from asl_kb.report.render import json_bytes, to_text

    limit = DEFAULT_PHASE_LIMIT if args.limit is None else args.limit
    result = outcomes(
        position,
        all_paths=args.all_paths,
        voluntary_break=args.voluntary_break,
        phase=args.phase,
        limit=limit,
        timeout=args.timeout,
        max_memory=args.max_memory,
    )
    _refuse_broken(position, result)
    if rs is not None:
        result.rules = rs.label  # the rule set it ran under, not only its version
    out: str | bytes | None
    try:
        out = json_bytes(result) if args.format == "json" else to_text(result, args.all_paths, args.all, args.limit)
    except MemoryError:
        out = None
    if out is None:
        # (said as any run the cap cuts: complete false, its cut, no fates;
        # in the memory the answer not written held)
        del result
        from asl_kb.engines.outcomes import cut_by_memory

        cut = cut_by_memory(position, args.max_memory, "writing the answer")
        out = json_bytes(cut) if args.format == "json" else to_text(cut, False, False, args.limit)
        with budget.ANSWER_LOCK:
            _write(out)
        return EXIT_INCOMPLETE
    with budget.ANSWER_LOCK:
        _write(out)
    if not result.complete:
        return EXIT_INCOMPLETE
    # the answer is no (docs/output-format.md): a broken unit, or the whole
    # phase, without a legal outcome
    no_phase = result.phase is not None and result.phase.count == 0
    return EXIT_DIFFERS if no_phase or any(u.inconsistent for u in result.units) else EXIT_OK


def _write(out: str | bytes) -> None:
    """Write an answer to standard output: bytes to its binary buffer where
    it has one (after the text written before them)."""
    if isinstance(out, str):
        sys.stdout.write(out)
        return
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(out.decode())
        return
    sys.stdout.flush()
    buffer.write(out)


def _arm_watchdog(args, seen: dict):
    """Past --timeout and its slack, inside a call no check reaches (one
    clingo ground call), answer from another thread with what is known:
    for `outcomes` the cut answer (the units of the groups done and those
    not reached), else the cut line."""

    def answer(where: str) -> str:
        why = f"--timeout {args.timeout:g} s passed while {where}"
        if args.command == "outcomes" and "position" in seen:
            from asl_kb.engines.outcomes import cut_by_timeout, progress
            from asl_kb.report.render import to_json, to_text

            r = cut_by_timeout(seen["position"], args.timeout, where, *progress())
            return to_json(r) if args.format == "json" else to_text(r, False, False, args.limit)
        if args.format == "json":
            import json

            return (
                json.dumps(
                    {"complete": False, "incomplete_because": [why], "cut": {"timeout": args.timeout, "while": where}},
                    indent=2,
                )
                + "\n"
            )
        sys.stderr.write(f"asl-kb {args.command}: INCOMPLETE: {why}\n")
        return ""

    return budget.watchdog(args.timeout, answer)


def _listed(items: list, limit, what: str) -> tuple[list, list[str]]:
    """The first `limit` items, and the line that says how many are left out."""
    if limit is None or len(items) <= limit:
        return items, []
    return items[:limit], [f"  ({limit} of {len(items)} {what} listed: --limit)"]


def _why_not(position, args, rs=None) -> int:
    import json
    from asl_kb.engines.legality import refuse_broken
    from asl_kb.engines.why_not import parse_proposal, to_text, why_not

    proposal = parse_proposal(position, args.unit, args.fate)
    refuse_broken(position)
    r = why_not(position, proposal)
    if rs is not None:
        r["rules"] = rs.label
        if rs.folder is not None and not r["legal"]:
            # the folder's edits that forbid it: undone, the fate is legal
            # (a minimal set, committee/edits.py needed)
            from asl_kb.committee.edits import needed

            blamed = needed(rs, lambda: not why_not(position, proposal)["legal"])
            r["edits"] = [e.as_json() for e in blamed] if blamed is not None else []
            if blamed is None:
                r["also_in_shipped_rules"] = True
    budget.check("writing the answer")
    if args.format == "json":
        sys.stdout.write(json.dumps(r, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(to_text(r, args.limit))
    return EXIT_OK if r["legal"] else EXIT_DIFFERS


def _check(position, args, rs=None) -> int:
    import json

    if rs is not None:
        from asl_kb.committee.gaps import check_under

        r = check_under(position, rs)
        r["rules"] = rs.label
    else:
        from asl_kb.engines.check import check

        r = check(position)
    if args.format == "json":
        sys.stdout.write(json.dumps(r, indent=2, ensure_ascii=False) + "\n")
    else:
        out = [
            f"{r['position']} — rules: {r['rules']}: "
            + ("consistent" if r["consistent"] else "NOT consistent")
            + (f" ({len(r['findings'])} finding{'s' if len(r['findings']) != 1 else ''})" if r["findings"] else "")
        ]
        findings, more = _listed(r["findings"], args.limit, "findings")
        for f in findings:
            out += _finding_lines(f)
        sys.stdout.write("\n".join(out + more) + "\n")
    return EXIT_OK if r["consistent"] else EXIT_DIFFERS


def _finding_lines(f: dict) -> list[str]:
    """A finding of `check` as text: a unit with no legal outcome and why,
    or the clauses that contradict (and the fewest to break), with the
    edits of a rules folder that gave it."""
    out = []
    if f["kind"] == "no_legal_outcome":
        out.append(f"  {f['unit']}: no legal outcome")
        out += [f"      [{b['rule']}] {b['says']}" for b in f["because"]]
    else:
        out.append(f"  {f['kind'].replace('_', ' ')}:")
        for c in f["clauses"]:
            if "says" in c:  # the rule's words, where in the file
                out.append(f"      {c['at']}: [{c['rule']}] {c['says']}")
                continue
            out.append(f"      [{c['rule']}] {c['violated']}")
            if "at" in c:
                out.append(f"          {c['at']}")
        for fix in f.get("corrections", ()):
            out.append("      fewest broken: " + ", ".join(f"[{c['rule']}] {c['violated']}" for c in fix))
    for e in f.get("edits", ()):
        out.append(
            f"      edited: {e['file']}:{e['line']} [{e['rule']}] {e['edit']}: {e.get('clause') or e.get('was')}"
        )
    if f.get("also_in_shipped_rules"):
        out.append("      (the shipped rules give it too)")
    return out


if __name__ == "__main__":
    run()
