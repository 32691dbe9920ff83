"""The whole Rout Phase: combine the units' fates (rules/phase.lp).

Each broken unit's fates come from its rout graph twice: as the position
gives No Quarter (world 0) and with every side having invoked it (world 1,
asked only when some unit's turn may follow a rejection: the phase program
says so, may_follow_rejection). The phase program picks one
fate per unit; its constraints (A20.3, A20.21, A20.51) decide which
combinations are legal. Here the facts are written and the answer sets read.

A unit that has no surrender among its fates and the same fates in both
worlds is touched by no constraint: its fate is independent of the others'.
Such units are left out of the enumeration and only counted (the phase count
is the product), so the count of a phase with forty ordinary routs stays a
multiplication, not forty nested loops.
"""

from __future__ import annotations

import itertools
import time

import clingo

from asl_kb import budget
from asl_kb.asp.facts import loc, q, switch_facts
from asl_kb.asp.reader import Answer, reason_kind
from asl_kb.engines.graph import FateInfo, rank_of
from asl_kb.asp import contract
from asl_kb.asp.control import new_control
from asl_kb.model import Because, Fate, UnitFates
from asl_kb.model.phase import PhaseOutcome, Turn

#: whole-phase outcomes enumerated at most; past it the result says incomplete
MAX_OUTCOMES = 20000
#: seconds the enumeration may take before the result says incomplete
MAX_SECONDS = 30.0


class Phase:
    """The fates of every broken unit in both worlds, and the coupled ones."""

    def __init__(
        self,
        position,
        world0: list[UnitFates],
        world1: list[UnitFates] | None,
        graph=None,
        info: dict | None = None,
    ):
        """`graph`: the rout graphs' (engines/graph.py), whose rout_rank/2
        and may_accompany/2 the phase reads (None: none)."""
        self.position = position
        # what the rules say the phase program reads of each fate (FateInfo)
        self.info = info or {}
        # A10.5 "ATTACKER first": rout_rank/2 of the rules
        self.rank = dict(graph.rank if graph is not None else {})
        # A10.711: leader -> the broken units it may rout with (one of them)
        self.leaders: dict[str, set] = {}
        for unit, ls in (graph.accompany if graph is not None else {}).items():
            for leader in ls:
                self.leaders.setdefault(leader, set()).add(unit)
        self.world1 = world1 is not None
        self.units = {u.id: u for u in position.units}
        self.entries = {e.id: e for e in world0}
        self._order = {uid: i for i, uid in enumerate(self.entries)}
        self._memo: dict = {}
        self._texts: dict = {}
        # Without world 1 (no --phase), the rejections' later units may only
        # rout before the rejection: a subset of the outcomes that holds every
        # outcome without a rejection (enough for brave()).
        w1 = {e.id: e.fates for e in (world1 or ())}
        self.fates: dict[str, list[Fate]] = {}
        self.worlds: dict[str, list[set]] = {}
        for uid, e in self.entries.items():
            keyed: dict = {}
            worlds: dict = {}
            for w, fates in ((0, e.fates), (1, w1.get(uid, e.fates if world1 is not None else []))):
                for f in fates:
                    k = f.key
                    keyed.setdefault(k, f)
                    worlds.setdefault(k, set()).add(w)
            keys = sorted(keyed, key=lambda k: (k[0] != "rout", k))
            self.fates[uid] = [keyed[k] for k in keys]
            self.worlds[uid] = [worlds[k] for k in keys]
        escorted = {u for us in self.leaders.values() for u in us}
        self.coupled = [uid for uid in self.entries if self._coupled(uid) or (uid in escorted and self.fates[uid])]
        self.independent = [uid for uid in self.entries if uid not in self.coupled and self.fates[uid]]
        # The constraints read of a fate only its worlds and, for a surrender
        # or its rejection, the captor and where (root/moved): fates alike in
        # these are one class, enumerated once and multiplied out after.
        self.classes: dict[str, list[list[int]]] = {}
        for uid in self.coupled:
            by_sig: dict[tuple, list[int]] = {}
            for i, (f, ws) in enumerate(zip(self.fates[uid], self.worlds[uid])):
                by_sig.setdefault(self._signature(uid, f, ws), []).append(i)
            self.classes[uid] = sorted(by_sig.values())

    def _info(self, uid, f: Fate) -> FateInfo:
        return self.info.get((uid, f.key), FateInfo(False, frozenset()))

    def _mode(self, uid, f) -> str:
        """root: a surrender (or rejection) where the unit began, its stack's
        (A20.21; the rules' surrenders_where_it_began/1); else moved."""
        return "root" if self._info(uid, f).began_there else "moved"

    def _signature(self, uid, f: Fate, worlds: set) -> tuple:
        mode = self._mode(uid, f)
        if f.kind == "surrender":
            return (tuple(sorted(worlds)), "sur", f.captor, mode)
        if f.invokes_no_quarter is not None:
            return (tuple(sorted(worlds)), "rej", f.captor, mode)
        return (tuple(sorted(worlds)), "other", f.kind)

    def _coupled(self, uid) -> bool:
        fates, worlds = self.fates[uid], self.worlds[uid]
        if any(self._info(uid, f).read_by for f in fates):  # read by A20.21/A20.51 (phase_reads/2)
            return True
        return self.world1 and any(w != {0, 1} for w in worlds)

    def facts(self) -> str:
        p = self.position
        out = switch_facts(p)
        sides = sorted({u.side for u in p.units})
        captors: set[str] = set()
        for uid in self.coupled:
            u = self.units[uid]
            U = q(uid)
            out.append(f"phase_unit({U},{u.side},{rank_of(self.rank, uid)}).")
            out.append(f"start({U},{loc(u.hex, u.level)}).")
            out.append(f"unit_type({U},{u.type}).")
            for s in sides:
                if s != u.side:
                    out.append(f"enemy_side({U},{s}).")
            for c, members in enumerate(self.classes[uid]):
                self._option_facts(out, uid, c, members[0], captors)
        for leader, units in sorted(self.leaders.items()):
            for u in sorted(units):
                if u in self.classes:
                    out.append(f"may_accompany({q(leader)},{q(u)}).")
        for x in sorted(captors):
            out.append(f"side({q(x)},{self.units[x].side}).")
            out.append(f"unit_type({q(x)},{self.units[x].type}).")
        return "\n".join(out) + "\n"

    def _option_facts(self, out: list[str], uid: str, c: int, first: int, captors: set[str]) -> None:
        """The facts of a unit's class `c` of fates (its first, `first`): the
        worlds it is in, and what it is (a surrender, a rejection, a rout)."""
        U = q(uid)
        f, ws = self.fates[uid][first], self.worlds[uid][first]
        for w in sorted(ws):
            out.append(f"fate_option({U},{c},{w}).")
        mode = self._mode(uid, f)
        if f.kind == "surrender":
            assert f.captor is not None  # a surrender names its captor
            out.append(f"surrender_option({U},{c},{q(f.captor)},{mode}).")
            captors.add(f.captor)
        elif f.invokes_no_quarter is not None:
            assert f.captor is not None  # so does a rejected one
            out.append(f"rejection_option({U},{c},{q(f.captor)},{mode}).")
            captors.add(f.captor)
        elif f.kind == "rout":
            out.append(f"rout_option({U},{c}).")

    def _control(self, args) -> clingo.Control:
        ctl = new_control("phase.lp", self.facts(), tuple(args))
        ctl.ground([("base", [])])
        return ctl

    def may_follow_rejection(self) -> bool:
        """Whether some unit's turn may come after a rejection by its enemy
        side, so that the whole phase needs its fates under No Quarter
        (world 1). Asked of the phase program itself, before world 1 is
        figured: each unit with a surrender that needs quarter (phase_reads
        A20.3) is given one more fate, existing only under No Quarter and
        tied to nothing else -- the least any such fate can be -- and the
        question is whether some legal whole-phase outcome picks one. None
        does where every rejection takes the unit with it (its stack,
        surrendering at one instant, A20.21): world 1 would only add fates
        no outcome can pick."""
        if self.world1 or not self.coupled:
            return self.world1
        extra = {}
        for uid in self.coupled:
            if any(self._info(uid, f).needs_quarter for f in self.fates[uid]):
                extra[uid] = len(self.classes[uid])
        if not extra:
            return False
        facts = self.facts() + "".join(f"fate_option({q(u)},{c},1).\n" for u, c in extra.items())
        ctl = new_control("phase.lp", facts, ("--enum-mode=brave", "0"))
        ctl.ground([("base", [])])
        last: list = []
        ctl.solve(on_model=lambda m: last.__setitem__(slice(None), m.symbols(shown=True)))
        contract.check(last, "phase")
        return any(s.name == "pick" and extra.get(s.arguments[0].string) == s.arguments[1].number for s in last)

    def brave(self) -> dict:
        """{(unit, fate id): explanation} for each surrender that some legal
        whole-phase outcome frees for lack of Guard capacity."""
        if not self.coupled:
            return {}
        ctl = self._control(["--enum-mode=brave", "0"])
        last: list = []
        ctl.solve(on_model=lambda m: last.__setitem__(slice(None), m.symbols(shown=True)))
        ans = Answer(last, program="phase")
        picks: dict = {}
        reasons: dict = {}
        for s in ans.atoms["pick"]:
            a = s.arguments
            picks.setdefault(a[0].string, set()).add(a[1].number)
        for subject, pairs in ans.because.items():
            for rule, reason in pairs:
                if reason.name == "freed":
                    reasons.setdefault((subject.string, reason.arguments[0].string), []).append(
                        Because(rule, ans.say(reason), reason_kind(reason))
                    )
        out = {}
        for u in {s.arguments[0].string for s in ans.atoms["freed"]}:
            for c in picks.get(u, ()):
                for i in self.classes[u][c]:
                    f = self.fates[u][i]
                    if f.kind == "surrender" and (u, f.captor) in reasons:
                        out[(u, i)] = reasons[(u, f.captor)]
        return out

    def enumerate(self, limit: int, deadline: float | None = None) -> tuple[int, list[PhaseOutcome], bool]:
        """(count, the first `limit` outcomes, complete): every legal
        whole-phase outcome of the coupled units, counted, and listed in a
        stable order (class by class, each multiplied out)."""
        if not self.coupled:
            return 1, [], True  # nothing to combine: only the independent units' fates
        ctl = self._control(["0", "--project=show"])
        models: list = []
        complete = True
        deadline = min(time.monotonic() + MAX_SECONDS, deadline or float("inf"))
        # (clingo enumerates in a thread of its own, bounded in time)
        budget.require_room(budget.thread_need(), "the enumerating thread")
        with ctl.solve(yield_=True, async_=True) as handle:
            while True:
                handle.resume()
                if not handle.wait(max(0.0, deadline - time.monotonic())):
                    handle.cancel()
                    complete = False
                    break
                m = handle.model()
                if m is None:
                    break
                if len(models) == MAX_OUTCOMES:  # one more exists: the list is cut
                    complete = False
                    handle.cancel()
                    break
                models.append(self._parse(m.symbols(shown=True)))
        count = 0
        for m in models:
            n = 1
            for uid, c in m["pick"].items():
                n *= len(self.classes[uid][c])
            count += n
        models.sort(key=lambda m: self._key(m, {u: self.classes[u][c][0] for u, c in m["pick"].items()}))
        listed: list = []
        for m in models:
            if len(listed) >= limit:
                break
            units = sorted(m["pick"])
            for combo in itertools.product(*(self.classes[u][m["pick"][u]] for u in units)):
                if len(listed) >= limit:
                    break
                listed.append(self._render(m, dict(zip(units, combo))))
        return count, listed, complete

    def _parse(self, symbols) -> dict:
        # (one memo for every model: they share most of their atoms)
        ans = Answer(symbols, self._memo, program="phase")
        at, ans.atoms = ans.atoms, {}  # keep only the words (says/2) with the model
        return {
            "pick": {s.arguments[0].string: s.arguments[1].number for s in at["pick"]},
            "slot": {s.arguments[0].string: s.arguments[1].number for s in at["slot"]},
            "freed": {s.arguments[0].string for s in at["freed"]},
            "guard": {s.arguments[0].string: s.arguments[1].string for s in at["prisoner"]},
            "nq": [s.arguments[0].name for s in at["nq_invoked"]],
            "why": {subject.string: pairs for subject, pairs in ans.because.items()},
            "with": {s.arguments[1].string: s.arguments[0].string for s in at["with"]},
            "answer": ans,
        }

    def _text(self, sym) -> str:
        """str(sym), figured once per symbol (the models share their reasons)."""
        t = self._texts.get(sym)
        if t is None:
            t = self._texts[sym] = str(sym)
        return t

    def _turn_order(self, m: dict, fate_of: dict) -> list:
        """The units of an outcome in rout order (A10.5 rank, then slot)."""
        order = self._order
        return sorted(fate_of, key=lambda u: (rank_of(self.rank, u), m["slot"].get(u, 0), order[u]))

    def _key(self, m: dict, fate_of: dict) -> list:
        """The sort key of self._render(m, fate_of), without the explanations
        (every model is sorted; only the listed ones are rendered)."""
        out = []
        for uid in self._turn_order(m, fate_of):
            f = self.fates[uid][fate_of[uid]]
            routs = f.kind == "rout"
            out.append(
                (
                    uid,
                    "freed" if uid in m["freed"] else f.kind,
                    f.captor or "",
                    f.at,
                    m["guard"].get(uid) or "",
                    tuple(i.at for i in f.interdiction) if routs else (),
                    (f.low_crawl or False) if routs else False,
                )
            )
        return out

    def _render(self, m: dict, fate_of: dict) -> PhaseOutcome:
        """One whole-phase outcome: the class model m with a concrete fate
        (index) for each unit, in rout order."""
        turns = []
        for uid in self._turn_order(m, fate_of):
            f = self.fates[uid][fate_of[uid]]
            because = [
                Because(r, m["answer"].say(reason), reason_kind(reason))
                for r, reason in sorted(m["why"].get(uid, ()), key=lambda x: (x[0], self._text(x[1])))
            ]
            routs = f.kind == "rout"
            turns.append(
                Turn(
                    uid,
                    "freed" if uid in m["freed"] else f.kind,
                    f.at,
                    because,
                    captor=f.captor,
                    cause=f.cause,
                    invokes_no_quarter=f.invokes_no_quarter,
                    low_crawl=f.low_crawl if routs else None,
                    interdiction=[i.at for i in f.interdiction] if routs else None,
                    guard=m["guard"].get(uid),
                    accompanied_by=m["with"].get(uid),
                )
            )
        return PhaseOutcome(sorted(m["nq"]), turns)
