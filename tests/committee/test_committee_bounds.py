"""Bounds read off the rules (committee/bounds.py, committee/grow.py): a
search without `--scope` whose positions the solver chooses, with no
hand-written scope. Structure is compared (rule ids, switches, units,
hexes), never wording."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asl_kb.committee import bounds, generate, grow
from asl_kb.committee.enumerate import Candidate, candidates
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.position.loader import switch_names
from test_committee_diff import run

ERRATA = Path(__file__).resolve().parents[1] / "data" / "errata"


def _start(switch: str):
    return grow.start_of(parse_ruleset("current"), parse_ruleset("current", switch=switch))


def test_the_vocabulary_is_read_off_the_rules():
    """The escape exception's clauses read `status(P,in_own_country)` and a
    nationality; the clauses next to them read the Guard relation and the
    Axis Minor nationalities (through axis_minor/1, a table of the rules)."""
    v = bounds.vocabularies(*_start("escape_exception_own_borders"))
    assert ("status", "in_own_country") in v[0].own and not v[0].guard
    assert v[1].guard and ("nationality", "romanian") in v[1].words
    assert set(v[0].words) <= set(v[1].words) <= set(v[2].words)
    # the header inputs the clauses read: a capture under No Quarter in the CCPh
    w = bounds.vocabularies(*_start("capture_under_no_quarter"))[0]
    assert {"no_quarter", "close_combat"} <= set(w.header) and "close_combat" in w.phases


def test_a_bound_is_a_scope_walked_as_the_enumeration_walks_it():
    """A bound is a scope YAML (scope.py reads it); the solver gives its
    positions, in the enumeration's order, and exhausts it."""
    ladder = bounds.ladder(*_start("escape_exception_own_borders"))
    assert [b.units for b in ladder] == sorted(b.units for b in ladder)
    first = ladder[0].scope()
    r = generate.Run()
    assert list(generate.generated(first, run=r)) == list(candidates(first)) and r.exhausted
    kinds = {(s.side, s.type, s.status) for s in first.specs}
    assert ("russian", "squad", ("broken",)) in kinds and ("german", "squad", ()) in kinds


def test_header_inputs_prune_the_positions():
    """A clause reading phase(close_combat) acts only in the CCPh; one
    reading no_quarter/1 only where No Quarter is declared; a clause that
    reads nothing of the header keeps every position."""
    keep = generate.header_filter({"c:1": [("phase", 1, ("close_combat",))], "c:2": [("no_quarter", 1, (None,))]})
    assert keep is not None

    def cand(phase, nq=(), options=()):
        return Candidate(0, (("P15", 0),), (), "german", nq, phase, options)

    assert keep(cand("close_combat")) and keep(cand("rout", ("german",)))
    assert not keep(cand("rout")) and not keep(cand("movement", (), (("elr", "{}"),)))
    assert generate.header_filter({"c:1": [("phase", 1, ("rout",))], "c:2": []}) is None


def test_without_scope_a_witness_no_larger_than_the_enumerated_search(capsys):
    """`search diff --generate` with no scope: the escape exception told apart
    in the bounds read off the rules, by a position no larger than the
    enumerated search's (its shipped scope `escape`: a Guard and its
    prisoner), the cause the switch."""
    code, out, _ = run(
        capsys,
        "search",
        "diff",
        "--switch",
        "escape_exception_own_borders",
        "--generate",
        "--witnesses",
        "1",
        "--format",
        "json",
    )
    r = json.loads(out)
    assert code == 1 and r["bounds_read_off_the_rules"]
    [w] = r["witnesses"]
    assert all(g["scope"].startswith("rules-") for g in r["grown"])
    assert (w["units"], w["non_open"]) <= (2, 0)
    causes = {c["switch"] for e in w["appeared"] + w["vanished"] for c in e["caused_by"]}
    assert causes == {"escape_exception_own_borders"}
    units = yaml_units(w)
    assert any(u.get("status") == ["in_own_country"] and u.get("guard") for u in units)


def yaml_units(w: dict) -> list[dict]:
    import yaml

    return yaml.safe_load(w["yaml"])["units"]


def test_gaps_without_scope_grow_over_the_bounds_read_off_the_rules(capsys):
    """`search gaps --generate` with no scope walks the bounds read off the
    rules as a diff does (cut here after three positions: said so)."""
    code, out, _ = run(
        capsys,
        "search",
        "gaps",
        "--generate",
        "--max-positions",
        "3",
        "--format",
        "json",
        "--switch",
        "guard_outnumbered",
    )
    r = json.loads(out)
    assert code == 3 and r["bounds_read_off_the_rules"] and not r["complete"]
    assert [g["scope"] for g in r["grown"]][0] == "rules-1u-d0-r0" and r["tried"] == 3
    assert r["incomplete_because"] == ["stopped: 3 positions tried in all (--max-positions)"]


def test_a_clause_no_search_can_reach_is_said_at_once(capsys):
    """Voluntary Break is never asked by a search: the switch's clause can
    act in no position, said before any position is tried (exit 3)."""
    code, out, _ = run(
        capsys, "search", "diff", "--switch", "no_break_into_surrender", "--generate", "--format", "json"
    )
    r = json.loads(out)
    assert code == 3 and r["tried"] == 0 and not r["witnesses"]
    [why] = r["incomplete_because"]
    assert "vb_scope/1" in why and "vb_candidate(_)" in why


#: the switches and errata a search with no scope tells apart (make
#: test-slow); the others are not yet reached within the default budget:
#: each says why it stopped (below), never "none"
FOUND = (
    "capture_under_no_quarter",
    "disrupted_rejection",
    "escape_exception_own_borders",
    "escape_unbroken_guard_in_melee",
    "escaped_smc_armed",
    "guard_outnumbered",
    "massacre_in_location",
    "mop_up_any_unit",
    "no-rejection-no-capture",
)
PHASE_ONLY = ("stack_surrender", "no-rejection-no-capture")


def _cases():
    return sorted(switch_names()) + sorted(p.name for p in ERRATA.iterdir())


def _args(name: str) -> list[str]:
    rule_set = ["--to", str(ERRATA / name)] if (ERRATA / name).is_dir() else ["--switch", name]
    return rule_set + (["--phase"] if name in PHASE_ONLY else [])


def _causes(w: dict) -> set:
    return {c.get("switch") or c.get("rule_folder") for e in w["appeared"] + w["vanished"] for c in e["caused_by"]}


@pytest.mark.timeout(900)  # (two searches of up to 300 s and 120 s, and their set-up)
@pytest.mark.parametrize("name", _cases())
def test_every_switch_and_erratum_without_a_scope(capsys, name):
    """make test-slow: every switch of rules/core/versions.lp and every
    erratum folder of tests/data/errata, searched with no scope: a witness
    no larger than the enumerated search's (where that finds one within
    its budget), caused by the switch or the folder; or the reason none is
    found (never a silent none)."""
    found = name in FOUND
    limit = ["--timeout", "300"] if found else ["--max-positions", "60"]
    code, out, _ = run(
        capsys, "search", "diff", *_args(name), "--generate", "--witnesses", "1", *limit, "--format", "json"
    )
    r = json.loads(out)
    if not found:
        assert code in (1, 3)
        assert r["witnesses"] or r["incomplete_because"]
        return
    assert code == 1, r.get("incomplete_because")
    [w] = r["witnesses"]
    assert _causes(w) == {str(ERRATA / name) if (ERRATA / name).is_dir() else name}
    code, out, _ = run(
        capsys, "search", "diff", *_args(name), "--witnesses", "1", "--timeout", "120", "--format", "json"
    )
    e = json.loads(out)
    if e["witnesses"]:
        assert (w["units"], w["non_open"]) <= (e["witnesses"][0]["units"], e["witnesses"][0]["non_open"])
