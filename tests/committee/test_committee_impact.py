"""The impact of an erratum: over the positions a search judged, how many
changed, by outcome kind -- in JSON (`impact`), text and DIR/index.html; the
whole scope with --impact, else only the positions judged before the search
stopped, and said so."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from asl_kb.committee.impact import Impact
from test_committee_diff import run

DISRUPTED = ("search", "diff", "--switch", "disrupted_rejection", "--scope", "disrupted")
#: disrupted_rejection over the shipped scope disrupted (12 positions): one
#: position loses its Disrupted squad's elimination (rejected), A20.3
ROWS = [{"kind": "elimination", "gained_positions": 0, "lost_positions": 1, "gained": 0, "lost": 1}]


def _entries(*kinds):
    return [{"kind": k, "unit": "U1", "outcome": "x", "at": "", "caused_by": []} for k in kinds]


def test_a_tally_counts_positions_and_outcomes_by_kind():
    t = Impact("s")
    t.add({"witness": False, "untouched": True})
    t.add({"witness": True, "appeared": _entries("rout", "rout", "Low Crawl"), "vanished": _entries("surrender")})
    t.add({"witness": True, "appeared": _entries("rout"), "vanished": [], "incomplete": ["cut"]})
    got = t.as_json("scope exhausted")
    assert (got["tried"], got["changed"], got["complete"]) == (3, 2, False)  # (a position cut: not whole)
    assert {
        r["kind"]: [r[c] for c in ("gained_positions", "lost_positions", "gained", "lost")] for r in got["rows"]
    } == {
        "rout": [2, 0, 3, 0],
        "Low Crawl": [1, 0, 1, 0],
        "surrender": [0, 1, 0, 1],
    }
    assert got["rows"][0]["kind"] == "rout"  # (most positions first)


def test_the_whole_scope_judged(capsys):
    code, out, _ = run(capsys, *DISRUPTED, "--format", "json")
    report = json.loads(out)
    assert code == 1
    assert [(t["scope"], t["tried"], t["changed"], t["complete"], t["rows"]) for t in report["impact"]] == [
        ("disrupted", 12, 1, True, ROWS)
    ]
    code, text, _ = run(capsys, *DISRUPTED)
    assert text.splitlines()[-1].split() == ["elimination", "0", "1", "0", "1"]


def test_stopped_at_the_first_witness_it_covers_the_positions_judged(capsys):
    _, out, _ = run(capsys, *DISRUPTED, "--witnesses", "1", "--format", "json")
    report = json.loads(out)
    (t,) = report["impact"]
    assert (t["tried"], t["changed"], t["complete"]) == (report["tried"], 1, False)
    assert report["tried"] < 12
    # --impact: the whole scope, the first witness kept
    _, out, _ = run(capsys, *DISRUPTED, "--witnesses", "1", "--impact", "--format", "json")
    report = json.loads(out)
    assert [(t["tried"], t["complete"], t["rows"]) for t in report["impact"]] == [(12, True, ROWS)]
    assert len(report["witnesses"]) == 1


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.kinds, self.links = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-kind" in a:
            self.kinds.append(a["data-kind"])
        if tag == "a":
            self.links.append(a["href"])


def test_out_writes_an_index_page(tmp_path, capsys):
    out = tmp_path / "w"
    code, _, _ = run(capsys, *DISRUPTED, "--out", str(out))
    assert code == 1
    page = _Page()
    page.feed((out / "index.html").read_text())
    assert page.kinds == ["elimination"]
    assert page.links == ["witness-001.yaml"]  # (its two-board page not made yet: the command shown)
    (out / "witness-001.html").write_text("<html></html>")
    run(capsys, *DISRUPTED, "--out", str(out))
    page = _Page()
    page.feed((out / "index.html").read_text())
    assert page.links == ["witness-001.yaml", "witness-001.html"]


def test_an_index_that_cannot_be_written(tmp_path, capsys):
    out = tmp_path / "w"
    (out / "index.html").mkdir(parents=True)
    code, text, err = run(capsys, *DISRUPTED, "--out", str(out))
    assert code == 2
    assert f"--out: {out / 'index.html'}: is a folder" in err
    assert text == ""  # (refused before any work)


def test_a_search_over_several_scopes_tallies_each(tmp_path, monkeypatch):
    # --scope shipped walks the scopes smallest first (search.grow_diff):
    # `impact` holds one tally per scope searched, in that order; the scopes
    # in which nothing changed share one line of the text
    from asl_kb.committee import search
    from asl_kb.committee.rulesets import parse_ruleset
    from asl_kb.committee.scope import SCOPES_DIR, load_scope

    shipped = (SCOPES_DIR / "disrupted.yaml").read_text()

    def scope(name: str, *edits: tuple[str, str]):
        text = shipped.replace("name: disrupted", f"name: {name}")
        for old, new in edits:
            text = text.replace(old, new)
        (tmp_path / f"{name}.yaml").write_text(text)
        return load_scope(str(tmp_path / f"{name}.yaml"))

    # disrupted_rejection acts outside the RtPh only (A20.3): the Rout Phase
    # scopes change nothing; the Disrupted squad and a German in one hex do
    rtph = ("phase: [movement]", "phase: [rout]")
    one_hex = ("radius: 1", "radius: 0")
    scopes = [scope("rtph-one-hex", rtph, one_hex), scope("rtph", rtph), scope("one-hex", one_hex)]
    monkeypatch.setattr(search, "shipped_scopes_by_size", lambda: scopes)
    current = parse_ruleset("current")
    report = search.grow_diff(current, current.flipped("disrupted_rejection"), impact=True)
    assert [(t["scope"], t["tried"], t["changed"], t["complete"], t["rows"]) for t in report["impact"]] == [
        ("rtph-one-hex", 3, 0, True, []),
        ("rtph", 12, 0, True, []),
        ("one-hex", 3, 1, True, ROWS),
    ]
    assert [(g["scope"], g["tried"]) for g in report["grown"]] == [("rtph-one-hex", 3), ("rtph", 12), ("one-hex", 3)]
    text = search.grown_text(report).splitlines()
    table = text[text.index(next(x for x in text if x.split()[:2] == ["OUTCOME", "KIND"])) :]
    assert [x.split() for x in table[1:]] == [["elimination", "0", "1", "0", "1"]]
    # (the two unchanged scopes named once, before the table of the one changed)
    said = [x for x in text if "rtph-one-hex (3)" in x]
    assert len(said) == 1 and "rtph (12)" in said[0] and text.index(said[0]) < text.index(table[0])
