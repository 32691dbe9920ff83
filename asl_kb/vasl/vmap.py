"""The map VASL's LOS engine works on: the boards' pixels side by side, and a
hex grid over them with each hex's terrain, ground level and hexsides.

Learned from VASL's LOS/Map/Map.java (the map's hex grid, gridToHex, range,
insertMap, flip), Hex.java (a hex's outline, its Locations and resetTerrain:
how a hex's terrain, ground level and hexside terrain are read off the
pixels) and Location.java; ported here with the same arithmetic, so that a
hex and a pixel are what VASL takes them to be.

* A hex's terrain is the terrain at its centre dot (a building drawn off the
  dot counts when a hexside's middle shows it; inherent terrain anywhere in
  the hex nearer its centre than a hexside counts), its ground level the
  elevation at the centre dot, a hexside's terrain (wall, hedge, bocage,
  cliff) the terrain at the middle of the hexside, seen from either hex.
* A hex's Locations: its centre; above it the levels of a building (not of a
  plain one-level `Stone Building`/`Wooden Building`); a multi-hex building's
  rooftop and cellar (B23.8, O6).
* Each board's hexes are read on the board alone (as VASL does, before it
  puts the boards together); a reversed board's hexes are turned with it.

Everything is read lazily, a hex when a line first needs it; what a board
gives is kept per board archive.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from asl_kb.vasl.archive import BoardError, SharedMetadata, TerrainType

__all__ = ["Grid", "HexData", "Loc", "VaslMap", "BoardHexes"]

_COS30 = math.cos(math.radians(30.0))


def jround(v: float) -> int:
    """java.lang.Math.round."""
    return math.floor(v + 0.5)


def polygon_contains(xs: tuple, ys: tuple, x: float, y: float) -> bool:
    """java.awt.Polygon.contains(x, y): the crossing test, the bounding box
    first (a point on a left or top edge is inside, on a right or bottom one
    not)."""
    minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
    if not (minx <= x < maxx and miny <= y < maxy):
        return False
    hits = 0
    n = len(xs)
    lastx, lasty = xs[n - 1], ys[n - 1]
    for i in range(n):
        curx, cury = xs[i], ys[i]
        if cury == lasty:
            lastx, lasty = curx, cury
            continue
        if curx < lastx:
            if x >= lastx:
                lastx, lasty = curx, cury
                continue
            leftx = curx
        else:
            if x >= curx:
                lastx, lasty = curx, cury
                continue
            leftx = lastx
        if cury < lasty:
            if y < cury or y >= lasty:
                lastx, lasty = curx, cury
                continue
            if x < leftx:
                hits += 1
                lastx, lasty = curx, cury
                continue
            test1, test2 = x - curx, y - cury
        else:
            if y < lasty or y >= cury:
                lastx, lasty = curx, cury
                continue
            if x < leftx:
                hits += 1
                lastx, lasty = curx, cury
                continue
            test1, test2 = x - lastx, y - lasty
        if test1 < (test2 / (lasty - cury) * (lastx - curx)):
            hits += 1
        lastx, lasty = curx, cury
    return (hits & 1) != 0


def _ccw(x1: float, y1: float, x2: float, y2: float, px: float, py: float) -> int:
    """java.awt.geom.Line2D.relativeCCW."""
    x2 -= x1
    y2 -= y1
    px -= x1
    py -= y1
    ccw = px * y2 - py * x2
    if ccw == 0.0:
        ccw = px * x2 + py * y2
        if ccw > 0.0:
            px -= x2
            py -= y2
            ccw = px * x2 + py * y2
            if ccw < 0.0:
                ccw = 0.0
    return -1 if ccw < 0.0 else (1 if ccw > 0.0 else 0)


def unique(a, return_inverse: bool = False):
    """numpy.unique of a 1-D integer array (sorted), without numpy.unique's
    import of numpy.ma (tens of milliseconds at a command's start)."""
    import numpy as np

    a = np.asarray(a).ravel()
    order = np.argsort(a, kind="stable")
    s = a[order]
    first = np.ones(len(s), dtype=bool)
    if len(s) > 1:
        first[1:] = s[1:] != s[:-1]
    uniq = s[first]
    if not return_inverse:
        return uniq
    inv = np.empty(len(a), dtype=np.intp)
    inv[order] = np.cumsum(first) - 1
    return uniq, inv


def lines_intersect(x1, y1, x2, y2, x3, y3, x4, y4) -> bool:
    """java.awt.geom.Line2D.linesIntersect."""
    return (_ccw(x1, y1, x2, y2, x3, y3) * _ccw(x1, y1, x2, y2, x4, y4) <= 0) and (
        _ccw(x3, y3, x4, y4, x1, y1) * _ccw(x3, y3, x4, y4, x2, y2) <= 0
    )


class HexGeo:
    """A hex's outline and points on a map's grid (Hex.initHexNew)."""

    __slots__ = ("col", "row", "center", "los", "bx", "by", "ex", "ey", "sides", "vertices", "on_map", "bbox")

    def __init__(self, grid: Grid, col: int, row: int):
        self.col, self.row = col, row
        x, y = grid.center_dot(col, row)
        fix = grid.fix
        self.center = fix(x, y)
        self.los = (int(self.center[0]), int(self.center[1]))
        side = grid.hex_width * 2.0 / 3.0
        vo = grid.hex_height / 2.0
        v = [
            fix(-side / 2.0 + x, -vo + y),
            fix(side / 2.0 + x, -vo + y),
            fix(side + x, y),
            fix(side / 2.0 + x, vo + y),
            fix(-side / 2.0 + x, vo + y),
            fix(-side + x, y),
        ]
        self.bx = tuple(jround(p[0]) for p in v)
        self.by = tuple(jround(p[1]) for p in v)
        off = ((-1, -1), (-1, 1), (1, 0), (1, 1), (-1, 1), (-1, 0))
        self.ex = tuple(int(p[0]) + o[0] for p, o in zip(v, off))
        self.ey = tuple(int(p[1]) + o[1] for p, o in zip(v, off))
        self.vertices = tuple((int(p[0]), int(p[1])) for p in v)
        ho = _COS30 * vo
        hp = [
            fix(int(x), int(-vo + y + 1.0)),
            fix(int(ho + x - 1), int(-vo / 2.0 + y + 1.0)),
            fix(int(ho + x - 1), int(vo / 2.0 + y - 1.0)),
            fix(int(x), int(vo + y - 1.0)),
            fix(int(-ho + x + 1), int(vo / 2.0 + y - 1.0)),
            fix(int(-ho + x + 1), int(-vo / 2.0 + y + 1.0)),
        ]
        self.sides = tuple((int(p[0]), int(p[1])) for p in hp)
        on = [True] * 6
        if col == 0:
            on[4] = on[5] = False
        if col + 1 == grid.width:
            on[1] = on[2] = False
        # (the odd columns' ends, whatever the grid: VASL's Hex.setHexFlags)
        if col % 2 == 1 and row == 0:
            on[0] = on[1] = on[5] = False
        if col % 2 == 1 and row == grid.height:
            on[3] = on[2] = on[4] = False
        self.on_map = tuple(on)
        self.bbox = (min(self.bx), min(self.by), max(self.bx), max(self.by))

    def contains(self, x: int, y: int) -> bool:
        """Hex.contains: inside the outline (its bounds, then the polygon)."""
        x0, y0, x1, y1 = self.bbox
        return x0 <= x < x1 and y0 <= y < y1 and polygon_contains(self.bx, self.by, x, y)


class Grid:
    """A hex grid over a pixel grid, as VASL's Map builds it for a standard
    geomorphic board or a map of them: "Normal" (A1's centre dot at
    (0, 32.25), the odd columns the half-hex ones, a hex longer and half a
    hex higher in their hex indices), or, `shift` 1, VASL's "HalfHeight"
    grid of a board cropped from a half-hex column (A1CenterY 0: the even
    columns the half-hex ones)."""

    def __init__(
        self,
        width: int,
        height: int,
        grid_width: int,
        grid_height: int,
        hex_width: float,
        hex_height: float,
        shift: int = 0,
    ):
        self.width, self.height = width, height  # hexes: columns, hexes of a full-hex column
        self.grid_width, self.grid_height = grid_width, grid_height
        self.hex_width, self.hex_height = hex_width, hex_height
        self.shift = shift
        self.a1x, self.a1y = 0.0, (hex_height / 2.0 if shift == 0 else 0.0)
        self._geo: dict[tuple[int, int], HexGeo] = {}

    def half(self, col: int) -> int:
        """1 for a half-hex column (a hex longer, half a hex higher), else 0."""
        return (col + self.shift) % 2

    def column_length(self, col: int) -> int:
        return self.height + self.half(col)

    def on_grid(self, col: int, row: int) -> bool:
        return 0 <= col < self.width and 0 <= row < self.height + self.half(col)

    def center_dot(self, col: int, row: int) -> tuple[float, float]:
        """Map.getHexCenterPoint (A1CenterY 0: the even columns half a hex
        higher, from 32.25 as VASL writes it)."""
        return (
            (0.0 if self.a1x < 0 else self.a1x) + self.hex_width * col,
            self.hex_height / 2.0 + self.hex_height * row - self.hex_height / 2.0 * self.half(col),
        )

    def fix(self, x: float, y: float) -> tuple[float, float]:
        """Hex.fixMapEdgePoints: points on the map's far edges moved onto it."""
        nx = 0.0 if x == -1.0 else x
        ny = 0.0 if y == -1.0 else y
        if int(nx) in (self.grid_width, self.grid_width + 1):
            nx = self.grid_width - 1.0
        if int(ny) in (self.grid_height, self.grid_height + 1):
            ny = self.grid_height - 1.0
        return nx, ny

    def geo(self, col: int, row: int) -> HexGeo:
        g = self._geo.get((col, row))
        if g is None:
            g = self._geo[(col, row)] = HexGeo(self, col, row)
        return g

    def adjacent(self, col: int, row: int, side: int) -> tuple[int, int] | None:
        """Map.getAdjacentHex (sides 0..5: N, NE, SE, S, SW, NW; its
        "HalfHeight" case is the same with the columns' parity turned)."""
        even = self.half(col) == 0
        if side == 0:
            row -= 1
        elif side == 1:
            col += 1
            row += 0 if even else -1
        elif side == 2:
            col += 1
            row += 1 if even else 0
        elif side == 3:
            row += 1
        elif side == 4:
            col -= 1
            row += 1 if even else 0
        elif side == 5:
            col -= 1
            row += 0 if even else -1
        else:
            return None
        return (col, row) if self.on_grid(col, row) else None

    def on_map(self, x: int, y: int) -> bool:
        return 0 <= x < self.grid_width and 0 <= y < self.grid_height

    def grid_to_hex(self, x: int, y: int) -> tuple[int, int] | None:
        """Map.gridToHex: the hex a pixel is in (None off the map)."""
        if not self.on_map(x, y):
            return None
        hh = self.hex_height
        z = int((x - (0 if self.a1x < 0.0 else self.a1x)) / (self.hex_width / 3.0))
        ok = self.on_grid

        def has(c: int, r: int) -> bool:
            return ok(c, r) and self.geo(c, r).contains(x, y)

        if (z - 1) % 3 == 0 and z >= 1:
            col = math.ceil((z - 1.0) / 3.0)
            row = int(y / hh) if self.half(col) == 0 else int((y + hh / 2.0) / hh)
            if not ok(col, row):
                return None  # an index out of range: VASL's catch returns null
            if self.geo(col, row).contains(x, y):
                return col, row
            n = self.width
            for c, r in ((col, row - 1), (col, row + 1), (col + 1, row), (col + 1, row - 1), (col + 1, row + 1)):
                if c < n and r >= 0 and ok(c, r) and self.geo(c, r).contains(x, y):
                    return c, r
            for c, r in ((col - 1, row), (col - 1, row - 1)):
                if c >= 0 and r >= 0 and ok(c, r) and self.geo(c, r).contains(x, y):
                    return c, r
            if col - 1 >= 0 and row + 1 < self.column_length(col - 1):
                return (col - 1, row + 1) if self.geo(col - 1, row + 1).contains(x, y) else None
            if col % 2 == 0 and self.shift == 0:  # VASL's "Normal" grid only
                if col + 1 < n and row + 1 < self.column_length(col + 1):
                    if has(col + 1, row + 1):
                        return col + 1, row + 1
                    if row < self.column_length(col + 1):
                        return (col + 1, row) if has(col + 1, row) else None
                return None
            if col + 1 < n and row - 1 >= 0 and row - 1 < self.column_length(col + 1):
                if has(col + 1, row - 1) or row == self.height:
                    return col + 1, row - 1
                if row < self.column_length(col + 1):
                    return (col + 1, row) if has(col + 1, row) else None
                return None
            return None
        col = math.ceil(z / 3.0)
        row = int(y / hh) if self.half(col) == 0 else int((y + hh / 2.0) / hh)
        return (col, row) if ok(col, row) else None

    def range(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Map.range: hexes between two hexes (its column-by-column walk is
        the hex grid's distance: the odd columns' hexes sit half a hex higher
        than the even ones' of the same index)."""
        ac, ar = a
        bc, br = b
        az, bz = self.cube_z(ac, ar), self.cube_z(bc, br)
        dx, dz = ac - bc, az - bz
        return max(abs(dx), abs(dz), abs(dx + dz))

    def cube_z(self, col, row):
        """The hex's cube z (its column the cube x); ints or numpy arrays."""
        c = col + self.shift
        return row - ((c + (c & 1)) >> 1)

    def nearest_side(self, hx: tuple[int, int], x: int, y: int) -> int:
        """Hex.getNearestLocation: -1 for the centre, else the hexside (its
        middle nearer the point than the centre dot and the other sides')."""
        g = self.geo(*hx)
        cx, cy = g.los
        # squared distances: Java's Point2D.distance is their square root
        best = (x - cx) ** 2 + (y - cy) ** 2
        out = -1
        for s in range(6):
            if g.on_map[s]:
                sx, sy = g.sides[s]
                d = (x - sx) ** 2 + (y - sy) ** 2
                if d < best:
                    best, out = d, s
        return out


class Loc:
    """A Location of a hex (Location.java): its level above the hex's ground
    (Location.baseHeight), its terrain, and which of the hex's Locations it is
    (`kind`: "center", "up", "down")."""

    __slots__ = ("hex", "base", "terrain", "depression", "kind", "level")

    def __init__(self, hx, base: int, terrain: Any, kind: str, level: int, depression=None):
        self.hex, self.base, self.terrain, self.kind, self.level = hx, base, terrain, kind, level
        self.depression = depression


class HexData:
    """What VASL's Hex knows of its terrain after resetTerrain."""

    __slots__ = (
        "base",
        "center",
        "depression",
        "side_terrain",
        "side_depression",
        "hexside",
        "cliff",
        "stairway",
        "levels",
    )

    def __init__(self, open_ground: Any):
        self.base = 0
        self.center = open_ground
        self.depression: Any = None
        self.side_terrain: list[Any] = [open_ground] * 6
        self.side_depression: list[Any] = [None] * 6
        self.hexside: list[Any] = [None] * 6
        self.cliff = [False] * 6
        self.stairway = False
        #: the Locations above (level, terrain) and below the centre, in order
        self.levels: list[tuple[int, Any]] = []

    def turned(self) -> HexData:
        """The hex of a reversed board: its hexsides turned by three."""
        h = HexData.__new__(HexData)
        h.base, h.center, h.depression, h.stairway, h.levels = (
            self.base,
            self.center,
            self.depression,
            self.stairway,
            self.levels,
        )
        h.side_terrain = self.side_terrain[3:] + self.side_terrain[:3]
        h.side_depression = self.side_depression[3:] + self.side_depression[:3]
        h.hexside = self.hexside[3:] + self.hexside[:3]
        h.cliff = self.cliff[3:] + self.cliff[:3]
        return h


class BoardHexes:
    """A board's hexes read on the board alone (Hex.resetTerrain on the
    board's own Map): cached per board archive."""

    def __init__(self, terrain: Any, elevation: Any, width: int, height: int, meta: SharedMetadata, stairways):
        gw, gh = terrain.shape
        self.grid = Grid(width, height, gw, gh, gw / (width - 1.0), gh / float(height))
        self.terrain, self.elevation = terrain, elevation
        self.meta = meta
        self.types = _types(meta)
        self.open = _by_name(meta, "Open Ground")
        self.stairways = stairways
        self._data: dict[tuple[int, int], HexData] = {}

    def t(self, x: int, y: int) -> TerrainType:
        """Map.getGridTerrain (None off the board)."""
        g = self.grid
        if not g.on_map(x, y):
            return None  # type: ignore[return-value]
        code = int(self.terrain[x, y])
        t = self.types[code]
        if t is None:
            raise BoardError(f"{self.meta.source}: no terrain type with code {code} (a pixel at {x}, {y})")
        return t

    def hex(self, col: int, row: int) -> HexData:
        d = self._data.get((col, row))
        if d is None:
            d = self._data[(col, row)] = self._reset(col, row)
        return d

    _current: tuple[int, int] = (0, 0)

    def _reset(self, col: int, row: int) -> HexData:
        """Hex.resetTerrain (gridadj 0)."""
        outer = self._current
        self._current = (col, row)
        try:
            return self._reset_hex(col, row)
        finally:
            self._current = outer

    def _reset_hex(self, col: int, row: int) -> HexData:
        g = self.grid
        geo = g.geo(col, row)
        d = HexData(self.open)
        cx, cy = geo.los
        center = self.t(cx, cy)
        if not center.is_building:
            for s in range(6):
                tt = self.t(*geo.sides[s])
                if tt is not None and tt.is_building:
                    center = tt
                    break
        d.center = center
        d.stairway = (col, row) in self.stairways
        if center.is_building:
            old_stairway = d.stairway and center.name not in ("Stone Building, 1 Level", "Wooden Building, 1 Level")
            if center.category == "MARKETPLACE":
                d.center = self.open
            plain = center.name in ("Wooden Building", "Stone Building")
            if not plain:
                for level in range(1, center.height + 1):
                    if center.is_factory and not d.stairway:
                        continue
                    d.levels.append((level, center))
            d.stairway = center.name in ("Stone Building, 1 Level", "Wooden Building, 1 Level") or old_stairway
            if not plain and not center.is_factory and self._multihex(geo):
                cellar = _by_name(self.meta, "Cellar", None)
                if cellar is not None:
                    d.levels.insert(0, (-1, cellar))
            if not plain and not center.is_roofless and self._multihex(geo):
                roof = _by_name(self.meta, "Rooftop", None)
                if roof is not None:
                    top = sum(1 for lv, _ in d.levels if lv > 0)
                    if center.is_factory:
                        top = center.height
                    d.levels.append((top + 1, roof))
        for s in range(6):
            if not geo.on_map[s]:
                continue
            tt = self.t(*geo.sides[s])
            other = g.adjacent(col, row, s)
            if other is not None:
                ot = self.t(*g.geo(*other).sides[(s + 3) % 6])
                if not tt.is_hexside and ot.is_hexside:
                    tt = ot
            if tt.is_hexside:
                d.hexside[s] = tt
                if tt.name == "Cliff":
                    d.cliff[s] = True
            d.side_terrain[s] = tt
        d.base = int(self.elevation[cx, cy])
        if d.center.is_depression:
            d.depression = d.center
        self._inherent(geo, d)
        # resetHexsideTerrain
        for s in range(6):
            if not geo.on_map[s]:
                continue
            tt = self.t(*geo.sides[s])
            if tt.is_hexside:
                d.hexside[s] = tt
                if tt.is_cliff:
                    d.cliff[s] = True
            elif tt.is_depression:
                d.side_depression[s] = tt
            other = g.adjacent(col, row, s)
            if other is not None:
                ot = self._side_hexside_terrain(other, (s + 3) % 6)
                if ot is not None:
                    d.hexside[s] = ot
                    if ot.is_cliff:
                        d.cliff[s] = True
        self._bridges(geo, d)
        return d

    def _side_hexside_terrain(self, hx: tuple[int, int], side: int) -> TerrainType | None:
        """The hexside terrain a neighbour has when VASL resets this hex:
        resetHexTerrain goes column by column, so a neighbour before this hex
        has its own, one after it none yet."""
        return self.hex(*hx).hexside[side] if hx < self._current else None

    def _multihex(self, geo: HexGeo) -> bool:
        for s in range(6):
            tt = self.t(*geo.sides[s])
            if tt is not None and tt.is_building:
                return True
        return False

    def _inherent(self, geo: HexGeo, d: HexData) -> None:
        """Hex.setInherentTerrain: the first inherent terrain (column by
        column) in the hex's bounding box nearer the centre dot than a
        hexside (Hex.getNearestLocation, vectorized: squared distances,
        Java's Point2D.distance being monotonic in them)."""
        import numpy as np

        inherent, _bridges, _depressions = self._luts()
        if inherent is None:
            return
        box = self._on_grid(geo)
        if box is None:
            return
        xa, xb, ya, yb = box
        hits = inherent[self.terrain[xa:xb, ya:yb]]
        if not hits.any():
            return
        at = np.argwhere(hits)  # x-major, as VASL's loops
        xs, ys = at[:, 0] + xa, at[:, 1] + ya
        cx, cy = geo.los
        centre = (xs - cx) ** 2 + (ys - cy) ** 2
        nearest = np.ones(len(xs), dtype=bool)
        for s in range(6):
            if geo.on_map[s]:
                sx, sy = geo.sides[s]
                nearest &= (xs - sx) ** 2 + (ys - sy) ** 2 >= centre
        first = np.flatnonzero(nearest)
        if first.size:
            i = int(first[0])
            d.center = self.t(int(xs[i]), int(ys[i]))

    def _on_grid(self, geo: HexGeo) -> tuple[int, int, int, int] | None:
        """The hex's bounding box clipped to the terrain grid (x from, x to,
        y from, y to), or None where none of it is on the grid."""
        x0, y0, x1, y1 = geo.bbox
        g = self.grid
        xa, xb = max(x0, 0), min(x1, g.grid_width)
        ya, yb = max(y0, 0), min(y1, g.grid_height)
        return None if xa >= xb or ya >= yb else (xa, xb, ya, yb)

    _lut_cache: Any = None

    def _luts(self):
        """Per terrain code: inherent, bridge, depression (boolean lookup
        tables; None when no code is)."""
        if self._lut_cache is None:
            import numpy as np

            def lut(test):
                out = np.zeros(256, dtype=bool)
                for i, t in enumerate(self.types):
                    if t is not None and test(t):
                        out[i] = True
                return out if out.any() else None

            self._lut_cache = (
                lut(lambda t: t.inherent),
                lut(lambda t: t.is_bridge),
                lut(lambda t: t.is_depression),
            )
        return self._lut_cache

    def _bridges(self, geo: HexGeo, d: HexData) -> None:
        """Hex.fixBridges: a bridge hex has a Location on the bridge and one
        under it."""
        import numpy as np

        _inherent, bridges, depressions = self._luts()
        if bridges is None:
            return
        box = self._on_grid(geo)
        if box is None:
            return
        xa, xb, ya, yb = box
        block = self.terrain[xa:xb, ya:yb]
        if not bridges[block].any():
            return
        either = bridges[block] if depressions is None else bridges[block] | depressions[block]
        found_bridge = found_depression = None
        for ix, iy in np.argwhere(either):
            x, y = int(xa + ix), int(ya + iy)
            if not polygon_contains(geo.bx, geo.by, x, y):
                continue
            tt = self.types[int(self.terrain[x, y])]
            assert tt is not None
            if tt.is_bridge and found_bridge is None:
                found_bridge = tt
            if tt.is_depression and found_depression is None:
                found_depression = tt
        if found_bridge is None:
            return
        if d.depression is not None:
            d.levels.append((1, found_bridge))  # the road on the bridge, a level above
        elif d.center.is_bridge and found_depression is not None:
            d.levels.insert(0, (-1, found_depression))


class Terr:
    """A terrain type with Terrain.java's derived properties figured once
    (the trace asks them at every pixel): plain attributes, copied from the
    TerrainType."""

    type: Any
    code: Any
    name: Any
    height: Any
    obstacle: Any
    hindrance: Any
    half_level: Any
    inherent: Any
    split: Any
    lower_obstacle: Any
    lower_hindrance: Any
    category: Any
    is_building: Any
    is_building_terrain: Any
    is_factory: Any
    is_rowhouse_wall: Any
    is_hexside: Any
    is_open: Any
    is_water: Any
    is_depression: Any
    is_cliff: Any
    is_rooftop: Any
    is_roofless: Any
    is_bridge: Any
    is_cellar: Any
    __slots__ = tuple(__annotations__)

    def __init__(self, t: TerrainType):
        self.type = t
        for k in self.__slots__:
            if k not in ("type", "is_cellar"):
                setattr(self, k, getattr(t, k))
        self.is_cellar = "Cellar" in t.name

    def __repr__(self) -> str:
        return f"Terr({self.name!r})"


@cache
def _types(meta: SharedMetadata) -> list:
    """Map.setTerrain's terrainList: by code, the last type of each name
    (kept per metadata; never changed by its callers)."""
    types: list = [None] * 256
    for t in meta.by_name.values():
        if 0 <= t.code < 256:
            types[t.code] = Terr(t)
    return types


def _by_name(meta: SharedMetadata, name: str, default: Any = BoardError):
    t = meta.by_name.get(name)
    if t is None:
        if default is BoardError:
            raise BoardError(f"{meta.source}: no terrain type {name!r}")
        return default
    return _types(meta)[t.code] if 0 <= t.code < 256 else Terr(t)


class VaslMap:
    """The boards of a layout as one VASL map: its pixels (each board's
    LOSData, reversed boards turned) and hex grid (Map.insertMap)."""

    def __init__(self, pieces: list, size: tuple[int, int], meta: SharedMetadata):
        """`pieces`: each board as VASL's map gets it (insert.Piece: its
        hexes, its top left on the map, reversed, cropped), every board a
        standard geomorphic one; `size` the map's width and height
        (ASLMap.buildVASLMap)."""
        from asl_kb.vasl.insert import assemble

        first = pieces[0].hexes
        hw, hh = first.grid.hex_width, first.grid.hex_height
        map_w, map_h = size

        def make_grid(width: int, height: int, shift: int) -> Grid:
            return Grid(width, height, map_w, map_h, hw, hh, shift)

        self.grid, self.terrain, self.elevation, self._sources = assemble(pieces, size, make_grid)
        self.meta = meta
        self.types = first.types
        self.open = first.open
        self._data: dict[tuple[int, int], HexData] = {}

    def t(self, x: int, y: int) -> TerrainType | None:
        if not self.grid.on_map(x, y):
            return None
        return self.types[int(self.terrain[x, y])]

    def hex(self, col: int, row: int) -> HexData:
        """The hex's data as Map.insertMap copied it (Hex.copy), each board's
        hex copied over it in turn: a seam's half hexes are one hex, its
        hexsides those of the board that has them on its side."""
        d = self._data.get((col, row))
        if d is not None:
            return d
        copies = self._sources.get((col, row), ())
        if (
            len(copies) == 1
            and all(self.grid.geo(col, row).on_map)
            and all(copies[0][0].grid.geo(*copies[0][1:3]).on_map)
        ):
            d = self._copied(*copies[0])  # a hex of one board (most): as that board has it
        else:
            d = HexData(self.open)
            geo = self.grid.geo(col, row)
            for hexes, c, r, rev in copies:
                src = self._copied(hexes, c, r, rev)
                lgeo = hexes.grid.geo(c, r)
                on_local = lgeo.on_map[3:] + lgeo.on_map[:3] if rev else lgeo.on_map
                d.base, d.center, d.depression, d.stairway = src.base, src.center, src.depression, src.stairway
                # the Locations above and below the centre: a chain the copy
                # replaces where it has one
                ups = [x for x in src.levels if x[0] > 0] or [x for x in d.levels if x[0] > 0]
                downs = [x for x in src.levels if x[0] < 0] or [x for x in d.levels if x[0] < 0]
                d.levels = ups + downs
                for s in range(6):
                    if geo.on_map[s] and on_local[s]:
                        d.side_terrain[s] = src.side_terrain[s]
                        d.side_depression[s] = src.side_depression[s]
                        d.hexside[s] = src.hexside[s]
                        d.cliff[s] = src.cliff[s]
        self._data[(col, row)] = d
        return d

    @staticmethod
    def _copied(hexes: BoardHexes, c: int, r: int, rev: bool) -> HexData:
        local = hexes.hex(c, r)
        return local.turned() if rev else local

    def location(self, col: int, row: int, level: int) -> Loc | None:
        """The hex's Location at `level` (0: the centre; 1, 2, ...: the
        Locations above it in order; -1: below), None when there is none."""
        d = self.hex(col, row)
        if level == 0:
            return Loc((col, row), 0, d.center, "center", 0, d.depression)
        ups = [t for lv, t in d.levels if lv > 0]
        downs = [t for lv, t in d.levels if lv < 0]
        if level > 0:
            if level > len(ups):
                return None
            lv = [lv for lv, _ in d.levels if lv > 0][level - 1]
            return Loc((col, row), lv, ups[level - 1], "up", level)
        if -level > len(downs):
            return None
        return Loc((col, row), -1, downs[-level - 1], "down", level)


class GridArrays:
    """A Grid's hexes as arrays, for many pixels at once: each hex's outline
    and extended outline (vertices by hex index col * (height + 1) + row),
    and gridToHex and Polygon.contains over arrays of pixels, with the same
    arithmetic as the one-pixel versions above."""

    def __init__(self, grid: Grid):
        import numpy as np

        self.grid = grid
        g = grid
        self.stride = g.height + 1
        cols = np.repeat(np.arange(g.width), self.stride)
        rows = np.tile(np.arange(self.stride), g.width)
        half = (cols + g.shift) % 2
        self.valid = rows < g.height + half
        x = (0.0 if g.a1x < 0 else g.a1x) + g.hex_width * cols
        y = g.hex_height / 2.0 + g.hex_height * rows - g.hex_height / 2.0 * half
        side = g.hex_width * 2.0 / 3.0
        vo = g.hex_height / 2.0

        def fix(px, py):
            px = np.where(px == -1.0, 0.0, px)
            py = np.where(py == -1.0, 0.0, py)
            tx, ty = np.trunc(px), np.trunc(py)
            px = np.where((tx == g.grid_width) | (tx == g.grid_width + 1), g.grid_width - 1.0, px)
            py = np.where((ty == g.grid_height) | (ty == g.grid_height + 1), g.grid_height - 1.0, py)
            return px, py

        v = [
            fix(-side / 2.0 + x, -vo + y),
            fix(side / 2.0 + x, -vo + y),
            fix(side + x, y),
            fix(side / 2.0 + x, vo + y),
            fix(-side / 2.0 + x, vo + y),
            fix(-side + x, y),
        ]
        cx, cy = fix(x, y)
        #: each hex's centre dot as a whole pixel (Hex.getHexCenter: the LOS point)
        self.los_x = np.trunc(cx).astype(np.int64)
        self.los_y = np.trunc(cy).astype(np.int64)
        self.bx = np.stack([np.floor(p[0] + 0.5) for p in v], axis=1).astype(np.int64)
        self.by = np.stack([np.floor(p[1] + 0.5) for p in v], axis=1).astype(np.int64)
        off = ((-1, -1), (-1, 1), (1, 0), (1, 1), (-1, 1), (-1, 0))
        self.ex = np.stack([np.trunc(p[0]).astype(np.int64) + o[0] for p, o in zip(v, off)], axis=1)
        self.ey = np.stack([np.trunc(p[1]).astype(np.int64) + o[1] for p, o in zip(v, off)], axis=1)
        self.col_len = g.height + (np.arange(g.width) + g.shift) % 2

    def hid(self, col: int, row: int) -> int:
        return col * self.stride + row

    def cell(self, hid: int) -> tuple[int, int]:
        return divmod(int(hid), self.stride)

    @staticmethod
    def contains(px, py, xs, ys):
        """java.awt.Polygon.contains of each point in its own polygon
        (xs, ys: one row of vertices per point)."""
        import numpy as np

        inside = (px >= xs.min(1)) & (px < xs.max(1)) & (py >= ys.min(1)) & (py < ys.max(1))
        hits = np.zeros(px.shape, dtype=np.int64)
        n = xs.shape[1]
        lastx, lasty = xs[:, n - 1], ys[:, n - 1]
        for i in range(n):
            curx, cury = xs[:, i], ys[:, i]
            active = cury != lasty
            left = curx < lastx
            skip = np.where(left, px >= lastx, px >= curx)
            leftx = np.where(left, curx, lastx)
            up = cury < lasty
            skip |= np.where(up, (py < cury) | (py >= lasty), (py < lasty) | (py >= cury))
            act = active & ~skip
            left_hit = act & (px < leftx)
            t1 = np.where(up, px - curx, px - lastx).astype(np.float64)
            t2 = np.where(up, py - cury, py - lasty).astype(np.float64)
            den = np.where(active, lasty - cury, 1).astype(np.float64)
            cross = act & ~left_hit & (t1 < (t2 / den * (lastx - curx)))
            hits += left_hit | cross
            lastx, lasty = curx, cury
        return inside & ((hits & 1) == 1)

    def has(self, px, py, col, row):
        """On the grid and containing the point (Hex.contains)."""
        import numpy as np

        g = self.grid
        ok = (col >= 0) & (col < g.width) & (row >= 0)
        ok &= row < np.where(ok, self.col_len[np.clip(col, 0, g.width - 1)], 0)
        out = np.zeros(px.shape, dtype=bool)
        if ok.any():
            h = col[ok] * self.stride + row[ok]
            out[ok] = self.contains(px[ok], py[ok], self.bx[h], self.by[h])
        return out, ok

    def grid_to_hex(self, px, py):
        """Map.gridToHex for arrays of pixels: hex indices, -1 where VASL has
        none (off the map)."""
        import numpy as np

        g = self.grid
        out = np.full(px.shape, -1, dtype=np.int64)
        on = (px >= 0) & (px < g.grid_width) & (py >= 0) & (py < g.grid_height)
        hh = g.hex_height
        z = np.trunc((px - (0 if g.a1x < 0.0 else g.a1x)) / (g.hex_width / 3.0)).astype(np.int64)
        grey = ((z - 1) % 3 == 0) & (z >= 1) & on
        plain = on & ~grey

        def row_of(col, y):
            return np.where((col + g.shift) % 2 == 0, np.trunc(y / hh), np.trunc((y + hh / 2.0) / hh)).astype(np.int64)

        if plain.any():
            x, y = px[plain], py[plain]
            col = np.ceil(z[plain] / 3.0).astype(np.int64)
            row = row_of(col, y)
            ok = (col < g.width) & (row >= 0)
            ok &= row < np.where(ok, self.col_len[np.clip(col, 0, g.width - 1)], 0)
            out[np.flatnonzero(plain)[ok]] = col[ok] * self.stride + row[ok]
        if grey.any():
            idx = np.flatnonzero(grey)
            x, y = px[idx], py[idx]
            col = np.ceil((z[idx] - 1.0) / 3.0).astype(np.int64)
            row = row_of(col, y)
            res = np.full(idx.shape, -1, dtype=np.int64)
            open_ = np.ones(idx.shape, dtype=bool)

            def take(c, r, cond):
                nonlocal open_
                m = open_ & cond
                if not m.any():
                    return
                hit, _ = self.has(x[m], y[m], c[m], r[m])
                sel = np.flatnonzero(m)[hit]
                res[sel] = c[sel] * self.stride + r[sel]
                open_[sel] = False

            def close(cond):
                nonlocal open_
                open_ &= ~cond

            _, ok0 = self.has(x, y, col, row)
            close(~ok0)  # an index out of range: VASL's catch returns null
            take(col, row, np.ones(idx.shape, dtype=bool))
            for dc, dr in ((0, -1), (0, 1), (1, 0), (1, -1), (1, 1), (-1, 0), (-1, -1)):
                take(col + dc, row + dr, np.ones(idx.shape, dtype=bool))
            c1 = col - 1
            last = (c1 >= 0) & (row + 1 < np.where(c1 >= 0, self.col_len[np.clip(c1, 0, g.width - 1)], 0))
            take(c1, row + 1, last)
            close(last)
            c2 = col + 1
            len2 = np.where(c2 < g.width, self.col_len[np.clip(c2, 0, g.width - 1)], 0)
            # VASL's "Normal" grid tries the even columns one way, the odd
            # ones (and every column of a "HalfHeight" grid) the other
            normal_even = (col % 2 == 0) & (g.shift == 0)
            even = normal_even & (c2 < g.width)
            e1 = even & (row + 1 < len2)
            take(c2, row + 1, e1)
            e2 = e1 & (row < len2)
            take(c2, row, e2)
            close(normal_even)
            odd = ~normal_even & (c2 < g.width) & (row - 1 >= 0) & (row - 1 < len2)
            edge = odd & (row == g.height) & open_
            res[edge] = c2[edge] * self.stride + row[edge] - 1
            open_ &= ~edge
            take(c2, row - 1, odd)
            take(c2, row, odd & (row < len2))
            out[idx] = res
        return out


class HexLookup:
    """gridToHex by table: on a grid of standard geomorphic hexes the hex a
    pixel is in repeats every 4 columns (225 px) and 2 rows (129 px), the
    centre dots and outlines being exact binary fractions; one tile of
    answers is figured with the exact routine and pixels away from the map's
    edges read it. Near the edges (where VASL moves points onto the map and
    hexes end) the exact routine answers."""

    TILE_X, TILE_Y, COLS, ROWS = 225, 129, 4, 2

    def __init__(self, arrays: GridArrays):
        import numpy as np

        self.arrays = arrays
        g = arrays.grid
        self.exact = (g.hex_width, g.hex_height, g.a1x, g.a1y) == (1800 / 32, 64.5, 0.0, 32.25)
        if not self.exact:
            return
        # a tile figured on a grid large enough to have no edge near it
        probe = Grid(20, 8, 1800, 645, g.hex_width, g.hex_height)
        pa = GridArrays(probe)
        x0, y0 = 2 * self.TILE_X, 2 * self.TILE_Y
        xs, ys = np.meshgrid(np.arange(self.TILE_X) + x0, np.arange(self.TILE_Y) + y0, indexing="ij")
        h = pa.grid_to_hex(xs.ravel(), ys.ravel())
        col, row = np.divmod(h, pa.stride)
        self.dcol = (col - 2 * self.COLS).reshape(self.TILE_X, self.TILE_Y)
        self.drow = (row - 2 * self.ROWS).reshape(self.TILE_X, self.TILE_Y)
        self.margin_x, self.margin_y = 2 * g.hex_width, g.hex_height

    def __call__(self, px, py):
        import numpy as np

        a = self.arrays
        if not self.exact:
            return a.grid_to_hex(px, py)
        g = a.grid
        tx, ix = np.divmod(px, self.TILE_X)
        ty, iy = np.divmod(py, self.TILE_Y)
        col = tx * self.COLS + self.dcol[ix, iy]
        row = ty * self.ROWS + self.drow[ix, iy]
        ok = (col >= 0) & (col < g.width) & (row >= 0)
        ok &= row < g.height + (col + g.shift) % 2
        out = col * a.stride + row
        # where the map's edges change VASL's answer: a hex off the map, the
        # first column's grey strip (no column left of it to try), the
        # bottom rows (no row below), pixels off the map
        exact = ~ok | (px < 2 * 18.75 + 1) | (py >= g.grid_height - 100) | (px >= g.grid_width - 100)
        exact |= (px < 0) | (px >= g.grid_width) | (py < 0)
        if exact.any():
            out[exact] = a.grid_to_hex(px[exact], py[exact])
        return out
