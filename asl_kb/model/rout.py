"""The rout program's result (asl_kb/engines/graph.py, outcomes.py): each
broken unit's fates and their summary."""

from __future__ import annotations

import functools

from asl_kb.model.common import Because, set_fields, because_lines
from asl_kb.record import FrozenRecord, Record, record


@record(frozen=True, slots=True)
class Interdiction(FrozenRecord):
    """An Open Ground Location on the way where an Interdiction NMC applies
    (A10.53), and the units that may enforce it (the DEFENDER picks one)."""

    at: str
    by: tuple[str, ...]

    def to_json(self) -> dict:
        return {"at": self.at, "by": list(self.by)}


@record(frozen=True, slots=True)
class AbandonedSW(FrozenRecord):
    """A SW a surrendering unit leaves behind in its Location (A20.24)."""

    sw: str
    at: str

    def to_json(self) -> dict:
        return {"sw": self.sw, "at": self.at}


def chance(k: int, of: int) -> dict:
    """A chance of k in `of` as the JSON gives it: the exact fraction (not
    reduced: `of` is 6^K, the dice of the branch that rolls the most) and a
    percent to one decimal."""
    fraction, percent = _chance(k, of)
    return {"chance": fraction, "percent": percent}


@functools.lru_cache(maxsize=1 << 16)
def _chance(k: int, of: int) -> tuple[str, float]:
    # (the fates of a unit repeat a few chances thousands of times)
    return f"{k}/{of}", round(100 * k / of, 1)


@record(frozen=True, slots=True)
class PinnedAt(FrozenRecord):
    """A rout stopped in Location `at` -- by a pin (A10.53, A7.8), or where
    its MF ran out (A17.2) --: `ways` of the odds' `of`."""

    at: str
    ways: int


@record(slots=True)
class Odds(Record):
    """The chance that a path through `nmcs` Interdiction NMCs ends each way
    (report/odds.py, from the rules' chain of checks, rules/rout/A10_53_nmc.lp):
    `intact`, `reduced` (Casualty Reduction: a HS, a wounded SMC; A10.53,
    A17), stopped `pinned` on the way (where), `stopped` where its MF ran out
    (a SMC wounded on the way, A17.2), or `eliminated`; each in ways of `of`
    (6^K: 36^n for n NMCs alone; they add up to `of`). `with_leader`: the
    leader routing with the unit (A10.711), else None; `morale`: the Morale
    Level its NMCs are taken on and `morale_from` where it comes from
    (broken_side: the counter table, A10.4; given: `morale:`)."""

    nmcs: int
    intact: int
    reduced: int
    pinned: list[PinnedAt]
    eliminated: int
    with_leader: str | None = None
    of: int = 1
    stopped: list[PinnedAt] | None = None
    morale: int | None = None
    morale_from: str | None = None

    def to_json(self, memo: dict | None = None) -> dict:
        """`memo`: as Fate.to_json's (each chance's JSON made once)."""
        n = self.of
        if memo is None:
            memo = {}
        out: dict = {"nmcs": self.nmcs}
        if self.with_leader is not None:
            out["with_leader"] = self.with_leader
        if self.morale is not None:
            out["morale"] = self.morale
            out["morale_from"] = self.morale_from
        out["intact"] = memo.get((self.intact, n)) or _chance_json(memo, self.intact, n)
        out["reduced"] = memo.get((self.reduced, n)) or _chance_json(memo, self.reduced, n)
        out["pinned"] = [memo.get((id(p), n, "at")) or _pinned_json(memo, p, n) for p in self.pinned]
        if self.stopped:
            out["stopped"] = [memo.get((id(p), n, "at")) or _pinned_json(memo, p, n) for p in self.stopped]
        out["eliminated"] = memo.get((self.eliminated, n)) or _chance_json(memo, self.eliminated, n)
        return out


def _chance_json(memo: dict, k: int, n: int) -> dict:
    out = memo[(k, n)] = chance(k, n)
    return out


def _pinned_json(memo: dict, p: PinnedAt, n: int) -> dict:
    out = memo[(id(p), n, "at")] = {"at": p.at, **chance(p.ways, n)}
    return out


@record(slots=True)
class Fate(Record):
    """One legal fate of a broken unit: how it ends the Rout Phase.

    `kind` is rout, stay, surrender, freed (a surrender some whole-phase
    outcome frees as Unarmed for lack of Guard capacity, A20.51) or
    eliminated; `at` the Location it ends in; `path` the shortest example
    path (`paths`: every path, with --all-paths); `interdiction` the Open
    Ground Locations where an Interdiction NMC applies, `optional_interdiction`
    those where concealed units may drop concealment to Interdict (A10.533).
    A surrender names its `captor`, the `guard` that results and the SW it
    `abandons`; an elimination its `cause` (failure_to_rout, no_quarter), for
    a rejected surrender the captor and the side that `invokes_no_quarter`,
    and the units whose LLMC a leader's elimination calls for (`llmc`).
    """

    kind: str
    at: str
    low_crawl: bool
    path: list[str]
    interdiction: list[Interdiction]
    optional_interdiction: list[Interdiction]
    because: list[Because]
    captor: str | None = None
    guard: str | None = None
    abandons: list[AbandonedSW] | None = None
    cause: str | None = None
    invokes_no_quarter: str | None = None
    llmc: list[str] | None = None
    paths: list[list[str]] | None = None
    odds: Odds | None = None
    odds_with_leader: list[Odds] | None = None
    #: the half-MF spent on entering each Location of `path` (its states':
    #: what the odds follow a SMC wounded on the way by, A17.2; None for a unit
    #: none of whose states routs with fewer MF); not in the JSON
    spent: list[int] | None = None

    @property
    def key(self) -> tuple:
        """What makes two fates the same outcome (not the example path)."""
        return (
            self.kind,
            self.captor or "",
            self.cause or "",
            self.at,
            self.low_crawl,
            Fate.exposure_key(self.interdiction),
            Fate.exposure_key(self.optional_interdiction),
        )

    @staticmethod
    def exposure_key(interdictions) -> tuple:
        """An Interdiction list's part of Fate.key."""
        return tuple((i.at, i.by) for i in interdictions)

    def to_json(self, memo: dict | None = None) -> dict:
        """`memo`: the JSON of the parts fates share (a unit's thousands of
        fates name a few dozen Interdictions, lines and chances), made once
        and shared by the fates of one answer (UnitFates.to_json): keyed by
        the part (its id: the fates keep it alive meanwhile), so a memo
        lives no longer than the call that made it."""
        if memo is None:
            memo = {}
        out: dict = {"fate": self.kind, **set_fields(self, "cause", "captor", "guard", "invokes_no_quarter")}
        if self.abandons is not None:
            out["abandons"] = [a.to_json() for a in self.abandons]
        out.update(set_fields(self, "llmc"))
        out["at"] = self.at
        out["low_crawl"] = self.low_crawl
        out["path"] = self.path
        get = memo.get
        out["interdiction"] = [get(id(i)) or _part_json(memo, i) for i in self.interdiction]
        out["optional_interdiction"] = [get(id(i)) or _part_json(memo, i) for i in self.optional_interdiction]
        out["because"] = [get(id(b)) or _part_json(memo, b) for b in self.because]
        if self.paths is not None:
            out["paths"] = self.paths
        if self.odds is not None:
            out["odds"] = self.odds.to_json(memo)
        if self.odds_with_leader:
            out["odds_with_leader"] = [o.to_json(memo) for o in self.odds_with_leader]
        return out


def _part_json(memo: dict, part) -> dict:
    out = memo[id(part)] = part.to_json()
    return out


@record(slots=True)
class UnbeatenRoute(Record):
    """Routes to one destination whose Interdiction Locations (and optional
    Interdiction) no other route there beats, with the numbers of the fates
    that take them (1-based, as `--all` numbers them)."""

    interdiction: list[str]
    optional_interdiction: list[str]
    fates: list[int]

    def to_json(self) -> dict:
        return {
            "interdiction": self.interdiction,
            "optional_interdiction": self.optional_interdiction,
            "fates": self.fates,
        }


@record(slots=True)
class Destination(Record):
    """The rout fates ending in one Location: how many (`fates`), the numbers
    of the Low Crawl ones, the unbeaten routes (fewest Interdiction Locations
    first; `least_interdiction` the fewest, None when only Low Crawl gets
    there) and how many routes are `beaten`."""

    at: str
    fates: int
    low_crawl: list[int]
    least_interdiction: int | None
    unbeaten: list[UnbeatenRoute]
    beaten: int
    #: the fewest Interdiction NMCs of a route there (0 by Low Crawl), and the
    #: number of its first fate (the best route: report/odds.py preference)
    least_nmcs: int = 0
    first: int = 0

    def to_json(self) -> dict:
        return {
            "at": self.at,
            "fates": self.fates,
            "first": self.first,
            "least_nmcs": self.least_nmcs,
            "low_crawl": self.low_crawl,
            "least_interdiction": self.least_interdiction,
            "unbeaten": [r.to_json() for r in self.unbeaten],
            "beaten": self.beaten,
        }


@record(slots=True)
class FateGroup(Record):
    """The fates other than routs that a player tells apart by kind, captor,
    cause and Location alone (a surrender to X in K4 reached by 40 paths of
    different Interdiction is one group): the numbers of its fates."""

    kind: str
    at: str
    captor: str | None
    cause: str | None
    invokes_no_quarter: str | None
    fates: list[int]

    def to_json(self) -> dict:
        return {
            "fate": self.kind,
            "at": self.at,
            **set_fields(self, "captor", "cause", "invokes_no_quarter"),
            "fates": self.fates,
        }


@record(slots=True)
class FateSummary(Record):
    """What a player weighs of a unit's fates (asl_kb/report/summary.py):
    counts, the rout fates per destination, the numbers of the other fates."""

    fates: int
    rout_fates: int
    beaten_rout_fates: int
    destinations: list[Destination]
    other_fates: list[int]
    groups: list[FateGroup] | None = None

    def to_json(self) -> dict:
        return {
            "fates": self.fates,
            "rout_fates": self.rout_fates,
            "beaten_rout_fates": self.beaten_rout_fates,
            "destinations": [d.to_json() for d in self.destinations],
            "other_fates": self.other_fates,
            "groups": [g.to_json() for g in self.groups or ()],
        }


@record(slots=True)
class UnitFates(Record):
    """A broken unit (or, with --voluntary-break, an unbroken unit that might
    break, A10.41): whether it must or may rout and why, the leaders that may
    rout with it (A10.711), and every legal fate. A unit without a legal fate
    is `inconsistent` (a question for the rules committee)."""

    id: str
    side: str
    at: str
    must_rout: bool
    may_rout: bool
    because: list[Because]
    fates: list[Fate]
    voluntary_rout: list[str] | None = None
    may_break: bool | None = None
    summary: FateSummary | None = None
    #: the units in its Location with the same fates (itself included), when
    #: more than one: the text shows them once, as a stack (report/glance.py)
    stack: list[str] | None = None

    @property
    def inconsistent(self) -> bool:
        return not self.fates

    def to_json(self) -> dict:
        memo: dict = {}  # (Fate.to_json)
        out: dict = {
            "id": self.id,
            "side": self.side,
            "at": self.at,
            "must_rout": self.must_rout,
            "may_rout": self.may_rout,
            "because": because_lines(self.because),
            "fates": [f.to_json(memo) for f in self.fates],
            **set_fields(self, "voluntary_rout"),
        }
        if self.inconsistent:
            out["inconsistent"] = True
        out.update(set_fields(self, "may_break", "stack"))
        if self.summary is not None:
            out["summary"] = self.summary.to_json()
        return out
