"""`asl-kb serve` in a real browser: Debian's headless Chromium driven by
Playwright (never a downloaded browser; skipped locally when either is
missing, a failure under CI, as tests/report/test_report_browser.py), the app
under uvicorn on a free 127.0.0.1 port, one browser and one server for the
module. One test builds the A10.531 EX position by clicks alone and saves
it: the file answers as the bundled one; another opens a bundled position,
drags a unit and sees the fates change, sets a wall between two hexes
(saved as map.hexsides, drawn) and clears it; one keeps the answers on
screen current (a late Why not? answer, a cancelled answer, a server gone);
one is a player's laptop screen (every unit in view, nothing else
scrolling, counters readable, a counter's menu and undo, the selected
unit's destinations as `outcomes` lists them, a destination's other routes
shown and folded, edits not discarded unasked). The
README's screenshots are made by `python -m tools.screenshots`."""

from __future__ import annotations

import json
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
from serve_helpers import drag  # noqa: E402

A10_531 = cases_dir() / "rout" / "A10.531-EX.yaml"
#: ms a step may wait for the page (an answer is a fraction of a second idle;
#: a shared machine running the suite on every core is many times slower)
WAIT = 60_000
#: the server's --timeout (the page shows it while it waits)
TIMEOUT = 60


@pytest.fixture(scope="module")
def server():
    """The app (a new position) under uvicorn, stopped and its port closed after."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(
        uvicorn.Config(create_app(None, timeout=TIMEOUT), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(30)
    assert not thread.is_alive()


class App:
    """The page, its errors and every request it made."""

    def __init__(self, browser, url: str, viewport=(1500, 950)):
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]}, accept_downloads=True)
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

    def edit(self, h: str) -> int:
        """Click a hex that changes the position, and wait for its answer: the
        answer re-lays out the map and the panel, and a click landing while it
        does may hit a neighbour (the page is stable between answers)."""
        n = self.count()
        self.hex(h)
        return self.answered(n)

    def fates(self, unit: str) -> list[str]:
        return self.frame.locator(f'li.fate[data-unit="{unit}"] .what').all_inner_texts()

    def open(self, path: Path) -> int:
        """Open a position file as a player does (Open…); the answers' count."""
        n = self.count()
        self.page.set_input_files("#open-file", str(path))
        return self.answered(n)

    def state(self) -> str:
        return self.page.evaluate("document.body.dataset.state")

    def close(self, refused: int = 0, offline: int = 0):
        """`refused`: the 4xx answers the test asked for (the browser logs
        each); `offline`: the requests it had fail."""
        bad = [e for e in self.errors if "status of 400" in e]
        gone = [e for e in self.errors if "net::ERR_" in e]
        assert len(bad) == refused and len(gone) == offline
        assert [e for e in self.errors if e not in bad and e not in gone] == []
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


def _place_the_units(app):
    """The A10.531 EX's units placed by the Unit tool (a status ticked on one counter after)."""
    page = app.page
    # the units: broken Russians under DM, then Germans
    app.tool("unit")
    page.select_option("#t-side", "russian")
    page.select_option("#t-type", "squad")
    page.select_option("#t-counter", "4-4-7")
    for h in ("G2", "J2", "I5"):
        page.check('#t-status input[value="broken"]')
        page.check('#t-status input[value="dm"]')
        app.edit(h)
        # a placed counter's statuses are not the next one's
        assert page.locator("#t-status input:checked").count() == 0
    page.check('#t-status input[value="broken"]')
    app.edit("I4")  # DM set below, on the counter itself
    page.select_option("#t-side", "german")
    assert page.input_value("#t-counter") == "4-6-7"  # a German squad as printed, not a Russian one
    for h in ("G4", "K4", "H5"):
        app.edit(h)
    page.select_option("#t-counter", "4-6-8")
    app.edit("J4")
    # a status set on a counter: select it, tick DM
    app.tool("select")
    app.frame.locator('g.counter[data-unit="RI4"]').click()
    n = app.count()
    page.check('#unit-editor input[data-status="dm"]')
    app.answered(n)


def test_build_the_a10_531_ex_position_by_clicks(browser, server, tmp_path):
    app = App(browser, server)
    page = app.page
    page.fill("#f-name", "A10.531 EX")
    page.press("#f-name", "Enter")
    page.select_option("#f-attacker", "russian")
    # the area: one corner, then the other
    app.tool("area")
    app.hex("D0")
    app.edit("M7")
    assert app.frame.locator("polygon.hex").count() == 75  # D0..M7: 10 columns of 8 rows, 5 without a row 0
    # woods and a building
    app.tool("terrain")
    page.click('#palette-terrain button[data-terrain="woods"]')
    for h in ("F1", "G1", "H2", "J2", "H0", "J0"):
        app.edit(h)
    page.click('#palette-terrain button[data-terrain="building"]')
    app.edit("K2")
    _place_the_units(app)
    # the LOS the example needs
    app.tool("los")
    for a, b in (("G2", "K4"), ("G2", "H5"), ("G2", "J4")):
        app.hex(a)
        app.edit(b)
    page.select_option("#los-kind", "clear")
    app.hex("H5")
    app.edit("J1")
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
    # a new position is saved under its own name, notes and all
    n = app.count()
    page.fill("#f-notes", "built by clicks")
    page.press("#f-notes", "Enter")
    app.answered(n)
    with page.expect_download() as download:
        page.click("#save")
    assert download.value.suggested_filename == "A10.531-EX.yaml"
    assert yamltext.to_tree(Path(download.value.path()).read_text(encoding="utf-8"))["notes"] == "built by clicks"
    app.close()


def _a_bad_value_marked(app, n: int) -> int:
    """A bad value: the loader's message, on the field and the counter it concerns;
    mended, answered. The answers' count."""
    page = app.page
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
    return n


def _a_wall_set_and_cleared(app, n: int, tmp_path) -> int:
    """A wall: one hex, then an ADJACENT one (a hex not ADJACENT starts again),
    saved as map.hexsides and drawn; none clears it. The answers' count."""
    page = app.page
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
    return n


def test_open_a_position_move_a_unit_see_the_fates_change(browser, server, tmp_path):
    app = App(browser, server)
    page = app.page
    n = app.count()
    n = app.open(A10_531)
    assert page.inner_text("#filename") == "A10.531-EX.yaml"
    before = app.fates("RI5")
    assert any("GJ4" in f for f in before)
    drawn_before = app.frame.locator('g.overlay[data-unit="RI5"]').evaluate_all("gs => gs.map(g => g.innerHTML)")
    # drag GJ4 from J4 to J8 (zoomed out: J8 is off the map fitted to the units)
    page.click("#zoom-out")
    page.click("#zoom-out")
    app.frame.locator('polygon.hex[data-hex="J8"]').scroll_into_view_if_needed()
    drag(
        page,
        app.frame.locator('g.counter[data-unit="GJ4"]').bounding_box(),
        app.frame.locator('polygon.hex[data-hex="J8"]').bounding_box(),
        steps=6,
    )
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
    n = _a_bad_value_marked(app, n)
    n = _a_wall_set_and_cleared(app, n, tmp_path)
    app.close(refused=1)


#: wraps the page's fetch: a Why not? about J0 answered late (after `late` ms)
LATE_J0 = """late => {
  const real = window.fetch;
  window.lateDone = false;
  window.fetch = async (url, opts) => {
    const r = await real(url, opts);
    if (String(url).includes("why-not") && opts && String(opts.body).includes('"at":"J0"')) {
      await new Promise(ok => setTimeout(ok, late));
      setTimeout(() => { window.lateDone = true; }, 50);
    }
    return r;
  };
}"""


def _the_server_gone(app, n: int) -> int:
    """With the server gone an edit, Why not?, Save and Open each say so, and the
    map that it shows the last answer; back, the next edit is answered. The
    answers' count."""
    page = app.page
    page.route("**/api/**", lambda route: route.abort("connectionrefused"))
    page.fill("#f-name", "offline")
    page.press("#f-name", "Enter")
    n = app.answered(n)
    assert app.state() == "error" and "does not answer" in page.inner_text("#error")
    assert page.evaluate("document.body.dataset.stale") == "true" and "edited" in page.inner_text("#stale")
    page.select_option("#why-fate", "rout")
    app.hex("K2")
    page.wait_for_function("document.querySelector('#why').textContent.includes('does not answer')", timeout=WAIT)
    page.evaluate("document.querySelector('#error').hidden = true")
    page.click("#save")
    page.wait_for_function("!document.querySelector('#error').hidden", timeout=WAIT)
    assert "does not answer" in page.inner_text("#error") and "not saved" in page.inner_text("#status")
    page.on("dialog", lambda d: d.accept())  # (the edits are discarded)
    page.set_input_files("#open-file", str(A10_531))
    page.wait_for_function("document.querySelector('#status').textContent.includes('not opened')", timeout=WAIT)
    # back: the next edit is answered, the map current again
    page.unroute("**/api/**")
    page.fill("#f-name", "back")
    page.press("#f-name", "Enter")
    n = app.answered(n)
    assert app.state() == "answered" and page.evaluate("document.body.dataset.stale") == "false"
    return n


def test_the_answers_shown_are_current(browser, server):
    """A Why not? answered late is not shown over the later one, and an edit
    clears it; a slow answer shows its time and the cap and can be
    cancelled; with the server gone every action says so, and the map says
    it shows the last answer, not the position as it now is."""
    app = App(browser, server)
    page = app.page
    n = app.open(A10_531)
    # Why not? J0, then K3 at once: K3's answer stays, J0's (late) is dropped
    app.frame.locator('g.counter[data-unit="RJ2"]').click()
    app.tool("why-not")
    page.evaluate(LATE_J0, 1500)
    app.hex("J0")
    app.hex("K3")
    page.wait_for_selector('#why[data-at="K3"]', timeout=WAIT)
    page.wait_for_function("window.lateDone", timeout=WAIT)
    assert page.get_attribute("#why", "data-at") == "K3" and "K3" in page.inner_text("#why")
    # stay, as `why-not POSITION RJ2 stay`
    page.select_option("#why-fate", "stay")
    app.hex("J2")
    page.wait_for_selector('#why[data-at="J2"]', timeout=WAIT)
    assert page.get_attribute("#why", "data-legal") == "true"
    # an edit: the answer was about the position before it
    page.fill("#f-name", "edited")
    page.press("#f-name", "Enter")
    assert page.is_hidden("#why")
    n = app.answered(n)
    # an answer held by the server: its time and the cap shown, then cancelled
    held = []
    page.route("**/api/answer", lambda route: held.append(route))
    page.fill("#f-name", "held")
    page.press("#f-name", "Enter")
    page.wait_for_function("Number(document.body.dataset.elapsed) >= 1", timeout=WAIT)
    assert f"{TIMEOUT} s" in page.inner_text("#status") and page.is_visible("#cancel")
    page.click("#cancel")
    page.wait_for_function("document.body.dataset.state === 'cancelled'", timeout=WAIT)
    n = app.count()
    assert page.is_hidden("#cancel")
    assert page.evaluate("document.body.dataset.stale") == "true" and page.is_visible("#stale")
    page.unroute("**/api/answer")  # (the held request was cancelled by the page: nothing to answer)
    assert len(held) == 1
    n = _the_server_gone(app, n)
    app.close(offline=4)


def _one_readable_screen(app):
    """One screen: neither the page, nor its header, nor the map's frame scrolls
    (the map scrolls in its own area, the fates in theirs, beside it); counters
    readable, fitted; each fate's reasons shown without a click."""
    page = app.page
    assert page.evaluate(
        "(s => s.scrollHeight <= innerHeight && s.scrollWidth <= innerWidth)(document.scrollingElement)"
    )
    assert page.evaluate("(h => h.scrollWidth <= h.clientWidth)(document.querySelector('#head'))")
    assert app.frame.locator("body").evaluate(
        "b => (s => s.scrollHeight <= s.clientHeight && s.scrollWidth <= s.clientWidth)(b.ownerDocument.scrollingElement)"
    )
    # readable counters, fitted: ids and markers (BRK, DM) half as large again as the report's 6.5 and 6 px
    height = "ts => ts.map(t => t.getBoundingClientRect().height)"
    assert min(app.frame.locator("g.counter text.uid").evaluate_all(height)) >= 10
    assert min(app.frame.locator("g.counter .tag text").evaluate_all(height)) >= 8.5
    # each fate's reasons shown without a click
    assert app.frame.locator("li.fate .why ul.because").first.is_visible()


def _a_destinations_other_routes(app, n: int, fates: dict, text: str) -> int:
    """RJ2's routes to J0: the best one drawn, the others one click away (and
    back); the position untouched. The answers' count."""
    page = app.page
    to_j0 = sum(
        1 for u in fates["units"] if u["id"] == "RJ2" for f in u["fates"] if f["fate"] == "rout" and f["at"] == "J0"
    )
    dest = app.frame.locator('section.unit[data-unit="RJ2"] details.dest:has(> summary[data-at="J0"])')
    dest.evaluate("d => { d.open = true; }")
    assert dest.locator("li.fate").count() == 1 < to_j0
    dest.locator('button.routes[data-expand="true"]').click()
    n = app.answered(n)
    assert dest.locator("li.fate").count() == to_j0 and dest.evaluate("d => d.open")
    assert app.frame.locator('section.unit[data-unit="RG2"] li.more').count() > 0  # (another's still counted)
    dest.locator('button.routes[data-expand="false"]').click()
    n = app.answered(n)
    assert dest.locator("li.fate").count() == 1
    assert page.text_content("#yaml") == text and page.evaluate("document.querySelector('#undo').disabled")
    return n


def _out_of_view(app) -> list[str]:
    """The counters drawn outside what the 1366x768 screen shows of the map."""
    view = app.frame.locator("#map").bounding_box()
    frame = app.page.locator("#report").bounding_box()
    x0, y0 = max(view["x"], frame["x"], 0), max(view["y"], frame["y"], 0)
    x1 = min(view["x"] + view["width"], frame["x"] + frame["width"], 1366)
    y1 = min(view["y"] + view["height"], frame["y"] + frame["height"], 768)
    out = []
    for c in app.frame.locator("g.counter").all():
        b = c.bounding_box()
        if not (x0 <= b["x"] and b["x"] + b["width"] <= x1 and y0 <= b["y"] and b["y"] + b["height"] <= y1):
            out.append(c.get_attribute("data-unit"))
    return out


def test_a_players_screen(browser, server):
    """At 1366x768: the opened position fitted so that every unit is in
    view; a counter's menu breaks it, and undo gives the file back byte for
    byte (so does the Delete key, undone); a selected unit's destinations
    are coloured, exactly the Locations `outcomes` lists for it."""
    app = App(browser, server, viewport=(1366, 768))
    page = app.page
    n = app.open(A10_531)
    text = A10_531.read_text(encoding="utf-8")
    assert page.text_content("#yaml") == text

    assert app.frame.locator("g.counter").count() == 8
    assert _out_of_view(app) == []  # fitted when opened
    page.click("#zoom-in")
    page.click("#zoom-in")
    page.click("#zoom-in")
    page.click("#fit")
    assert _out_of_view(app) == []
    _one_readable_screen(app)
    # the selected unit's destinations: every Location of its fates
    fates = json.loads(_outcomes_json(A10_531))
    for unit in ("RJ2", "RI5"):
        app.frame.locator(f'g.counter[data-unit="{unit}"]').click()
        drawn = app.frame.locator("g#dest polygon.dest").evaluate_all("ps => ps.map(p => p.dataset.hex)")
        listed = {f["at"].split("@")[0] for u in fates["units"] if u["id"] == unit for f in u["fates"]}
        assert sorted(drawn) == sorted(listed), unit
    n = _a_destinations_other_routes(app, n, fates, text)
    # a hex RI5's fates do not reach, hovered: why it may not rout there
    app.frame.locator('polygon.hex[data-hex="H4"]').hover(force=True)
    page.wait_for_selector('#why[data-at="H4"]', timeout=WAIT)
    assert page.get_attribute("#why", "data-legal") == "false" and "A10.51" in page.inner_text("#why")
    # right-click Break, then undo: the file's own text again
    app.frame.locator('g.counter[data-unit="GJ4"]').click(button="right")
    page.click('#menu button[data-act="broken"]')
    n = app.answered(n)
    assert page.text_content("#yaml") != text
    broken = {u["id"]: u.get("status", []) for u in page.evaluate("window.aslKbServe.tree")["units"]}["GJ4"]
    assert "broken" in broken and any(u["id"] == "GJ4" for u in page.evaluate("window.aslKbServe.result")["units"])
    page.click("#undo")
    n = app.answered(n)
    assert page.text_content("#yaml") == text
    # the Delete key, undone with Ctrl-Z; redone with Ctrl-Y
    app.frame.locator('g.counter[data-unit="GK4"]').click()
    page.keyboard.press("Delete")
    n = app.answered(n)
    assert app.frame.locator('g.counter[data-unit="GK4"]').count() == 0
    page.keyboard.press("Control+z")
    n = app.answered(n)
    assert page.text_content("#yaml") == text
    page.keyboard.press("Control+y")
    n = app.answered(n)
    assert app.frame.locator('g.counter[data-unit="GK4"]').count() == 0
    _edits_are_not_discarded_unasked(app, n)
    app.close()


def _edits_are_not_discarded_unasked(app, n: int) -> int:
    """With edits not saved, leaving the page asks first, and so does New
    (answered in the page: a native dialog stops its script under the
    waits): refused, the edits stay; accepted, a new position. Saved,
    nothing is asked. The answers' count."""
    page = app.page
    leave = "() => { const e = new Event('beforeunload', {cancelable: true}); dispatchEvent(e); return e.defaultPrevented; }"
    page.evaluate(
        "() => { window.asked = []; window.answer = false; window.confirm = m => { asked.push(m); return answer; }; }"
    )
    assert page.evaluate(leave) is True
    units = page.evaluate("window.aslKbServe.tree")["units"]
    page.click("#new")
    assert page.evaluate("window.asked.length") == 1 and page.evaluate("window.aslKbServe.tree")["units"] == units
    page.evaluate("() => { window.answer = true; }")
    page.click("#new")
    n = app.answered(n)
    assert page.evaluate("window.asked.length") == 2 and page.evaluate("window.aslKbServe.tree")["units"] == []
    assert page.evaluate(leave) is False
    page.click("#new")  # (nothing to discard: not asked)
    n = app.answered(n)
    assert page.evaluate("window.asked.length") == 2
    return n


def test_a_vasl_saved_game_dropped_on_the_map(browser, server, tmp_path, monkeypatch):
    """A .vsav dropped on the page opens as `asl-kb import` reads it: the
    edits discarded on request, the ATTACKER asked (the save does not say
    whose Player Turn it is), the units on the map, on its board's art, and
    answered."""
    import base64

    from test_serve_vsav import save_and_boards

    path, folder = save_and_boards(tmp_path)
    monkeypatch.setenv("ASL_KB_VASL_BOARDS", str(folder))  # (the answers' children are forked from this process)
    app = App(browser, server)
    page = app.page
    n = app.count()
    # the page's questions answered in the page: a native dialog would stop
    # its script until Playwright's handler ran, and the waits poll that script
    page.evaluate(
        """() => { window.asked = [];
                   window.prompt = m => { window.asked.push(m); return "russian"; };
                   window.confirm = m => { window.asked.push(m); return true; }; }"""
    )
    dropped = page.evaluate_handle(
        """b64 => { const dt = new DataTransfer();
                    const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
                    dt.items.add(new File([bytes], "dropped game.vsav")); return dt; }""",
        base64.b64encode(path.read_bytes()).decode(),
    )
    page.dispatch_event("#board-wrap", "drop", {"dataTransfer": dropped})
    n = app.answered(n)
    assert app.state() == "answered" and page.inner_text("#filename") == "dropped game.yaml"
    tree = page.evaluate("window.aslKbServe.tree")
    assert tree["attacker"] == "russian" and len(tree["units"]) == 2
    assert app.frame.locator("g.counter").count() == 2
    assert app.frame.locator('#art image[data-board="99"]').count() == 1  # the game's board, its art under the grid
    assert len(page.evaluate("window.asked")) == 1  # the ATTACKER, once
    app.close(refused=1)  # (the ATTACKER asked)
