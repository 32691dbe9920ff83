import random
from collections import deque

import pytest

from asl_kb.board import hexgrid as hg
from asl_kb.board.hexgrid import Area


# ---------------------------------------------------------------- ids


@pytest.mark.parametrize(
    "text, board, expected",
    [
        ("M2", None, "M2"),
        ("GG10", None, "GG10"),
        ("B0", None, "B0"),
        ("5M2", "5", "M2"),
        ("12AA3", "12", "AA3"),
        ("  K4 ", None, "K4"),
        ("M2", "5", "M2"),
        ("yM2", "y", "M2"),
    ],
)
def test_parse_hex_good(text, board, expected):
    assert hg.parse_hex(text, board) == expected


@pytest.mark.parametrize(
    "text, board, fragment",
    [
        ("m2", None, "upper case"),
        ("AB3", None, "doubled"),
        ("AAA3", None, "at most two"),
        ("M", None, "expected column letters"),
        ("2", None, "board"),
        ("", None, "empty"),
        ("M-2", None, "expected column letters"),
        ("M02", None, "leading zero"),
        ("5M2", None, "no board was given"),
        ("5M2", "4", "expected board '4'"),
        ("10M2", "1", "expected board '1'"),
        ("M2x", None, "expected column letters"),
    ],
)
def test_parse_hex_bad(text, board, fragment):
    with pytest.raises(ValueError, match=fragment):
        hg.parse_hex(text, board)


def test_coords_roundtrip():
    assert hg.hex_coords("A1") == (0, 1)
    assert hg.hex_coords("Z5") == (25, 5)
    assert hg.hex_coords("AA0") == (26, 0)
    assert hg.hex_coords("GG10") == (32, 10)
    for col in range(0, 52):
        for row in range(0, 12):
            assert hg.hex_coords(hg.hex_id(col, row)) == (col, row)
    with pytest.raises(ValueError):
        hg.hex_id(-1, 3)
    with pytest.raises(ValueError):
        hg.hex_id(3, -1)
    with pytest.raises(ValueError):
        hg.hex_coords("m2")


# ---------------------------------------------------------------- adjacency


def test_neighbors_examples():
    # M (index 12) is an even column, L (11) odd.
    assert set(hg.neighbors("M2")) == {"L1", "L2", "N1", "N2", "M1", "M3"}
    assert set(hg.neighbors("L2")) == {"K2", "K3", "M2", "M3", "L1", "L3"}


def test_neighbors_order_clockwise_from_north():
    assert hg.neighbors("M2") == ("M1", "N1", "N2", "M3", "L2", "L1")
    assert hg.neighbors("L2") == ("L1", "M2", "M3", "L3", "K3", "K2")
    for d, n in enumerate(hg.neighbors("M5"), start=1):
        assert hg.direction("M5", n) == d
        # the opposite direction leads back
        assert hg.direction(n, "M5") == (d + 2) % 6 + 1


def test_neighbors_are_symmetric():
    for h in Area("A0", "GG10").hexes():
        for n in hg.neighbors(h):
            assert h in hg.neighbors(n)


def test_neighbors_at_map_edge_drop_unnamed_hexes():
    assert hg.neighbors("A1") == ("A0", "B0", "B1", "A2")  # nothing west of column A
    assert "B-1" not in hg.neighbors("B0")
    assert hg.neighbor("A1", 5) is None


def test_direction_not_adjacent():
    with pytest.raises(ValueError):
        hg.direction("M2", "M4")


# ---------------------------------------------------------------- distance


def test_distance_examples():
    assert hg.distance("L2", "K4") == 2
    assert hg.distance("M2", "M3") == 1
    assert hg.distance("M2", "M2") == 0
    assert hg.distance("M2", "L1") == 1
    assert hg.distance("A1", "A10") == 9
    assert hg.distance("A1", "GG10") == 32
    assert hg.distance("GG10", "A1") == 32
    assert hg.distance("A1", "C1") == 2
    assert hg.distance("B0", "D0") == 2


def _bfs_distances(start, area):
    seen = {start: 0}
    q = deque([start])
    while q:
        h = q.popleft()
        for n in hg.neighbors(h):
            if n not in seen and area.contains(n):
                seen[n] = seen[h] + 1
                q.append(n)
    return seen


def test_distance_equals_bfs_distance():
    # BFS inside a padded area so that shortest paths are never cut by the edge.
    padded = Area("A0", "ZZ30")
    board = Area.whole_board().hexes()
    rng = random.Random(7)
    for start in rng.sample(board, 12):
        bfs = _bfs_distances(start, padded)
        for other in board:
            assert hg.distance(start, other) == bfs[other]
            assert hg.distance(other, start) == bfs[other]


# ---------------------------------------------------------------- areas


def test_area_contains():
    board = Area.whole_board()
    assert board.contains("A1")
    assert board.contains("B0")
    assert board.contains("GG10")
    assert "M5" in board
    assert not board.contains("A0")  # even column: no row 0
    assert not board.contains("C0")
    assert not board.contains("HH5")
    assert not board.contains("A11")
    small = Area("K2", "M4")
    assert small.contains("K2") and small.contains("L3") and small.contains("M4")
    assert not small.contains("J3") and not small.contains("K5") and not small.contains("N2")
    assert Area("M4", "K2") == small  # corners in any order
    assert Area.spanning("K2", "M4") == small


def test_area_hexes():
    board = Area.whole_board()
    hexes = board.hexes()
    # A..GG: 17 even-index columns x 10 rows + 16 odd-index columns x 11 rows
    assert len(hexes) == 17 * 10 + 16 * 11 == len(board)
    assert hexes[0] == "A1" and hexes[-1] == "GG10"
    assert list(hexes) == sorted(hexes, key=hg.hex_coords)
    assert Area("B0", "C1").hexes() == ("B0", "B1", "C1")


def test_within():
    board = Area.whole_board()
    assert hg.within("M5", 0, board) == ("M5",)
    r1 = hg.within("M5", 1, board)
    assert set(r1) == {"M5", *hg.neighbors("M5")}
    r3 = hg.within("M5", 3, board)
    assert len(r3) == 1 + 6 + 12 + 18
    assert r3 == tuple(sorted(r3, key=hg.hex_coords))
    assert all(hg.distance("M5", h) <= 3 for h in r3)
    assert set(r3) == {h for h in board.hexes() if hg.distance("M5", h) <= 3}
    corner = hg.within("A1", 2, board)
    assert set(corner) == {h for h in board.hexes() if hg.distance("A1", h) <= 2}
    assert "A0" not in corner
    assert hg.within("A1", -1, board) == ()


# ---------------------------------------------------------------- hex lines


def test_hex_line_adjacent_and_same():
    assert hg.hex_line("M2", "M3") == ()
    assert hg.hex_line("M2", "L1") == ()
    assert hg.hex_line("M2", "M2") == ()


def test_hex_line_straight_column():
    assert hg.hex_line("A1", "A5") == (("A2",), ("A3",), ("A4",))
    assert hg.hex_line("A5", "A1") == (("A4",), ("A3",), ("A2",))


def test_hex_line_straight_diagonal():
    # along a hex-grain diagonal: M2 -> N2 -> O3 -> P3
    assert hg.hex_line("M2", "P3") == (("N2",), ("O3",))


def test_hex_line_hexside():
    # B0 and D0 are at the same height; the line between them runs along the
    # C0/C1 hexside.
    assert hg.hex_line("B0", "D0") == (("C0", "C1"),)
    # a longer hexspine line alternates hexside pairs and hexes
    assert hg.hex_line("B1", "F1") == (("C1", "C2"), ("D1",), ("E1", "E2"))
    assert hg.hex_line("M2", "O2") == (("N1", "N2"),)


def test_hex_line_clipped_hexes_are_included():
    # A line that clips a hex near a vertex must list it (naive centre-point
    # sampling misses it).
    line = hg.hex_line("A1", "M5")
    flat = [h for element in line for h in element]
    assert len(flat) == len(set(flat))
    assert all(len(e) == 1 for e in line)
    # consecutive hexes along the line are adjacent
    chain = ["A1", *flat, "M5"]
    for x, y in zip(chain, chain[1:]):
        assert hg.distance(x, y) == 1


def _line_points(a, b, steps=1000):
    """Dense, exact sample of the hexes whose interior the centre line enters.

    Points are kept in integer cube coordinates scaled by ``steps``; points
    lying exactly on a hexside or vertex are skipped.
    """
    ax, ay, az = hg.cube(a)
    bx, by, bz = hg.cube(b)
    found = set()
    for i in range(1, steps):
        x = ax * steps + i * (bx - ax)
        y = ay * steps + i * (by - ay)
        z = az * steps + i * (bz - az)
        rx, ry, rz = hg._cube_round(x / steps, y / steps, z / steps)
        u = ((x - y) - steps * (rx - ry), (y - z) - steps * (ry - rz), (z - x) - steps * (rz - rx))
        if all(abs(v) < steps for v in u):
            found.add(hg.hex_id(*hg._from_cube(rx, rz)))
    return found - {a, b}


def test_hex_line_matches_dense_sampling():
    rng = random.Random(11)
    board = Area.whole_board().hexes()
    for _ in range(150):
        a, b = rng.sample(board, 2)
        line = hg.hex_line(a, b)
        flat = {h for element in line for h in element}
        singles = {e[0] for e in line if len(e) == 1}
        sampled = _line_points(a, b)
        # every hex the dense sample finds strictly inside is on the line,
        # and every single (non-hexside) hex of the line is found by it
        assert sampled <= flat, (a, b)
        assert singles <= sampled, (a, b)
        # symmetric
        assert hg.hex_line(b, a) == line[::-1]


def test_hex_line_exact_where_centre_sampling_fails():
    # Sampling the line only at the N-1 points i/N (N = range) finds 13 hexes
    # here and would report false hexside pairs; the line really crosses 17
    # hexes, all through their interiors.
    line = hg.hex_line("M1", "A9")
    assert hg.distance("M1", "A9") == 14
    assert all(len(e) == 1 for e in line)
    flat = [e[0] for e in line]
    assert flat == [
        "L1",
        "K2",
        "K3",
        "J2",
        "J3",
        "I3",
        "I4",
        "H4",
        "G5",
        "F5",
        "E6",
        "E7",
        "D6",
        "D7",
        "C7",
        "C8",
        "B8",
    ]
    chain = ["M1", *flat, "A9"]
    assert all(hg.distance(x, y) == 1 for x, y in zip(chain, chain[1:]))


def test_hex_line_only_named_hexes():
    # Along the top edge the B0-D0 line runs between C0 (off-board but named)
    # and C1; a hexside pair whose other half has no name is left out.
    for a, b in [("B0", "F0"), ("A1", "A9"), ("A1", "E1")]:
        for element in hg.hex_line(a, b):
            for h in element:
                hg.hex_coords(h)


def test_the_symmetries_are_the_rotations_and_mirrors():
    """hexgrid.SYMMETRIES (signed permutations, for speed) are the six
    rotations and the six rotated mirrors, each with its inverse."""
    import itertools

    from asl_kb.board import hexgrid as H

    cubes = [c for c in itertools.product(range(-3, 4), repeat=3) if sum(c) == 0]
    for k in range(6):
        (apply, undo), (mirrored, mirrored_undo) = H.SYMMETRIES[2 * k], H.SYMMETRIES[2 * k + 1]
        for c in cubes:
            assert apply(c) == H._rotate(c, k) and undo(apply(c)) == c
            assert mirrored(c) == H._rotate(H._mirror(c), k) and mirrored_undo(mirrored(c)) == c
    assert len({tuple(s[0](c) for c in cubes) for s in H.SYMMETRIES}) == 12
