"""The rout program run on groups of units, each with only the facts it needs.

Each broken unit's rout graph is its own (every state, epoch and leaf names
the unit it belongs to), and the rules look from a unit only at what is near
it: the Locations of its reach (six MF: six hexes at most, A10.5), the units
within seven hexes of where it starts (base.lp relevant/2: ADJACENT to or in
a Location of its reach), the units in LOS of a Location of its reach, the
units in its starting Location and building, and the units tied to those by
the position itself (a Guard and its prisoners, a vehicle and its Passengers
or Riders, a Close Combat, units sharing a hex). docs/design.md ("Grounding
in groups") says which rules couple units and why the whole-phase ones are
not here. So the units figured (those with a reach: broken units, Voluntary
Break candidates, a Heat of Battle DR) can be cut into groups by geometry
alone, and a group's program -- the whole position's facts kept to its
units, their neighbours, their Locations and hexes -- derives for its units
exactly what the whole program derives for them.

Why groups: a run cut by --timeout lists the units of the groups solved
before the cut (a program grounded whole lists none), each group's Control
is released before the next is built (peak memory follows a group, not the
map), and no join of the rules ever pairs units far apart. The groups are
batches of units in map order (row, then column), cut when their Locations
in reach pass GROUP_LOCATIONS: a Control costs a few hundredths of a second
to build and ground whatever its size, so a group is large enough to make
that small beside its grounding.
"""
from __future__ import annotations

from asl_kb.board import hexgrid

#: Locations in reach (area/2 facts) a group takes before a new one begins:
#: about a second and a half of grounding on a spread map
GROUP_LOCATIONS = 15000
#: hexes from where a unit starts to the units its rules may look at
#: without LOS (base.lp relevant/2: a Location of its reach, six hexes out,
#: and the hexes ADJACENT to it)
NEAR = 7


def groups(fb, budget: int | None = None) -> list[tuple[str, list[str]]]:
    """(facts text, the ids of the units figured in it) of each group of a
    tagged FactBuilder (asl_kb/asp/facts.py) that has built its lines."""
    budget = GROUP_LOCATIONS if budget is None else budget
    p = fb.p
    homes = _batches(p, fb.reach, budget)
    if len(homes) == 1:
        return [("\n".join(fb.lines) + "\n", [u for u in homes[0] if u in fb.reach])]
    index = _Index(fb)
    return [(index.text(h), [u for u in h if u in fb.reach]) for h in homes]


def _batches(p, reach: dict, budget: int) -> list[list[str]]:
    """Every unit in one batch (its home): in map order, a new batch at a
    unit figured once the Locations in reach of the one being filled pass
    `budget`, never between two units of one hex. A unit not figured has a
    home too: what the rules derive of it alone (a Disrupted unit's
    surrender, A19.12) is derived there, with the units of its hex."""
    order = sorted(p.units, key=lambda u: _row_first(u.hex))
    out: list[list[str]] = [[]]
    size = 0
    last = None
    for u in order:
        if size >= budget and u.hex != last and u.id in reach:
            out.append([])
            size = 0
        out[-1].append(u.id)
        size += len(reach.get(u.id, ()))
        last = u.hex
    return [b for b in out if b] or [[]]


def _row_first(h: str) -> tuple[int, int]:
    col, row = hexgrid.hex_coords(h)
    return row, col


class _Index:
    """The tagged lines of a FactBuilder, by what they are about."""

    def __init__(self, fb):
        self.fb = fb
        p = fb.p
        self.units = {u.id: u for u in p.units}
        self.at_hex: dict[str, list[str]] = {}
        for u in p.units:
            self.at_hex.setdefault(u.hex, []).append(u.id)
        self.in_building: dict[str, list[str]] = {}
        for u in p.units:
            b = fb.blds.get(u.hex)
            if b is not None:
                self.in_building.setdefault(b, []).append(u.id)
        # the units the position ties together: a Guard and its prisoners,
        # a vehicle and those aboard, the units of one Close Combat
        self.tied: dict[str, set[str]] = {}
        for u in p.units:
            for other in (u.guard, u.passenger_of, u.rider_of):
                if other is not None:
                    self._tie(u.id, other)
        for cc in p.close_combat:
            ids = list(cc.attackers) + list(cc.defenders)
            for a in ids:
                for b in ids:
                    self._tie(a, b)
        self.watchers: dict = {}
        for tag in fb.tags:
            if tag is not None and tag[0] == "lu":
                self.watchers.setdefault(tag[1], set()).add(tag[2])

    def _tie(self, a: str, b: str) -> None:
        self.tied.setdefault(a, set()).add(b)
        self.tied.setdefault(b, set()).add(a)

    def members(self, home: list[str]) -> tuple[set[str], set, set[str]]:
        """The units a group's facts name (its own and their neighbours),
        its Locations in reach, and the hexes whose facts it takes."""
        fb = self.fb
        locs = {l for uid in home for l in fb.reach.get(uid, ())}
        units = set(home)
        for l in locs:
            units |= self.watchers.get(l, set())
        for uid in home:
            if uid not in fb.reach:
                continue
            start = self.units[uid].hex
            for h in hexgrid.within(start, NEAR):
                units.update(self.at_hex.get(h, ()))
            b = fb.blds.get(start)
            if b is not None:
                units.update(self.in_building.get(b, ()))
        # closed under sharing a hex and the ties of the position
        todo = list(units)
        while todo:
            uid = todo.pop()
            u = self.units.get(uid)
            more = set(self.tied.get(uid, ()))
            if u is not None:
                more.update(self.at_hex.get(u.hex, ()))
            for other in more - units:
                units.add(other)
                todo.append(other)
        hexes = {h for h, _ in locs} | {self.units[x].hex for x in units if x in self.units}
        hexes |= set(fb.p.mopping_up)
        return units, locs, hexes

    def text(self, home: list[str]) -> str:
        """The facts of the group whose units are `home`: the whole
        position's, kept to what it names."""
        units, locs, hexes = self.members(home)
        mine = set(home)
        keep = []
        for line, tag in zip(self.fb.lines, self.fb.tags):
            if tag is None:
                keep.append(line)
                continue
            kind = tag[0]
            if kind == "ll":
                ok = tag[1] in locs and tag[2] in locs
            elif kind == "lu":
                ok = tag[1] in locs and tag[2] in units
            elif kind == "h":
                ok = tag[1] in hexes
            elif kind == "u":
                ok = tag[1] in units
            elif kind == "home":
                ok = tag[1] in mine
            else:   # "uh"
                ok = tag[1] in units and tag[2] in hexes
            if ok:
                keep.append(line)
        return "\n".join(keep) + "\n"
