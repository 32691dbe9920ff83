"""One position under two rule sets: the outcomes that appear or vanish,
what causes each, and the clauses (because/3 rule ids) that fired on one
side only.

Causes are found as `asl_kb.engines.diff` finds them, by reproduction: for
each switch of rules/core/versions.lp in force on one side only, the
position is run under the first rule set with just that switch changed; when
the rule folders differ, it is run under the second folder with the first
rule set's version and switches. A change one of them reproduces is
attributed to it; one none reproduces to their combination.
"""

from __future__ import annotations

import dataclasses

from asl_kb.committee.judging import require_legal, switches_in_force
from asl_kb.committee.relevance import has_switch_clause, may_touch
from asl_kb.committee.rulesets import RuleSet, with_switch
from asl_kb.engines.diff import describe, outcome_items, compared, kind_of
from asl_kb.engines.outcomes import answers_each, reads_phase
from asl_kb.model import Outcomes


@dataclasses.dataclass
class Run:
    items: set
    rules: set  # rule ids of every because/3 line in the result
    incomplete: list


def rule_ids(result: Outcomes) -> set[str]:
    """The rule ids cited in a result's explanations of the rout program
    (units, fates, immediate surrenders, whole-phase turns) and in the
    prisoners' roll bands."""
    found: set[str] = set()
    for u in result.units + (result.voluntary_break or []):
        found.update(b.rule for b in u.because)
        for f in u.fates:
            found.update(b.rule for b in f.because)
    for u in (result.heat_of_battle or []) + (result.disrupted or []):
        for f in u.fates:
            found.update(b.rule for b in f.because)
    for o in result.phase.outcomes if result.phase is not None else ():
        for t in o.turns:
            found.update(b.rule for b in t.because)
    pris = result.prisoners
    for o in (pris.required + pris.options) if pris is not None else ():
        for band in o.rolls:
            found.update(r for r in band.says if isinstance(r, str) and r[:1] == "A" and "." in r)
    return found


def run(position, rs: RuleSet, phase: bool = False, applied: bool = False, voluntary_break: bool = False) -> Run:
    """The position's outcomes under rule set `rs` (`applied`: position
    already carries the rule set's version and switches)."""
    with rs.active():
        p = position if applied else rs.apply(position)
        r, cut = compared(p, phase, voluntary_break)
    return Run(outcome_items(r), rule_ids(r), cut)


def unit_of(item: tuple) -> str:
    """The unit an outcome item is about ("(phase)", "(prisoners)" otherwise)."""
    if item[0] in ("unit", "heat_of_battle", "disrupted", "voluntary_break"):
        return item[1]
    if item[0] == "voluntary_break_refused":
        return "(voluntary break)"
    if item[0] in ("phase", "phase_count"):
        return "(phase)"
    if item[1] == "state":
        return item[2]
    return "(prisoners)"


def _folder_cause(rs: RuleSet) -> dict:
    return {"rule_folder": str(rs.folder), "replaces": list(rs.replaces), "adds": list(rs.adds)}


@dataclasses.dataclass(frozen=True)
class Comparison:
    """What compare() is asked of a position."""

    #: the whole-phase outcomes too
    phase: bool = False
    #: each change's cause found by reproduction (trials)
    attribute: bool = True
    voluntary_break: bool = False
    #: first ask whether the programs answer alike -- False when the caller
    #: knows they may well not: then the outcomes are read at once
    shortcut: bool = True


def compare(position, a: RuleSet, b: RuleSet, **asked) -> dict:
    """{"appeared": [...], "vanished": [...], "fired_only_in_from"/"_to": [rule ids],
    "complete": bool} for one position; each change {"unit", "outcome", "caused_by"}.
    `asked`: Comparison's fields."""
    o = Comparison(**asked)
    phase, attribute, vb = o.phase, o.attribute, o.voluntary_break
    pa = _applied(position, a)
    pb = _applied(position, b)
    if o.shortcut and not phase and not vb and _same_answers(pa, a, pb, b):
        return {"appeared": [], "vanished": [], "fired_only_in_from": [], "fired_only_in_to": [], "complete": True}
    # each (position, rules folder) run once: the flip of the one switch two
    # rule sets differ in is the second rule set itself
    runs: dict[tuple, Run] = {}

    def run_once(p, rs: RuleSet, applied: bool = True) -> Run:
        key = (repr(p), rs.complete, rs.folder, applied)
        got = runs.get(key)
        if got is None:
            got = runs[key] = run(p, rs, phase, applied, vb)
        return got

    ra, rb = run_once(pa, a), run_once(pb, b)
    appeared, vanished = rb.items - ra.items, ra.items - rb.items
    causes: dict[tuple, list[dict]] = {}
    combination = None
    if (appeared or vanished) and attribute:
        tried, combination = trials(position, a, b)
        if not vb:
            # a switch whose clauses the relevance slice shows idle for the
            # position reproduces nothing: its trial is not run (as search
            # skips such a position, search.judge_diff)
            tried = [t for t in tried if "switch" not in t[0] or _may_touch(pa, a, t[0]["switch"], phase)]
        causes = attributed(tried, lambda p, rs, applied: run_once(p, rs, applied).items, ra.items, appeared, vanished)

    def entries(items) -> list[dict]:
        """One entry per (unit, outcome as written): items differing only in
        what the words leave out (a path's detail) are merged."""
        merged: dict[tuple, list[dict]] = {}
        kinds: dict[tuple, tuple[str, str]] = {}
        for item in items:
            key = (unit_of(item), describe(item))
            caused = merged.setdefault(key, [])
            kinds[key] = kind_of(item)
            for c in causes.get(item) or ([combination] if attribute and combination is not None else []):
                if c not in caused:
                    caused.append(c)
        # (kind, at: what a witness's summary counts, summary below)
        return [
            {"unit": u, "outcome": o, "caused_by": c, "kind": kinds[u, o][0], "at": kinds[u, o][1]}
            for (u, o), c in sorted(merged.items())
        ]

    cut = sorted(set(ra.incomplete + rb.incomplete))
    out = {
        "appeared": entries(appeared),
        "vanished": entries(vanished),
        "fired_only_in_from": sorted(ra.rules - rb.rules),
        "fired_only_in_to": sorted(rb.rules - ra.rules),
        "complete": not cut,
    }
    if cut:
        out["incomplete_because"] = cut
    return out


def _may_touch(pa, a: RuleSet, switch: str, phase: bool) -> bool:
    """Whether flipping `switch` under rule set a may change the outcomes of
    pa (the position under a): relevance.may_touch."""
    with a.active():
        return may_touch(pa, (switch,), phase)


def attributed(tried: list, items_of, base: set, appeared: set, vanished: set) -> dict:
    """{item: [cause]}: each trial of `trials()` whose items (`items_of`
    run under it) reproduce an appeared or vanished item is a cause of it;
    the edited clauses first, the folder as a whole only where no edit alone
    reproduces the change."""
    causes: dict[tuple, list[dict]] = {}
    for cause, run_under in tried:
        flipped = run_under(items_of)
        for item in (appeared & (flipped - base)) | (vanished & (base - flipped)):
            listed = causes.setdefault(item, [])
            if "edit" in cause:
                listed.insert(sum("edit" in c for c in listed), cause)
            else:
                listed.append(cause)
    for listed in causes.values():
        if any("edit" in c for c in listed):
            listed[:] = [c for c in listed if "edit" in c or "rule_folder" not in c]
    return causes


#: a folder with more edits than this is attributed as a whole (each edit
#: is one more run of a differing position)
EDITS_TRIED = 12


def trials(position, a: RuleSet, b: RuleSet) -> tuple[list, dict]:
    """How a change from a to b is attributed, by reproduction: ([(cause,
    run_under)], the combination's cause). Each switch in force on one side
    only is flipped alone on the a side; where the rule folders differ, the
    position is run under b's folder with a's version and switches; and,
    from the shipped rules to a folder, under the shipped rules with each
    edit of the folder alone in force (committee/edits.py): a change it
    reproduces is the edited clause's. `run_under(fn)` is fn(position,
    rule set, applied=True) run under that trial's rules."""
    pa, pb = _applied(position, a), _applied(position, b)
    sa, sb = _switches(pa, a, pb, b)
    differing = sorted(set(sa) ^ set(sb))
    rule_of = {**sa, **sb}

    def under(p, rs):
        return lambda fn: fn(p, rs, True)

    out = [({"switch": n, "rule": rule_of.get(n, "")}, under(with_switch(pa, n, n in sb), a)) for n in differing]
    if a.folder != b.folder:
        out.append(
            (
                _folder_cause(b) if b.folder is not None else {"rule_folder": "(shipped rules)"},
                under(pa, dataclasses.replace(b, flip=None)),
            )
        )
    if a.folder is None and b.folder is not None:
        from asl_kb.committee.edits import edits, undone

        every = edits(b)
        if len(every) <= EDITS_TRIED:
            for i, e in enumerate(every):
                out.append(
                    (
                        {"rule_folder": str(b.folder), "edit": e.as_json()},
                        under(pa, dataclasses.replace(a, complete=undone(b, frozenset(range(len(every))) - {i}))),
                    )
                )
    combination = {"switch": "+".join(differing) or "(none)", "rule": "combination"}
    if a.folder != b.folder:
        combination["rule_folder"] = str(b.folder or a.folder)
    return out, combination


@dataclasses.dataclass(frozen=True)
class Alike:
    """How _same_answers() asks whether two rule sets answer alike."""

    #: the explanations' rule ids compared too
    explained: bool = True
    #: the rout graphs' dead ends left out (graph.live: a clause that adds
    #: only states no fate is reached from changes no outcome)
    live: bool = False
    #: a list, with `live`: gets True when the rout answers differ only in
    #: dead ends (the rule sets act there, on states no fate is reached from)
    dead_ends: list | None = None


def same_outcomes(position, a: RuleSet, b: RuleSet, **alike) -> bool:
    """Whether the position's outcomes (fates, immediate surrenders,
    prisoners' options; with `explained`, the explanations' rule ids too)
    are shown equal under a and b without reading them (False: they may
    differ); `alike`: Alike's fields (`explained` False unless given)."""
    return _same_answers(_applied(position, a), a, _applied(position, b), b, Alike(**{"explained": False, **alike}))


def _same_answers(pa, a: RuleSet, pb, b: RuleSet, alike: Alike | None = None) -> bool:
    """Whether every program answers alike under a and b (outcomes.answers):
    then the outcomes, and the rules cited in them, are equal, and reading
    thousands of fates twice is not needed. Under one rules folder the
    programs are grounded once for both (outcomes.answers_each,
    asp/once.py). Where a fate is a surrender, outcomes() also runs the
    whole-phase program (the Guard capacity a surrender may free): its
    answers are not compared, so the shortcut is taken only when that
    program cannot tell a from b (same folder, no switch clause there of
    the switches they differ in). `alike`: what is compared (Alike)."""
    alike = alike or Alike()
    explained, live, dead_ends = alike.explained, alike.live, alike.dead_ends
    differing = None
    whole: list | None = [] if live and dead_ends is not None else None
    with a.active():
        require_legal(pa)
    with b.active():
        require_legal(pb)
    if a.folder == b.folder:
        sa, sb = _switches(pa, a, pb, b)
        differing = tuple(sorted(set(sa) ^ set(sb)))
    if differing is not None:
        with a.active():
            first, second = answers_each(
                [pa, pb],
                rout_once=True,
                explained=explained,
                live=live,
                whole=whole,
            )
    else:
        with a.active():
            (first,) = answers_each([pa], explained=explained, live=live, whole=whole)
        with b.active():
            (second,) = answers_each([pb], explained=explained, live=live, whole=whole)
    if first != second:
        return False
    if whole and dead_ends is not None and whole[0] != whole[1]:
        dead_ends.append(True)
    if not reads_phase(first):
        return True
    with a.active():
        return differing is not None and not has_switch_clause("phase.lp", differing)


def _switches(pa, a: RuleSet, pb, b: RuleSet) -> tuple[dict, dict]:
    """{switch: rule id} of the switches in force under a and under b."""
    with a.active():
        sa = switches_in_force(pa)
    with b.active():
        return sa, switches_in_force(pb)


def _applied(position, rs: RuleSet):
    with rs.active():
        return rs.apply(position)


def summary(entries: list[dict]) -> str:
    """What a list of outcomes that appear or vanish comes to, in words:
    `2 surrenders, 3,037 Interdicted routs to 40 destinations` (each entry's
    `kind` and `at`, compare.py)."""
    count: dict[str, int] = {}
    where: dict[str, set] = {}
    for e in entries:
        count[e["kind"]] = count.get(e["kind"], 0) + 1
        where.setdefault(e["kind"], set()).add(e["at"])

    def plural(n, word):
        return f"{n:,} {word}" + ("" if n == 1 else "es" if word.endswith("s") else "s")

    return ", ".join(
        plural(n, k)
        + (
            f" to {plural(len(where[k] - {''}), 'destination')}"
            if k.endswith(("rout", "Crawl")) and len(where[k] - {""}) > 1
            else ""
        )
        for k, n in sorted(count.items(), key=lambda x: (-x[1], x[0]))
    )
