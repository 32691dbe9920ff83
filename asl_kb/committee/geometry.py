"""The geometry the rules read, in ASP (geometry.lp), for boards whose
terrain the solver chooses, checked against the Python geometry.

A *board bound*: the hexes within `radius` of a centre hex, each of them
open ground or one terrain of a palette, at most `non_open` of them not
open; a ring of open ground around them (a line along the patch's edge may
run beside it). The solver chooses each board (choice rules) and derives,
in the same solve, which hexes are ADJACENT, what entering each costs, and
the LOS between every two hexes of the patch at ground level
(geometry.lp). `compare` walks every board of the bound -- every model,
until the solver's search space is exhausted -- and sets each beside what
the Python geometry says of the same board (asl_kb/board/geometry.py
Moves, asl_kb/board/los.py LosMap, the reference): "equivalent for every
board within the bound" only after that exhaustive run.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import clingo
import yaml

from asl_kb.board import hexgrid, los, terrain
from asl_kb.board.geometry import Moves, half_mf

LP = Path(__file__).resolve().parent / "geometry.lp"

CHOOSE = """
{ chosen(H,T) : palette(T) } 1 :- end(H).
:- #count{ H : chosen(H,_) } > N, non_open(N).
terrain_of(H,T) :- chosen(H,T).
terrain_of(H,open) :- hex(H,_,_,_), not chosen(H,_).
"""


@dataclasses.dataclass(frozen=True)
class Bound:
    """A board bound (module doc)."""

    centre: str = "P15"
    radius: int = 2
    palette: tuple[str, ...] = ("woods", "grain", "building")
    non_open: int = 1

    def patch(self) -> list[str]:
        return sorted(hexgrid.within(self.centre, self.radius), key=hexgrid.hex_coords)

    def board(self) -> list[str]:
        return sorted(hexgrid.within(self.centre, self.radius + 1), key=hexgrid.hex_coords)

    def said(self) -> str:
        return (
            f"{len(self.patch())} hexes around {self.centre}, up to {self.non_open} of them "
            f"{' or '.join(self.palette)}, the rest open ground, all at ground level"
        )


def table_facts(palette) -> str:
    """The terrain table's values the encoding reads, for open ground and
    the palette (asl_kb/board/terrain.py: one table, written as facts)."""
    out = [f"blocks_at({terrain.HINDRANCE_BLOCKS_AT})."]
    for name in ("open", *palette):
        t = terrain.terrain_type(name)
        out.append(f"palette({name})." if name != "open" else "")
        if t.passable_rout and t.mf is not None:
            out.append(f"mf({name},{half_mf(t.mf)}).")
        out.append(f"los_kind({name},{t.los}).")
        if t.hindrance:
            out.append(f"hindrance({name},{t.hindrance}).")
    return "\n".join(x for x in out if x) + "\n"


def board_facts(b: Bound) -> str:
    out = []
    patch = set(b.patch())
    for h in b.board():
        x, y, z = hexgrid.cube(h)
        out.append(f'hex("{h}",{x},{y},{z}).')
        if h in patch:
            out.append(f'end("{h}").')
    out.append(f"non_open({b.non_open}).")
    return "\n".join(out) + "\n"


@dataclasses.dataclass
class Geometry:
    """What one board's geometry says: ADJACENT pairs, costs (None: not
    traversable), LOS (None: blocked, else the hindrance DRM)."""

    terrain: dict
    adjacent: set = dataclasses.field(default_factory=set)
    cost: dict = dataclasses.field(default_factory=dict)
    los: dict = dataclasses.field(default_factory=dict)


def asp_boards(b: Bound, run: dict):
    """Each board of the bound, as the solver chooses it, with its geometry
    (geometry.lp); run["exhausted"] says at the end whether every model
    was seen."""
    ctl = clingo.Control(["0"])
    ctl.add("base", [], LP.read_text(encoding="utf-8") + CHOOSE + table_facts(b.palette) + board_facts(b))
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            g = Geometry({})
            for s in model.symbols(shown=True):
                args = [_value(a) for a in s.arguments]
                if s.name == "terrain_of":
                    if args[1] != "open":
                        g.terrain[args[0]] = args[1]
                elif s.name == "g_adjacent":
                    g.adjacent.add((args[0], args[1]))
                elif s.name == "g_cost":
                    g.cost[(args[0], args[1])] = args[2]
                else:
                    g.los[(args[0], args[1])] = args[2]
            yield g
        run["exhausted"] = handle.get().exhausted


def _value(a: clingo.Symbol):
    if a.type == clingo.SymbolType.String:
        return a.string
    return a.number if a.type == clingo.SymbolType.Number else a.name


def python_geometry(b: Bound, chosen: dict) -> Geometry:
    """The Python geometry of the board with `chosen` terrain (the
    reference): the position loader's map, Moves and LosMap."""
    from asl_kb.position.loader import load_position_text

    board = b.board()
    cols = [hexgrid.hex_coords(h)[0] for h in board]
    rows = [hexgrid.hex_coords(h)[1] for h in board]
    area = [hexgrid.hex_id(min(cols), min(rows)), hexgrid.hex_id(max(cols), max(rows))]
    text = yaml.safe_dump({"name": "board", "attacker": "german", "map": {"area": area, "terrain": dict(chosen)}})
    p = load_position_text(text, "board")
    g = Geometry(dict(chosen))
    patch = b.patch()
    inside = set(patch)
    moves = Moves(p, p.map_area())
    for h in patch:
        for (n, level), cost in moves((h, 0)):
            if n in inside and level == 0:
                g.adjacent.add((h, n))
                if cost is not None:
                    g.cost[(h, n)] = cost
    sight = los.of_position(p)
    for a in patch:
        for c in patch:
            if a != c:
                clear, drm = sight.los(a, 0, c, 0)
                if clear:
                    g.los[(a, c)] = drm
    return g


def compare(b: Bound) -> dict:
    """Every board of the bound: the ASP geometry beside the Python one.
    {"boards", "exhausted", "differ": [{"terrain", "what", "asp", "python"}]}"""
    run: dict = {}
    boards, differ = 0, []
    for g in asp_boards(b, run):
        boards += 1
        ref = python_geometry(b, g.terrain)
        for what in ("adjacent", "cost", "los"):
            mine, theirs = getattr(g, what), getattr(ref, what)
            if mine != theirs:
                keys = (
                    sorted(set(mine) ^ set(theirs))
                    if isinstance(mine, set)
                    else sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
                )
                differ.append(
                    {
                        "terrain": g.terrain,
                        "what": what,
                        "at": keys[:5],
                        "asp": [x in mine if isinstance(mine, set) else mine.get(x) for x in keys[:5]],
                        "python": [x in theirs if isinstance(theirs, set) else theirs.get(x) for x in keys[:5]],
                    }
                )
    return {"bound": b.said(), "boards": boards, "exhausted": bool(run.get("exhausted")), "differ": differ}
