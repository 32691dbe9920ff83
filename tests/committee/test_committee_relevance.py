"""`search diff --switch X` skips the positions no clause of X can touch
(asl_kb/committee/relevance.py): the shortcut must never hide a difference.
Also: a switch's witness replayed by `asl-kb diff`, and surviving mutants
handed to the search (`python -m tools.mutate --search`)."""

import json
from pathlib import Path

import pytest

from asl_kb.asp.control import tracing_entries
from asl_kb.committee import relevance
from asl_kb.committee.compare import compare
from asl_kb.committee.enumerate import candidates, to_yaml
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.committee.scope import scope_from_text
from asl_kb.engines.outcomes import answers, outcomes
from asl_kb.position.loader import load_position, load_position_text
from asl_kb.resources import rules_dir
from test_committee_diff import SURRENDER, assert_replayed, one_witness

ROOT = Path(__file__).resolve().parents[2]
CURRENT = parse_ruleset("current")

# the scopes below have margin 0 (the map is the patch alone): a broken unit
# has few rout fates, so each position runs in a fraction of a second; what
# is checked -- skipped positions give the same result, a witness replays --
# holds on any map
PAIR = """\
name: pair
map: {centre: P15, radius: 1, margin: 0}
units:
  count: [1, 2]
  kinds:
    - {type: squad, counter: 4-4-7, side: russian, status: [broken]}
    - {type: squad, counter: 4-6-7, side: german, status: []}
attacker: german
"""

# a Disrupted unit entered by an enemy outside the RtPh (A19.12), whose
# surrender the current A20.3 lets the captor reject
DISRUPTED = """\
name: disrupted
map: {centre: P15, radius: 1, margin: 0}
units:
  count: 2
  kinds:
    - {type: squad, counter: 4-4-7, side: russian, status: [broken, disrupted]}
    - {type: squad, counter: 4-6-7, side: german, status: []}
  require_broken: no
attacker: german
phase: [movement]
"""


def _position(scope, c):
    return load_position_text(to_yaml(scope, c), f"{scope.name} #{c.index + 1}")


@pytest.mark.parametrize(
    "case, switch",
    [
        ("facts/rout/A20.21-unconcealed-interdictor.yaml", "unconcealed_interdictor"),
        ("facts/immediate/A19.12-entered.yaml", "disrupted_rejection"),
        ("facts/prisoners/A20.5-insufficient-guard.yaml", "guard_outnumbered"),
        ("facts/phase/article-Ex6.yaml", "current_rout_path"),
    ],
)
def test_a_position_the_switch_changes_is_never_skipped(case, switch):
    p = load_position(ROOT / case)
    d = compare(p, CURRENT, CURRENT.flipped(switch), attribute=False)
    assert d["appeared"] or d["vanished"]  # the switch changes this position ...
    assert relevance.may_touch(CURRENT.apply(p), (switch,))  # ... so it is run


@pytest.mark.parametrize("switch", ["guard_outnumbered", "unconcealed_interdictor"])
def test_a_skipped_position_really_does_not_differ(switch):
    scope = scope_from_text(PAIR, "pair.yaml")
    cs = list(candidates(scope))
    # the RtPh, no Guard, prisoner or concealed unit: none of these switches' clauses can fire
    assert not any(relevance.may_touch(CURRENT.apply(_position(scope, c)), (switch,)) for c in cs)
    # and indeed: the whole result is the same under both settings (a broken
    # unit alone, and beside an enemy that may capture it)
    from asl_kb.board import hexgrid

    beside = next(
        c
        for c in cs
        if c.size[0] == 2 and len({i for _, i in c.units}) == 2 and hexgrid.distance(c.units[0][0], c.units[1][0]) == 1
    )
    for c in (cs[0], beside):
        p = _position(scope, c)
        a = outcomes(CURRENT.apply(p))
        b = outcomes(CURRENT.flipped(switch).apply(p))
        strip = lambda r: json.dumps(r.to_json(), sort_keys=True)
        assert strip(a) == strip(b)


def test_a_switch_clause_in_the_staged_part_is_judged_on_the_stages_grounded():
    # current_rout_path acts in #program final (rewound/2): its body needs a
    # captor of the unit where it begins, figured at stage 0 -- an enemy that
    # may take it prisoner, adjacent or in its Location (A20.21)
    s = relevance._staged_slice(str(rules_dir()), "rout.lp", ("current_rout_path",))
    assert s.text and "captor(0," in s.text and "figured(0," in s.text
    scope = scope_from_text(PAIR, "pair.yaml")
    cs = list(candidates(scope))
    from asl_kb.board import hexgrid

    pairs = [c for c in cs if c.size[0] == 2 and len({i for _, i in c.units}) == 2]
    beside = next(c for c in pairs if hexgrid.distance(c.units[0][0], c.units[1][0]) == 1)
    apart = next(c for c in pairs if hexgrid.distance(c.units[0][0], c.units[1][0]) == 2)
    touched = {
        c.index: relevance.may_touch(CURRENT.apply(_position(scope, c)), ("current_rout_path",))
        for c in (cs[0], beside, apart)
    }
    # two hexes apart, the German is adjacent to hexes the unit may rout
    # into, not to where it begins: only stage 0 is read
    assert touched == {cs[0].index: False, beside.index: True, apart.index: False}
    # a skipped position really answers alike under both readings
    for c in (cs[0], apart):
        p = _position(scope, c)
        assert answers(CURRENT.apply(p)) == answers(CURRENT.flipped("current_rout_path").apply(p))


def test_outcomes_loads_only_the_programs_the_shortcut_knows():
    for case in (
        "facts/rout/A10.531-EX.yaml",
        "facts/prisoners/A20.5-insufficient-guard.yaml",
        "facts/immediate/A19.12-entered.yaml",
    ):
        with tracing_entries() as seen:
            outcomes(load_position(ROOT / case), phase=True)
        assert seen and seen <= set(relevance.PROGRAM_NAMES), case


def test_a_switch_witness_is_replayed_by_diff(capsys, tmp_path):
    f = tmp_path / "disrupted.yaml"
    f.write_text(DISRUPTED)
    out = tmp_path / "w"
    r, w = one_witness(capsys, "--switch", "disrupted_rejection", "--scope", str(f), "--out", str(out))
    # the smallest: both units in one Location (A19.12: "enters its Location")
    pos = load_position(w["file"])
    assert len({u.hex for u in pos.units}) == 1 and r["tried"] == w["index"]
    assert w["vanished"] and all(c["switch"] == "disrupted_rejection" for e in w["vanished"] for c in e["caused_by"])
    assert w["replay"].split()[1:] == ["diff", w["file"], "--from", "current", "--switch", "disrupted_rejection"]
    assert_replayed(capsys, w, *w["replay"].split()[3:])


def test_surviving_mutants_handed_to_the_search(capsys, tmp_path):
    from tools.mutate.__main__ import main as mutate
    from tools.mutate.mutants import file_mutants

    disrupted, lone = tmp_path / "disrupted.yaml", tmp_path / "lone.yaml"
    disrupted.write_text(DISRUPTED)
    lone.write_text(PAIR.replace("count: [1, 2]", "count: 1"))
    # A19.12: "a Disrupted unit surrenders immediately" -- the clause deleted
    entered = next(
        m
        for m in file_mutants(rules_dir(), "immediate/A19_12_disrupted.lp")
        if m.kind == "delete" and m.clause.startswith("dis_fate(U,surrender(X)) :-")
    )
    # a clause no position of a lone broken unit reaches: the Mopping Up captor (A20.21)
    mopping = next(
        m
        for m in file_mutants(rules_dir(), SURRENDER)
        if m.kind == "delete" and m.clause.startswith("mop_captor(U,X) :-")
    )
    found, none = tmp_path / "found", tmp_path / "none"
    assert (
        mutate(
            [
                "rules/immediate/A19_12_disrupted.lp",
                "--search",
                "--mutants",
                entered.id,
                "--scope",
                str(disrupted),
                "--out",
                str(found),
            ]
        )
        == 1
    )
    assert (
        mutate([f"rules/{SURRENDER}", "--search", "--mutants", mopping.id, "--scope", str(lone), "--out", str(none)])
        == 0
    )
    text = capsys.readouterr().out
    [told] = json.loads((found / "search-report.json").read_text())["mutants"]
    [equivalent] = json.loads((none / "search-report.json").read_text())["mutants"]
    assert told["id"] == entered.id and told["told_apart"]
    assert equivalent["id"] == mopping.id and not equivalent["told_apart"] and equivalent["complete"]
    assert "equivalent within the scope" in text
    # the proposed case: the smallest position of the scope (enemy in its
    # Location), one the loader reads, where the surrender vanishes
    case = load_position(told["file_out"])
    assert len({u.hex for u in case.units}) == 1
    assert any("surrender" in e["outcome"] for e in told["vanished"])


def test_a_staged_slice_keeps_only_clauses_that_may_fire():
    # at stage 0 no carry of a stage -1 is grounded: the step, the backward
    # reach and the A10.51 step bars they read cannot fire, and a predicate
    # read only under `not` (still_valid/2: dropped, read as true) is not
    # derived in the slice either
    s = relevance._staged_slice(str(rules_dir()), "rout.lp", ("current_rout_path",))
    heads = {line.split("(")[0] for line in s.text.splitlines() if ":-" in line}
    assert {"captor", "figured", "probe_node", "adj_unit"} <= heads
    assert not heads & {"step", "back", "toward", "bars_step", "closer", "plan_forbidden", "still_valid"}
    assert "still_valid" in s.inputs  # read (under `not`), never derived


def test_the_fact_names_cover_every_fact_a_case_writes():
    # _may_fire reads a predicate no clause derives and no fact may give as
    # empty: every fact a position gets must be of a name it knows
    from asl_kb.asp.facts import position_facts, prisoner_facts

    names = relevance.fact_names(str(rules_dir()))
    cases = sorted((ROOT / "facts").rglob("*.yaml"))
    assert len(cases) > 50
    for case in cases:
        p = load_position(case)
        for text in (position_facts(p, voluntary_break=True), prisoner_facts(p)):
            written = {line.split("(")[0].rstrip(".") for line in text.splitlines() if line}
            assert written <= names, (case, written - names)


def test_a_folder_shares_the_rules_it_has_in_common_with_the_shipped_ones(tmp_path):
    # the slice's per-rule readings are kept by rule: a trial's folder, a
    # copy of the shipped rules with one file edited, reads as the shipped
    # rules' own statements every rule of the files it leaves as they are
    import shutil

    folder = tmp_path / "rules"
    shutil.copytree(rules_dir(), folder)
    edited = folder / SURRENDER
    edited.write_text(edited.read_text() + "\n#program base.\nsurrender_note_for_a_test.\n")
    shipped = relevance._parsed(str(rules_dir()), "rout.lp").rules
    copy = relevance._parsed(str(folder), "rout.lp").rules
    same = {id(r) for _, r in shipped} & {id(r) for _, r in copy}
    in_edited = [r for _, r in copy if Path(r.location.begin.filename).name == Path(SURRENDER).name]
    assert in_edited and not {id(r) for r in in_edited} & same
    assert len(same) == len(copy) - len(in_edited)
