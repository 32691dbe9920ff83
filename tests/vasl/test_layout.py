"""Boards placed as VASL places them (asl_kb/vasl/layout.py): board-prefixed
hex names, reversed and cropped boards, seams, pixels of a saved game."""

import pytest

from asl_kb.vasl.archive import BoardError
from asl_kb.vasl.layout import BoardSpec, Layout, edge_buffer

# boards 2 and 3 side by side, 4 under 2; 3 reversed
THREE = [BoardSpec("2", 0, 0), BoardSpec("3", 1, 0, reversed=True), BoardSpec("4", 0, 1)]


@pytest.fixture(scope="module")
def three():
    return Layout.of(THREE)


def test_boards_placed_left_to_right_and_top_to_bottom(three):
    origins = {b.prefix: b.origin for b in three.boards}
    assert origins == {"2": (0, 0), "3": (1800, 0), "4": (0, 645)}
    assert three.size == (3600, 1290)
    assert three.centre("2A1") == (0.0, 32.25)
    assert three.centre("4B0") == (56.25, 645.0)


def test_reversed_board_turned_about_its_centre(three):
    # 3A1 is the far corner of a reversed board; its GG10 lies against board 2
    assert three.centre("3A1") == (3600.0, 612.75)
    assert three.centre("3GG10") == (1800.0, 32.25)


def test_seam_hexes_have_both_names_vasl_shows_the_right_or_lower_board(three):
    # column GG of board 2 is column GG (reversed) of board 3
    assert three.names_of("2GG1") == ("3GG10", "2GG1")
    # row 10 of board 2's half-hex columns is row 0 of board 4's
    assert three.names_of("2B10") == ("4B0", "2B10")
    assert three.cube("2GG1") == three.cube("3GG10")
    assert len(three.hexes()) == 3 * 346 - 10 - 16


def test_range_and_adjacency_across_seams(three):
    assert three.distance("2A1", "4A1") == 10
    assert three.adjacent("2A10", "4A1")
    assert set(three.neighbors("2FF5")) >= {"3GG6", "3GG5"}  # 2GG5, 2GG6 under their board-3 names
    assert three.distance("2A1", "3A1") == 64
    assert three.within("2A1", 1) == ("2A1", "2A2", "2B0", "2B1")
    # within is the hex grid's: 1 + 3 r (r + 1) hexes away from the edges
    assert len(three.within("2P5", 3)) == 37


def test_parse_names_as_players_write_them(three):
    assert three.parse("2O5") == "2O5" and three.parse("02O5") == "2O5"
    assert three.parse("2GG1") == "3GG10"
    with pytest.raises(ValueError, match="board-prefixed"):
        three.parse("O5")
    with pytest.raises(ValueError, match="columns A..GG"):
        three.parse("2HH5")
    with pytest.raises(ValueError, match="rows 1..10"):
        three.parse("2A0")
    with pytest.raises(ValueError, match="no board"):
        three.parse("5A1")
    one = Layout.of(["2"])
    assert one.parse("O5") == one.parse("2O5") == "2O5"


def test_cropped_board_keeps_the_hexes_whose_centre_dot_it_holds():
    # the west half of board 2: columns A..Q (Q's centre dot on the cut)
    half = Layout.of([BoardSpec("2", 0, 0, crop=(0, 0, 900, -1)), BoardSpec("3", 1, 0)])
    b2 = half.by_prefix["2"]
    assert b2.size == (900, 645) and half.by_prefix["3"].origin == (900, 0)
    assert half.contains("2P5") and not half.contains("2R5")
    with pytest.raises(ValueError, match="cropped"):
        half.parse("2R5")
    # board 3's A column lies on the cut: Q of board 2 and A of board 3 are one hex
    assert half.names_of("2Q5") == ("3A5", "2Q5")


def test_locate_a_piece_pixel_with_the_edge_buffer():
    assert edge_buffer("6.2.1") == (400, 400) and edge_buffer("6.5") == (400, 400)
    assert edge_buffer("6.1.2") == (200, 200) and edge_buffer(None) == (200, 200)
    layout = Layout.of(THREE, edge=edge_buffer("6.4"))
    x, y = layout.centre("2O5")
    assert (x, y) == (400 + 14 * 56.25, 400 + 32.25 + 4 * 64.5)
    spot = layout.locate(x + 10, y - 5)
    assert (spot.board, spot.hex, spot.also) == ("2", "2O5", ())
    # a reversed board: the point's place on the board's own image
    x3, y3 = layout.centre("3C3")
    spot = layout.locate(x3, y3)
    assert spot.hex == "3C3" and spot.local == pytest.approx((112.5, 161.25))
    # on the seam: VASL's board and the other name of the hex
    spot = layout.locate(400 + 1800, 400 + 32.25)
    assert (spot.board, spot.hex, spot.also) == ("3", "3GG10", ("2GG1",))
    assert layout.locate(10, 10) is None
    # the map's outer right edge: reversed board 3's column A, whose centre
    # dots lie on it (VASL snaps a counter there)
    xa, ya = layout.centre("3A5")
    assert xa == 400 + 2 * 1800 and layout.locate(xa, ya).hex == "3A5"
    assert layout.locate(xa + 5, ya) is None


def test_bd_command_board_descriptions():
    spec, version = BoardSpec.from_vasl("1\t0\tr32\t0\t0\t900\t645\tVER\t6.1\t")
    assert spec == BoardSpec("32", 1, 0, reversed=True, crop=(0, 0, 900, 645)) and version == "6.1"
    spec, version = BoardSpec.from_vasl("0\t1\t02\tVER\t6.4\tSSR\tNoWalls")
    assert spec == BoardSpec("02", 0, 1) and version == "6.4"
    assert BoardSpec.from_vasl("0\t0\tr")[0] == BoardSpec("r")  # board r, not reversed


def test_bad_layouts():
    with pytest.raises(BoardError, match="named twice"):
        Layout.of([BoardSpec("2"), BoardSpec("02", 1, 0)])
    with pytest.raises(BoardError, match="both in column 0"):
        Layout.of([BoardSpec("2"), BoardSpec("3")])
