"""`asl-kb report POSITION --to B`: one page, the position's two boards side
by side (left: --rules, right: B), the outcomes that appear or vanish listed
with their causes as `diff` attributes them, and marked on the board where
they hold. Structure only: rule sets, units, hexes, rule ids."""

from __future__ import annotations

import dataclasses
import shlex

from asl_kb.cli import main
from asl_kb.committee.compare import compare
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.position.loader import load_position
from asl_kb.report import pair
from conftest import FACTS
from test_report_html import Elements

INTERDICTOR = FACTS / "rout" / "A20.21-unconcealed-interdictor.yaml"
ENTERED = FACTS / "immediate" / "A19.12-entered.yaml"


def report(tmp_path, *argv) -> tuple[int, list]:
    out = tmp_path / "pair.html"
    code = main(["report", *map(str, argv), "-o", str(out)])
    return code, Elements(out.read_text(encoding="utf-8")).tags if out.exists() else []


def _classes(attrs: dict) -> set[str]:
    return set((attrs.get("class") or "").split())


def boards(tags) -> dict[str, list]:
    """Each side's board page (the iframe's srcdoc), parsed."""
    frames = [a["srcdoc"] for t, a in tags if t == "iframe"]
    assert len(frames) == 2
    return {"a": Elements(frames[0]).tags, "b": Elements(frames[1]).tags}


def marked(tags) -> tuple[set, set]:
    """(units whose counter is marked changed, hexes marked changed)."""
    units = {a["data-unit"] for t, a in tags if t == "g" and {"counter", "changed"} <= _classes(a)}
    hexes = {a["data-hex"] for t, a in tags if t == "polygon" and "changed-hex" in _classes(a)}
    return units, hexes


def changes(tags, key) -> list[dict]:
    return [a for t, a in tags if t == "li" and f"change-{key}" in _classes(a)]


def test_both_boards_with_what_appears_and_vanishes_marked_where_it_holds(tmp_path):
    code, tags = report(tmp_path, INTERDICTOR, "--to", "current", "--switch", "unconcealed_interdictor")
    assert code == 0
    a, b = parse_ruleset("current"), parse_ruleset("current", switch="unconcealed_interdictor")
    sides = {x: attrs["data-rules"] for t, attrs in tags for x in ("a", "b") if f"side-{x}" in _classes(attrs)}
    assert sides == {"a": a.label, "b": b.label}
    # the changes are compare()'s, the reading `diff` and `search diff` use
    d = compare(load_position(INTERDICTOR), a, b)
    assert d["appeared"] and d["vanished"]
    for key in ("appeared", "vanished"):
        listed = changes(tags, key)
        assert sorted((x["data-unit"], x.get("data-hex", "")) for x in listed) == sorted(
            (e["unit"], e["at"].split("@")[0]) for e in d[key]
        )
    # each cause names the switch and its rule id
    causes = [attrs for t, attrs in tags if t == "span" and "cause" in _classes(attrs)]
    assert causes and {(c["data-switch"], c["data-rule"]) for c in causes} == {
        (c["switch"], c["rule"]) for key in ("appeared", "vanished") for e in d[key] for c in e["caused_by"]
    }
    # vanished outcomes marked on the left board, appeared on the right
    left, right = boards(tags)["a"], boards(tags)["b"]
    for side, key in ((left, "vanished"), (right, "appeared")):
        units, hexes = marked(side)
        assert units == {x["data-unit"] for x in changes(tags, key)}
        assert hexes == {x["data-hex"] for x in changes(tags, key) if "data-hex" in x}
        changed_lists = {
            attrs["data-unit"] for t, attrs in side if t == "section" and {"unit", "changed"} <= _classes(attrs)
        }
        assert changed_lists == units
    assert not any(attrs.get("id") == "no-difference" for t, attrs in tags)


def test_a_position_where_nothing_differs_says_so_and_marks_nothing(tmp_path):
    code, tags = report(tmp_path, ENTERED, "--rules", "prior", "--to", "prior")
    assert code == 0
    assert any(attrs.get("id") == "no-difference" for t, attrs in tags)
    assert not changes(tags, "appeared") and not changes(tags, "vanished")
    for side in boards(tags).values():
        assert marked(side) == (set(), set())


def test_an_edited_clause_is_named_with_its_file_line_and_rule_id():
    """A folder's change is attributed to its edited clause (compare.trials):
    the page names the clause's FILE:LINE and rule id."""
    position = load_position(ENTERED)
    from asl_kb.engines.outcomes import outcomes

    result = outcomes(position)
    edit = {
        "rule_folder": "errata/x",
        "edit": {"file": "rout/A20_21_surrender.lp", "line": 12, "rule": "A20.21", "edit": "deleted"},
    }
    d = {
        "appeared": [],
        "vanished": [
            {"unit": "R", "outcome": "R: stays", "caused_by": [edit], "kind": "stay", "at": position.units[0].hex}
        ],
        "fired_only_in_from": [],
        "fired_only_in_to": [],
        "complete": True,
    }
    a, b = parse_ruleset("current"), dataclasses.replace(parse_ruleset("current"), version="prior")
    tags = Elements(pair.to_pair_html(position, (a, result), (b, result), d)).tags
    [cause] = [attrs for t, attrs in tags if t == "span" and "cause" in _classes(attrs)]
    assert (cause["data-rule"], cause["data-clause"]) == ("A20.21", "rout/A20_21_surrender.lp:12")
    assert marked(boards(tags)["a"])[1] == {position.units[0].hex}


def test_fate_and_png_draw_one_board_not_two(tmp_path, capsys):
    code, _ = report(tmp_path, ENTERED, "--to", "prior", "--fate", "R:1")
    assert code == 2 and "--to" in capsys.readouterr().err


def test_a_witness_file_names_its_board_command(tmp_path, capsys):
    """`search diff --out DIR` heads each witness with the `report --to`
    line that draws it; run as written, it marks the witness's changes."""
    from test_committee_diff import one_witness
    from test_committee_relevance import DISRUPTED

    f = tmp_path / "disrupted.yaml"
    f.write_text(DISRUPTED)
    _, w = one_witness(capsys, "--switch", "disrupted_rejection", "--scope", str(f), "--out", str(tmp_path / "w"))
    head = open(w["file"], encoding="utf-8").read().split("\n")
    [line] = [x for x in head if x.startswith("# board: ")]
    words = shlex.split(line[len("# board: ") :])
    assert words[:3] == ["asl-kb", "report", w["file"]]
    assert main(words[1:]) == 0
    page = words[words.index("-o") + 1]
    tags = Elements(open(page, encoding="utf-8").read()).tags
    assert {x["data-unit"] for x in changes(tags, "vanished")} == {e["unit"] for e in w["vanished"]}
    assert marked(boards(tags)["a"])[0] == {e["unit"] for e in w["vanished"]}


def test_in_the_browser_both_boards_load_fetch_nothing_and_draw_fates(tmp_path, browser):
    """One page load in headless Chromium: no error, nothing fetched but the
    file, and in each board a click on a changed unit's counter draws one of
    its fates (each board's own script)."""
    code, _ = report(tmp_path, INTERDICTOR, "--to", "current", "--switch", "unconcealed_interdictor")
    assert code == 0
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    errors, requests = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto((tmp_path / "pair.html").as_uri())
        for frame in page.frames[1:]:
            frame.locator("g.counter.changed").first.click()
            assert frame.locator("g.overlay.shown").count() >= 1
        assert len(page.frames) == 3
    finally:
        page.close()
    assert not errors
    assert {r for r in requests if not r.startswith("about:")} == {(tmp_path / "pair.html").as_uri()}
