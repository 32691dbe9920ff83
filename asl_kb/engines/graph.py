"""Read each broken unit's fates off its rout graph.

The rules derive the graph (states, edges, leaves) and, at every state, the
Interdiction and the explanation (because/3; an Interdiction's own, once per
Location and Interdictor, joins that of each state entering it). Here the
graph is only walked: for
each leaf, the distinct sets of Interdiction Locations of the paths reaching
it (fates that differ only in path are grouped), with the shortest path as
the example and that path's explanations.
"""

from __future__ import annotations

import functools
from collections import defaultdict

import clingo

from asl_kb.asp import contract
from asl_kb.asp.reader import Answer, text
from asl_kb.board import hexgrid
from asl_kb.model import AbandonedSW, Because, Fate, Interdiction
from asl_kb.record import FrozenRecord, record


@record(frozen=True)
class FateInfo(FrozenRecord):
    """What the whole-phase program reads of a fate (rules: surrenders_where_it_began/1,
    phase_reads/2, needs_quarter/1): a surrender of the unit's stack, the rules
    tying it to others, and whether it needs quarter (A20.3)."""

    began_there: bool
    read_by: frozenset
    needs_quarter: bool = False


#: the explained subjects of an Interdiction a state's entry incurs (the
#: names of the predicates that say it of the state)
_ENTRY = frozenset({"interdiction", "optional_interdiction"})
#: the FateInfo of a fate that no surrender's stack or Guard rule reads
_UNREAD = FateInfo(False, frozenset())

FATE_ORDER = {"rout": 0, "stay": 1, "surrender": 2, "freed": 3, "eliminated": 4}
#: how a state was entered, for those that enter a Location
_ENTERING = {"mv", "fmv", "lc"}
#: paths walked per unit with --all-paths; past it the listing is cut and the
#: result says it is incomplete
MAX_PATHS = 20000


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


def _entered_location(node) -> str | None:
    """The Location a state enters (a step or Low Crawl), else None."""
    if node.name == "rout_state":
        args = node.arguments
        if args[-1].name in _ENTERING:
            return _location(args[1])
    return None


def _leaf_location(leaf):
    if leaf.name in ("stay", "failure_to_rout"):
        return _state_location(leaf.arguments[0])
    if leaf.name in ("surrenders", "rejection", "repulse"):
        return _state_location(leaf.arguments[1])
    return _state_location(leaf)


def unit_of(node) -> str:
    """The unit a state belongs to: the root of its epoch term."""
    if node.name == "designating":
        k = node.arguments[0].arguments[0]
    else:
        k = node.arguments[0]
    while k.name != "at_start":
        k = k.arguments[0]
    return k.arguments[0].string


#: the rank of a unit the rules do not rank (rout_rank/2: the units that rout,
#: ATTACKER 0 first, A10.5): listed after them -- an order of listing, not a
#: rule (rules/rout/A10_5_routing.lp says why it changes no outcome)
UNRANKED = 9


def rank_of(rank: dict, uid: str) -> int:
    """A unit's rout_rank, UNRANKED when the rules give it none."""
    return rank.get(uid, UNRANKED)


def _remember(info: dict, fk: tuple, began: bool, readers, needs: bool) -> None:
    """What the whole-phase rules read of fate `fk` (Graph.info), joined with
    what another path to it said."""
    old = info.get(fk)
    if (
        old is None
        or began
        and not old.began_there
        or readers
        and not old.read_by >= readers
        or needs
        and not old.needs_quarter
    ):
        info[fk] = FateInfo(
            began or (old is not None and old.began_there),
            frozenset(readers or ()) | (old.read_by if old else frozenset()),
            needs or (old is not None and old.needs_quarter),
        )


class Graph:
    """The rout graphs of one answer set."""

    def __init__(self, symbols, growing: bool = False, place=None):
        """The graphs of `symbols`; `growing`: more are added (add()), the
        rout program's groups of units one after the other. `place(hex)`:
        what the position says of a hex, not its name (its terrain, its
        range to each unit): a state's children are walked in the order of
        what they are, not of their hexes' names, so that of several
        shortest paths to one fate the example path -- and the order its
        Interdiction NMCs come in, its odds -- is the same on the board
        turned over (tests/rules/test_mirror.py). None: by the symbols."""
        self.answer = Answer((), growing=growing)
        self._place = place
        #: a state's order among its siblings (_sibling_key), and each term's
        #: part of it (_term_key), figured once
        self._sibling: dict = {}
        self._terms: dict = {}
        self.fate: dict = {}
        self.children: defaultdict = defaultdict(list)
        self.why: defaultdict = defaultdict(list)
        self.ints: defaultdict = defaultdict(list)
        self.opts: defaultdict = defaultdict(list)
        self.unit_why: defaultdict = defaultdict(list)
        #: (interdiction or optional_interdiction, Location, Interdictor) -> its because/3
        self.entry_why: defaultdict = defaultdict(list)
        self.accompany: defaultdict = defaultdict(set)
        self.paths_cut = False
        self.leaves_sw: defaultdict = defaultdict(list)
        #: immediate surrenders (immediate/3): event -> unit -> its fates
        self.events: defaultdict = defaultdict(lambda: defaultdict(set))
        self.llmc: defaultdict = defaultdict(list)
        self._entered: dict = {}
        #: exposures (sets of (Location, Interdictor) pairs) by number, the
        #: number of each, the number of each union met, and each one's
        #: Interdiction list: the fate walk hashes and joins small ints
        self._exposures: list[frozenset] = [frozenset()]
        self._exposure_number: dict[frozenset, int] = {frozenset(): 0}
        self._unions: dict[tuple[int, int], int] = {}
        #: pairs of exposures (Interdiction, optional) by number, the number
        #: of each, and of each pair followed by an entry pair (the walk's)
        self._pairs: list[tuple[int, int]] = [(0, 0)]
        self._pair_number: dict[tuple[int, int], int] = {(0, 0): 0}
        self._steps: dict[tuple[int, int], int] = {}
        self._interdiction_lists: dict[int, tuple] = {}
        self._made_interdictions: dict[tuple, Interdiction] = {}
        self._heads: dict = {}
        #: the explanation pairs of each numbered state, as the walk asks
        self._why_of: dict[int, list] = {}
        self.leaves: set = set()
        self.invokes: dict = {}
        self.guard_after: dict = {}
        self.must: set = set()
        self.may: set = set()
        self.rank: dict = {}
        self.may_break: set = set()
        self.vb: set = set()
        #: A10.41: why no unit may break voluntarily in this phase (rule, reason)
        self.vb_refused: list = []
        #: what the whole-phase program reads of each leaf (A20.3, A20.21, A20.51)
        self.began_there: set = set()
        self.read_by: defaultdict = defaultdict(set)
        self.needs_quarter: set = set()
        #: the units with a state routing with fewer MF (state_mf/3): only
        #: their fates keep the MF spent along the path (Fate.spent, the odds')
        self.mf_units: set = set()
        #: A10.53: each entry of an Open Ground hex is an NMC (nmc_per/1):
        #: a re-entered Location is Interdicted again
        self.per_entry = False
        #: (unit, fate key) -> FateInfo, for the phase program: the fates a
        #: whole-phase rule reads (most fates are read by none: their keys
        #: are listed in `unread`, not hashed into it, and look-ups default
        #: to _UNREAD; merged_info() joins two worlds' as if they were in it)
        self.info: dict = {}
        self.unread: list = []
        self.roots: list = []
        #: the states by number, once the walk needs them (_compile)
        self._syms: list | None = None
        self.add(symbols)

    def add(self, symbols) -> None:
        """Read the shown atoms `symbols` into the graphs (those of a group
        of units: asl_kb/asp/groups.py)."""
        at = self.answer.add(symbols)
        contract.check_relations(self.answer.atoms)
        children = self.children
        parents = set()
        heads = []  # (each link's child: listed, not hashed into a set)
        for s in at["link"]:
            m, n = s.arguments
            children[m].append(n)
            parents.add(m)
            heads.append(n)
        leaves = {s.arguments[1] for s in at["leaf"]}
        self.leaves |= leaves
        for s in at["fate"]:
            self.fate[s.arguments[0]] = s.arguments[1]
        self.invokes.update((s.arguments[0], text(s.arguments[1])) for s in at["invokes_no_quarter"])
        self.guard_after.update((s.arguments[0], text(s.arguments[1])) for s in at["guard_after"])
        self._read_whys(at)
        self._read_units(at)
        new_roots = {
            n
            for group in (parents, leaves, heads)
            for n in group
            if n.name == "rout_state" and n.arguments[-1].name == "start"
        }
        self.roots = sorted(set(self.roots).union(new_roots)) if self.roots else sorted(new_roots)
        for parent in parents:
            kids = children[parent]
            if len(kids) > 1:
                kids.sort(key=self._sibling_key if self._place is not None else None)
        if self._syms is not None:
            self._extend(parents, parents.union(heads, leaves))

    def _read_whys(self, at: dict) -> None:
        """The because/3 of the answer's states and units, and each
        Location's Interdictions (both kinds)."""
        for s in at["because"]:
            subject, rule, reason = s.arguments
            if subject.type == clingo.SymbolType.String:  # a note on a unit's state
                continue
            if subject.name == "rout" and len(subject.arguments) == 1:  # must/may U rout
                self.unit_why[text(subject.arguments[0])].append((rule.string, reason))
            elif subject.name in _ENTRY and len(subject.arguments) == 2:  # an Interdiction
                h, i = subject.arguments
                self.entry_why[(subject.name, text(h), text(i))].append((rule.string, reason))
            else:  # a state of a rout graph, or an immediate surrender's fate
                self.why[subject].append((rule.string, reason))
        # (by entry(K,L,E): the states rout_state(K,L,_,_,_,E), _entry_key)
        for s in at["interdiction"]:
            a = s.arguments
            self.ints[tuple(a[0].arguments)].append((text(a[1]), text(a[2])))
        for s in at["optional_interdiction"]:
            a = s.arguments
            self.opts[tuple(a[0].arguments)].append((text(a[1]), text(a[2])))

    def _read_units(self, at: dict) -> None:
        """What the rules say of each unit: must or may rout, with whom, its
        rank, Voluntary Break, LLMC, abandoned SW, and what the whole-phase
        program reads of its fates."""
        self.must.update(text(s.arguments[0]) for s in at["must_rout"])
        self.may.update(text(s.arguments[0]) for s in at["may_rout"])
        for s in at["may_accompany"]:
            self.accompany[text(s.arguments[0])].add(text(s.arguments[1]))
        self.rank.update((text(s.arguments[0]), s.arguments[1].number) for s in at["rout_rank"])
        self.may_break.update(text(s.arguments[0]) for s in at["may_break"])
        self.vb.update(text(s.arguments[0]) for s in at["vb_candidate"])
        self.vb_refused += [(s.arguments[0].string, s.arguments[1]) for s in at["vb_refused"]]
        for s in at["llmc"]:
            self.llmc[s.arguments[0]].append(text(s.arguments[1]))
        for s in at["leaves_sw"]:
            self.leaves_sw[s.arguments[0]].append(text(s.arguments[1]))
        self.began_there.update(s.arguments[0] for s in at["surrenders_where_it_began"])
        for s in at["phase_reads"]:
            self.read_by[s.arguments[0]].add(s.arguments[1].string)
        self.needs_quarter.update(s.arguments[0] for s in at["needs_quarter"])
        self.mf_units.update(text(s.arguments[0]) for s in at["state_mf"])
        self.per_entry = self.per_entry or any(s.arguments[0].name == "hex_entered" for s in at["nmc_per"])
        for s in at["immediate"]:
            event, unit, f = s.arguments
            self.events[event.name][text(unit)].add(f)

    def _sibling_key(self, sym):
        """A state's place among its siblings: its term with each Location
        read as what the position says of it (place(): the order of the
        symbols, hexes' names aside), the symbol itself last (two siblings
        alike in all but names: a position symmetric about them)."""
        key = self._sibling.get(sym)
        if key is None:
            key = self._sibling[sym] = (self._term_key(sym), sym)
        return key

    def _term_key(self, sym):
        """A term with each Location's hex as place() reads it, in the order
        of clingo's symbols (a number, a term by arity, name and arguments,
        a string), figured once per term."""
        terms = self._terms
        key = terms.get(sym)
        if key is not None:
            return key
        t = sym.type
        if t is clingo.SymbolType.Number:
            key = (0, sym.number)
        elif t is clingo.SymbolType.String:
            key = (2, sym.string)
        else:
            args = sym.arguments
            if sym.name == "loc" and len(args) == 2:
                assert self._place is not None  # (only asked with a place)
                key = (1, 2, "loc", ((2, self._place(args[0].string)), (0, args[1].number)))
            else:
                # (most arguments -- a unit, a number, a Location -- met
                # before: looked up here, not in a call each)
                key = (1, len(args), sym.name, tuple([terms.get(a) or self._term_key(a) for a in args]))
        terms[sym] = key
        return key

    def say(self, reason) -> str:
        return self.answer.say(reason)

    def because(self, pairs) -> list[Because]:
        return self.answer.explain(pairs)

    def _exposure(self, node):
        key = _entry_key(node)
        ints = tuple(sorted((h, i) for h, i in self.ints.get(key, ())))
        opts = tuple(sorted((h, i) for h, i in self.opts.get(key, ())))
        return ints, opts

    def _compile(self):
        """The graph with integer states (hashing a clingo symbol is a C call;
        the walk below hashes states many times)."""
        if self._syms is None:
            # (numbered in any order: the walk goes by the children's order)
            self._syms, self._ids, self._kids, self._exp, self._leaf, self._enter = [], {}, [], [], [], []
            self._extend(self.children.keys(), None)

    def _extend(self, parents, nodes) -> None:
        """Number the states not numbered yet -- `nodes` (None: those of the
        graph, its parents' children and its leaves) and `parents` --, and
        (re)list the children of `parents` (add(): a group's states)."""
        syms, ids = self._syms, self._ids
        assert syms is not None  # (_compile numbers first)
        kids, exp, is_leaf, enter, leaves = self._kids, self._exp, self._leaf, self._enter, self.leaves
        ints, opts, entry, pair = self.ints, self.opts, self._entry, self._pair
        children = self.children

        def number(sym) -> int:
            n = ids.setdefault(sym, len(syms))
            if n == len(syms):
                syms.append(sym)
                kids.append([])
                # (most states are entered without Interdiction: exposure 0;
                # no optional one without a concealed unit: opts empty)
                key = _entry_key(sym)
                i = ints.get(key) if ints else None
                o = opts.get(key) if opts else None
                exp.append(pair(entry(i) if i else 0, entry(o) if o else 0))
                is_leaf.append(sym in leaves)
                enter.append(_entered_location(sym))
            return n

        if nodes is not None:
            for sym in nodes:
                number(sym)
        for sym in parents:
            kids[number(sym)] = [number(c) for c in children.get(sym, ())]
        if nodes is None:
            for sym in leaves:
                number(sym)
        # (a group may say more of a state numbered before: asked again)
        self._why_of.clear()

    def fates(self, root, all_paths: bool):
        """(key, Fate) for each distinct outcome reachable from root."""
        self._compile()
        kids, exp, is_leaf, syms = self._kids, self._exp, self._leaf, self._syms
        assert syms is not None  # (_compile numbers first)
        step, both = self._steps, self._both
        size = len(syms)
        # breadth-first (the list grows as it is walked): the first path found
        # to a (state, exposure) is a shortest one; each kept as the (state,
        # exposure) it came from. A key is one int: exposure * size + state
        # (the exposure numbers both lists, Interdiction and optional, at once)
        start = self._ids[root]
        first = self._enters(root, start=True)
        came: dict[int, int] = {start: -1}
        queue = [start]
        found = []
        for key in queue:
            e, node = divmod(key, size)
            if is_leaf[node]:
                found.append(key)
            for child in kids[node]:
                ce = exp[child]
                if ce:
                    ce = step.get((e, ce)) or both(e, ce)
                else:
                    ce = e
                nk = ce * size + child
                if nk not in came:
                    came[nk] = key
                    queue.append(nk)
        return self._found(root, all_paths, came, found, first)

    def _found(self, root, all_paths: bool, came: dict, found: list, first) -> dict:
        """(key, Fate) of each distinct outcome of the walk from `root`:
        `found` its keys at a leaf, in the order met, `came` the key each
        came from."""
        syms, pairs = self._syms, self._pairs
        assert syms is not None  # (_compile numbers first)
        size = len(syms)
        sets = self._exposures
        paths_of, cut = self._all_paths(root) if all_paths else ({}, False)
        self.paths_cut = self.paths_cut or cut
        out = {}
        unit = unit_of(root)
        with_mf = unit in self.mf_units
        info, began_there, read_by, quarter = self.info, self.began_there, self.read_by, self.needs_quarter
        unread = self.unread
        lists, heads = self._interdiction_lists, self._heads
        for key in found:
            e, n = divmod(key, size)
            i, o = pairs[e]
            leaf = syms[n]
            # the fate's key (Fate.key) from the leaf and the exposures: a Fate
            # is built for the first path of each listed fate only
            head, group = heads.get(leaf) or self._head(leaf)
            il = lists.get(i) or self._interdictions(i)
            ol = lists.get(o) or self._interdictions(o)
            ikey, okey = il[1], ol[1]
            began = leaf in began_there if began_there else False
            readers = read_by.get(leaf) if read_by else None
            if not began and not readers:
                unread.append((unit, head + (ikey, okey)))
            else:
                _remember(info, (unit, head + (ikey, okey)), began, readers, leaf in quarter)
            gk = group + (ikey, okey)
            if gk not in out:
                path = []
                at = key
                while at >= 0:
                    path.append(at % size)
                    at = came[at]
                path.reverse()
                f = self._fate(leaf, il[0], ol[0], path, first)
                if with_mf:  # (what only these units' odds follow)
                    f.spent = [0] + [syms[n].arguments[2].number for n in path[1:] if self._enter[n] is not None]
                if all_paths:
                    f.paths = sorted(p for p in paths_of.get((leaf, sets[i], sets[o]), ()))
                out[gk] = f
        return out

    def _locations(self, path):
        locs = [self._enters(path[0], start=True)]
        for n in path[1:]:
            loc = self._enters(n)
            if loc is not None:
                locs.append(loc)
        return locs

    def _enters(self, node, start=False):
        """The Location a state enters (a step or Low Crawl), else None; with
        `start`, the Location of a start."""
        key = (node, start)
        if key not in self._entered:
            loc = None
            if start and node.name == "rout_state":
                loc = _location(node.arguments[1])
            elif not start:
                loc = _entered_location(node)
            self._entered[key] = loc
        return self._entered[key]

    def _pair(self, ints: int, opts: int) -> int:
        """The number of a pair of exposures (Interdiction, optional)."""
        n = self._pair_number.get((ints, opts))
        if n is None:
            n = self._pair_number[(ints, opts)] = len(self._pairs)
            self._pairs.append((ints, opts))
        return n

    def _both(self, a: int, b: int) -> int:
        """The pair of exposures a followed by the entry pair b, each list
        joined as _join joins it."""
        (i, o), (ci, co) = self._pairs[a], self._pairs[b]
        n = self._steps[(a, b)] = self._pair(self._join(i, ci) if ci else i, self._join(o, co) if co else o)
        return n

    def _entry(self, pairs) -> int:
        """The number of the exposure of entering a state Interdicted by
        `pairs` (Location, Interdictor): each its first entry."""
        return self._number(frozenset((h, i, 1) for h, i in pairs))

    def _number(self, exposure: frozenset) -> int:
        n = self._exposure_number.get(exposure)
        if n is None:
            n = self._exposure_number[exposure] = len(self._exposures)
            self._exposures.append(exposure)
        return n

    def _join(self, a: int, b: int) -> int:
        """The number of exposure a followed by the entry exposure b (see
        _entered_again)."""
        n = self._unions.get((a, b))
        if n is None:
            n = self._unions[(a, b)] = self._number(
                _entered_again(self._exposures[a], self._exposures[b], self.per_entry)
            )
        return n

    def _interdictions(self, number: int) -> tuple:
        """_by_location of the exposure `number` and its part of Fate.key,
        figured once per exposure (they recur from fate to fate)."""
        found = self._interdiction_lists.get(number)
        if found is None:
            listed = tuple(_by_location(self._exposures[number], self._made_interdictions))
            found = self._interdiction_lists[number] = (listed, Fate.exposure_key(listed))
        return found

    def _head(self, leaf) -> tuple[tuple, tuple]:
        """Fate.key's kind, captor, cause, Location and Low Crawl of a leaf,
        and the same as the start of _group_key."""
        head = self._heads.get(leaf)
        if head is None:
            kind = self.fate[leaf]
            captor = cause = ""
            if kind.name == "surrender":
                captor = text(kind.arguments[0])
            elif kind.name == "eliminated":
                cause = kind.arguments[0].name
                if leaf in self.invokes:
                    captor = text(leaf.arguments[0])
            at = _location(_leaf_location(leaf))
            key = (kind.name, captor, cause, at, leaf.name == "rout_state" and leaf.arguments[-1].name == "lc")
            head = self._heads[leaf] = (key, _group_key(key + ((), ()))[:-2])
        return head

    def _lines_of(self, state) -> list:
        """The explanation lines of a state: its own because/3, and that of
        each Interdiction its entry incurs (subject interdiction(H,I) or
        optional_interdiction(H,I), said once per Location and Interdictor)."""
        pairs = list(self.why.get(state, ()))
        key = _entry_key(state)
        for name, table in (("interdiction", self.ints), ("optional_interdiction", self.opts)):
            for h, i in table.get(key, ()):
                pairs += self.entry_why.get((name, h, i), ())
        return self.answer.lines(pairs)

    def _fate(self, leaf, ints: tuple, opts: tuple, path: list[int], first: str) -> Fate:
        """The Fate of a path (state numbers) ending at leaf, Interdicted as
        `ints` and `opts` list (_interdictions); `first`: the Location of its
        start (its MF spent: _found, for the units that need them)."""
        (name, captor, cause, at, low_crawl), _ = self._head(leaf)
        syms, enter = self._syms, self._enter
        assert syms is not None  # (_compile numbers first)
        whys = self._why_of
        lines: list[tuple] = []
        for n in path:
            w = whys.get(n)
            if w is None:
                w = whys[n] = self._lines_of(syms[n])
            lines += w
        f = Fate(
            name,
            at,
            low_crawl=low_crawl,
            path=[first] + [x for n in path[1:] if (x := enter[n]) is not None],
            interdiction=list(ints),
            optional_interdiction=list(opts),
            because=self.answer.explain_lines(lines),
        )
        if name == "surrender":
            f.captor = captor
            f.guard = self.guard_after[leaf]
            f.abandons = [AbandonedSW(sw, at) for sw in sorted(self.leaves_sw.get(leaf, ()))]
        elif name == "eliminated":
            f.cause = cause
            if leaf in self.invokes:
                f.captor = captor
                f.invokes_no_quarter = self.invokes[leaf]
            if leaf in self.llmc:
                f.llmc = sorted(self.llmc[leaf])
        return f

    def _all_paths(self, root):
        """Every path from root to a leaf, by (leaf, exposure): --all-paths."""
        out = defaultdict(set)
        stack: list[tuple] = [(root, (root,), frozenset(), frozenset())]
        count = 0
        while stack and count < MAX_PATHS:
            node, path, ints, opts = stack.pop()
            if node in self.leaves:
                out[(node, ints, opts)].add(tuple(self._locations(path)))
                count += 1
            for child in self.children.get(node, ()):
                ci, co = self._exposure(child)
                stack.append(
                    (
                        child,
                        path + (child,),
                        _entered_again(ints, frozenset((h, i, 1) for h, i in ci), self.per_entry),
                        _entered_again(opts, frozenset((h, i, 1) for h, i in co), self.per_entry),
                    )
                )
        return {k: [list(p) for p in v] for k, v in out.items()}, bool(stack)


def merged_info(*graphs: Graph) -> dict:
    """The FateInfo of every fate of the graphs (Graph.info and .unread),
    a later graph's over an earlier's, as one dict (the phase program reads
    both worlds at once, asl_kb/engines/outcomes.py)."""
    out: dict = {}
    for g in graphs:
        out.update(dict.fromkeys(g.unread, _UNREAD))
        out.update(g.info)
    return out


def _entry_key(state) -> tuple | None:
    """The arguments (K, L, E) of the entry(K,L,E) that interdiction/3 and
    optional_interdiction/3 name a rout state rout_state(K,L,_,_,_,E) by
    (docs/contract.md); None for any other node."""
    if state.name != "rout_state":
        return None
    a = state.arguments
    return (a[0], a[1], a[5])


def _entered_again(before: frozenset, entry: frozenset, per_entry: bool) -> frozenset:
    """Exposure `before` (triples Location, Interdictor, n: the n-th entry of
    that Location) and then the Interdiction of one more Location entered.
    `per_entry`: the rules count one NMC per entry (nmc_per(hex_entered),
    A10.53: rules/rout/A10_53_interdiction.lp), so a re-entry is Interdicted
    again; else once per Location however often entered."""
    if not entry:
        return before
    hexes = {h for h, _, _ in entry}
    again = [n for h, _, n in before if h in hexes]
    if not again:
        return before | entry
    if not per_entry:
        return before | {(h, i, max(n for x, _, n in before if x == h)) for h, i, _ in entry}
    n = max(again) + 1
    return before | {(h, i, n) for h, i, _ in entry}


def _by_location(triples, made: dict | None = None) -> list[Interdiction]:
    """(Location, Interdictor, n) triples as one Interdiction per entry of
    each Location (a Location entered twice is listed twice), in hex order;
    `made`: the Interdictions made before, by Location and units (an open
    board's thousands of exposures name a few)."""
    by: dict[tuple, list] = {}
    for h, unit, n in triples:
        by.setdefault((h, n), []).append(unit)
    made = {} if made is None else made
    out = []
    for k in sorted(by, key=_entry_order):
        units = by[k]
        key = (k[0], tuple(units) if len(units) == 1 else tuple(sorted(units)))
        i = made.get(key)
        if i is None:
            i = made[key] = Interdiction(*key)
        out.append(i)
    return out


@functools.lru_cache(maxsize=1 << 12)
def _entry_order(entry: tuple):
    """An entry (Location, n) of an exposure in hex order."""
    return (hexgrid.order_key(entry[0]), entry[1])


def _group_key(key: tuple):
    """A fate's place in its unit's listing (from its Fate.key): by kind
    (FATE_ORDER), captor, cause, destination in hex order, Low Crawl,
    Interdiction."""
    kind, captor, cause, at, low_crawl, ints, opts = key
    return (FATE_ORDER.get(kind, 9), captor, cause, hexgrid.order_key(at.split("@")[0]), at, low_crawl, ints, opts)


#: the predicates that say something of one state of a rout graph (their
#: first argument), read only along a path from a start to a leaf (an
#: Interdiction, of the states its entry(K,L,E) names: _ENTRY)
_OF_STATE = frozenset({"because"})


def live(symbols) -> list:
    """An answer's shown atoms without the dead ends of its rout graphs:
    each `link` into a state from which no leaf is reached, and what is said
    of such a state (_OF_STATE) -- an Interdiction's explanation too when no
    state left names it --, with each start left with dead ends only
    kept as its own term (it is still one of Graph.roots) --
    a Graph reads its fates off paths from a start to a leaf only, and the
    walk meets a state's live children in the same order with or without
    the dead ones, so two answers whose live atoms are equal give equal
    fates, paths and explanations (the committee's search compares these)."""
    symbols = list(symbols)
    names = [s.name for s in symbols]
    # (each atom's arguments read once: a clingo symbol's are built per call)
    said = [(i, symbols[i].arguments[0]) for i, name in enumerate(names) if name in _OF_STATE]
    links = [(i, symbols[i].arguments) for i, name in enumerate(names) if name == "link"]
    parents = defaultdict(list)
    for _, (m, n) in links:
        parents[n].append(m)
    alive = {symbols[i].arguments[1] for i, name in enumerate(names) if name == "leaf"}
    todo = list(alive)
    while todo:
        for m in parents.get(todo.pop(), ()):
            if m not in alive:
                alive.add(m)
                todo.append(m)
    states = set(parents).union(*parents.values())
    dead = states - alive
    if not dead:
        return symbols
    gone = {i for i, (_, n) in links if n in dead} | {i for i, x in said if x in dead}
    # an Interdiction goes with the last state left that its entry names
    entries = {_entry_key(n) for n in states - dead}
    gone |= {
        i for i, name in enumerate(names) if name in _ENTRY and tuple(symbols[i].arguments[0].arguments) not in entries
    }
    # an Interdiction's own explanation (subject interdiction(H,I)) goes with
    # the last state left that names it
    named = {
        (names[i], x.arguments[1], x.arguments[2])
        for i, x in ((i, symbols[i]) for i, name in enumerate(names) if name in _ENTRY)
        if i not in gone
    }
    gone |= {
        i
        for i, x in said
        if names[i] == "because"
        and x.type is clingo.SymbolType.Function
        and x.name in _ENTRY
        and len(x.arguments) == 2
        and (x.name, *x.arguments) not in named
    }
    starts = [m for m in dead - set(parents) if m.name == "rout_state" and m.arguments[-1].name == "start"]
    return [s for i, s in enumerate(symbols) if i not in gone] + sorted(starts)
