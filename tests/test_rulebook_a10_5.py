"""A10.5 EX: the broken Russian in 5L2 routs away from M2 and K2, discovers the
German in K4 from L3, and may end in M4 or go on to N3 or N4."""
import pytest

EX = "rout/A10.5-EX.yaml"


def test_must_rout_because_adjacent_to_known_enemies(run):
    r = run(EX)
    u = r.units["R1"]
    assert u["must_rout"]
    says = " ".join(b["says"] for b in u["because"])
    assert "G1" in says and "G2" in says  # M2 and K2 are ADJACENT
    assert "G3" not in says               # K4 is not Known yet from L2


def test_routs_to_l3_then_m4_n3_or_n4(run):
    r = run(EX)
    ends = r.routs("R1")
    assert {"M4", "N3", "N4"} <= ends
    # every rout goes through L3: the only step not ADJACENT to M2/K2
    assert all(f["path"][1] == "L3" for f in r.fates("R1") if f["fate"] == "rout")


def test_cannot_remain_in_l3_adjacent_to_the_discovered_unit(run):
    r = run(EX)
    assert "L3" not in r.routs("R1")
    assert "L4" not in r.routs("R1")      # ADJACENT to K4
    assert r.kinds("R1") == {"rout"}


@pytest.mark.parametrize("german_in", ["L3", "L4"])
def test_german_in_l3_or_l4_leaves_no_rout_so_it_surrenders(run, german_in):
    """"If the German unit were in L3 or L4 instead of K4 the broken unit would
    be unable to rout away without moving ADJACENT ... eliminated or captured"."""
    from dataclasses import replace
    from asl_kb.position.loader import load_position
    from asl_kb.engines.outcomes import outcomes
    from conftest import FACTS, Result
    p = load_position(FACTS / EX)
    units = tuple(replace(u, hex=german_in) if u.id == "G3" else u for u in p.units)
    r = Result(outcomes(replace(p, units=units)))
    assert r.surrenders_only("R1")
    assert r.captors("R1") >= {"G1", "G2"}


def test_under_no_quarter_it_is_eliminated_for_failure_to_rout(run):
    from dataclasses import replace
    from asl_kb.position.loader import load_position
    from asl_kb.engines.outcomes import outcomes
    from conftest import FACTS, Result
    p = load_position(FACTS / EX)
    units = tuple(replace(u, hex="L4") if u.id == "G3" else u for u in p.units)
    r = Result(outcomes(replace(p, units=units, no_quarter=("german",))))
    assert [f["fate"] for f in r.fates("R1")] == ["eliminated"]
    f = r.fates("R1")[0]
    assert f["cause"] == "failure_to_rout" and f["at"] == "L2"
    assert any(b["rule"] == "A20.3" for b in f["because"])


BLAZE = """
name: blaze and pillbox
attacker: russian
map: {area: [A1, K10], terrain: {E5: [open, %s], G5: woods}}
units:
  - {id: R, side: russian, type: squad, counter: 4-4-7, at: E5, status: [broken]}
"""


def test_a_broken_unit_must_rout_only_if_in_a_blaze_when_no_enemy_is_near(run):
    """A10.5: "Otherwise, a broken unit must rout only if in a Blaze"."""
    r = run(BLAZE % "blaze")
    assert r.units["R"]["must_rout"] and "stay" not in r.kinds("R")
    r = run(BLAZE % "wreck")
    assert not r.units["R"]["must_rout"] and r.kinds("R") == {"stay"}


def test_broken_units_in_a_pillbox_are_never_forced_to_rout(run):
    """Surrender Check note 12, even ADJACENT to a Known enemy."""
    text = (BLAZE % "pillbox") + "  - {id: G, side: german, type: squad, counter: 4-6-7, at: D5}\n"
    r = run(text)
    assert not r.units["R"]["must_rout"]
    assert "stay" in r.kinds("R")
