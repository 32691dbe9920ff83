"""A15.5 Heat of Battle surrender, as A20.21 and the prisoners article read it:
a Final HOB DR >= 12 (>= 10 for non-elite Italians and Axis Minors) breaks and
Disrupts the unit, which surrenders at once to an ADJACENT Known, Good Order,
armed enemy Infantry unit (captor's choice); a unit that will not surrender
by the RtPh method, or faces No Quarter, goes berserk instead."""
import pytest

from conftest import FACTS

EX8 = (FACTS / "immediate/article-Ex8.yaml").read_text()


def hob(r, unit="G838"):
    entry = [u for u in r.raw["heat_of_battle"] if u["id"] == unit][0]
    return [(f["fate"], f.get("captor")) for f in entry["fates"]]


def test_ex8_hob_surrender_under_no_quarter_turns_berserk(run):
    r = run("immediate/article-Ex8.yaml")
    assert hob(r) == [("berserk", None)]
    said = [b["says"] for b in r.raw["heat_of_battle"][0]["fates"][0]["because"]]
    assert any("goes berserk instead" in s for s in said)
    assert any("has invoked No Quarter" in s for s in said)


def test_ex8_without_no_quarter_surrenders_to_an_adjacent_unit_americans_choice(run):
    """Current A20.3: the captor may also reject "a RtPh/Disrupted surrendering
    unit" — the HOB surrender leaves it Disrupted."""
    r = run(EX8.replace("no_quarter: [american]", "no_quarter: []"))
    assert hob(r) == [("surrender", "A"), ("surrender", "B"), ("eliminated", "A"), ("eliminated", "B")]
    rejected = r.raw["heat_of_battle"][0]["fates"][2]
    assert rejected["invokes_no_quarter"] == "american"


def test_prior_a20_3_rejects_only_a_rtph_surrender(run):
    r = run(EX8.replace("no_quarter: [american]", "no_quarter: []"), rules="prior")
    assert hob(r) == [("surrender", "A"), ("surrender", "B")]


@pytest.mark.parametrize("dr, nationality, klass, surrenders", [
    (11, "german", "elite", False),
    (10, "italian", "first_line", True),
    (10, "italian", "elite", False),
    (10, "hungarian", "second_line", True),
    (11, "romanian", "elite", False),
    (12, "romanian", "elite", True),
])
def test_surrender_threshold_12_or_10_for_non_elite_italians_and_axis_minors(run, dr, nationality, klass, surrenders):
    text = EX8.replace("no_quarter: [american]", "no_quarter: []").replace(
        "class: elite", f"class: {klass}, nationality: {nationality}").replace("heat_of_battle: 12", f"heat_of_battle: {dr}")
    fates = {f for f, _ in hob(run(text))}
    assert ("surrender" in fates) == surrenders
    if not surrenders:
        assert fates == {"no_surrender"}


@pytest.mark.parametrize("nationality", ["japanese", "partisan", "gurkha"])
def test_units_that_never_surrender_go_berserk(run, nationality):
    text = EX8.replace("no_quarter: [american]", "no_quarter: []").replace(
        "class: elite", f"class: elite, nationality: {nationality}")
    assert hob(run(text)) == [("berserk", None)]


def test_ss_facing_russians_go_berserk(run):
    text = EX8.replace("no_quarter: [american]", "no_quarter: []").replace(
        "class: elite", "class: elite, nationality: ss").replace("side: american,", "side: american, nationality: russian,")
    assert hob(run(text)) == [("berserk", None)]


def test_no_adjacent_captor_leaves_it_broken_and_disrupted(run):
    text = EX8.replace("no_quarter: [american]", "no_quarter: []").replace("at: T4}", "at: T2}").replace("at: U5}", "at: X5}")
    assert hob(run(text)) == [("broken_disrupted", None)]


def test_only_adjacent_captor_berserk_cannot_take_prisoners(run):
    """A berserk unit cannot take prisoners (A20.2): with only berserk units
    ADJACENT there is no one to surrender to."""
    text = EX8.replace("no_quarter: [american]", "no_quarter: []").replace(
        "at: T4}", "at: T4, status: [berserk]}").replace("at: U5}", "at: U5, status: [berserk]}")
    assert hob(run(text)) == [("broken_disrupted", None)]
