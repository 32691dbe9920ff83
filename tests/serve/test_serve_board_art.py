"""`asl-kb serve` on a VASL board: an answer links the board's art (an
address the server serves, with an ETag and Cache-Control), never its
bytes; the address serves the picture; `report` (a file read alone) still
inlines it. A synthetic board archive (tests/vasl_archives.py)."""

from __future__ import annotations

import base64

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from asl_kb.position.loader import load_position_text  # noqa: E402
from asl_kb.report.html import to_html  # noqa: E402
from asl_kb.serve import app as serve_app  # noqa: E402
from asl_kb.serve.answers import ART_ROUTE  # noqa: E402
from asl_kb.serve.yamltext import to_text  # noqa: E402
from asl_kb.vasl.archive import open_board  # noqa: E402
from vasl_archives import Painter, boards_folder  # noqa: E402

LOCAL = "http://127.0.0.1"
TREE = {
    "name": "on board 99",
    "attacker": "russian",
    "map": {"boards": ["99"]},
    "units": [
        {"id": "R1", "side": "russian", "type": "squad", "counter": "4-4-7", "at": "99E5", "status": ["broken"]},
        {"id": "G1", "side": "german", "type": "squad", "counter": "4-6-7", "at": "99I2"},
    ],
}


def test_an_answer_links_the_board_art_which_the_server_serves_cached(tmp_path, monkeypatch):
    painter = Painter()
    painter.hex("E5", "Woods")
    folder = boards_folder(tmp_path / "boards", {"99": painter})
    monkeypatch.setenv("ASL_KB_VASL_BOARDS", str(folder))
    image = open_board(folder, "99").image()
    inlined = base64.b64encode(image).decode("ascii")
    with TestClient(base_url=LOCAL, app=serve_app.create_app(None, timeout=30, workers=1)) as c:
        r = c.post("/api/answer", json={"tree": TREE})
        assert r.status_code == 200, r.text
        out = r.json()
        assert [u["id"] for u in out["result"]["units"]] == ["R1"]
        assert inlined[:200] not in r.text and "data:image" not in out["html"]
        assert "base64," not in r.text  # no image's bytes in the answer
        href = out["html"].split('data-board="99" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
        assert href.startswith(ART_ROUTE + "99?v=")
        art = c.get(href)
        assert art.status_code == 200 and art.content == image
        assert art.headers["content-type"].startswith("image/")
        assert "max-age" in art.headers["cache-control"]
        again = c.get(href, headers={"If-None-Match": art.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        # the board's name checked as the loader checks it; another site's page refused
        assert c.get(ART_ROUTE + "98").status_code == 404
        assert c.get(ART_ROUTE + "..%2Fx").status_code == 404
        assert c.get(href, headers={"Origin": "http://evil.example"}).status_code == 403
    with TestClient(base_url="http://evil.example", app=serve_app.create_app(None)) as c:
        assert c.get(href).status_code == 400
    # the report page, a file read alone, has the art inlined
    position = load_position_text(to_text(TREE, None, "art.yaml"), "art.yaml")
    from asl_kb.engines.outcomes import outcomes

    page = to_html(outcomes(position), position)
    assert inlined[:200] in page
