"""A scope: a bounded family of positions to search, as YAML data (the
format is documented in docs/committee.md). Shipped scopes live in
asl_kb/committee/scopes/ (tiny, small, medium, disrupted, guards,
prisoners); `load_scope(NAME|FILE)` reads one, checked key by key: a bad one
is a `FILE:LINE: KEY: message` PositionError, as a bad position is.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import yaml

from asl_kb.board import hexgrid
from asl_kb.errors import PositionError
from asl_kb.position.loader import (PHASES, STATUSES, TERRAINS, UNIT_TYPES, _Map, _parse, _Schema,
                                    _Seq, load_position_text)

SCOPES_DIR = Path(__file__).resolve().parent / "scopes"
TOP = ("name", "notes", "map", "terrain", "units", "attacker", "no_quarter", "phase")
MAX_RADIUS = 4
MAX_UNITS = 4


@dataclasses.dataclass(frozen=True)
class UnitSpec:
    """What one unit of a scope may be (its hex aside); `prisoners`: the
    units it guards, placed in its Location (A20.5: a captured unit "is
    placed above the unit that captured it")."""
    side: str
    type: str
    counter: str
    status: tuple[str, ...]
    prisoners: tuple["UnitSpec", ...] = ()

    def as_yaml(self, uid: str, at: str) -> dict:
        out: dict = {"id": uid, "side": self.side, "type": self.type}
        if self.counter:
            out["counter"] = self.counter
        out["at"] = at
        if self.status:
            out["status"] = list(self.status)
        return out

    def as_units(self, uid: str, at: str) -> list[dict]:
        """The unit and its prisoners (ids uidP1, uidP2, ...) as position units."""
        return [self.as_yaml(uid, at)] + [{**p.as_yaml(f"{uid}P{j + 1}", at), "guard": uid}
                                          for j, p in enumerate(self.prisoners)]


@dataclasses.dataclass(frozen=True)
class Scope:
    name: str
    file: str
    centre: str
    radius: int
    margin: int
    default_terrain: str
    palette: tuple[str, ...]
    non_open: int
    min_units: int
    max_units: int
    specs: tuple[UnitSpec, ...]
    require_broken: bool
    attackers: tuple[str, ...]
    no_quarter: tuple[tuple[str, ...], ...]
    phases: tuple[str, ...]

    def patch(self) -> tuple[str, ...]:
        """The hexes units and non-open terrain may stand in."""
        return tuple(sorted(hexgrid.within(self.centre, self.radius), key=hexgrid.hex_coords))

    def area(self) -> tuple[str, str]:
        """The map: the patch's rectangle with `margin` hexes of default
        terrain around it (a rout of six MF never reaches its edge)."""
        return _area(self.centre, self.radius, self.margin)


def _area(centre: str, radius: int, margin: int) -> tuple[str, str]:
    patch = hexgrid.within(centre, radius)
    cols = [hexgrid.hex_coords(h)[0] for h in patch]
    rows = [hexgrid.hex_coords(h)[1] for h in patch]
    lo = hexgrid.hex_id(max(min(cols) - margin, 0), max(min(rows) - margin, 1))
    hi = hexgrid.hex_id(max(cols) + margin, max(rows) + margin)
    return lo, hi


def load_scope(name_or_file: str) -> Scope:
    """A shipped scope by name, or a scope YAML file."""
    path = SCOPES_DIR / f"{name_or_file}.yaml"
    if not path.is_file():
        path = Path(name_or_file)
        if not path.is_file():
            shipped = ", ".join(sorted(p.stem for p in SCOPES_DIR.glob("*.yaml")))
            raise PositionError(name_or_file, None, "scope", f"no such scope file or shipped scope ({shipped})")
    text = path.read_text(encoding="utf-8")
    shown = name_or_file if path.parent == SCOPES_DIR and "/" not in name_or_file else str(path)
    return scope_from_text(text, shown)


class _ScopeSchema(_Schema):
    def __init__(self, file: str):
        super().__init__(file, ("current",))

    def hex(self, node, path: str, check_area: bool = False) -> str:
        return super().hex(node, path, check_area=False)

    def pair(self, node, path: str, lo: int, hi: int) -> tuple[int, int]:
        if isinstance(node, _Seq):
            if len(node) != 2:
                self.fail(node, path, "expected [MIN, MAX], e.g. [1, 2]")
            a, b = (self.integer(n, f"{path}[{i}]", lo, hi) for i, n in enumerate(node))
            if a > b:
                self.fail(node, path, f"MIN {a} is above MAX {b}")
            return a, b
        n = self.integer(node, path, lo, hi)
        return n, n

    def names(self, node, path: str, allowed: tuple[str, ...] | None, example: str) -> tuple[str, ...]:
        seq = self.seq(node, path, example)
        if not seq:
            self.fail(node, path, "must not be empty")
        out = [self.choice(n, f"{path}[{i}]", allowed) if allowed else self.ident(n, f"{path}[{i}]")
               for i, n in enumerate(seq)]
        return self.unique(out, seq, path)


def scope_from_text(text: str, file: str) -> Scope:
    s = _ScopeSchema(file)
    root = _parse(text, file)
    if not isinstance(root, _Map):
        raise PositionError(file, getattr(root, "line", None), None, "a scope is a mapping; see docs/committee.md")
    top = s.mapping(root, "", TOP, ("name", "map", "units", "attacker"))
    m = s.mapping(top["map"], "map", ("centre", "radius", "margin", "default_terrain"), ("centre", "radius"))
    centre = s.hex(m["centre"], "map.centre")
    radius = s.integer(m["radius"], "map.radius", 0, MAX_RADIUS)
    margin = s.optional(m, "margin", 7, lambda n, p: s.integer(n, p, 0, 12), "map")
    default = s.optional(m, "default_terrain", "open", lambda n, p: s.choice(n, p, TERRAINS), "map")
    if centre and hexgrid.hex_coords(centre)[1] - radius - margin < 1 or hexgrid.hex_coords(centre)[0] - radius - margin < 0:
        s.fail(m["centre"], "map.centre", f"too near the map's corner A0 for radius {radius} and margin {margin}")
    palette, non_open = (), 0
    if top.get("terrain") is not None:
        t = s.mapping(top["terrain"], "terrain", ("palette", "non_open"), ("palette",))
        palette = s.names(t["palette"], "terrain.palette", TERRAINS, "[woods, building]")
        non_open = s.optional(t, "non_open", 1, lambda n, p: s.integer(n, p, 0, 3), "terrain")
    u = s.mapping(top["units"], "units", ("count", "kinds", "sides", "statuses", "require_broken"),
                  ("count", "kinds"))
    lo, hi = s.pair(u["count"], "units.count", 1, MAX_UNITS)
    kinds = []
    seq = s.seq(u["kinds"], "units.kinds", "[{type: squad, counter: 4-4-7}]")
    if not seq:
        s.fail(seq, "units.kinds", "must not be empty")
    for i, k in enumerate(seq):
        path = f"units.kinds[{i}]"
        k = s.mapping(k, path, ("type", "counter", "side", "status", "prisoners"), ("type",))
        kinds.append((k, s.choice(k["type"], f"{path}.type", UNIT_TYPES),
                      s.optional(k, "counter", "", lambda n, p: s.string(n, p), path),
                      s.optional(k, "side", None, lambda n, p: s.ident(n, p), path),
                      s.optional(k, "status", None, lambda n, p: _status(s, n, p), path),
                      s.optional(k, "prisoners", (), lambda n, p: _prisoners(s, n, p), path)))
    sides: tuple[str, ...] = ()
    if u.get("sides") is not None:
        sides = s.names(u["sides"], "units.sides", None, "[russian, german]")
    statuses: list[tuple[str, ...]] = [()]
    if u.get("statuses") is not None:
        sq = s.seq(u["statuses"], "units.statuses", "[[broken], [broken, dm], []]")
        statuses = [_status(s, st, f"units.statuses[{i}]") for i, st in enumerate(sq)]
    require_broken = s.optional(u, "require_broken", True, lambda n, p: s.flag(n, p), "units")
    specs = []
    for k, typ, counter, side, status, prisoners in kinds:
        if side is None and not sides:
            s.fail(k, "units.kinds", "a kind without `side` needs `units.sides`")
        for sd in ((side,) if side else sides):
            for st in ((status,) if status is not None else statuses):
                spec = UnitSpec(sd, typ, counter, st, prisoners)
                _check_spec(spec, k, file, centre, _area(centre, radius, margin))
                if spec not in specs:
                    specs.append(spec)
    attackers = s.names(top["attacker"] if isinstance(top["attacker"], _Seq) else _one(top["attacker"]),
                        "attacker", None, "[german]")
    nq: list[tuple[str, ...]] = [()]
    if top.get("no_quarter") is not None:
        sq = s.seq(top["no_quarter"], "no_quarter", "[[], [german]]")
        nq = [tuple(s.ident(n, f"no_quarter[{i}][{j}]") for j, n in enumerate(s.seq(x, f"no_quarter[{i}]", "[german]")))
              for i, x in enumerate(sq)]
    phases = ("rout",)
    if top.get("phase") is not None:
        phases = s.names(top["phase"] if isinstance(top["phase"], _Seq) else _one(top["phase"]), "phase", PHASES, "[rout]")
    return Scope(name=s.string(top["name"], "name"), file=file, centre=centre, radius=radius, margin=margin,
                 default_terrain=default, palette=palette, non_open=non_open, min_units=lo, max_units=hi,
                 specs=tuple(specs), require_broken=require_broken, attackers=attackers,
                 no_quarter=tuple(nq), phases=phases)


def _status(s: _ScopeSchema, node, path: str) -> tuple[str, ...]:
    seq = s.seq(node, path, "[broken, dm]")
    return tuple(s.choice(n, f"{path}[{j}]", STATUSES) for j, n in enumerate(seq))


def _prisoners(s: _ScopeSchema, node, path: str) -> tuple[UnitSpec, ...]:
    """A kind's prisoners: each {type, counter, side, status}, side required."""
    out = []
    for j, p in enumerate(s.seq(node, path, "[{type: half_squad, counter: 2-4-7, side: russian}]")):
        at = f"{path}[{j}]"
        p = s.mapping(p, at, ("type", "counter", "side", "status"), ("type", "side"))
        out.append(UnitSpec(s.ident(p["side"], f"{at}.side"), s.choice(p["type"], f"{at}.type", UNIT_TYPES),
                            s.optional(p, "counter", "", lambda n, q: s.string(n, q), at),
                            s.optional(p, "status", (), lambda n, q: _status(s, n, q), at)))
    return tuple(out)


def _one(node):
    seq = _Seq([node])
    seq.line = getattr(node, "line", None)
    return seq


def _check_spec(spec: UnitSpec, node, file: str, at: str, area: tuple[str, str]) -> None:
    """A unit spec the position loader accepts (its error, at the scope's line)."""
    text = yaml.safe_dump({"name": "check", "attacker": spec.side, "map": {"area": list(area)},
                           "units": spec.as_units("U1", at)}, sort_keys=False)
    try:
        position = load_position_text(text, "scope")
    except PositionError as e:
        raise PositionError(file, getattr(node, "line", None), e.key and f"units.kinds ({e.key})", e.message) from None
    # a unit the rules refuse as declared (DM without broken, A10.62; a
    # wounded squad, A17.11: rules/core/position_checks.lp) would make every
    # position of the scope one that breaks a rule
    from asl_kb.engines.legality import violations
    broken = violations(position)
    if broken:
        v = broken[0]
        raise PositionError(file, getattr(node, "line", None), v.key and f"units.kinds ({v.key})",
                            f"breaks {v.rule}: {v.says}")
