"""All the outcomes of a position: each broken unit's fates (graph.py), the
surrender annotations and Guard capacity (phase.py), the whole phase
(--phase), Heat of Battle and Disrupted surrenders, and the prisoners
program (prisoners.py). This module only orchestrates the runs and puts
their results together in the result model (model.Outcomes).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from asl_kb import budget, process
from asl_kb.engines.legality import require_legal
from asl_kb.asp.facts import FactBuilder, position_facts, prisoner_facts
from asl_kb.asp import workers
from asl_kb.asp.groups import groups
from asl_kb.board import hexgrid
import clingo

from asl_kb.asp.reader import text
from asl_kb.engines.graph import MAX_PATHS, Graph, unit_of, merged_info, rank_of
from asl_kb.asp.once import solve_each
from asl_kb.asp.solve import SolveStats, TimedOut, solve
from asl_kb.asp.symbols import any_named, keys
from asl_kb.model import Cut, Outcomes, UnitFates
from asl_kb.model.common import unit_key
from asl_kb.report.odds import NmcTable
from asl_kb.report.summary import add_summaries
from asl_kb.record import FrozenRecord, record, replace

if TYPE_CHECKING:  # (imported where a run needs them: outcomes() below)
    from asl_kb.model.immediate import ImmediateSurrender

#: whole-phase outcomes listed when --limit is not given (all are counted)
DEFAULT_PHASE_LISTING = 100


def canonical(position):
    """The position with its units in listing order (unit_key): the rules read
    no order into the units list (A10.5: the owner chooses which unit routs
    next), so every run starts from this order and the output is the same
    whatever the order of the file."""
    return replace(position, units=tuple(sorted(position.units, key=lambda u: unit_key(u.id))))


#: the ranges to the first units a hex's place holds as numbers (the rest
#: figured only as a comparison reads them: Farther)
NEAR = 8


def place_of(position):
    """A hex as the position describes it, not by its name: its terrain,
    its range to each unit (in the file's order) and to the map area's
    corners (those of each row of corners as a pair without order: the
    board turned over left to right swaps them). Two hexes alike in all of
    these are alike wherever the board is turned (a position symmetric
    about them). Past NEAR units, the ranges to the others and to the
    corners are a Farther, ordered as their tuple would be."""
    hexes = [u.hex for u in position.units]
    distance = position.grid.distance
    corners: list = []
    if position.real is None:  # (VASL boards' art is not symmetric: no corners)
        (lo_col, lo_row), (hi_col, hi_row) = (hexgrid.hex_coords(h) for h in position.area)
        corners = [
            (hexgrid.hex_id(lo_col, row), hexgrid.hex_id(hi_col, row))
            for row in (max(lo_row, 1), hi_row)  # (row 0 is only in odd columns)
        ]

    @functools.lru_cache(maxsize=None)
    def place(h: str) -> tuple:
        t = position.terrain_of(h)
        near = tuple(distance(h, x) for x in hexes[:NEAR])
        if len(hexes) > NEAR:
            return (t.terrain, t.elevation, t.features, near, Farther(h, hexes, corners, distance))
        return (t.terrain, t.elevation, t.features, near, _corner_ranges(h, corners, distance))

    return place


def _corner_ranges(h: str, corners: list, distance) -> tuple:
    """A hex's ranges to each row of corners, each pair without order."""
    return tuple(tuple(sorted((distance(h, a), distance(h, b)))) for a, b in corners)


class Farther:
    """A hex's ranges to the units past the first NEAR, then to the corners
    (place_of), ordered as the tuple of these would be, each range figured
    only as far as a comparison reads it: two hexes differ in their first
    few (every range to 1,000 units for each hex a rout graph enters cost
    more than the rout)."""

    __slots__ = ("hex", "_hexes", "_corners", "_distance", "_ranges", "_tail")

    def __init__(self, h: str, hexes: list, corners: list, distance):
        self.hex = h
        self._hexes, self._corners, self._distance = hexes, corners, distance
        self._ranges: list[int] = []
        self._tail: tuple | None = None

    def _range(self, i: int) -> int:
        ranges = self._ranges
        while len(ranges) <= i:
            ranges.append(self._distance(self.hex, self._hexes[NEAR + len(ranges)]))
        return ranges[i]

    def _corner_ranges(self) -> tuple:
        if self._tail is None:
            self._tail = _corner_ranges(self.hex, self._corners, self._distance)
        return self._tail

    def _cmp(self, other: Farther) -> int:
        if self is other:
            return 0
        for i in range(len(self._hexes) - NEAR):
            a, b = self._range(i), other._range(i)
            if a != b:
                return -1 if a < b else 1
        a, b = self._corner_ranges(), other._corner_ranges()
        return 0 if a == b else -1 if a < b else 1

    def __eq__(self, other) -> bool:
        return isinstance(other, Farther) and self._cmp(other) == 0

    __hash__ = None  # type: ignore[assignment]  # (equal, never hashed)

    def __lt__(self, other: Farther) -> bool:
        return self._cmp(other) < 0

    def __le__(self, other: Farther) -> bool:
        return self._cmp(other) <= 0

    def __gt__(self, other: Farther) -> bool:
        return self._cmp(other) > 0

    def __ge__(self, other: Farther) -> bool:
        return self._cmp(other) >= 0

    def whole(self) -> tuple:
        """(the ranges past the first NEAR units, the corners' ranges), every one figured"""
        return (tuple(self._range(i) for i in range(len(self._hexes) - NEAR)), self._corner_ranges())


def routing_order(position, graph) -> list:
    """The broken units in the order the rules rank them (A10.5: ATTACKER
    first), then by id."""
    broken = [u for u in position.units if "broken" in u.status]
    return sorted(broken, key=lambda u: rank_of(graph.rank, u.id))


def _solve_units(position, run: _Run, voluntary_break: bool = False, listed: bool = False):
    """The rout graphs of the position, figured in groups of units
    (asl_kb/asp/groups.py): each group is grounded and solved on its own
    facts, its Control released, and its units' fates read, before the next
    begins (`run.jobs` at a time). Past the deadline TimedOut; for the units
    the answer lists (`listed`), it carries those read so far (`done`), and
    `run.on_progress` is told how far it has gone."""
    all_paths, deadline = run.all_paths, run.deadline
    on_progress = run.on_progress if listed else None
    concealed = sum(1 for u in position.units if "concealed" in u.status)
    fb = FactBuilder(position, voluntary_break, tagged=True)
    n = workers.jobs(run.jobs)
    # (the facts built here, or by each group's worker: groups.py)
    parts = groups(fb, jobs=n)
    budget.check("figuring the facts (reach, LOS)")
    del fb
    g = Graph((), growing=len(parts) > 1, place=place_of(position))
    stats = SolveStats()
    read: dict[str, UnitFates] = {}
    if listed:
        process.STATE.progress.update(read=read, graph=g)
    broken = sum(1 for u in position.units if "broken" in u.status)
    if on_progress is not None:
        on_progress(0, broken)
    # (closed however the loop ends: a cut ends the workers still solving)
    with contextlib.closing(workers.solve_groups([t for t, _ in parts], concealed, deadline, n)) as answers:
        for _, figured in parts:
            try:
                symbols, st = next(answers)
            except TimedOut as e:
                if listed:
                    e.done = _listed_order(read.values(), g)
                    e.table = NmcTable(g.answer)
                raise
            g.add(symbols)
            del symbols
            stats.ground_seconds += st.ground_seconds
            stats.solve_seconds += st.solve_seconds
            stats.atoms += st.atoms
            stats.stages = max(stats.stages, st.stages)
            mine = set(figured)
            _units(g, [u for u in routing_order(position, g) if u.id in mine], all_paths, listed, read)
            if on_progress is not None:
                on_progress(len(read), broken)
    return g, [read[u.id] for u in routing_order(position, g)], stats


def progress() -> tuple[list[UnitFates], NmcTable | None]:
    """The units read so far by the run in progress (in listing order), and
    their odds table: what the watchdog's answer lists when a ground call
    overruns the deadline (cli.py; kept in the process's state,
    process.STATE.progress)."""
    read, g = process.STATE.progress.get("read"), process.STATE.progress.get("graph")
    if not read or g is None:
        return [], None
    return _listed_order(list(read.values()), g), NmcTable(g.answer)


def _listed_order(units, g) -> list[UnitFates]:
    """Units read so far in the order the answer lists them (routing_order)."""
    return sorted(units, key=lambda u: (rank_of(g.rank, u.id), unit_key(u.id)))


def answers(position) -> tuple:
    """What the programs `outcomes(position)` runs answer (without --phase,
    --voluntary-break, --all-paths or --timeout): the rout program's shown
    atoms and the prisoners program's (a position that breaks a rule raises
    PositionRuleError, as outcomes() does). The rest of a result is the
    position read through these answers -- and, where a fate is a surrender,
    the whole-phase program's (phase.py) -- so two rule sets whose answers
    are equal, and whose whole-phase programs agree, give equal outcomes: the
    committee's search compares these and reads fates only where they differ."""
    require_legal(position)
    return answers_each([position])[0]


#: the explanation's predicates (contract.md): an answer without them still
#: decides every fate, outcome and prisoners' option (committee search)
EXPLANATION = frozenset({"because", "says", "arguments"})


def answers_each(
    positions: list, rout_once: bool = False, explained: bool = True, live: bool = False, whole: list | None = None
) -> list[tuple]:
    """answers() of several variants of one position that differ only in a
    few facts (rule version, switches): the prisoners program grounded once
    for all of them (asp/once.py solve_each), and the rout program too with
    `rout_once`, its stages watched (left open, those facts keep what they
    reach from grounding to facts: a grounding outgrowing its bound is
    given up). Where they differ in more, each is run on its own. With `live`,
    the rout program's answer without its graphs' dead ends (graph.live):
    equal still means equal outcomes; `whole`, a list, gets each rout
    answer with them (what a change that acts only in dead ends alters).
    The caller has checked that the positions break no rule (answers()
    does; a search once per position as the rules read it,
    committee/judging.py)."""
    positions = [canonical(p) for p in positions]
    concealed = {sum(1 for u in p.units if "concealed" in u.status) for p in positions}
    rout = None
    if rout_once and len(positions) > 1 and len(concealed) == 1:
        rout = solve_each([position_facts(p) for p in positions], concealed.pop())
    if rout is None:
        rout = [solve(position_facts(p), sum(1 for u in p.units if "concealed" in u.status))[0] for p in positions]
    # clingo keeps one copy of each symbol in the process: equal symbols have
    # equal representations, whichever Control made them
    # (without the explanation: `explained` False, the atoms fates are read from)
    keep = (lambda s: True) if explained else (lambda s: s.name not in EXPLANATION)
    if live:
        from asl_kb.engines.graph import live as alive

        if whole is not None:
            whole.extend(keys(s for s in symbols if keep(s)) for symbols in rout)
        rout = [alive(symbols) for symbols in rout]
    out: list[tuple] = [("rout", keys(s for s in symbols if keep(s))) for symbols in rout]
    asked = [p.involves_prisoners() for p in positions]
    if any(asked):
        from asl_kb.engines import prisoners

        told = None
        if all(asked) and len(positions) > 1:
            told = solve_each([prisoner_facts(p) for p in positions], entry="prisoners.lp", staged=False)
        if told is None:
            told = [prisoners.answer(p) if a else () for p, a in zip(positions, asked)]
        out = [o + ("prisoners", keys(s for s in t if keep(s))) if a else o for o, t, a in zip(out, told, asked)]
    return out


def reads_phase(answer: tuple) -> bool:
    """Whether outcomes() also runs the whole-phase program for a position
    whose programs answer `answer` (answers()): a fate it reads, phase_reads/2
    (a surrender: its stack, its Guard's capacity)."""
    return any_named(answer[1], "phase_reads")


def outcomes(  # noqa: PLR0913 (the listing's options and the run's bounds: the CLI's flags, by keyword)
    position,
    all_paths: bool = False,
    voluntary_break: bool = False,
    phase: bool = False,
    limit: int | None = None,
    timeout: float | None = None,
    max_memory: int | None = None,
    jobs: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Outcomes:
    """Every outcome of the position. With `timeout` (seconds), a run past it
    answers with complete: false and says what was cut, instead of going on.
    A run that runs out of memory answers so too; `max_memory` (MiB) is the
    cap the caller set on the process (cli.py: --max-memory), to say so.
    `jobs`: the groups of units solved at once (workers.jobs(): the cores);
    `on_progress` is told (units read, broken units) as each group's units
    are read (what asl-kb serve's page shows while it waits)."""
    progress_now = process.STATE.progress
    progress_now.clear()
    out_of_memory = False
    try:
        with budget.deadline_in(timeout), process.paused():
            run = _Run(all_paths, voluntary_break, phase, limit, budget.deadline(), jobs, on_progress)
            result = _outcomes(position, run)
    except MemoryError:
        # (answered below, once the exception and the frames it holds -- the
        # graph, the walk -- are let go: there is room for the answer then)
        out_of_memory = True
    except TimedOut as e:
        # (cut after the listed units were read -- the No Quarter world, the
        # prisoners program: those read are listed.) The progress is kept:
        # the watchdog may fire while this answer is built and written (a
        # thousand units, a busy machine), and lists the same units.
        done, table = (e.done, e.table) if hasattr(e, "done") else progress()
        return cut_by_timeout(position, budget.timeout() if timeout is None else timeout, str(e), done, table)
    except BaseException:
        progress_now.clear()
        raise
    if out_of_memory:
        # the Control that asked for it is gone with the exception, and the
        # graph with the progress (and any cycle among what the run built):
        # the little this answer needs is there again
        progress_now.clear()
        gc.collect()
        return cut_by_memory(position, max_memory)
    progress_now.clear()
    if result.cut is not None:
        result.cut.timeout = timeout
    return result


def cut_by_timeout(position, timeout, where, done=(), table=None) -> Outcomes:
    """The answer of a run cut by --timeout: what was cut, and where; the
    units whose fates were read in full before the cut (`done`: the units
    of the groups whose rout graphs were solved whole, asl_kb/asp/groups.py;
    a partial graph could list fates the whole one would not, so the group
    being grounded or solved at the cut lists none)."""
    shown = f"--timeout {timeout:g} s" if timeout is not None else "the time allowed"
    return _cut_short(position, f"{shown} passed while {where}", Cut(timeout, where, []), list(done), table)


def cut_by_memory(position, max_memory, where: str = "figuring the outcomes") -> Outcomes:
    """The answer of a run that ran out of memory (clingo raises MemoryError
    when the process's cap is reached; `where`: writing the answer, cli.py):
    the same, with the cap."""
    cap = f"the memory cap (--max-memory {max_memory} MiB)" if max_memory else "the memory available"
    return _cut_short(position, f"{cap} was reached while {where}", Cut(None, where, [], memory_mib=max_memory))


def _cut_short(position, why: str, cut: Cut, done: list | None = None, table=None) -> Outcomes:
    """A run stopped before its end: the units `done` (their fates read in
    full; none when cut before the answer was read) and the broken units
    left without fates, in listing order (R1, R2, ..., R10)."""
    from asl_kb.asp.solve import SolveStats

    done = done or []
    cut.done = sorted((u.id for u in done), key=unit_key)
    have = set(cut.done)
    cut.units = sorted((u.id for u in position.units if "broken" in u.status and u.id not in have), key=unit_key)
    because = [f"{why}: no fates are listed for the broken units {', '.join(cut.units) or '(none)'}"]
    if done:
        because.append(
            f"the fates of {', '.join(cut.done)} are listed in full; what ties them to the "
            "units not reached (the whole phase, Guard capacity) is not figured"
        )
    result = Outcomes(
        position.name,
        position.rules,
        complete=False,
        units=done,
        incomplete_because=because,
        cut=cut,
        stats=SolveStats(),
    )
    if done:
        add_summaries(result, table)
    return result


@record(frozen=True)
class _Run(FrozenRecord):
    """What outcomes() was asked to list (outcomes()'s arguments), by when
    (budget.deadline()), on how many workers and whom to tell how far it
    has gone."""

    all_paths: bool
    voluntary_break: bool
    phase: bool
    limit: int | None
    deadline: float | None
    jobs: int | None
    on_progress: Callable[[int, int], None] | None


def _outcomes(position, run: _Run) -> Outcomes:
    require_legal(position)
    position = canonical(position)
    g, units, stats = _solve_units(position, run, run.voluntary_break, listed=True)
    result = Outcomes(position.name, position.rules, complete=not g.paths_cut, units=units)
    incomplete = []
    if g.paths_cut:
        incomplete.append(f"--all-paths: more than {MAX_PATHS} paths for a unit; the path lists are cut")
    world1, info = _no_quarter_world(position, units, g, stats, run)
    if run.phase or any(f.kind == "surrender" for u in units for f in u.fates):
        # (imported here: a position without surrenders needs neither)
        from asl_kb.engines.phase import Phase

        ph = Phase(position, units, world1, g, info)
        _annotate_surrenders(units, g, ph, ph.brave())
        if run.phase:
            incomplete += _list_phase(ph, run, result)
    if g.events.get("heat_of_battle"):
        result.heat_of_battle = _immediate(position, g, "heat_of_battle")
    if g.events.get("disrupted"):
        result.disrupted = _immediate(position, g, "disrupted")
    if position.involves_prisoners():
        from asl_kb.engines import prisoners

        result.prisoners = prisoners.solve_prisoners(position)
    if run.voluntary_break:
        asked = [u for u in position.units if u.id in g.vb]
        result.voluntary_break = _units(g, asked, run.all_paths)
        for entry in result.voluntary_break:
            entry.may_break = entry.id in g.may_break
        if g.vb_refused:
            result.voluntary_break_refused = g.because(g.vb_refused)
    if incomplete:
        result.complete = False
        result.incomplete_because = incomplete
    add_summaries(result, NmcTable(g.answer))
    result.stats = stats
    result.fate_info = info
    return result


def _no_quarter_world(position, units, g, stats, run: _Run) -> tuple:
    """The units' fates with No Quarter in force, and the fates' information
    of both worlds (None and the graph's own, when the listing needs no
    such world).

    A rejected surrender invokes No Quarter for the later units (A20.3): for
    the whole-phase listing their fates are asked again with No Quarter in
    force -- where the phase program says some unit's turn may follow a
    rejection (Phase.may_follow_rejection). (Which surrenders a Guard's
    capacity may free needs no second solve: a rejection only lowers the
    loads, so every unit freed in some outcome is freed in one without
    rejections.)"""
    if not run.phase or not any(f.invokes_no_quarter is not None for u in units for f in u.fates):
        return None, g.info
    from asl_kb.engines.phase import Phase

    if not Phase(position, units, None, g, g.info).may_follow_rejection():
        return None, g.info
    nq_all = tuple(sorted({u.side for u in position.units}))
    g1, world1, stats1 = _solve_units(replace(position, no_quarter=nq_all), run)
    stats.ground_seconds += stats1.ground_seconds
    stats.solve_seconds += stats1.solve_seconds
    return world1, merged_info(g1, g)


def _list_phase(ph, run: _Run, result: Outcomes) -> list[str]:
    """The whole-phase outcomes (result.phase), up to the listing's limit;
    what is incomplete about them."""
    from asl_kb.engines.phase import MAX_OUTCOMES, MAX_SECONDS
    from asl_kb.model.phase import IndependentUnit, VoluntaryRout, WholePhase

    shown = DEFAULT_PHASE_LISTING if run.limit is None else run.limit
    count, listed, done = ph.enumerate(shown, run.deadline)
    free = 1
    for uid in ph.independent:
        free *= len(ph.fates[uid])
    result.phase = WholePhase(
        count=count * free if done else None,
        independent=[IndependentUnit(uid, len(ph.fates[uid])) for uid in ph.independent],
        voluntary_rout=[
            VoluntaryRout(l, sorted(us, key=unit_key))
            for l, us in sorted(ph.leaders.items(), key=lambda x: unit_key(x[0]))
        ],
        outcomes=listed,
        assumes=[
            "each unit's fates are figured against the position at the start of the RtPh: "
            "No Quarter, stacks, Guard capacity and Voluntary Rout are carried from unit to unit; "
            "where earlier units ended up and a new Guard's A20.52 restriction are not"
        ],
        # what `outcomes` lists: the combinations of the coupled units'
        # fates (count = combinations x the independent units' fates)
        combinations=(count if ph.coupled else 0) if done else None,
    )
    if done:
        return []
    incomplete = [
        f"--phase: more than {MAX_OUTCOMES} whole-phase outcome classes, "
        f"or {MAX_SECONDS:.0f} s spent: the count is unknown and the list is cut"
    ]
    if run.deadline is not None and time.monotonic() > run.deadline:
        incomplete.append("--timeout: passed while enumerating the whole-phase outcomes")
        result.cut = Cut(None, "enumerating the whole-phase outcomes", [])
    return incomplete


_EVENT_ORDER = {
    "surrender": 0,
    "rejected": 1,
    "berserk": 2,
    "broken_disrupted": 3,
    "routs_in_its_rtph": 4,
    "no_surrender": 5,
}


def _immediate(position, g, event) -> list[ImmediateSurrender]:
    """The outcomes of an immediate surrender (immediate/3): a unit's Final
    Heat of Battle DR (event heat_of_battle: A15.5, A20.21) or a Disrupted
    unit entered by the enemy outside the RtPh (event disrupted: A19.12)."""
    from asl_kb.model.immediate import ImmediateFate, ImmediateSurrender

    out = []
    for u in position.units:
        if u.id not in g.events[event]:
            continue
        fates = []
        for f in sorted(g.events[event][u.id], key=lambda f: (_EVENT_ORDER.get(f.name, 9), str(f))):
            subject = clingo.Function(event, [clingo.String(u.id), f])
            because = g.because(g.why.get(subject, ()))
            kind = g.fate.get(subject)  # the rules' fate of a rejection (A20.3)
            if f.name == "surrender":
                fate = ImmediateFate(
                    "surrender", because, captor=text(f.arguments[0]), guard=g.guard_after.get(subject)
                )
            elif kind is not None:
                fate = ImmediateFate(
                    kind.name,
                    because,
                    captor=text(f.arguments[0]),
                    cause=text(kind.arguments[0]),
                    invokes_no_quarter=g.invokes[subject],
                )
            else:
                fate = ImmediateFate(f.name, because)
            fates.append(fate)
        out.append(
            ImmediateSurrender(
                u.id, u.side, u.location, fates, final_dr=u.heat_of_battle if event == "heat_of_battle" else None
            )
        )
    return out


def _annotate_surrenders(units, g, ph, freed):
    """Each surrender fate names its Guard and the SW left behind (A20.5,
    A20.24); a surrender that some legal whole-phase outcome frees for lack of
    Guard capacity adds the fate `freed` (A20.21, A20.51)."""
    for u in units:
        ids = {f.key: i for i, f in enumerate(ph.fates.get(u.id, ()))}
        extra = []
        for f in u.fates:
            if f.kind != "surrender":
                continue
            why = freed.get((u.id, ids.get(f.key)))
            if why:
                extra.append(replace(f, kind="freed", guard=None, because=f.because + why))
        u.fates.extend(extra)


def _units(g, order, all_paths, listed=False, read: dict | None = None) -> list[UnitFates]:
    """The fates of the units `order`, read from the graph (and kept in
    `read` by id, where given: the units read before, of earlier groups).
    Past the deadline TimedOut; when these are the units the answer lists
    (`listed`: not the No Quarter world's or the Voluntary Break's), it
    carries those done."""
    read = {} if read is None else read
    roots = {unit_of(r): r for r in g.roots}
    units: list[UnitFates] = []
    for u in order:
        try:
            budget.check("reading the fates")
        except TimedOut as e:
            if listed:
                e.done = _listed_order(read.values(), g)
                e.table = NmcTable(g.answer)  # their odds, as a whole run gives them
            raise
        found = g.fates(roots[u.id], all_paths) if u.id in roots else {}
        fates = []
        for key in sorted(found):
            f = found[key]
            f.path[0] = u.location
            fates.append(f)
        # no fates: inconsistent, a question for the rules committee
        units.append(
            UnitFates(
                u.id,
                u.side,
                u.location,
                must_rout=u.id in g.must,
                may_rout=u.id in g.may,
                because=g.because(g.unit_why.get(u.id, ())),
                fates=fates,
                voluntary_rout=sorted(g.accompany[u.id]) if g.accompany.get(u.id) else None,
            )
        )
        read[u.id] = units[-1]
    return units
