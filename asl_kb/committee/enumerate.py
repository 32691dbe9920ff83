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
import json
from collections.abc import Iterator

import yaml

from asl_kb.board import hexgrid
from asl_kb.board.terrain import feature_type
from asl_kb.committee.scope import PASSED, Scope
from asl_kb.position.loader import BUILDINGS

SYMMETRIES = [apply for apply, _undo in hexgrid.SYMMETRIES]


@dataclasses.dataclass(frozen=True)
class Candidate:
    """One position of a scope, before it is written as YAML."""

    index: int  # 0-based, in enumeration order
    units: tuple[tuple[str, int], ...]  # (hex, spec index), sorted
    terrain: tuple[tuple[str, int], ...]  # (hex, palette index), sorted
    attacker: str
    no_quarter: tuple[str, ...]
    phase: str
    options: tuple[tuple[str, str], ...] = ()  # the header's other choices (Scope.options)

    @property
    def size(self) -> tuple[int, int]:
        return len(self.units), len(self.terrain)


def relative(scope: Scope):
    cx, cy, cz = hexgrid.cube(scope.centre)
    to_rel = {h: (c[0] - cx, c[1] - cy, c[2] - cz) for h in scope.patch() for c in [hexgrid.cube(h)]}
    from_rel = {v: k for k, v in to_rel.items()}
    return to_rel, from_rel


def nearest_key(c):
    """A relative cube as sorted: nearest the centre first."""
    return (max(abs(c[0]), abs(c[1]), abs(c[2])), c)


#: a cell's code: linear in its cube (x, z), so a translation adds a constant
#: to every code and the smallest code marks the same cell of every image
_BASE, _SLOTS = 256, 1024


def codes_of(cells) -> list[dict]:
    """For each of the 12 symmetries: cell -> the code of its image."""
    return [{c: ((sym(c)[0] + 64) * _BASE + sym(c)[2] + 64) * _SLOTS for c in cells} for sym in SYMMETRIES]


def class_key(codes, units, terrain):
    """The same for every placement equal to this one under a symmetry and a
    translation: the smallest of its 12 images, each moved so that its
    smallest cell has code 0 (itself when `codes` is None: a scope with
    fixed hexsides)."""
    if codes is None:
        return units, terrain
    best = None
    for code in codes:
        u = sorted(code[c] + i for c, i in units)
        t = sorted(code[c] + i for c, i in terrain)
        o = min(u[0], t[0]) if t else u[0]
        o -= o % _SLOTS
        image = (tuple(x - o for x in u), tuple(x - o for x in t))
        if best is None or image < best:
            best = image
    return best


@functools.lru_cache(maxsize=64)
def placements(scope: Scope, n_units: int, n_terrain: int) -> list:
    """Canonical placements of n_units units and n_terrain non-open hexes:
    of each class (above), its smallest member in the patch. Every member
    of a class that lies in the patch is some placement enumerated here, so
    the smallest of those met is the class's canonical form."""
    to_rel, _ = relative(scope)
    cells = sorted(to_rel.values())
    slots = [(c, i) for c in cells for i in range(len(scope.specs))]
    broken = {i for i, s in enumerate(scope.specs) if "broken" in s.status}
    codes = None if scope.hexsides else codes_of(cells)
    best: dict = {}
    for units in itertools.combinations_with_replacement(slots, n_units):
        if scope.require_broken and not any(i in broken for _, i in units):
            continue
        if not _kinds_fit(scope, units):
            continue
        for where in itertools.combinations(cells, n_terrain):
            for kinds in itertools.product(range(len(scope.palette)), repeat=n_terrain):
                terrain = tuple(zip(where, kinds))
                if not _levels_fit(scope, units, terrain):
                    continue
                key = class_key(codes, units, terrain)
                form = (
                    tuple(sorted((nearest_key(c), i) for c, i in units)),
                    tuple(sorted((nearest_key(c), i) for c, i in terrain)),
                )
                if key not in best or form < best[key]:
                    best[key] = form
    return sorted(best.values())


def _kinds_fit(scope: Scope, units) -> bool:
    """Whether the units (relative cube, spec index) hold what the scope's
    kinds say: how many of each, and who stands with or near whom (all
    unchanged by a symmetry or a translation, so checked before either)."""
    if not scope.kinds:
        return True
    kind = [scope.specs[i].kind for _, i in units]
    for k in scope.kinds:
        if k.count is not None and not k.count[0] <= kind.count(k.name) <= k.count[1]:
            return False
        for j, (c, i) in enumerate(units):
            if kind[j] != k.name:
                continue
            level = scope.specs[i].level
            if k.stacked_with is not None and not any(
                j2 != j and c2 == c and scope.specs[i2].level == level and k.stacked_with in _kinds_at(scope.specs[i2])
                for j2, (c2, i2) in enumerate(units)
            ):
                return False
            if k.within is not None and not any(
                j2 != j and _distance(c, c2) <= k.within[1] and k.within[0] in _kinds_at(scope.specs[i2])
                for j2, (c2, i2) in enumerate(units)
            ):
                return False
    return True


def _kinds_at(spec) -> set:
    """The kinds of a unit and of the units it carries."""
    return {spec.kind} | {c.kind for _, c in spec.carried}


def _distance(a, b) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def _levels_fit(scope: Scope, units, terrain) -> bool:
    """A unit placed on a building level stands in a hex that has it; an
    Entrenched one in a hex with an entrenchment (B27.1)."""
    levels = {c: scope.palette[i].levels for c, i in terrain}
    dug = {c for c, i in terrain if any(feature_type(f).entrenchment for f in scope.palette[i].features)}
    return all(
        levels.get(c, 0) >= scope.specs[i].level and (c in dug or not scope.specs[i].entrenched) for c, i in units
    )


def candidates(scope: Scope) -> Iterator[Candidate]:
    """Every position of the scope, smallest first (see the module's doc).
    A header choice naming kinds (close_combat, fire_effects, mopping_up)
    that a placement gives nothing to is not a position of its own: it is
    the same as not choosing it."""
    index = 0
    max_terrain = scope.non_open if scope.palette else 0
    for n in range(scope.min_units, scope.max_units + 1):
        for t in range(0, max_terrain + 1):
            for c in with_headers(scope, placements(scope, n, t), index):
                yield c
                index = c.index + 1


def with_headers(scope: Scope, group: list, start: int) -> Iterator[Candidate]:
    """The positions of one size: each header choice (attacker, No Quarter,
    phase, the others) with each canonical placement of `group`, numbered
    from `start`."""
    _, from_rel = relative(scope)
    index = start
    for attacker, nq, phase, options in itertools.product(
        scope.attackers, scope.no_quarter, scope.phases, scope.options
    ):
        for units, terrain in group:
            c = Candidate(
                index,
                tuple((from_rel[c], i) for (_d, c), i in units),
                tuple((from_rel[c], i) for (_d, c), i in terrain),
                attacker,
                nq,
                phase,
                options,
            )
            if options and _header(scope, c) is None:
                continue
            yield c
            index += 1


def count(scope: Scope) -> int:
    if any(scope.options):
        return sum(1 for _ in candidates(scope))
    rest = len(scope.attackers) * len(scope.no_quarter) * len(scope.phases)
    max_terrain = scope.non_open if scope.palette else 0
    return rest * sum(
        len(placements(scope, n, t))
        for n in range(scope.min_units, scope.max_units + 1)
        for t in range(0, max_terrain + 1)
    )


def _units(scope: Scope, c: Candidate) -> list[tuple[dict, str]]:
    """The position's units, each with its kind's name."""
    return [x for k, (h, i) in enumerate(c.units) for x in scope.specs[i].with_kinds(f"U{k + 1}", h)]


def unit_count(scope: Scope, c: Candidate) -> int:
    """How many units the position holds (a Guard's prisoners, a vehicle's
    Passengers and Riders counted)."""
    return len(_units(scope, c))


def _header(scope: Scope, c: Candidate) -> dict | None:
    """The candidate's header choices as position keys (kinds turned into
    the ids of the units of those kinds); None when one of them names
    nothing here (it would repeat the position without it)."""
    units = _units(scope, c)
    out: dict = {}
    for key, text in c.options:
        value = json.loads(text)
        if key in ("elr", "massacred"):
            out[key] = value
        elif key == "mopping_up":
            # the buildings holding a unit, Mopped Up (A12.153)
            hexes = sorted(
                {
                    h
                    for h, i in c.terrain
                    if scope.palette[i].terrain in BUILDINGS and any(u["at"].split("@")[0] == h for u, _ in units)
                },
                key=hexgrid.hex_coords,
            )
            if not hexes:
                return None
            out[key] = hexes
        elif key == "close_combat":
            attacks = _close_combat(value, units, c.attacker)
            if not attacks:
                return None
            out[key] = attacks
        else:
            fx = _fire_effects(value, units, c.attacker)
            if fx is None:
                return None
            out[key] = fx
    return out


def _ids(units, names) -> list[str]:
    return [u["id"] for u, kind in units if kind in names]


def _close_combat(value: dict, units, attacker: str) -> list[dict]:
    """One CC attack in each Location holding both an attacker and a
    defender: the units of the kinds named, else the ATTACKER's units
    against the others (prisoners neither)."""
    free = [(u, k) for u, k in units if "guard" not in u]

    def role(names, mine):
        return (
            {u["id"] for u, k in units if k in names}
            if names is not None
            else {u["id"] for u, _ in free if (u["side"] == attacker) == mine}
        )

    att, dfn = role(value.get("attackers"), True), role(value.get("defenders"), False)
    out = []
    for at in sorted({u["at"] for u, _ in units}):
        here = [u["id"] for u, _ in units if u["at"] == at]
        a, d = [x for x in here if x in att], [x for x in here if x in dfn and x not in att]
        if a and d:
            out.append(
                {
                    "attackers": a,
                    "defenders": d,
                    **{k: "yes" for k in ("capture", "hand_to_hand", "ambush") if value.get(k)},
                }
            )
    return out


def _fire_effects(value: dict, units, attacker: str) -> dict | None:
    """What an attack has just done, to the units of the kinds named (None
    when there is none of a kind named)."""
    out = {"by": value.get("by", attacker)}
    for key in ("eliminated", "failed_mc"):
        if key in value:
            out[key] = _ids(units, value[key])
            if not out[key]:
                return None
    if "random_selection" in value:
        r = value["random_selection"]
        at = [u["at"].split("@")[0] for u, k in units if k == r["at"]]
        if not at:
            return None
        out["random_selection"] = {"at": at[0], "result": r["result"]}
    return out


def to_yaml(scope: Scope, c: Candidate, header: str = "") -> str:
    """The candidate as a position file the loader reads (`asl-kb diff` replays it)."""
    board = {
        "default_terrain": scope.default_terrain,
        "area": list(scope.area()),
        "terrain": {h: scope.palette[i].as_yaml() for h, i in c.terrain},
    }
    levels = {h: scope.palette[i].levels for h, i in c.terrain if scope.palette[i].levels}
    if levels:
        board["levels"] = levels
    if scope.hexsides:
        board["hexsides"] = dict(scope.hexsides)
    doc = {
        "name": f"{scope.name} #{c.index + 1}",
        "rules": "current",
        "attacker": c.attacker,
        "no_quarter": list(c.no_quarter),
        "phase": c.phase,
        **(_header(scope, c) or {}),
        "map": board,
        "units": [u for u, _ in _units(scope, c)],
    }
    body = yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=200)
    return "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines()) + body


def brief(scope: Scope, c: Candidate) -> str:
    """The candidate in one line, for a report (the YAML is in --format
    json and in the witness files)."""
    units = []
    for u, _ in _units(scope, c):
        words = [u["id"], u.get("side", ""), u["type"], u.get("counter", "")] + list(u.get("status") or ())
        words += [f"{k} {json.dumps(u[k]) if isinstance(u[k], (list, dict)) else u[k]}" for k in PASSED if k in u]
        units.append(
            " ".join(w for w in words if w)
            + f" at {u['at']}"
            + "".join(f" {_CARRIED_WORDS[k]} {u[k]}" for k in _CARRIED_WORDS if u.get(k))
        )
    terrain = ", ".join(f"{scope.palette[i]} {h}" for h, i in c.terrain)
    nq = f"; No Quarter: {', '.join(c.no_quarter)}" if c.no_quarter else ""
    head = "".join(f"; {k} {json.dumps(v)}" for k, v in (_header(scope, c) or {}).items())
    return (
        f"{c.attacker} attacking, {c.phase} phase{nq}{head}; "
        + "; ".join(units)
        + (f"; {terrain}" if terrain else "")
        + f" (else {scope.default_terrain})"
    )


_CARRIED_WORDS = {"guard": "guarded by", "passenger_of": "aboard", "rider_of": "riding on"}
