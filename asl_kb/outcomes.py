"""Read each broken unit's fates off its rout graph.

The rules derive the graph (states, edges, leaves) and, at every state, the
Interdiction and the explanation (why/3). Here the graph is only walked: for
each leaf, the distinct sets of Interdiction Locations of the paths reaching
it (fates that differ only in path are grouped), with the shortest path as
the example and that path's explanations.
"""
from __future__ import annotations

import dataclasses
from collections import defaultdict, deque

import clingo

from . import hexgrid
from .facts import position_facts
from . import prisoners
from .phase import MAX_OUTCOMES, MAX_SECONDS, Phase, fate_key
from .solve import solve

FATE_ORDER = {"rout": 0, "stay": 1, "surrender": 2, "freed": 3, "eliminated": 4}
#: how a state was entered, for those that enter a Location
_ENTERING = {"mv", "fmv", "lc"}
#: whole-phase outcomes listed when --limit is not given (all are counted)
DEFAULT_PHASE_LISTING = 100
#: paths walked per unit with --all-paths; past it the listing is cut and the
#: result says it is incomplete
MAX_PATHS = 20000


def _text(sym) -> str:
    """A term as a player reads it: strings bare, numbers as numbers."""
    if sym.type == clingo.SymbolType.String:
        return sym.string
    if sym.type == clingo.SymbolType.Number:
        return str(sym.number)
    return str(sym)


def _location(sym) -> str:
    h, level = sym.arguments
    return h.string if level.number == 0 else f"{h.string}@{level.number}"


def _state_location(node):
    """The Location of a state of the graph, or None for a leaf term."""
    if node.name == "n":
        return node.arguments[1]
    if node.name == "pq":
        return node.arguments[0].arguments[1]
    return None


def _leaf_location(leaf):
    if leaf.name in ("stay", "ftr"):
        return _state_location(leaf.arguments[0])
    if leaf.name in ("sur", "rej", "rp"):
        return _state_location(leaf.arguments[1])
    return _state_location(leaf)


def _unit_of(node) -> str:
    """The unit a state belongs to: the root of its epoch term."""
    if node.name == "pq":
        k = node.arguments[0].arguments[0]
    else:
        k = node.arguments[0]
    while k.name != "k0":
        k = k.arguments[0]
    return k.arguments[0].string


def _rule_sort(item):
    rule, says = item
    parts = rule.lstrip("ABCDEFG").split(".")
    return ([int(x) if x.isdigit() else 0 for x in parts], rule, says)


class Graph:
    """The rout graphs of one answer set."""

    def __init__(self, symbols):
        self.says, self.fate = {}, {}
        self.children = defaultdict(list)
        self.why = defaultdict(list)
        self.ints = defaultdict(list)
        self.opts = defaultdict(list)
        self.unit_why = defaultdict(list)
        self.must, self.may, self.leaves = set(), set(), set()
        self.accompany = defaultdict(set)
        self.may_break, self.vb = set(), set()
        self.rank = {}
        self.paths_cut = False
        self.invokes = {}
        self.abandons = defaultdict(list)
        self.events = {"hob": defaultdict(set), "dis": defaultdict(set)}
        self.event_why = {"hob": defaultdict(list), "dis": defaultdict(list)}
        self.llmc = defaultdict(list)
        self._said, self._entered = {}, {}
        nodes = set()
        for s in symbols:
            a = s.arguments
            name = s.name  # one C call, not one per test below
            if name == "link":
                self.children[a[0]].append(a[1])
                nodes.update(a)
            elif name == "leaf":
                self.leaves.add(a[1])
            elif name == "fate":
                self.fate[a[0]] = a[1]
            elif name == "invokes_no_quarter":
                self.invokes[a[0]] = _text(a[1])
            elif name == "why":
                self.why[a[0]].append((a[1], a[2]))
            elif name == "int_here":
                self.ints[a[0]].append((_text(a[1]), _text(a[2])))
            elif name == "opt_int_here":
                self.opts[a[0]].append((_text(a[1]), _text(a[2])))
            elif name == "unit_because":
                self.unit_why[_text(a[0])].append((a[1], a[2]))
            elif name == "must_rout":
                self.must.add(_text(a[0]))
            elif name == "may_rout":
                self.may.add(_text(a[0]))
            elif name == "may_accompany":
                self.accompany[_text(a[0])].add(_text(a[1]))
            elif name == "says":
                self.says[a[0].name] = a[1].string
            elif name == "rout_rank":
                self.rank[_text(a[0])] = a[1].number
            elif name == "may_break":
                self.may_break.add(_text(a[0]))
            elif name == "vb_candidate":
                self.vb.add(_text(a[0]))
            elif name == "llmc":
                self.llmc[a[0]].append(_text(a[1]))
            elif name in ("hob_fate", "dis_fate"):
                self.events[name[:3]][_text(a[0])].add(a[1])
            elif name in ("hob_why", "dis_why"):
                self.event_why[name[:3]][(_text(a[0]), a[1])].append((a[2], a[3]))
            elif name == "abandons":
                self.abandons[_text(a[0])].append(_text(a[1]))
        self.roots = sorted(n for n in nodes | self.leaves
                            if n.name == "n" and n.arguments[-1].name == "start")
        for kids in self.children.values():
            kids.sort()

    def say(self, reason) -> str:
        said = self._said.get(reason)
        if said is None:
            said = _text(reason)
            if reason.type == clingo.SymbolType.Function:
                template = self.says.get(reason.name)
                if template is not None:
                    said = template.format(*[_text(x) for x in reason.arguments])
            self._said[reason] = said
        return said

    def because(self, pairs) -> list[dict]:
        items = {(rule.string, self.say(reason)) for rule, reason in pairs}
        return [{"rule": r, "says": s} for r, s in sorted(items, key=_rule_sort)]

    def _exposure(self, node):
        ints = tuple(sorted((h, i) for h, i in self.ints.get(node, ())))
        opts = tuple(sorted((h, i) for h, i in self.opts.get(node, ())))
        return ints, opts

    def fates(self, root, all_paths: bool):
        """(key, fate dict) for each distinct outcome reachable from root."""
        # breadth-first: the first path found to a (state, exposure) is a shortest one
        start = (root, frozenset(), frozenset())
        best = {start: (root,)}
        queue = deque([start])
        found = {}
        while queue:
            node, ints, opts = key = queue.popleft()
            path = best[key]
            if node in self.leaves:
                found.setdefault((node, ints, opts), path)
            for child in self.children.get(node, ()):
                ci, co = self._exposure(child)
                nk = (child, ints | set(ci), opts | set(co))
                if nk not in best:
                    best[nk] = path + (child,)
                    queue.append(nk)
        paths_of, cut = self._all_paths(root) if all_paths else ({}, False)
        self.paths_cut = self.paths_cut or cut
        out = {}
        for (leaf, ints, opts), path in found.items():
            f = self._fate(leaf, ints, opts, path)
            key = _group_key(f)
            if key not in out:
                if all_paths:
                    f["paths"] = sorted(p for p in paths_of.get((leaf, ints, opts), ()))
                out[key] = f
        return out

    def _locations(self, path):
        locs = [self._enters(path[0], start=True)]
        for n in path[1:]:
            loc = self._enters(n)
            if loc is not None:
                locs.append(loc)
        return locs

    def _enters(self, node, start=False):
        """The Location a state enters (a step or Low Crawl), else None."""
        key = (node, start)
        if key not in self._entered:
            loc = None
            if node.name == "n":
                args = node.arguments
                if start or args[-1].name in _ENTERING:
                    loc = _location(args[1])
            self._entered[key] = loc
        return self._entered[key]

    def _fate(self, leaf, ints, opts, path):
        kind = self.fate[leaf]
        f = {"fate": kind.name}
        if kind.name == "surrender":
            f["captor"] = _text(kind.arguments[0])
        elif kind.name == "eliminated":
            f["cause"] = kind.arguments[0].name
            if leaf in self.invokes:
                f["captor"] = _text(leaf.arguments[0])
                f["invokes_no_quarter"] = self.invokes[leaf]
            if leaf in self.llmc:
                f["llmc"] = sorted(self.llmc[leaf])
        f["at"] = _location(_leaf_location(leaf))
        f["low_crawl"] = leaf.name == "n" and leaf.arguments[-1].name == "lc"
        f["path"] = self._locations(path)
        by_hex = lambda pairs: sorted(
            ({"at": h, "by": sorted({i for hh, i in pairs if hh == h})} for h in {h for h, _ in pairs}),
            key=lambda d: hexgrid.hex_coords(d["at"]))
        f["interdiction"] = by_hex(ints)
        f["optional_interdiction"] = by_hex(opts)
        f["because"] = self.because(w for n in path for w in self.why.get(n, ()))
        return f

    def _all_paths(self, root):
        """Every path from root to a leaf, by (leaf, exposure): --all-paths."""
        out = defaultdict(set)
        stack = [(root, (root,), frozenset(), frozenset())]
        count = 0
        while stack and count < MAX_PATHS:
            node, path, ints, opts = stack.pop()
            if node in self.leaves:
                out[(node, ints, opts)].add(tuple(self._locations(path)))
                count += 1
            for child in self.children.get(node, ()):
                ci, co = self._exposure(child)
                stack.append((child, path + (child,), ints | set(ci), opts | set(co)))
        return {k: [list(p) for p in v] for k, v in out.items()}, bool(stack)


def _group_key(f):
    return (FATE_ORDER.get(f["fate"], 9), f.get("captor", ""), f.get("cause", ""),
            hexgrid.hex_coords(f["at"].split("@")[0]), f["at"], f["low_crawl"],
            tuple((i["at"], tuple(i["by"])) for i in f["interdiction"]),
            tuple((i["at"], tuple(i["by"])) for i in f["optional_interdiction"]))


def routing_order(position, graph) -> list:
    """The broken units in the order the rules rank them (A10.5: ATTACKER
    first), then as written."""
    broken = [u for u in position.units if "broken" in u.status]
    return sorted(broken, key=lambda u: graph.rank.get(u.id, 9))


def _solve_units(position, voluntary_break=False, all_paths=False):
    concealed = sum(1 for u in position.units if "concealed" in u.status)
    symbols, stats = solve(position_facts(position, voluntary_break), concealed)
    g = Graph(symbols)
    roots = {_unit_of(r): r for r in g.roots}
    return g, roots, _units(g, roots, routing_order(position, g), all_paths), stats


def outcomes(position, all_paths: bool = False, voluntary_break: bool = False,
             phase: bool = False, limit: int | None = None) -> dict:
    g, roots, units, stats = _solve_units(position, voluntary_break, all_paths)
    result = {"position": position.name, "rules": position.rules, "complete": not g.paths_cut,
              "units": units}
    incomplete = []
    if g.paths_cut:
        incomplete.append(f"--all-paths: more than {MAX_PATHS} paths for a unit; the path lists are cut")
    # A rejected surrender invokes No Quarter for the later units (A20.3): for
    # the whole-phase listing their fates are asked again with No Quarter in
    # force. (Which surrenders a Guard's capacity may free needs no second
    # solve: a rejection only lowers the loads, so every unit freed in some
    # outcome is freed in one without rejections.)
    rejectable = any("invokes_no_quarter" in f for u in units for f in u["fates"])
    surrenders = any(f["fate"] == "surrender" for u in units for f in u["fates"])
    world1 = None
    if rejectable and phase:
        nq_all = tuple(sorted({u.side for u in position.units}))
        _, _, world1, stats1 = _solve_units(dataclasses.replace(position, no_quarter=nq_all),
                                            all_paths=all_paths)
        stats.ground_seconds += stats1.ground_seconds
        stats.solve_seconds += stats1.solve_seconds
    if surrenders or phase:
        ph = Phase(position, units, world1, g.accompany)
        _annotate_surrenders(units, g, ph, ph.brave())
        if phase:
            shown = DEFAULT_PHASE_LISTING if limit is None else limit
            count, listed, done = ph.enumerate(shown)
            free = 1
            for uid in ph.independent:
                free *= len(ph.fates[uid])
            result["phase"] = {
                "count": count * free if done else None,
                "independent": [{"unit": uid, "fates": len(ph.fates[uid])} for uid in ph.independent],
                "voluntary_rout": [{"leader": l, "with_one_of": sorted(us)} for l, us in sorted(ph.leaders.items())],
                "outcomes": listed,
            }
            if not done:
                incomplete.append(f"--phase: more than {MAX_OUTCOMES} whole-phase outcome classes, "
                                  f"or {MAX_SECONDS:.0f} s spent: the count is unknown and the list is cut")
    if g.events["hob"]:
        result["heat_of_battle"] = _immediate(position, g, "hob")
    if g.events["dis"]:
        result["disrupted"] = _immediate(position, g, "dis")
    if prisoners.relevant(position):
        result["prisoners"] = {"phase": position.phase, **prisoners.solve_prisoners(position)}
    if voluntary_break:
        asked = [u for u in position.units if u.id in g.vb]
        result["voluntary_break"] = [
            {**entry, "may_break": entry["id"] in g.may_break}
            for entry in _units(g, roots, asked, all_paths)]
    if incomplete:
        result["complete"] = False
        result["incomplete_because"] = incomplete
    result["_stats"] = stats
    return result


_EVENT_ORDER = {"surrender": 0, "rejected": 1, "berserk": 2, "broken_disrupted": 3,
                "routs_in_its_rtph": 4, "no_surrender": 5}


def _immediate(position, g, kind) -> list[dict]:
    """The outcomes of an immediate surrender: a unit's Final Heat of Battle
    DR (kind "hob": A15.5, A20.21) or a Disrupted unit entered by the enemy
    outside the RtPh (kind "dis": A19.12)."""
    out = []
    for u in position.units:
        if u.id not in g.events[kind]:
            continue
        fates = []
        for f in sorted(g.events[kind][u.id], key=lambda f: (_EVENT_ORDER.get(f.name, 9), str(f))):
            entry = {"fate": f.name}
            if f.name == "surrender":
                entry["captor"] = entry["guard"] = _text(f.arguments[0])
            elif f.name == "rejected":
                entry = {"fate": "eliminated", "cause": "no_quarter", "captor": _text(f.arguments[0]),
                         "invokes_no_quarter": next(x.side for x in position.units if x.id == _text(f.arguments[0]))}
            entry["because"] = g.because(g.event_why[kind].get((u.id, f), ()))
            fates.append(entry)
        entry = {"id": u.id, "side": u.side, "at": u.location, "fates": fates}
        if kind == "hob":
            entry["final_dr"] = u.heat_of_battle
        out.append(entry)
    return out


def _annotate_surrenders(units, g, ph, freed):
    """Each surrender fate names its Guard and the SW left behind (A20.5,
    A20.24); a surrender that some legal whole-phase outcome frees for lack of
    Guard capacity adds the fate `freed` (A20.21, A20.51)."""
    for u in units:
        ids = {fate_key(f): i for i, f in enumerate(ph.fates.get(u["id"], ()))}
        extra = []
        for f in u["fates"]:
            if f["fate"] != "surrender":
                continue
            f["guard"] = f["captor"]
            f["abandons"] = [{"sw": k, "at": f["at"]} for k in sorted(g.abandons.get(u["id"], ()))]
            why = freed.get((u["id"], ids.get(fate_key(f))))
            if why:
                v = {k: val for k, val in f.items() if k != "guard"}
                v["fate"] = "freed"
                v["because"] = f["because"] + why
                extra.append(v)
        u["fates"].extend(extra)


def _units(g, roots, order, all_paths):
    units = []
    for u in order:
        found = g.fates(roots[u.id], all_paths) if u.id in roots else {}
        fates = []
        for key in sorted(found):
            f = found[key]
            f["path"][0] = u.location
            fates.append(f)
        entry = {"id": u.id, "side": u.side, "at": u.location,
                 "must_rout": u.id in g.must, "may_rout": u.id in g.may,
                 "because": g.because(g.unit_why.get(u.id, ())), "fates": fates}
        if g.accompany.get(u.id):
            entry["voluntary_rout"] = sorted(g.accompany[u.id])
        if not fates:
            entry["inconsistent"] = True  # no legal outcome: a question for the rules committee
        units.append(entry)
    return units
