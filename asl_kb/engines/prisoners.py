"""Prisoners after capture (rules/prisoners.lp): read the program's one
answer set into options, dice bands and explanations.

The rules derive, for the position's phase, every legal choice (option/1),
what the rules require (required/1), for a dice-decided option the effect of
each Original roll (roll/4), other effects (effect/2) and explanations
(because/3). Here consecutive rolls with the same effects are grouped into
bands and their chances added up (k in 36 for 2d6, k in 6 for 1d6).
"""
from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import clingo

from asl_kb.asp.facts import prisoner_facts
from asl_kb.asp.control import new_control

#: ways to roll each total (2d6) or face (1d6)
_WAYS = {"dr2": ({d: 6 - abs(d - 7) for d in range(2, 13)}, 36),
         "dr1": ({d: 1 for d in range(1, 7)}, 6)}


def relevant(position) -> bool:
    """Whether the position has anything for the prisoners program."""
    return bool(position.close_combat or position.fire_effects
                or any(u.guard or u.unarmed for u in position.units))


def _text(sym) -> str:
    if sym.type == clingo.SymbolType.String:
        return sym.string
    if sym.type == clingo.SymbolType.Number:
        return str(sym.number)
    if sym.type == clingo.SymbolType.Function and sym.arguments:
        return f"{sym.name}({', '.join(_text(a) for a in sym.arguments)})"
    return str(sym)


def solve_prisoners(position) -> dict:
    ctl = new_control("prisoners.lp", prisoner_facts(position))
    ctl.ground([("base", [])])
    shown: list = []
    ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)))
    return _read(shown)


def _read(symbols) -> dict:
    says = {s.arguments[0].name: s.arguments[1].string for s in symbols if s.name == "says"}

    def say(reason) -> str:
        tpl = says.get(reason.name) if reason.type == clingo.SymbolType.Function else None
        return tpl.format(*[_text(a) for a in reason.arguments]) if tpl else _text(reason)

    why = defaultdict(set)
    dice = defaultdict(lambda: defaultdict(set))
    kinds = {}
    effects = defaultdict(set)
    states = defaultdict(set)
    options, musts, violated, joint = set(), set(), [], defaultdict(set)
    violated_rules = []
    for s in symbols:
        a = s.arguments
        if s.name == "because":
            why[a[0]].add((a[1].string, say(a[2])))
        elif s.name == "roll":
            if a[1].name == "one_of":   # Random Selection among N counters
                kinds[a[0]] = ("one_of", a[1].arguments[0].number)
                dice[a[0]][_text(a[2])].add(a[3])
            else:
                kinds[a[0]] = a[1].name
                dice[a[0]][a[2].number].add(a[3])
        elif s.name == "effect":
            effects[a[0]].add(_text(a[1]))
        elif s.name == "state":
            states[_text(a[0])].add(_text(a[1]))
        elif s.name == "option":
            options.add(a[0])
        elif s.name == "required":
            musts.add(a[0])
        elif s.name == "violated":
            violated.append(_text(a[0]))
        elif s.name == "violated_rule":
            violated_rules.append({"rule": a[1].string, "violated": _text(a[0])})
        elif s.name == "joint_roll":
            joint[(a[0].number, a[1].number)].add((a[2].number, a[3].number, a[4].name))

    def because(term):
        return [{"rule": r, "says": t} for r, t in sorted(why.get(term, ()), key=lambda x: (x[0], x[1]))]

    def entry(term, required):
        e = {"option": _text(term), "required": required}
        # the dice of a choice may sit on a sub-term (escape(P,G) -> escape_ntc(P))
        rolls = [t for t in dice if t == term or (term.name == "escape" and t.name == "escape_ntc"
                                                   and t.arguments[0] == term.arguments[0])]
        if rolls:
            e["rolls"] = _bands(kinds[rolls[0]], dice[rolls[0]], say)
            if rolls[0] != term:
                e["roll_for"] = _text(rolls[0])
        if effects.get(term):
            e["effects"] = sorted(effects[term])
        e["because"] = because(term)
        return e

    out = {
        "states": {u: sorted(v) for u, v in sorted(states.items())},
        "required": [entry(t, True) for t in sorted(musts)],
        "options": [entry(t, False) for t in sorted(options)],
    }
    notes = {_text(t): because(t) for t in why if t.type == clingo.SymbolType.String}
    if notes:
        out["notes"] = dict(sorted(notes.items()))
    for term in sorted(t for t in effects if t not in options and t not in musts):
        out.setdefault("events", []).append({"event": _text(term), "effects": sorted(effects[term]),
                                             "because": because(term)})
    if joint:
        out["simultaneous"] = [_joint(i, j, rows) for (i, j), rows in sorted(joint.items())]
    if violated:
        out["violated"] = sorted(violated)
        out["violated_rules"] = sorted(violated_rules, key=lambda v: (v["rule"], v["violated"]))
    return out


def _phrase(effects: set, say) -> list[str]:
    """The effects of one roll in the rules' words (says/2). Several units
    with "one captured"/"one reduced" are one unit of the defender's choice;
    more rearming candidates than enemy units cleared are the attacker's
    choice: the rules give the words for both ("..._of", rearm_choice)."""
    out, ones, rearm, limit = [], {}, [], None
    for e in effects:
        if e.name in ("one_captured", "one_reduced"):
            ones.setdefault(e.name, []).append(e)
        elif e.name in ("rearm", "rearm_half"):
            rearm.append(e)
        elif e.name == "rearms_up_to":
            limit = e.arguments[0].number
        else:
            out.append(say(e))
    for name, es in ones.items():
        if len(es) == 1:
            out.append(say(es[0]))
        else:
            out.append(say(clingo.Function(name + "_of", [clingo.String(", ".join(sorted(_text(e.arguments[0]) for e in es)))])))
    words = sorted(say(e) for e in rearm)
    if limit is not None and len(rearm) > limit:
        out.append(say(clingo.Function("rearm_choice", [clingo.Number(limit), clingo.String("; ".join(words))])))
    else:
        out.extend(words)
    return sorted(out)


def _bands(kind, by_roll: dict, say) -> list[dict]:
    """Consecutive rolls with the same effects as one band, with its chance."""
    if isinstance(kind, tuple):   # ("one_of", N): each of N counters equally likely
        n = kind[1]
        return [{"selected": u, "ways": 1, "chance": f"1/{n}", "percent": round(100 / n, 1),
                 "roll": "random_selection", "effects": _phrase(by_roll[u], say)} for u in sorted(by_roll)]
    ways, total = _WAYS[kind]
    bands = []
    for roll in sorted(by_roll):
        eff = _phrase(by_roll[roll], say)
        if bands and bands[-1]["effects"] == eff and bands[-1]["to"] == roll - 1:
            bands[-1]["to"] = roll
            bands[-1]["ways"] += ways[roll]
        else:
            bands.append({"from": roll, "to": roll, "ways": ways[roll], "effects": eff})
    for b in bands:
        b["chance"] = f"{b['ways']}/{total}"
        b["percent"] = round(100 * float(Fraction(b["ways"], total)), 1)
        b["roll"] = kind
    return bands


def _joint(i: int, j: int, rows) -> dict:
    """A20.221: the chance of each joint result of two opposed attacks."""
    ways, total = _WAYS["dr2"]
    acc = defaultdict(int)
    for r1, r2, res in rows:
        acc[res] += ways[r1] * ways[r2]
    out = {"attacks": [i, j]}
    cleared = sum(acc.values())
    out["results"] = [{"result": k, "chance": f"{v}/{total * total}",
                       "percent": round(100 * v / (total * total), 2)} for k, v in sorted(acc.items())]
    out["results"].append({"result": "neither_cleared", "chance": f"{total * total - cleared}/{total * total}",
                           "percent": round(100 * (total * total - cleared) / (total * total), 2)})
    return out
