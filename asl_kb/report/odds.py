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
        #: (unit, state) -> what its check leads to (_outcomes)
        self._each: dict = {}

    def leaders(self, unit: str) -> list[str]:
        """The leaders who may rout with `unit` (A10.711)."""
        return sorted(w for (u, w) in self.starts if u == unit and w != "none")

    def odds(self, unit: str, steps: tuple, with_leader: str = "none", nmcs_only: bool = False) -> Odds | None:
        """The odds of a path: `steps` are (Location, half-MF spent there,
        NMCs there) for each Location entered, in path order (None: the
        rules give the unit no chain, e.g. no Morale Level). `nmcs_only`:
        the steps are those of path_steps without `spent` (one NMC each)."""
        start = self.starts.get((unit, with_leader))
        if start is None:
            return None
        hexes = None
        if nmcs_only:
            nmcs = len(steps)
            steps, hexes = self._shape(unit, steps)
        else:
            nmcs = sum(n for _, _, n in steps)
            if unit not in self._mf_of and not all(n for _, _, n in steps):
                # (no state of the unit routs with fewer MF: only the NMCs
                # tell one path's chain from another's)
                steps = tuple((h, 0, n) for h, _, n in steps if n)
        after = self._after(unit, with_leader, steps)
        # (the chain after an open board's paths is one of a few: _after
        # keeps it through Locations entered without an NMC)
        made = self._odds.get(id(after))
        if made is None:
            made = self._odds[id(after)] = self._weigh(start, after, hexes is None)
        intact, reduced, pinned, eliminated, top, stopped = made
        if hexes is not None:
            pinned, stopped = self._named(pinned, hexes), self._named(stopped, hexes)
        return Odds(
            nmcs=nmcs,
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

    def depends_on_mf(self, unit: str) -> bool:
        """Whether a state of the unit routs with fewer MF (then the MF each
        step spends tells one path's chain from another's, not only its
        NMCs)."""
        return unit in self._mf_of

    def _shape(self, unit: str, steps: tuple) -> tuple[tuple, list[str]]:
        """NMC-only `steps` as the chain reads them (one of a few shapes
        for an open board's thousands of paths), and the Locations they
        stand for: a Location is read only as where a pin eliminates or not
        (pin_eliminates/3) and named where the unit stops, so each step is
        a number, 2 * (the Location's place among those entered) + (1 where
        a pin eliminates); `hexes` by place."""
        eliminates = self.pin_eliminates.get(unit, ())
        number: dict[str, int] = {}
        hexes: list[str] = []
        shape = []
        for h, _, _ in steps:
            t = number.get(h)
            if t is None:
                t = number[h] = 2 * len(hexes) + (h in eliminates)
                hexes.append(h)
            shape.append((t, 0, 1))
        return tuple(shape), hexes

    def _named(self, ways: tuple, hexes: list[str]) -> list:
        """The PinnedAt of a shaped chain's stops (_shape) `ways`, each
        (step number, ways), in `hexes`."""
        out = []
        for t, n in ways:
            h = hexes[t >> 1]
            p = self._made.get((h, n))
            if p is None:
                p = self._made[(h, n)] = PinnedAt(h, n)
            out.append(p)
        return out

    def _weigh(self, start: str, after: _Chain, named: bool = True) -> tuple:
        """(intact, reduced, pinned, eliminated, dice, stopped): the chain
        `after` (_after) in ways of 6^dice (`named`: its stops as PinnedAt,
        else as (step number, ways) of a shaped chain, _shape)."""
        top = after.top
        # intact: it arrives as it began (a SMC already wounded, wounded
        # again with no more penalty, A17.11, is as it began); reduced: in
        # any other state the chain leaves it in
        intact = reduced = 0
        for (s, e), w in after.live.items():
            if s == start:
                intact += w * 6 ** (top - e)
            else:
                reduced += w * 6 ** (top - e)
        if not named:
            return (intact, reduced, tuple(after.pinned.items()), after.eliminated, top, tuple(after.stopped.items()))
        return (intact, reduced, self._where(after.pinned), after.eliminated, top, self._where(after.stopped))

    def _where(self, ways: dict) -> tuple:
        out = []
        for h, n in ways.items():
            p = self._made.get((h, n))
            if p is None:  # (thousands of fates stop in a few Locations, a few ways)
                p = self._made[(h, n)] = PinnedAt(h, n)
            out.append(p)
        return tuple(out)

    def _outcomes(self, unit: str, state: str) -> tuple:
        """What the unit's check in an Interdiction Location leads to in
        `state`, worked out once: (the state it routs on in, or None where
        it stops; the dice rolled on the way; ways of them; whether it stops
        pinned -- else eliminated --; the MF past which a state routed on in
        stops it pinned instead, or None), each check_next "check" (a LLMC,
        a Wound Severity dr) followed."""
        key = (unit, state)
        out = self._each.get(key)
        if out is None:
            out = self._each[key] = tuple(self._follow(unit, state, self.checks[key], 0, 1))
        return out

    def _follow(self, unit: str, state: str, check: str, dice: int, w: int):
        kind_of_dice, effects = self.rolls[(unit, check)]
        dice += SIXES[kind_of_dice]
        for effect, ways in effects.items():
            kind, arg = self.next[(unit, check, effect)]
            if kind == "check":
                yield from self._follow(unit, state, arg, dice, w * ways)
            elif kind == "rout_on":
                # (a state with fewer MF entered past them: pinned, over_mf/3)
                pins = arg != state and self.over.get((unit, arg)) == "pinned"
                yield arg, dice, w * ways, True, self.mf.get((unit, arg)) if pins else None
            else:
                yield None, dice, w * ways, arg == "pinned", None

    def _after(self, unit: str, with_leader: str, steps: tuple) -> _Chain:
        """The chain after `steps` (_Chain). Kept by path: the fates of one
        unit share their first Locations (an open board: thousands of
        paths), so each is one step more than one met."""
        key = (unit, with_leader, steps)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        if not steps:
            out = self._memo[key] = _Chain(0, {(self.starts[(unit, with_leader)], 0): 1}, {}, {}, 0)
            return out
        before = self._after(unit, with_leader, steps[:-1])
        h, spent, n = steps[-1]
        last = steps[-2][0] if len(steps) > 1 else None
        mf = self.mf
        if not n and (last is None or all(mf.get((unit, s), spent) >= spent for s, _ in before.live)):
            # a Location entered without an NMC, within every state's MF:
            # the chain as it was (most of an open board's steps)
            self._memo[key] = before
            return before
        c = _Chain.following(before)
        for (s, e), w in before.live.items():
            limit = mf.get((unit, s))
            if limit is not None and spent > limit and last is not None:
                # its MF ran out at the Location before: it stops there
                # (eliminated where it ends ADJACENT to a Known enemy unit)
                c.stop(None if last in self.stop_eliminates.get(unit, ()) else last, e, w, stopped=True)
            else:
                c.live[(s, e)] = c.live.get((s, e), 0) + w
        for _ in range(n):
            self._check(c, unit, h, spent)
        self._memo[key] = c
        return c

    def _check(self, c: _Chain, unit: str, h: str, spent: int) -> None:
        """One NMC in Location `h` (`spent` half-MF so far) taken by each
        state the chain `c` routs on in: its outcomes (_outcomes) added."""
        # (a shaped step, _shape: its number says whether a pin eliminates)
        pin_here = not h & 1 if type(h) is int else h not in self.pin_eliminates.get(unit, ())
        entering = c.live
        live: dict = {}
        c.live = live
        for (s, e), w in entering.items():
            for state, dice, ways, pins, limit in self._outcomes(unit, s):
                e2 = e + dice
                if state is not None and (limit is None or spent <= limit):
                    if e2 > c.top:
                        c.reach(e2)
                    live[(state, e2)] = live.get((state, e2), 0) + w * ways
                elif e2 == c.top and not (pins and pin_here):
                    c.eliminated += w * ways  # (c.stop's commonest case)
                else:
                    c.stop(h if pins and pin_here else None, e2, w * ways)


class _Chain:
    """Where a unit's chain of checks stands after some steps of a path:
    `live`, the states it routs on in, {(state, dice): ways of 6^dice}; and
    where it stopped, in ways of 6^`top` (the most dice any branch has
    rolled so far): `pinned` and `stopped` (where its MF ran out) by
    Location, and `eliminated`. `shared`: pinned and stopped are the chain
    before's (copied before either changes)."""

    __slots__ = ("top", "live", "pinned", "stopped", "eliminated", "shared")

    def __init__(self, top: int, live: dict, pinned: dict, stopped: dict, eliminated: int):
        self.top, self.live, self.pinned, self.stopped, self.eliminated = top, live, pinned, stopped, eliminated
        self.shared = False

    @classmethod
    def following(cls, before: _Chain) -> _Chain:
        """A chain going on from `before` (its stops shared until changed),
        with no state routing on yet."""
        c = cls(before.top, {}, before.pinned, before.stopped, before.eliminated)
        c.shared = True
        return c

    def reach(self, dice: int) -> None:
        """A branch has rolled `dice`, more than any before: what stopped so
        far counted in ways of 6^dice."""
        k = 6 ** (dice - self.top)
        self.pinned = {h: w * k for h, w in self.pinned.items()}
        self.stopped = {h: w * k for h, w in self.stopped.items()}
        self.shared = False
        self.eliminated *= k
        self.top = dice

    def stop(self, at: str | None, dice: int, w: int, stopped: bool = False) -> None:
        """`w` ways of 6^dice stop: pinned (or, with `stopped`, out of MF) in
        Location `at`, eliminated where `at` is None."""
        if dice > self.top:
            self.reach(dice)
        elif dice < self.top:
            w *= 6 ** (self.top - dice)
        if at is None:
            self.eliminated += w
            return
        if self.shared:
            self.pinned, self.stopped, self.shared = dict(self.pinned), dict(self.stopped), False
        into = self.stopped if stopped else self.pinned
        into[at] = into.get(at, 0) + w


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


def path_steps(f, spent: bool = True) -> tuple:
    """The Locations a fate's example path enters, each with the half-MF
    spent there and its Interdiction NMCs (both kinds): a re-entered
    Location is Interdicted again (A10.53, interdiction/3 said per entry),
    so each entry takes one of the NMCs the fate lists there (summary.nmcs
    counts the same). An NMC the example path does not place is taken at
    its end. Without `spent`: only the Locations where an NMC is taken,
    with no MF (what tells apart the chains of a unit whose MF does not
    change with its state: NmcTable.depends_on_mf)."""
    want: dict[str, int] = {}
    for i in f.interdiction:
        want[i.at] = want.get(i.at, 0) + 1
    if f.optional_interdiction:  # (a Counter union: the more of each)
        for h, n in Counter(i.at for i in f.optional_interdiction).items():
            want[h] = max(n, want.get(h, 0))
    if not spent:
        return _nmc_steps(f, want)
    mf = f.spent or [0] * len(f.path)
    out = []
    for h, s in zip(f.path[1:], mf[1:]):
        n = 1 if want.get(h, 0) > 0 else 0
        if n:
            want[h] -= 1
        out.append((h, s, n))
    rest = sorted(h for h, n in want.items() for _ in range(n))
    if rest:
        s = mf[-1] if mf else 0
        out += [(h, s, 1) for h in rest]
    return tuple(out)


def _nmc_steps(f, want: dict[str, int]) -> tuple:
    """path_steps without MF: the Locations of the NMCs `want`s, in the
    order the path (as far as its MF are known) enters them, once per entry
    (each found by list.index: a fate's few Interdiction Locations on a
    path of many)."""
    if not want:
        return ()
    path = f.path
    end = len(f.spent) if f.spent else len(path)
    hits, rest = [], []
    for h, n in want.items():
        i = 0  # (the start Location is not entered)
        for k in range(n):
            try:
                i = path.index(h, i + 1, end)
            except ValueError:
                rest += [h] * (n - k)
                break
            hits.append((i, h))
    hits.sort()
    return tuple([(h, 0, 1) for _, h in hits] + [(h, 0, 1) for h in sorted(rest)])


def path_order(f) -> list[str]:
    """The Interdiction Locations of a fate (both kinds) in the order its
    example path enters them, once per NMC (path_steps)."""
    return [h for h, _, _ in path_steps(f, spent=False)]


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
            only = not table.depends_on_mf(u.id)
            steps = path_steps(f, spent=not only)
            f.odds = table.odds(u.id, steps, nmcs_only=only)
            if leaders and f.odds is not None:
                f.odds_with_leader = [o for w in leaders if (o := table.odds(u.id, steps, w, only)) is not None]
