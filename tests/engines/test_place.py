"""asl_kb/engines/outcomes.py place_of: a hex's place, its ranges past the
first NEAR units figured only as far as a comparison reads them (Farther),
orders hexes as the whole tuple (terrain, elevation, features, range to each
unit, ranges to the rows of corners) does, ties included: the example paths
(Graph._sibling_key) read it."""

import itertools

from asl_kb.engines.outcomes import NEAR, Farther, place_of
from asl_kb.position.loader import load_position_text

#: a stack of NEAR units first (hexes tie on their first NEAR ranges
#: wherever they tie on one), then units that tell them apart, on a map with
#: corners, terrain and a level
UNITS = [f"  - {{id: R{i}, side: russian, type: squad, counter: 4-4-7, at: E4}}" for i in range(NEAR)] + [
    "  - {id: R8, side: russian, type: squad, counter: 4-4-7, at: B2, status: [broken]}",
    "  - {id: G1, side: german, type: squad, counter: 4-6-7, at: H8}",
    "  - {id: G2, side: german, type: squad, counter: 4-6-7, at: H8}",
]
TEXT = """\
name: places
attacker: russian
map:
  area: [A1, K10]
  terrain: {E5: woods, F5: woods, E6: building, C3: grain}
units:
""" + "\n".join(UNITS)
HEXES = [f"{c}{r}" for c in "ABCDEFGHIJK" for r in range(1, 11)]


def _whole(p: tuple) -> tuple:
    """The place as one tuple, every range figured."""
    *head, near, rest = p
    farther, corners = rest.whole()
    return (*head, near + farther, corners)


def test_a_place_orders_as_its_whole_tuple():
    position = load_position_text(TEXT, "places.yaml")
    place = place_of(position)
    assert isinstance(place("A1")[-1], Farther)
    whole = {h: _whole(place_of(position)(h)) for h in HEXES}
    assert sorted(HEXES, key=lambda h: (place(h), h)) == sorted(HEXES, key=lambda h: (whole[h], h))
    ties = 0
    for a, b in itertools.combinations(HEXES, 2):
        pa, pb, wa, wb = place(a), place(b), whole[a], whole[b]
        assert (pa == pb, pa < pb, pa > pb, pa <= pb, pa >= pb) == (wa == wb, wa < wb, wa > wb, wa <= wb, wa >= wb)
        ties += pa[:4] == pb[:4] and wa != wb
    assert ties  # (pairs alike in their first NEAR ranges, told apart farther)


def test_a_comparison_figures_the_ranges_it_reads():
    place = place_of(load_position_text(TEXT, "places.yaml"))
    a, b = place("E1")[-1], place("E7")[-1]  # (both at range 3 from the stack, not from B2)
    assert a != b
    assert (len(a._ranges), len(b._ranges), a._tail, b._tail) == (1, 1, None, None)
