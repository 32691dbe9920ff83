"""asl_kb/engines/outcomes.py place_of: a hex's Place, figured only as far
as a comparison reads it, orders hexes as the whole tuple (terrain,
elevation, features, range to each unit, ranges to the rows of corners)
does, ties included: the example paths (Graph._sibling_key) read it."""

import itertools

from asl_kb.engines.outcomes import place_of
from asl_kb.position.loader import load_position_text

#: units at ranges that tie for the first few units and differ later, on a
#: map with corners, terrain and a level
TEXT = """\
name: places
attacker: russian
map:
  area: [A1, K10]
  terrain: {E5: woods, F5: woods, E6: building, C3: grain}
units:
  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: E4, status: [broken]}
  - {id: R2, side: russian, type: squad, counter: 4-4-7, at: E4}
  - {id: R3, side: russian, type: squad, counter: 4-4-7, at: B2}
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: H8}
"""


def test_a_place_orders_as_its_whole_tuple():
    position = load_position_text(TEXT, "places.yaml")
    place = place_of(position)
    hexes = [f"{c}{r}" for c in "ABCDEFGHIJK" for r in range(1, 11)]
    by_place = sorted(hexes, key=lambda h: (place(h), h))
    whole = place_of(position)  # (its own Places: every range figured before the sort)
    by_tuple = sorted(hexes, key=lambda h: (whole(h).key(), h))
    assert by_place == by_tuple
    ties = 0
    for a, b in itertools.combinations(hexes[:40], 2):
        ka, kb = whole(a).key(), whole(b).key()
        assert (place(a) == place(b), place(a) < place(b), place(a) > place(b)) == (ka == kb, ka < kb, ka > kb)
        ties += ka[:3] == kb[:3] and ka[3][0] == kb[3][0] and ka != kb
    assert ties  # (some pairs tie on their first range and differ later)


def test_a_comparison_figures_the_ranges_it_reads():
    place = place_of(load_position_text(TEXT, "places.yaml"))
    a, b = place("A1"), place("K10")
    assert a < b and a != b
    assert (len(a._ranges), len(b._ranges), a._tail, b._tail) == (1, 1, None, None)
