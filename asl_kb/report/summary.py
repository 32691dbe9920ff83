"""The summary of a unit's fates: what a player weighs, per destination.

The rules derive every legal fate; a broken unit in the open may have
thousands of them, because every distinct set of Interdiction Locations on
the way is its own fate. The summary groups the rout fates by destination
and keeps, per destination, the choices a player would weigh:

* the Low Crawl fates (A10.52: they cannot be Interdicted);
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


def _hexes(items) -> frozenset[tuple[str, int]]:
    """The Interdiction Locations of a route as a multiset: (Location, n) for
    its n-th Interdiction there (a route re-entering a Location is
    Interdicted there again, A10.53, and is beaten by the one that does not)."""
    seen: dict[str, int] = {}
    out = set()
    for i in items:
        seen[i.at] = seen.get(i.at, 0) + 1
        out.add((i.at, seen[i.at]))
    return frozenset(out)


def _listed(s) -> list[str]:
    """A multiset of _hexes as its Locations, in hex order."""
    return [at for at, _ in sorted(s, key=_entry_key)]


def _entry_key(entry):
    return (_loc_key(entry[0]), entry[1])


@functools.lru_cache(maxsize=None)
def _loc_key(at: str):
    h, _, level = at.partition("@")
    return (hexgrid.hex_coords(h), int(level or 0), at)


def _set_key(s: frozenset):
    return (len(s), sorted(_entry_key(e) for e in s))


def unit_summary(fates: list[Fate]) -> FateSummary:
    """The summary of one unit's fates (see the module docstring)."""
    by_dest: dict[str, list[tuple[int, Fate]]] = {}
    others = []
    for n, f in enumerate(fates, 1):
        if f.kind == "rout":
            by_dest.setdefault(f.at, []).append((n, f))
        else:
            others.append(n)
    destinations = []
    for at in sorted(by_dest, key=_loc_key):
        entries = by_dest[at]
        crawls = [n for n, f in entries if f.low_crawl]
        exposure: dict[tuple[frozenset, frozenset], list[int]] = {}
        for n, f in entries:
            if not f.low_crawl:
                key = (_hexes(f.interdiction), _hexes(f.optional_interdiction))
                exposure.setdefault(key, []).append(n)
        # dominance: a route is beaten by one whose Interdiction (and optional
        # Interdiction) Locations are subsets of its own, not both equal.
        # Smallest first, each asked only against the unbeaten ones found:
        # one beaten by a route is beaten by an unbeaten one (the smallest
        # route under it), met earlier (an open board: 3,000 routes)
        unbeaten = []
        for k in sorted(exposure, key=lambda k: len(k[0]) + len(k[1])):
            if not any(o[0] <= k[0] and o[1] <= k[1] for o in unbeaten):
                unbeaten.append(k)
        unbeaten.sort(key=lambda k: (_set_key(k[0]), _set_key(k[1])))
        kept = len(crawls) + sum(len(exposure[k]) for k in unbeaten)
        destinations.append(Destination(
            at=at,
            fates=len(entries),
            low_crawl=crawls,
            least_interdiction=len(unbeaten[0][0]) if unbeaten else None,
            unbeaten=[UnbeatenRoute(_listed(k[0]), _listed(k[1]), exposure[k])
                      for k in unbeaten],
            beaten=len(entries) - kept,
        ))
    return FateSummary(
        fates=len(fates),
        rout_fates=sum(len(v) for v in by_dest.values()),
        beaten_rout_fates=sum(d.beaten for d in destinations),
        destinations=destinations,
        other_fates=others,
    )


def add_summaries(result) -> None:
    """Give every unit of the result (and of --voluntary-break) its summary."""
    for u in result.units + (result.voluntary_break or []):
        u.summary = unit_summary(u.fates)


#: unbeaten Interdiction sets shown per destination in the text summary (the
#: others are counted; JSON lists them all)
SETS_SHOWN = 1
WIDTH = 100


def _nums(ns) -> str:
    return "[" + ",".join(str(n) for n in ns) + "]"


def _exposure_text(e: UnbeatenRoute) -> str:
    s = "+".join(e.interdiction)
    if e.optional_interdiction:
        s += (" " if s else "") + "(concealed may Interdict: " + "+".join(e.optional_interdiction) + ")"
    return s + " " + _nums(e.fates)


def _flow(head: str, items: list[str], indent: str) -> list[str]:
    """`head` then the items, comma-separated, wrapped at WIDTH."""
    lines, cur = [], indent + head
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(cur) + 1 + len(piece) > WIDTH and cur.strip():
            lines.append(cur)
            cur = indent + "    " + piece
        else:
            cur += (" " if not cur.endswith(" ") else "") + piece
    lines.append(cur)
    return lines


def summary_lines(s: FateSummary, indent: str = "    ", limit: int | None = None) -> list[str]:
    """The rout part of a unit's summary as text lines (with `limit`, the
    first `limit` destinations)."""
    dests = s.destinations
    if not dests:
        return []
    cut = limit is not None and len(dests) > limit
    if cut:
        dests = dests[:limit]
    n = len(s.destinations)
    out = [indent[:-2] + f"rout: {s.rout_fates} fate{'s' if s.rout_fates != 1 else ''} to "
           f"{n} destination{'s' if n != 1 else ''}, the least Interdiction per destination "
           f"([n]: fate number with --all; (+n): more routes no other route there beats)"]
    crawl = [f"{d.at} {_nums(d.low_crawl)}" for d in dests if d.low_crawl]
    groups: dict[int, list[str]] = {}
    hidden = 0
    for d in dests:
        if not d.unbeaten:
            continue
        k = d.least_interdiction
        least = [e for e in d.unbeaten if len(e.interdiction) == k]
        shown = least[:SETS_SHOWN]
        rest = d.unbeaten[len(shown):]
        hidden += sum(len(e.fates) for e in rest)
        if k == 0:
            text = d.at + " " + " or ".join(_nums(e.fates) if not e.optional_interdiction
                                            else _exposure_text(e) for e in shown)
        else:
            text = d.at + ": " + " or ".join(_exposure_text(e) for e in shown)
        if rest:
            text += f" (+{len(rest)})"
        groups.setdefault(k, []).append(text)
    for k in sorted(groups):
        head = ("free of Interdiction:" if k == 0 else
                f"Interdiction in {k} Location{'s' if k != 1 else ''} at least:")
        out += _flow(head, groups[k], indent)
    if crawl:
        out += _flow("by Low Crawl:", crawl, indent)
    if cut:
        out.append(indent + f"({limit} of {n} destinations listed: --limit)")
        return out
    beaten = s.beaten_rout_fates
    if beaten or hidden:
        parts = []
        if beaten:
            parts.append(f"{beaten} beaten (another route to the same destination has a subset of its Interdiction)")
        if hidden:
            parts.append(f"{hidden} unbeaten (the (+n))")
        out.append(indent + "not listed (--all): " + "; ".join(parts))
    return out
