"""A20.21/A20.3 points the result model says only in an explanation's wording
(both reasons sit under a rule id, A20.3 / A20.21, that other reasons of the
same fate share, so a case cannot tell them apart by rule id). Everything else
of the RtPh surrender is a case: facts/rout/A20.21-surrender.yaml,
A19.12-disrupted.yaml, A20.3-rejected-leader.yaml, facts/immediate/A19.12-entered.yaml.
Move these into the case when explanations carry structured reasons."""

BASE = """
name: surrender test
attacker: german
map: {area: [A1, M10], terrain: {G5: woods, C5: {terrain: open, features: [minefield]}}}
units:
  - {id: R, side: russian, type: squad, counter: 4-4-7, at: C5, status: [broken]}
  - {id: G, side: german, type: squad, counter: 4-6-7, at: B5}
"""


def test_a20_3_rejected_unit_does_not_count_toward_the_casualty_tally_and_a20_21_no_ffe_on_surrender(run):
    r = run(BASE)
    rej = [f for f in r.fates("R") if f["fate"] == "eliminated"][0]
    assert any("Casualty Tally" in b["says"] for b in rej["because"])
    sur = [f for f in r.fates("R") if f["fate"] == "surrender"][0]
    assert any(b["rule"] == "A20.21" and "not subject to the FFE/minefield" in b["says"] for b in sur["because"])
