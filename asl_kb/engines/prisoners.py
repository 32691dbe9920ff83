"""Prisoners after capture (rules/prisoners.lp): read the program's one
answer set into options, dice bands and explanations.

The rules derive, for the position's phase, every legal choice (option/1),
what the rules require (required/1), for a dice-decided option the effect of
each Original roll (roll/4), other effects (effect/2) and explanations
(because/3). Here consecutive rolls with the same effects are grouped into
bands and their chances added up (k in 36 for 2d6, k in 6 for 1d6). Whose
choice a result is (chosen/5) and which term's dice decide an option
(roll_for/2) are the rules'; every term is read as a kind with named
arguments (arguments/2) into the result model (asl_kb/model/prisoners.py).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import clingo

from asl_kb.asp import control
from asl_kb.asp.control import new_control
from asl_kb.asp.facts import prisoner_facts
from asl_kb.asp.reader import Answer, text
from asl_kb.model.prisoners import Band, Choice, Event, Joint, JointResult, Option, Prisoners

#: ways to roll each total (2d6) or face (1d6)
_WAYS = {"dr2": ({d: 6 - abs(d - 7) for d in range(2, 13)}, 36), "dr1": ({d: 1 for d in range(1, 7)}, 6)}


def answer(position) -> list:
    """The shown atoms of the prisoners program's answer set."""
    ctl = new_control("prisoners.lp", prisoner_facts(position))
    ctl.ground([("base", [])])
    shown: list = []
    if not ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True))).satisfiable:
        raise control.no_answer_set("prisoners.lp")
    return shown


def solve_prisoners(position) -> Prisoners:
    return read(answer(position), position.phase)


def read(symbols, phase: str) -> Prisoners:
    ans = Answer(symbols)
    at = ans.atoms
    dice: defaultdict = defaultdict(lambda: defaultdict(set))
    kinds = {}
    for s in at["roll"]:
        o, kind, r, effect = s.arguments
        if kind.name == "one_of":  # Random Selection among N counters
            kinds[o] = ("one_of", kind.arguments[0].number)
            dice[o][text(r)].add(effect)
        else:
            kinds[o] = kind.name
            dice[o][r.number].add(effect)
    chosen: defaultdict = defaultdict(dict)
    for s in at["chosen"]:
        o, r, effect, who, n = s.arguments
        chosen[(o, text(r) if r.type != clingo.SymbolType.Number else r.number)][effect.name] = (who.name, n.number)
    roll_for = {s.arguments[0]: s.arguments[1] for s in at["roll_for"]}
    effects = defaultdict(set)
    for s in at["effect"]:
        effects[s.arguments[0]].add(s.arguments[1])
    states = defaultdict(set)
    for s in at["state"]:
        states[text(s.arguments[0])].add(s.arguments[1])
    options = {s.arguments[0] for s in at["option"]}
    musts = {s.arguments[0] for s in at["required"]}
    joint = defaultdict(set)
    for s in at["joint_roll"]:
        a = s.arguments
        joint[(a[0].number, a[1].number)].add((a[2].number, a[3].number, a[4].name))

    def because(term):
        return ans.explain_subject(term, by_rule_number=False)

    def entry(term, required) -> Option:
        o = Option(ans.term(term), required, because(term))
        dice_term = roll_for.get(term, term)
        if dice_term in dice:
            o.rolls = _bands(
                ans, kinds[dice_term], dice[dice_term], {r: c for (t, r), c in chosen.items() if t == dice_term}
            )
            if dice_term != term:
                o.roll_for = ans.term(dice_term)
        o.effects = [ans.term(e) for e in sorted(effects.get(term, ()))]
        return o

    result = Prisoners(
        phase=phase,
        states={u: [ans.term(x) for x in sorted(v, key=text)] for u, v in sorted(states.items())},
        required=[entry(t, True) for t in sorted(musts)],
        options=[entry(t, False) for t in sorted(options)],
    )
    notes = {text(t): because(t) for t in ans.because if t.type == clingo.SymbolType.String}
    result.notes = dict(sorted(notes.items()))
    result.events = [
        Event(ans.term(t), [ans.term(e) for e in sorted(effects[t])], because(t))
        for t in sorted(t for t in effects if t not in options and t not in musts)
    ]
    result.simultaneous = [_joint(ans, i, j, rows) for (i, j), rows in sorted(joint.items())]
    result.violated = ans.violations()
    return result


def _effects(ans, effects: set, chosen: dict):
    """The effects of one roll as result terms, and their words. Effects the
    rules leave to one party's choice (chosen/5: the defender's one unit
    captured, the attacker's rearming, one unit Casualty Reduced by Random
    Selection) are one Choice; rearms_up_to only bounds the attacker's."""
    terms, groups = [], defaultdict(list)
    for e in sorted(effects):
        if e.name == "rearms_up_to":
            continue
        group = "rearm" if e.name in ("rearm", "rearm_half") else e.name
        if group in chosen:
            groups[group].append(e)
        else:
            terms.append(ans.term(e, positional=True))
    words = [t.says for t in terms]
    for group, es in sorted(groups.items()):
        who, n = chosen[group]
        of = [ans.term(e, positional=True) for e in es]
        if group == "rearm":
            said = ans.say(
                clingo.Function(
                    "rearm_choice", [clingo.Number(n), clingo.String("; ".join(sorted(t.says for t in of)))]
                )
            )
        else:
            said = ans.say(
                clingo.Function(group + "_of", [clingo.String(", ".join(sorted(text(e.arguments[0]) for e in es)))])
            )
        terms.append(Choice(who, n, of, said))
        words.append(said)
    return terms, sorted(words)


def _bands(ans, kind, by_roll: dict, chosen: dict) -> list[Band]:
    """Consecutive rolls with the same effects as one band, with its chance."""
    if isinstance(kind, tuple):  # ("one_of", N): each of N counters equally likely
        n = kind[1]
        out = []
        for u in sorted(by_roll):
            terms, words = _effects(ans, by_roll[u], chosen.get(u, {}))
            out.append(Band("random_selection", 1, f"1/{n}", round(100 / n, 1), terms, words, selected=u))
        return out
    ways, total = _WAYS[kind]
    bands: list[Band] = []
    for roll in sorted(by_roll):
        terms, words = _effects(ans, by_roll[roll], chosen.get(roll, {}))
        if bands and bands[-1].says == words and bands[-1].end == roll - 1:
            bands[-1].end = roll
            bands[-1].ways += ways[roll]
        else:
            bands.append(Band(kind, ways[roll], "", 0.0, terms, words, start=roll, end=roll))
    for b in bands:
        b.chance = f"{b.ways}/{total}"
        b.percent = round(100 * float(Fraction(b.ways, total)), 1)
    return bands


def _joint(ans, i: int, j: int, rows) -> Joint:
    """A20.221: the chance of each joint result of two opposed attacks."""
    ways, total = _WAYS["dr2"]
    acc: defaultdict = defaultdict(int)
    for r1, r2, res in rows:
        acc[res] += ways[r1] * ways[r2]
    cleared = sum(acc.values())
    acc["neither_cleared"] = total * total - cleared
    results = [
        JointResult(ans.term(clingo.Function(k)), f"{v}/{total * total}", round(100 * v / (total * total), 2))
        for k, v in list(sorted((k, v) for k, v in acc.items() if k != "neither_cleared"))
        + [("neither_cleared", acc["neither_cleared"])]
    ]
    return Joint(ans.term(clingo.Function("joint", [clingo.Number(i), clingo.Number(j)])), results)
