"""LOS over the pixels of VASL boards, as VASL's LOS engine traces it.

Ported from VASL's LOS/Map/Map.java (Map.LOS and its rules: checkDepression,
checkBuildingRestriction, checkHexsideTerrain, checkGroundLevel,
checkSplitTerrain, checkHalfLevelTerrain, checkTerrainIsHigher,
checkTerrainHeight, checkBlindHex, checkHillock, isBlindHex,
isIgnorableHexsideTerrain, addHindranceHex, checkRowhouseFactoryWall) and
LOSResult.java, keeping VASL's arithmetic so that a line is clear or blocked
where VASL says so. A line goes from the centre dot of one Location to that
of the other, column of pixels by column of pixels; at each pixel the rules
of chapter A6 and B read the pixel's terrain and ground level and the hex it
lies in:

* an obstacle higher than both ends blocks (A6.2); one as high as the higher
  end blocks unless ADJACENT to the lower's ... (A6.2, B10.2 EXC);
* a hill, woods or building between a higher and a lower end casts blind
  hexes (A6.4, B10.23): the lower end is in one when its range is within
  2 x the obstacle's height + range / 5 - both ends' levels;
* half-level terrain (grain, brush, walls...) as high as both ends hinders or
  blocks (B9.2, B15); walls and hedges along the line's hexsides are ignored
  at a hexspine or beside an end (B9.2);
* hindrances add up per range from the firer (the highest at each range), +6
  blocks (B.10);
* a unit in a building sees a Location of another level only when the line
  has left the building (A6.8 Ex 2); depressions, cliffs and hillocks as
  VASL has them.

Counters (SMOKE, vehicles, OBA) are not VASL's map: the position's own LOS
model adds them (asl_kb/board/los.py).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from asl_kb.vasl.vmap import (
    Grid,
    GridArrays,
    HexData,
    HexLookup,
    Loc,
    VaslMap,
    lines_intersect,
    polygon_contains,
)

__all__ = ["LosResult", "Tracer"]

HILLOCK, WALL, HEDGE, BOCAGE = "Hillock", "Wall", "Hedge", "Bocage"
STONE_RUBBLE, WOODEN_RUBBLE, GRAIN, BRUSH = "Stone Rubble", "Wooden Rubble", "Grain", "Brush"
NONE = -1


class LosResult(NamedTuple):
    """The answer for one pair: blocked or not, the pixel where (map pixels,
    no edge buffer), the hindrance DRM, VASL's range, and why."""

    blocked: bool
    at: tuple[int, int] | None
    hindrance: int
    range: int
    reason: str


class TraceResult:
    """LOSResult: blocked, where, hindrances by range from the source."""

    __slots__ = (
        "blocked",
        "at",
        "reason",
        "hindrances",
        "source_exit_spine",
        "target_enter_spine",
        "rng",
        "s60",
        "horiz",
    )

    def __init__(self):
        self.blocked = False
        self.at = None
        self.reason = ""
        self.hindrances: dict[int, int] = {}
        self.source_exit_spine = NONE
        self.target_enter_spine = NONE
        self.rng = 0
        self.s60 = self.horiz = False

    def hindrance(self) -> int:
        return sum(self.hindrances.values())

    def set_blocked(self, x: int, y: int, reason: str) -> None:
        self.blocked, self.at, self.reason = True, (x, y), reason

    def add_hindrance(self, rng: int, value: int, x: int, y: int) -> None:
        if value > self.hindrances.get(rng, -1):
            self.hindrances[rng] = value
        if self.hindrance() >= 6:
            self.set_blocked(x, y, "Hindrance total of six or more (B.10)")


class _Status:
    """Map.LOSStatus."""

    __slots__ = (
        "m",
        "g",
        "source",
        "target",
        "sx",
        "sy",
        "tx",
        "ty",
        "col_dir",
        "row_dir",
        "num_cols",
        "delta_y",
        "blocked",
        "reason",
        "terrain",
        "terrain_hgt",
        "ground",
        "source_hex",
        "target_hex",
        "current_hex",
        "temp_hex",
        "source_elev",
        "target_elev",
        "range",
        "range_to_source",
        "range_to_target",
        "continuous_slope",
        "leaves_building",
        "s60",
        "horiz",
        "source_exit",
        "target_enter",
        "starts_on_hillock",
        "ends_on_hillock",
        "crossing_hillock",
        "crossed_hillocks",
        "source_adjacent_hillock",
        "target_adjacent_hillock",
        "first_wall_crossed",
        "first_wall_point",
        "first_rubble",
        "first_half_hindrance",
        "slopes",
        "exits_source_depression",
        "ignore_ground_hex",
        "enters_target_depression",
        "previous_hex",
        "enter",
        "exit",
        "x",
        "y",
        "result",
        "crossed",
    )

    m: Any
    g: Any
    source: Any
    target: Any
    sx: Any
    sy: Any
    tx: Any
    ty: Any
    col_dir: Any
    row_dir: Any
    num_cols: Any
    delta_y: Any
    blocked: Any
    reason: Any
    terrain: Any
    terrain_hgt: Any
    ground: Any
    source_hex: Any
    target_hex: Any
    current_hex: Any
    temp_hex: Any
    source_elev: Any
    target_elev: Any
    range: Any
    range_to_source: Any
    range_to_target: Any
    continuous_slope: Any
    leaves_building: Any
    s60: Any
    horiz: Any
    source_exit: Any
    target_enter: Any
    starts_on_hillock: Any
    ends_on_hillock: Any
    crossing_hillock: Any
    crossed_hillocks: Any
    source_adjacent_hillock: Any
    target_adjacent_hillock: Any
    first_wall_crossed: Any
    first_wall_point: Any
    first_rubble: Any
    first_half_hindrance: Any
    slopes: Any
    exits_source_depression: Any
    ignore_ground_hex: Any
    enters_target_depression: Any
    previous_hex: Any
    enter: Any
    exit: Any
    x: Any
    y: Any
    result: Any
    crossed: Any


class Tracer:
    """VASL's LOS engine over one VaslMap."""

    def __init__(self, vmap: VaslMap):
        self.m = vmap
        self.g: Grid = vmap.grid
        self._hillocks: dict | None = None
        self.arrays: GridArrays | None = None
        self.lookup: HexLookup | None = None
        self._codes: Any = None
        self._near_inherent: dict = {}

    # ------------------------------------------------------------ what the batch reads (batch.py)

    def tables(self):
        """Per terrain code: height, half level or split, hexside, building
        terrain, building, LOS obstacle higher-than rule (arrays)."""
        if self._codes is None:
            import numpy as np

            types = self.m.types
            n = len(types)
            height = np.zeros(n, dtype=np.int16)
            half = np.zeros(n, dtype=np.int16)
            side = np.zeros(n, dtype=bool)
            bterr = np.zeros(n, dtype=bool)
            bld = np.zeros(n, dtype=bool)
            for i, t in enumerate(types):
                if t is None:
                    continue
                height[i] = t.height
                half[i] = 1 if (t.half_level or t.split != 0.0) else 0
                side[i] = t.is_hexside
                bterr[i] = t.is_building_terrain
                bld[i] = t.is_building
            self._codes = (height, half, side, bterr, bld)
            self.arrays = GridArrays(self.g)
            self.lookup = HexLookup(self.arrays)
        return self._codes

    def near_inherent_terrain(self, hid_cell) -> bool:
        """Whether the hex or a neighbour has inherent terrain (orchard, rubble,
        ...) at its centre: a line along a hexside takes it for the pixel's
        (Map.checkLOSOnHexsideRule)."""
        got = self._near_inherent.get(hid_cell)
        if got is None:
            cells = [hid_cell] + [a for s in range(6) if (a := self.adjacent(hid_cell, s)) is not None]
            got = self._near_inherent[hid_cell] = any(self.hx(c).center.inherent for c in cells)
        return got

    def run_some(self, st, result, order, xs, ys, codes, ground, hid, leaves_at: int) -> bool:
        """Map.LOS's loop over the pixels `order` of a line (indices into the
        arrays of its pixels, in the line's order; `leaves_at` the first pixel
        whose terrain is not a building's): True when the line is blocked
        there (its answer is then in `result`)."""
        types = self.m.types
        cell = self.arrays.cell if self.arrays is not None else None
        assert cell is not None
        for i in order:
            st.x, st.y = int(xs[i]), int(ys[i])
            st.terrain = types[int(codes[i])]
            st.ground = int(ground[i])
            st.temp_hex = cell(hid[i])
            if not st.leaves_building and i >= leaves_at:
                st.leaves_building = True
            pair = self._adjacent_hexes(st, st.temp_hex) if (st.horiz or st.s60) else None
            if pair is None:
                if self._apply(st, result):
                    return True
            else:
                top, bottom = pair
                if top is not None and self.ext_contains(top, st.x, st.y):
                    if self._on_hexside(result, st, top):
                        return True
                if bottom is not None and self.ext_contains(bottom, st.x, st.y):
                    if self._on_hexside(result, st, bottom):
                        return True
        return False

    # ------------------------------------------------------------ helpers

    def hx(self, h: tuple[int, int]) -> HexData:
        return self.m.hex(*h)

    def rng(self, a, b) -> int:
        return self.g.range(a, b)

    def adjacent(self, h, side):
        return self.g.adjacent(h[0], h[1], side)

    def nearest_side(self, h, x, y) -> int:
        return self.g.nearest_side(h, x, y)

    def ext_contains(self, h, x, y) -> bool:
        g = self.g.geo(*h)
        return polygon_contains(g.ex, g.ey, x, y)

    def hexsides_crossed(self, st: _Status, h) -> list[int]:
        """LOSStatus.getHexsideCrossed: the sides of the hex's extended
        outline the whole line touches, in order (kept per line)."""
        got = st.crossed.get(h)
        if got is None:
            got = st.crossed[h] = self._crossed(st, h)
        return got

    def _crossed(self, st: _Status, h) -> list[int]:
        g = self.g.geo(*h)
        out = []
        xs, ys = g.ex, g.ey
        for k in range(6):
            x1, y1, x2, y2 = xs[k], ys[k], xs[(k + 1) % 6], ys[(k + 1) % 6]
            if lines_intersect(x1, y1, x2, y2, st.sx, st.sy, st.tx, st.ty):
                out.append(k)
        return out

    # ------------------------------------------------------------ LOS

    def los(self, source: Loc, target: Loc) -> LosResult:
        """Map.LOS, every pixel of the line in turn."""
        result = TraceResult()
        if source.hex == target.hex and source.level == target.level:
            return LosResult(False, None, 0, 0, "")
        st = self._status(source, target, result)
        if self._same_hex(st, result):
            return self._answer(result)
        st.x = st.sx
        g = self.g
        m = self.m
        for col in range(st.num_cols):
            st.y = int(st.enter)
            rows = abs(int(st.exit) - int(st.enter)) + 1
            for _ in range(rows):
                x, y = st.x, st.y
                st.terrain = m.t(x, y)
                st.ground = int(m.elevation[x, y]) if g.on_map(x, y) else 0
                if self.ext_contains(st.source_hex, x, y):
                    st.temp_hex = st.source_hex
                elif self.ext_contains(st.target_hex, x, y):
                    st.temp_hex = st.target_hex
                else:
                    st.temp_hex = g.grid_to_hex(x, y)
                if st.temp_hex is None:
                    return self._answer(result)
                if not st.leaves_building and not st.terrain.is_building:
                    st.leaves_building = True
                pair = self._adjacent_hexes(st, st.temp_hex) if (st.horiz or st.s60) else None
                if pair is None:
                    if self._apply(st, result):
                        return self._answer(result)
                else:
                    top, bottom = pair
                    if top is not None and self.ext_contains(top, x, y):
                        if self._on_hexside(result, st, top):
                            return self._answer(result)
                    if bottom is not None and self.ext_contains(bottom, x, y):
                        if self._on_hexside(result, st, bottom):
                            return self._answer(result)
                st.y += st.row_dir
            st.enter = st.exit
            st.x += st.col_dir
            if col + 1 == st.num_cols:
                st.exit = float(st.ty)
            else:
                st.exit += st.delta_y
        return self._answer(result)

    def _answer(self, r: TraceResult) -> LosResult:
        return LosResult(r.blocked, r.at, r.hindrance(), r.rng, r.reason)

    def _on_hexside(self, result, st, h) -> bool:
        """Map.checkLOSOnHexsideRule."""
        st.temp_hex = h
        if h == st.source_hex or h == st.target_hex:
            return False
        center = self.hx(h).center
        if st.terrain.is_hexside and center.inherent:
            if self._apply(st, result):
                return True
        if center.inherent:
            if not (center.name in ("Dense Jungle", "Bamboo") and st.terrain.category == "WATER"):
                st.terrain = center
        return self._apply(st, result)

    def _adjacent_hexes(self, st, range_hex):
        """Map.getAdjacentHexes: the two hexes of the hexside a line along a
        hexside runs on at this pixel (None if it is in one hex)."""
        x, y = st.x, st.y
        if (
            self.ext_contains(st.source_hex, x, y)
            or self.ext_contains(st.target_hex, x, y)
            or (st.source.kind == "center" and self.rng(st.source.hex, range_hex) % 2 == 0)
        ):
            return None
        for s in range(6):
            temp = self.adjacent(range_hex, s)
            if temp is not None and self.ext_contains(temp, x, y):
                if temp != st.source_hex and temp != st.target_hex:
                    return range_hex, temp
        near = self.nearest_side(range_hex, x, y)
        for s in range(6):
            if near == s:
                temp = self.adjacent(range_hex, s)
                if temp is not None and temp != st.source_hex and temp != st.target_hex:
                    return range_hex, temp
        return None

    # ------------------------------------------------------------ status

    def _status(self, source: Loc, target: Loc, result: TraceResult) -> _Status:
        st = _Status()
        st.crossed = {}
        st.m = self.m
        st.g = self.g
        st.result = result
        st.source, st.target = source, target
        g = self.g
        st.sx, st.sy = g.geo(*source.hex).los
        st.tx, st.ty = g.geo(*target.hex).los
        st.col_dir = -1 if st.tx - st.sx < 0 else 1
        st.row_dir = -1 if st.ty - st.sy < 0 else 1
        st.num_cols = abs(st.tx - st.sx) + 1
        st.blocked, st.reason = False, ""
        st.terrain, st.terrain_hgt, st.ground = None, 0, -9999
        st.source_hex, st.target_hex = source.hex, target.hex
        st.current_hex = source.hex
        st.temp_hex = None
        st.source_elev = self.hx(source.hex).base + source.base
        st.target_elev = self.hx(target.hex).base + target.base
        st.range = self.rng(source.hex, target.hex)
        st.range_to_source = 0
        st.range_to_target = st.range
        st.continuous_slope = True
        st.leaves_building = not self.hx(source.hex).center.is_building
        st.delta_y = (float(st.ty) - float(st.sy)) / float(st.num_cols)
        st.enter = float(st.sy)
        st.exit = st.enter + st.delta_y
        result.rng = st.range
        st.horiz = st.sy == st.ty
        result.horiz = st.horiz
        dx = st.sx - st.tx
        slope = abs((st.sy - st.ty) / dx) if dx != 0 else math.inf
        tolerance = 0.05
        if 5 <= st.range <= 15:
            tolerance = 0.03
        elif st.range > 15:
            tolerance = 0.015
        st.s60 = abs(slope - math.tan(math.radians(60.0))) < tolerance
        result.s60 = st.s60
        if st.s60:
            if st.col_dir == 1:
                result.source_exit_spine, result.target_enter_spine = (3, 0) if st.row_dir == 1 else (1, 4)
            else:
                result.source_exit_spine, result.target_enter_spine = (4, 1) if st.row_dir == 1 else (0, 3)
        elif slope == 0.0:
            result.source_exit_spine, result.target_enter_spine = (2, 5) if st.col_dir == 1 else (5, 2)
        st.source_exit = [NONE, NONE]
        st.target_enter = [NONE, NONE]
        self._enter_exit_hexsides(st)
        sadj = -1 if source.terrain.is_rooftop else 0
        tadj = -1 if target.terrain.is_rooftop else 0
        te, se = st.target_elev + tadj, st.source_elev + sadj
        st.exits_source_depression = source.depression is not None and (
            (te - se > 0 and te - se <= st.range)
            or ((st.s60 or st.horiz) and self._exits_depression_side(st))
            or te == se
            or se > te
        )
        st.enters_target_depression = target.depression is not None and (
            (se - te > 0 and se - te <= st.range)
            or ((st.s60 or st.horiz) and self._enters_depression_side(st))
            or te == se
            or te > se
        )
        st.slopes = False  # no board archive read here gives slopes (BoardMetadata slopes)
        st.starts_on_hillock = source.terrain.name == HILLOCK or st.slopes
        st.ends_on_hillock = target.terrain.name == HILLOCK
        st.crossing_hillock = None
        st.crossed_hillocks = set()
        st.source_adjacent_hillock = st.target_adjacent_hillock = None
        st.first_wall_crossed = st.first_wall_point = None
        st.first_rubble = st.first_half_hindrance = None
        st.ignore_ground_hex = None
        st.previous_hex = None
        return st

    def _exits_depression_side(self, st) -> bool:
        if st.s60 or st.horiz:
            return False
        d = self.hx(st.source_hex)
        return any(s != NONE and d.side_depression[s] is not None for s in st.source_exit)

    def _enters_depression_side(self, st) -> bool:
        if st.s60 or st.horiz:
            return False
        d = self.hx(st.target_hex)
        return any(s != NONE and d.side_depression[s] is not None for s in st.target_enter)

    def _exit_crest(self, st) -> bool:
        return self._crest(st, st.source_hex, st.source_exit)

    def _enter_crest(self, st) -> bool:
        return self._crest(st, st.target_hex, st.target_enter)

    def _crest(self, st, h, sides) -> bool:
        d = self.hx(h)
        for s in sides:
            if s == NONE:
                continue
            a = self.adjacent(h, s)
            ad = self.hx(a) if a is not None else None
            if ad is None:
                continue
            if d.base != ad.base:
                return True
            dep_side = d.side_depression[s] is not None
            if (d.depression is not None and dep_side and ad.depression is None) or (
                d.depression is None and dep_side and ad.depression is not None
            ):
                return True
        return False

    def _enter_exit_hexsides(self, st) -> None:
        """LOSStatus.setEnterExitHexsides."""
        st.source_exit = self._exit_from_center(st)
        t = self._exit_from_center(st)
        st.target_enter = [(s + 3) % 6 if s != NONE else NONE for s in t]

    def _exit_from_center(self, st) -> list[int]:
        """LOSStatus.getExitFromCenterHexsides (both ends are centre dots)."""
        out = [NONE, NONE]
        dx = st.sx - st.tx
        if dx == 0:
            out[0] = 0 if st.sy - st.ty > 0 else 3  # +inf: up the map, -inf: down
            return out
        slope = (st.sy - st.ty) / dx
        if st.horiz:
            out[:] = [1, 2] if st.col_dir == 1 else [4, 5]
        elif st.s60:
            if st.col_dir == 1:
                out[:] = [2, 3] if slope > 0 else [0, 1]
            else:
                out[:] = [5, 0] if slope > 0 else [3, 4]
        else:
            crossed = self.hexsides_crossed(st, st.source_hex)
            if crossed:
                out[0] = crossed[0]
        return out

    # ------------------------------------------------------------ a pixel

    def _apply(self, st: _Status, result: TraceResult) -> bool:
        """Map.applyLOSRules."""
        terrain = st.terrain
        if terrain is None:
            return True
        st.terrain_hgt = terrain.height
        previous_terrain = None
        if st.temp_hex != st.current_hex:
            same_as_previous = False
            previous_terrain = self.hx(st.current_hex).center
            if st.previous_hex is None:
                st.previous_hex = st.current_hex
            elif st.previous_hex != st.temp_hex:
                st.previous_hex = st.current_hex
            else:
                same_as_previous = True
            st.current_hex = st.temp_hex
            st.range_to_source = self.rng(st.current_hex, st.source_hex)
            st.range_to_target = self.rng(st.current_hex, st.target_hex)
            cur = self.hx(st.current_hex)
            if abs(st.source_elev - cur.base) != st.range_to_source:
                st.continuous_slope = False
            if st.exits_source_depression or st.enters_target_depression:
                self._follow_depression(st, same_as_previous)
            self._hillock_status(st)
        if self._depression_rule(st, result):
            return True
        if self._building_restriction(st, result, previous_terrain):
            return True
        if st.terrain.is_hexside and not st.terrain.is_cliff:
            if self._hexside_rule(st, result):
                return True
        cur_hex = st.current_hex
        src, tgt = st.source_hex, st.target_hex
        t = st.terrain
        # (VASL also checks the source's and target's own hex for a Location
        # that is not a centre one: every Location here is a centre one)
        if cur_hex != src and st.range != st.range_to_target and cur_hex != tgt and st.range != st.range_to_source:
            if t.inherent and self.hx(cur_hex).center != t:
                return False
            if self._ground_level(st, result):
                return True
            if self._split(st, result):
                return True
            if self._half_level(st, result):
                return True
            if self._higher(st, result):
                return True
            if self._height(st, result):
                return True
            if self._blind(st, result):
                return True
            if self._hillock_rule(st, result):
                return True
        if st.blocked:
            result.set_blocked(st.x, st.y, st.reason)
            return True
        return False

    def _follow_depression(self, st, same_as_previous: bool) -> None:
        """The depression bookkeeping of applyLOSRules on entering a hex: only
        its ignoreGroundLevelHex reaches the rules."""
        sadj = -0.5 if st.source.terrain.is_rooftop else 0.0
        tadj = -0.5 if st.target.terrain.is_rooftop else 0.0
        cur = st.current_hex
        d = self.hx(cur)
        if st.exits_source_depression and not same_as_previous:
            if not st.horiz and not st.s60:
                near = self.nearest_side(cur, st.x, st.y)
                if st.target_elev + tadj > st.source_elev + sadj:
                    for s in self.hexsides_crossed(st, cur):
                        if s == near:
                            if d.side_depression[s] is not None or d.side_terrain[s].is_water:
                                rangeadj = st.range_to_source - 1
                                if (st.target_elev + tadj) - (st.source_elev + sadj) >= st.range_to_source - rangeadj:
                                    st.ignore_ground_hex = cur
        if st.enters_target_depression and not same_as_previous:
            near = self.nearest_side(cur, st.x, st.y)
            if not st.horiz and not st.s60:
                if st.source_elev + sadj > st.target_elev + tadj and cur != st.target_hex:
                    for s in self.hexsides_crossed(st, cur):
                        if s != near:
                            if d.side_depression[s] is not None or d.side_terrain[s].is_water:
                                rangeadj = st.range_to_source - 1
                                if (st.source_elev + sadj) - (st.target_elev + tadj) >= st.range_to_source - rangeadj:
                                    st.ignore_ground_hex = cur

    def _hillock_status(self, st) -> None:
        cur = self.hx(st.current_hex)
        t = st.terrain
        if (t.name == STONE_RUBBLE and cur.center.name == STONE_RUBBLE) or (
            t.name == WOODEN_RUBBLE and cur.center.name == WOODEN_RUBBLE
        ):
            if st.first_rubble is None:
                st.first_rubble = st.current_hex

    # ------------------------------------------------------------ the rules

    def _same_hex(self, st, result) -> bool:
        """Map.checkSameHexRule."""
        if st.source.hex != st.target.hex:
            return False
        result.rng = 0
        s, t = st.source, st.target
        if s.terrain.is_building_terrain and t.terrain.is_building_terrain:
            if abs(s.base - t.base) > 1 or not self.hx(s.hex).stairway:
                result.set_blocked(st.sx, st.sy, "Crosses building level or no stairway")
                return True
        if (s.terrain.is_bridge and t.kind == "center") or (t.terrain.is_bridge and s.kind == "center"):
            result.set_blocked(st.sx, st.sy, "Cannot see location under the bridge")
        return True

    def _block(self, st, result, reason: str) -> bool:
        st.reason = reason
        st.blocked = True
        result.set_blocked(st.x, st.y, reason)
        return True

    def _depression_rule(self, st, result) -> bool:
        """Map.checkDepressionRule. Its two halves (the line out of the
        source's depression, into the target's) are kept apart as VASL
        writes them, each to be read beside its Java."""
        if not (st.exits_source_depression or st.enters_target_depression):
            return False
        sadj = -0.5 if st.source.terrain.is_rooftop else 0.0
        tadj = -0.5 if st.target.terrain.is_rooftop else 0.0
        fse, fte = st.source_elev + sadj, st.target_elev + tadj
        cur = st.current_hex
        d = self.hx(cur)
        g = self.g
        t = st.terrain
        crossing = t.is_bridge or t.category == "ROAD"
        if st.exits_source_depression:
            base, dep = d.base, d.depression is not None
            if d.center.is_bridge:
                dep, base = True, base - 1
            test1 = (
                st.range_to_target > (fte - fse)
                and cur != st.target_hex
                and not (
                    dep and ((st.ground == base or fse >= st.ground) or (crossing and not self._exits_by_road(st)))
                )
                and not (not dep and st.ground <= fse)
            )
            if test1:
                if st.range == 1 and self._exits_depression_side(st):
                    test1 = False
                if (
                    fte - fse == 0
                    and cur != st.target_hex
                    and (
                        (dep and (st.ground == base or (crossing and not self._exits_by_road(st))))
                        or (not dep and st.ground <= fte)
                    )
                ):
                    test1 = False
                if self._special_exit(st):
                    test1 = False
            test2 = False
            if not test1:
                tc = g.geo(*st.target_hex).los
                cc = g.geo(*cur).los
                test2 = (
                    st.range_to_target == 1
                    and (
                        dep
                        and not (st.ground == base or (fse >= st.ground or fte > st.ground))
                        and not (crossing and not self._exits_by_road(st))
                    )
                    and math.dist(tc, (st.x, st.y)) > math.dist(tc, cc)
                )
            if not test1 and not test2:
                if cur == st.source_hex and t.is_cliff:
                    if self._blind(st, result):
                        return True
            if test1 or test2:
                return self._block(
                    st, result, "Exits depression before range/elevation restrictions are satisfied (A6.3)"
                )
            if self._exit_crest(st) and (st.s60 or st.horiz) and fse >= fte:
                return self._block(st, result, "Exits Crest Line - Depression hexside at vertex (B19.51)")
        if st.enters_target_depression:
            base, dep = d.base, d.depression is not None
            if d.center.is_bridge:
                dep, base = True, base - 1
            test1 = (
                st.range_to_source > (fse - fte)
                and cur != st.source_hex
                and not (
                    dep and ((st.ground == base or fte >= st.ground) or (crossing and not self._enters_by_road(st)))
                )
                and not (not dep and st.ground <= fte)
            )
            if test1:
                if st.range == 1 and self._exits_depression_side(st):
                    test1 = False
                if (
                    fse - fte == 0
                    and cur != st.source_hex
                    and (
                        (dep and (st.ground == base or (crossing and not self._enters_by_road(st))))
                        or (not dep and st.ground <= fte)
                    )
                ):
                    test1 = False
                if self._special_entry(st):
                    test1 = False
            test2 = False
            if not test1:
                sc = g.geo(*st.source_hex).los
                cc = g.geo(*cur).los
                test2 = (
                    st.range_to_source == 1
                    and (
                        dep
                        and not (st.ground == base or (fte >= st.ground or fse > st.ground))
                        and not (crossing and not self._enters_by_road(st))
                    )
                    and math.dist(sc, (st.x, st.y)) > math.dist(sc, cc)
                )
            if not test1 and not test2:
                if cur == st.target_hex and t.is_cliff:
                    if self._blind(st, result):
                        return True
            if test1 or test2:
                return self._block(
                    st, result, "Does not enter depression while range/elevation restrictions are satisfied (A6.3)"
                )
            if self._enter_crest(st) and (st.s60 or st.horiz) and fte >= fse:
                return self._block(st, result, "Enters Crest Line - Depression hexside at vertex (B19.51)")
        return False

    def _special_entry(self, st) -> bool:
        if st.range_to_source != 1:
            return False
        d = self.hx(st.current_hex)
        if st.source_elev <= d.base:
            return False
        sc = self.g.geo(*st.source_hex).los
        cc = self.g.geo(*st.current_hex).los
        return d.depression is not None and math.dist(sc, (st.x, st.y)) < math.dist(sc, cc)

    def _special_exit(self, st) -> bool:
        if st.range_to_target != 1:
            return False
        d = self.hx(st.current_hex)
        if st.target_elev <= d.base:
            return False
        tc = self.g.geo(*st.target_hex).los
        cc = self.g.geo(*st.current_hex).los
        return d.depression is not None and math.dist(tc, (st.x, st.y)) < math.dist(tc, cc)

    def _enters_by_road(self, st) -> bool:
        if st.s60 or st.horiz or st.previous_hex is None:
            return False
        d = self.hx(st.current_hex)
        for s in range(6):
            a = self.adjacent(st.current_hex, s)
            if a is not None and a == st.previous_hex and d.side_terrain[s].category == "ROAD":
                return True
        return False

    def _exits_by_road(self, st) -> bool:
        if st.s60 or st.horiz:
            return False
        crossed = self.hexsides_crossed(st, st.current_hex)
        if crossed and self.hx(st.current_hex).side_terrain[crossed[0]].category == "ROAD":
            return True
        return False

    def _building_restriction(self, st, result, previous_terrain) -> bool:
        """Map.checkBuildingRestrictionRule (factories: B23.87, not on these boards' pixels)."""
        if not st.leaves_building and st.current_hex != st.source_hex:
            if st.terrain.is_building_terrain:
                if not (st.source_elev > st.terrain_hgt + st.ground):
                    if st.source_elev != st.target_elev:
                        return self._block(
                            st,
                            result,
                            "LOS must leave the building before leaving the source hex to see a location with a "
                            "different elevation (A6.8 Example 2)",
                        )
        return False

    def _hexside_rule(self, st, result) -> bool:
        """Map.checkHexsideTerrainRule."""
        if st.starts_on_hillock or st.ends_on_hillock:
            return False
        t = st.terrain
        if t.is_rowhouse_wall:
            if self._rowhouse_wall(st, result):
                return self._block(st, result, "Cannot see through rowhouse/factory wall (B23.71/O5.31)")
            return False
        src, tgt = st.source, st.target
        if src.terrain.category == "ENTRENCHMENT":
            if st.range > 1 and st.target_elev <= st.source_elev:
                return self._block(
                    st,
                    result,
                    "Unit in entrenchment cannot see over hexside terrain to non-adjacent lower target (B27.2)",
                )
        elif tgt.terrain.category == "ENTRENCHMENT":
            if st.range > 1 and st.target_elev >= st.source_elev:
                return self._block(
                    st,
                    result,
                    "Cannot see non-adjacent unit in higher elevation entrenchment over hexside terrain (B27.2)",
                )
        elif src.terrain.is_cellar:
            if tgt.terrain.is_cellar or (
                st.range != 1 and st.range_to_source == 1 and st.target_elev <= st.source_elev + 1
            ):
                return self._block(
                    st, result, "Unit in cellar cannot see over hexside terrain to non-adjacent target (O6.3)"
                )
        elif tgt.terrain.is_cellar:
            if st.range != 1 and st.range_to_target == 1 and st.target_elev + 1 >= st.source_elev:
                return self._block(
                    st, result, "Unit in cellar cannot be seen over hexside terrain by non-adjacent target (O6.3)"
                )
        else:
            near = self.nearest_side(st.current_hex, st.x, st.y)
            loc = (st.current_hex, near)
            ignore = self._ignorable(st.source_hex, loc, result.source_exit_spine) or self._ignorable(
                st.target_hex, loc, result.target_enter_spine
            )
            if not ignore:
                top = st.ground + st.terrain_hgt
                if t.name == BOCAGE:
                    if (
                        (top > st.source_elev and top > st.target_elev)
                        or (top == st.source_elev and top == st.target_elev and t.half_level)
                        or (
                            top == max(st.source_elev, st.target_elev)
                            and top > min(st.source_elev, st.target_elev)
                            and not st.slopes
                        )
                    ):
                        return self._block(st, result, "Cannot see through/over bocage (B9.52)")
                    if self._is_blind(st, st.terrain_hgt):
                        return self._block(st, result, "Source or Target location is in a blind hex (B9.52)")
                elif st.ground == st.source_elev and st.ground == st.target_elev and not st.slopes:
                    return self._block(st, result, "Intervening hexside terrain (B9.2)")
        return False

    def _ignorable(self, h, loc, spine: int) -> bool:
        """Map.isIgnorableHexsideTerrain: hexside terrain beside an end, at
        its hexspines, or at the far end of a hexspine the line runs on."""
        loc_hex, side = loc
        if side == -1:
            return True
        d = self.hx(loc_hex)
        t = d.hexside[side]
        r = self.rng(h, loc_hex)
        if r > 2:
            return False
        # isAdjacentHexside: a hexside of h, or the other side of one
        if loc_hex == h:
            return True
        for x in range(6):
            h2 = self.adjacent(h, x)
            if h2 is not None and h2 == loc_hex and side == (x + 3) % 6:
                return True
        if self._is_hexspine(h, loc) and not (t is not None and t.name == BOCAGE):
            return True
        if r == 1 and not d.side_terrain[side].is_hexside:
            return True
        if spine >= 0:
            if r == 2:
                opp = self.adjacent(loc_hex, side)
                if opp is None:
                    return True
                if self.rng(h, opp) > 1:
                    return False
                loc_hex, side = opp, (side + 3) % 6
            hexside = 5 if spine == 0 else spine - 1
            hexspine = spine + 4 if spine < 2 else spine - 2
            hex1 = self.adjacent(h, hexside)
            hex2 = self.adjacent(h, spine)
            if hex1 is None or hex2 is None:
                return False
            t1 = self.hx(hex2).hexside[hexspine]
            t2 = self.hx(hex1).hexside[spine]
            t3 = self.hx(hex2).hexside[hexside]
            return (
                t1 is not None and ((loc_hex, side) in ((hex1, spine), (hex2, hexside))) and (t2 is None or t3 is None)
            )
        return False

    def _is_hexspine(self, h, loc) -> bool:
        """Map.isHexspine."""
        spines = {0: (2, 4), 1: (3, 5), 2: (4, 0), 3: (5, 1), 4: (0, 2), 5: (1, 3)}
        for x in range(6):
            h2 = self.adjacent(h, x)
            if h2 is not None and loc[0] == h2 and loc[1] in spines[x]:
                return True
        return False

    def _ground_level(self, st, result) -> bool:
        """Map.checkGroundLevelRule."""
        sadj = tadj = 0.0
        if st.source.terrain.is_cellar:
            sadj = 1.0
        if st.target.terrain.is_cellar:
            tadj = 1.0
        if st.source.terrain.is_rooftop:
            sadj = -0.5
        if st.target.terrain.is_rooftop:
            tadj = -0.5
        if st.terrain.is_bridge:
            st.ignore_ground_hex = st.current_hex
        if (st.s60 or st.horiz) and st.range_to_source % 2 != 0:
            x = self._side_along(st)
            if x != -1 and self.hx(st.current_hex).side_terrain[x].is_cliff:
                temp = self.adjacent(st.current_hex, x)
                base = self.hx(st.current_hex).base
                if temp is not None and temp != st.source_hex and temp != st.target_hex:
                    lower = min(base, self.hx(temp).base)
                else:
                    lower = base
                if lower <= max(st.source_elev, st.target_elev):
                    return False
        if (
            st.ground > st.source_elev + sadj
            and st.ground > st.target_elev + tadj
            and st.ignore_ground_hex != st.current_hex
        ):
            return self._block(st, result, "Ground level is higher than both the source and target (A6.2)")
        return False

    def _split(self, st, result) -> bool:
        """Map.checkSplitTerrainRule."""
        sadj = 1.0 if st.source.terrain.is_cellar else 0.0
        tadj = 1.0 if st.target.terrain.is_cellar else 0.0
        t = st.terrain
        if t.split != 0.0 and st.ground == st.source_elev + sadj and st.ground == st.target_elev + tadj:
            if st.slopes:
                if t.obstacle:
                    return self._block(st, result, "This terrain blocks LOS to up-slope location")
                return self._add_hindrance(st, result)
            if t.lower_obstacle or (not st.leaves_building and _outside_factory_wall(t)):
                return self._block(st, result, "This terrain blocks LOS to same same elevation Source and Target")
            if t.lower_hindrance:
                return self._add_hindrance(st, result)
        return False

    def _half_level(self, st, result) -> bool:
        """Map.checkHalfLevelTerrainRule."""
        if self._hillock_applicable(st) and not st.slopes:
            return False
        t = st.terrain
        sadj = -0.5 if st.source.terrain.is_rooftop and not st.target.terrain.is_rooftop else 0.0
        tadj = -0.5 if st.target.terrain.is_rooftop and not st.source.terrain.is_rooftop else 0.0
        top = st.ground + st.terrain_hgt
        return (
            t.half_level
            and not t.is_hexside
            and top == st.source_elev + sadj
            and top == st.target_elev + tadj
            and not st.slopes
            and self._apply_half_level(st, result)
        )

    def _apply_half_level(self, st, result) -> bool:
        if st.terrain.obstacle:
            return self._block(st, result, "Half level terrain is higher than both the source and/or the target (A6.2)")
        return self._add_hindrance(st, result)

    def _higher(self, st, result) -> bool:
        """Map.checkTerrainIsHigherRule."""
        t = st.terrain
        sadj = tadj = 0.0
        if st.source.terrain.is_rooftop:
            sadj = -0.5
        if st.target.terrain.is_rooftop:
            tadj = -0.5
        oadj = 0.5 if t.half_level and not t.is_hexside else 0.0
        if st.source.terrain.is_cellar:
            sadj = 1.0
        if st.target.terrain.is_cellar:
            tadj = 1.0
        if t.split != 0.0 and st.ground == st.source_elev + sadj and st.ground == st.target_elev + tadj:
            return False
        if t.name == BOCAGE:
            return False
        top = st.ground + st.terrain_hgt + oadj
        if top > st.source_elev + sadj and top > st.target_elev + tadj:
            if t.obstacle and "Light Woods" not in t.name:
                return self._block(st, result, "Terrain is higher than both the source and target (A6.2)")
            if not st.leaves_building and t.is_factory:
                return False
            if st.leaves_building and t.is_factory:
                return self._block(st, result, "Terrain is higher than both the source and target (A6.2)")
            if (t.is_bridge or "Road" in t.name) and (st.ground > st.source_elev and st.ground > st.target_elev):
                return False
            if not st.slopes:
                return self._add_hindrance(st, result)
        return False

    def _height(self, st, result) -> bool:
        """Map.checkTerrainHeightRule."""
        t = st.terrain
        sadj = tadj = oadj = 0.0
        if st.source.terrain.is_rooftop:
            sadj = -0.5
        if st.target.terrain.is_rooftop:
            tadj = -0.5
        if t.half_level and t.is_building:
            oadj = 0.5
        if st.source.terrain.is_cellar:
            sadj = 1.0
        if st.target.terrain.is_cellar:
            tadj = 1.0
        top = st.ground + st.terrain_hgt + oadj
        hi = max(st.source_elev + sadj, st.target_elev + tadj)
        lo = min(st.source_elev + sadj, st.target_elev + tadj)
        if top == hi and top > lo:
            cur = self.hx(st.current_hex)
            g = self.g
            cc = g.geo(*st.current_hex).los
            if st.range_to_source == 1 and (st.terrain_hgt + oadj == 0 and st.source_elev > cur.base):
                sc = g.geo(*st.source_hex).los
                if math.dist(sc, (st.x, st.y)) < math.dist(sc, cc):
                    return False
            if st.range_to_target == 1 and (st.terrain_hgt + oadj == 0 and st.target_elev > cur.base):
                tc = g.geo(*st.target_hex).los
                if math.dist(tc, (st.x, st.y)) < math.dist(tc, cc):
                    return False
            if st.slopes or st.starts_on_hillock or st.ends_on_hillock:
                return False
            if t.name == BOCAGE or t.is_rowhouse_wall:
                return False
            if (st.s60 or st.horiz) and st.range_to_source % 2 != 0:
                x = self._side_along(st)
                if x != -1 and cur.side_terrain[x].is_cliff:
                    temp = self.adjacent(st.current_hex, x)
                    if temp is not None and temp != st.source_hex and temp != st.target_hex:
                        lower = min(cur.base, self.hx(temp).base)
                    else:
                        lower = cur.base
                    if lower < max(st.source_elev, st.target_elev):
                        return False
            ign = st.ignore_ground_hex
            dep = cur.depression is not None
            if (
                not (ign is not None and self.ext_contains(ign, st.x, st.y))
                and not (st.enters_target_depression and dep)
                and not (st.exits_source_depression and dep)
            ) or (dep and st.terrain_hgt >= 1):
                water = cur.center.is_water and t.height < 1
                if not (
                    water
                    and (
                        (
                            st.range_to_source == 1
                            and st.source_elev > st.target_elev
                            and self.hx(st.target_hex).center.is_water
                        )
                        or (
                            st.range_to_target == 1
                            and st.target_elev > st.source_elev
                            and self.hx(st.source_hex).center.is_water
                        )
                    )
                ):
                    if t.name == "Orchard, Out of Season":
                        return self._add_hindrance(st, result)
                    return self._block(st, result, "Must have a height advantage to see over this terrain (A6.2)")
        return False

    def _blind(self, st, result) -> bool:
        """Map.checkBlindHexRule."""
        t = st.terrain
        sadj = tadj = 0.0
        if st.source.terrain.is_cellar:
            sadj = 1.0
        if st.target.terrain.is_cellar:
            tadj = 1.0
        if st.source.terrain.is_rooftop:
            sadj = -0.5
        if st.target.terrain.is_rooftop:
            tadj = -0.5
        lo = min(st.source_elev + sadj, st.target_elev + tadj)
        hi = max(st.source_elev + sadj, st.target_elev + tadj)
        top = st.ground + st.terrain_hgt
        if top == hi and top > lo:
            if (st.starts_on_hillock or st.slopes) and self._is_blind(st, st.terrain_hgt):
                return self._block(
                    st, result, "Source or Target location is in a blind hex from an up-slope location (F2.3)"
                )
        if t.name == BOCAGE:
            return False
        cliffadj = 1 if t.is_cliff else 0
        if lo < top + cliffadj < hi:
            adjust = -99
            if (st.s60 or st.horiz) and st.range_to_source % 2 != 0:
                x = self._side_along(st)
                cur = self.hx(st.current_hex)
                if x != -1 and cur.side_terrain[x].is_cliff:
                    temp = self.adjacent(st.current_hex, x)
                    if temp is not None and temp != st.source_hex and temp != st.target_hex:
                        adjust = min(cur.base, self.hx(temp).base)
            cliff = self._nearest_side_is_cliff(st, result)
            if self._is_blind(st, st.terrain_hgt, cliff, adjust):
                center = self.hx(st.current_hex).center
                if (t.obstacle and not t.is_hexside) or _outside_factory_wall(t):
                    if not center.is_roofless or _outside_factory_wall(t):
                        if not t.inherent or center == t:
                            if (st.s60 or st.horiz) and t.is_building:
                                if st.range_to_target % 2 == 0 or _outside_factory_wall(t):
                                    return self._block(st, result, "Source or Target location is in a blind hex (A6.4)")
                                # odd range: the other hex of the hexspine may be roofless (factories only)
                                return False
                            return self._block(st, result, "Source or Target location is in a blind hex (A6.4)")
                elif (
                    t.is_factory
                    and (st.leaves_building or st.target_elev > st.terrain_hgt + t.height)
                    and not center.is_roofless
                    and "Interior Factory Wall" not in t.name
                ):
                    if (st.s60 or st.horiz) and st.range_to_target % 2 != 0:
                        return False
                    return self._block(st, result, "Source or Target location is in a blind hex (B10.23)")
                elif lo < st.ground + cliffadj < hi and self._is_blind(st, 0, cliff, adjust):
                    return self._block(st, result, "Source or Target location is in a blind hex (B10.23)")
                elif st.current_hex != st.target_hex and st.current_hex != st.source_hex:
                    if t.name == "Orchard, Out of Season":
                        if st.range_to_target == 1:
                            return self._add_hindrance(st, result)
                    elif t.is_factory:
                        return False
                    else:
                        return self._add_hindrance(st, result)
        return False

    def _nearest_side_is_cliff(self, st, result) -> bool:
        """Map.nearestHexsideIsCliff."""
        if not st.s60 and not st.horiz:
            # (the pixel's hex, as gridToHex finds it: the current hex unless
            # it is an end's, taken from the end's grown outline)
            h = st.current_hex
            if h == st.source_hex or h == st.target_hex:
                h = self.g.grid_to_hex(st.x, st.y)
            if h is None:
                return False
            side = self.nearest_side(h, st.x, st.y)
            return side != -1 and self.hx(h).cliff[side]
        for h, spine in ((st.source_hex, result.source_exit_spine), (st.target_hex, result.target_enter_spine)):
            d = self.hx(h)
            if d.depression is not None and spine != NONE:
                if d.cliff[spine] and d.cliff[(spine + 1) % 6]:
                    return True
        return False

    def _is_blind(self, st, terrain_height: int, cliff: bool = False, cliff_adjust: int = -99) -> bool:
        """Map.isBlindHex."""
        sadj = tadj = 0.0
        half = False
        if st.source.terrain.is_rooftop:
            sadj, half = -0.5, True
        if st.target.terrain.is_rooftop:
            tadj, half = -0.5, True
        hadj = 0.5 if half and st.terrain.is_building and st.terrain.half_level else 0.0
        se, te = float(st.source_elev), float(st.target_elev)
        rs, rt = st.range_to_source, st.range_to_target
        ground = st.ground
        if se == te:
            return False
        se, te = se + sadj, te + tadj
        start, finish = st.source_hex, st.target_hex
        if se < te:
            se, te = te, se
            start, finish = finish, start
            rs, rt = rt, rs
        if st.slopes or st.starts_on_hillock:
            if st.ground + st.terrain_hgt == max(st.source_elev, st.target_elev):
                se += 1
        g = self.g
        if cliff and not st.s60 and not st.horiz:
            near = self.nearest_side(st.current_hex, st.x, st.y)
            near_cliff = near != -1 and self.hx(st.current_hex).side_terrain[near].is_cliff
            cc = g.geo(*st.current_hex).los
            sc, fc = g.geo(*start).los, g.geo(*finish).los
            if rs == 1 and se > terrain_height and near_cliff and math.dist(sc, (st.x, st.y)) < math.dist(sc, cc):
                return False
            if rt == 1 and se > terrain_height and near_cliff and math.dist(fc, (st.x, st.y)) > math.dist(fc, cc):
                return False
        elif st.s60 or st.horiz:
            if cliff_adjust != -99:
                ground = cliff_adjust
        if st.terrain.is_rowhouse_wall:
            rt += 1
            rs -= 1
        if terrain_height == 0 and not cliff:
            dadj = 0
            crossed = self.hexsides_crossed(st, st.current_hex)
            if crossed and self.hx(st.current_hex).side_depression[crossed[0]] is not None:
                dadj = -1
            return rt <= max(2 * (ground + dadj + terrain_height + hadj) + (rs // 5) - se - te, 0)
        return rt <= max(2 * (ground + terrain_height + hadj) + (rs // 5) - se - te + 1, 1)

    def _hillock_applicable(self, st) -> bool:
        top = st.ground + st.terrain_hgt
        return (
            top == st.source_elev
            and top == st.target_elev
            and (
                st.crossing_hillock is not None
                or st.starts_on_hillock
                or st.ends_on_hillock
                or st.source_adjacent_hillock is not None
                or st.target_adjacent_hillock is not None
            )
        )

    def _hillock_rule(self, st, result) -> bool:
        """Map.checkHillockRule: hillocks (F6) are desert terrain; the
        boards read here have none, so it never applies."""
        return False

    def _add_hindrance(self, st, result) -> bool:
        """Map.addHindranceHex."""
        cur = st.current_hex
        if cur == st.source_hex or cur == st.target_hex:
            return False
        # (the ranges of the hex the line is in, figured on entering it)
        full = st.range
        if st.range_to_source < full and st.range_to_target < full:
            value = 1
            t = st.terrain
            if (st.s60 or st.horiz) and st.range_to_source % 2 != 0:
                if t.is_roofless:
                    value = 2
                first = (result.source_exit_spine + 1) % 6
                second = (result.source_exit_spine + 4) % 6
                touched = self.nearest_side(cur, st.x, st.y)
                for side in (first, second):
                    if touched == side:
                        other = self.adjacent(cur, side)
                        if other is not None and self.hx(other).center.is_roofless:
                            value = 2
                        break
            elif "Light Woods" in t.name:
                value = 2
            elif t.is_roofless:
                value = 2
            result.add_hindrance(st.range_to_source, value, st.x, st.y)
            return result.blocked
        return False

    def _side_along(self, st) -> int:
        """Map.getHexsideWhenLOSAlongHexside."""
        te = st.target_enter
        if te[0] == -1:
            te[0] = self._missing_enter(0, st)
        if te[1] == -1:
            te[1] = self._missing_enter(1, st)
        pair = {te[0], te[1]}
        table = {
            frozenset((3, 4)): (2, 5),
            frozenset((4, 5)): (3, 0),
            frozenset((5, 0)): (4, 1),
            frozenset((0, 1)): (5, 2),
            frozenset((1, 2)): (0, 3),
            frozenset((2, 3)): (1, 4),
        }
        sides = table.get(frozenset(pair))
        if sides is None or len(pair) != 2:
            return -1
        g = self.g.geo(*st.current_hex)
        a, b = g.sides[sides[0]], g.sides[sides[1]]
        return sides[0] if math.dist((st.x, st.y), a) < math.dist((st.x, st.y), b) else sides[1]

    def _missing_enter(self, missing: int, st) -> int:
        """Map.findMissingTargetEnterHexside."""
        se, te = st.source_exit, st.target_enter
        if missing == 0:
            match = se[1] + 3
            match = match - 6 if match > 5 else match
            if match == te[1]:
                f = se[0] + 3
                return f - 6 if f > 5 else f
        else:
            match = se[0] + 3
            match = match - 6 if match > 5 else match
            if match == te[0]:
                f = se[1] + 3
                return f - 6 if f > 5 else f
        return -1

    def _rowhouse_wall(self, st, result) -> bool:
        """Map.checkRowhouseFactoryWall, for rowhouse walls (interior
        factory walls are on other boards)."""
        sadj = -1 if st.source.terrain.is_rooftop else 0
        tadj = -1 if st.target.terrain.is_rooftop else 0
        top = st.ground + st.terrain_hgt
        if st.source.terrain.is_rooftop and (
            st.range_to_source == 0
            or (st.range_to_source == 1 and st.current_hex == self.adjacent(st.source_hex, st.source_exit[0]))
        ):
            return False
        if st.target.terrain.is_rooftop and (
            st.range_to_target == 0
            or (st.range_to_target == 1 and st.current_hex == self.adjacent(st.target_hex, st.target_enter[0]))
        ):
            return False
        se, te = st.source_elev + sadj, st.target_elev + tadj
        if (
            (top > se and top > te)
            or (
                top == se
                and top == te
                and not (st.source.terrain.is_rooftop and st.target.terrain.is_rooftop)
                and st.terrain.half_level
            )
            or (top == max(se, te) and top > min(se, te))
        ):
            return True
        if st.source_elev > st.target_elev:
            side = self.nearest_side(st.current_hex, st.x, st.y)
            # (getAdjacentHex of the centre, side -1: the hex itself)
            test = self.adjacent(st.current_hex, side) if side != -1 else st.current_hex
            if test is not None:
                old = st.range_to_source
                st.range_to_source = min(old, self.rng(st.source_hex, test))
                blind = self._is_blind(st, st.terrain_hgt)
                st.range_to_source = old
                return blind
        elif st.target_elev > st.source_elev:
            side = self.nearest_side(st.current_hex, st.x, st.y)
            test = self.adjacent(st.current_hex, side) if side != -1 else st.current_hex
            if test is not None:
                old = st.range_to_target
                st.range_to_target = min(old, self.rng(st.source_hex, test))
                blind = self._is_blind(st, st.terrain_hgt)
                st.range_to_target = old
                return blind
        return False


def _outside_factory_wall(t) -> bool:
    return t.name in (
        "Stone Factory Wall, 1.5 Level",
        "Stone Factory Wall, 2.5 Level",
        "Wooden Factory Wall, 1.5 Level",
        "Wooden Factory Wall, 2.5 Level",
    )
