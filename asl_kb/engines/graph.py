"""Read each broken unit's fates off its rout graph.

The rules derive the graph (states, edges, leaves) and, at every state, the
Interdiction and the explanation (because/3). Here the graph is only walked: for
each leaf, the distinct sets of Interdiction Locations of the paths reaching
it (fates that differ only in path are grouped), with the shortest path as
the example and that path's explanations.
"""
from __future__ import annotations

from collections import defaultdict, deque

import clingo

from asl_kb.board import hexgrid

FATE_ORDER = {"rout": 0, "stay": 1, "surrender": 2, "freed": 3, "eliminated": 4}
#: how a state was entered, for those that enter a Location
_ENTERING = {"mv", "fmv", "lc"}
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
    if node.name == "rout_state":
        return node.arguments[1]
    if node.name == "designating":
        return node.arguments[0].arguments[1]
    return None


def _leaf_location(leaf):
    if leaf.name in ("stay", "failure_to_rout"):
        return _state_location(leaf.arguments[0])
    if leaf.name in ("surrenders", "rejection", "repulse"):
        return _state_location(leaf.arguments[1])
    return _state_location(leaf)


def _unit_of(node) -> str:
    """The unit a state belongs to: the root of its epoch term."""
    if node.name == "designating":
        k = node.arguments[0].arguments[0]
    else:
        k = node.arguments[0]
    while k.name != "at_start":
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
        self.guard_after = {}
        self.leaves_sw = defaultdict(list)
        self.event_guard = {"hob": {}, "dis": {}}
        self.event_invokes = {"hob": {}, "dis": {}}
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
            elif name == "because":
                subject = a[0]
                if subject.type == clingo.SymbolType.String:      # a note on a unit's state
                    continue
                if subject.name == "rout" and len(subject.arguments) == 1:   # must/may U rout
                    self.unit_why[_text(subject.arguments[0])].append((a[1], a[2]))
                elif subject.name in ("heat_of_battle", "disrupted"):   # an immediate surrender
                    kind = "hob" if subject.name == "heat_of_battle" else "dis"
                    u, f = subject.arguments
                    self.event_why[kind][(_text(u), f)].append((a[1], a[2]))
                else:                                               # a state of a rout graph
                    self.why[subject].append((a[1], a[2]))
            elif name == "interdiction":
                self.ints[a[0]].append((_text(a[1]), _text(a[2])))
            elif name == "optional_interdiction":
                self.opts[a[0]].append((_text(a[1]), _text(a[2])))
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
            elif name == "guard_after":
                self.guard_after[a[0]] = _text(a[1])
            elif name == "leaves_sw":
                self.leaves_sw[a[0]].append(_text(a[1]))
            elif name in ("hob_guard", "dis_guard"):
                self.event_guard[name[:3]][(_text(a[0]), _text(a[1]))] = True
            elif name in ("hob_invokes", "dis_invokes"):
                self.event_invokes[name[:3]][(_text(a[0]), _text(a[1]))] = a[2].name
        self.roots = sorted(n for n in nodes | self.leaves
                            if n.name == "rout_state" and n.arguments[-1].name == "start")
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

    def _compile(self):
        """The graph with integer states (hashing a clingo symbol is a C call;
        the walk below hashes states many times)."""
        if getattr(self, "_syms", None) is None:
            syms = sorted(set(self.children) | {c for kids in self.children.values() for c in kids} | self.leaves)
            ids = {sym: i for i, sym in enumerate(syms)}
            self._syms, self._ids = syms, ids
            self._kids = [[ids[c] for c in self.children.get(sym, ())] for sym in syms]
            self._exp = [tuple(frozenset(x) for x in self._exposure(sym)) for sym in syms]
            self._leaf = [sym in self.leaves for sym in syms]

    def fates(self, root, all_paths: bool):
        """(key, fate dict) for each distinct outcome reachable from root."""
        self._compile()
        kids, exp, is_leaf, syms = self._kids, self._exp, self._leaf, self._syms
        r = self._ids[root]
        # breadth-first: the first path found to a (state, exposure) is a shortest one
        start = (r, frozenset(), frozenset())
        best = {start: (r,)}
        queue = deque([start])
        found_i = {}
        while queue:
            node, ints, opts = key = queue.popleft()
            path = best[key]
            if is_leaf[node]:
                found_i.setdefault(key, path)
            for child in kids[node]:
                ci, co = exp[child]
                nk = (child, ints | ci if ci else ints, opts | co if co else opts)
                if nk not in best:
                    best[nk] = path + (child,)
                    queue.append(nk)
        found = {(syms[n], i, o): tuple(syms[x] for x in path) for (n, i, o), path in found_i.items()}
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
            if node.name == "rout_state":
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
            f["guard"] = self.guard_after[leaf]
            f["abandons"] = sorted(self.leaves_sw.get(leaf, ()))
        elif kind.name == "eliminated":
            f["cause"] = kind.arguments[0].name
            if leaf in self.invokes:
                f["captor"] = _text(leaf.arguments[0])
                f["invokes_no_quarter"] = self.invokes[leaf]
            if leaf in self.llmc:
                f["llmc"] = sorted(self.llmc[leaf])
        f["at"] = _location(_leaf_location(leaf))
        f["low_crawl"] = leaf.name == "rout_state" and leaf.arguments[-1].name == "lc"
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
