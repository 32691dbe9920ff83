"""--timeout: a run past it answers with complete: false and what was cut."""
from __future__ import annotations

import json

from asl_kb.cli import main
from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position
from asl_kb.report.render import to_json
from asl_kb.resources import cases_dir

POSITION = cases_dir() / "rout" / "A10.5-EX.yaml"


def test_past_the_timeout_says_what_was_cut():
    p = load_position(POSITION)
    r = outcomes(p, timeout=1e-9).to_json()
    assert r["complete"] is False
    assert r["units"] == []
    assert r["cut"]["units"] == [u.id for u in p.units if "broken" in u.status]
    assert r["cut"]["while"]
    assert any("--timeout" in why for why in r["incomplete_because"])


def test_a_generous_timeout_changes_nothing():
    p = load_position(POSITION)
    assert to_json(outcomes(p, phase=True, timeout=600)) == to_json(outcomes(p, phase=True))


def test_cli_timeout_exits_3_with_complete_false(capsys):
    assert main(["outcomes", str(POSITION), "--format", "json", "--timeout", "0.000000001"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["complete"] is False and "cut" in out
