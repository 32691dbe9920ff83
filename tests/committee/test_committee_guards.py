"""Scopes that place Guards with their prisoners (`prisoners:` on a unit
kind, A20.5): `search diff` tells the readings of A20.52 (scope guards),
A20.4, A20.55 and A20.551 (scope prisoners) apart at a minimal position,
which `asl-kb diff` replays."""

import pytest

from asl_kb.committee.enumerate import candidates, to_yaml
from asl_kb.committee.scope import SCOPES_DIR, load_scope, scope_from_text
from asl_kb.errors import PositionError
from asl_kb.position.loader import load_position_text
from test_committee_diff import assert_replayed, one_witness


def _scope_text() -> str:
    """The shipped `guards` scope with no margin: the same positions, each a
    fraction of the cost (a rout of six MF is cut by the map's edge, which
    changes nothing about who may Interdict)."""
    return (SCOPES_DIR / "guards.yaml").read_text().replace("margin: 7", "margin: 0")


def test_a_kind_with_prisoners_places_them_in_the_guards_location():
    s = load_scope("guards")
    guarded = [c for c in candidates(s) if any(s.specs[i].carried for _, i in c.units)]
    assert guarded
    p = load_position_text(to_yaml(s, guarded[0]), "x.yaml")
    prisoners = [u for u in p.units if u.guard]
    assert prisoners
    for u in prisoners:
        guard = next(g for g in p.units if g.id == u.guard)
        assert (u.hex, u.level) == (guard.hex, guard.level) and u.side != guard.side


def test_guard_outnumbered_found_at_a_minimal_position_replayed_by_diff(capsys, tmp_path):
    scope = tmp_path / "guards.yaml"
    scope.write_text(_scope_text())
    out = tmp_path / "witnesses"
    _, w = one_witness(capsys, "--switch", "guard_outnumbered", "--scope", str(scope), "--out", str(out))
    # three units (a broken squad, a Guard with its prisoner), no terrain
    assert (w["units"], w["non_open"]) == (3, 0)
    position = load_position_text(open(w["file"]).read(), w["file"])
    assert any(u.guard for u in position.units) and any("broken" in u.status for u in position.units)
    # A20.52: the Guard (US# 3) holds a half-squad (US# 2): under the current
    # text it may Interdict, under the prior one (restricted unless its US# is
    # <= theirs) it may not -- routs with Interdiction vanish
    assert any("Interdiction" in e["outcome"] for e in w["vanished"])
    assert all(
        c == {"switch": "guard_outnumbered", "rule": "A20.52"}
        for e in w["vanished"] + w["appeared"]
        for c in e["caused_by"]
    )
    assert_replayed(capsys, w, "--switch", "guard_outnumbered")


BAD = """\
name: bad
map: {centre: P15, radius: 1}
units:
  count: 2
  kinds:
    - {type: squad, counter: 4-4-7, side: russian, status: [broken]}
    - {type: squad, counter: 4-6-7, side: german, prisoners: [PRISONER]}
attacker: german
"""


@pytest.mark.parametrize(
    "prisoner, key",
    [
        ("{type: squad, counter: 4-4-7}", "units.kinds[1].prisoners[0].side"),
        ("{type: tank, side: russian}", "units.kinds[1].prisoners[0].type"),
        ("{type: squad, side: russian, colour: red}", "units.kinds[1].prisoners[0].colour"),
    ],
)
def test_bad_prisoners_file_line_key(prisoner, key):
    with pytest.raises(PositionError) as e:
        scope_from_text(BAD.replace("PRISONER", prisoner), "bad.yaml")
    assert (e.value.file, e.value.line, e.value.key) == ("bad.yaml", 7, key)


@pytest.mark.parametrize(
    "switch, rule",
    [
        ("massacre_in_location", "A20.4"),  # a berserk Guard with its prisoners
        ("escape_unbroken_guard_in_melee", "A20.55"),  # prisoners of a Guard in Melee, CCPh
        ("escaped_smc_armed", "A20.551"),  # an escaping leader, CCPh
    ],
)
def test_prisoners_readings_found_in_the_prisoners_scope_and_replayed(capsys, tmp_path, switch, rule):
    scope = tmp_path / "prisoners.yaml"
    scope.write_text((SCOPES_DIR / "prisoners.yaml").read_text().replace("margin: 7", "margin: 1"))
    _, w = one_witness(capsys, "--switch", switch, "--scope", str(scope), "--out", str(tmp_path / "w"))
    # two units: a Guard and its prisoner in one Location
    assert (w["units"], w["non_open"]) == (2, 0)
    position = load_position_text(open(w["file"]).read(), w["file"])
    assert [u.guard for u in position.units if u.guard] == ["U1"]
    assert all(c == {"switch": switch, "rule": rule} for e in w["vanished"] + w["appeared"] for c in e["caused_by"])
    assert_replayed(capsys, w, "--switch", switch)
