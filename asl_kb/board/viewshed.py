"""Which of many units a Location may see, without a line to each of them.

A routing unit Knows every enemy unit in its LOS at any range (A10.51), so
the facts need LOS from each Location in reach to every enemy on the map.
Walking a line to each is quadratic in the number of units, and on a real map
almost every such line is blocked a few hexes out.  Here the hexes around
the viewer are scanned ring by ring, outward, and an obstacle hex that is
higher than the viewer casts a shadow: the open arc of directions that pass
through its inside.  Only the hexes of a ring that no shadow covers are
looked at; the units there are handed to the exact line walk
(LosMap.los); a unit in a shadow has no LOS.  The scan stops when the
shadows close the whole circle or pass the farthest unit, so its cost is
the area the viewer can see, not the size of the map.

Why a shadow is exact (hexgrid._exact_line): a hex is on the line when the
segment between the centres has a positive length inside it, and a segment
from the viewer's centre goes through the inside of a hex B exactly when its
direction lies strictly between the directions of B's outermost corners and
its far end lies past where it enters B.  B is at most |viewer B| + 0.577 away
(the circumradius, hexes one apart) and a hex d rings out at least 0.866 d,
so B's shadow only covers rings d with 0.866 d > |viewer B| + 0.577.  Arcs are
shrunk by 1e-9 radians (two lattice directions that differ, differ by far
more).  Two shadows that meet at one corner point V, shared by both obstacle
hexes, also cover the direction of V: that line runs along the hexside of
the two obstacles (the third hex at V is crossed the other way), and a
hexside blocks when both hexes do.  An obstacle is only higher than the
viewer when it blocks whatever the height of the far end
(LosMap: ``top > min(ha, hb)``); hills, hindrances and the position's LOS
overrides are left to the line walk.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import cache
from math import atan2, pi, sqrt
from operator import itemgetter

__all__ = ["Watched", "scan"]

_SQRT3_2 = sqrt(3) / 2
_MARGIN = 1e-9
# the corners of a hex, from its centre, in thirds of a cube step
_CORNERS = ((2, -1, -1), (-1, 2, -1), (-1, -1, 2), (-2, 1, 1), (1, -2, 1), (1, 1, -2))


def _angle(x: float, z: float) -> float:
    """Direction of cube offset (x, -x-z, z) in the plane (hexes one apart)."""
    return atan2(z * _SQRT3_2, x + z * 0.5)


def _distance(x: int, z: int) -> int:
    return max(abs(x), abs(z), abs(x + z))


_first = itemgetter(0)


@cache
def _arcs(ox: int, oz: int) -> tuple:
    """The shadow of the hex at cube offset (ox, oz) from the viewer: open
    arcs (lo, hi, corner at lo, corner at hi), split at -pi/pi (the split
    ends reach past the range of atan2, so the direction pi is covered),
    and the first ring it covers."""
    centre = _angle(ox, oz)
    ends = []
    for cx, _cy, cz in _CORNERS:
        x3, z3 = 3 * ox + cx, 3 * oz + cz
        d = _angle(x3, z3) - centre
        ends.append(((d + pi) % (2 * pi) - pi, (x3, z3)))
    (dlo, vlo), (dhi, vhi) = min(ends), max(ends)
    lo, hi = centre + dlo + _MARGIN, centre + dhi - _MARGIN
    if lo < -pi:
        arcs = ((-pi - 1, hi, None, vhi), (lo + 2 * pi, pi + 1, vlo, None))
    elif hi > pi:
        arcs = ((-pi - 1, hi - 2 * pi, None, vhi), (lo, pi + 1, vlo, None))
    else:
        arcs = ((lo, hi, vlo, vhi),)
    reach = sqrt((ox + oz * 0.5) ** 2 + (oz * _SQRT3_2) ** 2) + 1 / sqrt(3)
    first = int(reach / _SQRT3_2) + 1
    return (arcs, first)


@cache
def _ring(d: int) -> tuple:
    """(directions sorted, cube offsets (x, z) in that order) of ring d."""
    x, z = -d, d
    cells = []
    for dx, _dy, dz in ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1)):
        for _ in range(d):
            cells.append((_angle(x, z), (x, z)))
            x, z = x + dx, z + dz
    cells.sort()
    return (tuple(a for a, _ in cells), tuple(c for _, c in cells))


class Watched:
    """Units to look at from many Locations: each unit as given, filed by the
    cube position of its hex."""

    def __init__(self, targets, cube):
        self.at: dict = {}
        self.count = 0
        for t in targets:
            self.count += 1
            x, _y, z = cube(t[0])
            self.at.setdefault((x, z), []).append(t)
        keys = list(self.at)
        self.bounds = (
            (
                min(x for x, _ in keys),
                max(x for x, _ in keys),
                min(z for _, z in keys),
                max(z for _, z in keys),
                min(x + z for x, z in keys),
                max(x + z for x, z in keys),
            )
            if keys
            else None
        )


def _union(arcs: list, new: list) -> list:
    """The union of the open arcs ``arcs`` (sorted, disjoint) and ``new``,
    sorted; two arcs that meet at the same corner point join (the hexside
    between them blocks)."""
    merged = sorted(arcs + new, key=_first)
    out = [merged[0]]
    for arc in merged[1:]:
        lo, hi, vlo, vhi = arc
        last = out[-1]
        if lo < last[1] or (vlo is not None and vlo == last[3]):
            if hi > last[1]:
                out[-1] = (last[0], hi, last[2], vhi)
        else:
            out.append(arc)
    return out


def _gaps(union: list) -> list:
    """The closed windows of directions in (-pi, pi] that no arc covers."""
    out, start = [], -pi
    for lo, hi, _vlo, _vhi in union:
        if lo >= start:
            out.append((start, lo))
        if hi > start:
            start = hi
    if start <= pi:
        out.append((start, pi))
    return out


_MISSING = object()
#: how much wider than the units' directions the cone of a scan is
_CONE_MARGIN = 1e-6


def _beside(ax: int, az: int, bounds: tuple) -> list:
    """The directions from a viewer at cube (ax, az) outside the units'
    box in x and z (a parallelogram holding their hexes' centres) that
    pass by it, as arcs of the scan's shadows: no unit lies in them, and
    a shadow only spares exact lines to the units in it (a unit no shadow
    covers is looked at), so the scan of a far viewer looks at the cone
    towards the units, not at the whole box between them and it. []: the
    viewer is inside the box."""
    x0, x1, z0, z1 = bounds[:4]
    if x0 <= ax <= x1 and z0 <= az <= z1:
        return []
    corners = [_angle(x - ax, z - az) for x in (x0, x1) for z in (z0, z1)]
    c = corners[0]
    # (the parallelogram is convex and the viewer outside it: its corners
    # lie within less than pi of one another, seen from the viewer)
    rel = [(a - c + pi) % (2 * pi) - pi for a in corners]
    lo, hi = c + min(rel) - _CONE_MARGIN, c + max(rel) + _CONE_MARGIN
    if lo < -pi:
        return [(hi, lo + 2 * pi, None, None)]
    if hi > pi:
        return [(hi - 2 * pi, lo, None, None)]
    return [(-pi - 1, lo, None, None), (hi, pi + 1, None, None)]


def scan(viewer: tuple[int, int, int], watched: Watched, tops: dict, fill, visit) -> None:
    """Scan outward from the viewer (ax, az, height): at cube (ax, az), of
    the given height.
    ``tops`` maps a cube key (x, z) to the top of the obstacle in that hex,
    or None; ``fill(key)`` adds a key it lacks and returns its value.
    ``visit(target)`` is called for every unit of ``watched`` that no shadow
    covers (those not visited have no LOS)."""
    if watched.bounds is None:
        return
    ax, az, height = viewer
    # The units and the viewer lie in a box (x, z and x+z ranges), and a line
    # between two points of it never leaves it: a hex whose centre is more
    # than one step outside (no point of it inside) shades like an obstacle.
    x0, x1, z0, z1, s0, s1 = watched.bounds
    x0, x1, z0, z1 = min(x0, ax) - 1, max(x1, ax) + 1, min(z0, az) - 1, max(z1, az) + 1
    s0, s1 = min(s0, ax + az) - 1, max(s1, ax + az) + 1
    farthest = max(ax - x0, x1 - ax, az - z0, z1 - az, ax + az - s0, s1 - ax - az)
    at = watched.at.get
    for t in at((ax, az), ()):
        visit(t)
    arcs = _beside(ax, az, watched.bounds)
    pending: dict = {}
    windows = _gaps(arcs)
    top_of = tops.get
    for d in range(1, farthest + 1):
        new = pending.pop(d, None)
        if new:
            arcs = _union(arcs, new)
            windows = _gaps(arcs)
            if not windows:
                return
        angles, cells = _ring(d)
        for lo, hi in windows:
            for j in range(bisect_left(angles, lo), bisect_right(angles, hi)):
                ox, oz = cells[j]
                x, z = ax + ox, az + oz
                if x < x0 or x > x1 or z < z0 or z > z1 or x + z < s0 or x + z > s1:
                    shade, first = _arcs(ox, oz)
                    pending.setdefault(first, []).extend(shade)
                    continue
                key = (x, z)
                top = top_of(key, _MISSING)
                if top is _MISSING:
                    top = fill(key)
                if top is not None and top > height:
                    shade, first = _arcs(ox, oz)
                    pending.setdefault(first, []).extend(shade)
                for t in at(key, ()):
                    visit(t)
