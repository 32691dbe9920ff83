"""Issue 10 (rout fidelity) — what the case files cannot say: bad input and
the voluntary_break_refused note. The rules questions themselves are the case
files facts/rout/flowchart-ends-closer.yaml, A10.5-forcing-not-interdicting.yaml,
note5-passengers-riders.yaml, note5-rider.yaml, A10.41-start-of-rtph*.yaml
(run by tests/rules/test_cases.py)."""

import re

import pytest

from asl_kb.engines.outcomes import outcomes
from asl_kb.errors import PositionError
from asl_kb.position.loader import load_position_text
from asl_kb.resources import cases_dir, rules_dir

HEAD = "name: t\nattacker: russian\n"
UNITS = "units:\n  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: L2, status: [broken]}\n"


def _switch_rules():
    """The rules with an erratum or a current-text reading (what `errata:` switches)."""
    text = (rules_dir() / "core" / "versions.lp").read_text()
    return set(re.findall(r'^(?:erratum|reading)\(\w+,\s*"([^"]+)"\)', text, re.M))


def test_unknown_erratum_is_a_key_error_listing_the_switched_rules():
    # issue 10.5: "errata: {A99.9: off} gives the same FILE:LINE: KEY error as an
    # unknown readings name, listing the rule ids that have switches"
    with pytest.raises(PositionError) as info:
        load_position_text(HEAD + "errata:\n  A99.9: off\n" + UNITS, "p.yaml")
    err = info.value
    assert (err.line, err.key) == (4, "errata.A99.9")
    listed = set(re.findall(r"A\d+\.\d+", err.message.split("(", 1)[1]))
    assert listed == _switch_rules() and "A99.9" not in listed


def test_an_own_words_reading_is_switched_by_name_not_by_errata():
    # A10.51 has only a text_reading (leave_building_toward_cover): `errata:`
    # switches errata and current-text readings, so it names no switch there
    with pytest.raises(PositionError) as info:
        load_position_text(HEAD + "errata:\n  A10.51: off\n" + UNITS, "p.yaml")
    assert (info.value.line, info.value.key) == (4, "errata.A10.51")
    pos = load_position_text(HEAD + "readings:\n  leave_building_toward_cover: on\n" + UNITS, "p.yaml")
    assert pos.readings == (("leave_building_toward_cover", True),)


def test_unknown_reading_is_the_same_kind_of_error():
    with pytest.raises(PositionError) as info:
        load_position_text(HEAD + "readings:\n  no_such_reading: off\n" + UNITS, "p.yaml")
    assert (info.value.line, info.value.key) == (4, "readings.no_such_reading")


@pytest.mark.parametrize("rule", sorted(_switch_rules()))
def test_every_switched_rule_is_accepted(rule):
    pos = load_position_text(HEAD + f"errata: {{{rule}: off}}\n" + UNITS, "p.yaml")
    assert pos.errata == ((rule, False),)


def test_prisoner_rides_with_its_guard():
    # A20.51: prisoners "may accompany them as Passengers/Riders"
    pos = load_position_text(
        HEAD
        + (
            "units:\n"
            "  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: L2, guard: G1, passenger_of: T1}\n"
            "  - {id: G1, side: german, type: squad, counter: 4-6-7, at: L2, passenger_of: T1}\n"
            "  - {id: T1, side: german, type: vehicle, at: L2}\n"
        ),
        "p.yaml",
    )
    by_id = {u.id: u for u in pos.units}
    assert by_id["R1"].passenger_of == by_id["G1"].passenger_of == "T1"


def test_voluntary_break_out_of_the_rtph_says_so():
    # issue 10.4 / A10.41 "at the start of the RtPh"
    path = cases_dir() / "rout" / "A10.41-start-of-rtph.yaml"
    pos = load_position_text(path.read_text(), str(path))
    r = outcomes(pos, voluntary_break=True).to_json()
    assert r["voluntary_break"] == []
    assert [b["rule"] for b in r["voluntary_break_refused"]] == ["A10.41"]
    rout_pos = load_position_text(path.read_text().replace("phase: close_combat", "phase: rout"), str(path))
    r = outcomes(rout_pos, voluntary_break=True).to_json()
    assert "voluntary_break_refused" not in r
    assert {u["id"] for u in r["voluntary_break"] if u["may_break"]} == {"R2"}
