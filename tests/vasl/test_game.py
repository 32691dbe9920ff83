"""asl_kb/vasl/game.py: a VASL saved game read as a position -- synthetic
saves (tests/vasl_saves.py) on synthetic board archives
(tests/vasl_archives.py): units on two boards, one reversed, their
statuses from their counters and the markers over them, a piece in the
map's margin and one the import cannot read named in warnings."""

import pytest

from asl_kb.errors import SaveError
from asl_kb.position.loader import load_position_text
from asl_kb.vasl.game import AttackerUnknown, read_game, position_text
from vasl_archives import Painter, boards_folder
from vasl_saves import (
    Save,
    Shown,
    building_level,
    concealment,
    leader,
    marker,
    phase_track,
    squad,
    support_weapon,
    unknown,
    vehicle,
)

#: a geomorphic board's geometry (docs/vasl-games.md): 1800 x 645 px,
#: columns 56.25 px apart from x = 0, A1's centre at y = 32, rows 64.5 px;
#: the map's edge buffer in a save of VASL 6.2 or later
W, H, EDGE = 1800, 645, 400


def centre(col: str, row: int) -> tuple[float, float]:
    """A hex's centre dot on its board's own image, figured here from the
    geometry rather than asked of the layout."""
    c = ord(col) - ord("A")
    return c * 56.25, 32 + 64.5 * (row - 1) if c % 2 == 0 else 64.5 * row


def on_map(board_row: int, col: str, row: int, reversed_: bool = False) -> tuple[int, int]:
    """The map pixel of a hex of the board in slot (0, board_row): a
    reversed board is turned 180 degrees, (x, y) -> (W - x, H - y)."""
    x, y = centre(col, row)
    if reversed_:
        x, y = W - x, H - y
    return round(EDGE + x), round(EDGE + board_row * H + y)


BD = "bd\t0\t0\t99\tVER\t1.0\tbd\t0\t1\tr07\tVER\t1.0\t"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    top = Painter()
    top.disk("H4", 20, "Stone Building, 2 Level")
    return boards_folder(tmp_path_factory.mktemp("boards"), {"99": top, "07": Painter()})


@pytest.fixture(scope="module")
def game(folder, tmp_path_factory):
    s = Save(boards=BD)
    s.stack(*on_map(0, "E", 5), [squad("ru", "4-4-7", Shown(broken=True)), marker("DM")])
    s.stack(
        *on_map(0, "H", 4),
        [building_level(1), squad("ge", "4-6-7"), support_weapon("ge", "LMG"), marker("Pin"), leader("ge", "9-1")],
    )
    s.stack(*on_map(0, "K", 2), [leader("ge", "8-1", label_text="Major Max"), marker("CX")])
    # board 07 reversed: its C3 lies near the map's bottom right
    s.stack(*on_map(1, "C", 3, True), [squad("ru", "5-2-7", Shown(hidden=True))])
    s.stack(*on_map(1, "F", 6, True), [squad("ru", "4-4-7", Shown(concealed=True)), concealment("ru")])
    s.stack(*on_map(1, "J", 2, True), [vehicle("ge", "PzKw IVH", "pzivh")])
    s.stack(*on_map(1, "M", 8, True), [unknown("ge")])
    s.stack(120, 200, [squad("ge", "8-3-8", cls="E"), squad("ge", "8-3-8", cls="E")])  # in the map's margin
    s.stack(*on_map(0, "M", 5), [marker("Smoke")])
    s.stack(*on_map(1, "B", 2, True), [marker("WP")])
    s.stack(*on_map(0, "N", 3), [marker("Foxhole")])  # terrain the board does not show: named
    s.stack(120, 300, [leader("ru", "9-1")])  # (named by its palette name and its values)
    s.stack(60, 60, [phase_track("Allied", "RtPh")])
    return read_game(s.write(tmp_path_factory.mktemp("game") / "game.vsav"), boards=folder)


def _units(game):
    return {u["id"]: u for u in game.tree["units"]}


def test_units_on_two_boards_one_reversed(game):
    at = {u["id"]: u["at"] for u in game.tree["units"]}
    assert at == {
        "RU1": "99E5",
        "GE1": "99H4@1",
        "GE2": "99H4@1",
        "Major_Max": "99K2",
        "RU2": "7C3",
        "RU3": "7F6",
        "GE3": "7J2",
    }
    assert game.tree["map"]["smoke"] == ["99M5", "7B2"]
    assert game.tree["map"]["boards"] == [
        {"board": "99", "col": 0, "row": 0},
        {"board": "7", "col": 0, "row": 1, "reversed": "yes"},
    ]


def test_identity_and_status(game):
    u = _units(game)
    assert (u["RU1"]["type"], u["RU1"]["counter"], u["RU1"]["status"]) == ("squad", "4-4-7", ["broken", "dm"])
    # the Pin on the squad under the leader pins the squad only; the LMG is the squad's
    assert (u["GE1"]["counter"], u["GE1"]["status"], u["GE1"]["sw"]) == ("4-6-7", ["pinned"], ["lmg"])
    assert (u["GE2"]["type"], u["GE2"]["counter"]) == ("leader", "9-1") and "status" not in u["GE2"]
    assert u["Major_Max"]["status"] == ["cx"]
    assert u["RU2"]["status"] == ["concealed", "hidden"]
    assert u["RU3"]["status"] == ["concealed"]
    assert (u["GE3"]["type"], u["GE3"]["counter"]) == ("vehicle", "PzKw IVH")
    assert {x["side"] for x in u.values()} == {"german", "russian"}
    assert game.tree["attacker"] == "russian" and game.tree["phase"] == "rout"


def test_what_is_not_imported_is_named(game):
    margin = [w for w in game.warnings if "'8-3-8 Esq' at (120, 200)" in w]
    assert len(margin) == 1 and "margin" in margin[0] and margin[0].startswith("2 x ")  # the two squads
    assert any(w.startswith("'ruLDR' (9-1) at (120, 300): off the boards") for w in game.warnings)
    assert any(w.startswith("'Foxhole' at 99N3: a counter the import does not read") for w in game.warnings)
    assert any("'Mystery' at 7M8" in w and "ge/geMystery" in w for w in game.warnings)
    assert any("vehicles" in w and "armament" in w for w in game.warnings)


def test_the_file_is_an_ordinary_position(game, folder, monkeypatch):
    text = position_text(game)
    monkeypatch.setenv("ASL_KB_VASL_BOARDS", str(folder))  # where the loader reads the boards
    pos = load_position_text(text, "game.yaml")
    assert {u.id for u in pos.units} == set(_units(game))
    assert "'Mystery' at 7M8" in text  # the warnings are the file's notes


def test_the_attacker_when_the_save_does_not_say(folder, tmp_path):
    s = Save(boards=BD)
    s.stack(*on_map(0, "E", 5), [squad("ru", "4-4-7", Shown(broken=True))])
    s.stack(*on_map(0, "E", 7), [squad("ge", "4-6-7")])
    path = s.write(tmp_path / "g.vsav")
    with pytest.raises(AttackerUnknown, match="--attacker") as e:
        read_game(path, boards=folder)
    assert set(e.value.sides) == {"german", "russian", "axis", "allied"}  # the choices serve offers
    assert read_game(path, boards=folder, attacker="axis").tree["attacker"] == "german"
    assert read_game(path, boards=folder, attacker="russian").tree["attacker"] == "russian"
    with pytest.raises(SaveError, match="no such side"):
        read_game(path, boards=folder, attacker="french")


def test_a_save_read_from_its_bytes(game, folder, tmp_path):
    """`serve` reads an upload: the bytes of the file, named by its name."""
    path = tmp_path / "again.vsav"
    s = Save(boards=BD)
    s.stack(*on_map(1, "C", 3, True), [squad("ru", "5-2-7", Shown(broken=True)), marker("DM")])
    s.write(path)
    from_path = read_game(path, boards=folder, attacker="allied")
    from_bytes = read_game(path.read_bytes(), name="upload.vsav", boards=folder, attacker="allied")
    assert from_bytes.file == "upload.vsav"
    assert (
        from_bytes.tree["units"]
        == from_path.tree["units"]
        == [
            {
                "id": "RU1",
                "side": "russian",
                "type": "squad",
                "counter": "5-2-7",
                "at": "7C3",
                "status": ["broken", "dm"],
                "class": "first_line",
            }
        ]
    )
    with pytest.raises(SaveError, match="upload.vsav.*not a zip"):
        read_game(b"name: a position\n", name="upload.vsav", boards=folder)


def test_a_board_missing_from_the_folder(folder, tmp_path):
    s = Save(boards="bd\t0\t0\t42\tVER\t1.0\t")
    with pytest.raises(Exception, match="42"):
        read_game(s.write(tmp_path / "g.vsav"), boards=folder)


def test_a_save_of_vasl_before_6_2_is_read_by_its_layout(folder, tmp_path):
    # VASL before 6.2 put the boards 200 px from the map's edge, not 400
    s = Save(boards="bd\t0\t0\t99\tVER\t1.0\t", vasl_version="6.1.3")
    x, y = centre("E", 5)
    s.stack(round(200 + x), round(200 + y), [squad("ru", "4-4-7")])
    s.stack(60, 60, [phase_track("Axis", "MPh")])
    imported = read_game(s.write(tmp_path / "old.vsav"), boards=folder)
    assert [u["at"] for u in imported.tree["units"]] == ["99E5"]
    assert (imported.tree["attacker"], imported.tree["phase"]) == ("axis", "movement")


def test_overlays_and_terrain_rules_are_reported_not_guessed(folder, tmp_path):
    s = Save(boards="bd\t0\t0\t99\tVER\t1.0\tOVR\tBr1\t99E5\t99E6\tSSR\tNoRoads\tLightWoods\t")
    s.stack(*on_map(0, "E", 5), [squad("ru", "4-4-7")])
    imported = read_game(s.write(tmp_path / "ovr.vsav"), boards=folder, attacker="allied")
    assert any("overlay Br1 99E5 99E6" in w for w in imported.warnings)
    assert any("NoRoads, LightWoods" in w for w in imported.warnings)


def test_the_command_line_reads_a_save(folder, tmp_path, capsys, monkeypatch):
    """`asl-kb import` writes the position; `outcomes` reads the save as its
    position (the units' ids are the import's)."""
    import json

    from asl_kb import process
    from asl_kb.vasl import archive

    # (--vasl-boards is the process's folder from then on: put back after)
    monkeypatch.setattr(process.STATE, "boards_option", process.STATE.boards_option)
    monkeypatch.delenv(archive.ENV_BOARDS, raising=False)

    from asl_kb import cli

    s = Save(boards=BD)
    s.stack(*on_map(0, "E", 5), [squad("ru", "4-4-7", Shown(broken=True))])
    s.stack(*on_map(0, "E", 8), [squad("ge", "4-6-7")])
    s.stack(60, 60, [phase_track("Axis", "RtPh")])
    path = s.write(tmp_path / "cli.vsav")
    out = tmp_path / "cli.yaml"
    assert cli.main(["import", str(path), "--vasl-boards", str(folder), "-o", str(out)]) == 0
    assert "RU1" in out.read_text() and "attacker: german" in out.read_text()
    capsys.readouterr()
    assert cli.main(["outcomes", str(path), "--vasl-boards", str(folder), "--format", "json"]) == 0
    units = {u["id"]: u for u in json.loads(capsys.readouterr().out)["units"]}
    assert units["RU1"]["fates"] and all(f["fate"] == "rout" for f in units["RU1"]["fates"])
