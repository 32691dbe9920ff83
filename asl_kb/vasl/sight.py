"""The LOS a position on VASL boards hands the rules: VASL's trace over the
boards' pixels (los.py) between every pair of Locations the rules ask,
with what the position adds on top and the `los:` overrides winning.

* The boards' own terrain is VASL's: obstacles, hindrances, hills, blind
  hexes, walls and hedges as the artwork has them.
* The position's counters are not on the artwork: a SMOKE hex (A24) between
  the two hexes adds +2 (`map.smoke`, a `smoke` feature), a hex holding a
  vehicle +1 (D10), as on the painted map; a total of +6 blocks (B.10).
* A `los:` pair (blocked, clear, hindrance) of the position wins, as on the
  painted map.
* VASL's LOS is not always symmetric (an artefact of its pixels: A6.1 has
  LOS reciprocal). The rules read it from the unit whose LOS matters: every
  `los(L,E,N)` fact is traced from E's Location (the enemy unit that fires,
  interdicts, forces a rout or is Known) to L (asl_kb/asp/facts.py asks
  `seen_from` from a unit's spot, `seeing` from a Location);
  docs/design.md says why.
"""

from __future__ import annotations

from asl_kb.board import hexgrid
from asl_kb.board.terrain import FEATURES, HINDRANCE_BLOCKS_AT, SMOKE_HINDRANCE, VEHICLE_HINDRANCE

__all__ = ["RealLos"]

_BLOCKED = (False, 0)
#: lines to trace at least before a child process traces half of them (on a
#: machine of two cores or more: asl_kb/children.py); fewer, one process
PARALLEL_LINES = 1500


class _Watched:
    """Targets filed for seen_from (as board/viewshed.Watched)."""

    def __init__(self, targets):
        self.at: dict = {}
        self.count = 0
        for t in targets:
            self.count += 1
            self.at.setdefault(t[0], []).append(t)


class RealLos:
    """LOS queries over a position on VASL boards (the interface of
    asl_kb.board.los.LosMap that asl_kb/asp/facts.py asks)."""

    def __init__(self, position, vehicle_hexes=()):
        self.p = position
        self.real = position.real
        self.grid = position.grid
        self._cache: dict = {}
        smoke = set(position.smoke)
        for h, t in position.terrain.items():
            if "smoke" in t.features:
                smoke.add(h)
        self._extra: dict[str, int] = {}
        for h in smoke:
            self._extra[h] = self._extra.get(h, 0) + SMOKE_HINDRANCE
        for h, t in position.terrain.items():
            for f in t.features:
                if f != "smoke" and FEATURES.get(f) is not None and FEATURES[f].hindrance:
                    self._extra[h] = self._extra.get(h, 0) + FEATURES[f].hindrance
        for h in vehicle_hexes:
            self._extra[h] = self._extra.get(h, 0) + VEHICLE_HINDRANCE
        self._overrides: dict = {}
        for kind, pairs in (
            ("hindrance", position.los_hindrance),
            ("clear", position.los_clear),
            ("blocked", position.los_blocked),
        ):
            for pair in pairs:
                a = _loc(pair[0])
                b = _loc(pair[1])
                r = _BLOCKED if kind == "blocked" else (True, 0) if kind == "clear" else (True, int(pair[2]))
                self._overrides[(a, b)] = self._overrides[(b, a)] = r

    # ------------------------------------------------------------ queries

    def override(self, a, la, b, lb):
        """The position's `los:` answer for the pair, None when it states none."""
        return self._override(a, la, b, lb) if self._overrides else None

    def added(self, a: str, b: str) -> int:
        """The hindrance the position's counters add between two hexes."""
        return sum(self._extra.get(h, 0) for h in self.between(a, b)) if self._extra else 0

    def _override(self, a, la, b, lb):
        for ka in ((a, la), (a, None)):
            for kb in ((b, lb), (b, None)):
                r = self._overrides.get((ka, kb))
                if r is not None:
                    return r
        return None

    def los(self, a_hex: str, a_level: int, b_hex: str, b_level: int) -> tuple[bool, int]:
        """(has LOS, total Hindrance DRM) from Location a to Location b (VASL
        traces it from a)."""
        key = (a_hex, a_level, b_hex, b_level)
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = self._compute(*key)
        return got

    def _compute(self, a: str, la: int, b: str, lb: int) -> tuple[bool, int]:
        if self._overrides:
            r = self._override(a, la, b, lb)
            if r is not None:
                return r
        if a == b and la == lb:
            return (True, 0)
        r = self.real.los(a, la, b, lb)
        return self._finish(a, b, (r.blocked, r.hindrance))

    def between(self, a: str, b: str) -> list[str]:
        """The hexes between two hexes on the hex grid (not their own): the
        ones whose inside the line between the centre dots crosses, one hex of
        a hexside the line runs along (hexgrid.line_groups)."""
        ax, ay, az = self.grid.cube(a)
        bx, by, bz = self.grid.cube(b)
        out = []
        for members in hexgrid.line_groups(bx - ax, by - ay, bz - az):
            names = [self.grid.name_at(ax + m[0], az + m[2]) for m in members]
            names = [n for n in names if n is not None]
            if names:
                out.append(min(names, key=lambda n: self._extra.get(n, 0)))
        return out

    def entry_sides(self, a: str, b: str) -> list[tuple[str, str]]:
        """The hexsides of b the line from a enters b by (board/los.py
        entry_sides, on the boards' grid)."""
        if a == b:
            return []
        ax, ay, az = self.grid.cube(a)
        bx, by, bz = self.grid.cube(b)
        groups = [((0, 0, 0),)] + list(hexgrid.line_groups(bx - ax, by - ay, bz - az))
        last = groups[-1]
        out = []
        for m in last:
            n = self.grid.name_at(ax + m[0], az + m[2])
            if n is not None and self.grid.adjacent(n, b):
                out.append((n, b))
        return out

    def los_from(self, a_hex: str, a_level: int, targets) -> dict:
        given = {t: ((t, 0) if isinstance(t, str) else tuple(t)) for t in targets}
        return {t: self.los(a_hex, a_level, loc[0], loc[1]) for t, loc in given.items()}

    def watch(self, targets) -> _Watched:
        return _Watched(targets)

    def prefetch_seen(self, jobs, seeing: bool = False) -> None:
        """Trace together every line seen_from (seeing: `seeing`) will ask
        for `jobs`, pairs of a Location (hex, level) and its targets
        (watch())."""
        pairs = []
        for a, w in jobs:
            for ts in w.at.values():
                for t in ts:
                    pairs.append((t[0], t[1], a[0], a[1]) if seeing else (a[0], a[1], t[0], t[1]))
        self.prefetch(pairs)

    def seen_from(self, a_hex: str, a_level: int, watched: _Watched) -> dict:
        """{target: (True, hindrance)} for the targets the Location sees,
        traced from it (the lines not yet traced, traced together:
        asl_kb/vasl/batch.py)."""
        targets = [t for ts in watched.at.values() for t in ts]
        self.prefetch([(a_hex, a_level, t[0], t[1]) for t in targets])
        out = {}
        for t in targets:
            r = self.los(a_hex, a_level, t[0], t[1])
            if r[0]:
                out[t] = r
        return out

    def seeing(self, a_hex: str, a_level: int, watched: _Watched) -> dict:
        """{target: (True, hindrance)} for the targets that see the
        Location, each traced from the target."""
        targets = [t for ts in watched.at.values() for t in ts]
        self.prefetch([(t[0], t[1], a_hex, a_level) for t in targets])
        out = {}
        for t in targets:
            r = self.los(t[0], t[1], a_hex, a_level)
            if r[0]:
                out[t] = r
        return out

    def prefetch(self, pairs) -> None:
        """Trace the pairs of Locations not traced yet, together."""
        todo = {}
        for a, la, b, lb in pairs:
            key = (a, la, b, lb)
            if key not in self._cache and key not in todo:
                if self._overrides and self._override(*key) is not None:
                    continue
                if key[0] == key[2] and key[1] == key[3]:
                    continue
                todo[key] = None
        if not todo:
            return
        from asl_kb.vasl.batch import los_split

        keys = self._screen(list(todo))
        real = self.real
        locs = []
        for a, la, b, lb in keys:
            src, tgt = real.location(a, la), real.location(b, lb)
            if src is None or tgt is None:
                raise ValueError(f"no Location {a}@{la} or {b}@{lb}")
            locs.append((src, tgt))
        # (any pixel that surely blocks a line is where it is blocked: the
        # rules ask only whether it is; many lines, half in a child process)
        got = los_split(real.tracer, locs, where=False, at_least=PARALLEL_LINES)
        for key, r in zip(keys, got):
            self._cache[key] = self._finish(key[0], key[2], (r.blocked, r.hindrance))

    def _screen(self, keys: list) -> list:
        """The pairs a hex's core surely blocks (asl_kb/vasl/cores.py) answered
        blocked; the others, to trace."""
        import numpy as np

        from asl_kb.vasl import batch, cores

        real = self.real
        tracer = real.tracer
        state = batch.state_of(tracer)
        a = tracer.arrays
        by_src: dict = {}
        for key in keys:
            by_src.setdefault((key[0], key[1]), []).append(key)
        rest = []
        for (s_hex, s_level), group in by_src.items():
            src_cell = real.cell(s_hex)
            src = a.hid(*src_cell)
            src_loc = real.location(s_hex, s_level)
            if len(group) < 8 or src_loc is None or src_loc.depression is not None:
                rest.extend(group)
                continue
            tgts, tes, ok = [], [], []
            for _, _, b, lb in group:
                loc = real.location(b, lb)
                good = loc is not None and loc.depression is None and loc.kind != "down"
                ok.append(good)
                cell = real.cell(b)
                tgts.append(a.hid(*cell))
                tes.append((real.hex_data(b).base + (loc.base if loc is not None else 0)))
            tg = np.array(tgts, dtype=np.int64)
            se = real.hex_data(s_hex).base + src_loc.base
            # the cores between: the hexes of the box the lines span
            hexes = batch.hexes_between(a, src, tg)
            hit = cores.blocked_by_cores(tracer, state, (src, se), (tg, np.array(tes, dtype=np.int64)), hexes)
            for key, good, blocked in zip(group, ok, hit.tolist()):
                if good and blocked:
                    self._cache[key] = _BLOCKED
                else:
                    rest.append(key)
        return rest

    def _finish(self, a: str, b: str, r: tuple[bool, int]) -> tuple[bool, int]:
        """VASL's answer (blocked, hindrance) and the position's counters
        between a and b."""
        if r[0]:
            return _BLOCKED
        total = r[1]
        if self._extra:
            total += sum(self._extra.get(h, 0) for h in self.between(a, b))
            if total >= HINDRANCE_BLOCKS_AT:
                return _BLOCKED
        return (True, total)


def _loc(text: str) -> tuple[str, int | None]:
    """A `los:` Location as the loader normalised it: HEX or HEX@N."""
    hex_text, sep, level = str(text).partition("@")
    return hex_text, (int(level) if sep else None)
