"""A scope: a bounded family of positions to search, as YAML data (the
format is documented in docs/committee.md). Shipped scopes live in
asl_kb/committee/scopes/; `load_scope(NAME|FILE)` reads one, checked key by
key: a bad one is a `FILE:LINE: KEY: message` PositionError, as a bad
position is. A unit kind's position keys (nationality, class, sw,
heat_of_battle, ...) are handed to the position loader as written, so the
scope can say whatever a position can of a unit; the loader checks them.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from asl_kb.board import hexgrid
from asl_kb.errors import PositionError
from asl_kb.position.loader import (
    BUILDINGS,
    FEATURES,
    PHASES,
    STATUSES,
    TERRAINS,
    UNIT_TYPES,
    Map,
    Schema,
    Seq,
    Str,
    load_position_text,
    parse_tree,
    plain,
    read_input,
)

SCOPES_DIR = Path(__file__).resolve().parent / "scopes"
TOP = (
    "name",
    "notes",
    "map",
    "terrain",
    "units",
    "attacker",
    "no_quarter",
    "phase",
    "elr",
    "massacred",
    "mopping_up",
    "close_combat",
    "fire_effects",
)
MAX_RADIUS = 4
MAX_UNITS = 4
#: a unit kind's keys handed to the position loader as written (docs/position-format.md)
PASSED = (
    "nationality",
    "class",
    "sw",
    "heat_of_battle",
    "fp",
    "range",
    "morale",
    "leadership",
    "armament",
    "vca",
    "tca",
    "ca",
    "entrenched",
    "size",
)
#: the keys of a kind that place other units in its Location, and the
#: position key each of those units gets (A20.5 prisoners, D6.1 Passengers,
#: D6.23 Riders)
CARRIED = {"prisoners": "guard", "passengers": "passenger_of", "riders": "rider_of"}
KIND = (
    ("name", "type", "counter", "side", "status", "level", "count", "stacked_with", "within") + PASSED + tuple(CARRIED)
)


@dataclasses.dataclass(frozen=True)
class UnitSpec:
    """What one unit of a scope may be (its hex aside); `carried`: the units
    placed in its Location with it, each with the key tying it to this unit
    (`guard`: its prisoners, A20.5, a captured unit "is placed above the unit
    that captured it"; `passenger_of`, `rider_of`: D6.1, D6.23); `passed`:
    position keys as written; `level`: the building level it stands on."""

    side: str
    type: str
    counter: str
    status: tuple[str, ...]
    carried: tuple[tuple[str, "UnitSpec"], ...] = ()
    passed: tuple[tuple[str, str], ...] = ()  # (key, its value as JSON)
    level: int = 0
    kind: str = ""

    @property
    def entrenched(self) -> bool:
        """In its hex's entrenchment (the position key `entrenched`, B27): it
        stands only where the palette puts one."""
        v = dict(self.passed).get("entrenched")
        return v is not None and str(json.loads(v)).lower() in ("yes", "on", "true")

    def as_yaml(self, uid: str, at: str) -> dict:
        out: dict = {"id": uid, "side": self.side, "type": self.type}
        if self.counter:
            out["counter"] = self.counter
        out["at"] = f"{at}@{self.level}" if self.level else at
        if self.status:
            out["status"] = list(self.status)
        out.update((k, json.loads(v)) for k, v in self.passed)
        return out

    def as_units(self, uid: str, at: str) -> list[dict]:
        """The unit and the units it carries (ids uidP1, uidP2, ...) as
        position units."""
        return [u for u, _ in self.with_kinds(uid, at)]

    def with_kinds(self, uid: str, at: str) -> list[tuple[dict, str]]:
        """as_units, each unit with the name of its kind ("" unnamed)."""
        me = self.as_yaml(uid, at)
        return [(me, self.kind)] + [
            ({**c.as_yaml(f"{uid}P{j + 1}", at), "at": me["at"], key: uid}, c.kind)
            for j, (key, c) in enumerate(self.carried)
        ]


@dataclasses.dataclass(frozen=True)
class Kind:
    """What a scope says of all the units of one kind: how many
    (`count`), and beside which other kind each must stand."""

    name: str
    count: tuple[int, int] | None = None  # (MIN, MAX) units of this kind
    stacked_with: str | None = None  # in the Location of a unit of that kind
    within: tuple[str, int] | None = None  # within range N of a unit of that kind


@dataclasses.dataclass(frozen=True)
class Terrain:
    """One entry of a scope's terrain palette: a terrain, its features
    (SMOKE, Blaze, FFE, minefields, fortifications...) and upper building
    levels."""

    terrain: str
    features: tuple[str, ...] = ()
    levels: int = 0

    def as_yaml(self):
        return [self.terrain, *self.features] if self.features else self.terrain

    def __str__(self) -> str:
        words = [self.terrain, *self.features] + ([f"{self.levels} level(s)"] if self.levels else [])
        return " ".join(words)


@dataclasses.dataclass(frozen=True)
class Scope:
    name: str
    file: str
    centre: str
    radius: int
    margin: int
    default_terrain: str
    palette: tuple[Terrain, ...]
    non_open: int
    min_units: int
    max_units: int
    specs: tuple[UnitSpec, ...]
    require_broken: bool
    attackers: tuple[str, ...]
    no_quarter: tuple[tuple[str, ...], ...]
    phases: tuple[str, ...]
    kinds: tuple[Kind, ...] = ()
    hexsides: tuple[tuple[str, str], ...] = ()  # fixed (HEX-HEX, kind): no symmetry then
    #: the header's other choices, each a tuple of (key, option as JSON) --
    #: elr, massacred, mopping_up, close_combat, fire_effects (enumerate.py
    #: writes an option naming kinds for the units of those kinds)
    options: tuple[tuple[tuple[str, str], ...], ...] = ((),)

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
    shown = name_or_file if path.parent == SCOPES_DIR and "/" not in name_or_file else str(path)
    return scope_from_text(read_input(str(path)), shown)


class _ScopeSchema(Schema):
    def __init__(self, file: str):
        super().__init__(file, ("current",))

    def hex(self, node, path: str, check_area: bool = False) -> str:
        return super().hex(node, path, check_area=False)

    def pair(self, node, path: str, lo: int, hi: int) -> tuple[int, int]:
        if isinstance(node, Seq):
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
        out = [
            self.choice(n, f"{path}[{i}]", allowed) if allowed else self.ident(n, f"{path}[{i}]")
            for i, n in enumerate(seq)
        ]
        return self.unique(out, seq, path)


def scope_from_text(text: str, file: str, check_kinds: bool = True) -> Scope:
    """(`check_kinds`: each unit kind loaded as a position and checked by
    the rules, as a scope a person wrote is -- off for kinds already checked,
    bounds.py's)"""
    s = _ScopeSchema(file)
    root = parse_tree(text, file)
    if not isinstance(root, Map):
        raise PositionError(file, getattr(root, "line", None), None, "a scope is a mapping; see docs/committee.md")
    top = s.mapping(root, "", TOP, ("name", "map", "units", "attacker"))
    board = _board(s, top["map"])
    palette, non_open = _palette(s, top)
    check = None
    if check_kinds:
        area = _area(board["centre"], board["radius"], board["margin"])
        check = functools.partial(_check_spec, file=file, at=board["centre"], area=area)
    levels = max((t.levels for t in palette), default=0)
    units, named = _units(s, top["units"], levels, check)
    attackers = s.names(
        top["attacker"] if isinstance(top["attacker"], Seq) else _one(top["attacker"]), "attacker", None, "[german]"
    )
    no_quarter = _no_quarter(s, top)
    phases = ("rout",)
    if top.get("phase") is not None:
        phases = s.names(
            top["phase"] if isinstance(top["phase"], Seq) else _one(top["phase"]), "phase", PHASES, "[rout]"
        )
    options = _options(s, top, named)
    return Scope(
        name=s.string(top["name"], "name"),
        file=file,
        **board,
        palette=palette,
        non_open=non_open,
        **units,
        attackers=attackers,
        no_quarter=no_quarter,
        phases=phases,
        options=options,
    )


def _board(s: _ScopeSchema, node) -> dict[str, Any]:
    """The map's part of a Scope: the patch's centre and radius, the margin
    of default terrain around it, its fixed hexsides."""
    m = s.mapping(node, "map", ("centre", "radius", "margin", "default_terrain", "hexsides"), ("centre", "radius"))
    centre = s.hex(m["centre"], "map.centre")
    radius = s.integer(m["radius"], "map.radius", 0, MAX_RADIUS)
    margin = s.optional(m, "margin", 7, lambda n, p: s.integer(n, p, 0, 12), "map")
    default = s.optional(m, "default_terrain", "open", lambda n, p: s.choice(n, p, TERRAINS), "map")
    if (
        centre
        and hexgrid.hex_coords(centre)[1] - radius - margin < 1
        or hexgrid.hex_coords(centre)[0] - radius - margin < 0
    ):
        s.fail(m["centre"], "map.centre", f"too near the map's corner A0 for radius {radius} and margin {margin}")
    hexsides = ()
    if m.get("hexsides") is not None:
        hexsides = _hexsides(s, m["hexsides"], _area(centre, radius, margin))
    return {"centre": centre, "radius": radius, "margin": margin, "default_terrain": default, "hexsides": hexsides}


def _hexsides(s: _ScopeSchema, node, area: tuple[str, str]) -> tuple[tuple[str, str], ...]:
    """map.hexsides, checked as a position's (ADJACENT hexes, known kinds)."""
    hexsides = tuple((str(k), str(v)) for k, v in s.mapping(node, "map.hexsides", tuple(node)).items())
    try:
        load_position_text(
            yaml.safe_dump({"name": "check", "attacker": "x", "map": {"area": list(area), "hexsides": dict(hexsides)}}),
            "scope",
        )
    except PositionError as e:
        s.fail(node, e.key or "map.hexsides", e.message)
    return hexsides


def _palette(s: _ScopeSchema, top) -> tuple[tuple[Terrain, ...], int]:
    """The terrain palette, and how many of the patch's hexes may hold it."""
    if top.get("terrain") is None:
        return (), 0
    t = s.mapping(top["terrain"], "terrain", ("palette", "non_open"), ("palette",))
    palette = tuple(
        _terrain(s, n, f"terrain.palette[{i}]")
        for i, n in enumerate(s.seq(t["palette"], "terrain.palette", "[woods, building]"))
    )
    if not palette:
        s.fail(t["palette"], "terrain.palette", "must not be empty")
    s.unique(list(palette), t["palette"], "terrain.palette")
    return palette, s.optional(t, "non_open", 1, lambda n, p: s.integer(n, p, 0, 3), "terrain")


@dataclasses.dataclass(frozen=True)
class _EveryKind:
    """What the units part says of every kind: one unit of each, the sides
    and statuses a kind takes where it names none, the highest building
    level a kind may stand on, and the check of each unit spec (None: not
    checked)."""

    one_of_each: bool
    sides: tuple[str, ...]
    statuses: list[tuple[str, ...]]
    levels: int
    check: Callable[[UnitSpec, object], None] | None


def _units(s: _ScopeSchema, node, levels: int, check) -> tuple[dict[str, Any], set[str]]:
    """The units' part of a Scope (how many, the specs, the kinds), and the
    names of the kinds (a carried unit's too)."""
    u = s.mapping(node, "units", ("count", "kinds", "sides", "statuses", "require_broken", "one_of_each"), ("kinds",))
    one_of_each = s.optional(u, "one_of_each", False, lambda n, p: s.flag(n, p), "units")
    seq = s.seq(u["kinds"], "units.kinds", "[{type: squad, counter: 4-4-7}]")
    if not seq:
        s.fail(seq, "units.kinds", "must not be empty")
    if u.get("count") is None and not one_of_each:
        s.fail(u, "units.count", "required key 'count' is missing (or say one_of_each: yes)")
    lo, hi = (len(seq), len(seq)) if u.get("count") is None else s.pair(u["count"], "units.count", 1, MAX_UNITS)
    sides: tuple[str, ...] = ()
    if u.get("sides") is not None:
        sides = s.names(u["sides"], "units.sides", None, "[russian, german]")
    statuses: list[tuple[str, ...]] = [()]
    if u.get("statuses") is not None:
        sq = s.seq(u["statuses"], "units.statuses", "[[broken], [broken, dm], []]")
        statuses = [_status(s, st, f"units.statuses[{i}]") for i, st in enumerate(sq)]
    require_broken = s.optional(u, "require_broken", True, lambda n, p: s.flag(n, p), "units")
    every = _EveryKind(one_of_each, sides, statuses, levels, check)
    specs: list[UnitSpec] = []
    kinds: list[Kind] = []
    for i, k in enumerate(seq):
        kind, its_specs = _kind(s, k, i, every)
        kinds.append(kind)
        for spec in its_specs:
            if spec not in specs:
                specs.append(spec)
    names = [k.name for k in kinds]
    s.unique(names, seq, "units.kinds")
    named = set(names) | {c.kind for sp in specs for _, c in sp.carried}
    _check_kinds_named(s, seq, kinds, named)
    fields = {"min_units": lo, "max_units": hi, "specs": tuple(specs), "require_broken": require_broken}
    return {**fields, "kinds": tuple(kinds)}, named


def _kind(s: _ScopeSchema, node, i: int, every: _EveryKind) -> tuple[Kind, list[UnitSpec]]:
    """The units part's kind `i`, and a unit spec for each of its sides and
    statuses (each checked, if `every` says so)."""
    path = f"units.kinds[{i}]"
    k = s.mapping(node, path, KIND, ("type",))
    name = s.optional(k, "name", f"kind{i + 1}", lambda n, p: s.ident(n, p), path)
    count = (1, 1) if every.one_of_each else s.optional(k, "count", None, lambda n, p: s.pair(n, p, 0, MAX_UNITS), path)
    kind = Kind(
        name,
        count,
        s.optional(k, "stacked_with", None, lambda n, p: s.ident(n, p), path),
        s.optional(k, "within", None, lambda n, p: _within(s, n, p), path),
    )
    side = s.optional(k, "side", None, lambda n, p: s.ident(n, p), path)
    status = s.optional(k, "status", None, lambda n, p: _status(s, n, p), path)
    if side is None and not every.sides:
        s.fail(k, "units.kinds", "a kind without `side` needs `units.sides`")
    level = s.optional(k, "level", 0, lambda n, p: s.integer(n, p, 0, every.levels), path)
    sides_statuses = [
        (sd, st)
        for sd in ((side,) if side else every.sides)
        for st in ((status,) if status is not None else every.statuses)
    ]
    fields = _spec_fields(s, k, path, name, level) if sides_statuses else {}
    specs = []
    for sd, st in sides_statuses:
        spec = UnitSpec(side=sd, status=st, **fields)
        if every.check is not None:
            every.check(spec, k)
        specs.append(spec)
    return kind, specs


def _check_kinds_named(s: _ScopeSchema, seq, kinds: list[Kind], named: set[str]) -> None:
    """Each kind's stacked_with and within.of name a kind."""
    names = [k.name for k in kinds]
    for i, k in enumerate(kinds):
        for other, key in ((k.stacked_with, "stacked_with"), (k.within and k.within[0], "within.of")):
            if other is not None and other not in named:
                s.fail(seq[i], f"units.kinds[{i}].{key}", f"no kind named {other!r} (kinds: {', '.join(names)})")


def _no_quarter(s: _ScopeSchema, top) -> tuple[tuple[str, ...], ...]:
    """The sides giving No Quarter, each choice a tuple of sides."""
    if top.get("no_quarter") is None:
        return ((),)
    sq = s.seq(top["no_quarter"], "no_quarter", "[[], [german]]")
    return tuple(
        tuple(s.ident(n, f"no_quarter[{i}][{j}]") for j, n in enumerate(s.seq(x, f"no_quarter[{i}]", "[german]")))
        for i, x in enumerate(sq)
    )


def _spec_fields(s: _ScopeSchema, k, path: str, name: str, level: int) -> dict[str, Any]:
    """A kind's unit spec but for its side and status: its type, counter,
    position keys, and the units it carries."""
    passed = tuple((key, json.dumps(plain(k[key]))) for key in PASSED if k.get(key) is not None)
    carried = tuple(
        (rel, c)
        for key, rel in CARRIED.items()
        if k.get(key) is not None
        for c in _carried(s, k[key], f"{path}.{key}", level)
    )
    return {
        "type": s.choice(k["type"], f"{path}.type", UNIT_TYPES),
        "counter": s.optional(k, "counter", "", lambda n, p: s.string(n, p), path),
        "carried": carried,
        "passed": passed,
        "level": level,
        "kind": name,
    }


def _carried(s: _ScopeSchema, node, path: str, level: int) -> tuple[UnitSpec, ...]:
    """A kind's prisoners, passengers or riders: each {type, counter, side,
    status, name, position keys}, side required; they stand where it does."""
    out = []
    for j, p in enumerate(s.seq(node, path, "[{type: half_squad, counter: 2-4-7, side: russian}]")):
        at = f"{path}[{j}]"
        p = s.mapping(p, at, ("type", "counter", "side", "status", "name") + PASSED, ("type", "side"))
        out.append(
            UnitSpec(
                s.ident(p["side"], f"{at}.side"),
                s.choice(p["type"], f"{at}.type", UNIT_TYPES),
                s.optional(p, "counter", "", lambda n, q: s.string(n, q), at),
                s.optional(p, "status", (), lambda n, q: _status(s, n, q), at),
                (),
                tuple((key, json.dumps(plain(p[key]))) for key in PASSED if p.get(key) is not None),
                level,
                s.optional(p, "name", "", lambda n, q: s.ident(n, q), at),
            )
        )
    return tuple(out)


def _terrain(s: _ScopeSchema, node, path: str) -> Terrain:
    """A palette entry: a terrain name, or {terrain, features, levels}."""
    if not isinstance(node, Map):
        return Terrain(s.choice(node, path, TERRAINS))
    t = s.mapping(node, path, ("terrain", "features", "levels"), ("terrain",))
    terrain = s.choice(t["terrain"], f"{path}.terrain", TERRAINS)
    features = ()
    if t.get("features") is not None:
        features = s.names(t["features"], f"{path}.features", FEATURES, "[foxhole]")
    levels = s.optional(t, "levels", 0, lambda n, p: s.integer(n, p, 0, 3), path)
    if levels and terrain not in BUILDINGS:
        s.fail(t["levels"], f"{path}.levels", f"only building terrain has levels, not {terrain}")
    return Terrain(terrain, features, levels)


def _within(s: _ScopeSchema, node, path: str) -> tuple[str, int]:
    w = s.mapping(node, path, ("of", "range"), ("of", "range"))
    return s.ident(w["of"], f"{path}.of"), s.integer(w["range"], f"{path}.range", 0, 2 * MAX_RADIUS)


#: the header keys whose choices are enumerated, each a list of options
OPTION_KEYS = ("elr", "massacred", "mopping_up", "close_combat", "fire_effects")
_CC = ("attackers", "defenders", "capture", "hand_to_hand", "ambush")
_FX = ("by", "eliminated", "failed_mc", "random_selection")


def _options(s: _ScopeSchema, top, named: set) -> tuple:
    """The product of the header's choices: each option a tuple of (key,
    JSON); `none` (or `[]`, `{}`) for "not given"."""
    import itertools

    per_key = []
    for key in OPTION_KEYS:
        if top.get(key) is None:
            continue
        choices: list[tuple] = []
        for i, n in enumerate(s.seq(top[key], key, "[none, ...]")):
            if isinstance(n, Str) and n == "none":
                choices.append(())
                continue
            value = _option(s, key, n, f"{key}[{i}]", named)
            choices.append(((key, json.dumps(value)),) if value not in ({}, [], False) else ())
        per_key.append(choices)
    return tuple(tuple(x for part in combo for x in part) for combo in itertools.product(*per_key)) or ((),)


def _option(s: _ScopeSchema, key: str, n, at: str, named: set):
    """One choice of a header key (OPTION_KEYS) but `none`, as JSON data."""
    if key == "elr":
        e = s.mapping(n, at, tuple(n) if isinstance(n, Map) else ())
        return {str(k): s.integer(v, f"{at}.{k}", 0, 6) for k, v in e.items()}
    if key == "massacred":
        return [s.ident(x, f"{at}[{j}]") for j, x in enumerate(s.seq(n, at, "[german]"))]
    if key == "mopping_up":
        return s.flag(n, at)
    e = s.mapping(n, at, _CC if key == "close_combat" else _FX)
    return {k: _option_part(s, k, v, f"{at}.{k}", named) for k, v in e.items()}


def _option_part(s: _ScopeSchema, k: str, v, at: str, named: set):
    """A key of a close_combat or fire_effects choice: a flag, the side
    `by`, the kinds it names."""
    if k in ("capture", "hand_to_hand", "ambush"):
        return s.flag(v, at)
    if k == "by":
        return s.ident(v, at)
    if k == "random_selection":
        r = s.mapping(v, at, ("result", "at"), ("result", "at"))
        return {
            "result": s.choice(r["result"], f"{at}.result", ("kia", "k")),
            "at": _kind_name(s, r["at"], f"{at}.at", named),
        }
    return [_kind_name(s, x, f"{at}[{j}]", named) for j, x in enumerate(s.seq(v, at, "[guard]"))]


def _kind_name(s: _ScopeSchema, node, path: str, named: set) -> str:
    name = s.ident(node, path)
    if name not in named:
        s.fail(node, path, f"no kind named {name!r} (kinds: {', '.join(sorted(named))})")
    return name


def _status(s: _ScopeSchema, node, path: str) -> tuple[str, ...]:
    seq = s.seq(node, path, "[broken, dm]")
    return tuple(s.choice(n, f"{path}[{j}]", STATUSES) for j, n in enumerate(seq))


def _one(node):
    seq = Seq([node])
    seq.line = getattr(node, "line", None)
    return seq


def _check_spec(spec: UnitSpec, node, file: str, at: str, area: tuple[str, str]) -> None:
    """A unit spec the position loader accepts (its error, at the scope's line)."""
    board: dict = {"terrain": {at: "building"}, "levels": {at: spec.level}} if spec.level else {}
    if spec.entrenched:
        board = {"terrain": {at: ["open", "foxhole"]}}
    text = yaml.safe_dump(
        {
            "name": "check",
            "attacker": spec.side,
            "map": {"area": list(area), **board},
            "units": spec.as_units("U1", at),
        },
        sort_keys=False,
    )
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
        raise PositionError(
            file, getattr(node, "line", None), v.key and f"units.kinds ({v.key})", f"breaks {v.rule}: {v.says}"
        )
