"""committee/legal.py: changed clauses that act in no legal position --
what they need, a position check of the rules refuses -- and never one
that acts somewhere."""

import json
from pathlib import Path

import pytest

from asl_kb.committee import legal, reach
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.position.loader import switch_names
from asl_kb.resources import rules_dir
from test_committee_diff import run

CURRENT = parse_ruleset("current")
ERRATA = Path(__file__).resolve().parents[1] / "data" / "errata"
FOLDER = str(rules_dir())


def _clause(text: str):
    # (a clause as the prisoners program would hold it: its definitions are that program's)
    [c] = reach.rules_of(text, "prisoners/A20_55_escape.lp", 23)
    return c


def test_a_non_infantry_prisoner_is_refused_by_the_position_checks(capsys):
    """only_infantry_escape's clause needs a prisoner (guard_of/2, the one
    definition of prisoner/2 in the prisoners program) that is not
    Infantry (a vehicle or a Gun: infantry/1 reads only the unit type):
    A20.5's check refuses one. Said without walking a bound, exit 0."""
    folder, clauses = reach.changed(CURRENT, CURRENT.flipped("only_infantry_escape"))
    assert legal.nowhere(folder, clauses) == [
        {
            "clause": "prisoners/A20_55_escape.lp:23",
            "check": "core/position_checks.lp:29",
            "rule": "A20.5",
            "name": "prisoner_not_personnel",
        }
    ]
    code, out, _ = run(capsys, "search", "diff", "--switch", "only_infantry_escape", "--format", "json")
    r = json.loads(out)
    assert code == 0 and r["complete"] and r["tried"] == 0 and not r["witnesses"]
    assert [x["rule"] for x in r["acts_in_no_legal_position"]] == ["A20.5"]


@pytest.mark.parametrize(
    "text",
    [
        "never_escapes(P) :- prisoner(P,_), infantry(P).",  # an Infantry prisoner
        "never_escapes(P) :- unit_type(P,vehicle).",  # a vehicle, no prisoner
        "never_escapes(P) :- prisoner(P,_), not unit_type(P,squad).",  # a half-squad prisoner
        "never_escapes(P) :- prisoner(P,_), not infantry(X), unit_type(X,gun).",  # a Gun beside
        "never_escapes(P) :- guard_of(G,P), not infantry(P).",  # a vehicle Guard (not A20.5's)
    ],
)
def test_a_clause_that_acts_somewhere_is_not_refused(text):
    assert legal.refused_by(FOLDER, _clause(text)) is None


@pytest.mark.parametrize(
    "text",
    [
        "never_escapes(P) :- prisoner(P,_), unit_type(P,gun).",
        "never_escapes(P) :- guard_of(P,G), not infantry(P), status(G,broken).",
    ],
)
def test_what_a_check_refuses_is_refused_whatever_else_the_clause_reads(text):
    assert legal.refused_by(FOLDER, _clause(text))["name"] == "prisoner_not_personnel"


def test_no_switch_or_erratum_told_apart_is_said_to_act_nowhere():
    """make test-slow: every other switch and erratum has a witness (the
    sweep): none is said to act in no legal position."""
    said = {}
    for name in sorted(switch_names()) + sorted(str(p) for p in ERRATA.iterdir()):
        b = parse_ruleset(name) if "/" in name else CURRENT.flipped(name)
        got = reach.changed(CURRENT, b)
        if got is not None and got[1]:
            said[Path(name).name] = legal.nowhere(*got) is not None
    assert [n for n, s in said.items() if s] == ["only_infantry_escape"] and len(said) == 21
