"""The default text of a unit's fates: where it can go, at what risk, and
why, in at most MAX_LINES lines per unit (or per stack: units in one
Location with the same fates are shown once).

* Explanations once: lines of one rule and reason that differ in one word
  only (the enemy unit, a hex) are one line naming them all ("by GG4, GH5
  or GK4"); the lines a group of fates shares are printed once for it.
* Rout fates grouped by destination, destinations by the fewest
  Interdiction NMCs on the way, with the odds (odds.py) of the best route;
  the other fates grouped by kind, captor, cause and Location.
* Fate numbers are those of the unit's `fates` (the order every listing
  prints, summary.order_fates), as ranges.

Nothing here decides a rules question: it chooses what to print of the
result.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from asl_kb.model import Because, UnitFates
from asl_kb.report.odds import path_order

#: lines per unit (or stack) of the default text, the header included
MAX_LINES = 40
WIDTH = 100
_TOKEN = re.compile(r"(\w[\w@.#-]*)")


# ---------------------------------------------------------------- explanations
def _tokens(says: str) -> list[str]:
    return _TOKEN.split(says)


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def merge_because(because: list[Because]) -> list[Because]:
    """The lines, each said once: lines of one rule and reason whose words
    differ in one word only become one line naming every such word (in the
    order met), at the place of the first."""
    buckets: list[tuple[Because, list[str], int | None, list[str]]] = []  # line, tokens, varying index, words
    seen: set[tuple[str, str]] = set()
    for b in because:
        if (b.rule, b.says) in seen:
            continue
        seen.add((b.rule, b.says))
        toks = _tokens(b.says)
        for i, (first, ftoks, at, words) in enumerate(buckets):
            if first.rule != b.rule or first.reason != b.reason or len(ftoks) != len(toks):
                continue
            diff = [k for k, (x, y) in enumerate(zip(ftoks, toks)) if x != y]
            if len(diff) == 1 and (at is None or diff[0] == at):
                buckets[i] = (first, ftoks, diff[0], words + [toks[diff[0]]])
                break
        else:
            buckets.append((b, toks, None, []))
    out = []
    for first, toks, at, words in buckets:
        if at is None:
            out.append(first)
        else:
            merged = list(toks)
            merged[at] = _or([toks[at]] + words)
            out.append(Because(first.rule, "".join(merged), first.reason))
    return out


def _common(lists: list[list[Because]]) -> list[Because]:
    """The lines every list has (in the first list's order)."""
    rest = [set((b.rule, b.says) for b in bs) for bs in lists[1:]]
    return [b for b in lists[0] if all((b.rule, b.says) in r for r in rest)]


def _because(because: list[Because], indent: str) -> list[str]:
    return [f"{indent}[{b.rule}] {b.says}" for b in merge_because(because)]


# ---------------------------------------------------------------- stacks
def stacks(units: list[UnitFates]) -> list[list[UnitFates]]:
    """Units in one Location with the same fates (kind, end, captor, cause,
    Low Crawl, Interdiction) and the same must/may rout, as stacks (in the
    order of the first of each); a unit alone is a stack of one."""
    out: dict[tuple, list[UnitFates]] = {}
    shared: dict[str, int] = {}
    for u in units:
        shared[u.at] = shared.get(u.at, 0) + 1
    for u in units:
        # (alone in its Location: a stack of one, its fates' keys not asked)
        key = (u.at, u.must_rout, u.may_rout, tuple(f.key for f in u.fates)) if shared[u.at] > 1 else (u.at,)
        out.setdefault(key, []).append(u)
    return list(out.values())


# ---------------------------------------------------------------- numbers
def ranges(ns: list[int]) -> str:
    """[1-4,7]: fate numbers as ranges."""
    parts, i = [], 0
    while i < len(ns):
        j = i
        while j + 1 < len(ns) and ns[j + 1] == ns[j] + 1:
            j += 1
        parts.append(str(ns[i]) if i == j else f"{ns[i]}-{ns[j]}")
        i = j + 1
    return "[" + ",".join(parts) + "]"


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


# ---------------------------------------------------------------- odds
def odds_text(o, where: bool = True) -> str:
    """intact 15/36 (42%), reduced 14/36, pinned 6/36 in F2, eliminated 1/36
    (Morale Level 7): exact chances in 6^K (36^n for n NMCs alone); `where`:
    name the Locations of the pins and stops."""
    of = o.of
    parts = [f"intact {o.intact}/{of} ({round(100 * o.intact / of)}%)"]
    if o.reduced:
        parts.append(f"reduced {o.reduced}/{of}")
    for word, items in (("pinned", o.pinned), ("stopped", o.stopped or ())):
        n = sum(p.ways for p in items)
        if n:
            parts.append(f"{word} {n}/{of}" + (f" in {', '.join(p.at for p in items)}" if where else ""))
    if o.eliminated:
        parts.append(f"eliminated {o.eliminated}/{of}")
    return ", ".join(parts) + morale_words({"morale": o.morale, "morale_from": o.morale_from})


def morale_words(o: dict, opening: str = " (", closing: str = ")") -> str:
    """The Morale Level the odds' NMCs are taken on (A10.4), as the odds
    (or their JSON) give it: " (Morale Level 7)", " (Morale Level 7, given)"."""
    if o.get("morale") is None:
        return ""
    return f"{opening}Morale Level {o['morale']}{', given' if o.get('morale_from') == 'given' else ''}{closing}"


def _odds_sig(o):
    if o is None:
        return None
    stopped = sum(p.ways for p in o.stopped or ())
    return (o.of, o.intact, o.reduced, sum(p.ways for p in o.pinned), stopped, o.eliminated, o.morale)


# ---------------------------------------------------------------- fates
def unit_lines(stack: list[UnitFates], limit: int | None = None, verb=None, head: bool = True) -> list[str]:
    """The default text of one unit or stack (at most MAX_LINES lines);
    without `head`, only its fates (the caller said who and why)."""
    u = stack[0]
    ids = ", ".join(x.id for x in stack)
    state = "must rout" if u.must_rout else "may rout" if u.may_rout else "may not rout"
    if verb is not None:
        state = verb(u)
    who = f"{ids} ({u.side}) in {u.at}" + (", a stack with the same fates" if len(stack) > 1 else "")
    out = [f"{who}: {state}"]
    common = _common([x.because for x in stack])
    out += _because(common, "    ")
    if len(stack) > 1:
        shared = {(b.rule, b.says) for b in common}
        for x in stack:
            own = [b for b in x.because if (b.rule, b.says) not in shared]
            out += [f"    {x.id} only: [{b.rule}] {b.says}" for b in merge_because(own)]
    # a leader who may rout with the unit (A10.711) is one of its because
    # lines above, in the rules' words (rules/rout/explain.lp may_accompany)
    if u.inconsistent:
        out.append("    NO LEGAL OUTCOME: the rules as encoded leave this unit nothing to do")
        return out if head else out[-1:]
    if not head:
        out = []
    s = u.summary
    assert s is not None  # add_summaries gave every unit its summary
    kinds: dict[str, int] = {}
    for f in u.fates:
        kinds[f.kind] = kinds.get(f.kind, 0) + 1
    out.append(
        f"  {s.fates} fate{'s' if s.fates != 1 else ''}: "
        + ", ".join(
            f"{n} {KIND_WORDS.get(k, k) if n != 1 else k}"
            + (f" to {len(s.destinations)} destination{'s' if len(s.destinations) != 1 else ''}" if k == "rout" else "")
            for k, n in kinds.items()
        )
        + " (numbers as `--all` lists them)"
    )
    others = _groups(u, stack)
    # the routs first (where it can go), then the other fates, within MAX_LINES
    n_others = sum(len(g) for g in others)
    budget = MAX_LINES - len(out) - min(n_others, MAX_LINES // 3)
    out += _routs(stack, max(budget, 6), limit)
    for g in others:
        last = g is others[-1]
        room = MAX_LINES - len(out) - (0 if last else 1)  # (a line kept for the note)
        if len(g) > room:
            room = MAX_LINES - len(out) - 1
            keep = max(room, 0)
            out += g[:keep]
            rest = len(g) - keep + sum(len(h) for h in others[others.index(g) + 1 :])
            out.append(f"  (+{rest} more line{'s' if rest != 1 else ''} of the other fates: --all)")
            break
        out += g
    return out


#: explanation lines of one group of fates at most (the rest: --all)
GROUP_BECAUSE = 6
KIND_WORDS = {
    "rout": "routs",
    "stay": "stay",
    "surrender": "surrenders",
    "freed": "freed",
    "eliminated": "eliminations",
}


#: reasons that detail a route, not a group of fates: a group's lines leave
#: them out (every fate lists them with --all; its odds say what they risk)
ROUTE_DETAIL = {"interdicted", "may_interdict"}


def _group_words(kind: str, cause, fates) -> str:
    captors = list(dict.fromkeys(f.captor for f in fates if f.captor))
    ats = list(dict.fromkeys(f.at for f in fates))
    where = _or(ats)
    if kind == "surrender":
        guard = (
            (f" ({fates[0].guard} becomes its Guard)" if fates[0].guard else "")
            if len(captors) == 1
            else " (the captor becomes its Guard)"
        )
        return f"surrender to {_or(captors)} in {where}{guard}"
    if kind == "freed":
        return f"surrender to {_or(captors)} in {where}, freed as Unarmed for lack of Guard capacity"
    if kind == "eliminated":
        line = f"eliminated ({(cause or '').replace('_', ' ')}"
        if captors:
            sides = list(dict.fromkeys(f.invokes_no_quarter for f in fates if f.invokes_no_quarter))
            line += f": {_or(captors)} rejects the surrender, No Quarter for the {_or(sides)} side"
        line += f") in {where}"
        llmc = sorted({x for f in fates for x in f.llmc or ()})
        return line + ("; LLMC for " + ", ".join(llmc) if llmc else "")
    return f"{kind} in {where}"


def _groups(u: UnitFates, stack: Sequence[UnitFates] = ()) -> list[list[str]]:
    """The fates other than routs, grouped by what a player tells apart
    (kind and cause; the captors and Locations named together), each with
    its explanations once: a list of lines per group. The other units of
    a stack add what differs for them (a leader's LLMC, A10.2)."""
    merged: dict[tuple, list[int]] = {}
    assert u.summary is not None  # add_summaries gave every unit its summary
    for g in u.summary.groups or ():
        merged.setdefault((g.kind, g.cause), []).extend(g.fates)
    out = []
    for (kind, cause), nums in merged.items():
        nums.sort()
        fates = [u.fates[n - 1] for n in nums]
        lines = [
            f"  {ranges(nums)} {_group_words(kind, cause, fates)}"
            + (
                f" ({len(fates)} fates: paths of different Interdiction)"
                if len(fates) > len({(f.captor, f.at) for f in fates})
                else ""
            )
        ]
        # a fate reached through Interdiction: the odds of getting there (the
        # first such fate: the fewest NMCs, as the listing orders them)
        through = next(((n, f) for n, f in zip(nums, fates) if f.odds is not None and f.odds.nmcs), None)
        if through is not None:
            lines.append(f"       odds of reaching it [{through[0]}]: {odds_text(through[1].odds)}")
        because = merge_because([b for f in fates for b in f.because if b.reason not in ROUTE_DETAIL])
        cut = len(because) - GROUP_BECAUSE
        lines += [f"       [{b.rule}] {b.says}" for b in because[:GROUP_BECAUSE]]
        if cut > 0:
            lines.append(f"       (+{cut} more explanation line{'s' if cut != 1 else ''}: --all)")
        said = {(b.rule, b.says) for f in fates for b in f.because}
        for x in stack[1:]:
            own = [x.fates[n - 1] for n in nums]
            words, first = _group_words(kind, cause, own), _group_words(kind, cause, fates)
            if words != first:
                lines.append(
                    f"       {x.id}: " + (words[len(first) :].lstrip("; ") if words.startswith(first) else words)
                )
            extra = merge_because(
                [b for f in own for b in f.because if b.reason not in ROUTE_DETAIL and (b.rule, b.says) not in said]
            )
            lines += [f"       {x.id} only: [{b.rule}] {b.says}" for b in extra[:2]]
        out.append(lines)
    return out


def _nmcs_head(u: UnitFates, k: int, ds: list) -> str:
    """The head of a group of destinations `ds` reached through `k` NMCs:
    whose."""
    if k == 0:
        return "no NMC:"
    by = sorted({x for d in ds for i in u.fates[d.first - 1].interdiction for x in i.by})
    may = sorted({x for d in ds for i in u.fates[d.first - 1].optional_interdiction for x in i.by})
    who = (
        (f"by {_or(by)}" if by else "")
        + ("; " if by and may else "")
        + (f"concealed {_or(may)} may drop concealment to Interdict" if may else "")
    )
    return f"{k} NMC{'s' if k != 1 else ''} ({who}):"


def _group_odds(stack: list[UnitFates], d) -> list[str]:
    """The odds of each unit of the stack (and with each leader) along the
    best route to the group's first destination `d`."""
    odds = []
    for x in stack:
        o = x.fates[d.first - 1].odds
        if o is not None:
            odds.append(f"      {x.id + ': ' if len(stack) > 1 else ''}{odds_text(o, False)}")
        for w in x.fates[d.first - 1].odds_with_leader or ():
            odds.append(f"      {x.id} with {w.with_leader}: {odds_text(w, False)}")
    return odds


def _destination(u: UnitFates, d, k: int) -> str:
    """A destination as a group lists it: its best route's Interdiction
    Locations, its fate's number and how many more reach it."""
    f = u.fates[d.first - 1]
    via = path_order(f)
    item = d.at + (" by Low Crawl" if f.low_crawl else "") + (f" via {'+'.join(via)}" if via else "")
    if not f.low_crawl and k == 0 and d.low_crawl:
        item += " (or by Low Crawl)"
    more = d.fates - 1
    return f"{item} [{d.first}]" + (f" (+{more})" if more else "")


def _routs(stack: list[UnitFates], budget: int, limit: int | None) -> list[str]:
    """The rout destinations grouped by the odds of their best route, fewest
    NMCs first, within `budget` lines."""
    u = stack[0]
    assert u.summary is not None  # add_summaries gave every unit its summary
    dests = u.summary.destinations
    if not dests:
        return []
    shown_dests = dests if limit is None else dests[:limit]
    groups: dict[tuple, list] = {}
    for d in shown_dests:
        best = [x.fates[d.first - 1] for x in stack]
        sig = (d.least_nmcs, tuple(_odds_sig(f.odds) for f in best))
        groups.setdefault(sig, []).append(d)
    out = [
        "  rout, the best route to each destination, fewest Interdiction NMCs first "
        "(odds if every NMC the DEFENDER may claim is taken):"
    ]
    left = len(shown_dests)
    used = 1
    for (k, _), ds in groups.items():
        head = _nmcs_head(u, k, ds)
        odds = _group_odds(stack, ds[0]) if k else []
        items = [_destination(u, d, k) for d in ds]
        lines = _flow(head, items, "    ") + odds
        if used + len(lines) > budget - 1:
            # the room left: as many of this group's destinations as fit
            room = budget - 1 - used - len(odds)
            n = len(items)
            while n and len(_flow(head, items[:n], "    ")) > room:
                n -= 1
            if n:
                out += _flow(head, items[:n], "    ") + odds
                left -= n
            break
        out += lines
        used += len(lines)
        left -= len(ds)
    listed = len(shown_dests) - left
    if limit is not None and len(shown_dests) < len(dests):
        out.append(f"    ({listed} of {len(dests)} destinations listed: --limit)")
    elif left:
        out.append(f"    (+{left} more destination{'s' if left != 1 else ''}, with as many NMCs or more: --all)")
    return out
