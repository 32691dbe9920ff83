"""Reading a VASL board archive and the boards folder (asl_kb/vasl/archive.py),
on synthetic archives of VASL's format (tests/vasl_archives.py)."""

import gzip
import zipfile

import numpy as np
import pytest

from vasl_archives import Painter, boards_folder, java_block_stream, shared_metadata_xml, write_archive
from asl_kb import process
from asl_kb.vasl import archive


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    p = Painter()
    p.hex("E5", "Woods").ground("M5", 2).hexside("K3", 4, "Wall").stairway("H4")
    return boards_folder(tmp_path_factory.mktemp("boards"), {"99": p, "07": Painter()}), p


def test_archive_metadata_and_pixels(folder):
    path, painter = folder
    b = archive.open_board(path, "99")
    assert (b.name, b.prefix, b.size, b.geometry) == ("99", "99", (1800, 645), archive.GEO)
    d = b.los_data()
    assert d.elevation.shape == d.terrain.shape == (1800, 645)
    assert np.array_equal(d.terrain, painter.terrain) and np.array_equal(d.elevation, painter.elevation)
    assert (d.width, d.height) == (33, 10)
    assert d.stairways == frozenset({(7, 4)})  # H4: odd column H (7), whose rows start at 0


def test_numbered_board_found_padded_and_prefix_without_zero(folder):
    path, _ = folder
    for asked in ("7", "07"):
        b = archive.open_board(path, asked)
        assert (b.name, b.prefix) == ("07", "7")


def test_missing_board_names_board_and_folder(folder):
    path, _ = folder
    with pytest.raises(archive.BoardError) as e:
        archive.open_board(path, "42")
    assert "board 42" in str(e.value) and str(path) in str(e.value) and "bd42" in str(e.value)


def test_java_block_data_long_and_short_blocks():
    payload = bytes(range(256)) * 8 + b"tail"  # 2052 bytes: two long blocks, one short
    stream = java_block_stream(payload)
    assert stream.count(b"\x7a\x00\x00\x04\x00") >= 2 and b"\x77\x04tail" in stream
    assert archive.java_block_data(stream, "x") == payload
    with pytest.raises(archive.BoardError):
        archive.java_block_data(b"\xac\xed\x00\x05\x73", "x")


def test_folder_from_option_environment_and_config(tmp_path, monkeypatch):
    a, b, c = (tmp_path / n for n in "abc")
    for d in (a, b, c):
        d.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.delenv(archive.ENV_BOARDS, raising=False)
    monkeypatch.setattr(process.STATE, "boards_option", None)  # (a command line's --vasl-boards in this process)
    with pytest.raises(archive.BoardError) as e:
        archive.boards_folder(None)
    assert "--vasl-boards" in str(e.value) and archive.ENV_BOARDS in str(e.value)
    cfg = archive.config_file()
    cfg.parent.mkdir(parents=True)
    cfg.write_text(f'vasl_boards = "{c}"\n')
    assert archive.boards_folder(None) == c
    monkeypatch.setenv(archive.ENV_BOARDS, str(b))
    assert archive.boards_folder(None) == b
    assert archive.boards_folder(str(a)) == a
    with pytest.raises(archive.BoardError) as e:
        archive.boards_folder(str(tmp_path / "nowhere"))
    assert "nowhere" in str(e.value) and "not a folder" in str(e.value)


def test_shared_metadata_from_folder_or_module(tmp_path):
    boards = tmp_path / "vasl" / "boards"
    boards.mkdir(parents=True)
    with pytest.raises(archive.BoardError) as e:
        archive.shared_metadata(boards)
    assert "SharedBoardMetadata.xml" in str(e.value)
    with zipfile.ZipFile(tmp_path / "vasl" / "vasl-6.9.vmod", "w") as z:
        z.writestr("boardData/SharedBoardMetadata.xml", shared_metadata_xml())
    meta = archive.shared_metadata(boards)
    t = meta.terrain(meta.by_name["Woods"].code)
    assert (t.obstacle, t.height, t.category, t.is_building) == (True, 1, "WOODS", False)
    assert meta.by_name["Wall"].is_hexside and meta.by_name["Stone Building"].is_building_terrain


def test_unreadable_archives_are_board_errors(tmp_path):
    (tmp_path / "bd01").write_bytes(b"not a zip")
    with pytest.raises(archive.BoardError, match="not a readable board archive"):
        archive.open_board(tmp_path, "1")
    with zipfile.ZipFile(tmp_path / "bd02", "w") as z:
        z.writestr("bd02.gif", b"GIF89a")
    with pytest.raises(archive.BoardError, match="VASL 5"):
        archive.open_board(tmp_path, "2")
    good = zipfile.ZipFile(write_archive(tmp_path, "04", Painter()))
    with zipfile.ZipFile(tmp_path / "bd03", "w") as z:
        for n in good.namelist():
            z.writestr(
                n, good.read(n) if n != "LOSData" else gzip.compress(b"\xac\xed\x00\x05\x77\x04\x00\x00\x00\x21")
            )
    with pytest.raises(archive.BoardError):
        archive.open_board(tmp_path, "3").los_data()
