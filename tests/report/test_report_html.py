"""The HTML report without a browser: the page of every bundled position is
self-contained, its SVG parses, the hexes sit where the hex geometry puts
them, and every unit, fate, path, Interdiction and rule id of the JSON
result has its element."""

from __future__ import annotations

import json
import math
import re
import time
import xml.etree.ElementTree as ET
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

import _runs
from asl_kb.board import hexgrid
from asl_kb.cli import main
from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position
from asl_kb.report import html as report
from asl_kb.report.render import to_json
from asl_kb.resources import cases_dir
from conftest import sampled

SVG = "{http://www.w3.org/2000/svg}"
CASES = sorted(cases_dir().glob("*/*.yaml"))


#: seconds report.to_html took for each page built by page() in this process
RENDER_SECONDS: dict[tuple, float] = {}


@cache
def page(path: Path, phase: bool = False, all_paths: bool = False):
    """The page with every route drawn (`report --all`): each fate its element."""
    position = load_position(path)
    result = _runs.outcomes(position, phase=phase, all_paths=all_paths)
    t0 = time.perf_counter()
    text = report.to_html(result, position, all_paths=all_paths, every_route=True)
    RENDER_SECONDS[path, phase, all_paths] = time.perf_counter() - t0
    return position, json.loads(to_json(result)), text


def case_page(path: Path):
    """Phase cases with --phase, rout cases with --all-paths."""
    return page(path, phase=path.parent.name == "phase", all_paths=path.parent.name == "rout")


class Elements(HTMLParser):
    """Every start tag of the page with its attributes."""

    def __init__(self, text):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def with_class(self, tag, cls):
        return [a for t, a in self.tags if t == tag and cls in (a.get("class") or "").split()]


def svg_of(text: str) -> ET.Element:
    m = re.search(r"<svg\b.*?</svg>", text, re.S)
    assert m, "no SVG map in the page"
    return ET.fromstring(m.group(0))


def points(text: str) -> list[tuple[float, float]]:
    return [tuple(float(c) for c in p.split(",")) for p in text.split()]


def close(p, q, tol=0.06):
    return abs(p[0] - q[0]) <= tol and abs(p[1] - q[1]) <= tol


def by_class(svg, tag, cls):
    return [e for e in svg.iter(SVG + tag) if cls in (e.get("class") or "").split()]


# ---------------------------------------------------------------- hex geometry


def test_hex_shape_is_a_regular_hexagon_around_its_centre():
    for h in ("A1", "B0", "M2", "N7", "GG10"):
        (cx, cy), corners = hexgrid.hex_shape(h, 10)
        assert len(corners) == 6
        for x, y in corners:
            assert math.isclose(math.hypot(x - cx, y - cy), 10, rel_tol=1e-9)
        # flat-topped: the N hexside (corners 4, 5) is horizontal, above the centre
        assert math.isclose(corners[4][1], corners[5][1]) and corners[4][1] < cy


def test_adjacent_hexes_share_the_hexside_of_their_direction():
    """Centres of ADJACENT hexes are sqrt(3) sides apart, and the hexside in
    direction d of h is the hexside in the opposite direction of its neighbour:
    the drawn grid agrees with hexgrid's adjacency."""
    for h in ("C3", "D3", "M2", "N5", "B0"):
        (cx, cy), corners = hexgrid.hex_shape(h, 1.0)
        for d in range(1, 7):
            n = hexgrid.neighbor(h, d)
            if n is None:
                continue
            (nx, ny), ncorners = hexgrid.hex_shape(n, 1.0)
            assert math.isclose(math.hypot(nx - cx, ny - cy), math.sqrt(3), rel_tol=1e-9)
            side = {corners[(d + 3) % 6], corners[(d + 4) % 6]}
            back = (d + 2) % 6 + 1
            other = {ncorners[(back + 3) % 6], ncorners[(back + 4) % 6]}
            assert all(any(close(p, q, 1e-9) for q in other) for p in side)
    # rows grow southwards, columns eastwards; odd columns half a hex lower
    assert hexgrid.hex_shape("M3").centre[1] > hexgrid.hex_shape("M2").centre[1]
    assert hexgrid.hex_shape("N2").centre[0] > hexgrid.hex_shape("M2").centre[0]
    assert hexgrid.hex_shape("N2").centre[1] > hexgrid.hex_shape("M2").centre[1]


# ---------------------------------------------------------------- every bundled position


@pytest.mark.parametrize("path", sampled(CASES), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_page_of_every_bundled_position(path):
    position, r, text = case_page(path)
    # self-contained: nothing fetched, no external script, style or font
    assert not re.search(r"""(?:src|href)\s*=\s*["'](?!#)""", text)
    assert not re.search(r"@import|url\((?!#)|https?://(?!www\.w3\.org/2000/svg)", text)
    svg = svg_of(text)  # parses as XML
    tags = Elements(text)

    # the hexes are drawn where the hex geometry puts them
    hexes = by_class(svg, "polygon", "hex")
    assert hexes
    for poly in hexes:
        corners = hexgrid.hex_shape(poly.get("data-hex"), report.SIZE).corners
        assert all(close(p, q) for p, q in zip(points(poly.get("points")), corners, strict=True))
    drawn = {p.get("data-hex") for p in hexes}
    assert {u.hex for u in position.units} <= drawn

    # every unit is a counter in its hex
    counters = {g.get("data-unit"): g for g in by_class(svg, "g", "counter")}
    assert set(counters) == {u.id for u in position.units}
    for u in position.units:
        x, y, k = map(
            float,
            re.fullmatch(
                r"translate\(([-\d.]+),([-\d.]+)\) scale\(([\d.]+)\)", counters[u.id].get("transform")
            ).groups(),
        )
        cx, cy = hexgrid.hex_shape(u.hex, report.SIZE).centre
        assert math.hypot(x + 17 * k - cx, y + 17 * k - cy) < report.SIZE, u.id

    # every fate of the JSON has its list entry and its overlay
    overlays = {g.get("id"): g for g in by_class(svg, "g", "overlay")}
    labels = {g.get("data-for"): g for g in by_class(svg, "g", "overlay-labels")}
    assert set(labels) == set(overlays)
    entries = tags.with_class("li", "fate")
    listed = {(a["data-section"], a["data-unit"], int(a["data-index"])): a["data-overlays"] for a in entries}
    n = 0
    for section in ("rout", "heat_of_battle", "disrupted"):
        for u in r["units"] if section == "rout" else r.get(section, []):
            for i, f in enumerate(u["fates"]):
                n += 1
                g = overlays[listed[(section, u["id"], i)]]
                assert g.get("data-unit") == u["id"]
                check_overlay(g, labels[g.get("id")], u, f, position)
    assert len(entries) == n

    # every rule id of every `because` is linked to its catalogue entry on the page
    anchors = {a["id"] for t, a in tags.tags if t == "dt" and "id" in a}
    links = {a["href"][1:] for a in tags.with_class("a", "rule")}
    assert {report.anchor(rule) for rule in cited(r)} == links
    assert links <= anchors

    if "phase" in r:
        outs = tags.with_class("li", "phase-outcome")
        assert len(outs) == len(r["phase"]["outcomes"])
        for a, o in zip(outs, r["phase"]["outcomes"]):
            ids = a["data-overlays"].split()
            assert len(ids) == len(o["turns"]) and set(ids) <= set(overlays)
    if "prisoners" in r:
        p = r["prisoners"]
        opts = p.get("required", []) + p.get("options", [])
        assert len(tags.with_class("div", "option")) == len(opts)
        assert len(tags.with_class("rect", "bar")) == sum(len(o.get("rolls", [])) for o in opts) + sum(
            len(j["results"]) for j in p.get("simultaneous", [])
        )


def check_overlay(g, labels, u, f, position):
    """The overlay of fate f draws its path through exactly the JSON path's
    hexes, marks each Interdiction hex with lines from its Interdictors, and
    points a surrender at the captor."""
    routes = by_class(g, "polyline", "route")
    path = f.get("path") or []
    if len(path) > 1:
        assert len(routes) == 1
        assert routes[0].get("data-hexes").split() == path
        centres = [hexgrid.hex_shape(h.split("@")[0], report.SIZE).centre for h in path]
        assert all(close(p, q) for p, q in zip(points(routes[0].get("points")), centres, strict=True))
        assert ("lowcrawl" in routes[0].get("class")) == bool(f.get("low_crawl"))
    else:
        assert not routes
    # --all-paths: every other path of the fate drawn beside it
    others = [p for p in f.get("paths", []) if p != path and len(p) > 1]
    alts = by_class(g, "polyline", "alt")
    assert len(alts) == len(others)
    for line, p in zip(alts, others):
        centres = [hexgrid.hex_shape(h.split("@")[0], report.SIZE).centre for h in p]
        assert all(close(a, b) for a, b in zip(points(line.get("points")), centres, strict=True))
    for key, optional in (("interdiction", False), ("optional_interdiction", True)):
        marks = [p for p in by_class(g, "polygon", "interdiction") if ("optional" in p.get("class")) == optional]
        assert sorted(p.get("data-hex") for p in marks) == sorted(i["at"] for i in f.get(key, ()))
        lines = [
            p.get("data-by")
            for p in by_class(g, "polyline", "interdictor")
            if ("optional" in p.get("class")) == optional
        ]
        assert sorted(lines) == sorted(b for i in f.get(key, ()) for b in i["by"])
    where = {x.id: x.hex for x in position.units}
    if f.get("captor") and where[f["captor"]] != f.get("at", u["at"]).split("@")[0]:
        kind = "rejected" if f["fate"] == "eliminated" else "surrender"
        assert len(by_class(g, "polyline", kind)) == 1
    if f["fate"] == "eliminated":
        assert by_class(labels, "line", "cross")


def cited(x) -> set[str]:
    if isinstance(x, dict):
        out = {x["rule"]} if "rule" in x and "says" in x else set()
        return out.union(*(cited(v) for v in x.values()))
    if isinstance(x, list):
        return set().union(*(cited(v) for v in x))
    return set()


# ---------------------------------------------------------------- details


def test_catalogue_entry_of_a_rule_id(tmp_path, monkeypatch):
    """A rule id links to the catalogue rows naming it, else the row whose
    range holds it, else the row of its nearest parent rule."""
    (tmp_path / "rules-catalogue.md").write_text(
        "| rule | file | what it encodes |\n| --- | --- | --- |\n"
        "| A10.51 | `rules/rout/A10_51_direction.lp` | direction |\n"
        "| A10.53, A10.532 | `rules/rout/A10_53_interdiction.lp` | Interdiction |\n"
        "| A20.5–A20.552, A11.11 | `rules/prisoners.lp` | prisoners |\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(report, "docs_dir", lambda: tmp_path)
    report._catalogue.cache_clear()
    try:
        entries = {e["rule"]: e for e in report._catalogue_entries(["A10.51", "A20.551", "A10.531", "Z9.9"])}
    finally:
        report._catalogue.cache_clear()
    files = {rule: [row["file"] for row in e["rows"]] for rule, e in entries.items()}
    assert files == {
        "A10.51": ["<code>rules/rout/A10_51_direction.lp</code>"],
        "A20.551": ["<code>rules/prisoners.lp</code>"],
        "A10.531": ["<code>rules/rout/A10_53_interdiction.lp</code>"],
        "Z9.9": [],
    }
    assert report.anchor("A10.531") == "rule-A10.531"


def test_los_overrides_are_drawn_on_demand():
    position, r, text = case_page(cases_dir() / "rout" / "A10.531-EX.yaml")
    svg = svg_of(text)
    layer = next(g for g in svg.iter(SVG + "g") if g.get("id") == "los")
    drawn = sorted((g.get("class").split()[1], g.get("data-a"), g.get("data-b")) for g in layer)
    assert drawn == sorted(
        [("los-blocked", a, b) for a, b in position.los_blocked] + [("los-clear", a, b) for a, b in position.los_clear]
    )
    assert "#los { display: none; }" in text  # hidden until the checkbox shows it


def test_many_fates_collapse_by_destination():
    """Past a dozen fates a unit's destinations start closed: the list stays
    one line per destination however many fates there are."""
    position, r, text = case_page(cases_dir() / "rout" / "A10.531-EX.yaml")
    tags = Elements(text)
    for u in r["units"]:
        sec = text.split(f'data-unit="{u["id"]}" id="fates-rout-')[1].split("</section>")[0]
        details = re.findall(r"<details class=\"dest\"( open)?>", sec)
        assert len(details) == len({f["at"] for f in u["fates"]})
        assert all(d == (" open" if len(u["fates"]) <= report.OPEN_UP_TO else "") for d in details)
    assert len(tags.with_class("li", "fate")) == sum(len(u["fates"]) for u in r["units"])


def test_by_default_a_destination_draws_its_best_route_the_others_counted():
    """`report` without --all: each destination's first fate (its best, as
    `outcomes` lists it) listed and drawn, the others counted; --fate's
    fate drawn too; the same page for the same input."""
    position, r, _ = case_page(cases_dir() / "rout" / "A10.531-EX.yaml")
    text = report.to_html(r, position)
    assert text == report.to_html(r, position)
    tags = Elements(text)
    first: dict[tuple, int] = {}
    for u in r["units"]:
        for j, f in enumerate(u["fates"]):
            if f["fate"] == "rout":
                first.setdefault((u["id"], f["at"]), j)
    others = {(u["id"], j) for u in r["units"] for j, f in enumerate(u["fates"]) if f["fate"] != "rout"}
    shown = {(a["data-unit"], int(a["data-index"])) for a in tags.with_class("li", "fate")}
    assert shown == {(unit, j) for (unit, _), j in first.items()} | others
    assert len(shown) < sum(len(u["fates"]) for u in r["units"])  # (the case has several routes to a destination)
    more = [int(m) for m in re.findall(r'<li class="more">and (\d+) other', text)]
    assert sum(more) + len(shown) == sum(len(u["fates"]) for u in r["units"])
    # a fate asked for (--fate) that is not a best route is drawn as well
    unit, j = next((u["id"], j) for u in r["units"] for j in range(len(u["fates"])) if (u["id"], j) not in shown)
    asked = Elements(report.to_html(r, position, fate=(unit, j + 1)))
    assert (unit, str(j)) in {(a["data-unit"], a["data-index"]) for a in asked.with_class("li", "fate")}


def test_terrain_levels_smoke_and_features_are_drawn(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text("""name: terrain
attacker: russian
map:
  area: [A0, H8]
  terrain:
    B2: woods
    C3: {terrain: building, building: b1}
    D3: {terrain: building, building: b1}
    E4: {terrain: open, elevation: 1}
    F4: [open, foxhole, wire]
  levels: {C3: 1}
  smoke: [E5]
units:
  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: D4, status: [broken]}
  - {id: R2, side: russian, type: leader, counter: 8-0, at: "C3@1"}
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: F5, status: [concealed]}
""")
    position = load_position(f)
    text = report.to_html(outcomes(position), position)
    svg = svg_of(text)
    fills = {p.get("data-hex"): p.get("fill") for p in by_class(svg, "polygon", "hex")}
    assert fills["B2"] == "url(#woods)" and fills["A1"] == report.TERRAIN_FILL["open"]
    # C3 and D3 are one building: its outline leaves out the hexside between them
    outline = [points(p.get("points")) for p in by_class(svg, "polyline", "bldg")]
    assert len(outline) == 10
    c3 = hexgrid.hex_shape("C3", report.SIZE)
    d = hexgrid.direction("C3", "D3")
    shared = {c3.corners[(d + 3) % 6], c3.corners[(d + 4) % 6]}
    assert not any(all(any(close(p, q) for q in shared) for p in seg) for seg in outline)
    notes = [t.text for t in by_class(svg, "text", "tnote")]
    assert "Level 1" in notes and "levels 0–1" in notes and "foxhole, wire" in notes
    assert [c.get("data-hex") for c in by_class(svg, "circle", "smoke")] == ["E5"]
    counters = {g.get("data-unit"): g for g in by_class(svg, "g", "counter")}
    assert "broken" in counters["R1"].get("class")
    assert any(t.text == "L1" for t in counters["R2"].iter(SVG + "text"))
    assert any(t.text == "?" for t in counters["G1"].iter(SVG + "text"))


def test_prisoner_terms_are_words():
    """Prisoner options and states are objects with a kind, named arguments
    and the rules' words: the page shows the words, else kind and arguments."""
    assert report._term({"kind": "guard_load", "load": 4, "capacity": 10, "says": "guards US# 4"}) == "guards US# 4"
    assert report._term({"kind": "cc", "attack": 0, "mode": "capture"}) == "cc (attack 0, mode capture)"


# ---------------------------------------------------------------- the command


def test_cli_report_writes_the_page(tmp_path, capsys):
    out = tmp_path / "r.html"
    case = str(cases_dir() / "rout" / "A10.5-EX.yaml")
    assert main(["report", case, "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and svg_of(text) is not None
    assert main(["report", case, "--fate", "R1:1"]) == 0
    assert 'data-selected="ov-rout-0-0"' in capsys.readouterr().out
    assert main(["report", case, "--fate", "R1:99"]) == 2
    assert "--fate" in capsys.readouterr().err
    # --rules is a common option: neither a version nor a rules folder, exit 2
    assert main(["report", case, "--rules", "bogus"]) == 2
    assert "bogus: --rules: no such rule version or folder" in capsys.readouterr().err


def test_same_input_same_page():
    path = cases_dir() / "rout" / "A10.51-EX.yaml"
    position = load_position(path)
    a = report.to_html(outcomes(position), position)
    b = report.to_html(outcomes(position), position)
    assert a == b


def test_a_thousand_fates_stay_one_line_per_destination(capsys):
    """Scale: the A10.531 EX fates repeated to 1,000+ still make one closed
    group per destination, each fate with its entry and overlay."""
    import copy
    import time

    position, r, _ = case_page(cases_dir() / "rout" / "A10.531-EX.yaml")
    big = copy.deepcopy(r)
    for u in big["units"]:
        u["fates"] = [f for f in u["fates"] for _ in range(40)]
    n = sum(len(u["fates"]) for u in big["units"])
    assert n >= 1000
    t0 = time.perf_counter()
    text = report.to_html(big, position, all_paths=True, every_route=True)
    took = time.perf_counter() - t0
    tags = Elements(text)
    assert len(tags.with_class("li", "fate")) == n
    assert len(tags.with_class("g", "overlay")) == n
    dests = sum(len({f["at"] for f in u["fates"]}) for u in big["units"])
    groups = [a for t, a in tags.tags if t == "details"]
    assert len(groups) == dests and not any("open" in a for a in groups)
    with capsys.disabled():
        print(f"\n{n} fates: rendered in {took:.2f} s, {len(text) // 1024} KiB, {dests} destination lines")


def test_phase_outcomes_draw_turns_only_no_quarter_gives():
    """A unit that routs only once another's rejected surrender invokes No
    Quarter (A20.3) has no such fate in its own list (there it surrenders):
    the whole-phase outcome still draws each of its turns, ending in the
    turn's hex, for the unit that takes it."""
    path = cases_dir() / "rout" / "A20.21-stack-and-leader.yaml"
    position, r, text = page(path, phase=True)
    svg = svg_of(text)
    overlays = {g.get("id"): g for g in by_class(svg, "g", "overlay")}
    outs = Elements(text).with_class("li", "phase-outcome")
    assert len(outs) == len(r["phase"]["outcomes"])
    only_nq = 0
    for a, o in zip(outs, r["phase"]["outcomes"]):
        ids = a["data-overlays"].split()
        assert len(ids) == len(o["turns"])
        for oid, t in zip(ids, o["turns"]):
            g = overlays[oid]
            assert g.get("data-unit") == t["unit"]
            (end,) = by_class(g, "polygon", "end")
            corners = points(end.get("points"))
            centre = (sum(x for x, _ in corners) / len(corners), sum(y for _, y in corners) / len(corners))
            assert close(centre, hexgrid.hex_shape(t["at"], report.SIZE).centre)
            unit = next(u for u in r["units"] if u["id"] == t["unit"])
            only_nq += not any(f["fate"] == t["fate"] and f.get("at") == t["at"] for f in unit["fates"])
    assert only_nq  # the position has such turns (the stack's rout after G469's rejection)


def test_hexside_terrain_is_drawn_on_its_hexside():
    """A wall of map.hexsides is a line along the edge its two hexes share."""
    position, r, text = case_page(cases_dir() / "rout" / "A10.531-wall.yaml")
    walls = by_class(svg_of(text), "polyline", "hs-wall")
    assert len(walls) == len(position.hexsides) == 1
    ((a, b),) = position.hexsides
    p, q = points(walls[0].get("points"))
    ca, cb = hexgrid.hex_shape(a, report.SIZE).centre, hexgrid.hex_shape(b, report.SIZE).centre
    assert close(((p[0] + q[0]) / 2, (p[1] + q[1]) / 2), ((ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2))
