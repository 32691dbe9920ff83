"""A search without `--scope`, its positions chosen by the solver: the
bounds read off the rules (bounds.py), smallest first, until one holds a
witness.

`search diff`, `search gaps` and `search find` without `--scope` walk
the ladder of bounds.ladder: each bound's positions are chosen by the
solver (generate.py), only those holding what the clauses in question read
of the units and of the header; a bound ends exhausted (every position the
solver could choose judged), or cut (--timeout, --max-positions: at most
GROWN_AT_MOST positions in all by default). The answer names the bounds:
a witness of the smallest bound holding one; "none within every bound up
to B" only when every bound walked was exhausted -- and, for a diff, when
the changed clauses acted somewhere (else the report says what they need
that no bound gives, and is incomplete).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from asl_kb.committee import bounds as B, legal, reach
from asl_kb.committee.asked import Asked

#: positions a grown search tries in all when --max-positions is not given
GROWN_AT_MOST = 20000


def start_of(a, b) -> tuple[str, list, list] | None:
    """The clauses two rule sets differ by (reach.changed), the complete
    folder they are read in and the inputs they need; None when unknown."""
    got = reach.changed(a, b)
    if got is None or not got[1]:
        return None
    needs = reach.needs(got[0], got[1], reach.by_scope(Path(got[0])))
    return got[0], got[1], [n for v in needs.values() for n in v]


def start_of_rules(rs) -> tuple[str, list, list]:
    """For gaps and find: the rule set's clauses that differ from the
    shipped ones (a switch's, a folder's edits), else none (the ladder's
    vocabulary is then the clauses the caller adds: an assertion's)."""
    from asl_kb.committee.rulesets import parse_ruleset

    if rs.folder is not None or rs.flip:
        shipped = parse_ruleset(rs.version)
        got = start_of(shipped, rs)
        if got is not None:
            return got
    from asl_kb.resources import rules_dir

    return str(rs.complete or rules_dir()), [], []


def ladder_of(start: tuple, max_units: int | None) -> list[B.Bound]:
    """bounds.ladder, only its bounds of at most `max_units` units (--max-units),
    each vocabulary widened where none shows the change (seen.py)."""
    from asl_kb.committee.seen import where_seen

    folder, clauses, needs = start
    return [b for b in B.ladder(folder, clauses, needs, widen=where_seen) if max_units is None or b.units <= max_units]


def widest_last(ladder: list[B.Bound]) -> list[B.Bound]:
    """For a whole-phase search: the bounds of the widest vocabulary after
    the others. The whole phase lists every combination of the units'
    fates, and the widest vocabulary's kinds (Guards with prisoners, Close
    Combat) multiply them (a one-hex position of two such units: tens of
    thousands), where the narrower vocabularies' three-unit bounds are
    judged in seconds; each part smallest first."""
    widest = max(B.DEPTHS)
    return [b for b in ladder if b.depth < widest] + [b for b in ladder if b.depth == widest]


def walk(
    ladder: list[B.Bound],
    run_one: Callable[..., dict],
    limits: tuple[int | None, float | None, float],
    progress=None,
    seen: Callable[[B.Bound], bool] | None = None,
) -> tuple[dict | None, list[dict]]:
    """Run `run_one(scope, max_positions=, timeout=, since=, progress=)` on
    each bound in turn until one holds a witness or is cut (`limits`:
    --max-positions, the timeout and the time.monotonic() it counts from); (the last report,
    what each bound gave). A bound `seen` says no change can be seen in is
    passed over, walked to its end without a position (a diff's: passed_over)."""
    max_positions, timeout, since = limits
    budget = GROWN_AT_MOST if max_positions is None else max_positions
    started = time.perf_counter()
    grown: list[dict] = []
    report = None
    for bound in ladder:
        if report is not None and (budget <= 0 or (timeout is not None and time.monotonic() - since >= timeout)):
            grown.append({"scope": bound.name, "bound": bound.said(), "tried": 0, "complete": False, "untouched": 0})
            break
        if seen is not None and not seen(bound):
            grown.append(_passed_over(bound))
            continue
        step: Callable | None = None
        if progress is not None:
            before = sum(g["tried"] for g in grown)

            def step(tried, found, _s, last=False, before=before):
                progress(before + tried, found, time.perf_counter() - started)

        report = run_one(bound.scope(), max_positions=budget, timeout=timeout, since=since, progress=step)
        budget -= report["tried"]
        grown.append(
            {
                "scope": bound.name,
                "bound": bound.said(),
                "tried": report["tried"],
                "complete": report["complete"],
                "untouched": report.get("untouched", 0),
                "dead_ends_only": report.get("dead_ends_only", 0),
                "units": bound.units,
                # (a bound whose generator left positions out on a reading
                # not proved is never exhausted: generate.partial_for)
                "exhausted": bool(report.get("generated", {}).get("exhausted")) and not report.get("partial"),
                **({"partial": report["partial"]} if report.get("partial") else {}),
            }
        )
        if report["witnesses"] or not report["complete"]:
            break
    return report, grown


def _passed_over(bound: B.Bound) -> dict:
    """A bound in which the changed clauses reach no outcome (bounds.seen_through)."""
    return {
        "scope": bound.name,
        "bound": bound.said(),
        "tried": 0,
        "complete": True,
        "untouched": 0,
        "units": bound.units,
        "exhausted": True,
        "passed_over": True,
    }


def finish(report: dict | None, grown: list[dict], ladder: list[B.Bound], max_positions: int | None) -> dict:
    """The grown report: `grown` (each bound: positions tried, complete,
    exhausted), `complete`, and `within_rules_bounds` (the largest bound
    walked) when every bound was walked to exhaustion and nothing found."""
    report = dict(report or {"tried": 0, "witnesses": [], "complete": False})
    report.pop("within_bounds", None)  # (the last bound's: the answer is every bound's)
    report["grown"] = grown
    report["tried"] = sum(g["tried"] for g in grown)
    report["untouched"] = sum(g["untouched"] for g in grown)
    whole = len(grown) == len(ladder) and all(g["complete"] and g.get("exhausted") for g in grown)
    if report["witnesses"]:
        return report
    report["complete"] = whole
    if not whole:
        budget = GROWN_AT_MOST if max_positions is None else max_positions
        said = report.get("incomplete_because") or []
        partial = sorted({g["partial"] for g in grown if g.get("partial")})
        if partial and not said and report["tried"] < budget:
            said = [f"{p} ({', '.join(g['scope'] for g in grown if g.get('partial') == p)})" for p in partial]
        if report["tried"] >= budget:
            said = [
                f"stopped: {budget} positions tried in all"
                + (" (--max-positions)" if max_positions else " (the default without --scope)")
            ]
        report["incomplete_because"] = said or ["stopped: --timeout reached"]
    else:
        report.pop("incomplete_because", None)
        report["within_rules_bounds"] = {"bound": grown[-1]["bound"], "positions": report["tried"]}
    return report


def diff(a, b, phase: bool = False, **options) -> dict:
    """`search diff` without a scope."""
    from asl_kb.committee import search

    since = options.pop("since", None) or time.monotonic()
    max_positions, timeout = options.pop("max_positions", None), options.pop("timeout", None)
    progress = options.pop("progress", None)
    max_units = options.pop("max_units", None)
    start = start_of(a, b)
    if start is None:  # two versions: every switch they set apart, no clause to read
        from asl_kb.resources import rules_dir

        start = (str(rules_dir()), [], [])
    nowhere = legal.nowhere(start[0], start[1])
    if nowhere:  # (what the changed clauses need, a position check refuses: no bound to walk)
        return search.said_unseen(_acting_nowhere(a, b, nowhere), a, b, phase)
    ladder = ladder_of(start, max_units)
    if phase:
        ladder = widest_last(ladder)
    # (each position judged once over the bounds, search.remembered; apart
    # where Voluntary Break is asked of it)
    memos: dict[bool, dict] = {False: {}, True: {}}
    asking = {b.name for b in ladder if b.vocabulary.voluntary_break}
    impacts: list[dict] = []  # (each bound's tally: committee/impact.py)

    def run_one(scope, **o):
        vb = scope.name in asking
        r = search.search_diff(
            scope,
            a,
            b,
            phase=phase,
            say_unseen=False,
            say_idle=False,
            generate=True,
            memo=memos[vb],
            voluntary_break=vb,
            refigured_only=True,
            **options,
            **o,
        )
        impacts.extend(r["impact"])
        for w in r["witnesses"] if vb else ():
            w["voluntary_break"] = True
        return r

    def seen(bound: B.Bound) -> bool:
        # (what no position of the bound gives keeps the changed clauses
        # from every outcome: no position of it can tell the rule sets apart)
        return not start[1] or B.seen_through(start[0], start[1], B.given_by(bound, start[0], phase)) is not None

    last, grown = walk(ladder, run_one, (max_positions, timeout, since), progress, seen)
    report = finish(last, grown, ladder, max_positions)
    report["impact"] = impacts
    report.setdefault("from_label", a.label)
    report.setdefault("to_label", b.label)
    report.setdefault("from", a.as_json())
    report.setdefault("to", b.as_json())
    report["bounds_read_off_the_rules"] = True
    report = search.said_unseen(report, a, b, phase)
    acted = sum(g["tried"] - g["untouched"] - g.get("dead_ends_only", 0) for g in grown)
    if not report["witnesses"] and report["complete"] and acted <= 0:
        report["complete"] = False
        report.pop("within_rules_bounds", None)
        report["incomplete_because"] = [_why_idle(start, ladder)]
    elif not report["witnesses"] and acted <= 0 and report["tried"]:
        said: list = report.get("incomplete_because") or []
        report["incomplete_because"] = [
            *said,
            f"the changed clauses acted in none of the {report['tried']:,} positions tried (each shown untouched)",
        ]
    return report


def _acting_nowhere(a, b, nowhere: list[dict]) -> dict:
    """The report of a diff whose changed clauses act in no legal position
    (legal.nowhere): equivalent on every position, no bound walked."""
    return {
        "tried": 0,
        "untouched": 0,
        "witnesses": [],
        "complete": True,
        "grown": [],
        "impact": [],
        "acts_in_no_legal_position": nowhere,
        "from_label": a.label,
        "to_label": b.label,
        "from": a.as_json(),
        "to": b.as_json(),
        "bounds_read_off_the_rules": True,
    }


def _why_idle(start, ladder: list[B.Bound]) -> str:
    """What the changed clauses need that no bound gives (reach.missing on
    the largest bound), in words."""
    folder, clauses, _ = start
    lack: list[str] = []
    # (read on the one-unit bound of the widest vocabulary: what a bound
    # produces is read off its enumerated positions)
    widest = max((b for b in ladder if b.units == 1), key=lambda b: b.depth, default=ladder[-1])
    if clauses:
        for needs in reach.missing(widest.scope(), folder, clauses, per_scope=8).values():
            lack += [n for n in needs if n not in lack]
    what = f": they need {', '.join(lack)}" if lack else ""
    return (
        f"the changed clauses could act in no position of the bounds read off the rules "
        f"(up to {ladder[-1].said()}){what}"
    )


def gaps(rs, **options) -> dict:
    """`search gaps` without a scope."""
    from asl_kb.committee import gaps as G

    since = options.pop("since", None) or time.monotonic()
    max_positions, timeout = options.pop("max_positions", None), options.pop("timeout", None)
    progress = options.pop("progress", None)
    ladder = ladder_of(start_of_rules(rs), options.pop("max_units", None))
    witnesses, out = options.pop("witnesses", 3), options.pop("out", None)

    def run_one(scope, max_positions=None, **o):
        return G.search_gaps(scope, rs, Asked(witnesses, max_positions, out, generate=True), **options, **o)

    report, grown = walk(ladder, run_one, (max_positions, timeout, since), progress)
    report = finish(report, grown, ladder, max_positions)
    report.setdefault("rules_label", rs.label)
    report.setdefault("rules", rs.as_json())
    report["bounds_read_off_the_rules"] = True
    return report


def text(report: dict, what: str) -> str:
    """The grown part of a report: each bound walked, and the answer when
    nothing was found."""
    lines = [f"{what}, no --scope: bounds read off the rules, smallest first"]
    for g in report["grown"]:
        if g.get("passed_over"):
            lines.append(f"  {g['scope']} ({g['bound']}): passed over, the changed clauses reach no outcome in it")
            continue
        state = "" if g["complete"] else " (cut)"
        lines.append(
            f"  {g['scope']} ({g['bound']}): {g['tried']} positions{state}"
            + (f", {g['untouched']} untouched" if g["untouched"] else "")
            + (f" ({g['partial']})" if g.get("partial") else "")
        )
    if report["witnesses"]:
        return "\n".join(lines) + "\n"
    if report.get("acts_in_no_legal_position") and report["complete"]:
        lines.append(legal.said(report["acts_in_no_legal_position"]))
    elif report.get("within_rules_bounds"):
        e = report["within_rules_bounds"]
        lines.append(
            f"none for every position within the bounds read off the rules, up to {e['bound']} "
            f"({e['positions']} positions, each bound's search exhausted)"
        )
    else:
        lines.append("none found — INCOMPLETE: " + "; ".join(report["incomplete_because"]))
    return "\n".join(lines) + "\n"


def find(
    rs, where_file: str, witnesses: int = 1, out: str | None = None, max_units: int | None = None, **options
) -> dict:
    """`search find --where ASSERTION` without a scope: the bounds read off
    the assertion's clauses (and the rule set's own changed ones)."""
    from asl_kb.committee import find as F

    since = options.pop("since", None) or time.monotonic()
    max_positions, timeout = options.pop("max_positions", None), options.pop("timeout", None)
    progress = options.pop("progress", None)
    folder, clauses, needs = start_of_rules(rs)
    own = reach.rules_of(F.read_where(where_file), where_file)
    ladder = ladder_of((folder, own + clauses, needs), max_units)

    def run_one(scope, max_positions=None, **o):
        return F.search_find(scope, rs, where_file, Asked(witnesses, max_positions, out), **o)

    report, grown = walk(ladder, run_one, (max_positions, timeout, since), progress)
    report = finish(report, grown, ladder, max_positions)
    report.setdefault("rules_label", rs.label)
    report.setdefault("where", where_file)
    report["bounds_read_off_the_rules"] = True
    return report
