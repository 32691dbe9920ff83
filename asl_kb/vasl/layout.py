"""Boards placed as VASL places them: one map, its hexes named board-prefixed.

Learned from VASL's ASLBoardPicker.java (the `bd` command), ASLBoard.java
(reversal and crop: localCoordinates/globalCoordinates), ASLHexGrid.java
(a pixel's hex name, a hex's centre) and VASSAL's Map.setBoardBoundaries
(where each board goes); written here anew.

* A board sits in a grid slot (column, row). Its x on the map is the sum of
  the widths of the boards left of it in its row, its y the sum of the
  heights of the boards above it in its column, plus the map's edge buffer
  (400 px in saves of VASL 6.2 and later, 200 px before; 0 for a position).
* A board's width and height are its image's, or its crop's: the crop is a
  rectangle (x, y, w, h) of the board image (w or h -1: to the image's edge),
  as a `bd` command gives it.
* A reversed board is turned 180 degrees within its (cropped) bounds: local
  (x, y) becomes (w - x, h - y).
* Its hexes keep the board's own names, with the board's prefix (`2O5`). A
  hex exists where its centre dot lies on the (cropped) board, edges
  included: the half hexes along a board's edges too.
* Where two boards meet, a half hex of each is one hex of the map (GG of one
  board and A of the next; row 10 and row 0 of the half-hex columns). It has
  two names; the one VASL shows is that of the board whose bounds hold its
  centre dot (the right or lower board), and `names_of` gives both.

The map's hexes are one hex grid: each hex has cube coordinates (x, y, z)
figured from its centre dot on the map, so range, adjacency and the hexes
within a range are those of the hex grid across every seam (Layout.cube,
Layout.neighbors, Layout.within), whatever the number of boards.
"""

from __future__ import annotations

import math
import re
from typing import Iterable, Iterator, Protocol, Sequence

from asl_kb.record import FrozenRecord, record
from asl_kb.vasl.archive import GEO, BoardError, HexGeometry, canonical_board

__all__ = [
    "BoardSpec",
    "BoardLike",
    "PlacedBoard",
    "Layout",
    "Spot",
    "column_letters",
    "edge_buffer",
]


def edge_buffer(vasl_version: str | None) -> tuple[int, int]:
    """The map's edge buffer in a saved game of this VASL version: 400 px for
    6.2 and later, 200 px before (and for a save that does not say)."""
    if vasl_version:
        m = re.match(r"(\d+)(?:\.(\d+))?", vasl_version.strip())
        if m and (int(m.group(1)), int(m.group(2) or 0)) >= (6, 2):
            return 400, 400
    return 200, 200


def column_letters(col: int) -> str:
    """A column's letters as VASL writes them (ASLHexGrid.hexrow): A..Z, then
    AA..ZZ, AAA..."""
    if col < 0:
        raise ValueError(f"column {col} < 0")
    return chr(ord("A") + col % 26) * (col // 26 + 1)


def column_index(letters: str) -> int:
    """Letters -> column (A -> 0, Z -> 25, AA -> 26, GG -> 32)."""
    if not letters or letters != letters[0] * len(letters) or not ("A" <= letters[0] <= "Z"):
        raise ValueError(f"{letters!r} is not a column (A..Z, AA..ZZ, ...)")
    return ord(letters[0]) - ord("A") + 26 * (len(letters) - 1)


@record(frozen=True)
class BoardSpec(FrozenRecord):
    """One board of a layout as a position or a saved game names it.

    board     the board's name as written (`2`, `02`, `10a`)
    col, row  its slot in the grid of boards (VASL's relative position)
    reversed  turned 180 degrees (VASL writes `r2`)
    crop      (x, y, w, h) of the board image, or None (w, h -1: to the edge)
    """

    board: str
    col: int = 0
    row: int = 0
    reversed: bool = False
    crop: tuple[int, int, int, int] | None = None

    @classmethod
    def from_vasl(cls, desc: str) -> tuple[BoardSpec, str | None]:
        """A board of a VASL `bd` command (ASLBoardPicker.buildBoard): tab
        separated `COL ROW [r]NAME [X Y W H] VER v ...`. Returns the spec and
        the board version the save names (None when it names none)."""
        tokens = [t for t in re.split(r"[\t\n]", desc) if t != ""]
        if len(tokens) < 3:
            raise BoardError(f"not a VASL board description: {desc!r}")
        try:
            col, row = int(tokens[0]), int(tokens[1])
        except ValueError:
            raise BoardError(f"not a VASL board description (no column, row): {desc!r}") from None
        name = tokens[2]
        rev = name.startswith("r") and name.lower() != "r"
        if rev:
            name = name[1:]
        crop = None
        try:
            x, y, w, h = (int(t) for t in tokens[3:7])
            crop = (x, y, w, h)
        except ValueError:
            pass
        version = None
        if "VER" in tokens:
            i = tokens.index("VER")
            version = tokens[i + 1] if i + 1 < len(tokens) else None
        return cls(board=name, col=col, row=row, reversed=rev, crop=crop), version


class BoardLike(Protocol):
    """What a layout needs of a board archive (asl_kb.vasl.archive.BoardArchive)."""

    @property
    def name(self) -> str: ...
    @property
    def size(self) -> tuple[int, int]: ...
    @property
    def geometry(self) -> HexGeometry: ...


class _Board:
    """A stand-in board: a name and a geometry (a standard geomorphic board
    by default), for a layout built without archives."""

    def __init__(self, name: str, geometry: HexGeometry = GEO, size: tuple[int, int] | None = None):
        self.name = name
        self.geometry = geometry
        self.size = size or (
            round(geometry.hex_width * (geometry.columns - 1)),
            round(geometry.hex_height * geometry.rows),
        )


@record(frozen=True)
class Spot(FrozenRecord):
    """A map pixel: the board it is on, the point on the board's own image
    (unreversed, uncropped), and the hex VASL names there with, on a seam,
    the other board's name of the same hex."""

    board: str  # the board's hex prefix
    local: tuple[float, float]
    hex: str
    also: tuple[str, ...] = ()


class PlacedBoard:
    """A board on the map: its bounds, reversal, crop and hexes."""

    def __init__(self, spec: BoardSpec, archive: BoardLike, origin: tuple[int, int], size: tuple[int, int]):
        self.spec = spec
        self.archive = archive
        self.prefix = canonical_board(archive.name)
        self.geometry = archive.geometry
        self.image_size = archive.size
        w0, h0 = archive.size
        if spec.crop is None:
            self.crop = (0, 0, w0, h0)
        else:
            cx, cy, cw, ch = spec.crop
            self.crop = (cx, cy, w0 - cx if cw < 0 else cw, h0 - cy if ch < 0 else ch)
        self.origin = origin  # map x, y of the board's top left (edge buffer included)
        self.size = size  # its (cropped) width and height on the map

    @property
    def reversed(self) -> bool:
        return self.spec.reversed

    def contains(self, mx: float, my: float) -> bool:
        """Whether the map point lies on the board (half-open bounds, as a
        java.awt.Rectangle: the seam belongs to the right or lower board)."""
        x0, y0 = self.origin
        return x0 <= mx < x0 + self.size[0] and y0 <= my < y0 + self.size[1]

    def holds(self, mx: float, my: float, slack: float) -> bool:
        """Whether the map point lies on the board, its right and lower edges
        included and `slack` pixels beyond them."""
        x0, y0 = self.origin
        return x0 <= mx <= x0 + self.size[0] + slack and y0 <= my <= y0 + self.size[1] + slack

    def to_local(self, mx: float, my: float) -> tuple[float, float]:
        """Map point -> the board image's point (ASLBoard.localCoordinates)."""
        x, y = mx - self.origin[0], my - self.origin[1]
        if self.spec.reversed:
            x, y = self.size[0] - x, self.size[1] - y
        return x + self.crop[0], y + self.crop[1]

    def to_map(self, lx: float, ly: float) -> tuple[float, float]:
        """The board image's point -> map point (ASLBoard.globalCoordinates)."""
        x, y = lx - self.crop[0], ly - self.crop[1]
        if self.spec.reversed:
            x, y = self.size[0] - x, self.size[1] - y
        return x + self.origin[0], y + self.origin[1]

    # the board's own hex grid (ASLHexGrid)

    def centre_local(self, col: int, row: int) -> tuple[float, float]:
        """The centre dot of the board's hex (column, row number) on its image
        (ASLHexGrid.getLocation, without its rounding to whole pixels)."""
        g = self.geometry
        x = g.a1[0] + g.hex_width * col
        if col % 2 == 0:
            y = g.a1[1] + g.hex_height * (row - 1)
        else:
            y = g.a1[1] + g.hex_height * (row - (1.5 if g.alternate else 0.5))
        return x, y

    def hex_local(self, lx: float, ly: float) -> tuple[int, int]:
        """The (column, row number) VASL names at a point of the board's
        image (ASLHexGrid.locationName, bypass names left out)."""
        g = self.geometry
        px, py = lx - g.a1[0], ly + g.hex_height / 2 - g.a1[1]
        col = math.floor(px / g.hex_width + 0.5)
        if col % 2 == 0:
            row = math.floor(py / g.hex_height) + 1
        else:
            row = math.floor(py / g.hex_height + 0.5)
            if g.alternate:
                row += 1
        return col, row

    def rows_of(self, col: int) -> range:
        """The row numbers of a column of the whole board: 1..rows in the
        full-hex columns, 0..rows in the half-hex ones (alternate: 1..rows+1)."""
        g = self.geometry
        if col % 2 == 0:
            return range(1, g.rows + 1)
        return range(1, g.rows + 2) if g.alternate else range(0, g.rows + 1)

    def on_board(self, col: int, row: int) -> bool:
        """Whether the hex's centre dot lies on the (cropped) board, its
        edges included."""
        if not (0 <= col < self.geometry.columns) or row not in self.rows_of(col):
            return False
        x, y = self.centre_local(col, row)
        cx, cy, cw, ch = self.crop
        eps = 0.5
        return cx - eps <= x <= cx + cw + eps and cy - eps <= y <= cy + ch + eps

    def hexes(self) -> Iterator[tuple[int, int]]:
        for col in range(self.geometry.columns):
            for row in self.rows_of(col):
                if self.on_board(col, row):
                    yield col, row

    def name(self, col: int, row: int) -> str:
        return f"{self.prefix}{column_letters(col)}{row}"


#: pixels beyond a board's right and lower edges a point of a saved game may
#: lie and still be on it (Layout.locate)
EDGE_SLACK = 2

_HEX_TAIL = re.compile(r"([A-Z])(\1*)(0|[1-9][0-9]*)")


def _check(boards: Sequence[tuple[BoardSpec, BoardLike]]) -> None:
    """BoardError unless each board is named once, in a slot of its own of
    the layout, and all have hexes of one size."""
    if not boards:
        raise BoardError("a layout needs at least one board")
    seen: dict[str, BoardSpec] = {}
    slots: dict[tuple[int, int], BoardSpec] = {}
    for spec, archive in boards:
        prefix = canonical_board(archive.name)
        if prefix in seen:
            raise BoardError(f"board {prefix} is named twice in the layout")
        if (spec.col, spec.row) in slots:
            raise BoardError(
                f"boards {slots[(spec.col, spec.row)].board} and {spec.board} are both in column {spec.col}, "
                f"row {spec.row} of the layout"
            )
        if spec.col < 0 or spec.row < 0:
            raise BoardError(f"board {spec.board}: column and row of the layout start at 0")
        seen[prefix] = spec
        slots[(spec.col, spec.row)] = spec
    g0 = boards[0][1].geometry
    for spec, archive in boards:
        g = archive.geometry
        if round(g.hex_width) != round(g0.hex_width) or round(g.hex_height) != round(g0.hex_height):
            raise BoardError(f"board {spec.board} has hexes of another size than board {boards[0][0].board}")


def _size_on_map(spec: BoardSpec, archive: BoardLike) -> tuple[int, int]:
    """The board's image size, or its crop's."""
    w0, h0 = archive.size
    if spec.crop is None:
        return w0, h0
    cx, cy, cw, ch = spec.crop
    if not (0 <= cx < w0 and 0 <= cy < h0):
        raise BoardError(f"board {spec.board}: the crop starts outside the board image ({w0}x{h0})")
    w = w0 - cx if cw < 0 else min(cw, w0 - cx)
    h = h0 - cy if ch < 0 else min(ch, h0 - cy)
    return w, h


class Layout:
    """Boards placed on one map (see the module's docstring).

    `boards` pairs each BoardSpec with its archive (or anything with the
    board's `name`, image `size` and hex `geometry`); `edge` is the map's
    edge buffer. A board named twice, two boards in one slot, or boards of
    different hex sizes are a BoardError.
    """

    def __init__(self, boards: Sequence[tuple[BoardSpec, BoardLike]], edge: tuple[int, int] = (0, 0)):
        _check(boards)
        self.edge = edge
        g0 = boards[0][1].geometry
        # each board's size on the map, then its place (VASSAL's Map.setBoardBoundaries)
        sizes = {(spec.col, spec.row): _size_on_map(spec, archive) for spec, archive in boards}
        self.boards: tuple[PlacedBoard, ...] = tuple(
            PlacedBoard(
                spec,
                archive,
                (
                    edge[0] + sum(sizes.get((c, spec.row), (0, 0))[0] for c in range(spec.col)),
                    edge[1] + sum(sizes.get((spec.col, r), (0, 0))[1] for r in range(spec.row)),
                ),
                sizes[(spec.col, spec.row)],
            )
            for spec, archive in boards
        )
        self.by_prefix = {b.prefix: b for b in self.boards}
        # the names VASL may give a board in a position (`02` and `2`)
        self._aliases: dict[str, PlacedBoard] = {}
        for b in self.boards:
            for n in (b.prefix, b.archive.name, b.spec.board):
                self._aliases.setdefault(n, b)
        self.hex_width = g0.hex_width
        self.hex_height = g0.hex_height
        self._index()

    @classmethod
    def of(cls, specs: Iterable[BoardSpec | str], edge: tuple[int, int] = (0, 0)) -> Layout:
        """A layout of standard geomorphic boards, built without archives
        (a plain board name is the board alone in slot 0, 0)."""
        pairs = []
        for s in specs:
            spec = BoardSpec(board=s) if isinstance(s, str) else s
            pairs.append((spec, _Board(spec.board)))
        return cls(pairs, edge)

    # ------------------------------------------------------------ the grid

    def _index(self) -> None:
        """Every hex of the map: its canonical name, cube coordinates, centre
        dot on the map and the names of its seam."""
        b0 = self.boards[0]
        self._ref = b0.to_map(*b0.centre_local(0, 1))
        self.cube_of: dict[str, tuple[int, int, int]] = {}
        self.at_cube: dict[tuple[int, int], str] = {}
        self.centre_of: dict[str, tuple[float, float]] = {}
        self.local_of: dict[str, tuple[PlacedBoard, int, int]] = {}
        self.other_names: dict[str, tuple[str, ...]] = {}
        alias: dict[str, str] = {}
        claims: dict[tuple[int, int], list[tuple[str, PlacedBoard, int, int, tuple[float, float]]]] = {}
        for b in self.boards:
            for col, row in b.hexes():
                m = b.to_map(*b.centre_local(col, row))
                key = self._lattice(*m, b)
                claims.setdefault(key, []).append((b.name(col, row), b, col, row, m))
        for (x, z), named in claims.items():
            # VASL's name: the board whose half-open bounds hold the centre
            # dot; at the map's own edge, the one board that has it
            holders = [n for n in named if n[1].contains(*n[4])]
            first = holders[0] if holders else named[0]
            name, b, col, row, m = first
            self.cube_of[name] = (x, -x - z, z)
            self.at_cube[(x, z)] = name
            self.centre_of[name] = m
            self.local_of[name] = (b, col, row)
            others = tuple(n[0] for n in named if n[0] != name)
            if others:
                self.other_names[name] = others
                for o in others:
                    alias[o] = name
        self.alias = alias

    def _lattice(self, mx: float, my: float, board: PlacedBoard) -> tuple[int, int]:
        """Cube (x, z) of the hex whose centre dot is the map point: the
        column from x, then the row within the column (any hex centre of the
        grid as the reference: a column over, the centres move half a row)."""
        fx = (mx - self._ref[0]) / self.hex_width
        q = round(fx)
        fz = (my - self._ref[1]) / self.hex_height - q / 2
        z = round(fz)
        if abs(fx - q) > 0.05 or abs(fz - z) > 0.05:
            raise BoardError(
                f"board {board.prefix}: its hexes do not line up with the hex grid of board "
                f"{self.boards[0].prefix} (a crop or a board of another hex grid?)"
            )
        return q, z

    # ------------------------------------------------------------ names

    def names_of(self, name: str) -> tuple[str, ...]:
        """Every name of a hex: VASL's first, then the other board's on a seam."""
        canon = self.canonical(name)
        return (canon,) + self.other_names.get(canon, ())

    def canonical(self, name: str) -> str:
        """A hex's name as VASL shows it (a seam hex's other name mapped)."""
        if name in self.cube_of:
            return name
        got = self.alias.get(name)
        if got is None:
            raise KeyError(name)
        return got

    def parse(self, text: str) -> str:
        """A hex as written (`2O5`, `02O5`; on a one-board map also `O5`) ->
        its canonical name. ValueError saying what is wrong."""
        s = str(text).strip()
        m = re.fullmatch(r"(.*?)([A-Z]+)(0|[1-9][0-9]*)", s)
        if m is None:
            raise ValueError(f"bad hex {text!r}: expected a board, column letters and a row, e.g. 2O5")
        head, letters, row = m.groups()
        # the column is a run of one letter at the end; the board's name may
        # end in that letter too (BFPA + A5): try each split
        tries = []
        run = len(letters) - len(letters.rstrip(letters[-1]))
        for k in range(1, run + 1):
            prefix = head + letters[: len(letters) - k]
            tries.append((prefix, letters[len(letters) - k :]))
        found = []
        for prefix, col_letters in tries:
            if prefix == "" and len(self.boards) == 1:
                b = self.boards[0]
            else:
                b = self._aliases.get(prefix) or self._aliases.get(canonical_board(prefix))
            if b is None:
                continue
            try:
                col = column_index(col_letters)
            except ValueError:
                continue
            found.append(b.name(col, int(row)))
        if not found:
            if head == "" and len(letters) <= 2 and len(self.boards) > 1:
                raise ValueError(
                    f"hex {text!r} names no board: on a map of boards "
                    f"{', '.join(b.prefix for b in self.boards)} write it board-prefixed (e.g. "
                    f"{self.boards[0].prefix}{s})"
                )
            raise ValueError(
                f"hex {text!r} is on no board of the map (boards {', '.join(b.prefix for b in self.boards)})"
            )
        if len(set(found)) > 1:
            raise ValueError(f"hex {text!r} is ambiguous: {' or '.join(found)}")
        name = found[0]
        try:
            return self.canonical(name)
        except KeyError:
            b = self._board_of_name(name)
            raise ValueError(f"hex {text!r}: {self._why_not(name, b)}") from None

    def _board_of_name(self, name: str) -> PlacedBoard:
        for b in self.boards:
            if name.startswith(b.prefix) and _HEX_TAIL.fullmatch(name[len(b.prefix) :]):
                return b
        raise KeyError(name)

    def _why_not(self, name: str, b: PlacedBoard) -> str:
        m = _HEX_TAIL.fullmatch(name[len(b.prefix) :])
        assert m is not None
        col = column_index(m.group(1) + m.group(2))
        row = int(m.group(3))
        if col >= b.geometry.columns:
            return f"board {b.prefix} has columns A..{column_letters(b.geometry.columns - 1)}"
        if row not in b.rows_of(col):
            rows = b.rows_of(col)
            return f"column {column_letters(col)} of board {b.prefix} has rows {rows[0]}..{rows[-1]}"
        return f"board {b.prefix} is cropped: {name} is not on the map"

    def hexes(self) -> tuple[str, ...]:
        """Every hex of the map (canonical names), by board then column, row."""
        return tuple(sorted(self.cube_of, key=self.order))

    def order(self, name: str) -> tuple:
        """A hex's place in listings: its board's place in the layout, then
        column, then row (the board's own)."""
        b, col, row = self.local_of[name]
        return (b.spec.row, b.spec.col, col, row)

    # ------------------------------------------------------------ geometry

    def cube(self, name: str) -> tuple[int, int, int]:
        got = self.cube_of.get(name)
        return got if got is not None else self.cube_of[self.canonical(name)]

    def name_at(self, x: int, z: int) -> str | None:
        """The hex at cube (x, z), None off the map."""
        return self.at_cube.get((x, z))

    def distance(self, a: str, b: str) -> int:
        ax, ay, az = self.cube(a)
        bx, by, bz = self.cube(b)
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    _DIRS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))  # cube (dx, dz): N, NE, SE, S, SW, NW

    def neighbor(self, name: str, d: int) -> str | None:
        """The hex in direction d (1..6, clockwise from north), None off the map."""
        x, _y, z = self.cube_of[name]
        dx, dz = self._DIRS[d - 1]
        return self.at_cube.get((x + dx, z + dz))

    def neighbors(self, name: str) -> tuple[str, ...]:
        x, _y, z = self.cube_of[name]
        return tuple(n for dx, dz in self._DIRS if (n := self.at_cube.get((x + dx, z + dz))) is not None)

    def adjacent(self, a: str, b: str) -> bool:
        return self.distance(a, b) == 1

    def point(self, name: str) -> tuple[float, float]:
        """The centre dot on a regular hex grid (hex sides, x east, y south):
        directions between hexes, as asl_kb.board.grid asks (a board's own
        pixels are a little squashed, 64.5 px rows for 56.25 px columns)."""
        x, _y, z = self.cube(name)
        return 1.5 * x, 3**0.5 * (z + x / 2)

    def within(self, name: str, radius: int, area=None) -> tuple[str, ...]:
        """The map's hexes within `radius` of a hex (itself included), in
        listing order: O(radius squared), whatever the size of the map."""
        x, _y, z = self.cube_of[name]
        out = []
        for dx in range(-radius, radius + 1):
            for dz in range(max(-radius, -dx - radius), min(radius, -dx + radius) + 1):
                n = self.at_cube.get((x + dx, z + dz))
                if n is not None:
                    out.append(n)
        return tuple(sorted(out, key=self.order))

    def contains(self, name: str) -> bool:
        return name in self.cube_of or name in self.alias

    __contains__ = contains

    # ------------------------------------------------------------ pixels

    def centre(self, name: str) -> tuple[float, float]:
        """The hex's centre dot on the map (edge buffer included)."""
        return self.centre_of[self.canonical(name)]

    def board_at(self, mx: float, my: float) -> PlacedBoard | None:
        """The board whose bounds hold the map point (VASSAL's Map.findBoard)."""
        for b in self.boards:
            if b.contains(mx, my):
                return b
        return None

    def locate(self, mx: float, my: float) -> Spot | None:
        """The board and hex VASL names at a map pixel (a piece's position in
        a saved game), None off every board. On a seam the hex has a name on
        each board: `also` gives the others."""
        b = self.board_at(mx, my)
        if b is None:
            # a point on the map's outer right or lower edge (a half hex's
            # centre dot there: VASL snaps a counter to it) is the board's
            b = next((c for c in self.boards if c.holds(mx, my, EDGE_SLACK)), None)
            if b is None:
                return None
        lx, ly = b.to_local(mx, my)
        col, row = b.hex_local(lx, ly)
        name = b.name(col, row)
        try:
            canon = self.canonical(name)
        except KeyError:
            # a point of the board outside its hexes' centres (a crop's
            # sliver): the nearest hex of the map
            canon = self._nearest(mx, my)
        names = self.names_of(canon)
        first = name if name in names else canon
        return Spot(board=b.prefix, local=(lx, ly), hex=first, also=tuple(n for n in names if n != first))

    def _nearest(self, mx: float, my: float) -> str:
        fx = (mx - self._ref[0]) / self.hex_width
        best = None
        for q in (math.floor(fx), math.ceil(fx)):
            base = (my - self._ref[1]) / self.hex_height - q / 2
            for z in (math.floor(base), math.ceil(base)):
                n = self.at_cube.get((q, z))
                if n is None:
                    continue
                cx, cy = self.centre_of[n]
                d = (cx - mx) ** 2 + (cy - my) ** 2
                if best is None or d < best[0]:
                    best = (d, n)
        if best is None:
            raise BoardError(f"no hex of the map near ({mx:g}, {my:g})")
        return best[1]

    @property
    def size(self) -> tuple[int, int]:
        """The map's width and height without its edge buffer."""
        w = max(b.origin[0] + b.size[0] for b in self.boards) - self.edge[0]
        h = max(b.origin[1] + b.size[1] for b in self.boards) - self.edge[1]
        return w, h
