"""`asl-kb serve` on VASL boards, in Chromium (as tests/serve/test_serve_browser.py
drives it): the editor's map draws the boards' art under the hex grid, the
art's pixels where the board has them, and a click on a hex places a unit
in that hex; a board the VASL boards folder lacks is the loader's error on
the field; a saved game opened (Open…) shows its boards. Synthetic board
archives and saves (tests/vasl_archives.py, tests/vasl_saves.py): no real
VASL data."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from test_serve_browser import App, server  # noqa: E402, F401 (the fixture)
from test_serve_vsav import save_and_boards  # noqa: E402
from vasl_archives import TERRAIN_TYPES, Painter, boards_folder  # noqa: E402

COLOUR = {name: list(rgb) for name, *_rest, rgb in TERRAIN_TYPES}

#: in the map's frame: the colour of the boards' art under each hex's centre
#: (its image drawn on a canvas, the centre taken into the image's pixels
#: through the image's own transform on the screen)
ART_UNDER = """async (_, hexes) => {
  const img = document.querySelector("#art image");
  const bitmap = new Image();
  bitmap.src = img.getAttribute("href");
  await bitmap.decode();
  const canvas = document.createElement("canvas");
  canvas.width = bitmap.width; canvas.height = bitmap.height;
  const ctx = canvas.getContext("2d");
  ctx.drawImage(bitmap, 0, 0);
  const inverse = img.getScreenCTM().inverse();
  return hexes.map(h => {
    const b = document.querySelector(`polygon.hex[data-hex="${h}"]`).getBoundingClientRect();
    const p = new DOMPoint(b.x + b.width / 2, b.y + b.height / 2).matrixTransform(inverse);
    return Array.from(ctx.getImageData(Math.round(p.x), Math.round(p.y), 1, 1).data.slice(0, 3));
  });
}"""


def _click_centre(app, h: str):
    """A click where the hex is on the screen (the page finds the hex under
    the pointer, not an element the test names)."""
    b = app.frame.locator(f'polygon.hex[data-hex="{h}"]').bounding_box()
    app.page.mouse.click(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)


def _a_painted_maps_board(app, n: int) -> int:
    """A painted map's board is a label (its hexes' prefix): said so; a
    board the folder holds (99) is offered, and the map put on it; undone,
    the position is new again. The answers' count."""
    page = app.page
    note = page.locator("#board-note")
    page.fill("#f-board", "98")
    page.press("#f-board", "Enter")
    n = app.answered(n)
    assert note.is_visible() and (note.get_attribute("data-board"), note.get_attribute("data-vasl")) == ("98", "false")
    assert page.locator("#use-vasl-board").count() == 0
    page.fill("#f-board", "99")
    page.press("#f-board", "Enter")
    n = app.answered(n)
    assert (note.get_attribute("data-board"), note.get_attribute("data-vasl")) == ("99", "true")
    page.click("#use-vasl-board")
    n = app.answered(n)
    assert page.evaluate("window.aslKbServe.tree")["map"] == {"boards": ["99"]} and note.is_hidden()
    assert app.frame.locator('#art image[data-board="99"]').count() == 1
    for _ in range(3):
        page.click("#undo")
        n = app.answered(n)
    assert "map" not in page.evaluate("window.aslKbServe.tree") and note.is_hidden()
    return n


def test_the_map_on_vasl_boards_draws_their_art_under_the_grid(browser, server, tmp_path, monkeypatch):  # noqa: F811
    painter = Painter()
    painter.hex("E5", "Woods")
    painter.hex("G6", "Grain")
    folder = boards_folder(tmp_path / "boards", {"99": painter})
    monkeypatch.setenv("ASL_KB_VASL_BOARDS", str(folder))  # (the answers' children are forked from this process)
    app = App(browser, server)
    page = app.page
    n = app.count()
    n = _a_painted_maps_board(app, n)
    # a board the folder lacks: the loader's error (the board and the folder named), on the field
    page.fill("#f-boards", "98")
    page.press("#f-boards", "Enter")
    n = app.answered(n)
    assert app.state() == "error"
    assert page.locator('#header-fields [data-key="map.boards"].err').count() == 1
    error = page.inner_text("#error")
    assert "98" in error and str(folder) in error
    # board 99: its art under the grid, the painted map's fields put away
    page.fill("#f-boards", "99")
    page.press("#f-boards", "Enter")
    n = app.answered(n)
    assert app.state() == "answered", page.inner_text("#error")
    assert page.evaluate("window.aslKbServe.tree")["map"] == {"boards": ["99"]}
    assert app.frame.locator('#art image[data-board="99"]').count() == 1
    assert page.is_hidden("#f-board") and page.is_hidden("#f-default")
    under = app.frame.locator("#art").evaluate(
        "(art) => art.compareDocumentPosition(document.querySelector('polygon.hex')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    assert under  # the art first, the hexes drawn over it
    hexes = ["99E5", "99G6", "99C3", "99F8"]
    assert app.frame.locator("#map").evaluate(ART_UNDER, hexes) == [
        COLOUR["Woods"],
        COLOUR["Grain"],
        COLOUR["Open Ground"],
        COLOUR["Open Ground"],
    ]
    # a unit placed by a click where a hex is drawn is in that hex
    app.tool("unit")
    page.select_option("#t-side", "russian")
    for h in ("99E5", "99G6"):
        _click_centre(app, h)
        n = app.answered(n)
        assert page.evaluate("window.aslKbServe.tree")["units"][-1]["at"] == h
        assert app.frame.locator(f'g.counter[data-hex="{h}"]').count() == 1
    assert app.state() == "answered"
    # zoomed in, the art and the hexes stay together
    page.click("#zoom-in")
    page.click("#zoom-in")
    app.frame.locator('polygon.hex[data-hex="99G6"]').scroll_into_view_if_needed()
    assert app.frame.locator("#map").evaluate(ART_UNDER, ["99G6"]) == [COLOUR["Grain"]]
    app.close(refused=1)


def test_a_saved_game_opened_shows_its_boards(browser, server, tmp_path, monkeypatch):  # noqa: F811
    path, folder = save_and_boards(tmp_path)
    monkeypatch.setenv("ASL_KB_VASL_BOARDS", str(folder))
    app = App(browser, server)
    page = app.page
    # the ATTACKER asked in the page (a native dialog would stop its script under the waits)
    page.evaluate("() => { window.asked = []; window.prompt = m => { window.asked.push(m); return 'russian'; }; }")
    n = app.count()
    page.set_input_files("#open-file", str(path))
    app.answered(n)
    assert app.state() == "answered" and page.input_value("#f-boards") == "99"
    assert app.frame.locator('#art image[data-board="99"]').count() == 1
    drawn = app.frame.locator("g.counter").evaluate_all("cs => cs.map(c => c.dataset.hex)")
    assert sorted(drawn) == sorted(u["at"] for u in page.evaluate("window.aslKbServe.tree")["units"])
    assert len(page.evaluate("window.asked")) == 1  # the ATTACKER, once
    app.close(refused=1)  # (the ATTACKER asked)
