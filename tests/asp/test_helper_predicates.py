"""The helper predicates many rules read, each tested alone (clintest, as
potassco/coom-suite tests its encodings' helpers): the rule files that
define it, grounded on a few facts written for the test, and the atoms that
must hold and must not. The static part of a file (`#program base`) is all
a helper needs, and clintest's solver grounds only that part. A case names
the rule its expectation comes from."""

from __future__ import annotations

import pytest
from clintest.assertion import Contains, Not, True_
from clintest.quantifier import All, Exact
from clintest.solver import Clingo
from clintest.test import And, Assert, Test

from conftest import ROOT

BASE = "core/base.lp"
INTERDICTION = "rout/A10_53_interdiction.lp"
ROUTING = "rout/A10_5_routing.lp"


def expect(holds: list[str], fails: list[str]) -> Test:
    """One answer set, holding every atom of `holds` and none of `fails`."""
    return And(
        Assert(Exact(1), True_()),
        *(Assert(All(), Contains(a)) for a in holds),
        *(Assert(All(), Not(Contains(a))) for a in fails),
    )


def run(case: dict, test: Test) -> Test:
    solver = Clingo(["0", "--warn=none"], case["program"], [str(ROOT / "rules" / f) for f in case["files"]])
    solver.solve(test)
    return test


#: two squads of opposite sides, a hex apart, and the geometry the rules read
#: (the position's facts give range/3 and los/3 for the Locations in reach)
SQUADS = """
unit(r). side(r,russian). unit_type(r,squad).
unit(g). side(g,german). unit_type(g,squad). counter_fire(g,4,6).
unit_at(r,loc("B2",0)). unit_at(g,loc("B3",0)).
"""

#: name -> the rule files (under rules/), the facts, the test
TESTS: dict[str, dict] = {
    # ---- armed, unarmed, unbroken (Index "Armed", A.7, A20.5)
    "a squad is armed and in Good Order": {
        "files": [BASE],
        "program": "unit(s).",
        "holds": ["armed(s)", "unbroken(s)", "good_order(s)"],
        "fails": ["unarmed(s)"],
    },
    "a broken unit is not in Good Order (A.7)": {
        "files": [BASE],
        "program": "unit(s). status(s,broken).",
        "holds": ["armed(s)"],
        "fails": ["unbroken(s)"],
    },
    "a prisoner is Unarmed, even with a SW (A20.5)": {
        "files": [BASE],
        "program": "unit(p). guard_of(p,g). unit(g). weapon(p,sw(lmg),2,6).",
        "holds": ["unarmed(p)"],
        "fails": ["armed(p)"],
    },
    "an Unarmed unit with a SW is armed (the prisoners article)": {
        "files": [BASE],
        "program": "unit(u). unit_type(u,unarmed). weapon(u,sw(lmg),2,6).",
        "holds": ["unarmed(u)", "armed(u)"],
    },
    # ---- routing (A10.4, A10.41)
    "a broken unit with a reach routs (A10.4)": {
        "files": [BASE],
        "program": 'unit(u). status(u,broken). area(u,loc("A1",0)). unit(v). area(v,loc("A1",0)).',
        "holds": ["routing(u)"],
        "fails": ["routing(v)"],
    },
    # ---- ADJACENT (glossary, A10.51 EX)
    "ADJACENT: the same level of the next hex, or the next level of the same hex": {
        "files": [BASE],
        "program": """unit_at(e,loc("B3",0)). unit_at(f,loc("B2",1)).
            range(loc("B2",0),e,1). range(loc("B2",0),f,0). range(loc("B2",2),e,1)."""
        + 'range(loc("B2",1),f,0).',
        "holds": ['adj_unit(loc("B2",0),e)', 'adj_unit(loc("B2",0),f)', 'in_loc(loc("B2",1),f)'],
        "fails": ['adj_unit(loc("B2",2),e)', 'in_loc(loc("B2",0),f)'],
    },
    "a step is barred ADJACENT to an armed enemy, not leaving its Location (A10.51)": {
        "files": [BASE],
        "program": """unit(e). unit_at(e,loc("B3",0)).
            cost(loc("B1",0),loc("B2",0),2). range(loc("B2",0),e,1). range(loc("B1",0),e,2).""",
        "holds": ['bars_step(loc("B1",0),loc("B2",0),e)', 'bars_end(loc("B2",0),e)'],
    },
    "an unarmed enemy bars no step (A20.5)": {
        "files": [BASE],
        "program": """unit(e). unit_at(e,loc("B3",0)). guard_of(e,x). unit(x).
            cost(loc("B1",0),loc("B2",0),2). range(loc("B2",0),e,1).""",
        "fails": ['bars_step(loc("B1",0),loc("B2",0),e)', 'bars_end(loc("B2",0),e)'],
    },
    # ---- open_ground_at (A10.531)
    "Open Ground: ground level, open terrain, no hindrance, no vehicle (A10.531)": {
        "files": [BASE, INTERDICTION],
        "program": """area(u,loc("A1",0)). og_terrain("A1").
            area(u,loc("A1",1)).
            area(u,loc("A2",0)). og_terrain("A2"). in_hex_hindrance("A2",grain).
            area(u,loc("A3",0)). og_terrain("A3"). unit(v). unit_type(v,vehicle). unit_at(v,loc("A3",0)).
            area(u,loc("A4",0)).""",
        "holds": ['open_ground_at(loc("A1",0))'],
        "fails": [
            'open_ground_at(loc("A1",1))',
            'open_ground_at(loc("A2",0))',
            'open_ground_at(loc("A3",0))',
            'open_ground_at(loc("A4",0))',
        ],
    },
    # ---- covers (A10.532): who could Interdict a Location
    "covers: LOS without hindrance, within Normal Range and 16 hexes (A10.532)": {
        "files": [BASE, INTERDICTION],
        "program": SQUADS
        + """los(loc("B5",0),g,0). range(loc("B5",0),g,6).
            los(loc("B6",0),g,0). range(loc("B6",0),g,7).
            los(loc("B4",0),g,1). range(loc("B4",0),g,1).""",
        "holds": ['covers(g,loc("B5",0))'],
        "fails": ['covers(g,loc("B6",0))', 'covers(g,loc("B4",0))'],
    },
    "covers: never beyond 16 hexes, whatever the range (A10.532)": {
        "files": [BASE, INTERDICTION],
        "program": SQUADS.replace("counter_fire(g,4,6)", "counter_fire(g,4,20)")
        + 'los(loc("B5",0),g,0). range(loc("B5",0),g,17). los(loc("B6",0),g,0). range(loc("B6",0),g,16).',
        "holds": ['covers(g,loc("B6",0))'],
        "fails": ['covers(g,loc("B5",0))'],
    },
    "covers: not a broken, pinned or CX unit, nor a leader without a SW (A10.532)": {
        "files": [BASE, INTERDICTION],
        "program": """unit(b). status(b,broken). counter_fire(b,4,6). unit_at(b,loc("C1",0)).
            unit(p). status(p,pinned). counter_fire(p,4,6). unit_at(p,loc("C1",0)).
            unit(x). status(x,cx). counter_fire(x,4,6). unit_at(x,loc("C1",0)).
            unit(l). unit_type(l,leader). counter_fire(l,0,0). unit_at(l,loc("C1",0)).
            los(loc("C3",0),(b;p;x;l),0). range(loc("C3",0),(b;p;x;l),2).""",
        "fails": [*(f'covers({i},loc("C3",0))' for i in "bpxl")],
    },
    # ---- forces_rout (A10.5): who forces a broken unit to rout
    "forces_rout: a Known unbroken armed enemy in range along an LOS of Open Ground (A10.5)": {
        "files": [BASE, INTERDICTION, ROUTING],
        "program": SQUADS + 'los(loc("B2",0),g,0). range(loc("B2",0),g,1).',
        "holds": ['forces_rout(g,loc("B2",0))'],
    },
    "forces_rout: not a broken, a Melee or an unarmed enemy, nor through a hexside's TEM (A10.4, A20.5, A10.531)": {
        "files": [BASE, INTERDICTION, ROUTING],
        "program": """unit(b). status(b,broken). counter_fire(b,4,6).
            unit(m). status(m,melee). counter_fire(m,4,6).
            unit(p). counter_fire(p,4,6). guard_of(p,q). unit(q).
            unit(w). counter_fire(w,4,6). hexside_cover(loc("B2",0),w,wall). hexside_tem(wall,2).
            los(loc("B2",0),(b;m;p;w),0). range(loc("B2",0),(b;m;p;w),1).""",
        "fails": [*(f'forces_rout({e},loc("B2",0))' for e in "bmpw")],
    },
    # ---- known0 (A10.51 "Known", A10.533)
    "Known at the start: an enemy in LOS, not concealed (A10.533)": {
        "files": [BASE, ROUTING],
        "program": """start(r,loc("B2",0)). side(r,russian).
            side(g,german). los(loc("B2",0),g,0).
            side(c,german). los(loc("B2",0),c,0). status(c,concealed).
            side(h,german).
            side(f,russian). los(loc("B2",0),f,0).""",
        "holds": ["known0(r,g)"],
        "fails": ["known0(r,c)", "known0(r,h)", "known0(r,f)"],
    },
}


@pytest.mark.parametrize("name", list(TESTS), ids=list(TESTS))
def test_helper_predicate(name):
    case = TESTS[name]
    run(case, expect(case.get("holds", []), case.get("fails", []))).assert_()


@pytest.mark.parametrize("name", list(TESTS), ids=list(TESTS))
def test_each_expectation_can_fail(name):
    """Each atom a case expects, expected the other way, fails: no case
    holds whatever the rules say."""
    case = TESTS[name]
    for atom in case.get("holds", []):
        assert not run(case, expect([], [atom])).outcome().current_value(), atom
    for atom in case.get("fails", []):
        assert not run(case, expect([atom], [])).outcome().current_value(), atom
