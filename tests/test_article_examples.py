"""Examples 2, 3 and 4 of the "Prisoners" article (J. Bishop,
../shared/sources/prisoners-article-with-QA.txt), on maps reconstructed from
the text (cases/rout/article-Ex2.yaml, Ex3.yaml, Ex4.yaml; the figures are
missing, the assumptions are in each file's `notes`). No Quarter is in
effect in all three: the Americans have invoked it.
"""
from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from asl_kb.board import hexgrid
from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position, load_position_text

CASES = Path(__file__).resolve().parent.parent / "cases"
EX2 = CASES / "rout/article-Ex2.yaml"
EX3 = CASES / "rout/article-Ex3.yaml"
EX4 = CASES / "rout/article-Ex4.yaml"


@lru_cache(maxsize=None)
def _solve_file(path: Path) -> dict:
    return outcomes(load_position(path))


@lru_cache(maxsize=None)
def _solve_text(text: str, name: str) -> dict:
    return outcomes(load_position_text(text, name))


def solve(path: Path, mutate=None) -> dict:
    """Outcomes of a position file, or of a variant: `mutate(data)` edits the
    file's plain YAML data before it is loaded."""
    if mutate is None:
        return _solve_file(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    mutate(data)
    return _solve_text(yaml.safe_dump(data, sort_keys=False), path.name)


def unit(r: dict, uid: str) -> dict:
    u = next(u for u in r["units"] if u["id"] == uid)
    assert not u.get("inconsistent"), "no legal outcome"
    return u


def fates(r: dict, uid: str, kind: str | None = None) -> list[dict]:
    return [f for f in unit(r, uid)["fates"] if kind is None or f["fate"] == kind]


def full_routs(r: dict, uid: str) -> list[dict]:
    """Rout fates without Low Crawl."""
    return [f for f in fates(r, uid, "rout") if not f["low_crawl"]]


def interdiction(f: dict) -> dict[str, list[str]]:
    out = {}
    for i in f["interdiction"]:
        assert i["at"] not in out, "one NMC per Open Ground hex (A10.53)"
        out[i["at"]] = i["by"]
    return out


def all_interdictors(r: dict, uid: str) -> set[str]:
    return {b for f in fates(r, uid) for i in f["interdiction"] + f["optional_interdiction"]
            for b in i["by"]}


def units_named(data: dict, uid: str) -> dict:
    return next(u for u in data["units"] if u["id"] == uid)


# ==========================================================================
# Example 2
# ==========================================================================

def test_ex2_geometry():
    """EE8 -> FF7 -> GG7; FF8 is not next to GG7."""
    assert hexgrid.adjacent("EE8", "FF7") and hexgrid.adjacent("FF7", "GG7")
    assert not hexgrid.adjacent("FF8", "GG7")


def test_ex2_the_unit_in_ee8_must_rout():
    u = unit(solve(EX2), "R")
    assert u["must_rout"] is True


def test_ex2_rout_to_gg7_interdicted_in_ff7_by_f_only():
    """"Its legal rout destination is the woods hex in GG7 and it must rout
    through the Open Ground Location in FF7 ... squad F has a clear,
    unobstructed LOS into FF7 and Interdicts the routing unit.\""""
    routs = full_routs(solve(EX2), "R")
    assert routs
    for f in routs:
        assert f["at"] == "GG7"
        assert f["path"][:2] == ["EE8", "FF7"]
        assert interdiction(f) == {"FF7": ["F"]}
        assert f["optional_interdiction"] == []


def test_ex2_squads_a_to_e_never_interdict():
    """A (LOS blocked by the EE8 woods), B (grain Hindrance in FF8), C (target
    selection limits), D (CX), E (wreck Hindrance in EE6): none Interdicts."""
    assert all_interdictors(solve(EX2), "R") == {"F"}


def test_ex2_low_crawl_into_ff7_escapes_interdiction():
    """A10.52: Low Crawl into FF7 cannot be Interdicted."""
    lc = [f for f in fates(solve(EX2), "R", "rout") if f["low_crawl"]]
    assert lc and all(f["at"] == "FF7" and not f["interdiction"] for f in lc)


def test_ex2_no_surrender_under_no_quarter():
    """The unit is ADJACENT to A but the Americans have invoked No Quarter
    (A20.3): no surrender, it routs."""
    r = solve(EX2)
    assert not fates(r, "R", "surrender")
    assert not fates(r, "R", "eliminated")


def test_ex2_without_no_quarter_it_surrenders_to_a():
    """The article's premise: without No Quarter the unit, ADJACENT to the
    Known, Good Order, armed squad A and able to rout away only through
    Interdiction or by Low Crawl, surrenders to A (A20.21)."""
    r = solve(EX2, lambda d: d.update(no_quarter=[]))
    surr = fates(r, "R", "surrender")
    assert surr and all(f["captor"] == "A" for f in surr)
    assert not fates(r, "R", "rout")


def _drop_wreck(d):
    d["map"]["terrain"]["EE6"] = "open"


def test_ex2_without_the_wreck_e_and_f_interdict():
    """"Assume the wreck is not there. In that case, squad E could also
    Interdict. Here, even though more than one unit can Interdict, the broken
    unit would only make one NMC in FF7.\""""
    routs = full_routs(solve(EX2, _drop_wreck), "R")
    assert routs
    for f in routs:
        assert f["at"] == "GG7"
        assert interdiction(f) == {"FF7": ["E", "F"]}  # FF7 once, two Interdictors


def test_ex2_c_interdicts_without_the_enemy_afv_in_its_location():
    """C is stopped only by the armed Known enemy unit in its Location."""
    def drop_afv(d):
        d["units"] = [u for u in d["units"] if u["id"] != "CV"]
    routs = full_routs(solve(EX2, drop_afv), "R")
    assert routs and all(interdiction(f) == {"FF7": ["C", "F"]} for f in routs)


def test_ex2_d_interdicts_when_not_cx():
    """D is stopped only by its CX status (A10.532)."""
    def not_cx(d):
        units_named(d, "D").pop("status")
    routs = full_routs(solve(EX2, not_cx), "R")
    assert routs and all(interdiction(f) == {"FF7": ["D", "F"]} for f in routs)


def test_ex2_b_interdicts_without_the_grain_in_ff8():
    """B is stopped only by the grain Hindrance in FF8 (A10.53: "without any
    form of LOS Hindrance")."""
    def no_grain(d):
        d["map"]["terrain"].pop("FF8")
    routs = full_routs(solve(EX2, no_grain), "R")
    assert routs and all(interdiction(f)["FF7"] == ["B", "F"] for f in routs)


# ==========================================================================
# Example 3
# ==========================================================================

def test_ex3_the_german_must_rout():
    u = unit(solve(EX3), "R")
    assert u["must_rout"] is True
    assert any(b["rule"] == "A10.5" and "SHERMAN" in b["says"] for b in u["because"])


def test_ex3_routs_to_cc5_through_dd5():
    """"its legal destination is CC5. It must go through DD5.\""""
    routs = full_routs(solve(EX3), "R")
    assert routs
    for f in routs:
        assert f["at"] == "CC5"
        assert f["path"][:2] == ["EE6", "DD5"]
        assert "DD5" in interdiction(f)


def test_ex3_no_low_crawl_out_of_the_shermans_location():
    """A10.52: "Low Crawl cannot be used to exit an enemy-occupied Location"."""
    assert not [f for f in fates(solve(EX3), "R") if f["low_crawl"]]


def test_ex3_squad_b_interdicts_in_dd5():
    """"Squad B can also Interdict." The pinned squad A cannot (A10.532)."""
    r = solve(EX3)
    for f in full_routs(r, "R"):
        assert "B" in interdiction(f)["DD5"]
    assert "A" not in all_interdictors(r, "R")


# The Sherman shares the German's starting Location EE6: the only reading in
# which the German may enter DD5, ADJACENT to the Sherman (A10.51 "unless in
# doing so it is leaving that enemy unit's Location"), and in which a pin in
# DD5 eliminates it for Failure to Rout, as the article says. Once the German
# has left EE6 the Sherman has no armed Known enemy unit in its Location, so
# target selection limits (Q&A) no longer stop it from Interdicting in DD5.

def test_ex3_interdiction_in_dd5_by_the_sherman_and_squad_b():
    """"Note the Sherman is CE allowing its MA to Interdict ... Squad B can
    also Interdict. The German unit must take a NMC in DD5.\""""
    routs = full_routs(solve(EX3), "R")
    assert routs
    direct = [f for f in routs if interdiction(f) == {"DD5": ["B", "SHERMAN"]}]
    assert direct
    for f in routs:
        assert interdiction(f)["DD5"] == ["B", "SHERMAN"]


def _bu(d):
    units_named(d, "SHERMAN")["status"] = ["bu"]


def test_ex3_buttoned_up_sherman_still_interdicts_with_its_cmg():
    """"Even if the Sherman was BU, its CMG could Interdict as its TCA covers
    DD5 and a BU DRM does not apply to the CMG.\""""
    routs = full_routs(solve(EX3, _bu), "R")
    assert routs
    for f in routs:
        assert interdiction(f)["DD5"] == ["B", "SHERMAN"]


def test_ex3_buttoned_up_sherman_with_tca_away_from_dd5_does_not_interdict():
    """BU (MA penalised) and a TCA that would have to change to fire into DD5
    (A10.532): no Interdiction by the Sherman; B still Interdicts.
    (The same rule without the target-selection question is tested in
    tests/test_interdiction_qa.py with the Sherman in its own hex.)"""
    def bu_away(d):
        s = units_named(d, "SHERMAN")
        s["status"] = ["bu"]
        s["tca"] = 3
    routs = full_routs(solve(EX3, bu_away), "R")
    assert routs
    for f in routs:
        assert interdiction(f)["DD5"] == ["B"]
    assert "SHERMAN" not in all_interdictors(solve(EX3, bu_away), "R")


def test_ex3_no_surrender_even_without_no_quarter():
    """The only ADJACENT enemy is the Sherman, and a vehicle takes no
    prisoners (A20.21: "armed enemy Infantry/Cavalry"): with or without No
    Quarter the German routs."""
    for r in (solve(EX3), solve(EX3, lambda d: d.update(no_quarter=[]))):
        assert not fates(r, "R", "surrender")
        assert full_routs(r, "R")


# ==========================================================================
# Example 4
# ==========================================================================

BROKEN = ("G467", "G468")


def test_ex4_both_broken_units_must_rout_one_at_a_time():
    """A10.5: broken units rout one at a time: one entry each; the unbroken
    9-2 has none of its own."""
    r = solve(EX4)
    ids = [u["id"] for u in r["units"]]
    assert sorted(ids) == sorted(BROKEN)
    assert all(unit(r, uid)["must_rout"] for uid in BROKEN)


def test_ex4_the_leader_may_accompany_either_broken_unit():
    """A10.711: "A non-berserk, non-pinned leader already stacked with a
    broken unit before it routs may elect to rout with the broken unit.\""""
    r = solve(EX4)
    for uid in BROKEN:
        assert unit(r, uid).get("voluntary_rout") == ["L92"]


def test_ex4_each_broken_unit_routs_to_dd7_or_dd8_interdicted_in_cc8():
    """"The broken units must rout to DD7/DD8 via CC8.\""""
    r = solve(EX4)
    for uid in BROKEN:
        routs = full_routs(r, uid)
        assert {f["at"] for f in routs} <= {"DD7", "DD8"}
        assert any(f["at"] == "DD7" and interdiction(f) == {"CC8": ["A", "B"]} for f in routs)
        assert any(f["at"] == "DD8" and interdiction(f) == {"CC8": ["A", "B"]} for f in routs)
        for f in routs:
            assert f["path"][:2] == ["BB8", "CC8"]
            assert "CC8" in interdiction(f)


def test_ex4_no_surrender_under_no_quarter():
    r = solve(EX4)
    for uid in BROKEN:
        assert not fates(r, uid, "surrender")


def test_ex4_without_no_quarter_the_stack_surrenders_to_a():
    """ADJACENT to the Known squad A and able to rout only through the
    Interdiction in CC8 (or by Low Crawl): without No Quarter each broken
    unit surrenders to A (A20.21)."""
    r = solve(EX4, lambda d: d.update(no_quarter=[]))
    for uid in BROKEN:
        surr = fates(r, uid, "surrender")
        assert surr and all(f["captor"] == "A" for f in surr)
        assert not fates(r, uid, "rout")


@pytest.mark.parametrize("status", ["pinned", "berserk"])
def test_ex4_pinned_or_berserk_leader_may_not_accompany(status):
    """A10.711: only a "non-berserk, non-pinned" leader may rout voluntarily."""
    r = solve(EX4, lambda d: units_named(d, "L92").update(status=[status]))
    for uid in BROKEN:
        assert not unit(r, uid).get("voluntary_rout")


# --- Example 6: "the whole CURRENT rout path" --------------------------------
EX6 = CASES / "phase/article-Ex6.yaml"


def test_ex6_no_surrender_at_the_start_though_bb5_is_reached_through_interdiction(run):
    """Where it begins, the 4-6-7 has an Interdiction-free path (through DD5 to
    CC5), so it does not surrender to B there, and BB5 (equidistant, 5 MF) is a
    legal destination too: it designates BB5 or CC5 and enters DD6."""
    r = run(EX6)
    fates = r.fates("G")
    assert not any(f["fate"] == "surrender" and f["at"] == "DD7" for f in fates)
    said = {b["says"] for f in fates for b in f["because"]}
    assert any("designates building/woods Location BB5 level 0, 5 MF away" in s for s in said) \
        or any("designates building/woods Location CC5 level 0, 5 MF away" in s for s in said)
    # "Each Location is 5 MFs away and the 4-6-7 must choose between them":
    # both are destination options where it begins (dest_option/3, A10.51).
    from asl_kb.asp.facts import position_facts
    from asl_kb.asp.solve import solve
    symbols, _ = solve(position_facts(load_position(EX6)) + "#show dest_option/3.")
    options = {str(x.arguments[2]) for x in symbols if x.name == "dest_option" and x.arguments[0].number == 0}
    assert options == {'c(loc("BB5",0))', 'c(loc("CC5",0))'}


def test_ex6_updated_reading_surrenders_to_c_in_dd6(run):
    """Entering DD6 it sees squad C, ADJACENT: BB5/CC5 can no longer be
    reached; re-figured with 4 MF left, every way to GG6 is Interdicted by B in
    FF5/FF6: "the German unit Surrenders to squad C" (or C rejects it)."""
    r = run(EX6)
    assert r.surrenders_only("G") and r.captors("G") == {"C"}
    f = [f for f in r.fates("G") if f["fate"] == "surrender"][0]
    assert f["at"] == "DD6" and f["path"] == ["DD7", "DD6"]
    said = " / ".join(b["says"] for b in f["because"])
    assert "in DD6 enemy unit C becomes Known" in said
    assert "every way out is Interdicted in FF5 (by B)" in said
    assert "every way out is Interdicted in FF6 (by B)" in said


def test_ex6_first_reading_surrenders_at_the_start_to_b(run):
    """The first reading of "the entire rout path" (before the 2022 answer):
    the unit has no rout from its ORIGINAL Location free of Interdiction, so it
    is "rewound back to its original Location and it surrenders" to B."""
    text = EX6.read_text().replace("rules: current", "rules: current\nreadings: {current_rout_path: off}")
    r = run(text)
    assert r.surrenders_only("G") and r.captors("G") == {"B"}
    assert {f["at"] for f in r.fates("G")} == {"DD7"}
    f = [f for f in r.fates("G") if f["fate"] == "surrender"][0]
    assert any(b["rule"] == "A20.21" and "first reading" in b["says"] for b in f["because"])


def test_ex6_panther_stopped_in_ee7_gives_an_interdiction_free_rout_to_gg6(run):
    """Had the Panther stopped in EE7, its Hindrance would leave a way to GG6
    free of Interdiction: the squad routs there and does not surrender."""
    text = EX6.read_text().replace("at: EE6, status: [bu]", "at: EE7, status: [bu]")
    r = run(text)
    assert "surrender" not in r.kinds("G")
    assert r.interdiction_sets("G", "GG6") >= {()}


def test_qa_what_does_entire_rout_path_refer_to_the_entire_current_rout_path(run):
    """Q&A: "What does 'entire rout path' refer to in the Q&A above? A. The
    entire current rout path." In Example 6 the surrender check is made again
    where the rout is re-figured (DD6), on the path from there."""
    r = run(EX6)
    assert {f["at"] for f in r.fates("G")} == {"DD6"}
