"""committee/reach.py's abstract grounding is an over-approximation: what
it says cannot hold never holds, and a change it says cannot be seen is
never seen. Checked against clingo's own grounding of real positions:
every atom grounded for a position is one may_hold allows, given that
position's input facts -- constant by constant, and a function term by its
functor (`option(massacre(_,_))`)."""

import json

import pytest

from asl_kb.asp.control import keeping_controls
from asl_kb.asp.facts import position_facts, prisoner_facts, switch_facts
from asl_kb.committee import bounds, reach
from asl_kb.committee.enumerate import candidates, to_yaml
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.committee.scope import load_scope, scope_from_text
from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position_text
from asl_kb.resources import rules_dir

CURRENT = parse_ruleset("current")
FOLDER = str(rules_dir())

# a Russian squad and an escaped German Unarmed unit in one hex (the map
# the hex alone), in phases where a Massacre may be made and where not
ESCAPED = """\
name: escaped-one-hex
map: {centre: P15, radius: 0, margin: 0}
units:
  count: [1, 2]
  kinds:
    - {type: squad, counter: 4-4-7, side: russian, status: []}
    - {type: unarmed, counter: (1)-0-6, size: half_squad, side: german, status: [escaped]}
  require_broken: no
attacker: german
phase: [rally, defensive_fire]
"""


def _positions(scope):
    return [load_position_text(to_yaml(scope, c), f"{scope.name} #{c.index + 1}") for c in candidates(scope)]


def _given(position) -> dict:
    """A position's input facts as may_hold reads them (what reach.produced
    reads off a scope's positions, of this one alone)."""
    found: dict = {}
    text = "\n".join([position_facts(position), prisoner_facts(position)] + switch_facts(position))
    for line in text.splitlines():
        if reach._FACT.match(line):
            name, args = reach.split_fact(line)
            seen = found.setdefault((name, len(args)), tuple(set() for _ in args))
            for i, a in enumerate(args):
                seen[i].add(a)
    return reach._given(reach.Produced(found), FOLDER)


def _uncovered(position, rules) -> list[str]:
    """The atoms clingo grounded for the position under `rules` that
    may_hold says cannot hold."""
    facts = reach.may_hold(FOLDER, _given(position))
    anyname = {n for n, a in reach.handed_over(FOLDER) if a == -1}
    with keeping_controls() as kept:
        outcomes(rules.apply(position))
    out = []
    for ctl in kept:
        for sa in ctl.symbolic_atoms:
            s = sa.symbol
            if s.name in anyname:
                continue
            vals = facts.get((s.name, len(s.arguments)))
            if vals is None or not all(v is None or reach._fits(str(a), v) for a, v in zip(s.arguments, vals)):
                out.append(str(s))
    return out


def test_a_function_term_is_read_by_its_functor():
    """`option(massacre(X,P))` is met only by what may make a massacre/2:
    a function term's name and arity are kept; a ground term a position
    gives is one of its functor's."""
    f = reach.functor_value
    assert reach._fits("loc(p15,0)", frozenset([f("loc", 2)])) and reach._fits(f("loc", 2), frozenset(["loc(p1,0)"]))
    assert not reach._fits(f("loc", 2), frozenset([f("loc", 3), "loc"]))
    assert not reach._fits(f("massacre", 2), frozenset([f("rout", 2)]))
    facts = reach.may_hold(FOLDER, {**_given(_positions(scope_from_text(ESCAPED, "e.yaml"))[0])})
    assert f("massacre", 2) not in facts.get(("option", 1), (frozenset(),))[0]  # (one unit: no victim)


def test_what_cannot_hold_is_never_grounded():
    """Every atom clingo grounds for each position (both readings of
    escaped_unprotected) is one may_hold allows."""
    for p in _positions(scope_from_text(ESCAPED, "e.yaml")):
        for rules in (CURRENT, CURRENT.flipped("escaped_unprotected")):
            assert _uncovered(p, rules) == [], p.source


def test_a_change_said_unseen_never_changes_an_answer():
    """Where bounds.seen_through (over may_hold) says escaped_unprotected's
    clauses reach no outcome -- no fire phase, no Massacre -- both readings
    give the same answers; it says so of some positions and not of others,
    and of some of those the readings do differ."""
    a, b = CURRENT, CURRENT.flipped("escaped_unprotected")
    folder, clauses = reach.changed(a, b)
    said = {True: 0, False: 0}
    differ = 0
    for p in _positions(scope_from_text(ESCAPED, "e.yaml")):
        unseen = bounds.seen_through(folder, clauses, _given(p)) is None
        same = json.dumps(outcomes(a.apply(p)).to_json()) == json.dumps(outcomes(b.apply(p)).to_json())
        said[unseen] += 1
        assert same or not unseen, p.source
        differ += not same
    assert said[True] and said[False] and differ


@pytest.mark.parametrize("scope, switch", [("tiny", "unconcealed_interdictor"), ("guards", "guard_outnumbered")])
def test_what_cannot_hold_is_never_grounded_in_a_shipped_scope(scope, switch):
    """make test-slow: the same over every position of a shipped scope
    (under the switch's other reading: the shipped one's clauses, but
    that one, are grounded alike)."""
    for p in _positions(load_scope(scope)):
        assert _uncovered(p, CURRENT.flipped(switch)) == [], p.source


def test_a_change_no_bound_shows_is_given_the_phases_and_words_it_needs():
    """escaped_unprotected is seen only where a Massacre may be made (a
    fire phase, an Unarmed victim: four and five steps back): no vocabulary
    read off its clauses shows it, so each takes the fire phases alone and
    the Unarmed words (committee/seen.py); a vocabulary that shows a change
    is left as it is."""
    from asl_kb.committee import grow, seen

    folder, clauses, needs = grow.start_of(CURRENT, CURRENT.flipped("escaped_unprotected"))
    vocab = bounds.vocabularies(folder, clauses, needs)
    assert not any(seen.seen(folder, clauses, v) for v in vocab.values())
    assert seen.phases_seen(folder, clauses) == ("prep_fire", "defensive_fire", "advancing_fire")
    wide = seen.where_seen(folder, clauses, vocab)
    assert all(seen.seen(folder, clauses, v) for v in wide.values())
    assert all(set(v.phases) == {"prep_fire", "defensive_fire", "advancing_fire"} for v in wide.values())
    assert {("status", "unarmed"), ("type", "unarmed")} <= set(wide[0].words) - set(vocab[0].words)
    start = grow.start_of(CURRENT, CURRENT.flipped("disrupted_captor_armed"))
    other = bounds.vocabularies(*start)
    assert seen.where_seen(*start[:2], other) == other


def _cases():
    from pathlib import Path

    from asl_kb.position.loader import switch_names

    errata = Path(__file__).resolve().parents[1] / "data" / "errata"
    return sorted(switch_names()) + sorted(str(p) for p in errata.iterdir())


def _changed(case: str):
    b = parse_ruleset(case) if "/" in case else CURRENT.flipped(case)
    return reach.changed(CURRENT, b)


def _same_verdicts(scopes, cases) -> int:
    """How many (scope, case) pairs were compared; each scope's pass-over
    verdicts and the needs named, read off its definition and off its
    enumeration, asserted equal."""
    compared = 0
    for name in scopes:
        scope = load_scope(name)
        for case in cases:
            folder, clauses = _changed(case)
            assert reach.missing(scope, folder, clauses) == reach.missing(scope, folder, clauses, per_scope=40), (
                name,
                case,
            )
            compared += 1
    return compared


def test_what_a_scope_produces_is_read_off_its_definition(monkeypatch):
    """`medium`'s 67,241 positions are not enumerated to pass over it: a
    position of each combination of its kinds, palette and header is."""
    from asl_kb.committee import enumerate as E

    def walked(*_a, **_k):
        raise AssertionError("the enumeration was walked")

    monkeypatch.setattr(E, "placements", walked)
    monkeypatch.setattr(E, "candidates", walked)
    medium = load_scope("medium")
    made = reach.defined.__wrapped__(medium)
    assert made.args[("unit_type", 2)][1] == {"squad", "leader"}
    assert made.args[("no_quarter", 1)][0] == {"german"} and ("terrain", 2) in made.args
    folder, clauses = _changed("escaped_unprotected")
    monkeypatch.setattr(reach, "defined", lambda scope: made)
    assert set(reach.missing(medium, folder, clauses)) == {c.where for c in clauses}


def test_the_definition_gives_the_enumerations_verdicts():
    """Of small shipped scopes, read off the definition or the enumeration:
    the same clauses passed over, the same needs named."""
    cases = ["escaped_unprotected", "unconcealed_interdictor", "mop_up_any_unit", "guard_outnumbered"]
    assert _same_verdicts(["tiny", "guards"], cases) == 8


def test_the_definition_gives_the_enumerations_verdicts_everywhere():
    """make test-slow: every small shipped scope (all but `medium`), every
    switch and erratum."""
    scopes = ["tiny", "prisoners", "features", "concealed", "escape", "guards", "combat", "disrupted", "entrenched"]
    scopes += ["small", *(f"asl_kb/committee/scopes/rulings/{n}.yaml" for n in ("escaped", "disrupted-unarmed"))]
    assert _same_verdicts(scopes, _cases()) == len(scopes) * len(_cases())
