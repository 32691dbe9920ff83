"""A board turned over gives the same answer (issue 46.8): every bundled
position mirrored left to right (tests/mirror.py: column c -> K - c, each
unit's Covered Arcs turned with it) has the same fates, each with the same
Interdiction and the same odds -- the Location each pin falls in included.
Where several shortest paths lead to one fate, the example path (and so the
order its NMCs come in) is chosen by what the position says of each hex,
never by its name (asl_kb/engines/graph.py Graph._sibling_key).

The example path itself and the words of an explanation (which name hexes)
are not compared: of two paths alike in all but names, either is an example."""

from __future__ import annotations

import json

import pytest

import _runs
from tools.casebook import case_files
from asl_kb.errors import PositionError
from asl_kb.position.loader import load_position
from asl_kb.resources import cases_dir
from mirror import axis, mirrored, turn
from conftest import sampled

CASES = case_files()


def _back(k: int):
    def location(x: str) -> str:
        h, at, level = x.partition("@")
        return turn(h, k) + at + level

    return location


def _answer(result, location=lambda x: x) -> dict:
    """Per unit: whether it must and may rout and why (rule ids), and its
    fates as a sorted list, hexes read through `location`."""
    out = {}
    for u in result.to_json()["units"]:
        fates = []

        def odds(o):
            if not o:
                return o
            # the Locations a pin or a stop (a wounded SMC's MF run out) falls in
            at = {k: sorted((location(p["at"]), p["chance"]) for p in o[k]) for k in ("pinned", "stopped") if k in o}
            return dict(o, **at)

        for f in u["fates"]:
            fates.append(
                json.dumps(
                    {
                        "fate": f["fate"],
                        "at": location(f["at"]) if f.get("at") else None,
                        "low_crawl": f.get("low_crawl"),
                        "captor": f.get("captor"),
                        "cause": f.get("cause"),
                        "guard": f.get("guard"),
                        "interdiction": sorted((location(i["at"]), i["by"]) for i in f.get("interdiction", ())),
                        "optional": sorted((location(i["at"]), i["by"]) for i in f.get("optional_interdiction", ())),
                        "odds": odds(f.get("odds")),
                        "with_leader": [odds(o) for o in f.get("odds_with_leader") or ()],
                        "rules": sorted({b["rule"] for b in f.get("because", ())}),
                    },
                    sort_keys=True,
                )
            )
        out[u["id"]] = {
            "must_rout": u.get("must_rout"),
            "may_rout": u.get("may_rout"),
            "because": sorted({b["rule"] for b in u.get("because", ())}),
            "fates": sorted(fates),
        }
    return out


@pytest.mark.parametrize("path", sampled(CASES), ids=[str(p.relative_to(cases_dir())) for p in CASES])
def test_a_mirrored_board_gives_the_same_answer(path):
    position = load_position(path)
    try:
        # (the original's run is the session's shared one: tests/_runs.py)
        original = _answer(_runs.outcomes(position))
    except PositionError:  # a position that breaks a rule: no answer to compare
        return
    turned = mirrored(position)
    assert _answer(_runs.outcomes(turned), _back(axis(position))) == original
