"""`asl-kb serve` in a real browser: Debian's headless Chromium driven by
Playwright (never a downloaded browser; skipped locally when either is
missing, a failure under CI, as tests/report/test_report_browser.py), the app
under uvicorn on a free 127.0.0.1 port. One test builds the A10.531 EX
position by clicks alone and saves it: the file answers as the bundled one;
another opens a bundled position, drags a unit and sees the fates change,
sets a wall between two hexes (saved as map.hexsides, drawn) and clears it.
The first leaves its screenshot as docs/serve.png (made again only when it
is missing or ASL_KB_SCREENSHOTS=1)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")

import _runs  # noqa: E402
from asl_kb.position.loader import load_position  # noqa: E402
from asl_kb.report.render import to_json  # noqa: E402
from asl_kb.resources import cases_dir  # noqa: E402
from asl_kb.serve import yamltext  # noqa: E402
from asl_kb.serve.app import create_app  # noqa: E402

A10_531 = cases_dir() / "rout" / "A10.531-EX.yaml"
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "serve.png"
#: ms a step may wait for the page (an answer is a fraction of a second idle)
WAIT = 30_000


@pytest.fixture(scope="module")
def server():
    """The app (a new position) under uvicorn, stopped and its port closed after."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(None, timeout=60), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(10)
    assert not thread.is_alive()


class App:
    """The page, its errors and every request it made."""

    def __init__(self, browser, url: str):
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page = browser.new_page(viewport={"width": 1500, "height": 950}, accept_downloads=True)
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(url)
        self.url = url
        self.answered()
        self.frame = self.page.frame_locator("#report")

    def answered(self, after: int = -1) -> int:
        """Wait for the answer to the latest change (the count of answers past
        `after`, none pending); the count."""
        self.page.wait_for_function(
            f"document.body.dataset.answers > {after} && ['answered', 'error'].includes(document.body.dataset.state)",
            timeout=WAIT,
        )
        return int(self.page.evaluate("document.body.dataset.answers"))

    def count(self) -> int:
        return int(self.page.evaluate("document.body.dataset.answers"))

    def tool(self, name: str):
        self.page.click(f"#tool-{name}")

    def hex(self, h: str):
        # force: the click lands where the hex is even under a counter or a label
        self.frame.locator(f'polygon.hex[data-hex="{h}"]').click(force=True)

    def fates(self, unit: str) -> list[str]:
        return self.frame.locator(f'li.fate[data-unit="{unit}"] .what').all_inner_texts()

    def close(self, refused: int = 0):
        """`refused`: the 4xx answers the test asked for (the browser logs each)."""
        bad = [e for e in self.errors if "status of 400" in e]
        assert len(bad) == refused and [e for e in self.errors if e not in bad] == []
        assert all(u.startswith(self.url) or u.startswith(("data:", "blob:", "about:")) for u in self.requests), (
            self.requests
        )
        self.page.close()


def _outcomes_json(path: Path) -> str:
    r = subprocess.run(
        [sys.executable, "-m", "asl_kb", "outcomes", "--format", "json", str(path)], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_build_the_a10_531_ex_position_by_clicks(browser, server, tmp_path):
    app = App(browser, server)
    page = app.page
    n = app.count()
    page.fill("#f-name", "A10.531 EX")
    page.press("#f-name", "Enter")
    page.select_option("#f-attacker", "russian")
    # the area: one corner, then the other
    app.tool("area")
    app.hex("D0")
    app.hex("M7")
    n = app.answered(n)
    assert app.frame.locator("polygon.hex").count() == 75  # D0..M7: 10 columns of 8 rows, 5 without a row 0
    # woods and a building
    app.tool("terrain")
    page.click('#palette-terrain button[data-terrain="woods"]')
    for h in ("F1", "G1", "H2", "J2", "H0", "J0"):
        app.hex(h)
    page.click('#palette-terrain button[data-terrain="building"]')
    app.hex("K2")
    # the units: broken Russians under DM, then Germans
    app.tool("unit")
    page.select_option("#t-side", "russian")
    page.select_option("#t-type", "squad")
    page.select_option("#t-counter", "4-4-7")
    page.check('#t-status input[value="broken"]')
    page.check('#t-status input[value="dm"]')
    for h in ("G2", "J2", "I5"):
        app.hex(h)
    page.uncheck('#t-status input[value="dm"]')
    app.hex("I4")  # DM set below, on the counter itself
    page.select_option("#t-side", "german")
    page.uncheck('#t-status input[value="broken"]')
    page.select_option("#t-counter", "4-6-7")
    for h in ("G4", "K4", "H5"):
        app.hex(h)
    page.select_option("#t-counter", "4-6-8")
    app.hex("J4")
    n = app.answered(n)
    # a status set on a counter: select it, tick DM
    app.tool("select")
    app.frame.locator('g.counter[data-unit="RI4"]').click()
    page.check('#unit-editor input[data-status="dm"]')
    # the LOS the example needs
    app.tool("los")
    for a, b in (("G2", "K4"), ("G2", "H5"), ("G2", "J4")):
        app.hex(a)
        app.hex(b)
    page.select_option("#los-kind", "clear")
    app.hex("H5")
    app.hex("J1")
    n = app.answered(n)
    assert page.evaluate("document.body.dataset.state") == "answered", page.inner_text("#error")
    # saved, the file answers as the bundled one
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "built.yaml"
    download.value.save_as(saved)
    expected = to_json(_runs.outcomes(load_position(A10_531), limit=100))
    assert _outcomes_json(saved) == expected
    # and so did the page, as it went
    shown = page.evaluate("window.aslKbServe.result")
    assert shown == json.loads(expected)
    # every broken unit's fates listed, drawn on the map
    for unit in ("RG2", "RJ2", "RI5", "RI4"):
        assert app.fates(unit)
    app.frame.locator('li.fate[data-unit="RG2"]').nth(1).click()  # G2-F2-F1, Interdicted in F2
    assert app.frame.locator("g.overlay.shown polyline.route").count() == 1
    if not SCREENSHOT.exists() or os.environ.get("ASL_KB_SCREENSHOTS") == "1":
        app.frame.locator("body").evaluate("b => { b.ownerDocument.scrollingElement.scrollTop = 0; }")
        shot = tmp_path / "serve.png"
        page.screenshot(path=str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        shutil.copyfile(shot, SCREENSHOT)
    app.close()


def test_open_a_position_move_a_unit_see_the_fates_change(browser, server, tmp_path):
    app = App(browser, server)
    page = app.page
    n = app.count()
    page.set_input_files("#open-file", str(A10_531))
    n = app.answered(n)
    assert page.inner_text("#filename") == "A10.531-EX.yaml"
    before = app.fates("RI5")
    assert any("GJ4" in f for f in before)
    drawn_before = app.frame.locator('g.overlay[data-unit="RI5"]').evaluate_all("gs => gs.map(g => g.innerHTML)")
    # drag GJ4 from J4 to J8
    src = app.frame.locator('g.counter[data-unit="GJ4"]').bounding_box()
    dst = app.frame.locator('polygon.hex[data-hex="J8"]').bounding_box()
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=6)
    page.mouse.up()
    n = app.answered(n)
    assert app.frame.locator('g.counter[data-unit="GJ4"]').get_attribute("data-hex") == "J8"
    after = app.fates("RI5")
    assert after != before and not any("GJ4" in f for f in after)
    drawn_after = app.frame.locator('g.overlay[data-unit="RI5"]').evaluate_all("gs => gs.map(g => g.innerHTML)")
    assert drawn_after != drawn_before
    # the whole phase on request (outcomes --phase)
    assert app.frame.locator("section#phase").count() == 0
    page.check("#phase-toggle")
    n = app.answered(n)
    assert app.frame.locator("section#phase li.phase-outcome").count() > 0
    # the YAML is the changed position, GJ4 in J8
    assert "at: J8" in page.text_content("#yaml")
    # why not? a rout of RI5 to H4
    app.frame.locator('g.counter[data-unit="RI5"]').click()
    app.tool("why-not")
    app.hex("H4")
    page.wait_for_selector("#why[data-legal]", timeout=WAIT)
    assert page.get_attribute("#why", "data-legal") == "false"
    assert "A10.51" in page.inner_text("#why")
    # a bad value: the loader's message, on the field it concerns
    page.click("#why")
    app.tool("select")
    app.frame.locator('g.counter[data-unit="RI5"]').click()
    page.fill('#unit-editor input[data-field="counter"]', "4-4-x")
    page.press('#unit-editor input[data-field="counter"]', "Enter")
    n = app.answered(n)
    assert page.evaluate("document.body.dataset.state") == "error"
    assert "units[2].counter" in page.inner_text("#error")
    assert page.locator('#unit-editor [data-key="units[2].counter"].err').count() == 1
    assert app.frame.locator('g.counter.err[data-unit="RI5"]').count() == 1
    page.fill('#unit-editor input[data-field="counter"]', "4-4-7")
    page.press('#unit-editor input[data-field="counter"]', "Enter")
    n = app.answered(n)
    assert page.evaluate("document.body.dataset.state") == "answered"
    assert page.is_hidden("#error")
    # a wall: one hex, then an ADJACENT one (a hex not ADJACENT starts again)
    app.tool("hexside")
    page.click('#palette-hexside button[data-hexside="wall"]')
    app.hex("D6")
    app.hex("D8")
    assert "not ADJACENT" in page.inner_text("#hexside-hint") and "hexsides" not in (
        page.evaluate("window.aslKbServe.tree").get("map") or {}
    )
    app.hex("D7")
    n = app.answered(n)
    assert page.evaluate("document.body.dataset.state") == "answered", page.inner_text("#error")
    wall = app.frame.locator("polyline.hexside.hs-wall")
    assert wall.count() == 1 and "D7-D8: wall" in wall.locator("title").text_content()
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "walled.yaml"
    download.value.save_as(saved)
    assert yamltext.to_tree(saved.read_text(encoding="utf-8"))["map"]["hexsides"] == {"D8-D7": "wall"}
    assert load_position(saved).hexside("D7", "D8") == "wall"
    # none clears it
    page.click('#palette-hexside button[data-hexside="none"]')
    app.hex("D7")
    app.hex("D8")
    n = app.answered(n)
    assert app.frame.locator("polyline.hexside").count() == 0
    assert "hexsides" not in page.evaluate("window.aslKbServe.tree")["map"]
    app.close(refused=1)
