"""A position on VASL boards (synthetic archives of VASL's format: the tests'
board, tests/vasl_archives.py sample_board): the terrain, ground levels,
building levels and hexsides the rules read off the pixels, the rules and
`asl-kb los` on them, the report's picture (LOS itself: test_vasl_los.py)."""

from __future__ import annotations

import json
import re

import pytest

from vasl_archives import Painter, boards_folder, sample_board
from asl_kb import cli
from asl_kb.position.loader import load_position_text
from asl_kb import process
from asl_kb.vasl import archive

MAP = """map:
  boards: ["91", {board: "92", col: 1, reversed: yes}]
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return boards_folder(tmp_path_factory.mktemp("vasl") / "boards", {"91": sample_board(), "92": sample_board()})


@pytest.fixture
def boards(folder, monkeypatch):
    monkeypatch.setenv(archive.ENV_BOARDS, str(folder))
    monkeypatch.setattr(process.STATE, "boards_option", None)
    return folder


def position(text: str):
    return load_position_text("name: real boards\nattacker: russian\n" + MAP + text, "p.yaml")


def test_terrain_levels_and_hexsides_read_off_the_pixels(boards):
    p = position("units: []\n")
    t = p.terrain_of
    assert (t("91E2").terrain, t("91F2").terrain, t("91N2").terrain) == ("woods", "woods", "grain")
    assert t("91A1").terrain == "open" and t("91A1").elevation == 0
    # the hill: a level-2 summit, a level-1 ridge
    assert (t("91C5").elevation, t("91H5").elevation, t("91I5").elevation) == (2, 1, 0)
    # the two-hex stone building of two levels: one building, levels 1 and 2
    k8, l8 = t("91K8"), t("91L8")
    assert k8.terrain == l8.terrain == "stone_building" and k8.building == l8.building
    assert p.levels_of("91K8") == 2 and p.levels_of("91A1") == 0
    assert p.hexside("91S5", "91S6") == "wall" and p.hexside("91S6", "91S5") == "wall"
    assert p.hexside("91U3", "91U4") == "hedge"
    assert p.hexside("91S5", "91S4") is None
    # the reversed board: the same board turned, its own names
    assert p.terrain_of("92E2").terrain == "woods" and p.hexside("92S5", "92S6") == "wall"
    assert p.grid.distance("91GG1", "92GG10") == 0  # one hex on the seam
    assert p.grid.distance("91A1", "92A1") == 64


def test_a_unit_on_a_building_level_and_a_painted_hex(boards):
    p = position(
        "  terrain: {91M5: [open, foxhole]}\n"
        "units:\n"
        "  - {id: G1, side: german, type: squad, counter: 4-6-7, at: '91K8@2'}\n"
        "  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: 91M5, status: [broken]}\n"
    )
    assert (p.units[0].hex, p.units[0].level) == ("91K8", 2)
    assert p.terrain_of("91M5").features == ("foxhole",)
    with pytest.raises(Exception, match="no level 3 in 91K8"):
        position("units:\n  - {id: G1, side: german, type: squad, counter: 4-6-7, at: '91K8@3'}\n")


def test_outcomes_on_real_boards(boards):
    """A broken squad in the open beside the woods, an enemy on the summit:
    the rules read the boards' terrain and LOS."""
    from asl_kb.engines.outcomes import outcomes

    p = position(
        "units:\n"
        "  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: 91G3, status: [broken]}\n"
        "  - {id: G1, side: german, type: squad, counter: 4-6-7, at: 91C5}\n"
    )
    r = outcomes(p).to_json()
    unit = {u["id"]: u for u in r["units"]}["R1"]
    routs = {f["at"] for f in unit["fates"] if f["fate"] == "rout"}
    assert routs and all(h.startswith("91") for h in routs)
    assert "91F2" in routs or "91E2" in routs  # the woods, out of the summit's sight


def test_report_draws_the_boards_art_under_the_grid(boards):
    """The page draws the hexes around the units in the boards' own pixels
    and each board's image under them, the reversed one turned round."""
    from asl_kb.engines.outcomes import outcomes
    from asl_kb.report.html import to_html

    p = position(
        "units:\n"
        "  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: 91P3, status: [broken]}\n"
        "  - {id: G1, side: german, type: squad, counter: 4-6-7, at: 92C3}\n"
    )
    page = to_html(outcomes(p), p)
    images = re.findall(
        r'<image data-board="(\d+)" href="data:image/(\w+);base64,[^"]+"[^>]*transform="matrix\(([^)]*)\)', page
    )
    assert {(b, kind) for b, kind, _ in images} == {("91", "png"), ("92", "png")}
    scale = {b: float(m.split()[0]) for b, _, m in images}
    assert scale["91"] > 0 > scale["92"]  # board 92 is reversed
    hexes = set(re.findall(r'class="hex t-\w+ on-art" data-hex="(\w+)"', page))
    assert {"91P3", "91Q3", "92C3"} <= hexes and "91A1" not in hexes


def test_los_command_on_a_position(boards, tmp_path, capsys):
    f = tmp_path / "p.yaml"
    f.write_text("name: x\nattacker: russian\n" + MAP + "units: []\n", encoding="utf-8")
    assert cli.main(["los", str(f), "91C5", "91I6", "91M2", "91P2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("91C5 -> 91I6: blocked at 91H5") and "(B10.23)" in lines[0]
    assert lines[1] == "91M2 -> 91P2: clear, hindrance +1"
    assert cli.main(["los", str(f), "91C5", "91I6", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == [
        {"from": "91C5", "to": "91I6", "los": "blocked", "blocked_at": "91H5", "hindrance": 0}
    ]
    # the position's own `los:` wins
    f.write_text("name: x\nattacker: russian\n" + MAP + "los: {clear: [[91C5, 91I6]]}\nunits: []\n", encoding="utf-8")
    assert cli.main(["los", str(f), "91C5", "91I6", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["los"] == "clear"


def test_los_command_on_a_board_without_a_position(folder, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(archive.ENV_BOARDS, raising=False)
    monkeypatch.setattr(process.STATE, "boards_option", None)
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("# from to\nS4 S7\n91M2 N2@0\n\nK8@2 E3\n", encoding="utf-8")
    code = cli.main(["los", "--vasl-boards", str(folder), "--board", "91", "--pairs", str(pairs), "--format", "json"])
    assert code == 0
    got = json.loads(capsys.readouterr().out)
    assert [(p["from"], p["to"], p["los"], p["hindrance"]) for p in got] == [
        ("91S4", "91S7", "blocked", 0),
        ("91M2", "91N2", "clear", 0),
        ("91K8@2", "91E3", "clear", 0),
    ]
    pairs.write_text("S4 S7\nS4 ZZ9\n", encoding="utf-8")
    assert cli.main(["los", "--vasl-boards", str(folder), "--board", "91", "--pairs", str(pairs)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {pairs}:2: ")


def test_a_missing_board_names_the_board_and_the_folder(boards, tmp_path, capsys):
    f = tmp_path / "p.yaml"
    f.write_text("name: x\nattacker: russian\nmap:\n  boards: ['91', '77']\nunits: []\n", encoding="utf-8")
    assert cli.main(["outcomes", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {f}:4: map.boards: board 77: no archive bd77") and str(boards) in err


def test_not_modelled_terrain_names_the_hex(tmp_path, monkeypatch):
    p = Painter().hex("E5", "Lumberyard")
    folder = boards_folder(tmp_path / "boards", {"93": p})
    monkeypatch.setenv(archive.ENV_BOARDS, str(folder))
    monkeypatch.setattr(process.STATE, "boards_option", None)
    pos = load_position_text("name: x\nattacker: russian\nmap: {boards: ['93']}\nunits: []\n", "p.yaml")
    with pytest.raises(archive.BoardError, match="hex 93E5: its terrain, VASL's 'Lumberyard', is not modelled"):
        pos.terrain_of("93E5")
