"""The odds of a fate through Interdiction: the dice arithmetic over the
chain of checks the rules state (rules/rout/A10_53_nmc.lp: chain_start/3,
interdiction_check/3, check_dice/3, check_roll/4, check_next/4, state_mf/3,
over_mf/3, pin_eliminates/3, stop_eliminates/3).

Every rules question -- the state a unit starts in (alone, or with the
leader routing with it), the check it takes in an Interdiction Location,
what each Original roll does (pass, pin, Casualty Reduction, a wound,
elimination), what follows (it routs on in another state, takes a LLMC or a
Wound Severity dr at once, or stops), the MF a state routs with and where a
pin or a stop eliminates -- is answered by the rules. Here each roll is only
weighed by its ways on its dice (2d6: DR 7 is 6 of 36; 1d6: 1 of 6) and the
chain followed along the fate's example path, Location by Location, as the
rules say. A chance is exact: `k` of 6^K, K the dice of the branch that
rolls the most (two per DR, one per dr): 36^n for n NMCs alone.

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

#: ways of each roll of each kind of dice, and the dice's exponent of 6
WAYS = {"dr2": {r: 6 - abs(7 - r) for r in range(2, 13)}, "dr1": {r: 1 for r in range(1, 7)}}
SIXES = {"dr2": 2, "dr1": 1}


def _loc(sym) -> str:
    h, level = sym.arguments
    return h.string if level.number == 0 else f"{h.string}@{level.number}"


class NmcTable:
    """The rules' chain of checks of one answer set (what is rolled along a
    path through Interdiction, and what each result does)."""

    def __init__(self, answer):
        at = answer.atoms
        #: (unit, with) -> the state it starts in
        self.starts: dict = {}
        for s in at.get("chain_start", ()):
            u, w, st = s.arguments
            self.starts[(text(u), text(w))] = str(st)
        #: (unit, state) -> the check it takes in an Interdiction Location
        self.checks = {
            (text(s.arguments[0]), str(s.arguments[1])): str(s.arguments[2]) for s in at.get("interdiction_check", ())
        }
        dice = {(text(s.arguments[0]), str(s.arguments[1])): s.arguments[2].name for s in at.get("check_dice", ())}
        #: (unit, check) -> (dice, {effect: ways})
        rolls: dict = defaultdict(lambda: defaultdict(int))
        for s in at.get("check_roll", ()):
            u, c, r, e = s.arguments
            key = (text(u), str(c))
            rolls[key][e.name] += WAYS[dice[key]][r.number]
        self.rolls = {k: (dice[k], dict(v)) for k, v in rolls.items()}
        #: (unit, check, effect) -> what follows: ("rout_on", state), ("check", check), ("stop", how)
        self.next: dict = {}
        for s in at.get("check_next", ()):
            u, c, e, n = s.arguments
            arg = n.arguments[0]
            self.next[(text(u), str(c), e.name)] = (n.name, arg.name if n.name == "stop" else str(arg))
        #: (unit, state) -> its MF in half MF (a state with fewer than the rout began with)
        self.mf = {(text(s.arguments[0]), str(s.arguments[1])): s.arguments[2].number for s in at.get("state_mf", ())}
        #: the units with such a state
        self._mf_of = {u for u, _ in self.mf}
        #: (unit, state) -> what it is when entered past its MF (pinned)
        self.over = {(text(s.arguments[0]), str(s.arguments[1])): s.arguments[2].name for s in at.get("over_mf", ())}
        self.pin_eliminates: dict = defaultdict(set)
        for s in at.get("pin_eliminates", ()):
            self.pin_eliminates[text(s.arguments[0])].add(text(s.arguments[1]))
        self.stop_eliminates: dict = defaultdict(set)
        for s in at.get("stop_eliminates", ()):
            self.stop_eliminates[text(s.arguments[0])].add(_loc(s.arguments[1]))
        #: unit -> (Morale Level, where it comes from)
        self.morale: dict = {}
        for s in at.get("nmc_morale", ()):
            self.morale[text(s.arguments[0])] = s.arguments[1].number
        self.morale_from = {text(s.arguments[0]): s.arguments[1].name for s in at.get("nmc_morale_from", ())}
        #: (unit, with, steps) -> the chain after those steps (_after)
        self._memo: dict = {}
        #: (Location, ways) -> PinnedAt, made once
        self._made: dict = {}
        #: id of a chain _after kept (in _memo) -> its odds' numbers (_weigh)
        self._odds: dict = {}

    def leaders(self, unit: str) -> list[str]:
        """The leaders who may rout with `unit` (A10.711)."""
        return sorted(w for (u, w) in self.starts if u == unit and w != "none")

    def odds(self, unit: str, steps: tuple, with_leader: str = "none") -> Odds | None:
        """The odds of a path: `steps` are (Location, half-MF spent there,
        NMCs there) for each Location entered, in path order (None: the
        rules give the unit no chain, e.g. no Morale Level)."""
        start = self.starts.get((unit, with_leader))
        if start is None:
            return None
        if unit not in self._mf_of:
            # (no state of the unit routs with fewer MF: only the NMCs tell
            # one path's chain from another's)
            steps = tuple((h, 0, n) for h, _, n in steps if n)
        after = self._after(unit, with_leader, steps)
        # (the chain after an open board's paths is one of a few: _after
        # keeps it through Locations entered without an NMC)
        made = self._odds.get(id(after))
        if made is None:
            made = self._odds[id(after)] = self._weigh(start, after)
        intact, reduced, pinned, eliminated, top, stopped = made
        return Odds(
            nmcs=sum(n for _, _, n in steps),
            intact=intact,
            reduced=reduced,
            pinned=list(pinned),
            eliminated=eliminated,
            with_leader=None if with_leader == "none" else with_leader,
            of=6**top,
            stopped=list(stopped),
            morale=self.morale.get(unit),
            morale_from=self.morale_from.get(unit),
        )

    def _weigh(self, start: str, after: tuple) -> tuple:
        """(intact, reduced, pinned, eliminated, dice, stopped): the chain
        `after` (_after) in ways of 6^dice."""
        live, pinned, stopped, eliminated = after
        top = max(
            [e for (_, e) in live] + [e for d in (pinned, stopped) for (_, e) in d] + [e for e in eliminated],
            default=0,
        )

        def ways(masses) -> int:
            return sum(w * 6 ** (top - e) for e, w in masses)

        # intact: it arrives as it began (a SMC already wounded, wounded
        # again with no more penalty, A17.11, is as it began); reduced: in
        # any other state the chain leaves it in
        intact = ways((e, w) for (s, e), w in live.items() if s == start)
        reduced = ways((e, w) for (s, e), w in live.items() if s != start)
        return (
            intact,
            reduced,
            tuple(self._where(pinned, ways)),
            ways(eliminated.items()),
            top,
            tuple(self._where(stopped, ways)),
        )

    def _where(self, masses: dict, ways) -> list[PinnedAt]:
        by: dict[str, list] = {}
        for (h, e), w in masses.items():
            by.setdefault(h, []).append((e, w))
        out = []
        for h, ms in by.items():
            n = ways(ms)
            if n:
                p = self._made.get((h, n))
                if p is None:  # (thousands of fates stop in a few Locations, a few ways)
                    p = self._made[(h, n)] = PinnedAt(h, n)
                out.append(p)
        return out

    def _after(self, unit: str, with_leader: str, steps: tuple) -> tuple:
        """The chain after `steps`: live {(state, dice): ways}, pinned and
        stopped {(Location, dice): ways}, eliminated {dice: ways}; ways of
        6^dice. Kept by path: the fates of one unit share their first
        Locations (an open board: thousands of paths), so each is one step
        more than one met."""
        key = (unit, with_leader, steps)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        if not steps:
            out: tuple = ({(self.starts[(unit, with_leader)], 0): 1}, {}, {}, {})
            self._memo[key] = out
            return out
        before = self._after(unit, with_leader, steps[:-1])
        live0, pinned0, stopped0, elim0 = before
        h, spent, n = steps[-1]
        last = steps[-2][0] if len(steps) > 1 else None
        mf = self.mf
        if not n and (last is None or all(mf.get((unit, s), spent) >= spent for s, _ in live0)):
            # a Location entered without an NMC, within every state's MF:
            # the chain as it was (most of an open board's steps)
            self._memo[key] = before
            return before
        live: dict = {}
        pinned, stopped, eliminated = dict(pinned0), dict(stopped0), dict(elim0)
        for (s, e), w in live0.items():
            limit = mf.get((unit, s))
            if limit is not None and spent > limit and last is not None:
                # its MF ran out at the Location before: it stops there
                # (eliminated where it ends ADJACENT to a Known enemy unit)
                if last in self.stop_eliminates.get(unit, ()):
                    _add(eliminated, e, w)
                else:
                    _add(stopped, (last, e), w)
            else:
                live[(s, e)] = live.get((s, e), 0) + w
        for _ in range(n):
            entering = live
            roll = _Roll(self, unit, steps[-1], pinned, eliminated)
            for (s, e), w in entering.items():
                roll.check(s, self.checks[(unit, s)], e, w)
            live = roll.live
        out = self._memo[key] = (live, pinned, stopped, eliminated)
        return out


class _Roll:
    """An NMC of one unit's chain in the Location of `step` (Location,
    half-MF spent so far, NMCs): the states it routs on in (`live`), and its
    pins and eliminations added to the chain's."""

    def __init__(self, table: NmcTable, unit: str, step: tuple, pinned: dict, eliminated: dict):
        self.table, self.unit, self.h, self.spent = table, unit, step[0], step[1]
        self.live: dict = {}
        self.pinned, self.eliminated = pinned, eliminated

    def check(self, state: str, check: str, e: int, w: int) -> None:
        """Roll `check` (the unit in `state`), `w` ways of 6^e so far; each
        effect followed as check_next says."""
        t, unit = self.table, self.unit
        dice, effects = t.rolls[(unit, check)]
        e2 = e + SIXES[dice]
        for effect, ways in effects.items():
            kind, arg = t.next[(unit, check, effect)]
            m = w * ways
            if kind == "rout_on":
                limit = t.mf.get((unit, arg))
                if arg != state and limit is not None and self.spent > limit and t.over.get((unit, arg)) == "pinned":
                    self.stop("pinned", e2, m)
                else:
                    self.live[(arg, e2)] = self.live.get((arg, e2), 0) + m
            elif kind == "check":
                self.check(state, arg, e2, m)
            else:
                self.stop(arg, e2, m)

    def stop(self, how: str, e: int, m: int) -> None:
        if how == "pinned" and self.h not in self.table.pin_eliminates.get(self.unit, ()):
            _add(self.pinned, (self.h, e), m)
        else:
            _add(self.eliminated, e, m)


def _add(d: dict, k, w: int) -> None:
    d[k] = d.get(k, 0) + w


def preference(o: Odds | None) -> tuple:
    """How a player ranks routes to one destination by their odds (a
    rendering choice over the rules' odds, docs/output-format.md "Best
    route"): the best chance of arriving (intact or reduced: a pinned unit
    routs no further) first, then the least chance of elimination (a pin in a
    Location where it eliminates, pin_eliminates/3), then the best chance of
    arriving intact. () without odds (the rules give the unit no NMC)."""
    return () if o is None else preference_key(o.of, o.intact, o.reduced, o.eliminated)


@functools.lru_cache(maxsize=4096)
def preference_key(of: int, intact: int, reduced: int, eliminated: int) -> tuple:
    """(asked for every rout fate: an open board's thousands share a few odds)"""
    return (-Fraction(intact + reduced, of), Fraction(eliminated, of), -Fraction(intact, of))


def path_steps(f) -> tuple:
    """The Locations a fate's example path enters, each with the half-MF
    spent there and its Interdiction NMCs (both kinds): a re-entered
    Location is Interdicted again (A10.53, interdiction/3 said per entry),
    so each entry takes one of the NMCs the fate lists there (summary.nmcs
    counts the same). An NMC the example path does not place is taken at
    its end."""
    want: dict[str, int] = {}
    for i in f.interdiction:
        want[i.at] = want.get(i.at, 0) + 1
    if f.optional_interdiction:  # (a Counter union: the more of each)
        for h, n in Counter(i.at for i in f.optional_interdiction).items():
            want[h] = max(n, want.get(h, 0))
    spent = f.spent or [0] * len(f.path)
    out = []
    for h, s in zip(f.path[1:], spent[1:]):  # (the start Location is not entered)
        n = 1 if want.get(h, 0) > 0 else 0
        if n:
            want[h] -= 1
        out.append((h, s, n))
    rest = sorted(h for h, n in want.items() for _ in range(n))
    if rest:
        s = spent[-1] if spent else 0
        out += [(h, s, 1) for h in rest]
    return tuple(out)


def path_order(f) -> list[str]:
    """The Interdiction Locations of a fate (both kinds) in the order its
    example path enters them, once per NMC (path_steps)."""
    return [h for h, _, n in path_steps(f) for _ in range(n)]


def add_odds(units, table: NmcTable | None) -> None:
    """Give each fate of `units` that routs, or passes an Interdiction on its
    way to another end (a surrender, an elimination), its odds: alone, and
    with each leader who may rout with the unit."""
    if table is None:
        return
    for u in units:
        leaders = table.leaders(u.id)
        for f in u.fates:
            if f.kind != "rout" and not (f.interdiction or f.optional_interdiction):
                continue
            steps = path_steps(f)
            f.odds = table.odds(u.id, steps)
            if leaders and f.odds is not None:
                f.odds_with_leader = [o for w in leaders if (o := table.odds(u.id, steps, w)) is not None]
