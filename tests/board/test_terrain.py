from collections import namedtuple
from fractions import Fraction

import pytest

from asl_kb.board import terrain as T
from asl_kb.board.terrain import FEATURES, TERRAIN, enter_cost, fortification_extra

# Same four fields as asl_kb.position.HexTerrain (duck typing).
Hex = namedtuple("Hex", "terrain features elevation building", defaults=((), 0, None))


def test_table_is_complete_and_consistent():
    for name in (
        "open",
        "road",
        "woods",
        "forest",
        "building",
        "stone_building",
        "wooden_building",
        "rubble",
        "grain",
        "brush",
        "orchard",
        "marsh",
        "water",
        "stream",
        "cliff",
    ):
        t = TERRAIN[name]
        assert t.name == name
        assert t.rule.startswith("B")
        assert t.los in ("clear", "hinder", "block")
        assert (t.hindrance > 0) == (t.los == "hinder")
        assert t.mf is None or isinstance(t.mf, Fraction)
        if t.passable_rout:
            assert t.mf is not None
    for name in (
        "foxhole",
        "trench",
        "shellhole",
        "entrenchment",
        "pillbox",
        "wreck",
        "smoke",
        "blaze",
        "wire",
        "minefield",
        "ffe",
    ):
        assert FEATURES[name].name == name
        assert FEATURES[name].rule


def test_standard_values():
    assert TERRAIN["open"].mf == 1 and TERRAIN["open"].tem == 0 and TERRAIN["open"].og_possible
    assert TERRAIN["road"].og_possible
    assert TERRAIN["woods"].mf == 2 and TERRAIN["woods"].tem == 1 and TERRAIN["woods"].los == "block"
    assert TERRAIN["forest"].rout_cover == "woods"
    assert TERRAIN["stone_building"].tem == 3 and TERRAIN["wooden_building"].tem == 2
    assert TERRAIN["building"].rout_cover == "building"
    assert TERRAIN["rubble"].rout_cover is None and TERRAIN["rubble"].los == "block"
    assert TERRAIN["grain"].mf == Fraction(3, 2) and TERRAIN["grain"].hindrance == 1
    for name in ("grain", "brush", "orchard"):
        assert not TERRAIN[name].og_possible
    assert TERRAIN["brush"].tem == 0  # B12.3: no TEM, but not Open Ground
    for name in ("water", "marsh", "stream", "cliff"):
        assert not TERRAIN[name].passable_rout
    assert FEATURES["pillbox"].rout_cover == "building"
    assert FEATURES["smoke"].hindrance == 2 and FEATURES["wreck"].hindrance == 1
    assert not FEATURES["blaze"].passable_rout
    assert T.LEVEL_CHANGE_MF == 1


def test_enter_cost_basic():
    o = Hex("open")
    assert enter_cost(o, 0, Hex("open"), 0, False) == 1
    assert enter_cost(o, 0, Hex("road"), 0, False) == 1
    assert enter_cost(o, 0, Hex("woods"), 0, False) == 2
    assert enter_cost(o, 0, Hex("grain"), 0, False) == Fraction(3, 2)
    assert enter_cost(o, 0, Hex("brush"), 0, False) == 2
    assert enter_cost(o, 0, Hex("stone_building"), 0, False) == 2
    assert enter_cost(o, 0, Hex("rubble"), 0, False) == 3
    assert isinstance(enter_cost(o, 0, Hex("grain"), 0, False), Fraction)


def test_enter_cost_not_traversable():
    o = Hex("open")
    for name in ("water", "marsh", "stream", "cliff"):
        assert enter_cost(o, 0, Hex(name), 0, False) is None
    assert enter_cost(o, 0, Hex("open", ("blaze",)), 0, False) is None


def test_enter_cost_levels():
    b = Hex("stone_building", (), 0, "b1")
    assert enter_cost(b, 0, b, 1, True) == 1
    assert enter_cost(b, 2, b, 1, True) == 1
    assert enter_cost(b, 1, b, 1, True) == 0
    # upper level to upper level of the next building hex
    assert enter_cost(b, 1, Hex("stone_building", (), 0, "b1"), 1, False) == 2
    # a unit does not change level while changing hex
    assert enter_cost(b, 1, Hex("open"), 0, False) is None


def test_enter_cost_hill_doubles():
    low, high = Hex("open", (), 0), Hex("open", (), 1)
    assert enter_cost(low, 0, high, 0, False) == 2
    assert enter_cost(high, 0, low, 0, False) == 1
    assert enter_cost(Hex("open", (), 1), 0, Hex("open", (), 1), 0, False) == 1
    assert enter_cost(low, 0, Hex("woods", (), 1), 0, False) == 4
    assert enter_cost(low, 0, Hex("grain", (), 2), 0, False) == 3


def test_enter_cost_smoke_is_cot_fortifications_are_not():
    o = Hex("open")
    assert enter_cost(o, 0, Hex("open", ("smoke",)), 0, False) == 2  # A24.7
    assert enter_cost(o, 0, Hex("open", ("smoke",), 1), 0, False) == 4  # B.2: 2 x COT
    for f in ("foxhole", "trench", "shellhole", "pillbox", "wire", "minefield", "wreck"):
        assert enter_cost(o, 0, Hex("open", (f,)), 0, False) == 1
    assert fortification_extra(("foxhole",)) == 1
    assert fortification_extra(("smoke", "wreck")) == 0
    assert fortification_extra(()) == 0


def test_enter_cost_unknown_terrain():
    with pytest.raises(ValueError, match="unknown terrain"):
        enter_cost(Hex("open"), 0, Hex("lava"), 0, False)


def test_helpers():
    assert T.rout_cover(Hex("woods")) == "woods"
    assert T.rout_cover(Hex("open", ("pillbox",))) is None  # the rules make it a building (cover/1)
    assert T.rout_cover(Hex("rubble")) is None
    assert T.is_open_ground(Hex("road")) and not T.is_open_ground(Hex("grain"))
    assert T.hindrance_of(Hex("grain", ("smoke", "wreck"))) == 4
