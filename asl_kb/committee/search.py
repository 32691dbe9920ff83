"""`asl-kb search diff`: the smallest positions of a scope where two rule
sets part.

Positions are enumerated smallest first (enumerate.py) and judged under both
rule sets (scan.py walks them, in-process or on Dask); the first `witnesses`
positions whose outcomes differ are reported -- minimal within the scope --
each with the outcomes that appear/vanish, their causes, and the clauses
(because/3 rule ids) that fired on one side only. With `out`, each witness is
written as a position YAML that `asl-kb diff FILE --from A --to B [--switch X]`
replays (with --voluntary-break where the search asked it) and
`asl-kb report FILE --rules A --to B [--switch X]` draws (its header names
both).
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from asl_kb.committee.compare import compare, same_outcomes, summary
from asl_kb.committee.relevance import may_touch
from asl_kb.committee.rulesets import RuleSet, flipped
from asl_kb.committee.scan import ScanOptions, finish_report, scan, scanned, serial, witness_entries
from asl_kb.committee.scope import Scope
from asl_kb.position.loader import load_position_text

#: outcomes listed per witness and change in the text report (a witness
#: fits 20 lines; every one is in --format json)
SHOWN = 4


def replay_command(a: RuleSet, b: RuleSet, file: str, voluntary_break: bool = False) -> str:
    """The `asl-kb diff` command line that replays a witness (one found
    asking Voluntary Break, A10.41, asks it too)."""
    words = ["asl-kb", "diff", file, "--from", str(a.folder) if a.folder else a.version]
    asked = ["--voluntary-break"] if voluntary_break else []
    to = str(b.folder) if b.folder else b.version
    if b.flip and a.flip is None and (a.version, a.folder) == (b.version, b.folder):
        return " ".join(words + ["--switch", b.flip] + asked)
    words += ["--to", to] + (["--switch", b.flip] if b.flip else [])
    return " ".join(words + asked)


def board_command(a: RuleSet, b: RuleSet, file: str) -> str:
    """The `asl-kb report --to` command line that draws a witness under both
    rule sets side by side (a page beside the witness file)."""
    page = file[:-5] + ".html" if file.endswith(".yaml") else file + ".html"
    words = [
        "asl-kb",
        "report",
        file,
        "--rules",
        str(a.folder) if a.folder else a.version,
        "--to",
        str(b.folder) if b.folder else b.version,
    ]
    return " ".join(words + (["--switch", b.flip] if b.flip else []) + ["-o", page])


def as_switch(a: RuleSet, b: RuleSet) -> tuple[RuleSet, RuleSet] | None:
    """From the shipped rules to a rules folder (same version, no switch
    flipped): the same two rule sets as one rules folder with the folder's
    edits as a switch's clauses (committee/edits.py as_switch), off on the
    first side, on on the second -- so the positions the edited clauses
    cannot touch are skipped, and the others grounded once for both. None
    otherwise, or when the folder changes more than clauses."""
    if a.folder is not None or b.folder is None or a.flip or b.flip or a.version != b.version:
        return None
    from asl_kb.committee import edits

    path = edits.as_switch(b)
    if path is None:
        return None
    on = RuleSet(version=b.version, complete=path)
    return on.flipped(edits.SWITCH), on


def judge_diff(name: str, text: str, a: RuleSet, b: RuleSet, phase: bool, **asked: bool) -> dict:
    """One position: do its outcomes differ under a and b? (picklable, for
    workers). When a and b differ only in switches, a position in which no
    clause of theirs can fire (relevance.py) is not run: it cannot differ
    (not where Voluntary Break is asked, `asked` voluntary_break: the slice
    reads no vb_scope/1)."""
    voluntary_break = asked.get("voluntary_break", False)
    position = load_position_text(text, name)
    proxy = as_switch(a, b)
    sa, sb = proxy or (a, b)
    switches = flipped(sa, sb)
    nothing = {
        "witness": False,
        "incomplete": [],
        "appeared": [],
        "vanished": [],
        "fired_only_in_from": [],
        "fired_only_in_to": [],
    }
    if switches is not None and not voluntary_break:
        with sa.active():
            if not may_touch(sa.apply(position), switches, phase):
                return {**nothing, "untouched": True}
    # A position an erratum's edited clauses may touch: its answers under
    # the combined folder -- grounded once for both (asp/once.py) -- the
    # rout graphs' dead ends left out (an edit often adds or removes only states no fate
    # is reached from); read in full, under the real rule sets so that rows
    # are attributed to the edited clause, only where they differ.
    dead_ends: list = []
    if (
        proxy is not None
        and not phase
        and not voluntary_break
        and same_outcomes(position, sa, sb, explained=True, live=True, dead_ends=dead_ends)
    ):
        # (acting only on states no fate is reached from: said, not a witness)
        return {**nothing, "dead_ends_only": bool(dead_ends)}
    d = compare(position, a, b, phase=phase, voluntary_break=voluntary_break, shortcut=proxy is None)
    return {
        "witness": bool(d["appeared"] or d["vanished"]),
        "incomplete": d.get("incomplete_because", []),
        "appeared": d["appeared"],
        "vanished": d["vanished"],
        "fired_only_in_from": d["fired_only_in_from"],
        "fired_only_in_to": d["fired_only_in_to"],
    }


def same_position(text: str) -> str:
    """A position's text without what does not change its answers: its
    name, and the map's area (a bound's margin keeps every unit's reach
    inside it, so a position of one hex's bound and the same units of a
    seven hexes' are one position for the rules; bounds.py)."""
    return "\n".join(line for line in text.splitlines() if not line.startswith(("name:", "  area:")))


def remembered(judge, memo: dict):
    """`judge` with the verdicts of positions it judged before kept: the
    bounds a search grows over share their smaller positions (a bound of
    seven hexes holds every position of one hex; a wider vocabulary every
    kind of a narrower one), judged once."""

    def again(name: str, text: str) -> dict:
        key = same_position(text)
        if key not in memo:
            memo[key] = judge(name, text)
        return memo[key]

    return again


@dataclasses.dataclass
class Options:
    """What search_diff() is asked besides the scope and the two rule sets."""

    #: the whole-phase outcomes compared too
    phase: bool = False
    #: stop after this many witnesses
    witnesses: int = 3
    max_positions: int | None = None
    #: a folder each witness is written into
    out: str | None = None
    #: make(judge) -> an evaluator (scan.py: child processes, Dask); None: in this process
    evaluator: Any = None
    #: a report that found nothing is incomplete when a changed clause is
    #: in a program the search does not compare -- False where the caller
    #: says it, grow_diff
    say_unseen: bool = True
    #: the solver chooses the positions (generate.py)
    generate: bool = False
    #: a generated search in which the changed clauses acted nowhere is
    #: incomplete -- False where the caller grows the bounds and says it, grow.py
    say_idle: bool = True
    #: verdicts of positions already judged, kept across the bounds of one search, grow.py
    memo: dict | None = None
    #: the whole scope judged for the report's `impact`, committee/impact.py
    impact: bool = False
    #: A10.41's Voluntary Break asked of every position (outcomes
    #: --voluntary-break), grow.py
    voluntary_break: bool = False
    #: only the positions where a rout may be re-figured, for a change that
    #: weighs the route figured at the start against the whole rout
    #: (generate.refiguring: a reading, never "exhausted"), grow.py
    refigured_only: bool = False
    #: scan()'s own options (ScanOptions: timeout, since, stream, resume, progress)
    scan: dict = dataclasses.field(default_factory=dict)

    @classmethod
    def of(cls, options: dict) -> "Options":
        """Options from keywords: those not a field are scan()'s."""
        names = {f.name for f in dataclasses.fields(cls)} - {"scan"}
        return cls(
            **{k: v for k, v in options.items() if k in names},
            scan={k: v for k, v in options.items() if k not in names},
        )


def search_diff(scope: Scope, a: RuleSet, b: RuleSet, **options) -> dict:
    """The smallest positions of `scope` where a and b part (the module's
    docstring); `options`: Options' fields, and scan()'s."""
    o = Options.of(options)
    phase, scan_options = o.phase, dict(o.scan)
    from asl_kb.committee.impact import Impact

    tally = Impact(scope.name)
    judge = functools.partial(judge_diff, a=a, b=b, phase=phase, voluntary_break=o.voluntary_break)
    if o.memo is not None and o.evaluator is None:
        judge = remembered(judge, o.memo)
    from asl_kb.committee.reach import idle, passed_over as passes_over

    # (read off the scope's definition: not for a bound grown without a
    # scope, which says what the clauses need itself)
    idle_ = idle(scope, a, b) if o.say_idle else None
    # every changed clause can act nowhere in the scope: a proof for every
    # position of it, none run (as --scope shipped passes a scope over)
    passed_over = o.say_idle and passes_over(scope, a, b) is not None
    if passed_over:
        scan_options["positions"] = lambda _deadline: iter(())
    run = None
    if (
        o.generate and not passed_over
    ):  # the solver chooses the positions (generate.py), only those the changed clauses may act in
        from asl_kb.committee import generate as gen

        run, scan_options["positions"] = gen.walk(scope, *_required(scope, a, b, o.refigured_only))
    s = scan(
        scope,
        o.evaluator(judge) if o.evaluator else serial(judge),
        ScanOptions(
            witnesses=o.witnesses, max_positions=o.max_positions, told=tally.add, whole=o.impact, **scan_options
        ),
    )

    def header(n, file, w, v):
        w["replay"] = replay_command(a, b, file, o.voluntary_break)
        changes = [f"{sign} {e['outcome']}" for key, sign in (("vanished", "-"), ("appeared", "+")) for e in v[key]]
        return (
            f"asl-kb search diff witness {n} of scope {scope.name}: {a.label} -> {b.label}\n"
            f"replay: {w['replay']}\n"
            f"board: {board_command(a, b, file)}\n"
            + "".join(x + "\n" for x in changes[:SHOWN])
            + (f"... {len(changes)} changes in all\n" if len(changes) > SHOWN else "")
        )

    found = witness_entries(
        s,
        o.out,
        "witness",
        lambda v: {k: v[k] for k in ("appeared", "vanished", "fired_only_in_from", "fired_only_in_to")},
        header,
    )
    report = {
        "scope": scope.name,
        "from": a.as_json(),
        "to": b.as_json(),
        "from_label": a.label,
        "to_label": b.label,
        **scanned(s),
        "untouched": s["untouched"],
        "dead_ends_only": s["dead_ends_only"],
        "witnesses": found,
    }
    report["passed_over"] = passed_over
    report["idle_clauses"] = [{"clause": k, "needs": v} for k, v in (idle_ or {}).items()]
    report["impact"] = [tally.as_json(s["stopped"])]
    report = finish_report(report, s)
    if run is not None:
        from asl_kb.committee import generate as gen

        acted = report["tried"] - report["untouched"] - report["dead_ends_only"] > 0
        report = gen.within(report, run, scope, acted or not o.say_idle)
    return said_unseen(report, a, b, phase) if o.say_unseen else report


def _required(scope: Scope, a: RuleSet, b: RuleSet, refigured_only: bool = False) -> tuple:
    """The generator's constraints for a diff: a position where some changed
    clause may act, as its unit inputs say (generate.require_for), and the
    filter of what its header inputs say (generate.header_filter), and with
    `refigured_only` what generate.partial_for says is left out; "" and
    None (no constraint) when the changed clauses are not known."""
    from pathlib import Path

    from asl_kb.committee import generate as gen, least_units, reach

    got = reach.changed(a, b)
    if got is None or not got[1]:
        return "", None, None
    needs = reach.needs(got[0], got[1], reach.by_scope(Path(got[0])))
    changed = got if refigured_only else None
    require = gen.require_for(scope, needs, changed, least_units.needed(*got))
    return require, gen.header_filter(needs), gen.partial_for(scope, changed)


def said_unseen(report: dict, a: RuleSet, b: RuleSet, phase: bool) -> dict:
    """A search that found nothing, while some changed clause is in a program
    it does not compare (the whole-phase program without --phase, check.lp),
    is incomplete: it never looked (JSON `not_compared`)."""
    from asl_kb.committee.reach import not_compared, not_compared_reason

    unseen = not_compared(a, b, phase)
    report["not_compared"] = unseen
    if unseen and not report["witnesses"]:
        report["complete"] = False
        reason = not_compared_reason(unseen)
        report["incomplete_because"] = [*report.get("incomplete_because", []), reason]
    return report


#: the lines a report of one witness takes at most
REPORT_LINES = 20


def _witness_lines(w: dict, room: int, budget: int) -> list[str]:
    """One witness in at most `budget` lines no wider than `room`: where
    it is, what it comes to, one cause line when every change has the same
    causes, then as many changes as fit, each cut to the width."""
    from asl_kb.report import table

    head = [
        f"  witness {w['position']} ({w['units']} unit(s), {w['non_open']} non-open hex(es))"
        + (f": {w['file']}" if "file" in w else "")
    ]
    head += ["    " + x for x in table.wrap(w["brief"], room - 4, "  ")]
    if "replay" in w:
        head += ["    " + x for x in table.wrap(f"replay: {w['replay']}", room - 4, "  ")]
    said = "; ".join(f"{key} {summary(w[key])}" for key in ("vanished", "appeared") if w[key])
    head += ["    " + x for x in table.wrap(said, room - 4, "  ")]
    changes = w["appeared"] + w["vanished"]
    causes = {", ".join(_cause(c) for c in e["caused_by"]) for e in changes}
    one_cause = len(causes) == 1
    if one_cause:
        head += ["    " + x for x in table.wrap(f"caused by {causes.pop()}", room - 4, "  ")]
    tail = []
    for key, side in (("fired_only_in_from", "from"), ("fired_only_in_to", "to")):
        if w[key]:
            tail += [
                "    " + x for x in table.wrap(f"clauses fired only in {side}: {', '.join(w[key])}", room - 4, "  ")
            ]
    sides = [key for key in ("vanished", "appeared") if w[key]]
    left = budget - len(head) - len(tail)
    each = max(1, min(SHOWN, (left - sum(len(w[k]) > 1 for k in sides)) // max(1, len(sides))))
    rows = []
    for key, sign in (("vanished", "-"), ("appeared", "+")):  # (what an erratum takes away first)
        shown = w[key] if len(w[key]) <= each + 1 else w[key][:each]
        for e in shown:
            why = "" if one_cause else "    <- " + ", ".join(_cause(c) for c in e["caused_by"])
            rows.append(_cut(f"    {sign} {e['outcome']}{why}", room))
        if len(shown) < len(w[key]):
            rows.append(f"    {sign} ... {len(w[key]) - len(shown):,} more {key} (all in --format json)")
    return head + rows + tail


def _cut(line: str, room: int) -> str:
    return line if len(line) <= room else line[: room - 1] + "…"


def to_text(report: dict) -> str:
    from asl_kb.report import table

    room = table.width()
    head = f"search diff {report['from_label']} -> {report['to_label']} in scope {report['scope']}"
    incomplete = "" if report["complete"] else " — INCOMPLETE: " + "; ".join(report["incomplete_because"])
    untouched = report.get("untouched", 0)
    if untouched:
        whose = "the switch's clauses" if report["to"].get("folder") is None else "the folder's edited clauses"
        incomplete = f" ({untouched:,} of them shown untouched by {whose}, not run)" + incomplete
    if not report["witnesses"]:
        said = f"none in {report['tried']:,} positions{incomplete}"
        if report.get("passed_over"):
            said = "none: the changed clauses can act in no position of it (passed over, no position run)"
        if report.get("within_bounds"):
            from asl_kb.committee.generate import bounds_text

            said = (
                f"equivalent for every position within bounds {bounds_text(report['bounds'])} "
                f"({report['tried']:,} positions, the solver's search exhausted){incomplete}"
            )
        lines = table.wrap(f"{head}: {said}", room, "  ")
        if untouched and untouched == report["tried"] and report["complete"]:
            lines += table.wrap(
                f"  warning: the changed clauses can act in no position of scope {report['scope']}: "
                "a scope holding what they read may tell the rule sets apart",
                room,
                "    ",
            )
        dead = report.get("dead_ends_only", 0)
        if dead and untouched + dead == report["tried"] and report["complete"]:
            lines += table.wrap(
                f"  warning: the changed clauses act in {dead:,} positions of scope {report['scope']}, "
                "each time only on rout states from which no fate is reached (a Location the "
                "unit may not end its rout in, no way on): no outcome changes; a scope where "
                "they lead on to a fate may tell the rule sets apart",
                room,
                "    ",
            )
        for x in _idle_lines(report):
            lines += table.wrap(x, room, "    ")
        return "\n".join(lines) + "\n"
    lines = table.wrap(
        f"{head}: {len(report['witnesses'])} witness(es) in {report['tried']:,} positions tried "
        f"(smallest first; {report['stopped']}){incomplete}",
        room,
        "  ",
    )
    budget = REPORT_LINES - len(lines)
    for w in report["witnesses"]:
        lines += _witness_lines(w, room, budget)
    from asl_kb.committee.impact import lines as impact_lines

    return "\n".join(lines + impact_lines(report.get("impact", []), room)) + "\n"


def _idle_lines(report: dict) -> list[str]:
    """A warning for each changed clause that can act nowhere in the scope:
    it reads an input no position of the scope produces."""
    return [
        f"  warning: {x['clause']} can act nowhere in scope {report['scope']}: it reads "
        f"{', '.join(x['needs'])}, which no position of it produces"
        for x in report.get("idle_clauses", ())
    ]


def _cause(c: dict) -> str:
    from asl_kb.committee.corpus import cause_text

    return cause_text(c)


#: positions a grown search tries in all when --max-positions is not given
GROWN_AT_MOST = 20000


def shipped_scopes_by_size() -> list:
    """The shipped scopes, smallest first (units, then positions)."""
    from asl_kb.committee.enumerate import count
    from asl_kb.committee.scope import SCOPES_DIR, load_scope

    scopes = [load_scope(p.stem) for p in SCOPES_DIR.glob("*.yaml")]
    # (counting the positions of three units over two rings costs half a
    # minute: those last)
    return sorted(
        scopes, key=lambda s: (s.max_units, count(s) if s.max_units <= 2 or s.radius <= 1 else 1 << 30, s.name)
    )


def _grown_options(options: dict) -> tuple:
    """grow_diff's own options (phase, witnesses, max positions, timeout,
    since), and those it hands to each scope's search_diff."""
    o = Options.of(options)
    own = ("phase", "witnesses", "max_positions", "timeout", "since")
    rest = {k: v for k, v in options.items() if k not in own}
    return o.phase, o.witnesses, o.max_positions, o.scan.get("timeout"), o.scan.get("since"), rest


def grow_diff(a: RuleSet, b: RuleSet, **options) -> dict:
    """`search diff` without a scope: the shipped scopes one after another,
    smallest first, until one holds a witness; else "equivalent within N
    positions of up to K units" (or cut: --timeout, --max-positions, by
    default GROWN_AT_MOST positions in all). The scope is derived from what
    the changed clauses read (reach.py): a scope in which every one of them
    can act nowhere -- it never produces an input each needs -- is passed
    over, with what it lacks. `options`: search_diff's (Options; --timeout
    counts from `since`, a time.monotonic(): from here if None)."""
    import time
    from asl_kb.committee import reach

    phase, witnesses, max_positions, timeout, since, options = _grown_options(options)
    started = time.perf_counter()
    since = time.monotonic() if since is None else since
    budget = GROWN_AT_MOST if max_positions is None else max_positions
    grown: list[dict] = []
    impacts: list[dict] = []  # (each scope searched: committee/impact.py)
    report: dict | None = None
    bar = options.pop("progress", None)
    for scope in shipped_scopes_by_size():
        if bar is not None:
            # one bar over every scope: the positions tried in all
            before = sum(g["tried"] for g in grown)
            options["progress"] = lambda tried, found, _s, last=False, before=before: bar(
                before + tried, found, time.perf_counter() - started
            )
        # (the first scope is always run, cut at once if need be: its report is the answer's)
        if report is not None and (budget <= 0 or (timeout is not None and time.monotonic() - since >= timeout)):
            grown.append({"scope": scope.name, "tried": 0, "complete": False, "untouched": 0})
            break
        idle = reach.passed_over(scope, a, b)
        if idle is not None:
            grown.append(
                {
                    "scope": scope.name,
                    "tried": 0,
                    "complete": True,
                    "untouched": 0,
                    "passed_over": [{"clause": k, "needs": v} for k, v in idle.items()],
                }
            )
            continue
        report = search_diff(
            scope,
            a,
            b,
            phase=phase,
            witnesses=witnesses,
            max_positions=budget,
            timeout=timeout,
            since=since,
            say_unseen=False,
            **options,
        )
        budget -= report["tried"]
        impacts += report["impact"]
        grown.append(
            {
                "scope": scope.name,
                "tried": report["tried"],
                "complete": report["complete"],
                "untouched": report["untouched"],
                "units": scope.max_units,
            }
        )
        if report["witnesses"] or not report["complete"]:
            break
    searched = [g for g in grown if "passed_over" not in g]
    if report is None:
        report = {
            "from": a.as_json(),
            "to": b.as_json(),
            "from_label": a.label,
            "to_label": b.label,
            "tried": 0,
            "untouched": 0,
            "witnesses": [],
            "complete": False,
            "incomplete_because": [
                "no shipped scope produces what the changed clauses read "
                "(without --scope: positions the solver chooses within the bounds read off the rules)"
            ],
        }
    report = dict(report)
    report["grown"] = grown
    report["impact"] = impacts
    tried = sum(g["tried"] for g in grown)
    if bar is not None:
        bar(tried, len(report["witnesses"]), time.perf_counter() - started, last=True)
    report["complete"] = bool(searched) and all(g["complete"] for g in searched)
    if not report["complete"] and searched:
        report["incomplete_because"] = (
            [
                f"stopped: {max_positions or GROWN_AT_MOST} positions tried in all"
                + (" (--max-positions)" if max_positions else " (the default without --scope)")
            ]
            if budget <= 0
            else report.get("incomplete_because") or ["stopped: --timeout reached"]
        )
    report = said_unseen(report, a, b, phase)
    acted = sum(g["tried"] - g["untouched"] for g in searched)
    if not report["witnesses"] and report["complete"] and searched and not acted:
        # never "equivalent" where nothing could differ
        report["complete"] = False
        report["incomplete_because"] = [
            f"the changed clauses could act in none of the {tried:,} positions tried (each shown untouched)"
        ]
    if not report["witnesses"] and report["complete"]:
        report["equivalent_within"] = {"positions": tried, "units": max(g.get("units", 0) for g in searched)}
    return report


def grown_text(report: dict) -> str:
    lines = [
        f"search diff {report['from_label']} -> {report['to_label']}, --scope shipped: the shipped scopes "
        "smallest first, each holding what the changed clauses read"
    ]
    for g in report["grown"]:
        if "passed_over" in g:
            lacks = sorted({n for x in g["passed_over"] for n in x["needs"]})
            lines.append(f"  {g['scope']}: passed over, no position of it produces {', '.join(lacks)}")
            continue
        state = "" if g["complete"] else " (cut)"
        lines.append(
            f"  {g['scope']}: {g['tried']} positions{state}"
            + (f", {g['untouched']} untouched" if g["untouched"] else "")
        )
    if report["witnesses"]:
        return "\n".join(lines) + "\n" + to_text(report)
    if report["complete"]:
        e = report["equivalent_within"]
        lines.append(f"equivalent within {e['positions']} positions of up to {e['units']} units")
    else:
        lines.append("none found — INCOMPLETE: " + "; ".join(report["incomplete_because"]))
    return "\n".join(lines) + "\n"
