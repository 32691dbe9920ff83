"""The case runner itself: it reports unmet expectations structurally and
bad `expect:` as FILE:LINE: KEY: message."""

import pytest

from tools.casebook import Failure, load_case, run_case
from asl_kb.errors import PositionError

POSITION = """name: runner test
attacker: russian
map: {area: [A1, P10], default_terrain: grain}
los: {blocked: [[L2, K4]]}
units:
  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: L2, status: [broken, dm]}
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: M2}
  - {id: G2, side: german, type: squad, counter: 4-6-7, at: K2}
  - {id: G3, side: german, type: squad, counter: 4-6-7, at: K4}
"""


def case(tmp_path, expect):
    f = tmp_path / "case.yaml"
    f.write_text(POSITION + expect)
    return f


def test_a_holding_case_has_no_failures(tmp_path):
    f = case(
        tmp_path,
        """expect:
  source: A10.5 EX
  units:
    R1: {must_rout: true, because: [A10.5], kinds: [rout], fates: [{fate: rout, at: M4}], absent: [{at: L3}]}
""",
    )
    assert run_case(f) == []


def test_unmet_expectations_are_structured_failures(tmp_path):
    f = case(
        tmp_path,
        """expect:
  source: A10.5 EX
  runs:
    - label: moved
      run: {units: {G3: {at: L4}}}
      units:
        R1:
          kinds: [rout]
          fates:
            - {fate: surrender, captor: G9}
""",
    )
    failures = run_case(f)
    assert all(isinstance(x, Failure) for x in failures)
    assert {(x.run, x.unit, x.line) for x in failures} == {("moved", "R1", 17), ("moved", "R1", 19)}
    assert str(failures[0]).startswith(f"{f}:17: run 'moved': unit R1:")


#: an `expect:` with one why-not item (the item follows)
WHY_NOT = "expect:\n  source: x\n  why_not:\n    - "


@pytest.mark.parametrize(
    "expect, where",
    [
        ("expect:\n  units: {}\n", ":11: expect.source: required key 'source' is missing"),
        (
            "expect:\n  source: x\n  units:\n    R1: {must_rout: maybe}\n",
            ":13: expect.units.R1.must_rout: expected on or off",
        ),
        (
            "expect:\n  source: x\n  units:\n    R1:\n      fates: [{fate: rout, att: L3}]\n",
            ":14: expect.units.R1.fates[0].att: unknown key",
        ),
        ("expect:\n  source: x\n  units:\n    R9: {must_rout: true}\n", "expect.units.R9: no unit 'R9'"),
        ("expect:\n  source: x\n  run: {units: {G3: {at: Z99}}}\n", "units[3].at"),
        # a why-not proposal and its answer
        (WHY_NOT + "{unit: R1, fate: rout, at: L3}\n", ":13: expect.why_not[0].legal: required key 'legal' is missing"),
        (WHY_NOT + "{unit: R9, fate: stay, legal: off}\n", ":13: expect.why_not[0].unit: no unit 'R9'"),
        (WHY_NOT + "{unit: R1, fate: fly, legal: off}\n", ":13: expect.why_not[0].fate: expected one of rout"),
        (
            WHY_NOT + "{unit: R1, fate: stay, at: L3, legal: off}\n",
            ":13: expect.why_not[0].at: a stay proposal takes no at",
        ),
        (WHY_NOT + "{unit: R1, fate: rout, legal: off}\n", ":13: expect.why_not[0].at: a rout proposal needs `at:`"),
        (WHY_NOT + "{unit: R1, fate: rout, at: ZZ99, legal: off}\n", ":13: expect.why_not[0].at:"),
        (
            WHY_NOT + "{unit: R1, fate: surrender, captor: X9, legal: off}\n",
            ":13: expect.why_not[0].captor: no unit 'X9'",
        ),
        (
            WHY_NOT + "{unit: R1, fate: stay, legal: on, because: [A10.5]}\n",
            ":13: expect.why_not[0].because: a legal proposal",
        ),
        (WHY_NOT + "{unit: R1, fate: stay, legal: off, only: on}\n", ":13: expect.why_not[0].only:"),
        (WHY_NOT + "{unit: R1, fate: stay, legal: off, why: x}\n", ":13: expect.why_not[0].why: unknown key"),
    ],
)
def test_bad_expect_is_file_line_key(tmp_path, expect, where):
    f = case(tmp_path, expect)
    with pytest.raises(PositionError) as e:
        load_case(f)
    assert where in str(e.value)


def test_voluntary_break_refused_is_compared_as_a_set_of_rule_ids(tmp_path):
    """`voluntary_break_refused: [RULE]` (a run key): the rule ids of why no unit
    may break voluntarily, exactly; `[]` says nothing is refused."""
    held = case(
        tmp_path,
        """expect:
  source: A10.41
  runs:
    - label: movement phase
      run: {phase: movement, voluntary_break: on}
      voluntary_break_refused: [A10.41]
    - label: rout phase
      run: {voluntary_break: on}
      voluntary_break_refused: []
""",
    )
    assert run_case(held) == []
    unmet = case(
        tmp_path,
        """expect:
  source: A10.41
  runs:
    - label: rout phase
      run: {voluntary_break: on}
      voluntary_break_refused: [A10.41]
""",
    )
    failures = run_case(unmet)
    assert [(x.run, x.line) for x in failures] == [("rout phase", 15)]
    with pytest.raises(PositionError) as e:
        load_case(case(tmp_path, "expect:\n  source: x\n  voluntary_break_refused: {a: b}\n"))
    assert "expect.voluntary_break_refused" in str(e.value)


def test_broken_clauses_are_compared_by_rule_clause_and_key(tmp_path):
    """A prisoner away from its Guard (A20.5): the case must name the clause
    and, where given, the input at fault; another clause or key fails."""
    f = tmp_path / "case.yaml"
    body = """name: runner test
attacker: russian
map: {area: [H1, P6]}
units:
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: L3}
  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: L2, guard: G1}
expect:
  source: A20.5
  check: {consistent: false, broken_clauses: [CLAUSE]}
"""
    for clause, holds in (
        ("{rule: A20.5, clause: prisoner_away_from_guard, key: 'units[1].guard'}", True),
        ("{rule: A20.5, clause: prisoner_away_from_guard}", True),
        ("{rule: A20.5, clause: guard_on_own_side}", False),
        ("{rule: A20.5, clause: prisoner_away_from_guard, key: 'units[0].guard'}", False),
        ("{rule: A11.1, clause: prisoner_away_from_guard}", False),
    ):
        f.write_text(body.replace("CLAUSE", clause))
        failures = run_case(f)
        assert (failures == []) == holds, clause
        assert all(x.expected.startswith("broken clauses") for x in failures)


def test_why_not_is_compared_by_rule_and_reason_and_reported_at_its_line(tmp_path):
    """A10.5 EX: L3 is forbidden by A10.5 (ends ADJACENT to G3), M4 is legal;
    a wrong expectation fails at its own line, the right ones hold."""
    f = case(
        tmp_path,
        """expect:
  source: A10.5 EX
  why_not:
    - {unit: R1, fate: rout, at: L3, legal: off, because: ["A10.5:ends_adjacent"], only: on}
    - {unit: R1, fate: rout, at: M4, legal: on}
    - {unit: R1, fate: rout, at: L3, legal: off, because: ["A10.5:ends_with"]}
    - {unit: R1, fate: rout, at: L3, legal: off, because: [A10.53], only: on}
    - {unit: R1, fate: rout, at: L3, legal: off, not_because: [A10.5]}
    - {unit: R1, fate: rout, at: M4, legal: off}
""",
    )
    failures = run_case(f)
    assert [(x.line, x.unit) for x in failures] == [(15, "R1"), (16, "R1"), (16, "R1"), (17, "R1"), (18, "R1")]
    assert str(failures[0]).startswith(f"{f}:15: run 'as written': unit R1: expected why-not rout L3")


def test_match_is_a_subset_of_the_json_answer_reported_at_its_line_and_unit(tmp_path):
    """`match:` (the generic form): a mismatch inside a unit named by `id` is
    reported at the key that differs, with the unit; an operator at its line."""
    expect = """expect:
  source: A10.5 EX
  match:
    complete: on
    units:
      count: 1
      contains:
        - id: R1
          must_rout: off
          fates: {contains: [{fate: rout, at: M4}], none_of: [{fate: surrender}]}
      none_of: [{id: G1}]
"""
    failures = run_case(case(tmp_path, expect))
    assert [(x.line, x.run, x.unit) for x in failures] == [(18, "as written", "R1")]
    assert "must_rout" in failures[0].expected
    holding = expect.replace("must_rout: off", "must_rout: on")
    assert run_case(case(tmp_path, holding)) == []
    wrong = case(tmp_path, holding.replace("count: 1", "count: 2"))
    assert [(x.line, x.unit) for x in run_case(wrong)] == [(15, None)]


@pytest.mark.parametrize(
    "match, where",
    [
        ("    units: {contains: foo}\n", ":13: expect.match.units.contains: expected a list"),
        ("    units: {count: -1}\n", ":13: expect.match.units.count:"),
    ],
)
def test_bad_match_is_file_line_key(tmp_path, match, where):
    with pytest.raises(PositionError) as e:
        load_case(case(tmp_path, "expect:\n  source: x\n  match:\n" + match))
    assert where in str(e.value)


def test_match_operators_on_the_answers_lists():
    """The five operators, on plain JSON: a list is matched in order; `count`
    on a mapping is its key; `exactly` is a multiset."""
    from tools.expect_match import matches

    fates = [
        {"fate": "rout", "at": "L5", "interdiction": [{"at": "J1"}, {"at": "J1"}]},
        {"fate": "stay", "at": "L2", "interdiction": []},
    ]
    assert matches({"all": {"fate": "rout"}}, fates[:1]) and not matches({"all": {"fate": "rout"}}, fates)
    assert matches({"contains": [{"at": "L2"}], "none_of": [{"fate": "surrender"}], "count": "2"}, fates)
    assert not matches({"contains": [{"at": "L3"}]}, fates)
    assert matches([{"fate": "rout"}, {"fate": "stay"}], fates) and not matches([{"fate": "stay"}], fates)
    assert matches({"interdiction": {"exactly": [{"at": "J1"}, {"at": "J1"}]}}, fates[0])
    assert not matches({"interdiction": {"exactly": [{"at": "J1"}]}}, fates[0])
    assert matches({"count": "3", "outcomes": {"count": "0"}}, {"count": 3, "outcomes": []})
    assert matches({"low_crawl": "off", "complete": "on"}, {"complete": True})  # off: absent or false
