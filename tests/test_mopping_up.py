"""A12.153 Mopping Up (A20.23) and the Q&A on units that cannot surrender by
the RtPh method; the article's Example 12."""

EX12 = """
name: article Example 12 (Mopping Up)
notes: >
  Reconstructed: a multi-story building BB4-BB5 (stairwell in BB4); a broken
  German squad upstairs in BB5, an American squad on the ground floor of BB4.
attacker: american
mopping_up: [BB4]
map:
  area: [W1, GG10]
  terrain: {BB4: {terrain: stone_building, building: b1}, BB5: {terrain: stone_building, building: b1}}
  levels: {BB4: 1, BB5: 1}
units:
  - {id: GER, side: german, type: squad, counter: 4-6-7, at: "BB5@1", status: [broken%(extra)s]}
  - {id: AM1, side: american, type: squad, counter: 6-6-6, at: BB4}
  - {id: AM2, side: american, type: squad, counter: 6-6-6, at: Y4}
%(hidden)s"""


def ex12(extra="", hidden=""):
    return EX12 % {"extra": extra, "hidden": hidden}


def test_example_12_broken_unit_surrenders_to_a_unit_inside_the_building(run):
    r = run(ex12())
    assert [(f["fate"], f["captor"]) for f in r.fates("GER")] == [("surrender", "AM1")]
    assert any(b["rule"] == "A12.153" for b in r.fates("GER")[0]["because"])


def test_qa_mopping_up_units_that_cannot_surrender_by_the_rtph_method_still_surrender(run):
    """Q&A: "They Surrender (the Surrender limitation is only on RtPh
    Surrender.). Doesn't matter [what level]"."""
    r = run(ex12(extra=", fanatic"))
    assert [f["fate"] for f in r.fates("GER")] == ["surrender"]


def test_a_concealed_unit_in_the_building_prevents_the_surrender(run):
    hidden = "  - {id: GER2, side: german, type: squad, counter: 4-6-7, at: BB5, status: [concealed]}\n"
    r = run(ex12(hidden=hidden))
    assert "surrender" not in r.kinds("GER")


def test_mopping_up_surrender_is_not_rejected_as_a_rtph_surrender(run):
    r = run(ex12())
    assert not any(f.get("cause") == "no_quarter" for f in r.fates("GER"))


def test_qa_when_a_mopped_up_building_only_contains_units_that_cannot_surrender_ss_vs_russians_they_surrender_at_any_level(run):
    """Q&A (A12.153 & A20.21): "When a building that is being Mopped-Up only
    contains enemy broken units which cannot surrender as per A20.21 (i.e., SS
    vs. Russian), do they still surrender when Mopped-Up? What if they're in an
    upper-level location? A. They Surrender ... Doesn't matter." (upstairs, BB5@1)"""
    text = ex12().replace("status: [broken]}", "status: [broken], nationality: ss}").replace(
        "side: american,", "side: american, nationality: russian,")
    r = run(text)
    assert [(f["fate"], f["captor"], f["at"]) for f in r.fates("GER")] == [("surrender", "AM1", "BB5@1")]


def test_mopped_up_surrenders_beyond_the_guards_capacity_free_the_excess(run):
    """A12.153 with A20.21/A20.51: a Mopping Up surrender (never rejected, so
    tied to the others only through its Guard: phase_reads/2) counts against
    its captor's capacity; a lone leader (US# 1, up to 5) cannot hold two
    squads (US# 6): one of them is freed as Unarmed (captor's choice)."""
    text = ex12().replace(
        "  - {id: AM1, side: american, type: squad, counter: 6-6-6, at: BB4}",
        "  - {id: AM1, side: american, type: leader, counter: 8-1, at: BB4}\n"
        "  - {id: GER2, side: german, type: squad, counter: 4-6-7, at: \"BB5@1\", status: [broken]}")
    r = run(text)
    for unit in ("GER", "GER2"):
        assert {f["fate"] for f in r.fates(unit)} == {"surrender", "freed"}, unit
