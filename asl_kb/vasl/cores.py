"""Lines surely blocked, told without tracing them: a hex whose core (the
pixels within CORE px of its centre dot) is all ground or obstacle higher
than both ends blocks any line through that core, wherever else the line
goes (Map.LOS reaches the core, and there checkGroundLevel or
checkTerrainIsHigher blocks it).

A core counts only where every pixel of it would block on its own: no
hexside, inherent or split terrain (other rules read those), no Light
Woods, in a hex with no bridge, no cliff hexside and no inherent terrain at
its centre (rules that read the hex first), that is not an end's and is
nearer each end than the ends are to each other (VASL asks no other hex's
pixels). VASL's line wanders at most a pixel or two off the straight line
between the centre dots, so a line passing within CORE - MARGIN px of a
core's centre dot goes through the core.

Used for the rules' LOS facts (asl_kb/vasl/sight.py), which only need to
know a line is blocked; `asl-kb los` traces every pair (it says where).
"""

from __future__ import annotations

from typing import Any

from asl_kb.vasl.vmap import unique

__all__ = ["blocked_by_cores"]

CORE = 16
MARGIN = 3


def _core_level(tracer, state: dict, hids) -> Any:
    """Each hex's core level: the lowest level at which a pixel of its core
    blocks (twice it, half levels whole), or a very low number when its
    core does not count."""
    import numpy as np

    levels = state.get("core_level")
    if levels is None:
        a = tracer.arrays
        levels = state["core_level"] = np.full(len(a.valid), -(1 << 20), dtype=np.int64)
        state["core_known"] = np.zeros(len(a.valid), dtype=bool)
        r = np.arange(-CORE, CORE + 1)
        dx, dy = np.meshgrid(r, r, indexing="ij")
        disk = dx * dx + dy * dy <= CORE * CORE
        state["disk"] = (dx[disk], dy[disk])
        types = tracer.m.types
        ok = np.array(
            [
                bool(
                    t
                    and not t.is_hexside
                    and not t.inherent
                    and t.split == 0.0
                    and "Light Woods" not in t.name
                    and not t.is_bridge
                )
                for t in types
            ]
        )
        ob = np.array([bool(t and t.obstacle) for t in types])
        height = np.array([t.height if t else 0 for t in types], dtype=np.int64)
        half = np.array([1 if (t and t.half_level and not t.is_hexside) else 0 for t in types], dtype=np.int64)
        # checkTerrainHeight: terrain as high as the higher end blocks a
        # lower one (not half-level terrain, nor out-of-season orchard)
        flat = np.array([bool(t and not t.half_level and t.name != "Orchard, Out of Season") for t in types])
        state["core_tables"] = (ok, ob, height, half, flat)
        state["core_top"] = np.full(len(a.valid), -(1 << 20), dtype=np.int64)
        state["core_h0"] = np.zeros(len(a.valid), dtype=bool)
    known = state["core_known"]
    new = unique(hids[~known[hids]])
    if len(new):
        a = tracer.arrays
        m = tracer.m
        ok, ob, height, half, flat = state["core_tables"]
        tops = state["core_top"]
        h0 = state["core_h0"]
        ddx, ddy = state["disk"]
        g = m.grid
        for h in new.tolist():
            known[h] = True
            col, row = a.cell(h)
            d = tracer.hx((col, row))
            if d.center.inherent or any(d.cliff) or not a.valid[h]:
                continue
            x, y = int(a.los_x[h]) + ddx, int(a.los_y[h]) + ddy
            if x.min() < 0 or y.min() < 0 or x.max() >= g.grid_width or y.max() >= g.grid_height:
                continue
            codes = m.terrain[x, y]
            if not ok[codes].all():
                continue
            ground = m.elevation[x, y].astype(np.int64)
            bl = np.where(ob[codes], 2 * (ground + height[codes]) + half[codes], 2 * ground)
            bl = np.maximum(bl, 2 * ground)
            levels[h] = int(bl.min())
            top = ground + height[codes]
            if flat[codes].all() and top.min() == top.max() and not d.center.is_water:
                tops[h] = int(top[0])
                h0[h] = bool((height[codes] == 0).any())
    return levels


def blocked_by_cores(tracer, state: dict, source: tuple, targets: tuple, hexes) -> Any:
    """For lines from `source` (hex src, level se) to each hex of `targets`
    (hexes tgts, levels tes), whether a core among `hexes` surely blocks it."""
    import numpy as np

    (src, se), (tgts, tes) = source, targets
    a = tracer.arrays
    hexes = np.asarray(hexes, dtype=np.int64)
    levels = _core_level(tracer, state, hexes)
    hi2 = 2 * np.maximum(se, tes)
    lo = np.minimum(se, tes)
    top = levels[hexes]
    flat_top = state["core_top"][hexes]
    # the cores high enough for some line
    useful = (top > hi2.min()) | (flat_top > lo.min())
    hexes, top, flat_top = hexes[useful], top[useful], flat_top[useful]
    h0 = state["core_h0"][hexes]
    out = np.zeros(len(tgts), dtype=bool)
    if not len(hexes):
        return out

    def cube(h):
        c, r = np.divmod(h, a.stride)
        return c, a.grid.cube_z(c, r)

    def dist(c1, z1, c2, z2):
        dc, dz = c1 - c2, z1 - z2
        return np.maximum(np.maximum(np.abs(dc), np.abs(dz)), np.abs(dc + dz))

    sc, sz = cube(np.int64(src))
    tc, tz = cube(tgts)
    hc, hz = cube(hexes)
    rng = dist(sc, sz, tc, tz)  # per line
    d_s = dist(sc, sz, hc, hz)  # per core
    d_t = dist(tc[:, None], tz[:, None], hc[None, :], hz[None, :])
    between = (d_s[None, :] < rng[:, None]) & (d_t < rng[:, None]) & (hexes[None, :] != tgts[:, None])
    between &= hexes[None, :] != src
    # higher than both ends (checkGroundLevel, checkTerrainIsHigher), or as
    # high as the higher and above the lower (checkTerrainHeight; ground
    # next to an end aside: B10.2 EXC)
    hi = hi2 // 2
    high = top[None, :] > hi2[:, None]
    level = (flat_top[None, :] == hi[:, None]) & (flat_top[None, :] > lo[:, None])
    level &= ~(h0[None, :] & ((d_s[None, :] == 1) | (d_t == 1)))
    between &= high | level
    sx, sy = float(a.los_x[src]), float(a.los_y[src])
    tx, ty = a.los_x[tgts].astype(np.float64), a.los_y[tgts].astype(np.float64)
    cx, cy = a.los_x[hexes].astype(np.float64), a.los_y[hexes].astype(np.float64)
    vx, vy = tx - sx, ty - sy
    length = np.hypot(vx, vy)
    length = np.where(length > 0, length, 1.0)
    # the core's centre dot's distance from the straight line between the ends
    cross = np.abs(vx[:, None] * (cy[None, :] - sy) - vy[:, None] * (cx[None, :] - sx)) / length[:, None]
    between &= cross < CORE - MARGIN
    return between.any(axis=1)
