"""ASL hex-grid geometry: hex ids, adjacency, range, areas and hex lines.

Pure geometry, no game rules.  Every function is deterministic and cached
where that helps.

Coordinates
-----------
A hex id is a column (``A``..``Z``, then doubled letters ``AA``..``ZZ``) and a
row number, e.g. ``"M2"`` or ``"GG10"``.  Column index: ``A`` = 0 .. ``Z`` = 25,
``AA`` = 26 .. ``GG`` = 32 (.. ``ZZ`` = 51).

Columns of odd index (B, D, F, ...) hold rows 0..10 on a geomorphic board and
are shifted *down* by half a hex relative to the even-index columns (A, C, E,
...), which hold rows 1..10.  Hence:

* even column ``(c, r)`` touches ``(c, r-1)``, ``(c, r+1)``, ``(c±1, r-1)``,
  ``(c±1, r)``;
* odd column ``(c, r)`` touches ``(c, r-1)``, ``(c, r+1)``, ``(c±1, r)``,
  ``(c±1, r+1)``.

Internally hexes are converted to cube coordinates ``(x, y, z)`` with
``x + y + z == 0`` ("odd-q" flat-topped layout): ``x = col``,
``z = row - (col - (col & 1)) // 2``, ``y = -x - z``.  The range between two
hexes is the cube distance.

Hex lines
---------
:func:`hex_line` returns the hexes whose interior the straight line between the
two hex centre dots crosses, computed *exactly* (integer clipping of the
segment against each candidate hexagon, see :func:`_relative_line`).  When the
line runs exactly along a hexside (a "hexspine" line) the two hexes sharing
that hexside are returned together as a 2-tuple.  Hexes touched only at a
single vertex are not returned.
"""

from __future__ import annotations

import math
import re
from functools import cache, lru_cache
from typing import Iterator, NamedTuple, cast

from asl_kb.record import FrozenRecord, record

__all__ = [
    "MAX_COL",
    "BOARD_MAX_COL",
    "BOARD_MAX_ROW",
    "parse_hex",
    "hex_coords",
    "order_key",
    "hex_id",
    "column_letters",
    "neighbors",
    "neighbor",
    "direction",
    "adjacent",
    "distance",
    "cube",
    "Area",
    "within",
    "hex_line",
    "HexShape",
    "hex_shape",
]

#: Highest column index that has a hex id (``ZZ``).
MAX_COL = 51
#: Last column of a geomorphic board (``GG``) and its last row.
BOARD_MAX_COL = 32
BOARD_MAX_ROW = 10

_CANON_RE = re.compile(r"([A-Z])(\1?)(0|[1-9][0-9]*)")
_COL_ROW_RE = re.compile(r"([A-Za-z]+)([0-9]+)")


# --------------------------------------------------------------------------
# ids <-> (col, row)
# --------------------------------------------------------------------------


def column_letters(col: int) -> str:
    """Column index -> letters (0 -> ``A``, 26 -> ``AA``, 32 -> ``GG``)."""
    if not isinstance(col, int) or col < 0 or col > MAX_COL:
        raise ValueError(f"column index {col!r} out of range 0..{MAX_COL}")
    letter = chr(ord("A") + col % 26)
    return letter if col < 26 else letter * 2


@lru_cache(maxsize=None)
def hex_id(col: int, row: int) -> str:
    """(column index, row) -> canonical hex id, e.g. ``hex_id(12, 2) == "M2"``."""
    if not isinstance(row, int) or row < 0:
        raise ValueError(f"row {row!r} must be a non-negative integer")
    return f"{column_letters(col)}{row}"


@lru_cache(maxsize=None)
def hex_coords(h: str) -> tuple[int, int]:
    """Canonical hex id -> (column index, row).  Use :func:`parse_hex` for input."""
    m = _CANON_RE.fullmatch(h) if isinstance(h, str) else None
    if m is None:
        raise ValueError(f"not a canonical hex id: {h!r} (expected e.g. 'M2' or 'GG10')")
    col = ord(m.group(1)) - ord("A") + (26 if m.group(2) else 0)
    return col, int(m.group(3))


_PREFIXED = re.compile(r"(.*?)([A-Z])(\2*)(0|[1-9][0-9]*)")


@lru_cache(maxsize=65536)
def order_key(h: str) -> tuple:
    """A hex's place in listings, for the painted map's ids (`M2`: column,
    then row, as hex_coords) and VASL boards' board-prefixed names (`2O5`:
    board, then column, then row; asl_kb/vasl/layout.py)."""
    m = _CANON_RE.fullmatch(h)
    if m is not None:
        return ((),) + hex_coords(h)
    m = _PREFIXED.fullmatch(h)
    if m is None:
        return ((1, h), 0, 0)
    prefix, letter, more, row = m.groups()
    board = tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.findall(r"\d+|\D+", prefix))
    return (board, ord(letter) - ord("A") + 26 * len(more), int(row))


def parse_hex(text: str, board: str | None = None) -> str:
    """Parse user input into a canonical hex id.

    Accepts ``"M2"``, ``"GG10"`` and board-prefixed ids such as ``"5M2"`` when
    ``board == "5"``.  A board prefix is only accepted when it equals
    ``board``; with ``board=None`` any prefix is an error.  Surrounding
    whitespace is ignored.  Only the syntax is checked: ``"A0"`` (row 0 of an
    even column, which is not on a geomorphic board) parses; use
    :meth:`Area.contains` to check that a hex exists on the map.

    Raises ValueError for bad syntax, lower case, mixed doubled letters
    (``"AB3"``), more than two letters, leading zeros in the row, or a board
    prefix that differs from ``board``.
    """
    if not isinstance(text, str):
        raise ValueError(f"hex id must be a string, got {type(text).__name__}")
    s = text.strip()
    if not s:
        raise ValueError("empty hex id")
    board_s = None if board is None or str(board) == "" else str(board)

    rest = s
    if board_s is not None and s.startswith(board_s) and _COL_ROW_RE.fullmatch(s[len(board_s) :]):
        rest = s[len(board_s) :]
    else:
        m = re.fullmatch(r"([0-9]+)(.*)", s)
        if m:
            prefix = m.group(1)
            if board_s is None:
                raise ValueError(
                    f"hex id {text!r} has board prefix {prefix!r} but no board was given "
                    "(write the hex without its board number)"
                )
            raise ValueError(f"hex id {text!r} is on board {prefix!r}, expected board {board_s!r}")

    m = _COL_ROW_RE.fullmatch(rest)
    if m is None:
        raise ValueError(f"bad hex id {text!r}: expected column letters then a row number, e.g. 'M2'")
    letters, digits = m.groups()
    if letters != letters.upper():
        raise ValueError(f"bad hex id {text!r}: column letters must be upper case ({letters.upper()}{digits})")
    if len(letters) > 2:
        raise ValueError(f"bad hex id {text!r}: at most two column letters (A..Z, AA..ZZ)")
    if len(letters) == 2 and letters[0] != letters[1]:
        raise ValueError(f"bad hex id {text!r}: two-letter columns are doubled letters (AA, BB, ..., GG)")
    if len(digits) > 1 and digits[0] == "0":
        raise ValueError(f"bad hex id {text!r}: row number has a leading zero")
    return letters + digits


# --------------------------------------------------------------------------
# the drawn map: centre and corners of a hex
# --------------------------------------------------------------------------


class HexShape(NamedTuple):
    centre: tuple[float, float]
    corners: tuple[tuple[float, float], ...]


_SQRT3 = math.sqrt(3)


@lru_cache(maxsize=None)
def hex_shape(h: str, size: float = 1.0) -> HexShape:
    """Centre and six corners of hex ``h`` on the drawn map: the one place a
    hex id becomes a point (the HTML report's SVG, Covered Arcs).

    Flat-topped hexes of side ``size``, as on an ASL board: ``x`` grows
    eastwards with the column letters (1.5 sides a column), ``y`` southwards
    with the rows (sqrt(3) sides a row), odd-index columns half a hex lower.
    A0 (column 0, row 0) is centred on the origin.  Corners go clockwise from
    the east one (E, SE, SW, W, NW, NE); the hexside of direction ``d``
    (1..6 = N, NE, SE, S, SW, NW, see :func:`neighbor`) runs from corner
    ``(d + 3) % 6`` to corner ``(d + 4) % 6``.
    """
    col, row = hex_coords(h)
    cx = size * (col * 1.5)
    cy = size * (row * _SQRT3 + (_SQRT3 / 2 if col % 2 else 0.0))
    half, rise = size / 2, size * _SQRT3 / 2
    corners = (
        (cx + size, cy),
        (cx + half, cy + rise),
        (cx - half, cy + rise),
        (cx - size, cy),
        (cx - half, cy - rise),
        (cx + half, cy - rise),
    )
    return HexShape((cx, cy), corners)


# --------------------------------------------------------------------------
# cube coordinates
# --------------------------------------------------------------------------


def _to_cube(col: int, row: int) -> tuple[int, int, int]:
    x = col
    z = row - (col - (col & 1)) // 2
    return x, -x - z, z


def _from_cube(x: int, z: int) -> tuple[int, int]:
    return x, z + (x - (x & 1)) // 2


@lru_cache(maxsize=None)
def cube(h: str) -> tuple[int, int, int]:
    """Cube coordinates (x, y, z), x + y + z == 0, of a canonical hex id."""
    return _to_cube(*hex_coords(h))


def _cube_id(x: int, z: int) -> str | None:
    col, row = _from_cube(x, z)
    if col < 0 or col > MAX_COL or row < 0:
        return None
    return hex_id(col, row)


# --------------------------------------------------------------------------
# adjacency
# --------------------------------------------------------------------------

# Direction 1..6, clockwise from north (row numbers grow southwards, column
# letters eastwards): N, NE, SE, S, SW, NW.  (dcol, drow) per column parity.
_DIRS_EVEN = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_DIRS_ODD = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


def _neighbor_coords(col: int, row: int) -> tuple[tuple[int, int], ...]:
    dirs = _DIRS_ODD if col & 1 else _DIRS_EVEN
    return tuple((col + dc, row + dr) for dc, dr in dirs)


@lru_cache(maxsize=None)
def neighbor(h: str, d: int) -> str | None:
    """The hex in direction ``d`` (1..6, clockwise from north), or None if
    that hex has no id (negative row or column)."""
    if d not in (1, 2, 3, 4, 5, 6):
        raise ValueError(f"direction must be 1..6, got {d!r}")
    col, row = _neighbor_coords(*hex_coords(h))[d - 1]
    if col < 0 or col > MAX_COL or row < 0:
        return None
    return hex_id(col, row)


@lru_cache(maxsize=None)
def neighbors(h: str) -> tuple[str, ...]:
    """The adjacent hexes in direction order 1..6 (N, NE, SE, S, SW, NW).

    Not filtered by any area; only neighbours that cannot be named (negative
    row or column, e.g. west of column A) are left out.
    """
    col, row = hex_coords(h)
    return tuple(hex_id(c, r) for c, r in _neighbor_coords(col, row) if 0 <= c <= MAX_COL and r >= 0)


@lru_cache(maxsize=None)
def _direction_map(h: str) -> dict[str, int]:
    return {n: d for d in range(1, 7) if (n := neighbor(h, d)) is not None}


def direction(h_from: str, h_to: str) -> int:
    """Direction 1..6 (N, NE, SE, S, SW, NW) from ``h_from`` to the adjacent ``h_to``."""
    d = _direction_map(h_from).get(h_to)
    if d is None:
        raise ValueError(f"{h_to!r} is not adjacent to {h_from!r}")
    return d


def adjacent(a: str, b: str) -> bool:
    return b in _direction_map(a)


@lru_cache(maxsize=65536)
def distance(a: str, b: str) -> int:
    """Range in hexes between two hexes (0 for the same hex)."""
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


# --------------------------------------------------------------------------
# areas
# --------------------------------------------------------------------------


@record(frozen=True)
class Area(FrozenRecord):
    """A rectangle of hexes by column index and row, inclusive.

    Row 0 of an even-index column (A0, C0, ...) never exists: on a geomorphic
    board only the odd-index columns have a (half) hex in row 0.
    """

    lo_col: int
    lo_row: int
    hi_col: int
    hi_row: int

    def __init__(self, lo: str, hi: str):
        lc, lr = hex_coords(parse_hex(lo))
        hc, hr = hex_coords(parse_hex(hi))
        object.__setattr__(self, "lo_col", min(lc, hc))
        object.__setattr__(self, "hi_col", max(lc, hc))
        object.__setattr__(self, "lo_row", min(lr, hr))
        object.__setattr__(self, "hi_row", max(lr, hr))

    @classmethod
    def spanning(cls, lo: str, hi: str) -> "Area":
        return cls(lo, hi)

    @classmethod
    def whole_board(cls) -> "Area":
        """One geomorphic board: A0..GG10 (A0, C0, ... excluded, see class doc)."""
        return cls("A0", f"{column_letters(BOARD_MAX_COL)}{BOARD_MAX_ROW}")

    def contains_coords(self, col: int, row: int) -> bool:
        return (
            self.lo_col <= col <= self.hi_col and self.lo_row <= row <= self.hi_row and not (row == 0 and not col & 1)
        )

    def contains(self, h: str) -> bool:
        return self.contains_coords(*hex_coords(h))

    def why_not_in(self, h: str, corners: tuple[str, str] | None = None) -> str:
        """Why hex h is not in the area, in words: a row-0 hex of a full-hex
        column (A0, C0, ...) is not a hex at all; any other lies outside the
        rectangle (written with the corners as the file gave them)."""
        col, row = hex_coords(h)
        lo, hi = corners or (hex_id(self.lo_col, self.lo_row), hex_id(self.hi_col, self.hi_row))
        if row == 0 and not col & 1:
            return f"{h} is not a hex: row 0 exists only in the half-hex columns (B, D, F, ...); {h} names a map corner"
        return (
            f"hex {h} is outside the map area {lo}..{hi} "
            f"(columns {column_letters(self.lo_col)}..{column_letters(self.hi_col)}, "
            f"rows {self.lo_row}..{self.hi_row})"
        )

    __contains__ = contains

    def hexes(self) -> tuple[str, ...]:
        """All hexes of the area sorted by (column index, row)."""
        return _area_hexes(self.lo_col, self.lo_row, self.hi_col, self.hi_row)

    def __iter__(self) -> Iterator[str]:
        return iter(self.hexes())

    def __len__(self) -> int:
        return len(self.hexes())

    def __repr__(self) -> str:
        return f"Area({hex_id(self.lo_col, self.lo_row)!r}, {hex_id(self.hi_col, self.hi_row)!r})"


@lru_cache(maxsize=64)
def _area_hexes(lo_col: int, lo_row: int, hi_col: int, hi_row: int) -> tuple[str, ...]:
    return tuple(
        hex_id(c, r) for c in range(lo_col, hi_col + 1) for r in range(lo_row, hi_row + 1) if not (r == 0 and not c & 1)
    )


def within(h: str, radius: int, area: Area | None = None) -> tuple[str, ...]:
    """Hexes at range <= ``radius`` of ``h`` (``h`` included), inside ``area``
    when given, sorted by (column index, row).  O(radius²)."""
    if radius < 0:
        return ()
    cx, _cy, cz = cube(h)
    out: list[tuple[int, int]] = []
    for dx in range(-radius, radius + 1):
        for dz in range(max(-radius, -dx - radius), min(radius, -dx + radius) + 1):
            col, row = _from_cube(cx + dx, cz + dz)
            if col < 0 or col > MAX_COL or row < 0:
                continue
            if area is not None and not area.contains_coords(col, row):
                continue
            out.append((col, row))
    out.sort()
    return tuple(hex_id(c, r) for c, r in out)


# --------------------------------------------------------------------------
# hex lines
# --------------------------------------------------------------------------

_CUBE_DIRS = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))


def _cube_round(x: float, y: float, z: float) -> tuple[int, int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, ry, rz


def _rotate(c, k):
    """Cube c turned k times by 60 degrees."""
    x, y, z = c
    for _ in range(k % 6):
        x, y, z = -z, -x, -y
    return x, y, z


def _mirror(c):
    x, y, z = c
    return x, z, y


def _permutation(turn):
    """A symmetry `turn` (a function of a cube) as the signed permutation of
    the coordinates it is: c -> (s * c[i], s * c[j], s * c[k]), read off
    its image of (1, 2, 3) (a scan asks thousands of lines of them)."""
    image = turn((1, 2, 3))
    sign = 1 if image[0] > 0 else -1
    i, j, k = (abs(v) - 1 for v in image)
    if sign > 0:
        return lambda c: (c[i], c[j], c[k])
    return lambda c: (-c[i], -c[j], -c[k])


def _symmetries():
    """The 12 symmetries of the hex grid about the origin, as (apply, undo)."""
    out = []
    for k in range(6):
        out.append((_permutation(lambda c, k=k: _rotate(c, k)), _permutation(lambda c, k=k: _rotate(c, -k))))
        # rotate-after-mirror is its own inverse
        mirrored = _permutation(lambda c, k=k: _rotate(_mirror(c), k))
        out.append((mirrored, mirrored))
    return tuple(out)


SYMMETRIES = _symmetries()


@lru_cache(maxsize=None)
def _relative_line(tx: int, ty: int, tz: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Line from the origin hex to cube ``(tx, ty, tz)``, both excluded: the
    exact line of the symmetric target that sorts first, turned back (the
    clipping is exact and the grid's 12 symmetries map lines onto lines)."""
    canonical, undo = _canonical(tx, ty, tz)
    return tuple(tuple(undo(m) for m in members) for members in _exact_line(*canonical))


#: hexes of a line figured first (most lines on a real map are blocked by then)
PREFIX_SAMPLES = 5


def _canonical(tx: int, ty: int, tz: int):
    best = None
    for apply, undo in SYMMETRIES:
        c = apply((tx, ty, tz))
        if best is None or c < best[0]:
            best = (c, undo)
    return best


@lru_cache(maxsize=None)
def _relative_prefix(tx: int, ty: int, tz: int, upto: int) -> tuple[tuple, bool]:
    """(the first hex groups of ``_relative_line(tx, ty, tz)``: those the
    segment enters before its fraction upto/n, n its length in hexes; whether
    they are all of it). Within a group the hexes may come in another order
    than in ``_relative_line``."""
    canonical, undo = _canonical(tx, ty, tz)
    n = max(abs(tx), abs(ty), abs(tz))
    whole = upto >= n
    groups = _exact_line(*canonical) if whole else _exact_line(*canonical, upto)
    return tuple(tuple(undo(m) for m in members) for members in groups), whole


def line_groups(tx: int, ty: int, tz: int):
    """The hex groups of ``_relative_line(tx, ty, tz)`` in order, figured
    lazily: first those of the first PREFIX_SAMPLES hexes, then twice as many
    each time a walk goes past them, so a walk that stops at the first
    blocking hex costs about its own length, not the line's (and the number
    of lines grows with the size of the map)."""
    done, upto = 0, PREFIX_SAMPLES
    while True:
        groups, whole = _relative_prefix(tx, ty, tz, upto)
        yield from groups[done:]
        if whole:
            return
        done, upto = len(groups), upto * 2


@lru_cache(maxsize=None)
def _exact_line(tx: int, ty: int, tz: int, upto: int | None = None) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Line from the origin hex to cube ``(tx, ty, tz)``, both excluded.

    The hexagon of cube hex ``c`` is ``{p : |(p-c)_u| <= 1}`` for the three
    axis differences ``u1 = x-y``, ``u2 = y-z``, ``u3 = z-x``.  Along the
    segment ``p(s) = s * t`` each difference is linear in ``s``, so the part of
    the segment inside a hexagon is an interval of ``s`` obtained by clipping
    against three slabs.  With ``s`` scaled by the lcm ``L`` of the non-zero
    slab slopes, all interval ends are integers: the computation is exact.

    Hexes with a positive-length interval are crossed; two hexes with the same
    interval share the hexside the line runs along.
    """
    n = max(abs(tx), abs(ty), abs(tz))
    if n <= 1:
        return ()
    slopes = (tx - ty, ty - tz, tz - tx)
    big_l = math.lcm(*(abs(d) for d in slopes if d))
    scale = tuple((big_l // d) if d else 0 for d in slopes)

    cands: set[tuple[int, int, int]] = set()
    for i in range(n + 1 if upto is None else upto + 1):
        s = i / n
        c = _cube_round(s * tx, s * ty, s * tz)
        cands.add(c)
        for dx, dy, dz in _CUBE_DIRS:
            cands.add((c[0] + dx, c[1] + dy, c[2] + dz))

    groups: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    for c in cands:
        lo, hi = _crossing(c, slopes, scale, big_l)
        if hi > lo and (upto is None or lo * n < upto * big_l):
            groups.setdefault((lo, hi), []).append(c)

    origin, target = (0, 0, 0), (tx, ty, tz)
    out = []
    for key in sorted(groups):
        members = groups[key]
        if origin in members or target in members:
            continue
        out.append(tuple(members))
    return tuple(out)


def _crossing(c: tuple[int, int, int], slopes: tuple, scale: tuple, big_l: int) -> tuple[int, int]:
    """The interval (lo, hi) of the scaled ``s`` along which the segment is
    inside hex ``c``: its three slabs clipped (hi <= lo: it is not)."""
    lo, hi = 0, big_l
    cu = (c[0] - c[1], c[1] - c[2], c[2] - c[0])
    for k in range(3):
        d = slopes[k]
        if d == 0:
            if abs(cu[k]) > 1:
                return 1, 0
            continue
        e1 = (cu[k] - 1) * scale[k]
        e2 = (cu[k] + 1) * scale[k]
        if e1 > e2:
            e1, e2 = e2, e1
        if e1 > lo:
            lo = e1
        if e2 < hi:
            hi = e2
        if hi <= lo:
            break
    return lo, hi


@cache
def cube_id_cached(key: tuple[int, int]) -> str | None:
    """The hex id of the cube coordinates (x, z), None off the map (kept:
    a line of sight asks the same hexes again and again)."""
    return _cube_id(*key)


@lru_cache(maxsize=262144)
def hex_line(a: str, b: str) -> tuple[tuple[str, ...], ...]:
    """Hexes crossed by the line between the centres of ``a`` and ``b``.

    ``a`` and ``b`` are excluded; elements are in order from ``a`` to ``b``.
    Each element is a 1-tuple, or a 2-tuple (sorted by column, row) when the
    line runs exactly along the hexside between those two hexes.  Adjacent
    hexes (and ``a == b``) give ``()``.  Hexes that have no id (west of column
    A / north of row 0) can only occur as half of a hexside pair along the map
    edge; such pairs are left out.
    """
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    rel = _relative_line(bx - ax, by - ay, bz - az)
    out: list[tuple[str, ...]] = []
    for members in rel:
        if len(members) == 1:
            hid = cube_id_cached((ax + members[0][0], az + members[0][2]))
            if hid is not None:
                out.append((hid,))
            continue
        ids = [cube_id_cached((ax + x, az + z)) for x, _y, z in members]
        if None not in ids:
            ids.sort(key=hex_coords)
            out.append(tuple(cast("list[str]", ids)))
    return tuple(out)
