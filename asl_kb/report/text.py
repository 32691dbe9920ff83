"""Outcomes (model.Outcomes) as text: each broken unit's fates, then the
immediate surrenders, the prisoners, the Voluntary Break and the whole
phase, in that order.

Written as plain Python rather than a template: importing jinja2 and
loading its compiled template was a fifth of a text run of the CLI (the
HTML report, markup with escaping, keeps jinja2). Every listing with a
`limit` shows at most that many items and says how many it left out.
"""

from __future__ import annotations

from asl_kb.model import Because, Outcomes, UnitFates
from asl_kb.report.glance import merge_because, odds_text, ranges, stacks, unit_lines

#: the two lists of immediate surrenders: title, Outcomes attribute
IMMEDIATE = (
    ("Heat of Battle (A15.5)", "heat_of_battle"),
    ("Disrupted units entered by the enemy (A19.12)", "disrupted"),
)


def to_text(result: Outcomes, all_paths: bool = False, all: bool = False, limit: int | None = None) -> str:
    """Text: each unit's fates summarised (summary.py), or every fate with
    `all` (implied by `all_paths`); `limit`: at most that many items of
    each listing (the whole-phase outcomes are cut by the engine)."""
    all = all or all_paths
    out: list[str] = []
    head = f"{result.position} — rules: {result.rules}"
    if not result.complete:
        head += " — INCOMPLETE: " + "; ".join(result.incomplete_because or ())
    out.append(head)
    if all:
        for u in result.units:
            _unit_head(out, u)
            _fates(out, u, all_paths, all, limit)
    else:
        for stack in stacks(result.units):
            out += unit_lines(stack, limit)
            out.append("")
    for title, key in IMMEDIATE:
        _immediate(out, title, getattr(result, key))
    if result.prisoners is not None:
        _prisoners(out, result.prisoners, limit)
    if result.voluntary_break is not None:
        _voluntary_break(out, result, all_paths, all, limit)
    if result.phase is not None and result.units:
        _phase(out, result.phase)
    return "\n".join(out) + "\n"


def _because(out: list[str], because: list[Because], indent: str = "       ") -> None:
    out.extend(f"{indent}[{b.rule}] {b.says}" for b in merge_because(because))


def _unit_head(out: list[str], u: UnitFates) -> None:
    out.append(
        f"{u.id} ({u.side}) in {u.at}: "
        + ("must rout" if u.must_rout else "may rout" if u.may_rout else "may not rout")
    )
    _because(out, u.because, "    ")
    if u.voluntary_rout:
        out.append("    may be accompanied by: " + ", ".join(u.voluntary_rout))
    if u.inconsistent:
        out.append("    NO LEGAL OUTCOME: the rules as encoded leave this unit nothing to do")


def _rout(verb: str, at: str, low_crawl: bool, interdiction: list[str] | None) -> str:
    """A rout's words: where to, by Low Crawl, the Interdiction Locations."""
    line = f"{verb} {at}" + (" by Low Crawl" if low_crawl else "")
    if interdiction:
        line += ", Interdiction in " + ", ".join(interdiction)
    return line


def _fate_line(f) -> str:
    """A fate of a broken unit, as its numbered line says it."""
    if f.kind == "rout":
        line = _rout("rout to", f.at, f.low_crawl, [f"{i.at} (by {', '.join(i.by)})" for i in f.interdiction])
        if f.optional_interdiction:
            line += ", may be Interdicted by concealed units in " + ", ".join(
                f"{i.at} ({', '.join(i.by)})" for i in f.optional_interdiction
            )
        return line
    if f.kind == "surrender":
        abandons = "".join(f"; abandons its {a.sw} in {a.at}" for a in f.abandons)
        return f"surrender to {f.captor} in {f.at} ({f.guard} becomes its Guard{abandons})"
    if f.kind == "freed":
        return f"surrender to {f.captor} in {f.at}, freed as Unarmed for lack of Guard capacity"
    if f.kind == "eliminated":
        line = f"eliminated ({f.cause.replace('_', ' ')}"
        if f.invokes_no_quarter is not None:
            line += f": {f.captor} rejects the surrender, No Quarter for the {f.invokes_no_quarter} side"
        line += f") in {f.at}"
        if f.llmc is not None:
            line += "; LLMC for " + ", ".join(f.llmc)
        return line
    return f"{f.kind} in {f.at}"


def _fates(out: list[str], u: UnitFates, all_paths: bool, all: bool, limit: int | None) -> None:
    """A unit's fates: every one (numbered from 1, as far as `limit`) with
    `all`, each rout with its odds (odds.py); else the default text
    (glance.py); then a blank line."""
    if not all:
        out.extend(unit_lines([u], limit, head=False))
        out.append("")
        return
    for n, f in enumerate(u.fates, 1):
        if limit is not None and n > limit:
            break
        out.append(f"  {n}. {_fate_line(f)}")
        if all_paths and f.paths is not None:
            out.extend("       path: " + " → ".join(p) for p in f.paths)
        elif len(f.path) > 1:
            out.append("       path: " + " → ".join(f.path))
        if f.odds is not None and f.odds.nmcs:
            out.append("       odds: " + odds_text(f.odds))
            out.extend(f"       odds with {o.with_leader}: " + odds_text(o) for o in f.odds_with_leader or ())
        _because(out, f.because)
    if limit is not None and len(u.fates) > limit:
        out.append(f"  ({limit} of {len(u.fates)} fates listed: --limit)")
    out.append("")


#: an immediate surrender's fate kind -> its words (surrender and
#: eliminated name the captor; any other kind: no surrender)
IMMEDIATE_FATES = {
    "berserk": "goes berserk",
    "broken_disrupted": "broken and Disrupted",
    "routs_in_its_rtph": "no surrender: routs in its RtPh",
}


def _immediate(out: list[str], title: str, units) -> None:
    if units is None:
        return
    out.append(f"{title}:")
    for u in units:
        dr = f", Final HOB DR {u.final_dr}" if u.final_dr is not None else ""
        out.append(f"{u.id} ({u.side}) in {u.at}{dr}:")
        for n, f in enumerate(u.fates, 1):
            if f.kind == "surrender":
                says = f"surrenders to {f.captor} ({f.guard} becomes its Guard)"
            elif f.kind == "eliminated":
                says = (
                    f"eliminated (no quarter: {f.captor} rejects the surrender, "
                    f"No Quarter for the {f.invokes_no_quarter} side)"
                )
            else:
                says = IMMEDIATE_FATES.get(f.kind, "no surrender")
            out.append(f"  {n}. {says}")
            _because(out, f.because)


def _prisoners(out: list[str], p, limit: int | None) -> None:
    out.append(f"Prisoners (A20), {p.phase.replace('_', ' ')} phase:")
    for u, facts in p.states.items():
        out.append(f"  {u}: " + "; ".join(t.says for t in facts))
    for v in p.violated:
        out.append(f"  POSITION BREAKS A RULE: [{v.rule}] {v.clause.says}")
    for verb, noun, items in (("must", "requirements", p.required), ("may", "options", p.options)):
        for o in items if limit is None else items[:limit]:
            _prisoner_option(out, verb, o)
        if limit is not None and len(items) > limit:
            out.append(f"  ({limit} of {len(items)} {noun} listed: --limit)")
    for e in p.events:
        out.append(f"  {e.term.says}: " + ", ".join(x.says for x in e.effects))
        _because(out, e.because)
    for j in p.simultaneous:
        out.append(
            f"  {j.term.says} (A20.221): " + "; ".join(f"{x.result.says} {x.chance} ({x.percent}%)" for x in j.results)
        )
    for u, bs in p.notes.items():
        out.extend(f"  {u}: [{b.rule}] {b.says}" for b in bs)


def _prisoner_option(out: list[str], verb: str, o) -> None:
    """A requirement or option of the prisoners program, its rolls' bands
    and effects."""
    line = f"  {verb}: {o.says}"
    if o.roll_for is not None:
        line += f" (roll: {o.roll_for.says})"
    out.append(line)
    for b in o.rolls:
        if b.roll == "random_selection":
            roll = f"{b.selected} selected"
        else:
            roll = ("DR " if b.roll == "dr2" else "dr ") + str(b.start)
            if b.end != b.start:
                roll += f"-{b.end}"
        out.append(f"       {roll} ({b.chance}, {b.percent}%): " + ", ".join(b.says))
    out.extend(f"       effect: {e.says}" for e in o.effects)
    _because(out, o.because)


def _voluntary_break(out: list[str], r: Outcomes, all_paths: bool, all: bool, limit: int | None) -> None:
    out.append("Voluntary Break (A10.41):")
    if r.voluntary_break_refused is not None:
        _because(out, r.voluntary_break_refused, "    ")
    for u in r.voluntary_break or ():
        out.append(
            f"{u.id} ({u.side}) in {u.at}: " + ("may break voluntarily" if u.may_break else "may not break voluntarily")
        )
        _because(out, u.because, "    ")
        if u.may_break:
            out.append("  if it breaks:")
            _fates(out, u, all_paths, all, limit)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _turn_line(t) -> str:
    """A unit's turn in a whole-phase outcome."""
    if t.fate == "rout":
        line = _rout("routs to", t.at, t.low_crawl, t.interdiction)
    elif t.fate == "surrender":
        line = f"surrenders to {t.captor} in {t.at}"
    elif t.fate == "freed":
        line = f"surrenders to {t.captor} in {t.at}, freed as Unarmed"
    elif t.fate == "eliminated":
        rejects = f": {t.captor} rejects the surrender" if t.invokes_no_quarter is not None else ""
        line = f"eliminated ({t.cause.replace('_', ' ')}{rejects}) in {t.at}"
    else:
        line = f"{t.fate} in {t.at}"
    if t.accompanied_by is not None:
        line += f", with {t.accompanied_by}"
    return f"{t.unit}: {line}"


def _told_apart(ph) -> dict[tuple, list[int]]:
    """The whole-phase outcomes a player tells apart: the same units ending
    the same way (kind, Location, captor, cause, who goes with whom) are one
    group (their numbers), whatever the Interdiction on the way or Low
    Crawl; the JSON lists each outcome."""
    groups: dict[tuple, list[int]] = {}
    for n, o in enumerate(ph.outcomes, 1):
        key = (
            tuple(o.no_quarter_invoked or ()),
            tuple((t.unit, t.fate, t.at, t.captor, t.cause, t.accompanied_by) for t in o.turns),
        )
        groups.setdefault(key, []).append(n)
    return groups


def _phase(out: list[str], ph) -> None:
    line = "Whole Rout Phase (A10.5: ATTACKER first, one unit at a time): "
    if ph.count is None:
        line += "count unknown (incomplete)"
    else:
        line += _plural(ph.count, "outcome")
        # (combinations 0: no unit depends on another; the count is the
        # independent units' fates multiplied, as the next line lists them)
        if ph.independent and ph.combinations:
            line += (
                f": {_plural(ph.combinations, 'combination')} of the units that depend on each other, "
                "each with any fate of the independent units"
            )
    out.append(line)
    if ph.independent:
        out.append(
            "  independent of the others (any of its fates in every outcome): "
            + ", ".join(f"{i.unit} ({i.fates})" for i in ph.independent)
        )
    for v in ph.voluntary_rout:
        out.append(f"  leader {v.leader} stays or routs with one of {', '.join(v.with_one_of)} (A10.711)")
    groups = _told_apart(ph)
    if len(groups) < len(ph.outcomes):
        out.append(
            f"  {_plural(len(ph.outcomes), 'outcome')} listed, {len(groups)} that a player tells apart "
            "(outcomes that differ only in the Interdiction on the way, or Low Crawl, are one):"
        )
    for nums in groups.values():
        o = ph.outcomes[nums[0] - 1]
        invoked = f" (No Quarter invoked by: {', '.join(o.no_quarter_invoked)})" if o.no_quarter_invoked else ""
        label = f"outcome {nums[0]}" if len(nums) == 1 else f"outcomes {ranges(nums)[1:-1]}"
        out.append(f"  {label}{invoked}:")
        for k, t in enumerate(o.turns, 1):
            if len(nums) == 1:
                out.append(f"    {k}. {_turn_line(t)}")
            else:
                line = _turn_line(t)
                if t.fate == "rout":
                    line = f"{t.unit}: routs to {t.at}" + (f", with {t.accompanied_by}" if t.accompanied_by else "")
                out.append(f"    {k}. {line}")
            _because(out, [b for m in nums for b in ph.outcomes[m - 1].turns[k - 1].because])
    out.extend(f"  (assumes: {a})" for a in ph.assumes)
    if ph.combinations is not None and len(ph.outcomes) < ph.combinations:
        out.append(f"  ({len(ph.outcomes)} of {ph.combinations} combinations listed: --limit)")
