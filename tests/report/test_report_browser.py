"""The HTML report in a real browser: Debian's headless Chromium driven by
Playwright (never a downloaded browser). Skipped locally when Chromium or
Playwright is missing; under CI (CI=true) that is a failure, so `make test`
on a fresh machine runs these for real."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

from asl_kb.board import hexgrid
from asl_kb.report import html as report
from asl_kb.resources import cases_dir

from test_report_html import CASES, RENDER_SECONDS, case_page

A10_531 = cases_dir() / "rout" / "A10.531-EX.yaml"


class Page:
    """A tab for reports, with its console errors and every request it
    made: one a module (the `tab` fixture), each report loaded in turn (a new
    tab costs more than loading most reports)."""

    def __init__(self, browser, folder: Path):
        self.folder = folder
        self.loaded = 0
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page = browser.new_page(viewport={"width": 1500, "height": 1000})
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))

    def load(self, name: str, text: str):
        """Open a report (a file of its own: a new document, whatever the
        last one left scrolled, toggled or anchored): errors and requests
        from that load on."""
        self.loaded += 1
        path = self.folder / f"{self.loaded}-{name}.html"
        path.write_text(text, encoding="utf-8")
        self.errors.clear()
        self.requests.clear()
        self.page.goto(path.as_uri())
        self.load_ms = self.page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
        return self

    def close(self):
        self.page.close()


@pytest.fixture(scope="module")
def tab(browser, tmp_path_factory):
    p = Page(browser, tmp_path_factory.mktemp("reports"))
    yield p
    p.close()


#: counters (g.counter), fate entries (li.fate by data-section, data-unit) and
#: the panel's unit sections (#panel section.unit by data-unit) of a page
SHOWN = """() => {
    const count = (into, key) => { into[key] = (into[key] || 0) + 1; };
    const fates = {}, panels = {};
    for (const li of document.querySelectorAll('li.fate[data-section][data-unit]'))
        count(fates[li.dataset.section] = fates[li.dataset.section] || {}, li.dataset.unit);
    for (const s of document.querySelectorAll('#panel section.unit[data-unit]'))
        count(panels, s.dataset.unit);
    return {counters: [...document.querySelectorAll('g.counter')].map(g => g.dataset.unit), fates, panels};
}"""


def _parts() -> list:
    """The pages in parts: the rulebook's A10.5 EX for make test, and for
    make test-slow the others of each chapter folder in parts of
    about twenty (sixty pages in one test were the suite's longest: its end
    waited for them)."""
    # (the rulebook's example: a page costs a second or so)
    sample = [c for c in CASES if f"{c.parent.name}/{c.name}" == "rout/A10.5-EX.yaml"]
    out: list = [pytest.param(sample, id="sample")]
    for chapter in sorted({p.parent.name for p in CASES}):
        rest = [c for c in CASES if c.parent.name == chapter and c not in sample]
        n = max(1, round(len(rest) / 20))
        out += [pytest.param(rest[k::n], id=f"{chapter}-{k}-{n}", marks=pytest.mark.slow) for k in range(n)]
    return out


@pytest.mark.parametrize("pages", _parts())
def test_every_bundled_page_loads_with_every_unit_and_fate_list(tab, capsys, pages):
    # one test per part, so that the test workers share the pages
    timings = []
    for path in pages:
        position, r, text = case_page(path)
        render = RENDER_SECONDS[path, path.parent.name == "phase", path.parent.name == "rout"]
        p = tab.load(f"{path.parent.name}-{path.stem}", text)
        assert p.errors == [], path.name
        assert [u for u in p.requests if not u.startswith("file:")] == [], path.name
        # what the page shows, read in one call into the page: its counters,
        # its fate entries by section and unit, its unit sections in the panel
        shown = p.page.evaluate(SHOWN)
        assert sorted(shown["counters"]) == sorted(u.id for u in position.units), path.name
        for section in ("rout", "heat_of_battle", "disrupted"):
            for u in r["units"] if section == "rout" else r.get(section, []):
                n = shown["fates"].get(section, {}).get(u["id"], 0)
                assert n == len(u["fates"]), (path.name, u["id"])
                assert shown["panels"].get(u["id"], 0) >= 1
        timings.append((f"{path.parent.name}/{path.stem}", render, p.load_ms))
    with capsys.disabled():
        print("\nreport page of each bundled position: rendered (to_html), loaded in Chromium (load event)")
        for name, s, ms in timings:
            total = s + ms / 1000
            print(f"  {name:36s} render {s * 1000:6.1f} ms  load {ms:7.1f} ms{'' if total < 1 else '  (over 1 s)'}")


def _open_and_click(p: Page, li):
    """As a player: open the fate's destination if closed, then click it.
    (force: a real mouse click where the entry is, without Playwright's
    waits for it to stand still over two animation frames, a second a
    position; a click landing elsewhere fails the checks that follow)"""
    details = li.locator("xpath=ancestor::details[1]")
    if details.count() and details.get_attribute("open") is None:
        details.locator("summary").click(force=True)
    li.click(force=True)


#: what a clicked fate shows, read in one call into the page (a round trip
#: per question made the test take seconds per position): the overlays shown,
#: the one the entry names, and in it the route, its end and Interdiction
#: polygons, whether each is drawn, and the entry's because lines
DRAWN = """li => {
    const visible = e => {
        if (!e) return false;
        const r = e.getBoundingClientRect(), st = getComputedStyle(e);
        return r.width * r.height > 0 && st.visibility === 'visible' && st.display !== 'none';
    };
    const shown = [...document.querySelectorAll('g.overlay.shown')].map(g => g.id);
    const overlay = document.getElementById(li.dataset.overlays);
    const route = overlay ? overlay.querySelector('polyline.route') : null;
    const box = route ? route.getBoundingClientRect() : null;
    const why = li.querySelector('.why');
    return {
        shown, named: li.dataset.overlays, overlay: visible(overlay),
        route: route && {
            hexes: route.dataset.hexes, points: route.getAttribute('points'),
            size: box.width + box.height,
            // drawn: neither it nor its group is hidden (a straight line has an
            // empty geometric box, so a box test does not apply)
            drawn: [route, route.parentNode].every(x => getComputedStyle(x).display !== 'none'
                                                    && getComputedStyle(x).visibility === 'visible')},
        end: visible(overlay && overlay.querySelector('polygon.end')),
        interdiction: overlay ? overlay.querySelectorAll('polygon.interdiction').length : -1,
        rule_links: li.querySelectorAll('.why a.rule').length,
        why: visible(why),
    };
}"""

#: a click as a mouse makes it, inside the page: the element scrolled into
#: view, and mousedown, mouseup and click given to what is at its centre --
#: which must be in the element (false: a click there would land elsewhere,
#: under another element)
MOUSE_CLICK = """e => {
    e.scrollIntoView({block: 'center', inline: 'center'});
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !e.contains(hit)) return false;
    for (const type of ['mousedown', 'mouseup', 'click'])
        hit.dispatchEvent(new MouseEvent(type, {bubbles: true, cancelable: true, view: window,
                                                clientX: x, clientY: y, button: 0}));
    return true;
}"""

#: every fate clicked in turn (MOUSE_CLICK; its destination opened first by
#: a click on its summary if closed) and what it shows read (DRAWN), in one
#: call into the page: a Playwright round trip per click cost ~0.2 s a fate,
#: seconds a position. The selectors are in the order of the JSON's fates.
CLICK_EACH = """([selectors, drawn, mouseClick]) => {
    const draw = eval(drawn), click = eval(mouseClick);
    return selectors.map(sel => {
        const li = document.querySelector(sel);
        if (!li) return {found: false};
        const details = li.parentElement.closest('details');
        const opened = !details || details.open || click(details.querySelector('summary'));
        const hit = click(li);
        return {found: true, opened, hit, ...draw(li)};
    });
}"""


def _fate_selector(unit: str, i: int) -> str:
    return f'li.fate[data-section="rout"][data-unit="{unit}"][data-index="{i}"]'


def _check_drawn(d: dict, f: dict):
    """What the page shows after a fate's entry was clicked: its overlay
    alone, its route through the JSON's path's hex centres, its end, its
    Interdictions, its because lines."""
    assert d["shown"] == [d["named"]]
    assert d["overlay"]
    if len(f["path"]) > 1:
        assert d["route"]["hexes"].split() == f["path"]
        drawn = [tuple(map(float, q.split(","))) for q in d["route"]["points"].split()]
        centres = [hexgrid.hex_shape(h.split("@")[0], report.SIZE).centre for h in f["path"]]
        assert len(drawn) == len(centres)
        assert all(abs(x - cx) < 0.06 and abs(y - cy) < 0.06 for (x, y), (cx, cy) in zip(drawn, centres))
        assert d["route"]["size"] > 10
        assert d["route"]["drawn"]
    else:
        assert d["route"] is None
    assert d["end"]
    assert d["interdiction"] == len(f["interdiction"]) + len(f["optional_interdiction"])
    # its because lines show beside it (said once: lines differing in one
    # unit or hex merged, issue 30), each rule id a link into the catalogue
    assert d["rule_links"] == len(report._merged(f["because"]))
    assert d["why"]


@pytest.mark.parametrize(
    "path",
    [A10_531, cases_dir() / "rout" / "A10.533-EX2.yaml", cases_dir() / "immediate" / "article-Ex8.yaml"],
    ids=lambda p: p.stem,
)
def test_clicking_a_fate_draws_exactly_its_json_path(tab, path):
    position, r, text = case_page(path)
    fates = [(u["id"], i, f) for u in r["units"] for i, f in enumerate(u["fates"])]
    assert len(fates) > 1
    p = tab.load("r", text)
    # every fate clicked in the page, in the JSON's order
    shown = p.page.evaluate(CLICK_EACH, [[_fate_selector(u, i) for u, i, _ in fates], DRAWN, MOUSE_CLICK])
    for (u, i, f), d in zip(fates, shown, strict=True):
        assert d["found"] and d["opened"] and d["hit"], (u, i, d)
        _check_drawn(d, f)
    # and a real mouse click (Playwright's) on the first fate, the last one
    # shown, gives what the page's own click gave
    u, i, f = fates[0]
    li = p.page.locator(_fate_selector(u, i))
    _open_and_click(p, li)
    _check_drawn(li.evaluate(DRAWN), f)
    assert p.errors == []


def test_rule_links_and_los_toggle(tab):
    position, r, text = case_page(A10_531)
    p = tab.load("r", text)
    assert not p.page.locator("#los").is_visible()
    p.page.locator("#los-toggle").check()
    assert p.page.locator("#los").is_visible()
    assert p.page.locator("#los g.los").count() == len(position.los_blocked) + len(position.los_clear)
    link = p.page.locator("#panel ul.because a.rule").first
    rule = link.inner_text()
    link.click()
    assert p.page.evaluate("location.hash") == "#" + report.anchor(rule)
    assert p.page.locator(f'[id="{report.anchor(rule)}"]').inner_text() == rule
    assert p.errors == []


#: each whole-phase outcome clicked in turn (as CLICK_EACH clicks a fate),
#: and the units whose overlays are then shown, in one call into the page
CLICK_EACH_OUTCOME = """(click) => {
    const hit = eval(click);
    return [...document.querySelectorAll('li.phase-outcome')].map(li => ({
        hit: hit(li),
        shown: [...document.querySelectorAll('g.overlay.shown')].map(g => g.dataset.unit)}));
}"""


def test_whole_phase_outcome_draws_each_units_fate(tab):
    path = cases_dir() / "phase" / "article-Ex13.yaml"
    position, r, text = case_page(path)
    p = tab.load("r", text)
    outcomes = r["phase"]["outcomes"]
    assert len(outcomes) > 1
    shown = p.page.evaluate(CLICK_EACH_OUTCOME, MOUSE_CLICK)
    assert len(shown) == len(outcomes)
    for o, d in zip(outcomes, shown):
        assert d["hit"]
        assert sorted(d["shown"]) == sorted(t["unit"] for t in o["turns"])
    # and a real mouse click (Playwright's) on the first, the last one shown
    p.page.locator("li.phase-outcome").first.click(force=True)
    units = p.page.eval_on_selector_all("g.overlay.shown", "gs => gs.map(g => g.dataset.unit)")
    assert sorted(units) == sorted(t["unit"] for t in outcomes[0]["turns"])
    assert p.errors == []


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_png_of_the_a10_531_ex(browser, tmp_path):
    """`asl-kb report --png` writes the map: a real picture, with the terrain,
    both sides' counters and the chosen fate's route in it."""
    out = tmp_path / "map.png"
    # the command itself, in its own process (it drives its own browser)
    done = subprocess.run(
        [sys.executable, "-m", "asl_kb", "report", str(A10_531), "--fate", "RG2:2", "--png", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    width, height = _png_size(data)
    assert width >= 600 and height >= 400 and len(data) > 20_000
    page = browser.new_page()
    try:
        page.set_content("<canvas id=c></canvas>")
        stats = page.evaluate(
            """async (b64) => {
            const img = new Image(); img.src = 'data:image/png;base64,' + b64; await img.decode();
            const c = document.getElementById('c'); c.width = img.width; c.height = img.height;
            const g = c.getContext('2d'); g.drawImage(img, 0, 0);
            const d = g.getImageData(0, 0, img.width, img.height).data;
            const colours = new Set(); let route = 0, russian = 0, german = 0, woods = 0;
            const near = (i, r, gg, b) => Math.abs(d[i]-r) + Math.abs(d[i+1]-gg) + Math.abs(d[i+2]-b) < 30;
            for (let i = 0; i < d.length; i += 4) {
                colours.add((d[i] << 16) | (d[i+1] << 8) | d[i+2]);
                if (near(i, 0xd4, 0x14, 0x5a)) route++;
                if (near(i, 0xc4, 0x9a, 0x6c)) russian++;
                if (near(i, 0x9f, 0xb7, 0xcc)) german++;
                if (near(i, 0x4d, 0x7a, 0x2c) || near(i, 0x6f, 0x9a, 0x45)) woods++;
            }
            return {colours: colours.size, route, russian, german, woods, pixels: d.length / 4};
        }""",
            __import__("base64").b64encode(data).decode(),
        )
    finally:
        page.close()
    assert stats["colours"] > 50
    for key in ("route", "russian", "german", "woods"):
        assert stats[key] > 200, (key, stats)
