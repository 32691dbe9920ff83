"""A10.41 Voluntary Break and its Q&A: a unit may break voluntarily only if,
broken, it could rout; not if that would mean surrender or elimination."""
from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position_text

POSITION = """
name: voluntary break
attacker: russian
map: {area: [A1, P10], terrain: {H2: woods, C5: woods}}
units:
  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: F4}
  - {id: R2, side: russian, type: squad, counter: 4-4-7, at: B5}
  - {id: R3, side: russian, type: squad, counter: 4-4-7, at: P10}
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: F6}
  - {id: G2, side: german, type: squad, counter: 4-6-7, at: A5}
  - {id: G3, side: german, type: squad, counter: 4-6-7, at: B6}
  - {id: G4, side: german, type: squad, counter: 4-6-7, at: C6}
"""


def vb(text=POSITION):
    r = outcomes(load_position_text(text, "<test>"), voluntary_break=True)
    return {u["id"]: u for u in r["voluntary_break"]}


def test_unit_in_los_and_normal_range_of_a_known_enemy_may_break_to_rout():
    u = vb()["R1"]
    assert u["may_break"]
    assert any(f["fate"] == "rout" and f["at"] == "H2" for f in u["fates"])
    assert any(b["rule"] == "A10.41" and "G1" in b["says"] for b in u["because"])


def test_qa_may_a_unit_voluntarily_break_if_it_will_result_in_their_immediate_surrender():
    """Q&A (A10.41 & A20.21): "No, since that could result in their immediate
    elimination". R2 in B5 is ADJACENT to three Germans: broken, it could only
    surrender."""
    u = vb()["R2"]
    assert not u["may_break"]
    assert {(f["fate"], f.get("cause")) for f in u["fates"]} == {("surrender", None), ("eliminated", "no_quarter")}


def test_a_unit_out_of_los_and_range_and_not_adjacent_is_not_asked():
    units = vb()
    assert "R3" not in units  # P10: nothing in LOS and Normal Range, nothing ADJACENT


def test_berserk_and_heroes_cannot_break():
    text = POSITION.replace("at: F4}", "at: F4, status: [berserk]}")
    assert "R1" not in vb(text)


def test_without_the_option_no_voluntary_break_section():
    r = outcomes(load_position_text(POSITION, "<test>"))
    assert "voluntary_break" not in r and r["units"] == []
