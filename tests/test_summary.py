"""Summaries by default (issue 11, item 1): the text groups each unit's rout
fates by destination and shows Low Crawl and the Interdiction sets no other
route to that destination beats; --all lists every fate; JSON keeps every
fate and adds the summary."""
import re

import pytest

import _runs
from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position, load_position_text
from asl_kb.report.render import to_text

from conftest import FACTS

OPEN_BOARD = """
name: one broken unit on an all-open board
attacker: german
units:
  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: L5, status: [broken]}
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: L3}
"""


@pytest.fixture(scope="module")
def open_board():
    return outcomes(load_position_text(OPEN_BOARD, "open.yaml"))


def _hexes(items):
    return frozenset(i["at"] for i in items)


def test_open_board_default_text_is_short_and_all_lists_everything(open_board):
    fates = open_board.units[0].fates
    assert len(fates) > 1000          # every set of Interdiction Locations is a fate
    assert len(to_text(open_board).splitlines()) < 60
    numbered = re.findall(r"^  (\d+)\. ", to_text(open_board, all=True), flags=re.M)
    assert [int(n) for n in numbered] == list(range(1, len(fates) + 1))


def test_summary_counts_every_rout_fate_once(open_board):
    u = open_board.to_json()["units"][0]
    s = u["summary"]
    routs = [n for n, f in enumerate(u["fates"], 1) if f["fate"] == "rout"]
    assert s["rout_fates"] == len(routs) and s["fates"] == len(u["fates"])
    pointed = set()
    for d in s["destinations"]:
        named = d["low_crawl"] + [n for e in d["unbeaten"] for n in e["fates"]]
        assert len(named) == len(set(named)) and d["fates"] == len(named) + d["beaten"]
        pointed |= set(named)
        for n in named:
            assert u["fates"][n - 1]["at"] == d["at"]
    assert s["beaten_rout_fates"] == sum(d["beaten"] for d in s["destinations"])
    assert pointed <= set(routs)


def test_unbeaten_means_no_other_route_there_has_a_subset(open_board):
    u = open_board.to_json()["units"][0]
    for d in u["summary"]["destinations"]:
        routes = [f for f in u["fates"] if f["fate"] == "rout" and f["at"] == d["at"] and not f["low_crawl"]]
        exposure = {(_hexes(f["interdiction"]), _hexes(f["optional_interdiction"])) for f in routes}
        unbeaten = {(frozenset(e["interdiction"]), frozenset(e["optional_interdiction"])) for e in d["unbeaten"]}
        for k in exposure:
            beaten = any(o != k and o[0] <= k[0] and o[1] <= k[1] for o in exposure)
            assert (k in unbeaten) == (not beaten)
        # Low Crawl fates are always listed (A10.52: they cannot be Interdicted)
        assert d["low_crawl"] == [n for n, f in enumerate(u["fates"], 1)
                                  if f["fate"] == "rout" and f["at"] == d["at"] and f["low_crawl"]]


def test_a10_531_ex_summary():
    """A10.531 EX: G2 may rout to F1, G1 or H2 free of Interdiction; J2 may rout
    to J0 only through Interdiction in J1 (or by Low Crawl to J1)."""
    r = outcomes(load_position(FACTS / "rout/A10.531-EX.yaml")).to_json()
    by = {u["id"]: {d["at"]: d for d in u["summary"]["destinations"]} for u in r["units"]}
    for at in ("F1", "G1", "H2"):
        assert by["RG2"][at]["least_interdiction"] == 0
    j0 = by["RJ2"]["J0"]
    assert j0["least_interdiction"] == 1 and ["J1"] in [e["interdiction"] for e in j0["unbeaten"]]
    assert by["RJ2"]["J1"]["low_crawl"]
    assert r["units"][2]["summary"]["destinations"] == []          # RI5 surrenders
    assert r["units"][2]["summary"]["other_fates"] == list(range(1, len(r["units"][2]["fates"]) + 1))


@pytest.mark.parametrize("path", sorted(FACTS.glob("*/*.yaml")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_default_text_under_300_lines(path):
    assert len(to_text(_runs.outcomes(load_position(path))).splitlines()) < 300
