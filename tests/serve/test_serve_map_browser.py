"""`asl-kb serve`'s map in Chromium (as tests/serve/test_serve_browser.py
drives it): a selected unit's destinations carry the odds of the rout
there, as its fates give them; a counter dragged from the tray onto a hex
is a unit there, coloured by its side or its nationality; the counter
menu's Flip turns it over, broken side up or down; a long answer says how
many units it has done, and Cancel ends it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from asl_kb.report.html import SIDE_COLOURS  # noqa: E402
from serve_helpers import drag  # noqa: E402
from test_serve_browser import A10_531, WAIT, App, _outcomes_json, server  # noqa: E402, F401 (the fixture)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from generate import generate_area_spread  # noqa: E402


def _whole_percent(chance: str) -> int:
    k, n = (int(x) for x in chance.split("/"))
    return round(100 * k / n)


def test_the_destinations_carry_the_odds_of_their_rout(browser, server):  # noqa: F811
    app = App(browser, server)
    seen_odds = 0
    for path in (A10_531, A10_531.with_name("A10.53-odds.yaml")):
        app.open(path)
        fates = {u["id"]: u["fates"] for u in json.loads(_outcomes_json(path))["units"]}
        seen_odds += _check_destinations(app, fates)
    assert seen_odds >= 4  # RJ2's J0 in the A10.531 EX, R1's A8 and others are reached through Interdiction alone
    app.close()


def _check_destinations(app, fates: dict) -> int:
    """Each broken unit selected: its destinations drawn with the fewest NMC
    of a rout there and, where dice decide, its chance intact; how many
    destinations showed odds."""
    seen_odds = 0
    for unit in fates:
        app.frame.locator(f'g.counter[data-unit="{unit}"]').click()
        # each destination: its hex, NMC, chance intact and the words drawn in it
        drawn = app.frame.locator("g#dest polygon.dest").evaluate_all(
            """ps => ps.map(p => {
                 const words = Array.from(p.parentNode.querySelectorAll(`text[data-hex="${p.dataset.hex}"]`));
                 return [p.dataset.hex, p.dataset.nmcs || null, p.dataset.intact || null,
                         words.map(t => t.textContent).join(" ")];
               })"""
        )
        for h, nmcs, intact, words in drawn:
            routs = [f for f in fates[unit] if f["fate"] == "rout" and f["at"].split("@")[0] == h]
            if not routs:
                assert nmcs is None and intact is None, h
                continue
            fewest = min((f.get("odds") or {}).get("nmcs", 0) for f in routs)
            assert int(nmcs) == fewest, (unit, h)
            if not fewest:
                assert intact is None
                continue
            # the likeliest intact of the routes with the fewest NMC: a chance the fates list
            chances = [f["odds"]["intact"]["chance"] for f in routs if f["odds"]["nmcs"] == fewest]
            assert intact == max(chances, key=lambda c: int(c.split("/")[0]) / int(c.split("/")[1])), (unit, h)
            assert f"{_whole_percent(intact)}%" in words.split()
            seen_odds += 1
    return seen_odds


def test_a_counter_from_the_tray_and_flipped(browser, server):  # noqa: F811
    app = App(browser, server)
    page = app.page
    n = app.count()
    page.select_option("#tray-side", "russian")
    chip = page.locator('#tray-counters .chip[data-type="squad"][data-counter="4-4-7"]')
    # dragged onto E5 where the map draws it
    drag(page, chip.bounding_box(), app.frame.locator('polygon.hex[data-hex="E5"]').bounding_box())
    n = app.answered(n)
    [u] = page.evaluate("window.aslKbServe.tree")["units"]
    assert (u["side"], u["type"], u["counter"], u["at"], u.get("status")) == ("russian", "squad", "4-4-7", "E5", None)
    assert app.frame.locator(f'g.counter[data-unit="{u["id"]}"][data-hex="E5"]').count() == 1
    # coloured by its side, or by its nationality where one is given
    face = app.frame.locator(f'g.counter[data-unit="{u["id"]}"] rect.face')
    assert face.get_attribute("fill") == SIDE_COLOURS["russian"]
    page.fill('#unit-editor input[data-field="nationality"]', "finnish")
    page.press('#unit-editor input[data-field="nationality"]', "Enter")
    n = app.answered(n)
    assert face.get_attribute("fill") == SIDE_COLOURS["finnish"] != SIDE_COLOURS["russian"]
    page.fill('#unit-editor input[data-field="nationality"]', "")
    page.press('#unit-editor input[data-field="nationality"]', "Enter")
    n = app.answered(n)

    # Flip: broken side up; DM on it; Flip: unbroken side up, under no DM (A10.62)
    app.frame.locator(f'g.counter[data-unit="{u["id"]}"]').click(button="right")
    page.click('#menu button[data-act="flip"]')
    n = app.answered(n)
    assert page.evaluate("window.aslKbServe.tree")["units"][0]["status"] == ["broken"]
    app.frame.locator(f'g.counter[data-unit="{u["id"]}"]').click(button="right")
    page.click('#menu button[data-act="dm"]')
    n = app.answered(n)
    assert page.evaluate("window.aslKbServe.tree")["units"][0]["status"] == ["broken", "dm"]
    app.frame.locator(f'g.counter[data-unit="{u["id"]}"]').click(button="right")
    page.click('#menu button[data-act="flip"]')
    n = app.answered(n)
    assert "status" not in page.evaluate("window.aslKbServe.tree")["units"][0]
    assert app.state() == "answered"
    # a click on a counter of the tray picks it for the Unit tool
    page.select_option("#tray-side", "german")
    page.click('#tray-counters .chip[data-type="leader"][data-counter="9-1"]')
    assert page.get_attribute("#tool-unit", "class") == "on"
    assert (page.input_value("#t-side"), page.input_value("#t-type"), page.input_value("#t-counter")) == (
        "german",
        "leader",
        "9-1",
    )
    app.close()


def test_a_long_answer_says_how_many_units_it_has_done(browser, server, tmp_path):  # noqa: F811
    path = tmp_path / "spread.yaml"
    path.write_text(generate_area_spread(60, 20), encoding="utf-8")
    app = App(browser, server)
    page = app.page
    page.set_input_files("#open-file", str(path))
    # (asked each second: the broken units whose fates are read, of the 60)
    page.wait_for_function("document.body.dataset.of === '60'", timeout=WAIT)
    done = int(page.evaluate("document.body.dataset.done"))
    assert 0 <= done <= 60 and "of 60 units" in page.inner_text("#status")
    page.click("#cancel")
    page.wait_for_function("document.body.dataset.state === 'cancelled'", timeout=WAIT)
    assert page.evaluate("document.body.dataset.of") is None and page.is_hidden("#cancel")
    app.close()
