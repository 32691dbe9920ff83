"""Valid position files load into exactly the values written."""

from __future__ import annotations

import textwrap

import pytest

from asl_kb.position import counters
from asl_kb.errors import PositionError
from asl_kb.position.loader import (
    FrozenMap,
    HexTerrain,
    Position,
    Unit,
    Weapon,
    load_position,
    load_position_text,
)

FULL = textwrap.dedent("""\
    name: A10.5 EX
    rules: prior
    errata: {A20.3: off, A20.55: Yes}
    phase: rout
    attacker: russian
    no_quarter: [german]
    notes: "map reconstructed from the rulebook drawing"
    expect:
      source: A10.5 EX
      units: {R1: {fates: [{fate: rout, at: [L3, "M2@1"]}]}}
      phase: {count: 3}
    map:
      board: 5
      default_terrain: grain
      area: [J0, P10]
      terrain:
        M7: building
        J1: woods
        5K2: open
        L3: [open, foxhole, smoke]
        K5: {elevation: 1}
        M2: {terrain: stone_building, building: b1}
        N3: {terrain: woods, features: [wire], elevation: -1}
      levels: {5M2: 2}
      smoke: [K4]
    los:
      blocked: [[J1, L1]]
      clear: [[K2, "5M2@1"]]
      hindrance: [[O5, "N3@0", 2]]
    units:
      - {id: R1, side: russian, type: squad, counter: 4-4-7, at: L2, status: [broken, dm]}
      - {id: G1, side: german, type: leader, counter: 9-1, at: "M2@1", sw: [lmg], status: [wounded]}
      - id: G2
        side: german
        type: half-squad
        counter: 2-6-7
        at: 5K2
        status: [cx]
        sw: [{kind: MMG, fp: 5}, ft]
        nationality: ss
      - {id: T1, side: american, type: vehicle, at: O4, status: [ce], vca: 1, tca: 2,
         armament: [{kind: ma, range: 20}, {kind: cmg, fp: 3}, bmg]}
      - {id: A1, side: american, type: gun, counter: 57L AT, at: N3, fp: 4, range: 12, ca: 3}
      - {id: U1, side: russian, type: unarmed, counter: (1)-0-6, at: M7, morale: 7}
    """)


@pytest.fixture
def full() -> Position:
    return load_position_text(FULL, "full.yaml")


def test_top_level_fields(full):
    assert full.file == "full.yaml"
    assert full.name == "A10.5 EX"
    assert full.rules == "prior"
    assert full.errata == (("A20.3", False), ("A20.55", True))
    assert full.erratum("A20.3") is False and full.erratum("A20.55") is True
    assert full.erratum("B1.1", default=True) is True
    assert full.phase == "rout"
    assert full.attacker == "russian"
    assert full.no_quarter == ("german",)
    assert full.notes == "map reconstructed from the rulebook drawing"
    # expect stays plain data; the numbers stay strings like every scalar.
    assert full.expect == {
        "source": "A10.5 EX",
        "units": {"R1": {"fates": [{"fate": "rout", "at": ["L3", "M2@1"]}]}},
        "phase": {"count": "3"},
    }


def test_map(full):
    assert full.board == "5"
    assert full.area == ("J0", "P10")
    assert full.default_terrain == "grain"
    assert list(full.terrain) == ["M7", "J1", "K2", "L3", "K5", "M2", "N3"]
    assert full.terrain["M7"] == HexTerrain("building", (), 0, None)
    assert full.terrain["L3"] == HexTerrain("open", ("foxhole", "smoke"), 0, None)
    assert full.terrain["K5"] == HexTerrain("grain", (), 1, None)  # map default terrain
    assert full.terrain["M2"] == HexTerrain("stone_building", (), 0, "b1")
    assert full.terrain["N3"] == HexTerrain("woods", ("wire",), -1, None)
    assert full.terrain_of("O9") == HexTerrain("grain", (), 0, None)
    assert full.levels == {"M2": 2}
    assert full.levels_of("M2") == 2 and full.levels_of("M7") == 0
    assert full.smoke == ("K4",)


def test_los_overrides(full):
    assert full.los_blocked == (("J1", "L1"),)
    assert full.los_clear == (("K2", "M2@1"),)  # board prefix dropped, level kept
    assert full.los_hindrance == (("O5", "N3@0", 2),)  # "@0" = ground level only, kept


def test_units(full):
    r1, g1, g2, t1, a1, u1 = full.units
    assert r1 == Unit(
        id="R1",
        side="russian",
        type="squad",
        counter="4-4-7",
        hex="L2",
        level=0,
        status=("broken", "dm"),
        sw=(),
        armament=(),
        fp=4,
        normal_range=4,
        morale=7,
        leadership=None,
        unarmed=False,
        ca=None,
        vca=None,
        tca=None,
        nationality="russian",
        line=r1.line,
    )
    assert FULL.splitlines()[r1.line - 1].lstrip().startswith("- {id: R1")
    assert (g1.hex, g1.level, g1.location) == ("M2", 1, "M2@1")
    assert (g1.morale, g1.leadership, g1.fp) == (9, -1, None)
    assert g1.sw == (Weapon("lmg", 2, 6),)
    assert g1.status == ("wounded",)
    assert g2.type == "half_squad" and g2.hex == "K2" and g2.location == "K2"
    assert (g2.fp, g2.normal_range, g2.morale) == (2, 6, 7)
    assert g2.sw == (Weapon("mmg", 5, 10), Weapon("ft", 24, 1))
    assert g2.nationality == "ss"
    assert t1.armament == (Weapon("ma", 4, 20), Weapon("cmg", 3, 8), Weapon("bmg", 2, 8))
    assert (t1.vca, t1.tca, t1.ca, t1.counter, t1.morale) == (1, 2, None, None, None)
    assert (a1.counter, a1.fp, a1.normal_range, a1.ca) == ("57L AT", 4, 12, 3)
    assert (u1.unarmed, u1.fp, u1.normal_range, u1.morale) == (True, 1, 0, 7)  # morale key wins


def test_position_is_hashable_and_expect_ignored_by_equality(full):
    again = load_position_text(FULL.replace("count: 3", "count: 4"), "full.yaml")
    assert hash(full) == hash(again) and full == again
    assert isinstance(full.terrain, FrozenMap) and isinstance(full.levels, FrozenMap)
    assert {full: 1}[again] == 1


def test_board_prefix_names_the_same_hex():
    doc = "name: x\nattacker: r\nmap: {board: 5, terrain: {5M2: woods}}\n"
    units = "units: [{id: a, side: r, type: squad, counter: 4-4-7, at: %s}]\n"
    one = load_position_text(doc + units % "5M2", "a.yaml")
    two = load_position_text(doc + units % "M2", "a.yaml")
    assert one.units[0].hex == two.units[0].hex == "M2"
    assert one.terrain_of("M2").terrain == "woods"


def test_scalars_stay_strings():
    doc = textwrap.dedent("""\
        name: 010
        attacker: no
        notes: 1e3
        map: {terrain: {E10: woods}}
        units:
          - {id: 1E10, side: no, type: squad, counter: 4-6-7, at: E10, nationality: on}
          - {id: "010", side: yes, type: leader, counter: 8+1, at: E9}
        expect: {source: NO, units: {on: {because: [~, 0x10]}}}
        """)
    pos = load_position_text(doc, "s.yaml")
    assert pos.name == "010" and pos.attacker == "no" and pos.notes == "1e3"
    assert "E10" in pos.terrain
    a, b = pos.units
    assert (a.id, a.side, a.hex, a.nationality) == ("1E10", "no", "E10", "on")
    assert (b.id, b.side) == ("010", "yes")
    assert pos.expect == {"source": "NO", "units": {"on": {"because": ["~", "0x10"]}}}


def test_defaults():
    pos = load_position_text("name: bare\nattacker: german\n", "d.yaml")
    assert pos.rules == "current" and pos.phase == "rout" and pos.errata == ()
    assert pos.area == ("A0", "GG10") and pos.board is None
    assert pos.default_terrain == "open" and pos.terrain_of("M2") == HexTerrain("open")
    assert pos.units == () and pos.no_quarter == () and pos.notes is None and pos.expect is None
    assert pos.los_blocked == pos.los_clear == pos.los_hindrance == ()


def test_whole_board_corners_are_on_the_map():
    doc = "name: x\nattacker: r\nunits:\n"
    doc += "  - {id: a, side: r, type: squad, counter: 4-4-7, at: B0}\n"
    doc += "  - {id: b, side: r, type: squad, counter: 4-4-7, at: GG10}\n"
    assert [u.hex for u in load_position_text(doc, "c.yaml").units] == ["B0", "GG10"]


def test_levels_locations():
    doc = textwrap.dedent("""\
        name: x
        attacker: r
        map: {terrain: {M2: building}, levels: {M2: 2}}
        units:
          - {id: a, side: r, type: squad, counter: 4-4-7, at: "M2@0"}
          - {id: b, side: r, type: squad, counter: 4-4-7, at: "M2@2"}
        """)
    a, b = load_position_text(doc, "l.yaml").units
    assert (a.level, a.location) == (0, "M2")
    assert (b.level, b.location) == (2, "M2@2")


def test_rule_versions_are_passed_in():
    pos = load_position_text("name: x\nattacker: r\nrules: asl2\n", "v.yaml", versions=("asl2",))
    assert pos.rules == "asl2"
    with pytest.raises(PositionError, match="not one of: current, prior"):
        load_position_text("name: x\nattacker: r\nrules: asl2\n", "v.yaml")


def test_load_from_path(tmp_path):
    path = tmp_path / "full.yaml"
    path.write_text(FULL, encoding="utf-8")
    pos = load_position(path)
    assert pos.file == str(path)
    assert pos == load_position_text(FULL, str(path))


@pytest.mark.parametrize(
    "text, fp, rng, morale, unarmed",
    [
        ("4-6-7", 4, 6, 7, False),
        ("6-2-8", 6, 2, 8, False),
        ("10-2-10", 10, 2, 10, False),
        ("(1)-0-6", 1, 0, 6, True),
    ],
)
def test_infantry_counters(text, fp, rng, morale, unarmed):
    assert counters.parse_infantry(text) == counters.InfantryCounter(fp, rng, morale, unarmed)


@pytest.mark.parametrize(
    "text, morale, leadership",
    [
        ("9-1", 9, -1),
        ("10-2", 10, -2),
        ("8-0", 8, 0),
        ("8+1", 8, 1),
        ("10-3", 10, -3),
    ],
)
def test_leader_counters(text, morale, leadership):
    assert counters.parse_leader(text) == counters.LeaderCounter(morale, leadership)


@pytest.mark.parametrize("text", ["4-6", "4-6-7-1", "(1-0-6", "1)-0-6", "a-b-c", "", "9-1"])
def test_bad_infantry_counters(text):
    with pytest.raises(ValueError):
        counters.parse_infantry(text)


@pytest.mark.parametrize("text", ["9", "9-1-1", "9*1", "4-6-7", "9-10"])
def test_bad_leader_counters(text):
    with pytest.raises(ValueError):
        counters.parse_leader(text)


def test_sw_table():
    assert counters.sw_stats("lmg") == (2, 6)
    assert counters.sw_stats("ft") == (24, 1)
    assert counters.sw_stats("dc") == (30, 0)
    with pytest.raises(KeyError):
        counters.sw_stats("laser")


def test_unarmed_size():
    # A20.5 "a white unarmed counter of the appropriate size": `size:` on a
    # `type: unarmed` (half-squad as for `type:`); none given stays None
    head = "name: s\nattacker: russian\nunits:\n"
    pos = load_position_text(
        head
        + "  - {id: U1, side: russian, type: unarmed, counter: (1)-0-6, at: M7, size: half-squad}\n"
        + "  - {id: U2, side: russian, type: unarmed, counter: (1)-0-6, at: M7}\n",
        "p.yaml",
    )
    assert [u.size for u in pos.units] == ["half_squad", None]
    with pytest.raises(PositionError) as info:
        load_position_text(
            head + "  - {id: S1, side: russian, type: squad, counter: 4-4-7, at: M7, size: squad}\n", "p.yaml"
        )
    assert (info.value.line, info.value.key) == (4, "units[0].size") and "only for unarmed" in info.value.message
