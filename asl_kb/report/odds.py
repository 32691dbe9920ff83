"""The odds of a rout: the 2d6 arithmetic over what the rules say each
Interdiction NMC does (rules/rout/A10_53_nmc.lp: nmc_roll/5, pin_eliminates/3).

Every rules question -- what an Original DR does (pass, pin, Casualty
Reduction, elimination), the Morale Level and leadership DRM that apply,
what a reduced unit does next, where a pin eliminates -- is answered by the
rules; here each Original DR is only weighed by its ways on 2d6 (DR 7: 6 of
36) and the NMCs of one path chained in the order the path enters their
Locations. A chance is exact: `k` of 36^n, n the path's NMCs.

The NMCs counted are every one the DEFENDER may claim on the path: the
`interdiction` Locations and the `optional_interdiction` ones (a concealed
unit that may drop concealment to Interdict, A10.533): the odds are those of
the worst case for the routing unit.
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from fractions import Fraction

from asl_kb.asp.reader import text
from asl_kb.model.rout import Odds, PinnedAt

#: ways of each 2d6 total
WAYS = {r: 6 - abs(7 - r) for r in range(2, 13)}


class NmcTable:
    """The rules' nmc_roll/5 and pin_eliminates/3 of one answer set."""

    def __init__(self, answer):
        #: (unit, state, with) -> result -> ways of 36
        self.rolls: dict = defaultdict(lambda: defaultdict(int))
        for s in answer.atoms.get("nmc_roll", ()):
            u, state, w, dr, res = s.arguments
            self.rolls[(text(u), state.name, text(w))][res.name] += WAYS[dr.number]
        self.pin_eliminates: dict = defaultdict(set)
        for s in answer.atoms.get("pin_eliminates", ()):
            self.pin_eliminates[text(s.arguments[0])].add(text(s.arguments[1]))
        #: (unit, with, Locations) -> the distributions after their NMCs (_after)
        self._memo: dict = {}
        #: (Location, ways) -> PinnedAt, made once
        self._pinned_at: dict = {}

    def leaders(self, unit: str) -> list[str]:
        """The leaders who may rout with `unit` and add their DRM (A10.711)."""
        return sorted({w for (u, s, w) in self.rolls if u == unit and s == "whole" and w != "none"})

    def odds(self, unit: str, hexes: list[str], with_leader: str = "none") -> Odds | None:
        """The odds of routing through the Interdiction Locations `hexes`
        (in path order), alone or with a leader (None: the rules give the
        unit no NMC, e.g. no Morale Level)."""
        whole = self.rolls.get((unit, "whole", with_leader))
        if whole is None:
            return None
        live_whole, live_reduced, pinned, eliminated = self._after(unit, with_leader, whole, tuple(hexes))
        n = len(hexes)
        made = self._pinned_at
        at = []
        for h in dict.fromkeys(hexes):
            ways = pinned.get(h)
            if ways:
                p = made.get((h, ways))
                if p is None:  # (thousands of fates pin in a few Locations, a few ways)
                    p = made[(h, ways)] = PinnedAt(h, ways)
                at.append(p)
        return Odds(
            nmcs=n,
            intact=live_whole,
            reduced=live_reduced,
            pinned=at,
            eliminated=eliminated,
            with_leader=None if with_leader == "none" else with_leader,
        )

    def _after(self, unit: str, with_leader: str, whole: dict, hexes: tuple) -> tuple:
        """The distributions after the NMCs of `hexes`, in ways of 36^n: the
        unit whole, reduced, pinned (Location -> ways) and eliminated. Kept
        by path: the fates of one unit share their first Locations (an open
        board: thousands of paths), so each is one NMC more than one met."""
        key = (unit, with_leader, hexes)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        if not hexes:
            out: tuple = (1, 0, {}, 0)
            self._memo[key] = out
            return out
        live_whole, live_reduced, before, eliminated = self._after(unit, with_leader, whole, hexes[:-1])
        h = hexes[-1]
        reduced = self.rolls.get((unit, "reduced", "none"), {})
        pinned = {k: v * 36 for k, v in before.items()}
        eliminated *= 36
        nxt = {"whole": 0, "reduced": 0}
        eliminates = h in self.pin_eliminates.get(unit, ())
        for state, ways in (("whole", live_whole), ("reduced", live_reduced)):
            if not ways:
                continue
            table = whole if state == "whole" else reduced
            nxt[state] += ways * table.get("pass", 0)
            nxt["reduced"] += ways * table.get("casualty_reduction", 0)
            eliminated += ways * table.get("eliminated", 0)
            pin = ways * table.get("pinned", 0)
            if eliminates:
                eliminated += pin
            else:
                pinned[h] = pinned.get(h, 0) + pin
        out = self._memo[key] = (nxt["whole"], nxt["reduced"], pinned, eliminated)
        return out


def preference(o: Odds | None) -> tuple:
    """How a player ranks routes to one destination by their odds (a
    rendering choice over the rules' odds, docs/output-format.md "Best
    route"): the best chance of arriving (intact or reduced: a pinned unit
    routs no further) first, then the least chance of elimination (a pin in a
    Location where it eliminates, pin_eliminates/3), then the best chance of
    arriving intact. () without odds (the rules give the unit no NMC)."""
    return () if o is None else preference_key(o.nmcs, o.intact, o.reduced, o.eliminated)


@functools.lru_cache(maxsize=4096)
def preference_key(nmcs: int, intact: int, reduced: int, eliminated: int) -> tuple:
    """(asked for every rout fate: an open board's thousands share a few odds)"""
    of = 36**nmcs
    return (-Fraction(intact + reduced, of), Fraction(eliminated, of), -Fraction(intact, of))


def path_order(f) -> list[str]:
    """The Interdiction Locations of a fate (both kinds) in the order its
    example path enters them, once per NMC: a re-entered Location is
    Interdicted again (A10.53), so it is listed once per entry, as many
    times as the fate's Interdiction lists it (summary.nmcs counts the same)."""
    want: dict[str, int] = {}
    for i in f.interdiction:
        want[i.at] = want.get(i.at, 0) + 1
    if f.optional_interdiction:  # (a Counter union: the more of each)
        for h, n in Counter(i.at for i in f.optional_interdiction).items():
            want[h] = max(n, want.get(h, 0))
    out = []
    for h in f.path[1:]:  # (the start Location is not entered)
        if want.get(h, 0) > 0:
            want[h] -= 1
            out.append(h)
    rest = [h for h, n in want.items() if n for _ in range(n)]
    return out + sorted(rest) if rest else out


def add_odds(units, table: NmcTable | None) -> None:
    """Give each rout fate of `units` its odds (alone, and with each leader
    who may rout with the unit)."""
    if table is None:
        return
    for u in units:
        leaders = table.leaders(u.id)
        for f in u.fates:
            if f.kind != "rout":
                continue
            hexes = [] if f.low_crawl else path_order(f)
            f.odds = table.odds(u.id, hexes)
            if leaders and f.odds is not None:
                f.odds_with_leader = [o for w in leaders if (o := table.odds(u.id, hexes, w)) is not None]
