"""A20.21 RtPh surrender and the A20.3 rejection, as far as the Rout Phase
figures them for one unit (the whole-phase sequence is not covered here)."""
import pytest

BASE = """
name: surrender test
attacker: german
map: {area: [A1, M10], terrain: {G5: woods}}
units:
  - {id: R, side: russian, type: squad, counter: 4-4-7, at: C5, status: [broken%(rstatus)s]%(rnat)s%(rsw)s}
  - {id: G, side: german, type: squad, counter: 4-6-7, at: B5%(gnat)s}
"""


def pos(rstatus="", rnat="", rsw="", gnat=""):
    return BASE % {"rstatus": rstatus, "rnat": rnat, "rsw": rsw, "gnat": gnat}


def test_surrenders_when_every_way_out_is_interdicted(run):
    """C5 is ADJACENT to the 4-6-7 in B5; all around is Open Ground in its LOS
    and Normal Range: it surrenders to it, or the captor rejects it (A20.3)."""
    r = run(pos())
    assert r.surrenders_only("R") and r.captors("R") == {"G"}
    rejected = [f for f in r.fates("R") if f["fate"] == "eliminated"][0]
    assert rejected["cause"] == "no_quarter" and rejected["invokes_no_quarter"] == "german"
    assert rejected["at"] == "C5"  # Q&A: a rejected unit is eliminated in its own Location


def test_qa_surrendering_unit_first_abandons_its_sw(run):
    r = run(pos(rsw=", sw: [lmg]"))
    f = [f for f in r.fates("R") if f["fate"] == "surrender"][0]
    assert any(b["rule"] == "A20.21" and "lmg" in b["says"] for b in f["because"])
    assert f["abandons"] == [{"sw": "lmg", "at": "C5"}] and f["guard"] == "G"


def test_a_pinned_unit_keeps_its_sw(run):
    r = run(pos(rstatus=", pinned", rsw=", sw: [lmg]"))
    f = [f for f in r.fates("R") if f["fate"] == "surrender"][0]
    assert not any("lmg" in b["says"] for b in f["because"])


@pytest.mark.parametrize("nationality", ["japanese", "partisan", "gurkha", "turkish"])
def test_units_that_never_surrender_by_the_rtph_method(run, nationality):
    """A20.21: they "always use Low Crawl or risk Interdiction ... If unable to
    do any of these, they are eliminated rather than surrender"."""
    r = run(pos(rnat=f", nationality: {nationality}"))
    kinds = r.kinds("R")
    assert "surrender" not in kinds and "rout" in kinds
    assert any(f["low_crawl"] for f in r.fates("R")) or any(f["interdiction"] for f in r.fates("R"))


def test_fanatics_never_surrender(run):
    r = run(pos(rstatus=", fanatic"))
    assert "surrender" not in r.kinds("R")


def test_ss_never_surrender_to_russians_but_do_to_others(run):
    ss_vs_russian = BASE.replace("side: russian", "side: allies").replace("side: german", "side: russian2") % {
        "rstatus": "", "rnat": ", nationality: ss", "rsw": "", "gnat": ", nationality: russian"}
    r = run(ss_vs_russian.replace("attacker: german", "attacker: russian2"))
    assert "surrender" not in r.kinds("R")
    ss_vs_american = ss_vs_russian.replace("nationality: russian", "nationality: american")
    r = run(ss_vs_american.replace("attacker: german", "attacker: russian2"))
    assert r.surrenders_only("R")


def test_no_quarter_side_gets_no_surrender_and_the_unit_risks_interdiction(run):
    text = pos().replace("attacker: german", "attacker: german\nno_quarter: [german]")
    r = run(text)
    assert "surrender" not in r.kinds("R")
    assert any(f["fate"] == "rout" for f in r.fates("R"))


DISRUPTED = """
name: disrupted
attacker: german
map: {area: [A1, M10], terrain: {H5: woods}}
units:
  - {id: R, side: russian, type: squad, counter: 4-4-7, at: E5, status: [broken, disrupted]}
  - {id: G, side: german, type: squad, counter: 4-6-7, at: E5%s}
"""


def test_disrupted_unit_in_the_location_of_a_good_order_enemy_surrenders(run):
    """A19.12 / Surrender Check note 9."""
    r = run(DISRUPTED % "")
    assert r.surrenders_only("R") and r.captors("R") == {"G"}
    f = [f for f in r.fates("R") if f["fate"] == "surrender"][0]
    assert f["at"] == "E5"


def test_qa_disrupted_units_do_not_surrender_to_unarmed_units(run):
    """Q&A A19.12: "Do disrupted units Surrender to ADJACENT, known, Unarmed
    Units? No"."""
    r = run(DISRUPTED.replace("at: E5%s}", "at: D5, status: [unarmed]}"))
    assert "surrender" not in r.kinds("R")


def test_qa_disrupted_unit_entered_under_no_quarter_routs_in_its_rtph(run):
    """Q&A: under No Quarter it is not eliminated when entered; "It routs away
    as normal during its RtPh (or is eliminated for failure to rout)" — and a
    Disrupted unit may never Low Crawl."""
    text = (DISRUPTED % "").replace("attacker: german", "attacker: german\nno_quarter: [german]")
    r = run(text)
    assert "surrender" not in r.kinds("R")
    assert r.kinds("R") <= {"rout", "eliminated"}
    assert not any(f["low_crawl"] for f in r.fates("R"))


LEADER = """
name: leader rejected
attacker: german
map: {area: [A1, M10], terrain: {G5: woods}}
units:
  - {id: RL, side: russian, type: leader, counter: 8-1, at: C5, status: [broken]}
  - {id: RS, side: russian, type: squad, counter: 4-4-7, at: C5}
  - {id: G, side: german, type: squad, counter: 4-6-7, at: B5}
"""


def test_qa_broken_leader_rejected_under_no_quarter_is_eliminated_in_its_current_location_causing_a_llmc(run):
    """Q&A (A10.2, A20.21 & A20.3): the broken leader, stacked with a squad of
    lower morale and ADJACENT to a Good Order Known enemy, must surrender; the
    enemy declares No Quarter: a) it is eliminated in its current Location,
    causing a LLMC on the accompanying squad. A surrendering leader causes none."""
    r = run(LEADER)
    rejected = [f for f in r.fates("RL") if f["fate"] == "eliminated"][0]
    assert rejected["cause"] == "no_quarter" and rejected["at"] == "C5"
    assert rejected["llmc"] == ["RS"]
    taken = [f for f in r.fates("RL") if f["fate"] == "surrender"][0]
    assert "llmc" not in taken
    assert any(b["rule"] == "A20.21" and "causes no LLMC" in b["says"] for b in taken["because"])


def test_a_rejected_leader_causes_no_llmc_to_a_higher_morale_unit(run):
    r = run(LEADER.replace("counter: 4-4-7, at: C5", "counter: 6-5-8, at: C5").replace("8-1", "7-0"))
    rejected = [f for f in r.fates("RL") if f["fate"] == "eliminated"][0]
    assert "llmc" not in rejected


@pytest.mark.parametrize("captor", [
    "status: [berserk]",
    "status: [melee]",
])
def test_only_adjacent_enemy_cannot_take_prisoners_so_the_unit_routs_or_is_eliminated_without_no_quarter(run, captor):
    """A20.21: "If the only adjacent armed enemy unit is in Melee/berserk/
    vehicular, the broken unit must rout away (even if Disrupted) or be
    eliminated for Failure to Rout—such elimination does not incur No Quarter
    penalties.\""""
    r = run(BASE.replace("at: B5%(gnat)s}", f"at: B5, {captor}}}") % {"rstatus": ", disrupted", "rnat": "", "rsw": ""})
    assert "surrender" not in r.kinds("R")
    assert not any("invokes_no_quarter" in f for f in r.fates("R"))
    assert r.kinds("R") <= {"rout", "eliminated"}


def test_only_adjacent_enemy_a_vehicle_no_surrender(run):
    text = BASE.replace(
        "{id: G, side: german, type: squad, counter: 4-6-7, at: B5%(gnat)s}",
        "{id: G, side: german, type: vehicle, at: B5, status: [ce], armament: [{kind: ma, range: 16}]}")
    r = run(text % {"rstatus": "", "rnat": "", "rsw": ""})
    assert "surrender" not in r.kinds("R")
    ftr = [f for f in r.fates("R") if f["fate"] == "eliminated"]
    assert all(f["cause"] == "failure_to_rout" and "invokes_no_quarter" not in f for f in ftr)


def test_a20_551_unarmed_unit_in_the_location_of_a_unit_surrendering_to_its_side_may_rearm(run):
    """A20.551: "An unarmed unit in the same Location with an armed enemy unit
    that surrenders to a friendly armed unit can be immediately rearmed"."""
    text = pos() + "  - {id: GU, side: german, type: squad, counter: (1)-0-6, at: C5, status: [escaped]}\n"
    r = run(text)
    f = [f for f in r.fates("R") if f["fate"] == "surrender"][0]
    assert any(b["rule"] == "A20.551" and "GU" in b["says"] for b in f["because"])


ENTERED = DISRUPTED.replace("name: disrupted", "name: disrupted entered\nphase: movement")


def dis(r):
    return [(f["fate"], f.get("captor")) for f in r.raw["disrupted"][0]["fates"]]


def test_a19_12_disrupted_unit_entered_by_good_order_enemy_surrenders_at_once_in_any_phase(run):
    r = run(ENTERED % "")
    assert dis(r) == [("surrender", "G"), ("eliminated", "G")]


def test_prior_a20_3_does_not_let_a_disrupted_surrender_outside_the_rtph_be_rejected(run):
    assert dis(run(ENTERED % "", rules="prior")) == [("surrender", "G")]


def test_qa_if_a_unit_is_disrupted_and_no_quarter_is_in_effect_is_it_immediately_eliminated_when_entered(run):
    """Q&A: "If a unit is disrupted and No Quarter is in effect, what happens
    to the disrupted unit if an enemy unit moves into its location during the
    MPh? Is it immediately eliminated? A. No." It routs in its RtPh."""
    text = (ENTERED % "").replace("attacker: german", "attacker: german\nno_quarter: [german]")
    assert dis(run(text)) == [("routs_in_its_rtph", None)]


def test_a20_3_rejected_unit_does_not_count_toward_the_casualty_tally_and_a20_21_no_ffe_on_surrender(run):
    text = pos().replace("map: {area: [A1, M10], terrain: {G5: woods}}",
                         "map: {area: [A1, M10], terrain: {G5: woods, C5: {terrain: open, features: [minefield]}}}")
    r = run(text)
    rej = [f for f in r.fates("R") if f["fate"] == "eliminated"][0]
    assert any("Casualty Tally" in b["says"] for b in rej["because"])
    sur = [f for f in r.fates("R") if f["fate"] == "surrender"][0]
    assert any(b["rule"] == "A20.21" and "not subject to the FFE/minefield" in b["says"] for b in sur["because"])
