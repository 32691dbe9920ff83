"""What a committee member reads of a change that moves thousands of
outcomes: what vanished first (an erratum is read by what it takes away), a
screen of each position in text (`diff`, a `search diff` witness), the
report page of two boards one row per destination; JSON lists every row.
Structure only: signs, units, counts, hexes."""

from __future__ import annotations

import json
import re

from asl_kb.cli import main
from asl_kb.committee import corpus, search
from asl_kb.resources import rules_dir

INTERDICTION = "rout/A10_53_interdiction.lp"
#: A10.53: Open Ground for Interdiction (the erratum below makes no hex one)
OPEN_GROUND = "og_terrain(H), not in_hex_hindrance(H,_), not vehicle_in_hex(H)."

#: one broken squad on an open patch, a German squad two hexes away: it
#: routs to every hex of the patch by many routes, each Interdicted
OPEN_PATCH = """name: a broken squad on an open patch
phase: rout
attacker: russian
map: {default_terrain: open, area: [F5, J9]}
units:
  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: H7, status: [broken]}
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: H5}
"""


def no_open_ground(folder):
    """An erratum: no hex is Open Ground (A10.53), so the squad need not
    rout (A10.5): every rout vanishes, a stay appears."""
    text = (rules_dir() / INTERDICTION).read_text()
    assert OPEN_GROUND in text
    (folder / "rout").mkdir(parents=True)
    (folder / INTERDICTION).write_text(text.replace(OPEN_GROUND, OPEN_GROUND[:-1] + ", not og_terrain(H)."))
    return folder


def _row(file: str, sign: str, n: int, run: str = "") -> dict:
    return {
        "file": file,
        "position": file,
        **({"run": run} if run else {}),
        "unit": "R1",
        "change": sign,
        "outcome": f"R1: rout at X{n}" if sign == "-" else f"R1: stay at H{n}",
        "kind": "Interdicted rout" if sign == "-" else "stay",
        "at": f"X{n % 7}",
        "caused_by": [{"switch": "s", "rule": "A10.53"}],
    }


def _listed_signs(text: str) -> list[tuple[str, str]]:
    """(position line above, sign) of each row the text lists."""
    out, position = [], ""
    for line in text.splitlines():
        if not line.startswith(" "):
            position = line
        m = re.match(r"^\s+R1\s+([+-])\s", line)
        if m:
            out.append((position, m.group(1)))
    return out


def test_a_diff_lists_a_screen_of_each_position_what_vanished_first():
    """3,000 rows of one position and 2 of another: the text lists at most
    ROWS_SHOWN of each (--limit N: N), vanished first, the appeared ones
    still shown, and says how many are left out; the other position is not
    crowded out."""
    rows = [_row("a.yaml", "-", n) for n in range(3000)] + [_row("a.yaml", "+", n) for n in range(3)]
    rows += [_row("b.yaml", "-", 1), _row("b.yaml", "+", 1)]
    report = {"positions": 2, "differing": 2, "complete": True, "rows": rows}
    text = corpus.to_text(report, "current", "erratum")
    listed = _listed_signs(text)
    a = [s for p, s in listed if p.startswith("a.yaml")]
    b = [s for p, s in listed if p.startswith("b.yaml")]
    assert len(a) == corpus.ROWS_SHOWN and a[0] == "-" and "+" in a and a == sorted(a, key="-+".index)
    assert b == ["-", "+"]
    assert len(text.splitlines()) < 5 * corpus.ROWS_SHOWN
    assert f"{3003 - corpus.ROWS_SHOWN:,}" in text  # (the rows left out, counted)
    five = [s for p, s in _listed_signs(corpus.to_text(report, "current", "erratum", 5)) if p.startswith("a.yaml")]
    assert len(five) == 5 and five[0] == "-"


def test_a_witness_shows_what_vanished_first():
    """A `search diff` witness of many changes both ways: its `-` lines
    before its `+` lines."""
    w = {
        "position": "s #1",
        "units": 2,
        "non_open": 0,
        "brief": "a position",
        "appeared": [{**_row("a", "+", n), "caused_by": [{"switch": "s", "rule": "A10.53"}]} for n in range(40)],
        "vanished": [{**_row("a", "-", n), "caused_by": [{"switch": "s", "rule": "A10.53"}]} for n in range(40)],
        "fired_only_in_from": [],
        "fired_only_in_to": [],
    }
    signs = [line.split()[0] for line in search._witness_lines(w, 80, search.REPORT_LINES) if line[4:6] in ("+ ", "- ")]
    assert signs[0] == "-" and "+" in signs and signs == sorted(signs, key="-+".index)


def test_thousands_of_routes_vanishing_are_read_first_and_one_per_destination(tmp_path, capsys):
    """A real erratum (no Open Ground) on a broken squad of hundreds of
    routes: `diff` JSON lists every row, the vanished first; the text a
    screen; the page of two boards one row per destination (the other
    routes to it counted), not one per route."""
    position = tmp_path / "open.yaml"
    position.write_text(OPEN_PATCH)
    erratum = no_open_ground(tmp_path / "erratum")
    assert main(["diff", str(position), "--to", str(erratum), "--format", "json"]) == 1
    rows = json.loads(capsys.readouterr().out)["rows"]
    signs = [r["change"] for r in rows]
    assert len(rows) > 100 and signs == sorted(signs, key="-+".index) and {"-", "+"} == set(signs)
    destinations = {(r["unit"], r["kind"], r["at"]) for r in rows if r["change"] == "-"}
    assert main(["diff", str(position), "--to", str(erratum)]) == 1
    listed = _listed_signs(capsys.readouterr().out)
    assert len(listed) == corpus.ROWS_SHOWN and listed[0][1] == "-" and "+" in {s for _, s in listed}
    page = tmp_path / "pair.html"
    assert main(["report", str(position), "--to", str(erratum), "-o", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    vanished = re.findall(r'<li class="change change-vanished" data-unit="(\w+)" data-hex="(\w+)"', html)
    assert sorted(vanished) == sorted((u, at) for u, _, at in destinations)  # (a Low Crawl and a rout to one hex: two)
    more = sum(int(m) for m in re.findall(r'data-more="(\d+)"', html))
    assert len(vanished) + more == signs.count("-")
