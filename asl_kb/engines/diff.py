"""Diff one position under two rule versions: which outcomes appear or
vanish, and which switches of rules/core/versions.lp cause each change.

The switches in force under a version are read off the rules themselves
(in_force/1 of versions.lp). For every switch that differs between the two
versions, the position is run again under the first version with only that
switch flipped; a change it reproduces is attributed to it. A change no
single switch reproduces is attributed to their combination.
"""

from __future__ import annotations


from asl_kb.engines.outcomes import outcomes
from asl_kb.asp.facts import switch_facts
from asl_kb.asp import contract, control
from asl_kb.asp.control import new_control
from asl_kb.model import Outcomes
from asl_kb.record import replace


def switches_in_force(position) -> dict[str, str]:
    """{switch name: rule id} of the switches in force for the position."""
    facts = switch_facts(position)
    ctl = new_control("switches.lp", "\n".join(facts) + "\n")
    ctl.ground([("base", [])])
    shown: list = []
    if not ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True))).satisfiable:
        raise control.no_answer_set("switches.lp")
    contract.check(shown)
    from asl_kb.asp.reader import rule_order

    rules: dict[str, set] = {}
    for s in shown:
        if s.name in ("version_switch", "qa_reading", "text_reading"):
            rules.setdefault(s.arguments[0].name, set()).add(s.arguments[1].string)
    # a switch of several rules (stack_surrender: A20.3, A20.21) names each, in rule order
    return {
        s.arguments[0].name: ", ".join(sorted(rules.get(s.arguments[0].name, ()), key=rule_order))
        for s in shown
        if s.name == "in_force"
    }


def outcome_items(result: Outcomes) -> set[tuple]:
    """Every outcome of a result as a comparable item."""
    items: set[tuple] = set()
    ph = result.phase
    if ph is not None:
        items.add(("phase_count", ph.count))
        for o in ph.outcomes:
            items.add(("phase", tuple((t.unit, t.fate, t.at, t.captor or "", t.accompanied_by or "") for t in o.turns)))
    # a leader's elimination with or without the LLMC it calls for (A10.2) are two outcomes
    for u in result.units:
        for f in u.fates:
            items.add(("unit", u.id) + f.key + (tuple(f.llmc or ()),))
    for key, section in (("heat_of_battle", result.heat_of_battle), ("disrupted", result.disrupted)):
        for u in section or ():
            for f in u.fates:
                items.add((key, u.id, f.kind, f.captor or ""))
    items |= _voluntary_break_items(result)
    if result.prisoners is not None:
        items |= _prisoners_items(result.prisoners)
    return items


def _voluntary_break_items(result: Outcomes) -> set[tuple]:
    """--voluntary-break (A10.41): who may break, what would follow, and why none may."""
    items: set[tuple] = set()
    for u in result.voluntary_break or ():
        if u.may_break:
            items.add(("voluntary_break", u.id, "may break", None, None, None, None, None, None, ()))
        for f in u.fates:
            items.add(("voluntary_break", u.id) + f.key + (tuple(f.llmc or ()),))
    for b in result.voluntary_break_refused or ():
        items.add(("voluntary_break_refused", b.rule, b.reason or b.says))
    return items


def _prisoners_items(pris) -> set[tuple]:
    """The prisoners program's outcomes, in the words of the text listing:
    sentences, not terms."""
    items: set[tuple] = set()
    for o in pris.required + pris.options:
        bands = tuple((b.roll, b.start if b.selected is None else b.selected, b.end, tuple(b.says)) for b in o.rolls)
        items.add(("prisoners", "must" if o.required else "may", o.says, bands, tuple(e.says for e in o.effects)))
    for u, facts in pris.states.items():
        for f in facts:
            items.add(("prisoners", "state", u, f.says))
    return items


def eliminated_words(cause: str | None, captor: str | None) -> str:
    """An elimination in one wording wherever a diff names one: a rejected
    surrender names its captor (A20.3), any other its cause."""
    if captor:
        return f"eliminated (rejected) by {captor}"
    return f"eliminated ({(cause or 'failure_to_rout').replace('_', ' ')})"


def kind_of(item: tuple) -> tuple[str, str]:
    """(what kind of outcome an item is, in words; the Location it ends in,
    or "") -- what a witness's summary counts."""
    if item[0] in ("unit", "voluntary_break") and item[2] != "may break":
        fate, at, low_crawl, ints = item[2], item[5], item[6], item[7]
        if fate == "rout":
            fate = "Interdicted rout" if ints else "Low Crawl" if low_crawl else "rout"
        return {"eliminated": "elimination"}.get(fate, fate), at
    if item[0] in ("heat_of_battle", "disrupted"):
        return {"eliminated": "elimination"}.get(item[2], item[2].replace("_", " ")), ""
    if item[0] == "prisoners":
        return (
            "Guard/prisoner state"
            if item[1] == "state"
            else f"prisoner {'requirement' if item[1] == 'must' else 'option'}"
        ), ""
    if item[0] in ("phase", "phase_count"):
        return "whole-phase outcome", ""
    return "voluntary break", ""


def describe(item: tuple) -> str:
    if item[0] == "phase_count":
        return f"whole phase: {item[1]} outcomes"
    if item[0] == "phase":
        return "whole phase: " + "; ".join(
            f"{u} "
            + (eliminated_words(None, c) if f == "eliminated" else f + (f" to {c}" if c else ""))
            + f" at {a}"
            + (f" with {w}" if w else "")
            for u, f, a, c, w in item[1]
        )
    if item[0] == "voluntary_break_refused":
        return f"no unit may break voluntarily: [{item[1]}] {item[2]}"
    if item[0] == "voluntary_break" and item[2] == "may break":
        return f"{item[1]} may break voluntarily (A10.41)"
    if item[0] in ("unit", "voluntary_break"):
        _, uid, fate, captor, cause, at, low_crawl, ints, _opt, llmc = item
        if item[0] == "voluntary_break":
            uid = f"{uid} (broken voluntarily)"
        words = (
            eliminated_words(cause, captor)
            if fate == "eliminated"
            else fate + (f" to {captor}" if captor else "") + (f" ({cause})" if cause else "")
        ) + f" at {at}"
        if low_crawl:
            words += " by Low Crawl"
        if ints:
            words += ", Interdiction in " + ", ".join(h for h, _ in ints)
        if llmc:
            words += ", LLMC for " + ", ".join(llmc)
        return f"{uid}: {words}"
    if item[0] in ("heat_of_battle", "disrupted"):
        words = (
            eliminated_words(None, item[3])
            if item[2] == "eliminated"
            else item[2].replace("_", " ") + (f" to {item[3]}" if item[3] else "")
        )
        return f"{item[1]} ({item[0].replace('_', ' ')}): {words}"
    if item[1] == "state":
        return f"{item[2]}: {item[3]}"
    rolls = "; ".join(
        (
            f"{a} selected"
            if roll == "random_selection"
            else ("DR " if roll == "dr2" else "dr ") + str(a) + ("" if b in (None, a) else f"-{b}")
        )
        + f": {', '.join(e)}"
        for roll, a, b, e in item[3]
    )
    return (
        f"{item[1]}: {item[2]}" + (f" ({rolls})" if rolls else "") + (f"; then {'; '.join(item[4])}" if item[4] else "")
    )


def _with_switch(position, name: str, on: bool):
    readings = tuple((n, v) for n, v in position.readings if n != name) + ((name, on),)
    return replace(position, readings=readings)


#: whole-phase outcomes a diff lists and compares one by one (the phase
#: program enumerates at most as many: engines/phase.py MAX_OUTCOMES)
PHASE_COMPARED = 20000


def compared(position, phase: bool, voluntary_break: bool = False):
    """The position's outcomes as a diff compares them, and what of them was
    cut: with `phase`, every whole-phase outcome is listed to be compared,
    and a phase counted past what was listed says so."""
    r = outcomes(position, phase=phase, voluntary_break=voluntary_break, limit=PHASE_COMPARED if phase else None)
    cut = list(r.incomplete_because or ()) if not r.complete else []
    ph = r.phase
    # (the independent units' fates are compared as the units' own items)
    if ph is not None and ph.combinations is not None and len(ph.outcomes) < ph.combinations:
        cut.append(f"whole phase: {ph.combinations} combinations, only the first {len(ph.outcomes)} compared")
    return r, cut


def diff(position, version_a: str, version_b: str, phase: bool = False) -> dict:
    """Outcomes (with phase, also the whole-phase outcomes, every one up to
    PHASE_COMPARED, else said cut) that appear or vanish from version_a to
    version_b."""
    cut = []

    def run(p):
        r, c = compared(p, phase)
        cut.extend(c)
        return outcome_items(r)

    pa = replace(position, rules=version_a)
    pb = replace(position, rules=version_b)
    ia, ib = run(pa), run(pb)
    sa, sb = switches_in_force(pa), switches_in_force(pb)
    differing = sorted(set(sa) ^ set(sb))
    appeared, vanished = ib - ia, ia - ib
    causes: dict[tuple, list[str]] = {}
    for name in differing:
        flipped = run(_with_switch(pa, name, name in sb))
        for item in appeared & (flipped - ia):
            causes.setdefault(item, []).append(name)
        for item in vanished & (ia - flipped):
            causes.setdefault(item, []).append(name)
    rule_of = {**sa, **sb}

    def entry(item):
        names = causes.get(item)
        return {
            "outcome": describe(item),
            "caused_by": [{"switch": n, "rule": rule_of.get(n, "")} for n in names]
            if names
            else [{"switch": "+".join(differing) or "(none)", "rule": "combination"}],
        }

    out = {
        "position": position.name,
        "complete": not cut,
        "from": version_a,
        "to": version_b,
        "switches": [{"switch": n, "rule": rule_of.get(n, ""), "from": n in sa, "to": n in sb} for n in differing],
        "appeared": sorted((entry(i) for i in appeared), key=lambda e: e["outcome"]),
        "vanished": sorted((entry(i) for i in vanished), key=lambda e: e["outcome"]),
    }
    if cut:
        out["incomplete_because"] = sorted(set(cut))
    return out
