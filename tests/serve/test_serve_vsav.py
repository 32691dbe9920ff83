"""`asl-kb serve` opens a VASL saved game (.vsav) as `asl-kb import` reads it
(asl_kb/vasl/game.py): a synthetic save (tests/vasl_saves.py) on a
synthetic board archive (tests/vasl_archives.py), uploaded as its bytes; a
game that does not say whose Player Turn it is asks for the ATTACKER."""

from __future__ import annotations

import base64

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from asl_kb.serve import app as serve_app  # noqa: E402
from asl_kb.vasl.game import read_game  # noqa: E402
from vasl_archives import Painter, boards_folder  # noqa: E402
from vasl_saves import Save, Shown, squad  # noqa: E402

BD = "bd\t0\t0\t99\tVER\t1.0\t"
#: board 99's hex centres on the map of a save of VASL 6.2 or later (400 px of edge)
E5, O5 = (400 + 4 * 56.25, 400 + 32 + 64.5 * 4), (400 + 14 * 56.25, 400 + 32 + 64.5 * 4)


def save_and_boards(tmp_path):
    """A saved game (a broken Russian squad in E5, a German squad in O5, no
    Phase Track) and the boards folder it is on. (Beyond the German's
    Normal Range and not under DM: a squad that must rout on an open board
    has thousands of fates, seconds to answer and draw.)"""
    folder = boards_folder(tmp_path / "boards", {"99": Painter()})
    s = Save(boards=BD)
    s.stack(round(E5[0]), round(E5[1]), [squad("ru", "4-4-7", Shown(broken=True))])
    s.stack(round(O5[0]), round(O5[1]), [squad("ge", "4-6-7")])
    return s.write(tmp_path / "game.vsav"), folder


def test_open_a_vasl_saved_game(tmp_path, monkeypatch):
    path, folder = save_and_boards(tmp_path)
    monkeypatch.setenv("ASL_KB_VASL_BOARDS", str(folder))
    body = {"vsav": base64.b64encode(path.read_bytes()).decode(), "filename": "my game.vsav"}
    with TestClient(base_url="http://127.0.0.1", app=serve_app.create_app(None)) as c:
        r = c.post("/api/open", json=body)
        assert r.status_code == 400 and r.json()["error"]["key"] == "attacker"
        assert set(r.json()["sides"]) >= {"german", "russian"}
        r = c.post("/api/open", json={**body, "attacker": "russian"})
        assert r.status_code == 200, r.text
        out = r.json()
        expected = read_game(path, boards=folder, attacker="russian").tree
        assert out["filename"] == "my game.yaml" and out["tree"]["attacker"] == "russian"
        assert [u["at"] for u in out["tree"]["units"]] == [u["at"] for u in expected["units"]]
        answer = c.post("/api/answer", json={"tree": out["tree"], "page": False})
        assert answer.status_code == 200, answer.text
        broken = [u for u in answer.json()["result"]["units"] if u["side"] == "russian"]
        assert broken and broken[0]["fates"]
        bad = c.post("/api/open", json={"vsav": "not base64!", "filename": "x.vsav"})
        assert bad.status_code == 400
        junk = c.post("/api/open", json={"vsav": base64.b64encode(b"name: x\n").decode(), "filename": "x.vsav"})
        assert junk.status_code == 400 and junk.json()["error"]["file"] == "x.vsav"
