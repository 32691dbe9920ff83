"""Line of sight over whole-hex terrain: a documented approximation.

Real ASL LOS follows the map artwork (A6.1); this model only knows each
hex's terrain type, features, ground elevation and building levels.  Where it
is wrong for a given map, the position's ``los`` section (blocked / clear /
hindrance pairs) states the rulebook's answer and overrides the model.

Model (docs/terrain-table.md has the long form):

* Height of a viewer = ground elevation of its hex + its building level.
* Only the hexes *between* the two endpoints count (:func:`hexgrid.hex_line`);
  the endpoint hexes' own terrain never blocks or hinders.
* Obstacle hex (``los == "block"``: woods, buildings, rubble): its top is
  elevation + 1, plus the number of upper levels for a building.  It blocks
  unless both endpoints are at least as high as its top
  (``top > min(ha, hb)``; an obstacle level with both units does not block,
  B23.2).  No blind hexes and no half-level obstacles: an obstacle between a
  high and a low unit always blocks.
* Bare hill hex at elevation ``e``: blocks when ``e > min(ha, hb)`` and
  ``e >= max(ha, hb)`` (a crest between two lower points, or level with the
  higher point).
* Hindrance hex (grain, brush, orchard, marsh +1; SMOKE +2; wreck +1;
  Blaze +3; a hex holding a vehicle +1; cumulative within a hex): counts
  unless the LOS passes above it, i.e. unless both endpoints are at least
  elevation + 1 high.  A total of +6 or more blocks the LOS (B.10).
* Hexside (the line runs exactly along the hexside of two hexes): blocked
  only if BOTH hexes block; the hindrance is the smaller of the two.  The
  whole-hex model gives LOS along a hexspine the benefit of the doubt.
* Hexside terrain (position ``map.hexsides``: wall, hedge, bocage; B9): a
  hexside the line crosses from one hex into the next blocks it when
  neither endpoint's hex has that hexside (a unit beside a wall sees over
  it) and the line is not above it: a wall or hedge, a half-level obstacle,
  blocks two Locations both at its own level or lower (B9: same-level LOS;
  blind hexes behind it are not modelled); bocage, a one-level obstacle,
  blocks unless the lower endpoint is at least one level above its ground
  (B9.5). A line along a hexside or through a vertex crosses none
  (:func:`crossed_sides`). A hexside the line runs exactly along (a
  hexspine, :func:`spines`) is such an obstacle "only if the wall/hedge
  hexspine is not touching the viewing or target hex, or if touching one of
  the viewing/target hexes and the vertex opposite of the viewing/target
  hex has walls/hedges on all of its three hexspines" (B9.2).
* Adjacent hexes always see each other; so do two levels of the same hex.
* Overrides (position ``los``): a pair of locations, each "HEX" (every level
  of that hex) or "HEX@LEVEL".  blocked -> (False, 0), clear -> (True, 0),
  hindrance n -> (True, n).  A pair naming levels wins over a plain-hex pair.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping, Optional

from asl_kb.board import hexgrid
from asl_kb.board.terrain import (
    FEATURES,
    HINDRANCE_BLOCKS_AT,
    SMOKE_HINDRANCE,
    TERRAIN,
    VEHICLE_HINDRANCE,
    HexTerrainLike,
    hexside_type,
)
from asl_kb.board.viewshed import Watched, scan

__all__ = ["LosMap", "of_position", "parse_location", "crossed_sides", "spines", "entry_sides"]

# Per-hex info tuple: (elevation, obstacle top or None, hindrance DRM, hindrance top)
_HexInfo = tuple


def parse_location(text: str, board: Optional[str] = None) -> tuple[str, Optional[int]]:
    """ "M2" -> ("M2", None) (any level); "M2@1" -> ("M2", 1)."""
    hex_text, sep, level_text = str(text).partition("@")
    h = hexgrid.parse_hex(hex_text, board)
    if not sep:
        return h, None
    try:
        level = int(level_text)
    except ValueError:
        raise ValueError(f"bad level in location {text!r}: expected HEX@N") from None
    return h, level


def _sequence(a: str, b: str) -> list[tuple[str, ...]]:
    return [(a,)] + list(hexgrid.hex_line(a, b)) + [(b,)]


def crossed_sides(a: str, b: str) -> list[tuple[str, str]]:
    """The hexsides the line from the centre of a to the centre of b crosses
    from one hex into the next, in order (a line along a hexside, or
    through a vertex, crosses none there)."""
    return _crossed(_sequence(a, b))


def _crossed(seq) -> list[tuple[str, str]]:
    return [(x[0], y[0]) for x, y in zip(seq, seq[1:]) if len(x) == 1 and len(y) == 1 and hexgrid.adjacent(x[0], y[0])]


def spines(a: str, b: str) -> list[tuple[tuple[str, str], str, str]]:
    """The hexsides the line from the centre of a to the centre of b runs
    exactly along (hexspines), in order: each as ((x, y), p, n), x and y the
    hexes it divides, p and n the hexes at its two ends (the vertices x-y-p
    and x-y-n), p on a's side. It touches a when p is a, b when n is b."""
    return _spines(_sequence(a, b))


def _spines(seq) -> list[tuple[tuple[str, str], str, str]]:
    return [
        ((x[0], x[1]), p[0], n[0])
        for p, x, n in zip(seq, seq[1:], seq[2:])
        if len(x) == 2 and len(p) == 1 and len(n) == 1
    ]


def entry_sides(a: str, b: str) -> list[tuple[str, str]]:
    """The hexside terrain the line from a reaches b across: b's hexside it
    enters b by, or, where it comes in through a vertex (a line along a
    hexspine), the two hexsides of b that meet there and the hexspine it
    runs along to it (the B9.2 EX: a unit at either end of a hexspine hedge
    claims its TEM)."""
    if a == b:
        return []
    seq = _sequence(a, b)
    last = seq[-2]
    sides = [(x, b) for x in last if hexgrid.adjacent(x, b)]
    if len(last) == 2:
        sides.append((last[0], last[1]))
    return sides


_BLOCKED = (False, 0)
_CLEAR = (True, 0)
#: as few targets as this: a line to each is quicker than a scan
_FEW = 4


class LosMap:
    """LOS queries over one position's map.  Instances are immutable in
    practice: per-hex values, hex lines and answers are cached."""

    def __init__(  # noqa: PLR0913 (the painted map's parts, each a position's own field: of_position)
        self,
        terrain_of: Callable[[str], HexTerrainLike],
        levels: Mapping[str, int] | None = None,
        smoke: Iterable[str] = (),
        vehicle_hexes: Iterable[str] = (),
        blocked: Iterable[tuple[str, str]] = (),
        clear: Iterable[tuple[str, str]] = (),
        hindrance: Iterable[tuple[str, str, int]] = (),
        board: Optional[str] = None,
        hexside: Callable[[str, str], Optional[str]] | None = None,
    ):
        self._terrain_of = terrain_of
        self._levels = dict(levels or {})
        self._smoke = frozenset(smoke)
        self._vehicles = frozenset(vehicle_hexes)
        #: the terrain of the hexside between two hexes, None for none
        self._hexside = hexside
        self._info: dict[str, _HexInfo] = {}
        self._lines: dict[tuple[str, str], tuple] = {}
        self._cache: dict[tuple, tuple[bool, int]] = {}

        # Overrides keyed by an ordered pair of (hex, level-or-None).
        self._overrides: dict[tuple, tuple[bool, int]] = {}
        for kind, pairs in (("hindrance", hindrance), ("clear", clear), ("blocked", blocked)):
            for pair in pairs:
                a = parse_location(pair[0], board)
                b = parse_location(pair[1], board)
                if kind == "blocked":
                    result = _BLOCKED
                elif kind == "clear":
                    result = _CLEAR
                else:
                    result = (True, int(pair[2]))  # type: ignore[misc]  # a hindrance pair's third is its DRM
                # later kinds win: blocked > clear > hindrance for the same pair
                self._overrides[(a, b)] = result
                self._overrides[(b, a)] = result

        self._override_hexes = frozenset(h for (a, b) in self._overrides for h in (a[0], b[0]))
        self._info_cube: dict = {}
        self._tops: dict = {}  # cube key -> obstacle top or None (viewshed scans)
        # Precompute the on-board hexes so that most queries only do dict look-ups.
        try:
            for h in hexgrid.Area.whole_board().hexes():
                self._hex_info(h)
        except Exception:  # a terrain_of limited to a smaller map: fall back to lazy look-ups
            self._info.clear()

    # -------------------------------------------------------------- per hex

    def _hex_info(self, h: str) -> _HexInfo:
        info = self._info.get(h)
        if info is not None:
            return info
        try:
            ht = self._terrain_of(h)
        except (KeyError, LookupError):
            ht = None
        if ht is None:  # off the map / unknown: open ground at level 0
            elev, top, drm = 0, None, 0
            if h in self._smoke:
                drm += SMOKE_HINDRANCE
        else:
            elev, top, drm = self._terrain_info(h, ht)
        if h in self._vehicles:
            drm += VEHICLE_HINDRANCE
        info = (elev, top, drm, elev + 1)
        self._info[h] = info
        return info

    def _terrain_info(self, h: str, ht: HexTerrainLike) -> tuple[int, int | None, int]:
        """(elevation, obstacle top or None, Hindrance DRM) of hex h's
        terrain ht (its SMOKE too)."""
        elev = int(getattr(ht, "elevation", 0) or 0)
        try:
            tt = TERRAIN[ht.terrain]
        except KeyError:
            raise ValueError(f"hex {h}: unknown terrain {ht.terrain!r}") from None
        top = None
        drm = 0
        if tt.los == "block":
            top = elev + 1
            if tt.rout_cover == "building" or getattr(ht, "building", None) is not None:
                top += int(self._levels.get(h, 0))
        elif tt.los == "hinder":
            drm += tt.hindrance
        feats = tuple(getattr(ht, "features", ()) or ())
        for name in feats:
            feat = FEATURES.get(name)
            if feat is not None and name != "smoke":
                drm += feat.hindrance
        if "smoke" in feats or h in self._smoke:
            drm += SMOKE_HINDRANCE
        return elev, top, drm

    def elevation(self, h: str) -> int:
        return self._hex_info(h)[0]

    def height(self, h: str, level: int = 0) -> int:
        """Viewer height: ground elevation + building level."""
        return self._hex_info(h)[0] + int(level)

    # -------------------------------------------------------------- lines

    def _cube_info(self, key):
        """LOS data of the hex at cube (x, z), None when it has no id."""
        h = hexgrid.cube_id_cached(key)
        if h is None:
            return None
        info = self._hex_info(h)
        self._info_cube[key] = info
        return info

    # -------------------------------------------------------------- queries

    def _override(self, a: str, la: int, b: str, lb: int) -> Optional[tuple[bool, int]]:
        ov = self._overrides
        for ka in ((a, la), (a, None)):
            for kb in ((b, lb), (b, None)):
                r = ov.get((ka, kb))
                if r is not None:
                    return r
        return None

    def los(self, a_hex: str, a_level: int, b_hex: str, b_level: int) -> tuple[bool, int]:
        """(has LOS, total Hindrance DRM between) from Location (a_hex,
        a_level) to (b_hex, b_level).  Symmetric and cached."""
        if (a_hex, a_level) > (b_hex, b_level):
            a_hex, a_level, b_hex, b_level = b_hex, b_level, a_hex, a_level
        key = (a_hex, a_level, b_hex, b_level)
        r = self._cache.get(key)
        if r is None:
            r = self._compute(a_hex, a_level, b_hex, b_level)
            self._cache[key] = r
        return r

    def los_from(self, a_hex: str, a_level: int, targets: Iterable) -> dict:
        """LOS from one Location to many.  ``targets`` holds (hex, level)
        pairs or plain hexes (level 0); the result maps each target as given
        to its (has LOS, hindrance) answer, the same as :meth:`los`."""
        given = {t: ((t, 0) if isinstance(t, str) else tuple(t)) for t in targets}
        seen = self.seen_from(a_hex, a_level, self.watch(given.values()))
        return {t: seen.get(loc, _BLOCKED) for t, loc in given.items()}

    def watch(self, targets: Iterable[tuple[str, int]]) -> Watched:
        """File (hex, level) targets for :meth:`seen_from`."""
        return Watched(targets, hexgrid.cube)

    def seeing(self, a_hex: str, a_level: int, watched: Watched) -> dict:
        """The targets of ``watched`` that see the Location: on a painted map
        LOS is reciprocal (A6.1), so those it sees (:meth:`seen_from`)."""
        return self.seen_from(a_hex, a_level, watched)

    def seen_from(self, a_hex: str, a_level: int, watched: Watched) -> dict:
        """{target: (has LOS, hindrance)} for the targets of ``watched``
        that the Location (a_hex, a_level) may see: those no obstacle near
        it shadows (board/viewshed.py), each then asked of :meth:`los`.
        A target left out has no LOS."""
        out = {}

        def visit(t):
            out[t] = self.los(a_hex, a_level, t[0], t[1])

        if a_hex in self._override_hexes or watched.count <= _FEW:
            for ts in watched.at.values():
                for t in ts:
                    visit(t)
            return out
        tops = self._tops

        def fill(key):
            item = self._info_cube.get(key) or self._cube_info(key)
            top = tops[key] = None if item is None else item[1]
            return top

        ax, _ay, az = hexgrid.cube(a_hex)
        scan((ax, az, self._hex_info(a_hex)[0] + a_level), watched, tops, fill, visit)
        for h in self._override_hexes:  # the position's answers, always asked
            x, _y, z = hexgrid.cube(h)
            for t in watched.at.get((x, z), ()):
                if t[0] == h and t not in out:
                    visit(t)
        return out

    def _compute(self, a: str, la: int, b: str, lb: int) -> tuple[bool, int]:
        if self._overrides:
            r = self._override(a, la, b, lb)
            if r is not None:
                return r
        if a == b:
            return _CLEAR
        ha = self._hex_info(a)[0] + la
        hb = self._hex_info(b)[0] + lb
        total = self._hindrance(a, b, ha, hb)
        if total is None or (self._hexside is not None and self._side_blocks(a, ha, b, hb)):
            return _BLOCKED
        return (True, total)

    def _hindrance(self, a: str, b: str, ha: int, hb: int) -> int | None:
        """The Hindrance DRM along the line from hex a to hex b, between
        heights ha and hb (None: an obstacle, or Hindrance enough, blocks it)."""
        lo, hi = (ha, hb) if ha <= hb else (hb, ha)
        # Walk the line from a lazily and stop at the first blocking hex: most
        # lines on a real map are blocked a few hexes out (the whole line is
        # never built first).
        ax, _ay, az = hexgrid.cube(a)
        bx, by, bz = hexgrid.cube(b)
        info, slow = self._info_cube, self._cube_info
        total = 0
        for members in hexgrid.line_groups(bx - ax, by - _ay, bz - az):
            if len(members) == 1:
                m = members[0]
                key = (ax + m[0], az + m[2])
                item = info.get(key) or slow(key)
                if item is None:
                    continue
                elev, top, drm, htop = item
                if (top is not None and top > lo) or (elev > lo and elev >= hi):
                    return None
                if drm and htop > lo:
                    total += drm
            else:
                items = [info.get(k) or slow(k) for k in ((ax + x, az + z) for x, _y, z in members)]
                if None in items:  # a hexside pair on the map edge is left out
                    continue
                all_block = True
                best = None
                for elev, top, drm, htop in items:
                    if not ((top is not None and top > lo) or (elev > lo and elev >= hi)):
                        all_block = False
                        d = drm if (drm and htop > lo) else 0
                        if best is None or d < best:
                            best = d
                if all_block:
                    return None
                total += best  # type: ignore[operator]  # set: not all_block
            if total >= HINDRANCE_BLOCKS_AT:
                return None
        return total

    def _side_blocks(self, a: str, ha: int, b: str, hb: int) -> bool:
        """Whether a wall, hedge or bocage hexside the line crosses, or runs
        along, blocks it (the module docstring)."""
        side = self._hexside
        assert side is not None  # asked only with hexsides
        seq = _sequence(a, b)
        for x, y in _crossed(seq):
            kind = side(x, y)
            # B9.2: "unless the wall/hedge hexside is part of the viewing/target hex"
            if kind is not None and a not in (x, y) and b not in (x, y) and self._over(kind, x, y, ha, hb):
                return True
        for (x, y), p, n in _spines(seq):
            kind = side(x, y)
            if kind is None or (p == a and n == b):
                continue
            if p == a or n == b:
                # touching the viewing or target hex: an obstacle only if the
                # vertex at its other end (part of neither) has walls/hedges
                # on all of its three hexspines
                far = n if p == a else p
                if side(x, far) is None or side(y, far) is None:
                    continue
            if self._over(kind, x, y, ha, hb):
                return True
        return False

    def _over(self, kind: str, x: str, y: str, ha: int, hb: int) -> bool:
        """Whether hexside terrain `kind` between x and y is an obstacle to
        a line between heights ha and hb: a half-level one to same-level LOS
        (both at its ground level or lower, B9.2), a one-level one unless the
        lower end is above it (B9.5)."""
        lo, hi = (ha, hb) if ha <= hb else (hb, ha)
        ground = max(self._hex_info(x)[0], self._hex_info(y)[0])
        top = ground + hexside_type(kind).obstacle
        return (hi if top < ground + 1 else lo) < top


def of_position(p, vehicles=()):
    """The LOS a position's rules read: over its painted map's whole hexes
    (LosMap), or VASL's over its boards' pixels (asl_kb/vasl/sight.py)."""
    if p.real is not None:
        from asl_kb.vasl.sight import RealLos

        return RealLos(p, vehicles)
    return LosMap(
        p.terrain_of,
        p.levels,
        p.smoke,
        vehicles,
        p.los_blocked,
        p.los_clear,
        p.los_hindrance,
        board=p.board,
        hexside=p.hexside if p.hexsides else None,
    )
