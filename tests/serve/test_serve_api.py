"""`asl-kb serve`'s routes (asl_kb/serve/app.py) through Starlette's
TestClient, and the server itself under uvicorn on a free 127.0.0.1 port:
every route with good and bad input, oversized bodies, 50 concurrent
answers, answers cut by the caps, newer edits superseding older ones."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from starlette.testclient import TestClient  # noqa: E402

import _runs  # noqa: E402
from asl_kb.board import hexgrid, terrain  # noqa: E402
from asl_kb.position.loader import MAX_BYTES, load_position, load_position_text  # noqa: E402
from asl_kb.report.render import to_json  # noqa: E402
from asl_kb.resources import cases_dir  # noqa: E402
from asl_kb.serve import answers, app as serve_app, yamltext  # noqa: E402
from asl_kb import children  # noqa: E402
from asl_kb.serve.progress import Progress  # noqa: E402
from asl_kb.serve.work import Cut, Runner  # noqa: E402

LOCAL = "http://127.0.0.1"
A10_531 = cases_dir() / "rout" / "A10.531-EX.yaml"
TEXT = A10_531.read_text(encoding="utf-8")
TREE = yamltext.to_tree(TEXT)


def small(at: str = "E5", name: str = "small") -> dict:
    """A small, fast position: one broken Russian squad at `at`, a German
    squad three hexes off, woods around (every hex in a small area)."""
    return {
        "name": name,
        "attacker": "russian",
        "map": {"area": ["A0", "J10"], "terrain": {"C3": "woods", "G7": "woods", "B8": "building"}},
        "units": [
            {"id": "R1", "side": "russian", "type": "squad", "counter": "4-4-7", "at": at, "status": ["broken"]},
            {"id": "G1", "side": "german", "type": "squad", "counter": "4-6-7", "at": "I2"},
        ],
    }


@pytest.fixture(scope="module")
def client():
    with TestClient(base_url=LOCAL, app=serve_app.create_app(str(A10_531), timeout=30, workers=2)) as c:
        yield c


def no_child_left() -> bool:
    """No answering child is left in this process (other tests of the same
    worker may have children of their own)."""
    return not children.alive()


def err(r, status: int) -> dict:
    assert r.status_code == status, r.text
    e = r.json()["error"]
    assert set(e) == {"message", "key", "line", "file"}
    assert "Traceback" not in e["message"]
    return e


# ------------------------------------------------------------------ the page


def test_page_and_its_files_fetch_nothing_elsewhere(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for path in ("/static/app.js", "/static/app.css"):
        r = client.get(path)
        assert r.status_code == 200 and r.text
        assert "://" not in r.text, path  # no CDN, no other host
    assert "://" not in page.text.replace("http://www.w3.org/2000/svg", "")
    assert 'src="/static/app.js"' in page.text


@pytest.mark.parametrize(
    "path",
    [
        "/static/../pyproject.toml",
        "/static/index.html",
        "/static/",
        "/etc/passwd",
        "/static/%2e%2e/app.py",
        "/api/nothing",
    ],
)
def test_no_other_path_is_served(client, path):
    assert client.get(path).status_code == 404


def test_another_host_name_is_refused():
    with TestClient(serve_app.create_app(None), base_url="http://evil.example") as c:
        assert c.get("/api/start").status_code == 400
        assert c.post("/api/open", json={"text": "name: x"}).status_code == 400


def test_a_body_that_is_not_json_by_its_type_is_refused(client):
    r = client.post("/api/open", content=json.dumps({"text": "name: x"}), headers={"Content-Type": "text/plain"})
    err(r, 415)


def test_wrong_method(client):
    assert client.get("/api/answer").status_code == 405
    assert client.post("/api/meta").status_code == 405


def test_meta_names_the_terrain_table_and_the_loader_vocabulary(client):
    m = client.get("/api/meta").json()
    assert m["terrains"] == list(terrain.TERRAIN)
    assert m["features"] == list(terrain.FEATURES)
    assert m["hexsides"] == list(terrain.HEXSIDES) and "wall" in m["hexsides"]
    assert "broken" in m["statuses"] and "dm" in m["statuses"] and "concealed" in m["statuses"]
    assert "rout" in m["phases"] and m["versions"] == ["current", "prior"]
    assert "A20.3" in m["errata"]
    assert m["limits"]["position"] == MAX_BYTES


def test_start_is_the_command_line_position(client):
    s = client.get("/api/start").json()
    assert s["text"] == TEXT and s["tree"] == TREE and s["filename"] == "A10.531-EX.yaml"


def test_start_without_a_position_is_a_new_one():
    with TestClient(base_url=LOCAL, app=serve_app.create_app(None)) as c:
        s = c.get("/api/start").json()
    assert s["text"] is None and s["tree"]["units"] == []


# ------------------------------------------------------------------ /api/open


def test_open(client):
    r = client.post("/api/open", json={"text": TEXT, "filename": "../../etc/A10.yaml"})
    assert r.status_code == 200
    assert r.json() == {"filename": "A10.yaml", "text": TEXT, "tree": TREE}


@pytest.mark.parametrize("text, line", [("name: [unclosed\n", 2), ("- a list\n", None), ("a: &x 1\nb: *x\n", 1)])
def test_open_bad_yaml(client, text, line):
    e = err(client.post("/api/open", json={"text": text, "filename": "bad.yaml"}), 400)
    assert e["file"] == "bad.yaml" and e["line"] == line
    assert e["message"].startswith("bad.yaml")


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'{"text": 3}', b"{}", b'{"text": "x", "filename": 5}'])
def test_open_bad_body(client, body):
    r = client.post("/api/open", content=body, headers={"Content-Type": "application/json"})
    if body == b'{"text": "x", "filename": 5}':  # a filename that is not a string: the default name
        assert r.status_code == 400 and r.json()["error"]["file"] == "position.yaml"
    else:
        err(r, 400)


# ------------------------------------------------------------------ /api/answer


def test_answer_unchanged_keeps_the_text_and_answers_as_the_cli(client):
    r = client.post("/api/answer", json={"tree": TREE, "original": TEXT, "filename": "A10.531-EX.yaml"})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["text"] == TEXT and out["changed"] is False
    expected = to_json(_runs.outcomes(load_position(A10_531), limit=answers.PHASE_LIMIT))
    assert out["result"] == json.loads(expected) and out["complete"] is True
    # the fates are sent once (the result); the CLI's JSON text only when
    # asked (json: true, test_a_rules_folder_overlay_answers_as_the_shipped_rules)
    assert "json" not in out
    # the page is the report's, drawing every hex of the area
    assert 'id="board"' in out["html"] and out["html"].count('class="hex ') == len(hexgrid.Area.whole_board().hexes())
    # each unit's count of destinations is of its routs' (a surrender or an
    # elimination is where the unit is: RI4 and RI5 have none)
    counted = dict(
        re.findall(
            r'<section class="unit[^"]*" data-unit="([^"]+)".*?<p class="count" data-routs="(\d+)"', out["html"], re.S
        )
    )
    routs = {u["id"]: len({f["at"] for f in u["fates"] if f["fate"] == "rout"}) for u in out["result"]["units"]}
    assert {u: int(n) for u, n in counted.items()} == routs and routs["RI4"] == routs["RI5"] == 0 < routs["RJ2"]


def _drawn(html: str, unit: str) -> dict[str, int]:
    """The routes the page draws of a unit, by destination."""
    section = html.split(f'data-unit="{unit}" id="fates-rout-', 1)[1].split("</section>", 1)[0]
    drawn: dict[str, int] = {}
    for at, body in re.findall(
        r'<details class="dest"[^>]*>\s*<summary data-at="([^"]+)".*?</summary>(.*?)</details>', section, re.S
    ):
        if '<li class="fate fate-rout"' in body:
            drawn[at] = body.count('<li class="fate fate-rout"')
    return drawn


def test_answer_draws_every_route_of_the_destinations_asked(client):
    """`all` lists the destinations whose every route is drawn: theirs all
    drawn, every other destination its best route (the others counted)."""
    out = client.post("/api/answer", json={"tree": TREE, "all": [{"unit": "RJ2", "at": "J0"}]}).json()
    routes = {u["id"]: Counter(f["at"] for f in u["fates"] if f["fate"] == "rout") for u in out["result"]["units"]}
    assert routes["RJ2"]["J0"] > 1 and max(routes["RG2"].values()) > 1
    assert _drawn(out["html"], "RJ2") == {**{at: 1 for at in routes["RJ2"]}, "J0": routes["RJ2"]["J0"]}
    assert _drawn(out["html"], "RG2") == {at: 1 for at in routes["RG2"]}
    for bad in ("yes", [{"unit": "RJ2"}], [{"unit": "RJ2", "at": 5}], [["RJ2", "J0"]]):
        assert err(client.post("/api/answer", json={"tree": TREE, "all": bad}), 400)["key"] == "all"


def test_a_painted_maps_board_is_said_to_be_a_label(client, tmp_path, monkeypatch):
    """On a painted map `map.board` only names the hexes' prefix: the answer
    says so (board_label), and whether the VASL boards folder holds that
    board (the page then offers it); nothing is said without map.board (on
    VASL boards the loader refuses it)."""
    from vasl_archives import Painter, boards_folder

    painted = {**calm("B2", "painted"), "map": {"area": ["A1", "F10"], "board": "99"}}
    monkeypatch.delenv("ASL_KB_VASL_BOARDS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    label = lambda tree: client.post("/api/answer", json={"tree": tree, "page": False}).json().get("board_label")
    assert label(painted) == {"board": "99", "vasl_board": False}  # no folder set
    assert label(calm("B2", "no board")) is None
    monkeypatch.setenv("ASL_KB_VASL_BOARDS", str(boards_folder(tmp_path / "boards", {"99": Painter()})))
    assert label(painted) == {"board": "99", "vasl_board": True}
    assert label({**painted, "map": {**painted["map"], "board": "98"}}) == {"board": "98", "vasl_board": False}


def test_answer_changed_is_canonical_yaml_the_loader_reads(client):
    tree = json.loads(json.dumps(TREE))
    tree["units"][4]["at"] = "C8"  # GG4 far away
    r = client.post("/api/answer", json={"tree": tree, "original": TEXT})
    assert r.status_code == 200
    out = r.json()
    assert out["changed"] is True and out["text"] != TEXT
    assert yamltext.to_tree(out["text"]) == tree
    assert {u["id"]: u["at"] for u in out["result"]["units"]}["RG2"] == "G2"
    before = client.post("/api/answer", json={"tree": TREE}).json()["result"]
    fates = lambda res: {u["id"]: [(f["fate"], f.get("at")) for f in u["fates"]] for u in res["units"]}
    assert fates(out["result"])["RG2"] != fates(before)["RG2"]


def test_answer_phase_on_request(client):
    out = client.post("/api/answer", json={"tree": small(), "phase": True}).json()
    assert "phase" in out["result"]
    assert "phase" not in client.post("/api/answer", json={"tree": small()}).json()["result"]


def test_answer_bad_position_is_the_loaders_error(client):
    tree = small()
    tree["units"][0]["at"] = "Z99"
    e = err(client.post("/api/answer", json={"tree": tree, "filename": "mine.yaml"}), 400)
    assert e["key"] == "units[0].at" and e["file"] == "mine.yaml"
    text = yamltext.to_text(tree)
    assert "Z99" in text.splitlines()[e["line"] - 1]
    assert e["message"].startswith(f"mine.yaml:{e['line']}: units[0].at: ")


def test_answer_and_save_a_hexside(client):
    # map.hexsides as the page sets it: the loader reads it, the report draws
    # it, the saved file holds it; hexes not ADJACENT are the loader's error
    tree = small()
    tree["map"]["hexsides"] = {"E5-E6": "wall"}
    out = client.post("/api/answer", json={"tree": tree}).json()
    assert yamltext.to_tree(out["text"])["map"]["hexsides"] == {"E5-E6": "wall"}
    assert out["html"].count('class="hexside hs-wall"') == 1 and "E5-E6: wall" in out["html"]
    saved = client.post("/api/save", json={"tree": tree})
    assert load_position_text(saved.text, "saved.yaml").hexside("E6", "E5") == "wall"
    tree["map"]["hexsides"] = {"E5-E7": "wall"}
    e = err(client.post("/api/answer", json={"tree": tree}), 400)
    assert e["key"] == "map.hexsides.E5-E7"


DEEP: list = ["x"]
for _ in range(40):
    DEEP = [DEEP]


@pytest.mark.parametrize(
    "body, key",
    [
        ({"tree": [1]}, None),
        ({"tree": {"name": 3}}, None),
        ({}, None),
        ({"tree": {"a": {"b": DEEP}}}, None),
        ({"tree": small(), "phase": "yes"}, None),
        ({"tree": small(), "page": 1}, None),
        ({"tree": small(), "original": 5}, None),
        ({"tree": small(), "tab": 5}, None),
        ({"tree": small(), "seq": "1"}, None),
        ({"tree": {"name": "x", "attacker": "german", "units": [{"id": "G1"}]}}, "units[0]"),
    ],
)
def test_answer_bad_request(client, body, key):
    e = err(client.post("/api/answer", json=body), 400)
    if key:
        assert e["key"].startswith(key)


def test_answer_breaking_a_rule_is_refused_as_the_cli_refuses_it(client):
    tree = small()
    tree["units"].append(
        {"id": "P1", "side": "russian", "type": "squad", "counter": "4-4-7", "at": "A5", "guard": "G1"}
    )
    e = err(client.post("/api/answer", json={"tree": tree}), 400)
    assert e["key"] == "units[2].guard" and "A20.5" in e["message"]


# ------------------------------------------------------------------ /api/why-not


def test_why_not(client):
    r = client.post("/api/why-not", json={"tree": TREE, "unit": "RI5", "at": "H4"})
    assert r.status_code == 200
    w = r.json()["why_not"]
    assert w["legal"] is False and {"A10.5", "A10.51", "A20.21"} <= {b["rule"] for b in w["because"]}
    ok = client.post("/api/why-not", json={"tree": TREE, "unit": "RJ2", "at": "K2"}).json()["why_not"]
    assert ok["legal"] is True and ok["fates"]
    # stay, surrender and elimination are asked too, as `why-not UNIT stay | surrender CAPTOR | eliminated`
    ask = lambda unit, fate, **o: client.post("/api/why-not", json={"tree": TREE, "unit": unit, "fate": fate, **o})
    legal = {
        (unit, fate, captor): ask(unit, fate, captor=captor).json()["why_not"]["legal"]
        for unit, fate, captor in (
            ("RI4", "surrender", "GJ4"),
            ("RI4", "surrender", "GK4"),
            ("RI5", "eliminated", None),
            ("RJ2", "stay", None),
            ("RG2", "stay", None),
        )
    }
    assert legal == {
        ("RI4", "surrender", "GJ4"): True,
        ("RI4", "surrender", "GK4"): False,
        ("RI5", "eliminated", None): False,  # (it surrenders instead, A20.21; a rejected surrender is the captor's)
        ("RJ2", "stay", None): True,
        ("RG2", "stay", None): False,
    }


@pytest.mark.parametrize("unit, at", [("NOBODY", "H4"), ("RI5", "nowhere"), (5, "H4"), ("RI5", None)])
def test_why_not_bad(client, unit, at):
    err(client.post("/api/why-not", json={"tree": TREE, "unit": unit, "at": at}), 400)


# ------------------------------------------------------------------ /api/save


def test_save_unchanged_is_byte_identical(client):
    r = client.post("/api/save", json={"tree": TREE, "original": TEXT, "filename": "/etc/passwd"})
    assert r.status_code == 200 and r.content == TEXT.encode("utf-8")
    assert r.headers["content-disposition"] == 'attachment; filename="passwd"'


def test_save_changed_is_canonical(client):
    tree = json.loads(json.dumps(TREE))
    tree["map"]["terrain"]["E5"] = "grain"
    r = client.post("/api/save", json={"tree": tree, "original": TEXT})
    assert r.status_code == 200
    assert yamltext.to_tree(r.text) == tree
    assert load_position_text(r.text, "x").terrain_of("E5").terrain == "grain"


def test_every_bundled_position_saved_unchanged_is_byte_identical():
    for path in sorted(cases_dir().glob("*/*.yaml")):
        text = path.read_text(encoding="utf-8")
        tree = yamltext.to_tree(text, path.name)
        assert yamltext.to_text(tree, text) == text
        canonical = yamltext.to_text(json.loads(json.dumps(tree)))
        assert yamltext.to_tree(canonical) == tree, path.name


# ------------------------------------------------------------------ sizes


def test_oversized_body_by_its_length(client):
    e = err(
        client.post(
            "/api/answer", content=b"x" * (serve_app.MAX_BODY + 1), headers={"Content-Type": "application/json"}
        ),
        413,
    )
    assert "too large" in e["message"]


def test_oversized_body_without_a_length(client):
    def chunks():
        for _ in range(serve_app.MAX_BODY // 65536 + 2):
            yield b"x" * 65536

    err(client.post("/api/open", content=chunks(), headers={"Content-Type": "application/json"}), 413)


def test_oversized_position(client):
    tree = small()
    tree["notes"] = "x" * (MAX_BYTES + 10)
    e = err(client.post("/api/answer", json={"tree": tree}), 413)
    assert "position too large" in e["message"]
    e = err(client.post("/api/open", json={"text": "notes: " + "x" * (MAX_BYTES + 10)}), 413)
    assert "too large" in e["message"]


# ------------------------------------------------------------------ concurrency and caps


def calm(at: str, name: str) -> dict:
    """A broken unit with no enemy in sight: the cheapest answer there is."""
    return {
        "name": name,
        "attacker": "russian",
        "map": {"area": ["A1", "F10"]},
        "units": [{"id": "R1", "side": "russian", "type": "squad", "counter": "4-4-7", "at": at, "status": ["broken"]}],
    }


HEXES = [f"{c}{r}" for c in "ABCDEF" for r in range(1, 10)][:50]


def test_50_concurrent_answers_each_its_own(client):
    def ask(h):
        r = client.post("/api/answer", json={"tree": calm(h, name=f"at {h}"), "page": False})
        return h, r.status_code, r.json()

    t0 = time.monotonic()
    with ThreadPoolExecutor(50) as pool:
        got = list(pool.map(ask, HEXES))
    took = time.monotonic() - t0
    for h, status, out in got:
        assert status == 200, out
        assert out["result"]["position"] == f"at {h}"
        r1 = {u["id"]: u for u in out["result"]["units"]}["R1"]
        assert r1["at"] == h and out["complete"] is True
        assert [(f["fate"], f["at"]) for f in r1["fates"]] == [("stay", h)] and "html" not in out
    assert took < 60
    assert no_child_left()


def test_the_engine_timeout_answers_incomplete():
    with TestClient(base_url=LOCAL, app=serve_app.create_app(None, timeout=0.001, grace=30)) as c:
        r = c.post("/api/answer", json={"tree": TREE})
    assert r.status_code == 200
    out = r.json()
    assert out["complete"] is False and out["result"]["complete"] is False
    assert any("--timeout" in b for b in out["result"]["incomplete_because"])


def _hang(*args, **kwargs):
    time.sleep(120)  # (in the answer's child: killed past the cap)


def test_an_answer_past_the_timeout_gives_the_page_the_cut_answer(monkeypatch):
    """An answer stuck past --timeout and half its slack (a call no check
    reaches) is stopped and the page gets what `outcomes --timeout` prints
    then: complete: false, the broken units without fates, the map; a
    why-not is a 504; a cut answer that does not come either, a 504."""
    with TestClient(base_url=LOCAL, app=serve_app.create_app(None, timeout=0.5, grace=30)) as c:
        # (patched once the server has warmed up: its answers' children are forked from it)
        monkeypatch.setattr(answers, "outcomes", _hang)
        monkeypatch.setattr(answers, "why_not", _hang)
        t0 = time.monotonic()
        r = c.post("/api/answer", json={"tree": TREE})
        took = time.monotonic() - t0
        assert r.status_code == 200, r.text
        out = r.json()
        assert out["complete"] is False and out["result"]["cut"]["timeout"] == 0.5
        assert set(out["result"]["cut"]["units"]) == {"RG2", "RJ2", "RI5", "RI4"}
        assert 'id="board"' in out["html"]
        assert took < 0.5 + 1 + 5  # the timeout, its slack, the cut answer
        e = err(c.post("/api/why-not", json={"tree": TREE, "unit": "RI5", "at": "H4"}), 504)
        assert "--timeout 0.5" in e["message"]
    monkeypatch.undo()
    with TestClient(base_url=LOCAL, app=serve_app.create_app(None, timeout=0.5, grace=0.5)) as c:
        monkeypatch.setattr(answers, "outcomes", _hang)
        monkeypatch.setattr(answers, "cut", _hang)
        err(c.post("/api/answer", json={"tree": TREE}), 504)
        assert c.get("/api/meta").status_code == 200  # the server is still there
    assert no_child_left()


def test_an_answer_past_the_memory_cap_says_so():
    """A position too big for --max-memory (as tests/cli/test_timeout.py makes
    it): the answer says it was cut; a small one fits the same cap. A real
    `asl-kb serve` process: an answer is capped at --max-memory beyond the
    server's own memory, which the server's process holds (not a test's)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from generate import generate_position

    big = yamltext.to_tree(generate_position(4, 10, 0, spread=True))
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "asl_kb", "serve", "--port", str(port), "--max-memory", "64"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "asl-kb serve: http://" in server.stderr.readline()

        def answer(tree) -> tuple[int, dict]:
            req = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/answer",
                data=json.dumps({"tree": tree}).encode(),
                headers={"Content-Type": "application/json"},
            )
            for _ in range(100):  # (the server is listening a moment after it says so)
                try:
                    with urllib.request.urlopen(req, timeout=60) as r:
                        return r.status, json.load(r)
                except urllib.error.HTTPError as e:
                    return e.code, json.load(e)
                except urllib.error.URLError:
                    time.sleep(0.05)
            raise AssertionError("the server does not answer")

        status, r = answer(big)
        assert status in (200, 503), r
        if status == 200:  # the engine caught it: an answer that says it was cut
            assert r["complete"] is False
            assert any("--max-memory 64 MiB" in b for b in r["result"]["incomplete_because"])
        else:
            assert "--max-memory 64 MiB" in r["error"]["message"]
        assert answer(TREE)[1]["complete"] is True
    finally:
        server.terminate()
        server.wait(30)


def test_a_newer_edit_supersedes_the_older():
    async def go():
        runner = Runner(timeout=30, max_memory=1024, workers=2)
        kw = lambda tree, **o: {
            "text": yamltext.to_text(tree),
            "filename": "a.yaml",
            "phase": False,
            "timeout": 30,
            "max_memory": 1024,
            "page": False,
            **o,
        }
        first = asyncio.ensure_future(runner.run("outcomes", kw(small(), phase=True), tab="t", seq=1))
        await asyncio.sleep(0.02)  # the first is being figured (a child answers in 0.1 s at best)
        second = asyncio.ensure_future(runner.run("outcomes", kw(calm("B2", "second")), tab="t", seq=2))
        with pytest.raises(Cut) as cut:
            await first
        assert cut.value.status == 409
        assert (await second)["result"]["position"] == "second"
        # an older edit arriving late is refused at once
        third = asyncio.ensure_future(runner.run("outcomes", kw(calm("B3", "third")), tab="t", seq=3))
        await asyncio.sleep(0.02)
        with pytest.raises(Cut):
            await runner.run("outcomes", kw(calm("B4", "late")), tab="t", seq=2)
        assert (await third)["result"]["position"] == "third"
        # another tab is not superseded
        a, b = await asyncio.gather(
            runner.run("outcomes", kw(calm("C2", "x")), tab="x", seq=1),
            runner.run("outcomes", kw(calm("C3", "y")), tab="y", seq=1),
        )
        assert (a["result"]["position"], b["result"]["position"]) == ("x", "y")

    asyncio.run(go())
    assert no_child_left()


def test_a_bug_in_the_child_is_one_line():
    # (in a child, as the server runs it: the body caps its process's memory)
    out = children.start(answers.run, "no_such_answer", {}, 1024).result()
    assert out == {"internal": "internal error: KeyError: 'no_such_answer'"}


# ------------------------------------------------------------------ the server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_server_starts_and_stops_cleanly():
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(serve_app.create_app(str(A10_531)), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.02)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta", timeout=10) as r:
            assert r.status == 200 and json.load(r)["terrains"]
        body = json.dumps({"tree": small()}).encode()
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/answer", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            assert json.load(r)["complete"] is True
    finally:
        server.should_exit = True
        thread.join(10)
    assert not thread.is_alive()
    with socket.socket() as s:  # nothing listens on the port any more
        with pytest.raises(ConnectionRefusedError):
            s.connect(("127.0.0.1", port))
    assert no_child_left()


def test_cli_serve_bad_arguments():
    run = lambda *a: subprocess.run([sys.executable, "-m", "asl_kb", "serve", *a], capture_output=True, text=True)
    r = run("no-such-file.yaml")
    assert r.returncode == 2 and "no-such-file.yaml: cannot read file" in r.stderr
    r = run("--port", "70000", str(A10_531))
    assert r.returncode == 2 and "--port" in r.stderr


def test_the_cli_does_not_import_the_web_stack():
    code = (
        "import sys; from asl_kb import cli; cli._parser(['outcomes']); cli._parser([]); "
        "print(sorted(m for m in ('starlette', 'uvicorn', 'asl_kb.serve.app') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_serve_without_the_extra_says_how_to_install_it(monkeypatch, capsys):
    from asl_kb import cli

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if not installed
    assert cli.main(["serve"]) == 2
    assert "pip install 'asl-kb[serve]'" in capsys.readouterr().err


# ------------------------------------------------------------------ safety


def test_another_sites_page_is_refused_by_its_origin(client):
    body = {"tree": small()}
    r = client.post("/api/save", json=body, headers={"Origin": "http://evil.example"})
    assert err(r, 403)["key"] is None
    r = client.post("/api/save", json=body, headers={"Origin": "http://127.0.0.1:9"})  # another port: another origin
    err(r, 403)
    assert client.post("/api/save", json=body, headers={"Origin": LOCAL}).status_code == 200
    assert client.post("/api/save", json=body).status_code == 200  # a tool that names no Origin


def test_no_page_may_frame_the_app(client):
    for r in (client.get("/"), client.get("/api/meta"), client.post("/api/open", json={})):
        assert r.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]


@pytest.mark.parametrize(
    "host, hosts, refused, warned",
    [
        ("127.0.0.1", {"127.0.0.1", "localhost"}, False, False),
        ("localhost", {"127.0.0.1", "localhost"}, False, False),
        ("127.0.0.2", {"127.0.0.2", "localhost"}, False, False),
        ("::1", {"::1", "[::1]", "localhost"}, False, False),
        ("0.0.0.0", set(), True, False),
        ("::", set(), True, False),
        ("192.168.1.5", {"192.168.1.5"}, False, True),
        ("myhost.lan", {"myhost.lan"}, False, True),
    ],
)
def test_the_host_names_a_request_may_give(host, hosts, refused, warned):
    from asl_kb.serve.hosts import allowed_hosts

    allowed, problem, warning = allowed_hosts(host)
    assert hosts <= set(allowed) and (problem is not None) == refused and (warning is not None) == warned
    assert "*" not in allowed and ("192.168.1.5" not in allowed or host == "192.168.1.5")


@pytest.mark.parametrize(
    "body, key",
    [
        (b'{"tree": {"name": "t\\ud800", "attacker": "russian"}}', "tree.name"),
        (b'{"tree": {"n\\ud800": "x"}}', "tree.n\\ud800"),
        (b'{"tree": {"name": "x", "units": ["\\udfff"]}}', "tree.units[0]"),
    ],
)
def test_a_lone_surrogate_is_a_bad_request(client, body, key):
    for path in ("/api/answer", "/api/save", "/api/open"):
        e = err(client.post(path, content=body, headers={"Content-Type": "application/json"}), 400)
        assert e["key"] == key


def test_a_rules_folder_overlay_answers_as_the_shipped_rules(tmp_path):
    """--rules FOLDER: a one-file overlay (a shipped file, unchanged) runs
    under the materialized folder, as `outcomes --rules FOLDER` does."""
    import shutil

    from asl_kb.committee.rulesets import parse_ruleset
    from asl_kb.resources import rules_dir

    (tmp_path / "rout").mkdir()
    shutil.copyfile(rules_dir() / "rout" / "A10_52_low_crawl.lp", tmp_path / "rout" / "A10_52_low_crawl.lp")
    rs = parse_ruleset(str(tmp_path))
    with TestClient(base_url=LOCAL, app=serve_app.create_app(None, rules=rs)) as c:
        r = c.post("/api/answer", json={"tree": TREE, "page": False, "json": True})
        assert r.status_code == 200, r.text
        assert r.json()["json"] == to_json(_runs.outcomes(load_position(A10_531), limit=answers.PHASE_LIMIT))
        w = c.post("/api/why-not", json={"tree": TREE, "unit": "RI5", "at": "H4"})
        assert w.status_code == 200 and w.json()["why_not"]["legal"] is False
        assert c.get("/api/meta").json()["rules"] == str(tmp_path.resolve())


def test_cli_serve_refuses_before_it_starts(tmp_path, capsys):
    """Whatever the command line names wrong is refused with exit 2 before
    the address is printed: a rule set that is none, a FIFO, a port in use,
    an address not of this machine, every interface."""
    from asl_kb import cli

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        for argv, says in (
            (["--rules", "nonsuch"], "nonsuch: --rules: no such rule version or folder"),
            ([str(fifo)], "pipe.yaml: not a regular file"),
            (["--port", port], f"--port {port}: already in use"),
            (["--host", "192.0.2.1"], "--host 192.0.2.1: not an address of this machine"),
            (["--host", "0.0.0.0"], "--host 0.0.0.0: every network interface"),
        ):
            assert cli.main(["serve", "--port", port, *argv] if "--port" not in argv else ["serve", *argv]) == 2
            err_ = capsys.readouterr().err
            assert says in err_ and "http://" not in err_, err_


def test_an_answer_says_how_far_it_has_gone():
    """GET /api/progress (Runner.progress): while a tab's answer is figured,
    the broken units whose fates are read, of all of them, never going back;
    nothing once it is answered."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from generate import generate_area_spread

    text = generate_area_spread(6, 20)
    broken = sum(1 for u in load_position_text(text, "spread.yaml").units if "broken" in u.status)
    kwargs = {"text": text, "filename": "spread.yaml", "phase": False, "timeout": 60.0, "max_memory": 1024}
    runner = Runner(60.0, 1024)

    async def watched():
        task = asyncio.ensure_future(runner.run("outcomes", {**kwargs, "page": False}, tab="t", seq=1))
        seen = []
        while not task.done():
            p = runner.progress("t")
            if p.get("of"):
                seen.append(p)
            await asyncio.sleep(0.005)
        return await task, seen

    out, seen = asyncio.run(watched())
    assert out["complete"] and len(out["result"]["units"]) == broken
    assert seen and {(p["seq"], p["of"], p["drawing"]) for p in seen} == {(1, broken, False)}
    done = [p["done"] for p in seen]
    assert done == sorted(done) and done[-1] <= broken
    assert runner.progress("t") == {} and runner.progress("another tab") == {}


def _tell(progress: Progress) -> int:
    progress.units(120, 1000)
    progress.drawing()
    return 0


def test_progress_is_shared_with_the_answers_child():
    """What the child says of its progress, the server reads (a mapping a
    forked child shares); GET /api/progress of a tab with no answer: {}."""
    progress = Progress()
    assert progress.read() == {"done": 0, "of": 0, "drawing": False}
    with children.start(_tell, progress) as child:
        assert child.result() == 0
    assert progress.read() == {"done": 120, "of": 1000, "drawing": True}
    progress.close()
    c = TestClient(base_url=LOCAL, app=serve_app.create_app(None))  # (no `with`: not warmed, nothing answered)
    r = c.get("/api/progress", params={"tab": "t"})
    assert r.status_code == 200 and r.json() == {}


def test_the_cut_answer_takes_every_argument_of_the_answer():
    """work.py answers a request past --timeout with answers.cut given the
    outcomes() request as it is: any argument outcomes() takes (a page of
    every route, here) is taken by the cut answer too (a 500 otherwise)."""
    text = A10_531.read_text(encoding="utf-8")
    ask = {"text": text, "filename": A10_531.name, "phase": False, "timeout": 1.0, "max_memory": 0, "page": True}
    out = answers.cut(**ask, every_route=True)
    assert out["complete"] is False and out["result"]["cut"]["units"] and "html" in out
    assert {u["id"] for u in out["result"]["units"]} == set()  # every broken unit cut, none with fates
    with pytest.raises(TypeError):
        answers.cut(**ask, nonsuch=True)  # (an argument outcomes() does not take)
