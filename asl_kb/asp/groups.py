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
in reach pass GROUP_LOCATIONS (group_budget): a Control costs a tenth of a
second or so to build and ground whatever its size, so a group is large
enough to make that small beside its grounding.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

from asl_kb.board import hexgrid

#: Locations in reach (area/2 facts) a group takes before a new one begins:
#: about two seconds of grounding on a spread map (160 broken units on 16
#: boards are one group, 1,000 over [A1, GG200] six, on one core)
GROUP_LOCATIONS = 20000
#: hexes from where a unit starts to the units its rules may look at
#: without LOS (base.lp relevant/2: a Location of its reach, six hexes out,
#: and the hexes ADJACENT to it)
NEAR = 7

#: the cube offsets (x, z) of the hexes within NEAR of a hex
_NEAR_OFFSETS = tuple(
    (dx, dz) for dx in range(-NEAR, NEAR + 1) for dz in range(-NEAR, NEAR + 1) if abs(dx + dz) <= NEAR
)


#: Locations in reach a group takes at least when groups are solved at once
#: in worker processes (asl_kb/asp/workers.py): below it a group's fixed
#: cost (a Control, a process, its answer read back) is no longer small
PARALLEL_LOCATIONS = 4000


def group_budget(total: int, jobs: int = 1) -> int:
    """The Locations in reach a group takes before a new one begins, for
    `total` in all: GROUP_LOCATIONS; solved `jobs` at a time, the groups
    come in a multiple of `jobs`, as even as the units allow, where each
    keeps PARALLEL_LOCATIONS -- and in two rounds at least where each can
    keep it: a worker that ends first takes the next group (how long a
    group grounds, no count of Locations foretells), and the parent reads
    the first round's answers while the second is solved, so that only the
    last groups' reading is left once the workers are done."""
    n = max(1, math.ceil(total / GROUP_LOCATIONS))
    if jobs > 1 and total >= jobs * PARALLEL_LOCATIONS:
        rounds = max(math.ceil(n / jobs), min(2, total // (jobs * PARALLEL_LOCATIONS)))
        n = jobs * rounds
    return GROUP_LOCATIONS if n == 1 else math.ceil(total / n)


def groups(fb, budget: int | None = None, jobs: int = 1) -> list[tuple[str | Callable[[], str], list[str]]]:
    """(facts text, the ids of the units figured in it) of each group of a
    tagged FactBuilder (asl_kb/asp/facts.py), which builds its lines here
    where it has not yet. Solved `jobs` > 1 at a time, several groups are
    each a function that builds its own facts text (in its worker process,
    asl_kb/asp/workers.py: the parent figures only the reach, and the
    geometry of each group -- moves, terrain, LOS -- is figured beside the
    others'); the text is the same as cut from the whole position's."""
    reach = fb.figure_reach()
    if budget is None:
        budget = group_budget(sum(len(r) for r in reach.values()), jobs)
    homes = _batches(fb.p, reach, budget)
    figured = [[u for u in h if u in reach] for h in homes]
    if len(homes) > 1 and jobs > 1:
        return [(partial(_group_text, fb, h), f) for h, f in zip(homes, figured)]
    if not fb.lines:
        fb.build()
    if len(homes) == 1:
        return [("\n".join(fb.lines) + "\n", figured[0])]
    index = _Index(fb)
    return [(index.text(h), f) for h, f in zip(homes, figured)]


def _group_text(fb, home: list[str]) -> str:
    """The facts text of the group whose units are `home`, built for it
    alone (FactBuilder.scoped)."""
    mine = fb.scoped(home)
    mine.build()
    return _Index(mine).text(home)


def _batches(p, reach: dict, budget: int) -> list[list[str]]:
    """Every unit in one batch (its home): in map order, a new batch at a
    unit figured once the Locations in reach of the one being filled pass
    `budget`, never between two units of one hex. A unit not figured has a
    home too: what the rules derive of it alone (a Disrupted unit's
    surrender, A19.12) is derived there, with the units of its hex."""
    order = sorted(p.units, key=lambda u: _row_first(u.hex, p))
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


def _row_first(h: str, p) -> tuple:
    """A hex's place row by row (north to south, then west to east)."""
    if p.real is not None:
        x, y = p.grid.point(h)
        return y, x
    col, row = hexgrid.hex_coords(h)
    return row, col


class _Index:
    """The tagged lines of a FactBuilder, by what they are about."""

    def __init__(self, fb):
        self.fb = fb
        p = fb.p
        self.units = {u.id: u for u in p.units}
        self.at_hex: dict[str, list[str]] = {}
        #: the units by their hex's cube coordinates (x, z): the hexes near a
        #: unit are offsets from its own
        self.at_cube: dict[tuple[int, int], list[str]] = {}
        for u in p.units:
            self.at_hex.setdefault(u.hex, []).append(u.id)
            x, _, z = p.grid.cube(u.hex)
            self.at_cube.setdefault((x, z), []).append(u.id)
        self.in_building: dict[str, list[str]] = {}
        for u in p.units:
            b = fb.blds.get(u.hex)
            if b is not None:
                self.in_building.setdefault(b, []).append(u.id)
        self.tied: dict[str, set[str]] = {}
        self._tie_position(p)
        # each line's number, by what it is about (a group's lines are
        # gathered from these and put back in the whole text's order)
        self.common: list[int] = []
        self.by: dict[str, dict] = {"u": {}, "home": {}, "h": {}, "ll": {}, "lu": {}, "uh": {}}
        for i, tag in enumerate(fb.tags):
            if tag is None:
                self.common.append(i)
            elif len(tag) == 2:
                self.by[tag[0]].setdefault(tag[1], []).append(i)
            else:
                self.by[tag[0]].setdefault(tag[1], []).append((i, tag[2]))
        self.watchers = {l: {uid for _, uid in pairs} for l, pairs in self.by["lu"].items()}

    def _tie_position(self, p) -> None:
        """The units the position ties together: a Guard and its prisoners,
        a vehicle and those aboard, the units of one Close Combat."""
        for u in p.units:
            for other in (u.guard, u.passenger_of, u.rider_of):
                if other is not None:
                    self._tie(u.id, other)
        for cc in p.close_combat:
            ids = list(cc.attackers) + list(cc.defenders)
            for a in ids:
                for b in ids:
                    self._tie(a, b)

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
        for start in {self.units[uid].hex for uid in home if uid in fb.reach}:
            x, _, z = fb.p.grid.cube(start)
            for dx, dz in _NEAR_OFFSETS:
                units.update(self.at_cube.get((x + dx, z + dz), ()))
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
        by = self.by
        keep = list(self.common)
        for uid in units:
            keep += by["u"].get(uid, ())
            keep += [i for i, h in by["uh"].get(uid, ()) if h in hexes]
        for uid in home:
            keep += by["home"].get(uid, ())
        for h in hexes:
            keep += by["h"].get(h, ())
        for l in locs:
            keep += [i for i, other in by["ll"].get(l, ()) if other in locs]
            keep += [i for i, uid in by["lu"].get(l, ()) if uid in units]
        keep.sort()
        lines = self.fb.lines
        return "\n".join([lines[i] for i in keep]) + "\n"
