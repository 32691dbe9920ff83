"""Many lines of sight at once: VASL's trace (los.py) with the pixels of
every line figured together, and its rules asked only where they may say
something.

The lines go together, a stretch of columns at a time (Map.LOS walks a line
column by column, each column's rows from where the line enters it to where
it leaves, the rows' float sums added up as VASL adds them); a line is done
when it is blocked, and the rest of it is never figured. In each stretch,
the pixels' terrain, ground level and hex are read in a few array operations
for every line together, and a pixel is handed to the rules only when one
may say something of it:

* its terrain top (ground level + height, +1 for half-level or split
  terrain) is above the lower end, in a hex other than the ends' and not as
  far from either end as they are from each other (the main block of
  applyLOSRules); or
* it holds hexside terrain (walls, hedges, cliffs: checkHexsideTerrainRule
  asks them anywhere); or building terrain while the line has not left the
  source's building (A6.8 Ex 2); or, on a line along a hexside, lies in a
  hex with inherent terrain beside it (checkLOSOnHexsideRule takes that
  terrain); or, on a line out of or into a depression (A6.3), is a hex's
  first pixel, or lies next to an end, or is the first of its terrain and
  ground level in its hex (checkDepressionRule reads nothing else);

and of the pixels in one hex with the same terrain, ground level and
leaving-the-building state, where no rule reads the pixel's place (a line
not along a hexside, a hex two or more from either end without a cliff
hexside, terrain that is no hexside terrain), only the first: the rest would
say what it said.

A line whose first such pixel has ground above both ends (checkGroundLevel)
or an obstacle higher than both (checkTerrainIsHigher), no inherent, split
or hexside terrain, is blocked there without asking more; a line with none
is clear with no hindrance; the others go through the rules at their pixels
in order (Tracer.run_some), the hexes entered kept track of there. The
answers are the pixel-by-pixel trace's (tests/vasl/test_vasl_los.py
compares them).
"""

from __future__ import annotations

import math
from typing import Any

from asl_kb.vasl.los import LosResult, Tracer, TraceResult
from asl_kb.vasl.vmap import GridArrays, Loc, unique

__all__ = ["los_many", "los_split"]

#: lines of a batch (their columns are figured as one array)
BATCH = 512
#: columns of the first stretch of lines, and of the longest
FIRST_STRETCH, STRETCH = 16, 256

GROUND_HIGHER = "Ground level is higher than both the source and target (A6.2)"
TERRAIN_HIGHER = "Terrain is higher than both the source and target (A6.2)"
HEIGHT_ADVANTAGE = "Must have a height advantage to see over this terrain (A6.2)"
HALF_LEVEL = "Half level terrain is higher than both the source and/or the target (A6.2)"
LEAVE_BUILDING = (
    "LOS must leave the building before leaving the source hex to see a location with a different elevation "
    "(A6.8 Example 2)"
)


class _ExtMasks:
    """Which pixels each hex's extended outline (its outline grown by a
    pixel) holds, as boolean masks over its bounding box: on a grid of
    standard geomorphic hexes the outlines repeat every 4 columns and 2 rows
    (225 x 129 px), so 8 masks serve every hex away from the map's edges;
    an edge hex's pixels are asked of its polygon."""

    def __init__(self, arrays: GridArrays):
        import numpy as np

        self.np = np
        self.a = arrays
        g = arrays.grid
        # (the classes' masks are taken at columns 8..11, rows 4..5: a grid
        # too small to hold them inside its edges, a small crop, has none)
        self.regular = (g.hex_width, g.hex_height, g.a1x, g.a1y) == (1800 / 32, 64.5, 0.0, 32.25)
        self.regular &= g.width >= 14 and g.height >= 7
        self.w = int((arrays.ex.max(1) - arrays.ex.min(1)).max()) + 1
        self.h = int((arrays.ey.max(1) - arrays.ey.min(1)).max()) + 1
        self.masks: list = []
        self._stack: Any = None
        self._classes: dict[tuple[int, int], tuple[int, int, int, int, int]] = {}
        self._entries: dict = {}

    def _mask(self, hid: int) -> tuple[Any, int, int]:
        np = self.np
        a = self.a
        ex, ey = a.ex[hid], a.ey[hid]
        x0, y0 = int(ex.min()), int(ey.min())
        xs, ys = np.meshgrid(np.arange(self.w) + x0, np.arange(self.h) + y0, indexing="ij")
        px, py = xs.ravel(), ys.ravel()
        inside = GridArrays.contains(px, py, np.broadcast_to(ex, (len(px), 6)), np.broadcast_to(ey, (len(px), 6)))
        return inside.reshape(self.w, self.h), x0, y0

    def entry(self, hid: int) -> tuple[int, int, int] | None:
        """(mask, x0, y0) of a hex whose outline is a translation of its
        class's, None for one that is not: column A (negative coordinates,
        truncated otherwise), the first hex of a half-hex column, the last
        ones of a column (VASL moves their points onto the map)."""
        got = self._entries.get(hid, self)
        if got is self:
            got = self._entries[hid] = self._entry(hid)
        return got

    def _entry(self, hid: int) -> tuple[int, int, int] | None:
        a = self.a
        g = a.grid
        col, row = a.cell(hid)
        edge = col == 0 or (row == 0 and col % 2) or row >= g.height - 1 + (col % 2) or col >= g.width - 2
        if not self.regular or edge:
            return None
        key = (col % 4, row % 2)
        cls = self._classes.get(key)
        if cls is None:
            rep_col, rep_row = 8 + key[0], 4 + key[1]
            mask, x0, y0 = self._mask(rep_col * a.stride + rep_row)
            self.masks.append(mask)
            self._stack = None
            cls = self._classes[key] = (len(self.masks) - 1, x0, y0, rep_col, rep_row)
        m, x0, y0, rep_col, rep_row = cls
        return m, x0 + 225 * ((col - rep_col) // 4), y0 + 129 * ((row - rep_row) // 2)

    def inside(self, xs, ys, hexes):
        """Whether each pixel lies in the extended outline of its hex
        (`hexes`, per pixel)."""
        np = self.np
        out = np.zeros(xs.shape, dtype=bool)
        uniq, inv = unique(hexes, return_inverse=True)
        entries = [self.entry(int(h)) for h in uniq.tolist()]
        regular = np.array([e is not None for e in entries], dtype=bool)
        reg_p = regular[inv]
        if reg_p.any():
            which = np.array([e[0] if e else 0 for e in entries], dtype=np.int64)[inv]
            x0 = np.array([e[1] if e else 0 for e in entries], dtype=np.int64)[inv]
            y0 = np.array([e[2] if e else 0 for e in entries], dtype=np.int64)[inv]
            dx, dy = xs - x0, ys - y0
            ok = reg_p & (dx >= 0) & (dx < self.w) & (dy >= 0) & (dy < self.h)
            if ok.any():
                if self._stack is None:
                    self._stack = np.stack(self.masks)
                out[ok] = self._stack[which[ok], dx[ok], dy[ok]]
        edge = ~reg_p
        if edge.any():
            a = self.a
            h = hexes[edge]
            ex, ey = a.ex[h], a.ey[h]
            x, y = xs[edge], ys[edge]
            near = (x >= ex.min(1)) & (x < ex.max(1)) & (y >= ey.min(1)) & (y < ey.max(1))
            res = np.zeros(x.shape, dtype=bool)
            if near.any():
                res[near] = GridArrays.contains(x[near], y[near], ex[near], ey[near])
            out[edge] = res
        return out


def state_of(tracer: Tracer) -> dict:
    """What a tracer keeps for batches (the tables, masks, hexes' levels)."""
    return _state(tracer)


def hexes_between(a: GridArrays, src: int, tgts) -> Any:
    """The hexes of the box of columns and rows that holds a hex and others
    (every hex a line between them passes through)."""
    import numpy as np

    cols, rows = np.divmod(np.append(tgts, src), a.stride)
    c0, c1 = int(cols.min()), int(cols.max())
    r0, r1 = max(int(rows.min()) - 1, 0), min(int(rows.max()) + 1, a.stride - 1)
    cc, rr = np.meshgrid(np.arange(c0, c1 + 1), np.arange(r0, r1 + 1), indexing="ij")
    h = (cc * a.stride + rr).ravel()
    return h[a.valid[h]]


def _state(tracer: Tracer):
    """What a tracer keeps for batches: the terrain tables, masks and the
    hexes' ground levels and building flags by hex index."""
    got = getattr(tracer, "_batch_state", None)
    if got is None:
        import numpy as np

        tracer.tables()
        a = tracer.arrays
        assert a is not None
        n = len(a.valid)
        got = tracer._batch_state = {  # type: ignore[attr-defined]
            "masks": _ExtMasks(a),
            "base": np.zeros(n, dtype=np.int16),
            "building": np.zeros(n, dtype=bool),
            "water": np.zeros(n, dtype=bool),
            "known": np.zeros(n, dtype=bool),
            "near_inherent": {},
            "cliffs": {},
        }
    return got


def _hexes(tracer: Tracer, st: dict, hids) -> None:
    """Each hex's ground level and whether its centre is a building's."""

    a = tracer.arrays
    assert a is not None
    new = unique(hids[~st["known"][hids]])
    for h in new.tolist():
        d = tracer.hx(a.cell(h))
        st["base"][h] = d.base
        st["building"][h] = d.center.is_building
        st["water"][h] = d.center.is_water
        st["known"][h] = True


def los_many(tracer: Tracer, pairs: list[tuple[Loc, Loc]], where: bool = True) -> list[LosResult]:
    """Tracer.los for each pair, in order. Without `where`, a blocked line's
    answer may name another pixel where it is blocked than the first (and
    its reason): a line with any pixel that surely blocks it is blocked,
    whatever lies before (what the rules ask: clear or not, and the
    hindrance of the clear ones)."""
    out: list[LosResult | None] = [None] * len(pairs)
    todo = []
    for i, (source, target) in enumerate(pairs):
        if source.hex == target.hex:
            if source.level == target.level:
                out[i] = LosResult(False, None, 0, 0, "")
            else:
                out[i] = tracer.los(source, target)
            continue
        s, t = source.terrain, target.terrain
        if (
            s.is_rooftop
            or t.is_rooftop
            or s.is_cellar
            or t.is_cellar
            or s.category == "ENTRENCHMENT"
            or t.category == "ENTRENCHMENT"
            or s.name == "Hillock"
            or t.name == "Hillock"
        ):
            out[i] = tracer.los(source, target)
            continue
        todo.append(i)
    a = tracer.arrays
    if todo:
        state = _state(tracer)
        a = tracer.arrays
        assert a is not None
        src = [a.hid(*pairs[i][0].hex) for i in todo]
        tgt = [a.hid(*pairs[i][1].hex) for i in todo]
        order = sorted(range(len(todo)), key=lambda j: abs(int(a.los_x[src[j]]) - int(a.los_x[tgt[j]])))
        for start in range(0, len(order), BATCH):
            part = order[start : start + BATCH]
            items = [todo[j] for j in part]
            for i, r in _Batch(tracer, state, pairs, items, where).run():
                out[i] = r
    return out  # type: ignore[return-value]


def los_split(tracer: Tracer, pairs: list[tuple[Loc, Loc]], where: bool = True, at_least: int = 1500):
    """los_many, half of the lines traced in a child process when there are
    `at_least` of them and two cores or more (asl_kb/children.py: the child
    finds the boards read and the hexes figured so far)."""
    from asl_kb import children

    if len(pairs) < at_least or not children.can_fork() or children.cores() < 2:
        return los_many(tracer, pairs, where)
    half = len(pairs) // 2
    with children.start(los_many, tracer, pairs[:half], where) as child:
        mine = los_many(tracer, pairs[half:], where)
        return child.result() + mine


class _Batch:
    """Lines traced together (see the module's docstring)."""

    def __init__(self, tracer: Tracer, state: dict, pairs, items: list[int], where: bool = True):
        import numpy as np

        self.np = np
        self.where = where
        self.t = tracer
        self.state = state
        self.pairs = pairs
        self.items = items
        a = tracer.arrays
        assert a is not None
        self.a = a
        locs = [pairs[i] for i in items]
        n = len(items)
        self.src = np.array([a.hid(*s.hex) for s, _ in locs], dtype=np.int64)
        self.tgt = np.array([a.hid(*t.hex) for _, t in locs], dtype=np.int64)
        _hexes(tracer, state, np.concatenate([self.src, self.tgt]))
        base = state["base"]
        self.se = base[self.src].astype(np.int64) + np.array([s.base for s, _ in locs], dtype=np.int64)
        self.te = base[self.tgt].astype(np.int64) + np.array([t.base for _, t in locs], dtype=np.int64)
        self.lo = np.minimum(self.se, self.te)
        self.hi = np.maximum(self.se, self.te)
        sx, sy = a.los_x[self.src], a.los_y[self.src]
        tx, ty = a.los_x[self.tgt], a.los_y[self.tgt]
        self.sx, self.sy, self.tx, self.ty = sx, sy, tx, ty
        self.num = np.abs(tx - sx) + 1
        self.dy = (ty.astype(np.float64) - sy.astype(np.float64)) / self.num.astype(np.float64)
        self.col_dir = np.where(tx - sx < 0, -1, 1)
        self.row_dir = np.where(ty - sy < 0, -1, 1)
        sc, sz = self._cube(self.src)
        tc, tz = self._cube(self.tgt)
        self.scz, self.tcz = (sc, sz), (tc, tz)
        self.rng = np.maximum(np.maximum(np.abs(sc - tc), np.abs(sz - tz)), np.abs(sc + sz - tc - tz))
        horiz = sy == ty
        with np.errstate(divide="ignore"):
            slope = np.where(sx != tx, np.abs((sy - ty) / np.where(sx != tx, sx - tx, 1)), np.inf)
        tol = np.where(self.rng > 15, 0.015, np.where(self.rng >= 5, 0.03, 0.05))
        self.along = horiz | (np.abs(slope - math.tan(math.radians(60.0))) < tol)
        src_dep = np.array([s.depression is not None for s, _ in locs], dtype=bool)
        tgt_dep = np.array([t.depression is not None for _, t in locs], dtype=bool)
        # (LOSStatus: exitsSourceDepression's hexside clause is never true)
        self.deep = (src_dep & (self.te - self.se <= self.rng)) | (tgt_dep & (self.se - self.te <= self.rng))
        self.restrict = state["building"][self.src] & (self.se != self.te)
        self.left = ~state["building"][self.src]  # the line has left the source's building
        # Map.LOS's column exits: sy + dy, then += dy, a float sum per line
        # (each stretch goes on from the last exit)
        self.last = sy.astype(np.float64)
        self.status: list = [None] * n
        self.results: list = [None] * n
        self.started = np.zeros(n, dtype=bool)
        self.done = np.zeros(n, dtype=bool)

    def _cube(self, h):
        c, r = self.np.divmod(h, self.a.stride)
        return c, self.a.grid.cube_z(c, r)

    def _status(self, j: int):
        st = self.status[j]
        if st is None:
            source, target = self.pairs[self.items[j]]
            result = TraceResult()
            st = self.status[j] = self.t._status(source, target, result)
            self.results[j] = result
        return st

    def run(self):
        np = self.np
        maxn = int(self.num.max())
        c0, width = 0, FIRST_STRETCH
        while c0 < maxn:
            live = np.flatnonzero(~self.done & (self.num > c0))
            if not len(live):
                break
            c1 = min(c0 + width, maxn)
            yield from self._stretch(live, c0, c1)
            # (most lines are blocked in their first hexes: stretches grow)
            c0, width = c1, min(2 * width, STRETCH)
        for j in np.flatnonzero(~self.done).tolist():
            yield self.items[j], self._clear(j)

    def _clear(self, j: int) -> LosResult:
        self.done[j] = True
        if self.results[j] is not None:
            return self.t._answer(self.results[j])
        return LosResult(False, None, 0, int(self.rng[j]), "")

    def _stretch(self, live, c0: int, c1: int):
        np = self.np
        t = self.t
        height, half, side, bterr, bld = t.tables()
        types = t.m.types
        a = self.a
        n = self.num[live]
        width = c1 - c0
        cols = np.arange(c0, c1, dtype=np.int64)
        # the columns' exits: the last one's + dy, column after column
        steps = np.broadcast_to(self.dy[live][:, None], (len(live), width)).copy()
        steps[:, 0] += self.last[live]
        exits = np.add.accumulate(steps, axis=1)
        enters = np.empty_like(exits)
        enters[:, 1:] = exits[:, :-1]
        enters[:, 0] = self.last[live]
        self.last[live] = exits[:, -1]
        r0 = np.trunc(enters).astype(np.int64)
        r1 = np.trunc(exits).astype(np.int64)
        counts = np.abs(r1 - r0) + 1
        counts[cols[None, :] >= n[:, None]] = 0
        flat = counts.ravel()
        per = counts.sum(axis=1)
        total = int(per.sum())
        line = np.repeat(live, per)  # each pixel's line (index into the batch)
        k = np.repeat(np.broadcast_to(cols, counts.shape).ravel(), flat)
        xs = self.sx[line] + k * self.col_dir[line]
        starts = np.cumsum(flat) - flat
        offs = np.arange(total, dtype=np.int64) - np.repeat(starts, flat)
        ys = np.repeat(r0.ravel(), flat) + self.row_dir[line] * offs
        first = np.cumsum(per) - per
        local = np.arange(total, dtype=np.int64) - np.repeat(first, per)
        full = per
        # the pixels no rule may read are left out here: those of a plain
        # line (out of no building or depression, not along a hexside)
        # whose terrain top stands no higher than the line's lower end and
        # is no hexside terrain, away from the map's edges (where a pixel may
        # be in no hex, ending the trace)
        everything = ~self.left[live] | self.along[live] | self.deep[live] | self.restrict[live]
        if not everything.all():
            top_map = self._top_map()
            gw, gh = top_map.shape
            edge = (xs < 120) | (xs >= gw - 120) | (ys < 70) | (ys >= gh - 110)
            sel = edge | (top_map[xs, ys] > self.lo[line]) | np.repeat(everything, per)
            if not sel.all():
                jj = np.repeat(np.arange(len(live), dtype=np.int64), per)[sel]
                xs, ys, line, k, local = xs[sel], ys[sel], line[sel], k[sel], local[sel]
                per = np.bincount(jj, minlength=len(live)).astype(np.int64)
                first = np.cumsum(per) - per
                total = int(per.sum())
        m = t.m
        codes = m.terrain[xs, ys]
        ground = m.elevation[xs, ys].astype(np.int64)
        # each pixel's hex: the ends' grown outlines first, then gridToHex
        masks = self.state["masks"]
        src_p, tgt_p = self.src[line], self.tgt[line]
        hid = np.full(total, -2, dtype=np.int64)
        # (an end's outline holds only the pixels of its first or last two
        # hexes' columns)
        near_s = k < 120
        if near_s.any():
            got = masks.inside(xs[near_s], ys[near_s], src_p[near_s])
            sub = np.flatnonzero(near_s)[got]
            hid[sub] = src_p[sub]
        near_t = (k >= self.num[line] - 120) & (hid == -2)
        if near_t.any():
            got = masks.inside(xs[near_t], ys[near_t], tgt_p[near_t])
            sub = np.flatnonzero(near_t)[got]
            hid[sub] = tgt_p[sub]
        rest = hid == -2
        if rest.any():
            assert t.lookup is not None
            hid[rest] = t.lookup(xs[rest], ys[rest])
        big = np.int64(1) << 40
        has = per > 0
        stop = np.full(len(live), big, dtype=np.int64)
        if has.any():
            stop[has] = np.minimum.reduceat(np.where(hid < 0, local, big), first[has])
        ends_at = np.where(stop < big, stop, full)  # the trace ends at a pixel in no hex
        before = local < np.repeat(ends_at, per)

        col, row = np.divmod(np.where(hid >= 0, hid, 0), a.stride)
        z = a.grid.cube_z(col, row)

        def dist(cz):
            dc = col - cz[0][line]
            dz = z - cz[1][line]
            return np.maximum(np.maximum(np.abs(dc), np.abs(dz)), np.abs(dc + dz))

        d_src, d_tgt = dist(self.scz), dist(self.tcz)
        rng = self.rng[line]
        ends = (hid == src_p) | (hid == tgt_p)
        main = ~ends & (d_src != rng) & (d_tgt != rng)
        h = height[codes]
        is_side = side[codes]
        lo = self.lo[line]
        hi = self.hi[line]
        se, te = self.se[line], self.te[line]
        # the main block's pixels whose top stands above the lower end (then
        # those of them some rule may act on: _may_say)
        attention = main & (ground + h + half[codes] > lo)
        cand = np.flatnonzero(attention)
        if len(cand):
            attention[cand] = self._may_say(
                ground[cand], h[cand], codes[cand], se[cand], te[cand], lo[cand], hi[cand], d_src[cand], d_tgt[cand]
            )
        # hexside terrain: a wall or hedge blocks only Locations both at its
        # ground level (checkHexsideTerrain, B9.2); bocage, cliffs and
        # rowhouse walls are always asked, and any of it along a hexside
        if is_side.any():
            wall_like = self._wall_codes()[codes]
            attention |= is_side & (~wall_like | ((ground == se) & (ground == te)))
        restrict = self.restrict[line]
        if restrict.any():
            attention |= restrict & bterr[codes] & (hid != src_p)  # A6.8 Ex 2
        along = self.along[line]
        if along.any():
            attention |= along & is_side
            sel = along & ~ends & (hid >= 0)
            if sel.any():
                near = self._near_inherent(unique(hid[sel]))
                if near:
                    attention |= sel & np.isin(hid, near)
        # leaving the source's building: carried from the stretches before
        notb = ~bld[codes]
        firstnb = np.full(len(live), big, dtype=np.int64)
        if has.any():
            firstnb[has] = np.minimum.reduceat(np.where(notb, local, big), first[has])
        left_before = self.left[live]
        leaves = np.repeat(left_before, per) | (local >= np.repeat(firstnb, per))
        self.left[live] = left_before | (firstnb < big)

        deep = self.deep[line]
        entered = None
        near_end = None
        any_deep = bool(deep.any())
        if any_deep:
            entered = np.ones(total, dtype=bool)
            entered[1:] = hid[1:] != hid[:-1]
            entered[first[has]] = True
            near_end = (d_src <= 1) | (d_tgt <= 1)
            attention |= deep & (entered | near_end)
            rest_d = deep & ~entered & ~near_end
            attention |= rest_d & _first_of_runs(np, line, hid, codes, ground, rest_d)
        # a bridge: its pixel sets the hex's ground aside for the rest of
        # the line in it (checkGroundLevelRule's ignoreGroundLevelHex)
        bridge = self._bridge_codes()[codes]
        attention |= bridge & main
        attention &= before

        # of like pixels in one hex where no rule reads a pixel's place, the
        # first of each run (a pixel kept that need not be only costs time)
        same = attention & ~along & ~is_side & (d_src > 1) & (d_tgt > 1)
        if same.any():
            cliffy = self._cliff_hexes(hid[same])
            if len(cliffy):
                same &= ~np.isin(hid, cliffy)
        if any_deep:
            assert entered is not None and near_end is not None
            same &= ~(deep & (entered | near_end))
        keep = attention & ~same
        if same.any():
            keep |= _first_of_runs(np, line, hid, codes, ground * 2 + leaves, same)
        # hindrance-only pixels: terrain no rule but addHindranceHex reads
        # there (no obstacle, split, inherent, hexside, building, factory,
        # bridge or road terrain; no ground above both ends, no height
        # advantage or blind hex to check): a line's hindrance is the most
        # per range from the source, so of such pixels at one range with one
        # value only the first may change it (the others are passed by, and
        # those that add nothing at all too)
        hind, value = self._hindrance_codes()
        ho = keep & hind[codes] & ~along & ~deep & ~restrict
        if ho.any():
            idx = np.flatnonzero(ho)
            g_, h_, c_ = ground[idx], h[idx], codes[idx]
            se_, te_, lo_, hi_ = se[idx], te[idx], lo[idx], hi[idx]
            top_ = g_ + h_
            half_ = halfonly(types, c_)
            up = se_ >= te_
            rs = np.where(up, d_src[idx], d_tgt[idx])
            rt = np.where(up, d_tgt[idx], d_src[idx])
            reach = 2 * top_ + rs // 5 - se_ - te_ + np.where(h_ > 0, 1, 0)
            reach = np.maximum(reach, np.where(h_ > 0, 1, 0))
            cliff = self._cliff_codes()[c_]
            blind = (top_ + cliff > lo_) & (top_ + cliff < hi_) & (se_ != te_) & (rt <= reach + 1)
            risky = (g_ > hi_) | ((top_ == hi_) & (top_ > lo_)) | blind
            adds = (half_ & (top_ == se_) & (top_ == te_)) | (2 * top_ + half_ > 2 * hi_)
            rng_ = rng[idx]
            adds &= (d_src[idx] < rng_) & (d_tgt[idx] < rng_)
            sure = ~risky
            # those that add nothing: passed by
            keep[idx[sure & ~adds]] = False
            mine = sure & adds
            if mine.any():
                at = idx[mine]
                key = (line[at] << 24) | (d_src[at] << 2) | value[codes[at]]
                first_ = _first_of_keys(np, key)
                keep[at[~first_]] = False

        # a line whose first pixel to ask blocks for sure: ground or an
        # obstacle higher than both ends, no inherent, split or hexside terrain
        obstacle, light, inherent, split = self._flags()
        halfish = halfonly(types, codes)
        top = ground + h
        ground_blocks = ground > hi
        obstacle_blocks = obstacle[codes] & ~light[codes] & (2 * top + halfish > 2 * hi)
        plain = ~inherent[codes] & ~split[codes] & ~is_side
        # (next to an end, ground as high as the higher end and nearer the
        # end than its hex's centre dot does not count: B10.2 EXC,
        # checkTerrainHeight's distance test for a height 0; nor beside water)
        height_blocks = (top == hi) & (top > lo) & ~halfish & ~self._orchard_oos()[codes]
        flat_ = keep & height_blocks & (h == 0) & ((d_src == 1) | (d_tgt == 1)) & main & ~is_side & ~along & ~deep
        if restrict.any():
            flat_ &= ~(restrict & bterr[codes])
        if flat_.any():
            idx = np.flatnonzero(flat_)
            _hexes(t, self.state, hid[idx])
            base = self.state["base"][hid[idx]]
            cx, cy = a.los_x[hid[idx]], a.los_y[hid[idx]]
            px, py = xs[idx], ys[idx]
            exc = np.zeros(len(idx), dtype=bool)
            for end, elev, d in ((self.src, self.se, d_src), (self.tgt, self.te, d_tgt)):
                e = end[line[idx]]
                ex, ey = a.los_x[e], a.los_y[e]
                nearer = (ex - px) ** 2 + (ey - py) ** 2 < (ex - cx) ** 2 + (ey - cy) ** 2
                exc |= (d[idx] == 1) & (elev[line[idx]] > base) & nearer
            wet = self.state["water"][hid[idx]]
            height_blocks[idx[exc | wet]] = False
            # such a pixel says nothing at all: ground as high as the higher
            # end only, no hindrance, no other rule reaches it
            keep[idx[exc & ~wet & ~(ground[idx] > hi[idx])]] = False
        sure = main & plain & (ground_blocks | obstacle_blocks | height_blocks) & ~along & ~deep & ~bridge

        chosen = np.flatnonzero(keep)
        bounds = np.searchsorted(chosen, np.append(first, total)).tolist()
        # (without `where`: any pixel of a line that surely blocks it)
        any_sure = None
        if not self.where and has.any():
            got = np.full(len(live), big, dtype=np.int64)
            got[has] = np.minimum.reduceat(np.where(sure & keep, np.arange(total, dtype=np.int64), big), first[has])
            # (not past a bridge: the ground of its hex is set aside)
            after = np.full(len(live), big, dtype=np.int64)
            after[has] = np.minimum.reduceat(np.where(bridge, np.arange(total, dtype=np.int64), big), first[has])
            any_sure = np.where((got < big) & (got < after), got, -1).tolist()
        last_col = (n <= c1).tolist()
        stopped = (stop < big).tolist()
        started = self.started
        items = self.items
        for jj, j in enumerate(live.tolist()):
            lo_j, hi_j = bounds[jj], bounds[jj + 1]
            if lo_j == hi_j:
                if stopped[jj] or last_col[jj]:
                    yield items[j], self._clear(j)
                continue
            i0 = int(chosen[lo_j])
            # (a line traced so far past a bridge's pixel: its hex's ground set aside)
            usable = any_sure is not None and not (started[j] and self.status[j].ignore_ground_hex is not None)
            if usable and any_sure is not None and any_sure[jj] >= 0 and not sure[i0]:
                i0 = any_sure[jj]
            if (not started[j] or usable) and sure[i0]:
                gb = bool(ground_blocks[i0])
                why = GROUND_HIGHER if gb else TERRAIN_HIGHER if obstacle_blocks[i0] else HEIGHT_ADVANTAGE
                if not gb and halfish[i0] and ground[i0] + h[i0] == self.se[j] == self.te[j]:
                    why = HALF_LEVEL
                if (
                    not leaves[i0]
                    and bterr[codes[i0]]
                    and hid[i0] != self.src[j]
                    and self.se[j] <= h[i0] + ground[i0]
                    and self.se[j] != self.te[j]
                ):
                    why = LEAVE_BUILDING
                self.done[j] = True
                yield items[j], LosResult(True, (int(xs[i0]), int(ys[i0])), 0, int(self.rng[j]), why)
                continue
            st = self._status(j)
            started[j] = True
            if left_before[jj]:
                at = -1
            elif firstnb[jj] < big:
                at = int(first[jj]) + int(firstnb[jj])
            else:
                at = total
            order = chosen[lo_j:hi_j].tolist()
            if t.run_some(st, self.results[j], order, xs, ys, codes, ground, hid, at) or stopped[jj]:
                self.done[j] = True
                yield items[j], t._answer(self.results[j])
            elif last_col[jj]:
                yield items[j], self._clear(j)

    def _top_map(self):
        """Per pixel of the map: the top of its terrain (ground level +
        height, +1 for half-level or split terrain), and 1000 for hexside
        terrain (any rule may read it)."""
        got = self.state.get("top_map")
        if got is None:
            np = self.np
            height, half, side, _bterr, _bld = self.t.tables()
            m = self.t.m
            top = height.astype(np.int16) + half.astype(np.int16)
            top[side] = 1000
            top[self._bridge_codes()] = 1000  # (a bridge's pixel is read: see _stretch)
            got = m.elevation.astype(np.int16)
            got += top[m.terrain]
            self.state["top_map"] = got
        return got

    def _flags(self):
        got = self.state.get("flags")
        if got is None:
            np = self.np
            types = self.t.m.types
            obstacle = np.array([bool(x and x.obstacle) for x in types])
            light = np.array([bool(x and "Light Woods" in x.name) for x in types])
            inherent = np.array([bool(x and x.inherent) for x in types])
            split = np.array([bool(x and x.split != 0.0) for x in types])
            got = self.state["flags"] = (obstacle, light, inherent, split)
        return got

    def _may_say(self, ground, h, codes, se, te, lo, hi, d_src, d_tgt):
        """Whether a pixel of the main block may say anything: the rules
        there (checkGroundLevel, checkSplitTerrain, checkHalfLevelTerrain,
        checkTerrainIsHigher, checkTerrainHeight, checkBlindHex) each ask
        first that its top stand above, at or between the ends' levels, and
        a blind hex (isBlindHex) that the lower end be within range of the
        obstacle's shadow; a pixel none of them can act on is passed by."""
        np = self.np
        types = self.t.m.types
        obstacle, light, inherent, split = self._flags()
        halfish = halfonly(types, codes)
        cliff = self._cliff_codes()[codes]
        top = ground + h
        sp = split[codes] & (ground == se) & (ground == te)
        hl = halfish & (top == se) & (top == te)
        higher = 2 * top + np.where(halfish, 1, 0) > 2 * hi
        height = (top == hi) & (top > lo)
        between = (top + cliff > lo) & (top + cliff < hi)
        # isBlindHex: rt <= 2 * (ground + height) + rs // 5 - both levels
        # (+1 for an obstacle), at least 0 (1); rs, rt: the range to the
        # higher and lower end (a depression hexside only lowers it)
        up = se >= te
        rs = np.where(up, d_src, d_tgt)
        rt = np.where(up, d_tgt, d_src)
        reach = 2 * top + rs // 5 - se - te + np.where(h > 0, 1, 0)
        reach = np.maximum(reach, np.where(h > 0, 1, 0))
        blind = between & (se != te) & (rt <= reach + 1)
        # (+1: a half-level building's rooftop adjustment, and room for the
        # cliffs' ground adjustment along a hexside)
        return (ground > hi) | sp | hl | higher | height | blind

    def _hindrance_codes(self):
        """Per terrain code: whether addHindranceHex is the only rule that may
        read it (a hindrance no other rule reads: see _stretch), and the
        hindrance it adds (2: roofless, 1: any other)."""
        got = self.state.get("hindrance_codes")
        if got is None:
            np = self.np
            types = self.t.m.types

            def only(x) -> bool:
                return bool(
                    x
                    and not x.obstacle
                    and x.split == 0.0
                    and not x.inherent
                    and not x.is_hexside
                    and not x.is_building_terrain
                    and not x.is_building
                    and not x.is_factory
                    and not x.is_bridge
                    and "Road" not in x.name
                    and "Light Woods" not in x.name
                    and x.name != "Orchard, Out of Season"
                )

            got = self.state["hindrance_codes"] = (
                np.array([only(x) for x in types]),
                np.array([2 if (x and x.is_roofless) else 1 for x in types], dtype=np.int64),
            )
        return got

    def _bridge_codes(self):
        got = self.state.get("bridge_codes")
        if got is None:
            types = self.t.m.types
            got = self.state["bridge_codes"] = self.np.array([bool(x and x.is_bridge) for x in types])
        return got

    def _wall_codes(self):
        """Hexside terrain that blocks only Locations at its own level (walls,
        hedges: not bocage, cliffs or rowhouse walls)."""
        got = self.state.get("wall_codes")
        if got is None:
            types = self.t.m.types
            got = self.state["wall_codes"] = self.np.array(
                [
                    bool(x and x.is_hexside and not x.is_cliff and not x.is_rowhouse_wall and x.name != "Bocage")
                    for x in types
                ]
            )
        return got

    def _cliff_codes(self):
        got = self.state.get("cliff_codes")
        if got is None:
            types = self.t.m.types
            got = self.state["cliff_codes"] = self.np.array([1 if (x and x.is_cliff) else 0 for x in types])
        return got

    def _orchard_oos(self):
        got = self.state.get("orchard_oos")
        if got is None:
            types = self.t.m.types
            got = self.state["orchard_oos"] = self.np.array(
                [bool(x and x.name == "Orchard, Out of Season") for x in types]
            )
        return got

    def _near_inherent(self, hids) -> list[int]:
        cache = self.state["near_inherent"]
        out = []
        for h in hids.tolist():
            got = cache.get(h)
            if got is None:
                got = cache[h] = self.t.near_inherent_terrain(self.a.cell(h))
            if got:
                out.append(h)
        return out

    def _cliff_hexes(self, hids) -> list[int]:
        cache = self.state["cliffs"]
        out = []
        for h in unique(hids).tolist():
            got = cache.get(h)
            if got is None:
                got = cache[h] = any(self.t.hx(self.a.cell(h)).cliff)
            if got:
                out.append(h)
        return out


def _first_of_runs(np, line, hid, codes, more, where):
    """Among the pixels `where`, those whose (line, hex, terrain, `more`)
    differs from the previous such pixel's: the first of each run of like
    pixels (a hex's pixels mostly come together)."""
    idx = np.flatnonzero(where)
    out = np.zeros(where.shape, dtype=bool)
    if len(idx):
        key = (line[idx] << 40) | (hid[idx] << 22) | (codes[idx].astype(np.int64) << 14) | (more[idx] + 1024)
        new = np.ones(len(idx), dtype=bool)
        new[1:] = key[1:] != key[:-1]
        out[idx[new]] = True
    return out


def _first_of_keys(np, key):
    """Whether each entry is the first (in order) with its key."""
    order = np.argsort(key, kind="stable")
    k = key[order]
    new = np.ones(len(k), dtype=bool)
    new[1:] = k[1:] != k[:-1]
    out = np.empty(len(k), dtype=bool)
    out[order] = new
    return out


def halfonly(types, codes):
    """Half-level terrain (its top half a level above its height), per pixel."""
    import numpy as np

    table = getattr(halfonly, "_table", None)
    if table is None or table[0] is not types:
        table = (types, np.array([bool(x and x.half_level and not x.is_hexside) for x in types]))
        halfonly._table = table  # type: ignore[attr-defined]
    return table[1][codes]
