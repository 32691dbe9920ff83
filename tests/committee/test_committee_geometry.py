"""The geometry in ASP (asl_kb/committee/geometry.lp) against the Python
geometry (the reference) on every board of a bound: the solver chooses each
board's terrain, derives ADJACENT hexes, costs and LOS in the same solve,
and every board, to the solver's exhaustion, must agree."""

from __future__ import annotations

import pytest

from asl_kb.committee import geometry as G


def test_asp_geometry_equals_python_on_every_board_of_a_small_bound():
    # 19 hexes, at most one of them woods (an obstacle), grain (a
    # hindrance) or marsh (not traversable): 1 + 19 x 3 boards
    b = G.Bound(radius=2, palette=("woods", "grain", "marsh"), non_open=1)
    r = G.compare(b)
    assert r["exhausted"] and r["boards"] == 1 + 19 * 3
    assert r["differ"] == []


def test_a_board_where_the_two_would_part_is_seen():
    """The comparison is not blind: a board read with the wrong terrain
    parts the two (its LOS through the woods hex)."""
    b = G.Bound(radius=2, palette=("woods",), non_open=1)
    g = next(g for g in G.asp_boards(b, {}) if g.terrain == {"P15": "woods"})
    wrong = G.python_geometry(b, {})  # the same board, open ground
    assert g.los != wrong.los and set(g.los) < set(wrong.los)


@pytest.mark.parametrize("non_open", [2])
def test_asp_geometry_equals_python_on_every_board_of_a_wider_bound(non_open):
    """make test-slow: two non-open hexes of seven terrains, 8,513 boards
    (a hexspine between two obstacles, a hindrance beside an obstacle)."""
    b = G.Bound(
        radius=2,
        palette=("woods", "grain", "building", "brush", "orchard", "marsh", "water"),
        non_open=non_open,
    )
    r = G.compare(b)
    assert r["exhausted"] and r["boards"] == 1 + 19 * 7 + 171 * 49
    assert r["differ"] == []
