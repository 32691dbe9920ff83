"""The summary of a unit's fates: what a player weighs, per destination.

The rules derive every legal fate; a broken unit in the open may have
thousands of them, because every distinct set of Interdiction Locations on
the way is its own fate. The summary groups the rout fates by destination
and keeps, per destination, the choices a player would weigh:

* the Low Crawl fates (listed as such; the rules give them no Interdiction,
  A10.52);
* the routes whose Interdiction no other route to that destination beats;
* a count of the rest.

A route *beats* another to the same destination when its Interdiction
Locations are a proper subset of the other's (and its optional Interdiction
by concealed units, A10.533, a subset too): the other route only adds NMCs.
This is a dominance computation over the result the rules produced, not a
rules question — no fate is dropped from the result, the summary only points
at fates (by their 1-based number in the unit's `fates` list, the number
`--all` prints). It is computed here, in the report layer, for that reason.

Non-rout fates (stay, surrender, freed, eliminated) are few; the summary
lists them by number.
"""

from __future__ import annotations

import functools

from asl_kb.board import hexgrid
from asl_kb.model import Destination, Fate, FateSummary, UnbeatenRoute
from asl_kb.model.rout import FateGroup, Odds


def _hexes(items) -> frozenset[tuple[str, int]]:
    """The Interdiction Locations of a route as a multiset: (Location, n) for
    its n-th Interdiction there (a route re-entering a Location is
    Interdicted there again, A10.53, and is beaten by the one that does not)."""
    return _multiset(tuple([i.at for i in items]))[0]


def _hexes_and_key(items) -> tuple[frozenset, tuple]:
    """_hexes, and its place among exposures: the fewest first, then their
    Locations in hex order (order_fates)."""
    return _multiset(tuple([i.at for i in items]))


@functools.lru_cache(maxsize=1 << 14)
def _multiset(ats: tuple[str, ...]) -> tuple[frozenset, tuple]:
    """The multiset of _hexes and its place among exposures, made at once
    (asked several times a fate: ordering, summing up, counting NMCs)."""
    seen: dict[str, int] = {}
    entries = []
    for at in ats:
        n = seen[at] = seen.get(at, 0) + 1
        entries.append((at, n))
    return frozenset(entries), (len(entries), tuple(sorted([(_loc_key(at), n) for at, n in entries])))


def _listed(s) -> list[str]:
    """A multiset of _hexes as its Locations, in hex order."""
    return [at for at, _ in sorted(s, key=_entry_key)]


@functools.lru_cache(maxsize=1 << 12)
def _entry_key(entry):
    return (_loc_key(entry[0]), entry[1])


@functools.lru_cache(maxsize=None)
def _loc_key(at: str):
    h, _, level = at.partition("@")
    return (hexgrid.order_key(h), int(level or 0), at)


def nmcs(f: Fate) -> int:
    """The Interdiction NMCs the DEFENDER may claim on a fate's path (the
    rules' interdiction/3 and optional_interdiction/3 along it)."""
    return len(_hexes(f.interdiction) | _hexes(f.optional_interdiction))


#: the printed order of fate kinds: where it can go first
KIND_ORDER = {"rout": 0, "stay": 1, "surrender": 2, "freed": 3, "eliminated": 4}


def order_fates(fates: list[Fate]) -> list[Fate]:
    """A unit's fates in the order every listing prints and numbers them:
    routs first, destination by destination (the destination a route with
    the fewest Interdiction NMCs reaches first, then hex order), within one
    the best odds first (odds.preference: the route a player takes is the
    destination's first fate; with their odds added, add_summaries), then
    the fewest NMCs (a step before a Low Crawl); then stay, surrender (by captor), freed and
    eliminated. The key reads only what the fates are (Locations compared
    as hexes, unit ids with digits as numbers), never the file's order: the
    numbers are the same in text, JSON, `why-not` and `report --fate`.
    Ordering fates is presentation, not a rules question: no fate is added
    or dropped."""
    from asl_kb.model.common import unit_key

    # (an open board: thousands of fates naming a few units and Locations;
    # each id's and Interdiction's part of the key figured once)
    ids: dict[str, list] = {}
    parts: dict[tuple, tuple] = {}

    def id_key(uid: str):
        k = ids.get(uid)
        if k is None:
            k = ids[uid] = unit_key(uid)
        return k

    def listed(interdictions) -> list:
        out = []
        for i in interdictions:
            k = parts.get((i.at, i.by))
            if k is None:
                k = parts[(i.at, i.by)] = (i.at, [id_key(b) for b in i.by])
            out.append(k)
        return out

    both = [(_hexes_and_key(f.interdiction), _hexes_and_key(f.optional_interdiction)) for f in fates]
    exposures = [(i[0], o[0]) for i, o in both]
    counts = [len(hi | ho) for hi, ho in exposures]
    least: dict[str, int] = {}
    for f, n in zip(fates, counts):
        if f.kind == "rout":
            least[f.at] = min(least.get(f.at, 99), n)
    # (the odds' preferences, tuples of Fractions, ranked once, equal ones
    # alike: a few distinct odds, compared thousands of times in the sort)
    prefs = [_odds_of(f.odds) if f.kind == "rout" else None for f in fates]
    rank: dict = {}
    last: tuple | None = None
    last_odds = None
    for odds in sorted(set(prefs), key=_preference_of):
        p = _preference_of(odds)
        rank[odds] = len(rank) if last is None or p != last else rank[last_odds]
        last, last_odds = p, odds
    keys = [
        (
            KIND_ORDER.get(f.kind, 9),
            least.get(f.at, 0) if f.kind == "rout" else 0,
            id_key(f.captor or ""),
            f.cause or "",
            _loc_key(f.at),
            rank[p],
            n,
            f.low_crawl,
            i[1],
            o[1],
        )
        for f, (i, o), n, p in zip(fates, both, counts, prefs)
    ]
    order = sorted(range(len(fates)), key=keys.__getitem__)
    # the last part of the key, the Interdictors of each Location, only
    # where the rest ties (fates alike but for who Interdicts: few), as
    # the whole key would sort them
    i = 0
    while i < len(order):
        j = i + 1
        while j < len(order) and keys[order[j]] == keys[order[i]]:
            j += 1
        if j - i > 1:
            order[i:j] = sorted(
                order[i:j], key=lambda k: (listed(fates[k].interdiction), listed(fates[k].optional_interdiction))
            )
        i = j
    return [fates[i] for i in order]


def _odds_of(o: Odds | None) -> tuple | None:
    """What preference() reads of a fate's odds (None: none)."""
    return None if o is None else (o.of, o.intact, o.reduced, o.eliminated)


def _preference_of(odds: tuple | None) -> tuple:
    from asl_kb.report.odds import preference_key

    return () if odds is None else preference_key(*odds)


def unit_summary(fates: list[Fate]) -> FateSummary:
    """The summary of one unit's fates (see the module docstring); `fates`
    in the order of order_fates()."""
    by_dest: dict[str, list[tuple[int, Fate]]] = {}
    groups: dict[tuple, list[int]] = {}
    others = []
    for n, f in enumerate(fates, 1):
        if f.kind == "rout":
            by_dest.setdefault(f.at, []).append((n, f))
        else:
            others.append(n)
            groups.setdefault((f.kind, f.captor, f.cause, f.at, f.invokes_no_quarter), []).append(n)
    destinations = []
    for at in by_dest:  # (in fate order: the fewest NMCs first)
        entries = by_dest[at]
        crawls = [n for n, f in entries if f.low_crawl]
        exposure: dict[tuple[frozenset, frozenset], list[int]] = {}
        nmc = []  # (nmcs(f) of each, from its exposure)
        for n, f in entries:
            key = (_hexes(f.interdiction), _hexes(f.optional_interdiction))
            nmc.append(len(key[0] | key[1]))
            if not f.low_crawl:  # (a Low Crawl is listed as one: `crawls`)
                exposure.setdefault(key, []).append(n)
        # dominance: a route is beaten by one whose Interdiction (and optional
        # Interdiction) Locations are subsets of its own, not both equal.
        # Smallest first, each asked only against the unbeaten ones found:
        # one beaten by a route is beaten by an unbeaten one (the smallest
        # route under it), met earlier (an open board: 3,000 routes)
        unbeaten: list = []
        for k in sorted(exposure, key=lambda k: len(k[0]) + len(k[1])):
            if not any(o[0] <= k[0] and o[1] <= k[1] for o in unbeaten):
                unbeaten.append(k)
        unbeaten.sort(key=lambda k: exposure[k][0])
        kept = len(crawls) + sum(len(exposure[k]) for k in unbeaten)
        destinations.append(
            Destination(
                at=at,
                fates=len(entries),
                low_crawl=crawls,
                least_interdiction=len(unbeaten[0][0]) if unbeaten else None,
                unbeaten=[UnbeatenRoute(_listed(k[0]), _listed(k[1]), exposure[k]) for k in unbeaten],
                beaten=len(entries) - kept,
                least_nmcs=min(nmc),
                first=entries[0][0],
            )
        )
    return FateSummary(
        fates=len(fates),
        rout_fates=sum(len(v) for v in by_dest.values()),
        beaten_rout_fates=sum(d.beaten for d in destinations),
        destinations=destinations,
        other_fates=others,
        groups=[FateGroup(kind, at, captor, cause, nq, ns) for (kind, captor, cause, at, nq), ns in groups.items()],
    )


def add_summaries(result, table=None) -> None:
    """Give every unit of the result (and of --voluntary-break) its fates'
    odds (odds.py, from the rules' NmcTable `table`), its fates in printed
    order (order_fates: by those odds within a destination) and its summary."""
    from asl_kb.report.odds import add_odds

    for u in result.units + (result.voluntary_break or []):
        add_odds([u], table)
        u.fates = order_fates(u.fates)
        u.summary = unit_summary(u.fates)
    from asl_kb.report.glance import stacks

    for stack in stacks(result.units):
        if len(stack) > 1:
            for u in stack:
                u.stack = [x.id for x in stack]
