"""Positions chosen by the solver within bounds (committee/generate.py), an
assertion checked within them (`search find --where`), and "for every
position within bounds" said only after an exhaustive run."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from asl_kb.committee import generate
from asl_kb.committee.enumerate import candidates
from asl_kb.committee.scope import load_scope, scope_from_text
from asl_kb.resources import rules_dir
from test_committee_diff import run

#: a broken Russian squad and a German squad in its hex or ADJACENT to it
ADJACENT = """\
name: adjacent
attacker: german
map: {centre: P15, radius: 1, margin: 7}
units:
  one_of_each: yes
  kinds:
    - {name: routing, type: squad, counter: 4-4-7, side: russian, status: [broken]}
    - {type: squad, counter: 4-6-7, side: german, status: [], within: {of: routing, range: 1}}
no_quarter: [[german]]
"""

#: "No unit surrenders to a side that gives No Quarter" (A20.3)
NO_QUARTER = """\
found(X) :- leaf(_,N), fate(N,surrender(X)), side(X,S), no_quarter(S).
"""


@pytest.mark.parametrize("name", ["tiny", "guards", "concealed", "entrenched", "disrupted", "escape", "features"])
def test_the_solver_chooses_the_positions_the_enumeration_walks(name):
    """A small bound against full enumeration: the same positions, in the
    same order, and the solver's search space exhausted."""
    scope = load_scope(name)
    r = generate.Run()
    assert list(generate.generated(scope, run=r)) == list(candidates(scope))
    assert r.exhausted and r.models > 0


def test_a_bound_with_kinds_near_each_other():
    scope = scope_from_text(ADJACENT, "adjacent.yaml")
    got = list(generate.generated(scope))
    assert got == list(candidates(scope)) and [len(c.units) for c in got] == [2, 2]


def test_required_inputs_prune_the_positions():
    """A clause that needs a concealed unit: only positions holding one; in
    bounds without a concealed kind, none (None: it can act nowhere)."""
    from asl_kb.committee import reach
    from asl_kb.committee.rulesets import parse_ruleset

    a, b = parse_ruleset("current"), parse_ruleset("current", switch="unconcealed_interdictor")
    folder, changed = reach.changed(a, b)
    needs = reach.needs(folder, changed, reach.by_scope(Path(folder)))
    assert generate.require_for(load_scope("tiny"), needs) is None
    scope = load_scope("concealed")
    required = generate.require_for(scope, needs)
    got = list(generate.generated(scope, require=required))
    assert got and all(any("concealed" in scope.specs[i].status for _, i in c.units) for c in got)


def test_a_solve_cut_at_the_deadline_is_not_exhausted():
    r = generate.Run()
    assert list(generate.generated(load_scope("small"), run=r, deadline=time.monotonic())) == []
    assert r.cut and r.exhausted is False


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The bounds, the assertion, and an erratum that breaks it: a side that
    has invoked No Quarter still takes an ADJACENT unit's surrender."""
    root = tmp_path_factory.mktemp("generate")
    (root / "bounds.yaml").write_text(ADJACENT)
    (root / "no-quarter.lp").write_text(NO_QUARTER)
    text = (rules_dir() / "rout/A20_21_surrender.lp").read_text()
    old = "adj_unit(L,X), takes_prisoners(X),\n    side(X,S), not no_quarter(S),"
    assert text.count(old) == 1
    (root / "erratum" / "rout").mkdir(parents=True)
    (root / "erratum/rout/A20_21_surrender.lp").write_text(
        text.replace(old, "adj_unit(L,X), takes_prisoners(X),\n    side(X,S),")
    )
    return root


def test_an_assertion_holds_within_bounds_or_its_counterexample(capsys, files):
    args = ["search", "find", "--where", str(files / "no-quarter.lp"), "--scope", str(files / "bounds.yaml")]
    code, out, _ = run(capsys, *args, "--format", "json")
    r = json.loads(out)
    # the current rules: it holds nowhere, and every position was judged
    assert code == 0 and r["within_bounds"] and r["generated"]["exhausted"] and r["tried"] == 2
    code, out, _ = run(capsys, *args, "--rules", str(files / "erratum"), "--format", "json")
    r = json.loads(out)
    [w] = r["witnesses"]
    assert code == 1 and not r.get("within_bounds") and w["index"] == 2 and w["found"] == ['found("U2")']


def test_a_bad_assertion_is_bad_input(capsys, files, tmp_path):
    bad = tmp_path / "bad.lp"
    bad.write_text("found(X) :- leaf(_,N) fate(N,X).\n")
    code, _, err = run(capsys, "search", "find", "--where", str(bad), "--scope", str(files / "bounds.yaml"))
    assert code == 2 and f"{bad}:1:" in err


def test_equivalent_within_bounds_only_after_an_exhaustive_run(capsys, files):
    bounds = files / "bounds2.yaml"
    bounds.write_text(ADJACENT.replace("no_quarter: [[german]]", "no_quarter: [[]]"))
    args = ["search", "diff", "--switch", "current_rout_path", "--scope", str(bounds), "--generate"]
    code, out, _ = run(capsys, *args, "--format", "json")
    r = json.loads(out)
    assert code == 0 and r["within_bounds"] and r["complete"] and r["tried"] == 2
    assert r["tried"] > r["untouched"]  # (a position was run under both rule sets)
    code, out, _ = run(capsys, *args, "--max-positions", "1", "--format", "json")
    r = json.loads(out)
    assert code == 3 and not r.get("within_bounds") and not r["complete"]


#: a broken Russian squad and two Good Order German squads on seven hexes,
#: up to two of them woods (an obstacle to the LOS)
SEVEN_WOODS = """\
name: seven-woods
attacker: german
map: {centre: P15, radius: 1, margin: 7}
terrain: {palette: [woods], non_open: 2}
units:
  count: [3, 3]
  kinds:
    - {type: squad, counter: 4-4-7, side: russian, status: [broken], count: [1, 1]}
    - {type: squad, counter: 4-6-7, side: german, status: [], count: [2, 2]}
"""


def _refigured_by_python(scope, c, sight) -> bool:
    """REFIGURE's reading with the Python geometry (the reference): an
    enemy of a broken unit out of its LOS, or a Good Order enemy in its
    hex, after a start with a Good Order enemy ADJACENT to it."""
    from asl_kb.board import hexgrid

    units = [(h, scope.specs[i]) for h, i in c.units]
    pairs = [(h, e, g) for h, u in units if "broken" in u.status for e, g in units if g.side != u.side]
    adjacent = any(hexgrid.distance(h, e) == 1 and "broken" not in g.status for h, e, g in pairs)
    hidden = any(h != e and (h, e) not in sight.los for h, e, _ in pairs)
    within = any(h == e and "broken" not in g.status for h, e, g in pairs)
    return adjacent and (hidden or within)


def test_a_rout_re_figured_is_read_with_the_asp_los_as_the_python_los_reads_it():
    """A change weighing the route figured at the start against the whole
    rout (current_rout_path's rewound/2) can be seen only where a rout may
    be re-figured: the generator keeps those positions, reading the LOS in
    ASP (geometry.lp) over the woods it places. Every position of the
    bound: kept exactly where the Python LOS (geometry.python_geometry,
    LosMap) says so."""
    from asl_kb.committee import geometry

    scope = scope_from_text(SEVEN_WOODS, "seven-woods.yaml")
    require = generate.refiguring(scope)
    assert require is not None
    kept = [(c.units, c.terrain) for c in generate.generated(scope, require=require)]
    board = geometry.Bound(centre="P15", radius=1, palette=("woods",), non_open=2)
    boards: dict = {}
    expected = []
    every = list(candidates(scope))
    for c in every:
        woods = tuple(sorted(h for h, _ in c.terrain))
        if woods not in boards:
            boards[woods] = geometry.python_geometry(board, {h: "woods" for h in woods})
        if _refigured_by_python(scope, c, boards[woods]):
            expected.append((c.units, c.terrain))
    assert kept == expected and 0 < len(kept) < len(every)
    # (some kept only for an enemy hidden behind the woods: three hexes)
    assert any(len({h for h, _ in units}) == 3 for units, _ in kept)


def test_a_re_figured_rout_is_asked_only_of_the_change_that_reads_the_whole_rout():
    """generate.require_for adds the re-figuring constraint for the changed
    clause of current_rout_path (it reads clean/1, a closure over the whole
    rout graph), and says the positions it leaves out (partial_for): never
    "every position"; not for a change that reads one stage."""
    from asl_kb.committee import reach
    from asl_kb.committee.rulesets import parse_ruleset

    scope = scope_from_text(SEVEN_WOODS, "seven-woods.yaml")
    current = parse_ruleset("current")
    for switch, asked in (("current_rout_path", True), ("rejected_leader_in_place", False)):
        got = reach.changed(current, parse_ruleset("current", switch=switch))
        assert got is not None
        needs = reach.needs(got[0], got[1], reach.by_scope(Path(got[0])))
        require = generate.require_for(scope, needs, got) or ""
        assert ("refigured" in require) == asked
        assert (generate.partial_for(scope, got) == generate.REFIGURE_PARTIAL) == asked


def test_the_least_units_a_change_needs_are_read_off_the_clauses():
    """Two units on two sides (`side(U,A), side(E,B), A != B`) or apart
    (`V != U`); through what a clause reads (a Mopping Up captor is of the
    other side), an atom matched by its functor (a unit staying put needs
    no other). A Voluntary Break into a surrender (no_break_into_surrender)
    needs two units: the generator leaves out the positions of one, a
    Guard's prisoner counted."""
    from asl_kb.committee import least_units, reach
    from asl_kb.committee.rulesets import parse_ruleset

    folder = str(rules_dir())

    def clause(text):
        return reach.rules_of(text, "t.lp")

    assert least_units.apart(clause("a(U,X) :- side(U,S), side(X,T), S != T.")[0].rule) == 2
    assert least_units.apart(clause("a(U,V) :- unit_at(U,L), unit_at(V,L), V != U.")[0].rule) == 2
    assert least_units.apart(clause("a(U) :- side(U,S), not no_quarter(S).")[0].rule) == 1
    assert least_units.needed(folder, clause("x(U) :- mop_captor(U,X).")) == 2
    assert least_units.needed(folder, clause("x(N) :- leaf(0,stay(N)).")) < 2
    current = parse_ruleset("current")
    got = reach.changed(current, parse_ruleset("current", switch="no_break_into_surrender"))
    assert got is not None and least_units.needed(*got) == 2
    scope = scope_from_text(
        SEVEN_WOODS.replace("count: [3, 3]", "count: [1, 2]")
        .replace("count: [2, 2]", "count: [0, 1]")
        .replace("count: [1, 1]", "count: [0, 1]"),
        "s.yaml",
    )
    every = list(candidates(scope))
    require = generate.require_for(scope, {"c:1": []}, None, 2)
    assert require is not None
    kept = [(c.units, c.terrain) for c in generate.generated(scope, require=require)]
    assert {len(c.units) for c in every} == {1, 2}
    assert kept == [(c.units, c.terrain) for c in every if len(c.units) == 2]
