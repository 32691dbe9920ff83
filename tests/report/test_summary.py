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

from conftest import FACTS, sampled

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
    assert len(fates) > 1000  # every set of Interdiction Locations is a fate
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
        assert d["low_crawl"] == [
            n for n, f in enumerate(u["fates"], 1) if f["fate"] == "rout" and f["at"] == d["at"] and f["low_crawl"]
        ]


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
    assert r["units"][2]["summary"]["destinations"] == []  # RI5 surrenders
    assert r["units"][2]["summary"]["other_fates"] == list(range(1, len(r["units"][2]["fates"]) + 1))


@pytest.mark.parametrize("path", sampled(sorted(FACTS.glob("*/*.yaml"))), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_default_text_under_300_lines(path):
    assert len(to_text(_runs.outcomes(load_position(path))).splitlines()) < 300


def _odds_key(f):
    """A route's odds as a player ranks them: arriving (intact or reduced),
    then not eliminated, then intact (fractions of 36^n)."""
    from fractions import Fraction

    o = f["odds"]

    def p(c):
        return Fraction(*map(int, c["chance"].split("/")))

    return (-(p(o["intact"]) + p(o["reduced"])), p(o["eliminated"]), -p(o["intact"]))


@pytest.mark.parametrize("rel", ["rout/A10.53-odds-adjacent-pin.yaml", "rout/A10.531-EX.yaml", "rout/A10.5-EX.yaml"])
def test_each_destination_s_first_route_has_the_best_odds(rel):
    # the route the text and `why-not` show for a destination is its first
    # fate: no route there has better odds of arriving (then of not being
    # eliminated), whatever their Interdiction Locations' hex order
    r = _runs.outcomes(load_position(FACTS / rel)).to_json()
    for u in r["units"]:
        for d in u["summary"]["destinations"]:
            there = [f for f in u["fates"] if f["fate"] == "rout" and f["at"] == d["at"]]
            best = u["fates"][d["first"] - 1]
            assert all(_odds_key(best) <= _odds_key(f) for f in there), (rel, u["id"], d["at"])
    if rel == "rout/A10.53-odds-adjacent-pin.yaml":
        # two 3-NMC routes to X8: the one whose pin in X6 (ADJACENT to G5)
        # eliminates comes second
        d = r["units"][0]["summary"]["destinations"][0]
        assert [i["at"] for i in r["units"][0]["fates"][d["first"] - 1]["interdiction"]] == ["Y6", "Y7", "Y8"]
