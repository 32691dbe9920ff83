"""Positions chosen by the solver: a scope's bounds written as choice rules.

A scope (scope.py) is read as *bounds*: the patch's hexes, up to K units
of its kinds, the terrain palette on up to `non_open` hexes, the header's
choices. Instead of walking every placement in Python, clingo chooses them
(the program below, `GENERATOR`): each unit slot a kind and a hex, each hex
at most one palette entry, and the scope's conditions -- how many of each
kind, `stacked_with`, `within`, a building level or an entrenchment under
the unit that needs it, a broken unit when `require_broken` -- as integrity
constraints. A search adds its own (`require`: e.g. a concealed unit, the
inputs a changed clause reads, reach.py), so the solver never proposes a
position that cannot tell the rule sets apart through them.

Smallest first: the models of each size (units, then non-open hexes) are
asked for alone (an `#external` per size, set for that solve: one
grounding), and the placements equal under a symmetry of the hex grid or a
translation are one position (enumerate.py's canonical form), so the
positions and their order are those `enumerate.candidates` gives
(tests/committee/test_committee_generate.py compares them on small bounds).
A run that ends with the solver's search space exhausted (every size's
solve call returned `exhausted`) has seen every position within the bounds:
only then may a search say "for every position within these bounds".
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from collections.abc import Callable, Iterator

import clingo

from asl_kb.committee.enumerate import Candidate, class_key, codes_of, nearest_key, relative, with_headers
from asl_kb.committee.refigure import refigures
from asl_kb.committee.scope import Scope
from asl_kb.board.terrain import feature_type

GENERATOR = """
#defined kind_count/3. #defined stacked_with/2. #defined within/3. #defined palette/1.
#defined palette_levels/2. #defined palette_dug/1. #defined entrenched/1. #defined broken/1.
#defined require_broken/0.
% one slot per unit the bounds allow; slot S used only if S-1 is
{ placed(S) } :- slot(S).
:- placed(S), S > 1, not placed(S-1).
:- size(N,_), #count{ S : placed(S) } != N.
% each placed unit: one kind (a spec of the scope) on one hex of the patch
1 { unit(S,C,I) : cell(C), spec(I) } 1 :- placed(S).
% the slots in order (a placement is a multiset): no permutation twice
:- unit(S,C,I), unit(S+1,C2,I2), (C,I) > (C2,I2).
% non-open terrain: at most one palette entry a hex, as many hexes as the size says
{ terrain(C,J) : palette(J) } 1 :- cell(C).
:- size(_,T), #count{ C : terrain(C,_) } != T.
% the scope's conditions
:- require_broken, not broken_unit.
broken_unit :- unit(_,_,I), broken(I).
:- kind_count(K,Lo,Hi), N = #count{ S : unit(S,_,I), spec_kind(I,K) }, N < Lo.
:- kind_count(K,Lo,Hi), N = #count{ S : unit(S,_,I), spec_kind(I,K) }, N > Hi.
stacked(S) :- unit(S,C,I), spec_kind(I,K), stacked_with(K,K2), unit(S2,C,I2), S2 != S,
    spec_level(I,L), spec_level(I2,L), kind_at(I2,K2).
:- unit(S,_,I), spec_kind(I,K), stacked_with(K,_), not stacked(S).
near(S) :- unit(S,C,I), spec_kind(I,K), within(K,K2,R), unit(S2,C2,I2), S2 != S, dist(C,C2,D), D <= R,
    kind_at(I2,K2).
:- unit(S,_,I), spec_kind(I,K), within(K,_,_), not near(S).
level_ok(C,L) :- terrain(C,J), palette_levels(J,V), spec_level(_,L), V >= L.
:- unit(_,C,I), spec_level(I,L), L > 0, not level_ok(C,L).
dug(C) :- terrain(C,J), palette_dug(J).
:- unit(_,C,I), entrenched(I), not dug(C).
#show unit/3.
#show terrain/2.
"""


def _facts(scope: Scope, cells: list) -> str:
    out = [f"slot(1..{scope.max_units})."]
    out += [f"cell({n})." for n in range(len(cells))]
    out += [
        f"dist({a},{b},{max(abs(x[0] - y[0]), abs(x[1] - y[1]), abs(x[2] - y[2]))})."
        for a, x in enumerate(cells)
        for b, y in enumerate(cells)
    ]
    kinds = {k.name: k for k in scope.kinds}
    for i, s in enumerate(scope.specs):
        out += [f"spec({i}).", f'spec_kind({i},"{s.kind}").', f"spec_level({i},{s.level})."]
        out += [f'kind_at({i},"{k}").' for k in {s.kind} | {c.kind for _, c in s.carried}]
        if "broken" in s.status:
            out.append(f"broken({i}).")
        if s.entrenched:
            out.append(f"entrenched({i}).")
    for k in kinds.values():
        if k.count is not None:
            out.append(f'kind_count("{k.name}",{k.count[0]},{k.count[1]}).')
        if k.stacked_with is not None:
            out.append(f'stacked_with("{k.name}","{k.stacked_with}").')
        if k.within is not None:
            out.append(f'within("{k.name}","{k.within[0]}",{k.within[1]}).')
    for j, p in enumerate(scope.palette):
        out += [f"palette({j}).", f"palette_levels({j},{p.levels})."]
        if any(feature_type(f).entrenchment for f in p.features):
            out.append(f"palette_dug({j}).")
    if scope.require_broken:
        out.append("require_broken.")
    return "\n".join(out) + "\n"


@dataclasses.dataclass
class Run:
    """What a generation saw: models read, and whether every size's search
    space was exhausted (None: not yet, or cut); `partial`: the positions
    it leaves out on a reading not proved (refiguring()), in words."""

    models: int = 0
    exhausted: bool | None = None
    cut: str | None = None
    partial: str | None = None


def sizes(scope: Scope) -> list[tuple[int, int]]:
    max_terrain = scope.non_open if scope.palette else 0
    return [(n, t) for n in range(scope.min_units, scope.max_units + 1) for t in range(max_terrain + 1)]


def generated(
    scope: Scope, require: str = "", run: Run | None = None, deadline: float | None = None
) -> Iterator[Candidate]:
    """The scope's positions chosen by clingo, smallest first, one per
    symmetry class (module doc): the same positions, in the same order, as
    enumerate.candidates -- those the `require` constraints (ASP over
    unit/3 and terrain/2) leave. `run` says, at the end, whether every
    size's search space was exhausted; `deadline` (time.monotonic()) cuts
    the solving (then `run.cut`)."""
    run = Run() if run is None else run
    to_rel, _ = relative(scope)
    cells = sorted(to_rel.values())
    codes = None if scope.hexsides else codes_of(cells)
    ctl = clingo.Control(["0", "--project"])
    every = sizes(scope)
    ctl.add("base", [], GENERATOR + _facts(scope, cells) + require)
    ctl.add("base", [], "".join(f"#external size({n},{t}).\n" for n, t in every))
    ctl.ground([("base", [])])
    index = 0
    exhausted = True
    for n, t in every:
        for m, u in every:
            ctl.assign_external(clingo.Function("size", [clingo.Number(m), clingo.Number(u)]), (m, u) == (n, t))
        best: dict = {}
        with ctl.solve(yield_=True, async_=True) as handle:
            while True:
                handle.resume()
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and (left <= 0 or not handle.wait(left)):
                    handle.cancel()
                    run.cut = "the solver stopped at the deadline"
                    run.exhausted = False
                    return
                model = handle.model()
                if model is None:
                    break
                run.models += 1
                units, terrain = [], []
                for sym in model.symbols(shown=True):
                    args = [a.number for a in sym.arguments]
                    if sym.name == "unit":
                        units.append((cells[args[1]], args[2]))
                    else:
                        terrain.append((cells[args[0]], args[1]))
                units.sort()
                terrain.sort()
                units_t, terrain_t = tuple(units), tuple(terrain)
                key = class_key(codes, units_t, terrain_t)
                form = (
                    tuple(sorted((nearest_key(c), i) for c, i in units)),
                    tuple(sorted((nearest_key(c), i) for c, i in terrain)),
                )
                if key not in best or form < best[key]:
                    best[key] = form
            exhausted = exhausted and handle.get().exhausted
        for c in with_headers(scope, sorted(best.values()), index):
            yield c
            index = c.index + 1
    run.exhausted = exhausted


#: the inputs a unit kind gives, read off its spec: (predicate, the
#: argument's value) -- what a `require` from a changed clause's needs can
#: say of the units alone
_UNIT_INPUTS = ("status", "unit_type", "nationality", "uclass")


def _gives(spec) -> set[tuple[str, str]]:
    out = set()
    for s in [spec] + [c for _, c in spec.carried]:
        out |= {("status", x) for x in s.status}
        out.add(("unit_type", s.type))
        passed = {k: json.loads(v) for k, v in s.passed}
        out.add(("nationality", str(passed.get("nationality", s.side))))
        if "class" in passed:
            out.add(("uclass", str(passed["class"])))
    return out


def require_for(scope: Scope, needs: dict[str, list], changed: tuple | None = None, least: int = 0) -> str | None:
    """Constraints that keep only the positions where some changed clause
    may act, as far as its unit inputs say (`needs`: clause -> reach.Need
    list): a clause needing `status(_,concealed)` needs a unit of a kind
    that is concealed. A need of another input, or with no constant, is
    read as met (so no position a clause may act in is left out). None
    when no clause can act in any position of the bounds. `changed`
    (reach.changed: the folder and the changed clauses): where they weigh
    the route figured at the start against the whole rout, only the
    positions where a rout may be re-figured (refiguring(); partial_for()
    says so). `least`: the units a position needs at least for a changed
    clause to fire (least_units.needed; a Guard's prisoners count)."""
    lines, acts = [], 0
    for n, (_clause, wants) in enumerate(sorted(needs.items())):
        body: list[str] = []
        possible = True
        for name, arity, consts in wants:
            if name not in _UNIT_INPUTS or arity != 2 or consts[1] is None:
                continue
            specs = [i for i, s in enumerate(scope.specs) if (name, consts[1]) in _gives(s)]
            if not specs:
                possible = False
                break
            k = len(body)
            lines += [f"need_spec({n},{k},{i})." for i in specs]
            body.append(f"has({n},{k})")
        if not possible:
            continue
        acts += 1
        lines.append(f"acts({n}) :- {', '.join(body) or '#true'}.")
    if not acts:
        return None
    return (
        "#defined need_spec/3.\nhas(N,K) :- unit(_,_,I), need_spec(N,K,I).\n"
        + "\n".join(lines)
        + "\nacts :- acts(_).\n:- not acts.\n"
        + (_refigure(scope, changed) or "")
        + (_at_least(scope, least) if least > 1 else "")
    )


def _at_least(scope: Scope, least: int) -> str:
    """A position of at least `least` units, those each unit carries counted."""
    out = [f"spec_units({i},{1 + len(s.carried)})." for i, s in enumerate(scope.specs)]
    return "\n".join(out) + f"\n:- #sum{{ N,S : unit(S,_,I), spec_units(I,N) }} < {least}.\n"


#: a header input of rules/core/defined.lp -> what a position's header
#: must hold for a clause reading it to act (a candidate's phase, No Quarter, or the key of its options)
HEADER_INPUTS = {
    "no_quarter": "no_quarter",
    "mopping_up": "mopping_up",
    "massacred": "massacred",
    "elr": "elr",
    "cc": "close_combat",
    "cc_attacker": "close_combat",
    "cc_defender": "close_combat",
    "cc_capture": "close_combat",
    "cc_hth": "close_combat",
    "cc_ambush": "close_combat",
    "fx_by": "fire_effects",
    "fx_eliminated": "fire_effects",
    "fx_failed_mc": "fire_effects",
    "fx_random": "fire_effects",
}


def header_filter(needs: dict | None) -> Callable[[Candidate], bool] | None:
    """The positions whose header holds what some changed clause reads of
    it (`needs`: clause -> reach.Need list): a clause reading
    `phase(close_combat)` acts only in the CCPh, one reading `no_quarter/1`
    only where No Quarter is declared, one reading `mopping_up/1` only
    where a building is Mopped Up. None when every clause reads nothing of
    the header (every position passes)."""
    if not needs:
        return None
    wants = []
    for clause_needs in needs.values():
        want: list = []
        for name, arity, consts in clause_needs:
            if (name, arity) == ("phase", 1) and consts[0] is not None:
                want.append(("phase", consts[0]))
            elif name in HEADER_INPUTS:
                want.append(("key", HEADER_INPUTS[name]))
        wants.append(want)
    if any(not w for w in wants):
        return None

    def holds(c: Candidate, want) -> bool:
        keys = {k for k, _ in c.options} | ({"no_quarter"} if c.no_quarter else set())
        return all(c.phase == v if kind == "phase" else v in keys for kind, v in want)

    return lambda c: any(holds(c, w) for w in wants)


def _sensible(c: Candidate) -> bool:
    """Close Combat is declared in the CCPh (A11.1): a header choice of it
    in another phase is no position of the game."""
    return c.phase == "close_combat" or all(k != "close_combat" for k, _ in c.options)


def walk(
    scope: Scope,
    require: str | None = "",
    keep: Callable[[Candidate], bool] | None = None,
    partial: str | None = None,
) -> tuple[Run, Callable]:
    """A Run and the `positions(deadline)` a scan walks: the solver's
    positions of the bounds (none when `require` is None: no position can
    hold what is required), those `keep` keeps (header_filter: a position
    whose header no changed clause can act under is left out, as one
    without the units it reads is). `partial`: what `require` leaves out
    on a reading not proved (refiguring()): the run then never says every
    position was seen."""
    run = Run(partial=partial)

    def positions(deadline):
        if require is None:
            run.exhausted = True
            return iter(())
        got = (c for c in generated(scope, require=require, run=run, deadline=deadline) if _sensible(c))
        return got if keep is None else (c for c in got if keep(c))

    return run, positions


def within(report: dict, run: Run, scope: Scope, acted: bool = True) -> dict:
    """A solver-generated search's report finished: `bounds` (what they are),
    `generated` (models read, exhausted); incomplete when the solver was cut;
    `equivalent_within_bounds` / `none_within_bounds` only when it found
    nothing, judged every position and the solver's search space was
    exhausted -- and, for a diff, when the changed clauses acted somewhere
    (`acted`)."""
    report["bounds"] = bounds_json(scope)
    report["generated"] = {"models": run.models, "exhausted": bool(run.exhausted)}
    if run.cut:
        report["complete"] = False
        report["incomplete_because"] = [*report.get("incomplete_because", []), f"stopped: {run.cut}"]
    if run.partial:
        report["partial"] = run.partial
    if not report["witnesses"] and report["complete"] and run.exhausted and not run.partial:
        if acted:
            report["within_bounds"] = True
        else:
            report["complete"] = False
            report["incomplete_because"] = [
                *report.get("incomplete_because", []),
                f"the changed clauses can act in no position within bounds {bounds_text(report['bounds'])}",
            ]
    return report


def bounds_json(scope: Scope) -> dict:
    """What the bounds are, in the scope's words."""
    return {
        "scope": scope.name,
        "hexes": len(scope.patch()),
        "units": [scope.min_units, scope.max_units],
        "kinds": len(scope.specs),
        "non_open": scope.non_open if scope.palette else 0,
        "terrain": [str(t) for t in scope.palette],
        "phases": list(scope.phases),
        "attackers": list(scope.attackers),
    }


def bounds_text(b: dict) -> str:
    terrain = f", up to {b['non_open']} non-open of {len(b['terrain'])} terrain kinds" if b["non_open"] else ""
    return (
        f"{b['scope']} ({b['hexes']} hexes, {b['units'][0]}-{b['units'][1]} units of {b['kinds']} kinds"
        f"{terrain}; {', '.join(b['phases'])} phase)"
    )


#: A10.51's re-figuring, as the stage driver grows it (rules/rout/
#: A10_5_routing.lp plans/1): a rout is figured again where the unit sees an
#: enemy unit it did not know at its start, where a concealed unit drops
#: concealment (A10.533), or on arriving at a destination it may not end
#: in -- one ADJACENT to the Known enemy whose Location it left. Over the
#: solver's placements, with the LOS of geometry.lp (whole hexes at ground
#: level: the same as the Python geometry's on every board of such a bound,
#: tests/committee/test_committee_geometry.py).
REFIGURE = """
#defined rf_concealed/1. #defined rf_unbroken/1. #defined palette_name/2.
unit_hex(S,H,I) :- unit(S,C,I), cell_hex(C,H).
has_terrain(H) :- cell_hex(C,H), terrain(C,_).
terrain_of(H,T) :- cell_hex(C,H), terrain(C,J), palette_name(J,T).
terrain_of(H,open) :- hex(H,_,_,_), not has_terrain(H).
enemies(I1,I2) :- rf_side(I1,A), rf_side(I2,B), A != B.
refigured :- unit_hex(S1,H1,I1), broken(I1), unit_hex(S2,H2,I2), enemies(I1,I2), not rf_concealed(I2),
    H1 != H2, not g_los(H1,H2,_).
refigured :- unit(_,_,I), rf_concealed(I).
refigured :- unit(S1,C,I1), broken(I1), unit(S2,C,I2), enemies(I1,I2), rf_unbroken(I2).
:- not refigured.
% ... after a start where it may surrender (A20.21, captor(0,Q,_) of the
% clause: a Good Order armed enemy ADJACENT; a Disrupted unit's captor in
% its Location leaves it no free route to weigh, A20.21)
may_surrender :- unit_hex(S1,H1,I1), broken(I1), unit_hex(S2,H2,I2), enemies(I1,I2), rf_unbroken(I2),
    dist(H1,H2,1).
:- not may_surrender.
"""

#: what refiguring() leaves out, in words (a position with no re-figuring may
#: still tell two readings apart where the route figured at the start and
#: the rout's steps part otherwise: not proved, so never "every position")
REFIGURE_PARTIAL = "only the positions where a rout may be re-figured (A10.51) were walked"


def refiguring(scope: Scope) -> str | None:
    """The constraint keeping the positions where a rout may be re-figured
    (REFIGURE), for a change that weighs the route figured at the start
    against the whole rout (refigure.py); None where a bound of more
    than one hex holds what geometry.lp does not read (a building, a
    feature, a level): then every position is kept."""
    from asl_kb.board import hexgrid
    from asl_kb.committee.geometry import LP, table_facts

    # (on one hex no line crosses a hex: what lies there does not matter)
    if scope.radius and (
        any(p.features or p.terrain == "building" for p in scope.palette) or any(s.level for s in scope.specs)
    ):
        return None
    to_rel, from_rel = relative(scope)
    cells = sorted(to_rel.values())
    out = [_SHOW.sub("", LP.read_text(encoding="utf-8")), REFIGURE]
    # (the ring around the patch: a line along its edge runs beside it)
    for h in hexgrid.within(scope.centre, scope.radius + 1):
        x, y, z = hexgrid.cube(h)
        out.append(f'hex("{h}",{x},{y},{z}).')
    for n, c in enumerate(cells):
        out += [f'cell_hex({n},"{from_rel[c]}").', f'end("{from_rel[c]}").']
    names = [p.terrain for p in scope.palette]
    out += [f"palette_name({j},{t})." for j, t in enumerate(names)]
    out += [x for x in table_facts(tuple(dict.fromkeys(names))).splitlines() if not x.startswith("palette(")]
    for i, s in enumerate(scope.specs):
        out.append(f'rf_side({i},"{s.side}").')
        if "concealed" in s.status:
            out.append(f"rf_concealed({i}).")
        if "broken" not in s.status and s.type != "unarmed":
            out.append(f"rf_unbroken({i}).")
    return "\n".join(out) + "\n"


_SHOW = re.compile(r"^#show .*$", re.M)


def _refigure(scope: Scope, changed: tuple | None) -> str | None:
    if changed is None or not changed[1] or not refigures(changed[0], changed[1]):
        return None
    return refiguring(scope)


def partial_for(scope: Scope, changed: tuple | None) -> str | None:
    """What require_for leaves out of `scope` on a reading not proved, in
    words (REFIGURE_PARTIAL), or None."""
    return REFIGURE_PARTIAL if _refigure(scope, changed) is not None else None
