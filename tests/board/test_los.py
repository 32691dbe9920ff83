import random
from collections import namedtuple

import pytest

from asl_kb.board import hexgrid as hg
from asl_kb.board.los import LosMap

Hex = namedtuple("Hex", "terrain features elevation building", defaults=((), 0, None))
OPEN = Hex("open")


def make(terrain=None, levels=None, **kw):
    terrain = terrain or {}
    return LosMap(lambda h: terrain.get(h, OPEN), levels or {}, **kw)


# A1..A5 is a straight column line: A1-A3 crosses A2; A1-A5 crosses A2, A3, A4.


def test_open_ground_clear():
    m = make()
    assert m.los("A1", 0, "A5", 0) == (True, 0)
    assert m.los("A1", 0, "GG10", 0) == (True, 0)


def test_adjacent_and_same_hex():
    m = make({"A2": Hex("woods")})
    assert m.los("A1", 0, "A2", 0) == (True, 0)
    assert m.los("A2", 0, "A2", 1) == (True, 0)
    assert m.los("A2", 0, "A2", 0) == (True, 0)


def test_woods_between_blocks():
    m = make({"A2": Hex("woods")})
    assert m.los("A1", 0, "A3", 0) == (False, 0)
    assert m.los("A3", 0, "A1", 0) == (False, 0)
    # endpoint terrain does not block
    m2 = make({"A1": Hex("woods"), "A3": Hex("woods")})
    assert m2.los("A1", 0, "A3", 0) == (True, 0)


def test_woods_not_blocking_when_both_ends_high():
    hill2 = Hex("open", (), 2)
    m = make({"A1": hill2, "A3": hill2, "A2": Hex("woods")})
    assert m.los("A1", 0, "A3", 0) == (True, 0)
    # both at the woods' height (level 1): a same-level obstacle does not block
    hill1 = Hex("open", (), 1)
    m = make({"A1": hill1, "A3": hill1, "A2": Hex("woods")})
    assert m.los("A1", 0, "A3", 0) == (True, 0)
    # one end low: blocked (no blind-hex geometry in this model)
    m = make({"A1": hill2, "A2": Hex("woods")})
    assert m.los("A1", 0, "A3", 0) == (False, 0)


def test_building_levels_raise_the_obstacle():
    b = Hex("stone_building", (), 0, "b1")
    levels = {"A1": 2, "A2": 1, "A3": 2}
    m = make({"A1": b, "A2": b, "A3": b}, levels)
    assert m.los("A1", 0, "A3", 0) == (False, 0)
    assert m.los("A1", 1, "A3", 1) == (False, 0)  # top of A2 is level 2
    assert m.los("A1", 2, "A3", 2) == (True, 0)
    assert m.height("A1", 2) == 2


def test_hill_crest():
    m = make({"A2": Hex("open", (), 1)})
    assert m.los("A1", 0, "A3", 0) == (False, 0)
    # crest level with the higher end
    m = make({"A1": Hex("open", (), 1), "A2": Hex("open", (), 1)})
    assert m.los("A1", 0, "A3", 0) == (False, 0)
    # plateau: all three at level 1
    m = make({h: Hex("open", (), 1) for h in ("A1", "A2", "A3")})
    assert m.los("A1", 0, "A3", 0) == (True, 0)
    # looking down from above the crest
    m = make({"A1": Hex("open", (), 2), "A2": Hex("open", (), 1)})
    assert m.los("A1", 0, "A3", 0) == (True, 0)
    # a building level counts as height
    m = make({"A1": Hex("wooden_building", (), 0, "b"), "A2": Hex("open", (), 1)}, {"A1": 1})
    assert m.los("A1", 1, "A3", 0) == (False, 0)


def test_hindrance_sum_grain_and_smoke():
    m = make({"A2": Hex("grain"), "A3": Hex("open", ("smoke",))})
    assert m.los("A1", 0, "A5", 0) == (True, 3)
    m = make({"A2": Hex("grain")}, smoke=["A4"])
    assert m.los("A1", 0, "A5", 0) == (True, 3)
    # smoke listed twice (feature and map.smoke) counts once
    m = make({"A4": Hex("open", ("smoke",))}, smoke=["A4"])
    assert m.los("A1", 0, "A5", 0) == (True, 2)
    # endpoint hexes' own hindrances are not counted
    m = make({"A1": Hex("grain"), "A5": Hex("brush")})
    assert m.los("A1", 0, "A5", 0) == (True, 0)


def test_other_hindrances():
    m = make({"A2": Hex("orchard"), "A3": Hex("open", ("wreck",)), "A4": Hex("brush")}, vehicle_hexes=["A3"])
    assert m.los("A1", 0, "A5", 0) == (True, 4)


def test_hindrance_ignored_when_los_is_above_it():
    hill1 = Hex("open", (), 1)
    m = make({"A1": hill1, "A5": hill1, "A3": Hex("grain")})
    assert m.los("A1", 0, "A5", 0) == (True, 0)
    m = make({"A1": hill1, "A3": Hex("grain")})
    assert m.los("A1", 0, "A5", 0) == (True, 1)


def test_six_hindrance_blocks():
    m = make({}, smoke=["A2", "A3", "A4"])
    assert m.los("A1", 0, "A5", 0) == (False, 0)
    m = make({}, smoke=["A2", "A3"])
    assert m.los("A1", 0, "A5", 0) == (True, 4)


def test_hexside_benefit_of_doubt():
    # M2-O2 runs exactly along the N1/N2 hexside
    assert hg.hex_line("M2", "O2") == (("N1", "N2"),)
    assert make({"N1": Hex("woods")}).los("M2", 0, "O2", 0) == (True, 0)
    assert make({"N2": Hex("stone_building")}).los("M2", 0, "O2", 0) == (True, 0)
    assert make({"N1": Hex("woods"), "N2": Hex("woods")}).los("M2", 0, "O2", 0) == (False, 0)
    # hindrance: the smaller of the two
    assert make({"N1": Hex("grain")}).los("M2", 0, "O2", 0) == (True, 0)
    m = make({"N1": Hex("grain"), "N2": Hex("grain", ("smoke",))})
    assert m.los("M2", 0, "O2", 0) == (True, 1)


def test_overrides():
    woods = {"A2": Hex("woods")}
    m = make(woods, clear=[("A1", "A3")])
    assert m.los("A1", 0, "A3", 0) == (True, 0)
    assert m.los("A3", 0, "A1", 0) == (True, 0)
    m = make({}, blocked=[("A3", "A1")])
    assert m.los("A1", 0, "A3", 0) == (False, 0)
    # even adjacent hexes can be overridden
    m = make({}, blocked=[("A1", "A2")])
    assert m.los("A1", 0, "A2", 0) == (False, 0)
    m = make(woods, hindrance=[("A1", "A3", 2)])
    assert m.los("A1", 0, "A3", 0) == (True, 2)


def test_overrides_with_levels():
    b = Hex("stone_building", (), 0, "b")
    m = make({"A1": b, "A2": Hex("woods")}, {"A1": 1}, clear=[("A1@1", "A3")])
    assert m.los("A1", 1, "A3", 0) == (True, 0)
    assert m.los("A3", 0, "A1", 1) == (True, 0)
    assert m.los("A1", 0, "A3", 0) == (False, 0)  # ground level not overridden
    # a level-specific pair wins over a plain-hex pair
    m = make({"A1": b}, {"A1": 1}, blocked=[("A1", "A3")], clear=[("A1@1", "A3")])
    assert m.los("A1", 0, "A3", 0) == (False, 0)
    assert m.los("A1", 1, "A3", 0) == (True, 0)
    # board prefixes are accepted when the board is given
    m = make({}, blocked=[("5A1", "5A3")], board="5")
    assert m.los("A1", 0, "A3", 0) == (False, 0)


def test_symmetric_on_random_map():
    rng = random.Random(3)
    board = hg.Area.whole_board().hexes()
    kinds = ["open"] * 6 + ["woods", "grain", "brush", "stone_building", "orchard"]
    terrain = {h: Hex(rng.choice(kinds), (), rng.choice([0, 0, 0, 1, 2])) for h in board}
    m = make(terrain, {h: 1 for h, t in terrain.items() if t.terrain == "stone_building"}, smoke=rng.sample(board, 10))
    for _ in range(500):
        a, b = rng.sample(board, 2)
        la = 1 if terrain[a].terrain == "stone_building" and rng.random() < 0.5 else 0
        lb = 0
        r = m.los(a, la, b, lb)
        assert r == m.los(b, lb, a, la)
        assert isinstance(r[0], bool) and isinstance(r[1], int)
        assert r[1] == 0 or r[0]


def test_los_from():
    m = make({"A2": Hex("woods")})
    res = m.los_from("A1", 0, ["A3", ("A5", 0), "B1"])
    assert res == {"A3": (False, 0), ("A5", 0): (False, 0), "B1": (True, 0)}


def test_unknown_terrain_raises():
    m = make({"A2": Hex("lava")})
    with pytest.raises(ValueError, match="lava"):
        m.los("A1", 0, "A3", 0)


def test_terrain_of_missing_hexes_are_open():
    def terrain_of(h):
        if h == "A2":
            return Hex("woods")
        raise KeyError(h)

    m = LosMap(terrain_of, {})
    assert m.los("A1", 0, "A3", 0) == (False, 0)
    assert m.los("C1", 0, "C5", 0) == (True, 0)


def test_many_queries_are_fast():
    import time

    rng = random.Random(5)
    board = hg.Area.whole_board().hexes()
    terrain = {h: Hex(rng.choice(["open", "open", "woods", "grain"])) for h in board}
    m = make(terrain)
    pairs = [tuple(rng.sample(board, 2)) for _ in range(40000)]
    t0 = time.perf_counter()
    for a, b in pairs:
        m.los(a, 0, b, 0)
    assert time.perf_counter() - t0 < 20  # generous; typically well under 2 s


@pytest.mark.parametrize("seed", range(6))
def test_viewshed_answers_as_the_line_walk(seed):
    """los_from scans outward and walks a line only to the units no nearby
    obstacle shadows (board/viewshed.py): it gives the line walk's answer
    for every target, on maps with obstacles, hills, levels, hexsides and
    overrides, and it leaves most blocked targets to the shadows."""
    rng = random.Random(seed)
    board = [h for h in hg.Area.whole_board().hexes() if hg.hex_coords(h)[0] < 24]
    kinds = ["open"] * 5 + ["woods", "grain", "stone_building", "orchard", "woods"] + ["woods"] * seed
    terrain = {h: Hex(rng.choice(kinds), (), rng.choice([0, 0, 0, 0, 1, 2])) for h in board}
    levels = {h: rng.choice([0, 1, 2]) for h, t in terrain.items() if t.terrain == "stone_building"}
    overrides = dict(blocked=[tuple(rng.sample(board, 2))], clear=[tuple(rng.sample(board, 2))])
    m = make(terrain, levels, **overrides)
    walked = 0
    viewers = rng.sample(board, 60) + [h for pairs in overrides.values() for h in pairs[0]]
    for a in viewers:
        la = rng.choice([0, 0, 1]) if a in levels else 0
        targets = [(b, rng.choice([0, 1]) if b in levels else 0) for b in board]
        got = m.los_from(a, la, targets)
        walked += len(m.seen_from(a, la, m.watch(targets)))
        assert got == {(b, lb): m.los(a, la, b, lb) for b, lb in targets}
    assert walked < 0.5 * len(viewers) * len(board)


@pytest.mark.parametrize("seed", range(3))
def test_a_viewer_beside_the_units_scans_only_towards_them(seed):
    """Units in a box (here a few rows of a board, as a group of units has:
    asl_kb/asp/groups.py) and viewers outside it: the scan looks only at the
    cone of directions towards the box (the rest taken as shadow) and gives
    the line walk's answer for every unit."""
    from asl_kb.board import viewshed

    rng = random.Random(seed)
    board = hg.Area.whole_board().hexes()
    kinds = ["open"] * 6 + ["woods", "grain", "stone_building"] + ["woods"] * seed
    terrain = {h: Hex(rng.choice(kinds), (), rng.choice([0, 0, 0, 1])) for h in board}
    levels = {h: rng.choice([0, 1]) for h, t in terrain.items() if t.terrain == "stone_building"}
    m = make(terrain, levels)
    box = [h for h in board if 3 <= hg.hex_coords(h)[1] <= 5 and 6 <= hg.hex_coords(h)[0] <= 20]
    targets = [(b, rng.choice([0, 1]) if b in levels else 0) for b in box]
    watched = m.watch(targets)
    beside = 0
    for a in rng.sample([h for h in board if h not in box], 40):
        x, _, z = hg.cube(a)
        beside += bool(viewshed._beside(x, z, watched.bounds))
        got = m.seen_from(a, 0, watched)
        assert {t: r for t, r in got.items() if r[0]} == {t: r for t in targets if (r := m.los(a, 0, t[0], t[1]))[0]}
    assert beside >= 20


@pytest.mark.parametrize("seed", range(4))
def test_the_facts_scan_from_either_end_alike(seed):
    """The facts' LOS (asp/facts.py _seen) scans from each Location in reach
    to the watchers, or from each watcher's spot to the Locations, whichever
    has fewer places: both give the line walk's answer for every pair of a
    Location and a spot holding a unit of another side than one reaching it
    (LOS is symmetric), and nothing for a pair of one side only."""
    from asl_kb.asp.facts import _seen

    rng = random.Random(seed)
    board = [h for h in hg.Area.whole_board().hexes() if hg.hex_coords(h)[0] < 16]
    kinds = ["open"] * 5 + ["woods", "grain", "stone_building", "orchard"] + ["woods"] * seed
    terrain = {h: Hex(rng.choice(kinds), (), rng.choice([0, 0, 0, 1])) for h in board}
    levels = {h: rng.choice([0, 1, 2]) for h, t in terrain.items() if t.terrain == "stone_building"}
    m = make(terrain, levels, blocked=[tuple(rng.sample(board, 2))], clear=[tuple(rng.sample(board, 2))])
    Unit = namedtuple("Unit", "hex level side")
    spot = lambda h: (h, rng.choice([0, 1]) if h in levels else 0)
    watchers = [Unit(*spot(h), rng.choice(["german", "russian"])) for h in rng.sample(board, 30)]
    sides_at = {
        spot(h): frozenset(rng.sample(["german", "russian"], rng.choice([1, 1, 2]))) for h in rng.sample(board, 120)
    }

    def visible(seen):  # a pair walked and found blocked is no fact
        return {l: {t: r for t, r in d.items() if r[0]} for l, d in seen.items()}

    one, other = visible(_seen(m, sides_at, watchers, False)), visible(_seen(m, sides_at, watchers, True))
    assert one == other
    asked = 0
    for l, at in sides_at.items():
        for u in watchers:
            if any(u.side != s for s in at):
                asked += 1
                r = m.los(l[0], l[1], u.hex, u.level)
                assert one[l].get((u.hex, u.level)) == (r if r[0] else None)
            elif not any(w.side != s for w in watchers if (w.hex, w.level) == (u.hex, u.level) for s in at):
                assert (u.hex, u.level) not in one[l]
    assert asked > 1000


def _sides(sides):
    """A hexside lookup as the position gives it (Position.hexside)."""
    table = {frozenset(k): v for k, v in sides.items()}
    return lambda a, b: table.get(frozenset((a, b)))


def test_wall_blocks_same_level_los_it_crosses():
    # B9: a wall/hedge is a half-level obstacle: A1-A5 crosses the A2-A3 hexside
    m = make(hexside=_sides({("A2", "A3"): "wall"}))
    assert m.los("A1", 0, "A5", 0) == (False, 0)
    assert m.los("A1", 0, "A4", 0) == (False, 0)
    # a unit in a hex with that hexside sees over it (either end)
    assert m.los("A1", 0, "A3", 0) == (True, 0)
    assert m.los("A2", 0, "A5", 0) == (True, 0)
    # a half-level obstacle does not block a higher viewer (no blind hexes)
    assert make({"A1": Hex("open", (), 1)}, hexside=_sides({("A2", "A3"): "hedge"})).los("A1", 0, "A5", 0) == (True, 0)


def test_bocage_is_a_one_level_obstacle():
    side = _sides({("A2", "A3"): "bocage"})
    assert make({"A1": Hex("open", (), 1)}, hexside=side).los("A1", 0, "A5", 0) == (False, 0)
    assert make({"A1": Hex("open", (), 1), "A5": Hex("open", (), 1)}, hexside=side).los("A1", 0, "A5", 0) == (True, 0)


def test_hexspine_wall_or_hedge_b9_2_ex():
    # B9.2 EX on the rulebook's board 6 hexes: 6Z9 to X6 runs along the Z8-Y9
    # and X7-Y7 hexspines, one touching each end: "a Half-Level LOS obstacle
    # only if the wall/hedge hexspine is not touching the viewing or target hex"
    ex = {("Y9", "Z8"): "hedge", ("X7", "Y7"): "wall", ("Y8", "Z8"): "hedge"}
    assert make(hexside=_sides(ex)).los("Z9", 0, "X6", 0) == (True, 0)
    # "If Y8-Y9 were a hedge hexside, no LOS would exist since the Y8-Y9-Z8
    # vertex would have wall/hedge hexsides on all three hexspines"
    assert make(hexside=_sides({**ex, ("Y8", "Y9"): "hedge"})).los("Z9", 0, "X6", 0) == (False, 0)
    assert make(hexside=_sides({**ex, ("Y8", "Y9"): "hedge"})).los("X6", 0, "Z9", 0) == (False, 0)
    # two of the three are not all three
    assert make(hexside=_sides({("Y9", "Z8"): "hedge", ("Y8", "Y9"): "hedge"})).los("Z9", 0, "X6", 0) == (True, 0)
    # the three at the vertex without the one along the line: no wall lies along it
    three_off = {("Y8", "Z8"): "hedge", ("Y8", "Y9"): "hedge"}
    assert make(hexside=_sides(three_off)).los("Z9", 0, "X6", 0) == (True, 0)
    # a hexspine touching neither end blocks same-level LOS (6Z9 to V3: X7-Y7)
    assert make(hexside=_sides({("X7", "Y7"): "wall"})).los("Z9", 0, "V3", 0) == (False, 0)
    # the same hexspine touches Y8: from there to W5 it is none
    assert make(hexside=_sides({("X7", "Y7"): "wall"})).los("Y8", 0, "W5", 0) == (True, 0)
    # ... but not a higher one (a half-level obstacle)
    high = make({"Z9": Hex("open", (), 1)}, hexside=_sides({("X7", "Y7"): "wall"}))
    assert high.los("Z9", 0, "V3", 0) == (True, 0)
    # touching both ends (range 2): never, whatever the vertices
    both = {("Y9", "Z8"): "hedge", ("Y8", "Z8"): "hedge", ("Y8", "Y9"): "hedge", ("Y9", "Z9"): "wall"}
    assert make(hexside=_sides(both)).los("Z9", 0, "Y8", 0) == (True, 0)


def test_hexspine_tem_at_both_ends():
    from asl_kb.board.los import entry_sides, spines

    # "If a German unit were in Y8, both it and the 4-4-7 would qualify for the
    # +1 TEM of the Z8-Y9 hexspine when firing at each other" (B9.2 EX)
    assert ("Y9", "Z8") in entry_sides("Y8", "Z9") and ("Y9", "Z8") in entry_sides("Z9", "Y8")
    assert spines("Z9", "X6") == [(("Y9", "Z8"), "Z9", "Y8"), (("X7", "Y7"), "Y8", "X6")]
    # the hexspine touching the target only, and the two hexsides at its vertex
    assert sorted(entry_sides("Z9", "X6")) == [("X7", "X6"), ("X7", "Y7"), ("Y7", "X6")]
    assert spines("A1", "A4") == []


def test_crossed_and_entry_sides():
    from asl_kb.board.los import crossed_sides, entry_sides

    assert crossed_sides("A1", "A4") == [("A1", "A2"), ("A2", "A3"), ("A3", "A4")]
    assert crossed_sides("A1", "A2") == [("A1", "A2")]
    assert entry_sides("A1", "A4") == [("A3", "A4")]
    assert entry_sides("A1", "A2") == [("A1", "A2")]
