"""Turn a Position into ASP facts, grounded locally: only the Locations a
broken unit could reach in one RtPh, and LOS only from those Locations to the
units of the other side (the design principle "ground locally").
"""

from __future__ import annotations

import collections

from asl_kb import budget, process
from asl_kb.board import geometry
from asl_kb.board import terrain
from asl_kb.board.los import entry_sides
from asl_kb.board.los import of_position as los_of_position
from asl_kb.position import counters
from asl_kb.record import replace


def q(text: str) -> str:
    """An ASP string term for text, written exactly as the user wrote it."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def loc(h: str, level: int) -> str:
    return f"loc({q(h)},{level})"


def switch_facts(position) -> list[str]:
    """The rule version and the position's switches (rules/core/versions.lp reads
    them): shared by every program."""
    out = [f"version({position.rules})."]
    out += [f"erratum_switch({q(rule)},{'on' if on else 'off'})." for rule, on in position.errata]
    out += [f"reading_switch({name},{'on' if on else 'off'})." for name, on in position.readings]
    return out


class FactBuilder:
    def __init__(self, position, voluntary_break: bool = False, tagged: bool = False):
        self.p = position
        self.area = position.map_area()
        grid = self.grid = position.grid
        self.lines: list[str] = []
        #: with `tagged`, what each line is about (asl_kb/asp/groups.py reads
        #: them to give each group of units only its facts): None, the whole
        #: position; ("u", U) a unit; ("home", U) a unit only where it is
        #: figured; ("h", H) a hex; ("ll", L1, L2) two Locations; ("uh", U, H)
        #: a unit and a hex; ("lu", L, U) a Location and a unit
        self.tags: list | None = [] if tagged else None
        #: each unit's Locations in reach (board())
        self.reach: dict[str, list] = {}
        #: the building of each building hex met (board())
        self.blds: dict[str, str] = {}
        self.routing = [u for u in position.units if "broken" in u.status]
        # units asked about A10.41: unbroken Personnel within 16 hexes of a unit
        # of another side (the rules decide whether they may break)
        self.asked = [
            u
            for u in position.units
            if voluntary_break
            and "broken" not in u.status
            and u.type not in ("vehicle", "gun")
            and not u.unarmed
            and any(e.side != u.side and grid.distance(e.hex, u.hex) <= 16 for e in position.units)
        ]
        self.routing += self.asked
        #: with `home` (scoped()): the units of one group (asl_kb/asp/groups.py),
        #: and the Locations of their reach: board() figures the geometry
        #: (moves, terrain, LOS) of those alone
        self.home: set[str] | None = None
        self.scope: set | None = None

    def scoped(self, home) -> FactBuilder:
        """A builder of the lines of the group whose units are `home`: the
        whole position's reach (figure_reach()), and the moves, terrain and
        LOS of the group's Locations in reach only -- every line the whole
        position's builder writes that the group's facts may keep, in the
        same order (groups.py keeps them as from the whole), at a share of
        its cost: a worker process builds its group's own
        (asl_kb/asp/workers.py)."""
        fb = FactBuilder.__new__(FactBuilder)
        fb.__dict__.update(self.__dict__)
        fb.lines, fb.tags = [], ([] if self.tags is not None else None)
        fb.home = set(home)
        fb.scope = {l for uid in fb.home for l in self.reach.get(uid, ())}
        return fb

    def add(self, fact: str, tag=None) -> None:
        self.lines.append(fact + ".")
        if self.tags is not None:
            self.tags.append(tag)

    def each(self, template: str, unit_ids) -> None:
        """One fact per unit id: template with {} for the quoted id."""
        for x in unit_ids:
            self.add(template.format(q(x)))

    # -- the position's header -------------------------------------------
    def header(self):
        p = self.p
        for line in switch_facts(p):
            self.add(line[:-1])
        self.add(f"attacker({p.attacker})")
        for side in p.no_quarter:
            self.add(f"no_quarter({side})")
        for h in p.mopping_up:
            self.add(f"mopping_up({q(h)})")
        self.add(f"phase({p.phase})")
        for side, n in p.elr:
            self.add(f"elr({side},{n})")
        for side in p.massacred:
            self.add(f"massacred({side})")
        for i, cc in enumerate(p.close_combat):
            self.add(f"cc({i})")
            self.each(f"cc_attacker({i},{{}})", cc.attackers)
            self.each(f"cc_defender({i},{{}})", cc.defenders)
            for flag, name in ((cc.capture, "cc_capture"), (cc.hand_to_hand, "cc_hth"), (cc.ambush, "cc_ambush")):
                if flag:
                    self.add(f"{name}({i})")
        fx = p.fire_effects
        if fx is not None:
            self.add(f"fx_by({fx.by})")
            self.each("fx_eliminated({})", fx.eliminated)
            self.each("fx_failed_mc({})", fx.failed_mc)
            if fx.random_selection is not None:
                self.add(f"fx_random({q(fx.random_selection[0])},{fx.random_selection[1]})")

    # -- units -------------------------------------------------------------
    def units(self):
        for u in self.p.units:
            U = q(u.id)
            tag = ("u", u.id)
            self._unit_where(u, U, tag)
            self._unit_fire(u, U, tag)
            self._unit_morale(u, U, tag)

    def _unit_where(self, u, U: str, tag: tuple):
        """The unit, its side, type, Location, status and the units it is
        with (guarding, a passenger, a rider)."""
        self.add(f"unit({U})", tag)
        self.add(f"side({U},{u.side})", tag)
        self.add(f"nationality({U},{u.nationality})", tag)
        self.add(f"unit_type({U},{u.type})", tag)
        self.add(f"unit_at({U},{loc(u.hex, u.level)})", tag)
        for st in u.status:
            self.add(f"status({U},{st})", tag)
        if u.unarmed:
            self.add(f"status({U},unarmed)", tag)
        if u.guard is not None:
            self.add(f"guard_of({U},{q(u.guard)})", tag)
        if u.passenger_of is not None:
            self.add(f"passenger_of({U},{q(u.passenger_of)})", tag)
        if u.rider_of is not None:
            self.add(f"rider_of({U},{q(u.rider_of)})", tag)
        if u.size is not None:
            self.add(f"stated_size({U},{u.size})", tag)
        if u.entrenched:
            self.add(f"entrenched({U})", tag)

    def _unit_fire(self, u, U: str, tag: tuple):
        """Its firepower: the counter's, its SW and its armament."""
        if u.fp is not None and u.normal_range is not None:
            self.add(f"counter_fire({U},{u.fp},{u.normal_range})", tag)
        for w in u.sw:
            self.add(f"weapon({U},sw({w.kind}),{w.fp},{w.normal_range})", tag)
        for w in u.armament:
            self.add(f"weapon({U},arm({w.kind}),{w.fp},{w.normal_range})", tag)

    def _unit_morale(self, u, U: str, tag: tuple):
        """Its class, Heat of Battle DR, Morale and leadership."""
        if u.unit_class is not None:
            self.add(f"uclass({U},{u.unit_class})", tag)
        if u.heat_of_battle is not None:
            # only where the unit is figured (groups.py): no other unit reads it
            self.add(f"hob_dr({U},{u.heat_of_battle})", ("home", u.id))
        if u.morale is not None:
            # the counter's printed Morale Level, or the one `morale:` gives
            # (the unit's as it stands): which a rule uses is rules/core/A10_4_morale.lp
            self.add(f"{'given_morale' if u.morale_given else 'counter_morale'}({U},{u.morale})", tag)
        broken = counters.broken_side_morale(u.nationality, u.type, u.counter)
        if broken is not None:
            self.add(f"broken_side_morale({U},{broken})", tag)
        if u.leadership is not None:
            self.add(f"leadership({U},{u.leadership})", tag)

    def occupied(self):
        """The terrain and features of the hexes units occupy (what the
        prisoners program and the position checks read of the map)."""
        for h in sorted({u.hex for u in self.p.units}, key=self.p.grid.order):
            t = self.p.terrain_of(h)
            self.add(f"terrain({q(h)},{terrain.terrain_type(t.terrain).name})")
            for f in t.features:
                self.add(f"feature({q(h)},{f})")
                if terrain.feature_type(f).entrenchment:
                    self.add(f"entrenchment({q(h)},{f})")

    def arcs(self, hexes):
        """Covered Arcs as geometry: each arc a unit has (a Gun's CA, a
        vehicle's VCA and TCA) and the hexes in reach inside it. Which weapon
        an arc limits is a rule (rules/rout/A10_53_interdiction.lp)."""
        for u in self.p.units:
            for name, facing in (("ca", u.ca), ("vca", u.vca), ("tca", u.tca)):
                if facing is None:
                    continue
                self.add(f"facing({q(u.id)},{name})", ("u", u.id))
                for h in hexes:
                    if geometry.in_arc(u.hex, facing, h, None if self.p.real is None else self.grid):
                        self.add(f"in_arc({q(u.id)},{name},{q(h)})", ("uh", u.id, h))

    # -- board -------------------------------------------------------------
    def figure_reach(self) -> dict[str, list]:
        """Each figured unit's Locations in reach (self.reach), once."""
        p = self.p
        reach = self.reach
        if reach:
            return reach
        for u in self.routing:
            budget.check("figuring the facts (each unit's reach)")
            reach[u.id] = geometry.rout_reach(p, self.area, u)
        # a unit with a Heat of Battle DR (A15.5) needs its own Location: who
        # is ADJACENT and Known to it there
        for u in p.units:
            if u.heat_of_battle is not None and u.id not in reach:
                reach[u.id] = [(u.hex, u.level)]
        return reach

    def board(self):
        p = self.p
        reach = self.figure_reach()
        scope = self.scope
        locs = sorted(
            {l for ls in reach.values() for l in ls} if scope is None else scope,
            key=lambda l: (self.grid.order(l[0]), l[1]),
        )
        # each Location's term written once (a spread of 16 boards writes
        # 140,000 of them for 5,000 Locations)
        term = {l: loc(*l) for l in locs}
        unit_hexes = {u.hex for u in p.units}
        every_hex = {h for ls in reach.values() for h, _ in ls}
        hexes = sorted(every_hex, key=self.grid.order)
        if scope is not None:
            # (scoped: the hexes a group's facts may keep, groups.py _Index)
            near = {h for h, _ in scope} | unit_hexes | set(p.mopping_up)
            hexes = [h for h in hexes if h in near]
        self._areas(reach, term)
        self._moves(locs, term)
        self._hexes(hexes, unit_hexes, every_hex)
        self.arcs(hexes)
        self.sight(reach)

    def _areas(self, reach: dict, term: dict):
        """Each figured unit's Locations in reach, and the units asked about
        A10.41."""
        home = self.home
        for uid in reach:
            if home is not None and uid not in home:
                continue
            U = q(uid)
            for l in reach[uid]:
                self.add(f"area({U},{term[l]})", ("home", uid))
        for u in self.asked:
            self.add(f"vb_scope({q(u.id)})", ("home", u.id))

    def _moves(self, locs: list, term: dict):
        """Between each two ADJACENT Locations in reach: the cost of the
        move, or that they are ADJACENT (no move)."""
        moves = geometry.Moves(self.p, self.area)
        for i, l in enumerate(locs):
            if not i % 512:
                budget.check("figuring the facts (moves)")
            L = term[l]
            for other, cost in moves(l):
                O = term.get(other)
                if O is None:
                    continue
                # a cost stands for ADJACENT too (rules/core/base.lp): a
                # spread of 16 boards has 30,000 such pairs
                if cost is not None:
                    self.add(f"cost({L},{O},{cost})", ("ll", l, other))
                else:
                    self.add(f"adjacent({L},{O})", ("ll", l, other))

    def _hexes(self, hexes: list, unit_hexes: set, every_hex: set):
        """The hexes' places (cube coordinates), buildings and terrain."""
        p = self.p
        for h in sorted(set(hexes) | unit_hexes, key=self.grid.order):
            x, y, z = geometry.cube(h, None if p.real is None else self.grid)
            self.add(f"cube({q(h)},{x},{y},{z})", ("h", h))

        # (a building is the connected building hexes among all of these)
        blds = self.blds = geometry.buildings(p, every_hex | unit_hexes | set(p.mopping_up))
        for h in sorted((unit_hexes | set(p.mopping_up)) - every_hex, key=self.grid.order):
            if h in blds:
                self.add(f"building({q(h)},{q(blds[h])})", ("h", h))
        for h in hexes:
            self._hex_terrain(h, blds)

    def _hex_terrain(self, h: str, blds: dict):
        t = self.p.terrain_of(h)
        tt = terrain.terrain_type(t.terrain)
        H = q(h)
        tag = ("h", h)
        self.add(f"terrain({H},{tt.name})", tag)
        cover = tt.rout_cover
        if cover:
            self.add(f"cover_terrain({H},{cover})", tag)
        if h in blds:
            self.add(f"building({H},{q(blds[h])})", tag)
        if tt.tem:
            self.add(f"tem({H},{tt.tem})", tag)
        if tt.og_possible:
            self.add(f"og_terrain({H})", tag)
        hind = sum(terrain.feature_type(f).hindrance for f in t.features)
        if hind:
            self.add(f"in_hex_hindrance({H},{hind})", tag)
        for f in t.features:
            ft = terrain.feature_type(f)
            self.add(f"feature({H},{f})", tag)
            if ft.fortification:
                self.add(f"fortification({H},{f},{geometry.half_mf(ft.extra_mf)})", tag)
            if ft.entrenchment:
                self.add(f"entrenchment({H},{f})", tag)

    def sight(self, reach):
        """LOS from every Location in reach of a unit to every unit of
        another side than it (who may be Known to it there, or Interdict)."""
        p = self.p
        side_of = {u.id: u.side for u in p.units}
        sides_at: dict = {}
        for uid, ls in reach.items():
            for l in ls:
                sides_at.setdefault(l, set()).add(side_of[uid])
        vehicles = [u.hex for u in p.units if u.type == "vehicle"]
        lm = los_of_position(p, vehicles)
        sides = set().union(*sides_at.values()) if sides_at else set()
        watchers = [u for u in p.units if any(u.side != s for s in sides)]
        scope = self.scope
        seen = _seen(lm, {l: frozenset(at) for l, at in sides_at.items() if scope is None or l in scope}, watchers)
        locs = sorted(seen, key=lambda l: (self.grid.order(l[0]), l[1]))
        # what each watcher's spot sees, in the Locations' order (asking every
        # spot of every Location was 400,000 lookups on 16 spread boards)
        from_spot: dict = {}
        behind: dict = {}
        for l in locs:
            L = loc(*l)
            for t, r in seen[l].items():
                if r[0]:
                    from_spot.setdefault(t, []).append((l, L, r[1]))
                    if l[1] == 0 and p.has_hexsides():
                        # the hexside terrain of l the LOS from t enters by
                        sides = entry_sides(t[0], l[0]) if p.real is None else lm.entry_sides(t[0], l[0])
                        for kind in sorted({p.hexside(x, y) for x, y in sides} - {None}):
                            behind.setdefault(t, []).append((l, L, kind))
        for u in watchers:
            U = q(u.id)
            for l, L, hindrance in from_spot.get((u.hex, u.level), ()):
                self.add(f"los({L},{U},{hindrance})", ("lu", l, u.id))
            for l, L, kind in behind.get((u.hex, u.level), ()):
                self.add(f"hexside_cover({L},{U},{kind})", ("lu", l, u.id))
        kinds = set(p.hexsides.values()) | (set(terrain.HEXSIDES) if p.real is not None else set())
        for kind in sorted(kinds):
            self.add(f"hexside_tem({kind},{terrain.hexside_type(kind).tem})")

    def build(self) -> str:
        self.header()
        key = self._body_key()
        kept = _recall(key) if key is not None else None
        if kept is None:
            start = len(self.lines)
            self.units()
            self.board()
            if key is not None:
                _remember(
                    key,
                    (self.lines[start:], None if self.tags is None else self.tags[start:], dict(self.reach), self.blds),
                )
        else:
            lines, tags, reach, self.blds = kept
            self.lines += lines
            if self.tags is not None:
                self.tags += tags
            if not self.reach:
                self.reach.update(reach)
        return "\n".join(self.lines) + "\n"

    def _body_key(self) -> tuple | None:
        """With remember_facts(), what the lines after the header depend on:
        the position but for the fields only the header writes (the rule
        version and switches a committee trial flips, No Quarter a run
        without it drops), the units asked about A10.41, whether tagged."""
        if process.STATE.remembered is None or self.home is not None:
            return None
        body = replace(self.p, rules="", errata=(), readings=(), no_quarter=())
        return ("body", repr(body), tuple(u.id for u in self.asked), self.tags is not None)


def _seen(lm, sides_at: dict, watchers, from_watchers: bool | None = None) -> dict:
    """{Location: {watcher's (hex, level): (has LOS, hindrance)}} for every
    Location in reach and every watcher's spot holding a unit of another
    side than one reaching it (absent: no LOS). The LOS is the watcher's
    (traced from its spot: VASL's is not always symmetric, asl_kb/vasl/sight.py);
    the viewshed scans go out from whichever end has fewer places: from
    each watcher's spot to the Locations (seen_from), or from each Location
    to the watchers (seeing: a spread of many units, thousands of Locations
    and a few hundred spots). `from_watchers` forces one way (tests)."""
    sides: dict = {}
    for u in watchers:
        sides.setdefault((u.hex, u.level), set()).add(u.side)
    spots = {spot: frozenset(mine) for spot, mine in sides.items()}
    seen: dict = {l: {} for l in sides_at}
    # (a map that traces many lines best together -- VASL boards,
    # asl_kb/vasl/sight.py -- is told them all first: prefetch_seen)
    ahead = getattr(lm, "prefetch_seen", None)
    if from_watchers if from_watchers is not None else len(spots) < len(sides_at):
        jobs = _watching(lm, spots, sides_at)
        if ahead is not None:
            ahead(jobs)
        for spot, w in jobs:
            for l, r in lm.seen_from(spot[0], spot[1], w).items():
                seen[l][spot] = r
        return seen
    jobs = _watching(lm, sides_at, spots)
    if ahead is not None:
        ahead(jobs, seeing=True)
    for l, w in jobs:
        seen[l] = lm.seeing(l[0], l[1], w)
    return seen


def _watching(lm, ends: dict, others: dict) -> list:
    """(end, the places of `others` it looks at, filed by lm.watch) for each
    of `ends` ({place: the sides there}): those with a unit of another
    side than one at the end (one watch for each set of sides)."""
    watched: dict = {}
    jobs = []
    for end, mine in ends.items():
        budget.check("figuring the facts (line of sight)")
        w = watched.get(mine)
        if w is None:
            w = watched[mine] = lm.watch(o for o, theirs in others.items() if _looks(mine, theirs))
        jobs.append((end, w))
    return jobs


def _looks(mine: frozenset, theirs: frozenset) -> bool:
    """A unit of one side and one of another, one at each end."""
    return any(a != b for a in mine for b in theirs)


def prisoner_facts(position) -> str:
    """The facts the prisoners program (rules/prisoners.lp) reads: the header,
    the units, and the terrain of the hexes units occupy."""
    fb = FactBuilder(position)
    fb.header()
    fb.units()
    fb.occupied()
    return "\n".join(fb.lines) + "\n"


def remember_facts(at_most: int = 512) -> None:
    """Build the facts of each position once in this process from now on
    (the `at_most` positions used last are kept), and what follows their
    header (FactBuilder._body_key): `make mutate`'s workers and the
    committee's trials run the same positions under many rule sets, and a
    position's geometry (reach, LOS) does not depend on the rules. (Kept in
    the process's state: asl_kb/process.py.)"""
    state = process.STATE
    state.remembered, state.remember_at_most = collections.OrderedDict(), at_most


def position_facts(position, voluntary_break: bool = False) -> str:
    """The ASP facts of a position (with voluntary_break, also of the unbroken
    units that might break voluntarily, A10.41)."""
    if process.STATE.remembered is None:
        return FactBuilder(position, voluntary_break).build()
    key = (repr(position), voluntary_break)  # the whole position, every field
    text = _recall(key)
    if text is None:
        text = _remember(key, FactBuilder(position, voluntary_break).build())
    return text


def _recall(key):
    """What remember_facts() keeps under `key` (None: nothing), now the
    last used."""
    kept = process.STATE.remembered
    assert kept is not None
    got = kept.get(key)
    if got is not None:
        kept.move_to_end(key)
    return got


def _remember(key, value):
    """Keep `value` under `key` (remember_facts()), the oldest let go past
    the limit."""
    kept = process.STATE.remembered
    assert kept is not None
    kept[key] = value
    if len(kept) > process.STATE.remember_at_most:
        kept.popitem(last=False)
    return value
