"""Rules a position itself breaks (rules/core/position_checks.lp): the loader
accepts the file (its schema is fine), the rules name the broken clause, and
the file, line and key of the offending input are kept:
`asl-kb outcomes` refuses it (exit 2, rule named), `asl-kb check` lists it
(exit 1). Each case marks the offending line with "# <-"."""

from __future__ import annotations

import json

import pytest

from asl_kb import cli
from asl_kb.engines.legality import PositionRuleError, violations
from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position
from asl_kb.resources import cases_dir
from conftest import sampled

HEAD = "name: bad\nattacker: russian\n"
R = "side: russian, type: squad, counter: 4-4-7"
G = "side: german, type: squad, counter: 4-6-7"

# name -> (file text, expected key, (rule, clause name) of every violation)
CASES = {
    "prisoner_away_from_guard": (
        HEAD + f"units:\n  - {{id: G1, {G}, at: L3}}\n  - {{id: R1, {R}, at: L2, guard: G1}}  # <-\n",
        "units[1].guard",
        {("A20.5", "prisoner_away_from_guard")},
    ),
    "prisoner_on_another_level": (
        HEAD + "map: {terrain: {L3: building}, levels: {L3: 1}}\n"
        f"units:\n  - {{id: G1, {G}, at: 'L3@1'}}\n  - {{id: R1, {R}, at: L3, guard: G1}}  # <-\n",
        "units[1].guard",
        {("A20.5", "prisoner_away_from_guard")},
    ),
    "guard_on_own_side": (
        HEAD + f"units:\n  - {{id: R2, {R}, at: L3}}\n  - {{id: R1, {R}, at: L3, guard: R2}}  # <-\n",
        "units[1].guard",
        {("A20.5", "guard_on_own_side")},
    ),
    "guard_is_prisoner": (
        HEAD + f"units:\n  - {{id: R2, {R}, at: L3}}\n  - {{id: G1, {G}, at: L3, guard: R2}}\n"
        f"  - {{id: R1, {R}, at: L3, guard: G1}}  # <-\n",
        "units[2].guard",
        {("A20.5", "guard_is_prisoner")},
    ),
    "guarding_written_on_the_guard": (
        HEAD + f"units:\n  - {{id: R1, {R}, at: L2}}\n  - {{id: G1, {G}, at: L3, guarding: [R1]}}  # <-\n",
        "units[1].guarding[0]",
        {("A20.5", "prisoner_away_from_guard")},
    ),
    "cc_across_locations": (
        HEAD + f"units:\n  - {{id: R1, {R}, at: L2}}\n  - {{id: G1, {G}, at: L3}}\n"
        "close_combat:\n  - {attackers: [R1], defenders: [G1]}  # <-\n",
        "close_combat[0]",
        {("A11.1", "cc_across_locations")},
    ),
    "cc_attackers_of_two_sides": (
        HEAD + f"units:\n  - {{id: R1, {R}, at: L2}}\n  - {{id: G1, {G}, at: L2}}\n  - {{id: G2, {G}, at: L2}}\n"
        "close_combat:\n  - {attackers: [R1], defenders: [G1]}\n  - {attackers: [R1, G1], defenders: [G2]}  # <-\n",
        "close_combat[1]",
        {("A11.1", "cc_attackers_of_two_sides"), ("A11.1", "cc_against_own_side")},
    ),
    "cc_against_own_side": (
        HEAD + f"units:\n  - {{id: G1, {G}, at: L2}}\n  - {{id: G2, {G}, at: L2}}\n"
        "close_combat:\n  - {attackers: [G1], defenders: [G2]}  # <-\n",
        "close_combat[0]",
        {("A11.1", "cc_against_own_side")},
    ),
    # A10.3: only Personnel break; the status is the offending input
    "broken_vehicle": (
        HEAD + f"units:\n  - {{id: R1, {R}, at: L2}}\n"
        "  - {id: T1, side: russian, type: vehicle, at: L3, armament: [bmg], status: [ce, broken]}  # <-\n",
        "units[1].status[1]",
        {("A10.3", "broken_not_personnel")},
    ),
    "broken_gun": (
        HEAD + "units:\n  - {id: A1, side: russian, type: gun, counter: 57L AT, at: L3, fp: 4, range: 12, ca: 3,"
        " status: [broken]}  # <-\n",
        "units[0].status[0]",
        {("A10.3", "broken_not_personnel")},
    ),
}


def marked_line(text: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if "# <-" in line)


@pytest.fixture(params=sorted(CASES))
def case(request, tmp_path):
    text, key, expected = CASES[request.param]
    path = tmp_path / f"{request.param}.yaml"
    path.write_text(text, encoding="utf-8")
    return path, marked_line(text), key, expected


def test_the_rules_name_the_clause_and_the_input_at_fault(case):
    path, line, key, expected = case
    found = violations(load_position(path))  # the schema is fine: it loads
    assert {(v.rule, v.clause.split("(")[0]) for v in found} == expected
    assert {(v.line, v.key) for v in found} == {(line, key)}


def test_outcomes_refuses_the_position(case):
    path, line, key, expected = case
    with pytest.raises(PositionRuleError) as info:
        outcomes(load_position(path))
    err = info.value
    assert (err.file, err.line, err.key) == (str(path), line, key)
    assert (err.violations[0].rule, err.violations[0].clause.split("(")[0]) in expected


def test_cli_outcomes_exit_2_naming_the_rule(case, capsys):
    path, line, key, expected = case
    assert cli.main(["outcomes", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}:{line}: {key}: breaks A")
    assert any(f"breaks {rule}:" in err for rule, _ in expected)
    assert "Traceback" not in err


def test_cli_check_exit_1_listing_every_clause(case, capsys):
    path, line, key, expected = case
    assert cli.main(["check", str(path), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert not report["consistent"]
    clauses = [c for f in report["findings"] for c in f["clauses"]]
    assert {f["kind"] for f in report["findings"]} == {"position_breaks_rule"}
    assert {(c["rule"], c["violated"].split("(")[0]) for c in clauses} == expected
    assert {c["at"] for c in clauses} == {f"{path}:{line}: {key}"}


def test_diff_refuses_it_too(tmp_path, capsys):
    text, key, _ = CASES["cc_across_locations"]
    path = tmp_path / "cc.yaml"
    path.write_text(text, encoding="utf-8")
    assert cli.main(["diff", str(path)]) == 2
    assert f"{path}:{marked_line(text)}: {key}: breaks A11.1" in capsys.readouterr().err


@pytest.mark.parametrize(
    "path", sampled(sorted(cases_dir().glob("*/*.yaml"))), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_no_bundled_position_breaks_a_rule(path):
    assert violations(load_position(path)) == []
