"""Interdiction (A10.53, A10.532) and the Q&A answers quoted at the end of the
"Prisoners" article (../shared/sources/prisoners-article-with-QA.txt).

Every test uses one small probe map (board 1, rows 1-8): a broken German
4-6-7 under DM in the woods in D5 may rout to the woods in F5 (3 MF); the only
way is through the Open Ground hex E5 (E6 is water, and any other way would
increase the range to F5). The American units under test stand to the west,
where F5 is farther from them than D5 (so F5 is never ignorable, A10.51):

* X in B3 (range 3 to E5, LOS through open C4/D4) - the unit under test;
* Y in D2 (range 3 to E5, LOS through open D3/E4) - an ordinary 6-6-6 squad,
  the control: it must Interdict in E5 in every test where it is present.

Interdiction in E5 is then read off every fate in which the unit routs
without Low Crawl (each such rout enters E5).
"""
from __future__ import annotations

import copy
from functools import lru_cache

import yaml

from asl_kb.board import hexgrid
from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position_text

ROUTER = {"id": "R", "side": "german", "type": "squad", "counter": "4-6-7",
          "at": "D5", "status": ["broken", "dm"]}
Y = {"id": "Y", "side": "american", "type": "squad", "counter": "6-6-6", "at": "D2"}

BASE = {
    "name": "interdiction probe",
    "rules": "current",
    "attacker": "german",
    "map": {"board": "1", "default_terrain": "open", "area": ["A1", "H8"],
            "terrain": {"D5": "woods", "F5": "woods", "E6": "water"}},
    "units": [],
}


def _solve(text: str) -> dict:
    return outcomes(load_position_text(text, "probe.yaml"))


@lru_cache(maxsize=None)
def _solve_cached(text: str) -> dict:
    return _solve(text)


def probe(*units, base=BASE, router=ROUTER) -> dict:
    """Outcomes of the probe map with the router and the given enemy units."""
    pos = copy.deepcopy(base)
    pos["units"] = [copy.deepcopy(router)] + [copy.deepcopy(u) for u in units]
    return _solve_cached(yaml.safe_dump(pos, sort_keys=False))


def router_fates(r, uid="R"):
    u = next(u for u in r["units"] if u["id"] == uid)
    assert not u.get("inconsistent"), "no legal outcome"
    return u["fates"]


def routs_through(fates, hex_):
    """Fates that rout (without Low Crawl) along a path entering hex_."""
    return [f for f in fates if f["fate"] == "rout" and not f["low_crawl"]
            and any(p == hex_ for p in f["path"][1:])]


def interdictors(f, hex_):
    hits = [i for i in f["interdiction"] if i["at"] == hex_]
    assert len(hits) <= 1, "a hex must appear once: one NMC per hex (A10.53)"
    return set(hits[0]["by"]) if hits else set()


def optional_interdictors(f, hex_):
    hits = [i for i in f["optional_interdiction"] if i["at"] == hex_]
    assert len(hits) <= 1
    return set(hits[0]["by"]) if hits else set()


def e5_interdictors(*units, **kw):
    """The set of Interdictors in E5, which must be the same in every rout."""
    fates = router_fates(probe(*units, **kw))
    through = routs_through(fates, "E5")
    assert through, "the probe must have a rout through E5"
    sets = {frozenset(interdictors(f, "E5")) for f in through}
    assert len(sets) == 1, f"E5 Interdictors differ between routs: {sets}"
    return set(next(iter(sets)))


def x(**kw):
    unit = {"id": "X", "side": "american", "type": "squad", "counter": "6-6-6", "at": "B3"}
    unit.update(kw)
    return unit


# --------------------------------------------------------------------------
# The probe itself
# --------------------------------------------------------------------------

def test_probe_geometry():
    """The probe's assumptions: the only hex between D5 and F5 is E5, X and Y
    are 3 hexes from E5 and farther from F5 than from D5."""
    assert set(hexgrid.neighbors("D5")) & set(hexgrid.neighbors("F5")) == {"E5", "E6"}
    for h in ("B3", "D2"):
        assert hexgrid.distance(h, "E5") == 3
        assert hexgrid.distance(h, "F5") > hexgrid.distance(h, "D5")


def test_probe_routes_to_f5_through_e5():
    fates = router_fates(probe(x(), Y))
    assert {f["at"] for f in routs_through(fates, "E5")} == {"F5"}
    # A10.52: Low Crawl into E5 is never Interdicted.
    lc = [f for f in fates if f["low_crawl"] and f["at"] == "E5"]
    assert lc and all(not f["interdiction"] and not f["optional_interdiction"] for f in lc)


def test_ordinary_squad_interdicts():
    """A10.53: unbroken, LOS and Normal Range with no Hindrance: X Interdicts."""
    assert e5_interdictors(x(), Y) == {"X", "Y"}


# --------------------------------------------------------------------------
# Q&A answers
# --------------------------------------------------------------------------

def test_qa_unit_with_armed_known_enemy_in_its_location_cannot_interdict():
    """Q&A: "Can a unit with a CC counter interdict? More specifically, can a
    unit with an enemy BU AFV in motion in their hex interdict? A. The CC
    counter is immaterial, but target selection limits would prevent a unit
    with an armed Known enemy unit in its Location from Interdicting."
    X shares B3 with a German BU AFV in Motion."""
    afv = {"id": "AFV", "side": "german", "type": "vehicle", "counter": "PzKpfw IVH",
           "at": "B3", "status": ["bu", "motion"], "armament": ["ma", "bmg"]}
    assert e5_interdictors(x(), afv, Y) == {"Y"}


def test_qa_target_selection_limits_need_an_armed_enemy():
    """The limit is an *armed* Known enemy unit: an Unarmed German (1)-0-6 in
    X's Location does not stop X from Interdicting (Q&A above; Index "Armed")."""
    unarmed = {"id": "U", "side": "german", "type": "unarmed", "counter": "(1)-0-6", "at": "B3"}
    assert e5_interdictors(x(), unarmed, Y) == {"X", "Y"}


def test_qa_target_selection_limits_need_a_known_enemy():
    """The limit is an armed *Known* enemy unit: a concealed German squad in
    X's Location is not Known (A10.533, A12), so X still Interdicts."""
    hidden = {"id": "H", "side": "german", "type": "squad", "counter": "4-6-7",
              "at": "B3", "status": ["concealed"]}
    assert e5_interdictors(x(), hidden, Y) == {"X", "Y"}


def test_qa_defender_may_decline_interdiction_only_if_concealed_unconcealed_is_mandatory():
    """Q&A: "can the DEFENDER decline Interdiction ...? A. Only if concealed."
    An unconcealed eligible unit is a mandatory Interdictor: it is listed
    under `interdiction`, never under `optional_interdiction`."""
    fates = router_fates(probe(x()))
    through = routs_through(fates, "E5")
    assert through
    for f in through:
        assert interdictors(f, "E5") == {"X"}
        assert optional_interdictors(f, "E5") == set()


def test_qa_defender_may_decline_interdiction_only_if_concealed_concealed_is_optional():
    """... while a concealed eligible unit may Interdict only by dropping its
    concealment (A10.533), which the DEFENDER may decline: it is listed only
    under `optional_interdiction`. The unconcealed Y stays mandatory."""
    fates = router_fates(probe(x(status=["concealed"]), Y))
    through = routs_through(fates, "E5")
    assert through
    for f in through:
        assert interdictors(f, "E5") == {"Y"}
        assert optional_interdictors(f, "E5") == {"X"}


def test_qa_defender_chooses_which_qualifying_interdictor_enforces_it():
    """Q&A: "can the DEFENDER choose which of the qualifying Interdictors
    enforces the Interdiction? A. Yes." Both qualifying units are listed as
    eligible for E5, and E5 appears once: one NMC per Open Ground hex
    however many units can claim Interdiction (A10.53)."""
    fates = router_fates(probe(x(), Y))
    through = routs_through(fates, "E5")
    assert through
    for f in through:
        e5 = [i for i in f["interdiction"] if i["at"] == "E5"]
        assert len(e5) == 1
        assert e5[0]["by"] == ["X", "Y"]
    # and no outcome forces one particular Interdictor on the DEFENDER
    assert all(interdictors(f, "E5") == {"X", "Y"} for f in through)


# --------------------------------------------------------------------------
# A10.532 INTERDICTOR
# --------------------------------------------------------------------------

def test_a10532_cx_unit_cannot_interdict():
    """A10.532: "a CX or Encircled unit ... cannot Interdict"."""
    assert e5_interdictors(x(status=["cx"]), Y) == {"Y"}


def test_a10532_encircled_unit_cannot_interdict():
    assert e5_interdictors(x(status=["encircled"]), Y) == {"Y"}


def test_a10532_pinned_unit_cannot_interdict():
    """A10.532: "Any unit whose FP is halved [EXC: mortars] (Pin, ...) may not
    Interdict"."""
    assert e5_interdictors(x(status=["pinned"]), Y) == {"Y"}


def test_a10532_broken_unit_cannot_interdict():
    """A10.53: Interdiction needs an *unbroken* enemy unit."""
    assert e5_interdictors(x(status=["broken"]), Y) == {"Y"}


def test_a10532_leader_without_sw_cannot_interdict():
    """A10.532: "A leader without a SW has no range and therefore cannot
    Interdict a rout hex"."""
    leader = x(type="leader", counter="8-0")
    assert e5_interdictors(leader, Y) == {"Y"}


def test_a10532_leader_with_lmg_can_interdict():
    """... with a SW (an LMG: Normal Range 6 >= 3) he can."""
    leader = x(type="leader", counter="8-0", sw=["lmg"])
    assert e5_interdictors(leader, Y) == {"X", "Y"}


def test_a10532_beyond_normal_range_cannot_interdict():
    """A10.53/A10.532: Interdiction needs Normal Range: a 2-2-8 crew (Normal
    Range 2) three hexes from E5 cannot Interdict there."""
    crew = x(type="crew", counter="2-2-8")
    assert e5_interdictors(crew, Y) == {"Y"}


def test_a10532_sw_within_normal_range_interdicts_beyond_inherent_range():
    """The same crew with an MMG (Normal Range 10) reaches E5."""
    crew = x(type="crew", counter="2-2-8", sw=["mmg"])
    assert e5_interdictors(crew, Y) == {"X", "Y"}


# The probe shifted 16 columns east (D5 -> T5, E5 -> U5, F5 -> V5; an even
# shift keeps the hex geometry), so that an enemy can be 16 or 17 hexes away.
FAR_BASE = dict(BASE, name="interdiction probe, far",
                map=dict(BASE["map"], area=["A1", "X8"],
                         terrain={"T5": "woods", "V5": "woods", "U6": "water"}))
FAR_ROUTER = dict(ROUTER, at="T5")
FAR_Y = dict(Y, at="T2")


def far_interdictors(*units):
    fates = router_fates(probe(*units, base=FAR_BASE, router=FAR_ROUTER))
    through = routs_through(fates, "U5")
    assert through and {f["at"] for f in through} == {"V5"}
    sets = {frozenset(interdictors(f, "U5")) for f in through}
    assert len(sets) == 1, sets
    return set(next(iter(sets)))


def test_a10532_no_weapon_interdicts_beyond_16_hexes():
    """A10.532: "No weapon is effective for Interdiction purposes beyond its
    Normal Range or 16 hexes (whichever is less)": an HMG given a Normal Range
    of 20 does not Interdict at 17 hexes ..."""
    assert hexgrid.distance("D3", "U5") == 17
    far = x(at="D3", sw=[{"kind": "hmg", "fp": 5, "range": 20}])
    assert far_interdictors(far, FAR_Y) == {"Y"}


def test_a10532_weapon_interdicts_at_16_hexes():
    """... but does at 16 hexes (the control for the test above)."""
    assert hexgrid.distance("E3", "U5") == 16
    far = x(at="E3", sw=[{"kind": "hmg", "fp": 5, "range": 20}])
    assert far_interdictors(far, FAR_Y) == {"X", "Y"}


# AFVs (A10.532: "An AFV cannot Interdict if it would have to change its
# VCA/TCA or use armament which is currently penalized by the +1 BU ... DRM").
# A Sherman in B3, in nobody's Location; hexside 3 (south-east) faces E5.

def sherman(status, tca, armament=("ma", "cmg")):
    return {"id": "X", "side": "american", "type": "vehicle", "counter": "M4A1",
            "at": "B3", "status": list(status), "vca": tca, "tca": tca,
            "armament": list(armament)}


def test_sherman_probe_arc():
    from asl_kb.board import geometry
    assert geometry.in_arc("B3", 3, "E5")
    assert not geometry.in_arc("B3", 6, "E5")


def test_a10532_ce_afv_with_tca_covering_interdicts():
    assert e5_interdictors(sherman(["ce"], 3), Y) == {"X", "Y"}


def test_a10532_bu_afv_interdicts_with_its_cmg():
    """The +1 BU DRM penalises the MA, not the CMG (article Example 3)."""
    assert e5_interdictors(sherman(["bu"], 3), Y) == {"X", "Y"}


def test_a10532_bu_afv_with_only_its_ma_cannot_interdict():
    assert e5_interdictors(sherman(["bu"], 3, armament=["ma"]), Y) == {"Y"}


def test_a10532_afv_that_would_have_to_change_its_tca_cannot_interdict():
    assert e5_interdictors(sherman(["ce"], 6), Y) == {"Y"}
    assert e5_interdictors(sherman(["bu"], 6), Y) == {"Y"}


def test_a10532_afv_in_motion_cannot_interdict():
    """A10.532: FP halved by Motion: no Interdiction."""
    assert e5_interdictors(sherman(["ce", "motion"], 3), Y) == {"Y"}


def test_qa_when_determining_whether_a_broken_unit_would_surrender_is_the_entire_rout_path_examined():
    """Q&A (A20.21): "is the entire rout path examined for Interdiction or
    simply the first hex away from the enemy unit ...? A. The entire rout
    path." The first hex (grain, D5) is not Open Ground; the Open Ground beyond
    it (E5/E6) on the way to the woods in F5 is Interdicted by G2: the unit
    surrenders. With G2 CX (it cannot Interdict) it routs to F5 instead."""
    text = """
name: entire rout path
attacker: german
map: {area: [A1, M10], terrain: {D5: grain, F5: woods, D4: water, D6: water, C4: water, C6: water}}
units:
  - {id: R, side: russian, type: squad, counter: 4-4-7, at: C5, status: [broken]}
  - {id: G, side: german, type: squad, counter: 4-6-7, at: B5}
  - {id: G2, side: german, type: squad, counter: 4-6-7, at: C1%s}
"""
    def fates(status):
        r = outcomes(load_position_text(text % status, "<test>"))
        return [f for u in r["units"] if u["id"] == "R" for f in u["fates"]]
    taken = fates("")
    assert {f["fate"] for f in taken} == {"surrender", "eliminated"}
    said = [b["says"] for f in taken if f["fate"] == "surrender" for b in f["because"]]
    assert "every way out is Interdicted in E5 (by G2) or beyond" in said
    free = fates(", status: [cx]")
    assert ("rout", "F5", False) in {(f["fate"], f["at"], f["low_crawl"]) for f in free}
    assert "surrender" not in {f["fate"] for f in free}
