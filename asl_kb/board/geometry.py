"""Geometry of a position handed to the rules: Locations in rout reach,
ADJACENT Locations, MF costs, building grouping, Covered Arcs.

Nothing here decides a rules question: it measures the board.
"""

from __future__ import annotations

import math
from functools import lru_cache

from asl_kb.board import hexgrid
from asl_kb.board import terrain

#: A rout never goes farther than six MF (A10.5) and no hex costs less than
#: one MF, so six hexes bound the Locations a broken unit could reach.
ROUT_MF = 6
WOUNDED_ROUT_MF = 3


def cube(h: str, grid=None) -> tuple[int, int, int]:
    """Cube coordinates of hex h (on the position's grid, board/grid.py):
    the rules compute ranges from them."""
    return hexgrid.cube(h) if grid is None else grid.cube(h)


def locations_of_hex(position, h: str) -> list[tuple[str, int]]:
    """Every Location of hex h: ground level and each building level."""
    return [(h, level) for level in range(position.levels_of(h) + 1)]


def rout_reach(position, area: hexgrid.Area, unit) -> list[tuple[str, int]]:
    """Locations a broken unit could possibly enter in one RtPh."""
    radius = WOUNDED_ROUT_MF if "wounded" in unit.status else ROUT_MF
    reach = []
    for h in position.grid.within(unit.hex, radius, area):
        reach.extend(locations_of_hex(position, h))
    return reach


def half_mf(value) -> int:
    """MF counted in half MF (grain costs 1.5 MF), as the rules count them."""
    return int(value * 2)


@lru_cache(maxsize=4096)
def _half_cost(here, level: int, there, other: int, same_hex: bool):
    """terrain.enter_cost in half MF (None: not traversable), kept from
    position to position (the committee's searches run thousands)."""
    cost = terrain.enter_cost(here, level, there, other, same_hex)
    return None if cost is None else half_mf(cost)


class Moves:
    """The ADJACENT Locations of Locations of one position and what entering
    each costs. Each hex's terrain, levels and place in the area are read
    once, and a cost once per kind of move (a map has few kinds of hex, and
    exact fractions are slow to figure for each of thousands of moves)."""

    def __init__(self, position, area):
        self.position, self.area = position, area
        self.grid = position.grid
        self._hexes: dict = {}
        self._kinds: dict = {}
        self._costs: dict = {}

    def _hex(self, h: str) -> tuple:
        """((terrain, its kind number), building levels, in the area) of hex h."""
        found = self._hexes.get(h)
        if found is None:
            t = self.position.terrain_of(h)
            kind = self._kinds.setdefault(t, len(self._kinds))
            found = self._hexes[h] = ((t, kind), self.position.levels_of(h), self.area.contains(h))
        return found

    def _cost(self, here: tuple, level: int, there: tuple, other: int, same_hex: bool):
        """The cost from `level` of hex terrain `here` to `other` of `there`
        (each (terrain, its kind number)), once for each kind of move."""
        key = (here[1], level, there[1], other, same_hex)
        cost = self._costs.get(key, self)
        if cost is self:
            cost = self._costs[key] = _half_cost(here[0], level, there[0], other, same_hex)
        return cost

    def __call__(self, loc: tuple[str, int]):
        """(ADJACENT Location, cost in half MF or None) for each Location next to loc."""
        h, level = loc
        here, levels, _ = self._hex(h)
        out = []
        for other in (level - 1, level + 1):
            if 0 <= other <= levels:
                out.append(((h, other), self._cost(here, level, here, other, True)))
        for n in self.grid.neighbors(h):
            there, n_levels, inside = self._hex(n)
            if not inside or level > n_levels:
                continue
            cost = self._cost(here, level, there, level, False)
            side = self.position.hexside(h, n) if level == 0 else None
            if cost is not None and side is not None:
                # crossing a wall/hedge/bocage hexside: its MF on top of the COT
                # (a cliff or rowhouse wall: not crossed at all)
                crossing = terrain.hexside_type(side).crossing_mf
                cost = None if crossing is None else cost + half_mf(crossing)
            out.append(((n, level), cost))
        return out


def buildings(position, hexes) -> dict[str, str]:
    """Building id of each building hex: the id written in the position, else
    the connected group of ADJACENT building hexes it belongs to."""

    def is_building(h):  # building terrain (a pillbox is no building hex)
        return terrain.terrain_type(position.terrain_of(h).terrain).rout_cover == "building"

    grid = position.grid
    out: dict[str, str] = {}
    for h in sorted(hexes, key=grid.order):
        if h in out or not is_building(h):
            continue
        named = position.terrain_of(h).building
        if named:
            out[h] = named
            continue
        # flood fill over unnamed adjacent building hexes
        group, todo = [], [h]
        seen = {h}
        while todo:
            x = todo.pop()
            group.append(x)
            for n in grid.neighbors(x):
                if n not in seen and n in hexes and is_building(n) and not position.terrain_of(n).building:
                    seen.add(n)
                    todo.append(n)
        name = "b_" + min(group, key=grid.order)
        for x in group:
            out[x] = name
    return out


@lru_cache(maxsize=None)
def in_arc(origin: str, facing: int, h: str, grid=None) -> bool:
    """Whether hex h lies in the 60-degree Covered Arc centred on hexside
    direction `facing` (1 = north, clockwise) seen from origin. Hexes exactly
    on an arc boundary (a hexspine) are inside, as in ASL."""
    if h == origin:
        return True
    if grid is None:
        (x0, y0), (x1, y1) = hexgrid.hex_shape(origin).centre, hexgrid.hex_shape(h).centre
    else:
        (x0, y0), (x1, y1) = grid.point(origin), grid.point(h)
    angle = math.degrees(math.atan2(x1 - x0, -(y1 - y0))) % 360  # 0 = north, clockwise
    centre = (facing - 1) * 60
    diff = abs((angle - centre + 180) % 360 - 180)
    return diff <= 30 + 1e-9
