"""LOS on cropped VASL boards, as VASL's Map.crop, flip and insertMap build
its map of them (asl_kb/vasl/insert.py), on the synthetic archives of
tests/vasl_archives.py (sample_board). The crops are VASL's "crop to the
middle of a hex row" rectangles (ASLBoard.crop): from column B (a half-hex
column: VASL's "HalfHeight" grid) or Q, rows 6-10. VASL's own LOS classes
run locally on these archives and crops give the same answers."""

from __future__ import annotations

import pytest

from vasl_archives import boards_folder, sample_board
from asl_kb.vasl.archive import BoardError
from asl_kb.vasl.layout import BoardSpec
from asl_kb.vasl.realmap import RealMap

#: columns B..M (x from B's centre dot to M's), every row
B_TO_M = (56, 0, 619, -1)
#: columns Q..GG
Q_TO_GG = (900, 0, -1, -1)
#: rows 6..10 (y from half a hex above A6's centre dot)
ROWS_6_10 = (0, 323, -1, -1)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return boards_folder(tmp_path_factory.mktemp("vasl") / "boards", {"91": sample_board(), "92": sample_board()})


@pytest.fixture(scope="module")
def whole(folder):
    return RealMap((BoardSpec("91"),), folder)


def los(real, a: str, b: str):
    ah, _, al = a.partition("@")
    bh, _, bl = b.partition("@")
    r = real.los(real.layout.parse(ah), int(al or 0), real.layout.parse(bh), int(bl or 0))
    return ("blocked" if r.blocked else "clear"), real.hex_at(r.at), r.hindrance


#: pairs within columns B..M, and what VASL answers on the crop
PAIRS = [
    ("91C5", "91I6", ("blocked", "91H5", 0)),  # the blind hex behind the crest (B10.23)
    # VASL's answer on this crop, as printed or reversed (on the whole board
    # it is clear): the crop's grid is not the whole board's, to the pixel
    ("91C5", "91J6", ("blocked", "91I6", 0)),
    ("91D2", "91G2", ("blocked", "91E2", 0)),  # woods (A6.2)
    ("91K8@2", "91E3", ("clear", None, 0)),  # the building's upper level over the woods
    ("91J8", "91M8", ("blocked", "91K8", 0)),
]


@pytest.mark.parametrize("reversed_", [False, True], ids=["as printed", "reversed"])
def test_a_board_cropped_from_a_half_hex_column(folder, whole, reversed_):
    """Columns B..M: VASL's grid of the crop has its half-hex columns even;
    the hexes keep their names and what the whole board gave them."""
    real = RealMap((BoardSpec("91", crop=B_TO_M, reversed=reversed_),), folder)
    assert real.vmap.grid.shift == (0 if reversed_ else 1)  # 12 columns: turned, the grid changes kind
    names = real.layout.hexes()
    assert names[0] == "91B0" and names[-1] == "91M10" and len(names) == 6 * 10 + 6 * 11
    for name in names:
        got, want = real.hex_data(name), whole.hex_data(name)
        assert (got.center.name, got.base, real.levels_of(name)) == (want.center.name, want.base, whole.levels_of(name))
    for a, b, want in PAIRS:
        assert los(real, a, b) == want, (a, b)


def test_a_cropped_board_beside_a_whole_one_and_a_crop_of_rows(folder):
    """Columns Q..GG of 91 (a full-hex column first: VASL's "Normal" grid)
    with 92 whole beside it, the seam's half hexes one hex; then rows 6..10
    of 91 alone."""
    real = RealMap((BoardSpec("91", 0, 0, crop=Q_TO_GG), BoardSpec("92", 1, 0)), folder)
    assert real.vmap.grid.shift == 0
    assert real.layout.parse("91Q1") == "91Q1" and real.layout.parse("91GG1") == "92A1"
    assert real.hex_data("91S5").hexside[3].name == "Wall"  # S5's south hexside
    assert los(real, "91S4", "91S7") == ("blocked", "91S5", 0)  # the wall across the line (B9.2)
    assert los(real, "91R5", "91T5") == ("clear", None, 0)  # along its hexspine, beside both ends
    assert los(real, "92C5", "92I6") == ("blocked", "92H5", 0)  # the crest on the board beside
    assert los(real, "91U3", "92D5") == ("blocked", "92C5", 0)  # across the seam, over the hill
    # a small crop (columns C..K, rows 3..8): a grid of 9 columns and 6 rows
    small = RealMap((BoardSpec("91", crop=(113, 129, 450, 387)),), folder)
    assert los(small, "91C5", "91I6") == ("blocked", "91H5", 0) and los(small, "91D3", "91G4") == ("clear", None, 0)
    low = RealMap((BoardSpec("91", crop=ROWS_6_10),), folder)
    assert low.layout.hexes()[0] == "91A6"
    assert los(low, "91J8", "91M8") == ("blocked", "91K8", 0)
    assert los(low, "91C6", "91I6") == ("blocked", "91H5", 0)  # the ridge's last hex, cut in half


def test_a_crop_vasl_puts_elsewhere_is_refused_naming_the_board(folder):
    """VASL's insertMap places a reversed crop of rows 1..5 below another
    board by its first hex's place on the whole board: its pixels land on
    the board above, and VASL's LOS there is another map's. Refused, naming
    the board, rather than traced wrong."""
    real = RealMap(
        (BoardSpec("91", 0, 0, crop=ROWS_6_10), BoardSpec("92", 0, 1, reversed=True, crop=(0, 0, -1, 322))), folder
    )
    with pytest.raises(BoardError, match=r"board 92\b.*VASL"):
        real.los(real.layout.parse("91A6"), 0, real.layout.parse("92A1"), 0)


def test_a_board_that_is_not_a_standard_geomorphic_one_is_refused_naming_it(tmp_path):
    """A board of another hex grid (a deluxe board's big hexes, here 15 x 5
    hexes of 168.75 x 194.2 pixels, as VASL's board `a`): refused, naming
    the board, not traced as if it were geomorphic."""
    from vasl_archives import Painter

    from asl_kb.vasl.archive import HexGeometry

    deluxe = HexGeometry(hex_width=168.75, hex_height=194.2, a1=(0.0, 97.1), columns=15, rows=5)
    folder = boards_folder(tmp_path / "boards", {"95": Painter(deluxe, (2363, 971))})
    real = RealMap((BoardSpec("95"),), folder)
    assert real.layout.parse("C3") == "95C3"  # its hexes are named
    with pytest.raises(BoardError, match=r"board 95 is not a standard geomorphic board \(15 x 5 hexes"):
        real.hex_data("95C3")


@pytest.mark.parametrize("crop", [(253, 0, 675, -1), (0, 100, -1, 400)], ids=["half a column off", "a row off"])
def test_a_crop_not_cut_where_vasl_cuts_is_refused(folder, crop):
    """A crop from a hexside (VASL's "nearest full hex row", whose saved
    rectangle VASL reads back as cut at the middle of a hex row) or from
    mid-hex: VASL's grid of it would not lie on the art. Refused, naming the
    board and the crop."""
    real = RealMap((BoardSpec("91", crop=crop),), folder)
    with pytest.raises(BoardError, match=r"board 91: the crop \(.*\) does not start at a hex column's centre dot"):
        real.hex_data(real.layout.hexes()[0])
