"""The hex grid of a position's map, whatever names its hexes: the painted
map's (hexgrid: `M2`, one board's columns and rows) or a map of VASL boards
(asl_kb/vasl/layout.py: `2O5`, board-prefixed, one grid across the seams).

The geometry the rules are handed (range, ADJACENT hexes, the hexes within
a rout's reach, the order hexes are listed in) asks the position's grid,
`position.grid`; both grids answer the same questions in cube coordinates.
"""

from __future__ import annotations

from typing import Protocol

from asl_kb.board import hexgrid

__all__ = ["Grid", "PlainGrid", "PLAIN"]


class Grid(Protocol):
    def cube(self, h: str) -> tuple[int, int, int]: ...
    def distance(self, a: str, b: str) -> int: ...
    def neighbors(self, h: str) -> tuple[str, ...]: ...
    def neighbor(self, h: str, d: int) -> str | None: ...
    def adjacent(self, a: str, b: str) -> bool: ...
    def within(self, h: str, radius: int, area=None) -> tuple[str, ...]: ...
    def order(self, h: str) -> tuple: ...
    def point(self, h: str) -> tuple[float, float]: ...


class PlainGrid:
    """The painted map: hexgrid's hexes (columns A..GG, rows down the boards
    stacked north to south)."""

    def cube(self, h: str) -> tuple[int, int, int]:
        return hexgrid.cube(h)

    def distance(self, a: str, b: str) -> int:
        return hexgrid.distance(a, b)

    def neighbors(self, h: str) -> tuple[str, ...]:
        return hexgrid.neighbors(h)

    def neighbor(self, h: str, d: int) -> str | None:
        return hexgrid.neighbor(h, d)

    def adjacent(self, a: str, b: str) -> bool:
        return hexgrid.adjacent(a, b)

    def within(self, h: str, radius: int, area=None) -> tuple[str, ...]:
        return hexgrid.within(h, radius, area)

    def order(self, h: str) -> tuple:
        return hexgrid.hex_coords(h)

    def point(self, h: str) -> tuple[float, float]:
        """The centre dot on a regular hex grid, in hex sides (x east, y
        south): directions between hexes (Covered Arcs)."""
        return hexgrid.hex_shape(h).centre


PLAIN = PlainGrid()
