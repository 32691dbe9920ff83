"""Where each board's pixels and hexes go on VASL's map of a layout: VASL's
Map.crop, Map.flip and Map.insertMap (LOS/Map/Map.java, called as
ASLMap.buildVASLMap calls them), ported with the same arithmetic.

* A board is read whole first: its hexes' terrain, levels and hexsides are
  the whole board's (Hex.resetTerrain before any crop).
* A crop (x, y, w, h) of the board image keeps those pixels and a grid of
  round(w / 56.25) + 1 columns and round(h / 64.5) rows of hexes from the
  hex at the crop's top left corner on: a crop starting in a half-hex
  column (B, D, ...) gives VASL's "HalfHeight" grid (its even columns the
  half-hex ones). The hexes keep their names and what the whole board gave.
* A reversed board is turned within its (cropped) bounds; a grid of an even
  number of columns changes kind as it turns.
* The map's grid is "Normal" until the board at its top left corner is put
  in: the map takes that board's kind of grid. Each other board goes in at
  the hex under its top left corner, its pixels at that hex's centre dot,
  and must have the kind of grid that hex's column calls for.

Where VASL would fail (a board whose grid does not fit the map's) or would
put a board's pixels or hexes elsewhere than the layout places it, LOS is
refused with a BoardError naming the board: VASL's own LOS is off there.
"""

from __future__ import annotations

from typing import Any

from asl_kb.record import FrozenRecord, record
from asl_kb.vasl.archive import BoardError

__all__ = ["Piece", "Sub", "assemble"]


@record(frozen=True)
class Piece(FrozenRecord):
    """A board of the layout as VASL's map gets it.

    hexes     the board read whole (vmap.BoardHexes)
    name      its prefix, for messages
    at        its top left on the map (pixels, no edge buffer)
    reversed  turned 180 degrees
    crop      (x, y, w, h) of its image, or None
    """

    hexes: Any
    name: str
    at: tuple[int, int]
    reversed: bool = False
    crop: tuple[int, int, int, int] | None = None


class Sub:
    """A board as Map.crop and Map.flip leave it: its pixels, its grid's
    columns, rows and kind (shift 1: "HalfHeight"), and for each of its
    hexes the hex of the whole board it is (its column, its index in the
    column)."""

    def __init__(self, piece: Piece):
        hexes = piece.hexes
        g = hexes.grid
        t, e = hexes.terrain, hexes.elevation
        if piece.crop is None:
            self.width, self.height, self.shift = g.width, g.height, 0
            self.terrain, self.elevation = t, e
            self.ul = (0, 0)
        else:
            x, y, w, h = piece.crop
            if x < 0 or y < 0 or x + w > g.grid_width or y + h > g.grid_height:
                raise BoardError(f"board {piece.name}: the crop {piece.crop} is not within the board image")
            ul = g.grid_to_hex(x, y)
            if ul is None:
                raise BoardError(f"board {piece.name}: the crop's corner ({x}, {y}) is in no hex")
            self.ul = ul
            self.width = _jround(w / g.hex_width) + 1
            self.height = _jround(h / g.hex_height)
            self.shift = ul[0] % 2
            # VASL's grid of the crop has its first hex's centre dot at x 0
            # and y half a hex down (a half-hex column first: 0): a crop cut
            # elsewhere puts VASL's hexes off the board's art
            cx, cy = g.center_dot(*ul)
            if abs(cx - x) > 1 or abs(cy - y - (g.hex_height / 2 if self.shift == 0 else 0)) > 1:
                raise BoardError(
                    f"board {piece.name}: the crop {piece.crop} does not start at a hex column's centre dot and "
                    "half a hex above a hex's (as VASL's crop dialog cuts: docs/real-boards.md): VASL's hexes "
                    "would not lie on the board's art, and its LOS is off"
                )
            self.terrain, self.elevation = t[x : x + w, y : y + h], e[x : x + w, y : y + h]
            for c in range(self.width):
                for r in range(self.height + (c + self.shift) % 2):
                    if not g.on_grid(c + ul[0], r + ul[1]):
                        raise BoardError(
                            f"board {piece.name}: VASL's crop {piece.crop} takes hexes the board does not have"
                        )
        self.reversed = piece.reversed
        self.flip_shift = self.shift
        if piece.reversed:
            self.terrain, self.elevation = self.terrain[::-1, ::-1], self.elevation[::-1, ::-1]
            if self.width % 2 == 0:
                self.shift ^= 1  # Map.recreateHexGrid
        self.grid = g
        # the LOS point of its first hex, still in the whole board's pixels
        # (Map.insertMap reads it; Hex.flip turns it on the whole board)
        c0, r0 = self.source(0, 0)
        lx, ly = g.geo(c0, r0).los
        self.first_los = (g.grid_width - lx - 1, g.grid_height - ly - 1) if piece.reversed else (lx, ly)

    def column_length(self, col: int) -> int:
        return self.height + (col + self.shift) % 2

    def source(self, col: int, row: int) -> tuple[int, int]:
        """The whole board's hex (column, index) this grid's hex is."""
        if self.reversed:
            col = self.width - 1 - col
            row = self.height + (col + self.flip_shift) % 2 - 1 - row
        return col + self.ul[0], row + self.ul[1]

    @property
    def size(self) -> tuple[int, int]:
        return self.terrain.shape


def _jround(v: float) -> int:
    import math

    return math.floor(v + 0.5)


def assemble(pieces: list[Piece], size: tuple[int, int], make_grid):
    """VASL's map of the pieces: (grid, terrain, elevation, sources), the
    sources mapping each hex of the map to the board hexes copied there in
    turn, each (BoardHexes, column, index, reversed). `make_grid(width, height,
    shift)` gives a vmap.Grid of the map's pixels."""
    import numpy as np

    first = pieces[0].hexes
    hw, hh = first.grid.hex_width, first.grid.hex_height
    map_w, map_h = size
    width, height = _jround(map_w / hw) + 1, _jround(map_h / hh)
    grid = make_grid(width, height, 0)
    terrain = np.zeros((map_w, map_h), dtype=np.uint8)
    elevation = np.zeros((map_w, map_h), dtype=np.int8)
    sources: dict[tuple[int, int], list[tuple[Any, int, int, bool]]] = {}
    for piece in pieces:
        sub = Sub(piece)
        x0, y0 = piece.at
        # Map.insertMap at gridToHex(x, y + 1): the hex under the board's corner
        up = grid.grid_to_hex(x0, y0 + 1) if (x0 or y0) else (0, 0)
        if up is None:
            raise BoardError(f"board {piece.name}: its corner is in no hex of VASL's map")
        if up != (0, 0) and sub.shift != (grid.shift + up[0]) % 2:
            raise BoardError(
                f"board {piece.name}: VASL does not put it in the map (its crop's half hexes do not meet the "
                "board beside it): VASL's LOS is off for this layout"
            )
        left = 0 if up[0] == 0 else grid.geo(*up).los[0]
        upper = 0 if up[1] == 0 else max(grid.geo(*up).los[1] - sub.first_los[1], 0)
        if abs(left - x0) > 1 or abs(upper - y0) > 1:
            raise BoardError(
                f"board {piece.name}: VASL puts its pixels at ({left}, {upper}), not where the layout places it "
                f"({x0}, {y0}): VASL's LOS is off for this layout"
            )
        sw, sh = sub.size
        if left + sw > map_w or upper + sh > map_h:
            raise BoardError(f"board {piece.name}: its pixels run off VASL's map")
        terrain[left : left + sw, upper : upper + sh] = sub.terrain
        elevation[left : left + sw, upper : upper + sh] = sub.elevation
        if left == 0 and upper == 0 and sub.shift != grid.shift:
            grid = make_grid(width, height, sub.shift)  # the map takes the first board's grid
        for c in range(min(sub.width, grid.width)):
            for r in range(min(sub.column_length(c), grid.column_length(c))):
                at = (c + up[0], r + up[1])
                if not grid.on_grid(*at):
                    raise BoardError(f"board {piece.name}: its hexes run off VASL's map")
                sources.setdefault(at, []).append((piece.hexes, *sub.source(c, r), piece.reversed))
    return grid, terrain, elevation, sources
