"""The positions of a scope, smallest first, one per symmetry class.

Order: number of units, then number of non-open hexes, then the rest
(attacker, No Quarter, phase, in the scope's order), then the placement's
canonical form -- so the first position found is minimal within the scope,
and the order never depends on anything but the scope.

Two placements equal under one of the hex grid's 12 rotations and
reflections about the patch's centre, or under a translation that keeps
every placed hex in the patch, are one position (the margin keeps the map's
edge out of every unit's reach, so the rules answer them alike): only the
placement whose canonical form (the smallest of its images, as cube
coordinates relative to the centre) is kept, written as that image.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Iterator

import yaml

from asl_kb.board import hexgrid
from asl_kb.committee.scope import Scope

_SYMMETRIES = [apply for apply, _undo in hexgrid._SYMMETRIES]


@dataclasses.dataclass(frozen=True)
class Candidate:
    """One position of a scope, before it is written as YAML."""
    index: int                                  # 0-based, in enumeration order
    units: tuple[tuple[str, int], ...]          # (hex, spec index), sorted
    terrain: tuple[tuple[str, int], ...]        # (hex, palette index), sorted
    attacker: str
    no_quarter: tuple[str, ...]
    phase: str

    @property
    def size(self) -> tuple[int, int]:
        return len(self.units), len(self.terrain)


def _rel(scope: Scope):
    cx, cy, cz = hexgrid.cube(scope.centre)
    to_rel = {h: (c[0] - cx, c[1] - cy, c[2] - cz) for h in scope.patch() for c in [hexgrid.cube(h)]}
    from_rel = {v: k for k, v in to_rel.items()}
    return to_rel, from_rel


def _plus(c, d):
    return (c[0] + d[0], c[1] + d[1], c[2] + d[2])


def _key(c):
    """A relative cube as sorted: nearest the centre first."""
    return (max(abs(c[0]), abs(c[1]), abs(c[2])), c)


def _class_key(units, terrain):
    """The same for every placement equal to this one under a symmetry and a
    translation: the smallest of its 12 images, each moved so that its
    smallest cell is the origin."""
    best = None
    for sym in _SYMMETRIES:
        u = [(sym(c), i) for c, i in units]
        t = [(sym(c), i) for c, i in terrain]
        o = min(c for c, _ in u + t)
        d = (-o[0], -o[1], -o[2])
        image = (tuple(sorted((_plus(c, d), i) for c, i in u)), tuple(sorted((_plus(c, d), i) for c, i in t)))
        if best is None or image < best:
            best = image
    return best


@functools.lru_cache(maxsize=64)
def placements(scope: Scope, n_units: int, n_terrain: int) -> list:
    """Canonical placements of n_units units and n_terrain non-open hexes:
    of each class (above), its smallest member in the patch. Every member
    of a class that lies in the patch is some placement enumerated here, so
    the smallest of those met is the class's canonical form."""
    to_rel, _ = _rel(scope)
    cells = sorted(to_rel.values())
    slots = [(c, i) for c in cells for i in range(len(scope.specs))]
    broken = {i for i, s in enumerate(scope.specs) if "broken" in s.status}
    best: dict = {}
    for units in itertools.combinations_with_replacement(slots, n_units):
        if scope.require_broken and not any(i in broken for _, i in units):
            continue
        for where in itertools.combinations(cells, n_terrain):
            for kinds in itertools.product(range(len(scope.palette)), repeat=n_terrain):
                terrain = tuple(zip(where, kinds))
                key = _class_key(units, terrain)
                form = (tuple(sorted((_key(c), i) for c, i in units)), tuple(sorted((_key(c), i) for c, i in terrain)))
                if key not in best or form < best[key]:
                    best[key] = form
    return sorted(best.values())


def candidates(scope: Scope) -> Iterator[Candidate]:
    """Every position of the scope, smallest first (see the module's doc)."""
    _, from_rel = _rel(scope)
    rest = list(itertools.product(scope.attackers, scope.no_quarter, scope.phases))
    index = 0
    max_terrain = scope.non_open if scope.palette else 0
    for n in range(scope.min_units, scope.max_units + 1):
        for t in range(0, max_terrain + 1):
            group = placements(scope, n, t)
            for attacker, nq, phase in rest:
                for units, terrain in group:
                    yield Candidate(index, tuple((from_rel[c], i) for (_d, c), i in units),
                                    tuple((from_rel[c], i) for (_d, c), i in terrain), attacker, nq, phase)
                    index += 1


def count(scope: Scope) -> int:
    rest = len(scope.attackers) * len(scope.no_quarter) * len(scope.phases)
    max_terrain = scope.non_open if scope.palette else 0
    return rest * sum(len(placements(scope, n, t)) for n in range(scope.min_units, scope.max_units + 1)
                      for t in range(0, max_terrain + 1))


def to_yaml(scope: Scope, c: Candidate, header: str = "") -> str:
    """The candidate as a position file the loader reads (`asl-kb diff` replays it)."""
    doc = {"name": f"{scope.name} #{c.index + 1}", "rules": "current", "attacker": c.attacker,
           "no_quarter": list(c.no_quarter), "phase": c.phase,
           "map": {"default_terrain": scope.default_terrain, "area": list(scope.area()),
                   "terrain": {h: scope.palette[i] for h, i in c.terrain}},
           "units": [u for k, (h, i) in enumerate(c.units) for u in scope.specs[i].as_units(f"U{k + 1}", h)]}
    body = yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=200)
    return "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines()) + body


def brief(scope: Scope, c: Candidate) -> str:
    """The candidate in one line, for a report (the YAML is in --format
    json and in the witness files)."""
    units = []
    for k, (h, i) in enumerate(c.units):
        for u in scope.specs[i].as_units(f"U{k + 1}", h):
            words = [u["id"], u.get("side", ""), u["type"], u.get("counter", "")] + list(u.get("status") or ())
            units.append(" ".join(w for w in words if w) + f" at {u['at']}"
                         + (f" guarded by {u['guard']}" if u.get("guard") else ""))
    terrain = ", ".join(f"{scope.palette[i]} {h}" for h, i in c.terrain)
    nq = f"; No Quarter: {', '.join(c.no_quarter)}" if c.no_quarter else ""
    return (f"{c.attacker} attacking, {c.phase} phase{nq}; " + "; ".join(units)
            + (f"; {terrain}" if terrain else "") + f" (else {scope.default_terrain})")
