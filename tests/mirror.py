"""A position turned over left to right (column c -> K - c, K even, so that
every hex keeps its neighbours: columns of one parity stay of that parity),
and an answer's hexes read back: the metamorphic test's tools
(tests/rules/test_mirror.py)."""

from __future__ import annotations

from asl_kb.board import hexgrid
from asl_kb.position.loader import FrozenMap, _side_key
from asl_kb.record import replace

#: a hexside direction (1 = N, 2 = NE, ..., 6 = NW) turned over: NE <-> NW, SE <-> SW
TURNED = {1: 1, 2: 6, 3: 5, 4: 4, 5: 3, 6: 2}


def axis(position) -> int:
    """K: an even column sum that keeps the position's area on the board."""
    lo, hi = (hexgrid.hex_coords(h)[0] for h in position.area)
    k = lo + hi
    return k if k % 2 == 0 else k + 1


def turn(h: str, k: int) -> str:
    col, row = hexgrid.hex_coords(h)
    return hexgrid.hex_id(k - col, row)


def mirrored(position):
    """The position turned over about the column axis(position)."""
    k = axis(position)
    t = lambda h: turn(h, k)  # noqa: E731
    (lo_col, lo_row), (hi_col, hi_row) = (hexgrid.hex_coords(h) for h in position.area)
    units = tuple(
        replace(
            u,
            hex=t(u.hex),
            ca=TURNED.get(u.ca),
            vca=TURNED.get(u.vca),
            tca=TURNED.get(u.tca),
        )
        for u in position.units
    )
    fire = position.fire_effects
    if fire is not None and fire.random_selection is not None:
        h, result = fire.random_selection
        fire = replace(fire, random_selection=(t(h), result))
    return replace(
        position,
        area=(hexgrid.hex_id(k - hi_col, lo_row), hexgrid.hex_id(k - lo_col, hi_row)),
        terrain=FrozenMap({t(h): v for h, v in position.terrain.items()}),
        levels=FrozenMap({t(h): v for h, v in position.levels.items()}),
        smoke=tuple(t(h) for h in position.smoke),
        los_blocked=tuple((t(a), t(b)) for a, b in position.los_blocked),
        los_clear=tuple((t(a), t(b)) for a, b in position.los_clear),
        los_hindrance=tuple((t(a), t(b), n) for a, b, n in position.los_hindrance),
        units=units,
        mopping_up=tuple(t(h) for h in position.mopping_up),
        hexsides=FrozenMap({_side_key(t(a), t(b)): v for (a, b), v in position.hexsides.items()}),
        fire_effects=fire,
    )
