"""`search diff --switch X` skips the positions no clause of X can touch
(asl_kb/committee/relevance.py): the shortcut must never hide a difference.
Also: a switch's witness replayed by `asl-kb diff`, and surviving mutants
handed to the search (`python -m asl_kb.mutate --search`)."""
import json
from pathlib import Path

import pytest

from asl_kb.asp.control import tracing_entries
from asl_kb.committee import relevance
from asl_kb.committee.compare import compare
from asl_kb.committee.enumerate import candidates, to_yaml
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.committee.scope import scope_from_text
from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position, load_position_text
from asl_kb.resources import rules_dir
from test_committee_diff import CAPTOR_CLAUSE, SURRENDER, run

ROOT = Path(__file__).resolve().parent.parent
CURRENT = parse_ruleset("current")

PAIR = """\
name: pair
map: {centre: P15, radius: 1}
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
map: {centre: P15, radius: 1}
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


@pytest.mark.parametrize("case, switch", [
    ("cases/rout/A20.21-unconcealed-interdictor.yaml", "unconcealed_interdictor"),
    ("cases/immediate/A19.12-entered.yaml", "disrupted_rejection"),
    ("cases/prisoners/A20.5-insufficient-guard.yaml", "guard_outnumbered"),
])
def test_a_position_the_switch_changes_is_never_skipped(case, switch):
    p = load_position(ROOT / case)
    d = compare(p, CURRENT, CURRENT.flipped(switch))
    assert d["appeared"] or d["vanished"]           # the switch changes this position ...
    assert relevance.may_touch(CURRENT.apply(p), (switch,))    # ... so it is run


@pytest.mark.parametrize("switch", ["guard_outnumbered", "disrupted_rejection", "massacre_in_location",
                                    "unconcealed_interdictor"])
def test_a_skipped_position_really_does_not_differ(switch):
    scope = scope_from_text(PAIR, "pair.yaml")
    cs = list(candidates(scope))
    # the RtPh, no Guard, prisoner or concealed unit: none of these switches' clauses can fire
    assert not any(relevance.may_touch(CURRENT.apply(_position(scope, c)), (switch,)) for c in cs)
    # and indeed: the whole result is the same under both settings (a broken
    # unit alone, and beside an enemy)
    for c in (cs[0], cs[-1]):
        p = _position(scope, c)
        a = outcomes(CURRENT.apply(p))
        b = outcomes(CURRENT.flipped(switch).apply(p))
        strip = lambda r: json.dumps({k: v for k, v in r.items() if not k.startswith("_")}, sort_keys=True,
                                     default=str)
        assert strip(a) == strip(b)


def test_a_switch_clause_in_a_staged_part_is_never_skipped():
    # current_rout_path acts in #program final, on the staged rout graph: no shortcut
    p = CURRENT.apply(load_position(ROOT / "cases/rout/A10.531-EX.yaml"))
    assert relevance.may_touch(p, ("current_rout_path",))


def test_outcomes_loads_only_the_programs_the_shortcut_knows():
    for case in ("cases/rout/A10.531-EX.yaml", "cases/prisoners/A20.5-insufficient-guard.yaml",
                 "cases/immediate/A19.12-entered.yaml"):
        with tracing_entries() as seen:
            outcomes(load_position(ROOT / case), phase=True)
        assert seen and seen <= set(relevance.PROGRAM_NAMES), case


def test_a_switch_witness_is_replayed_by_diff(capsys, tmp_path):
    f = tmp_path / "disrupted.yaml"
    f.write_text(DISRUPTED)
    out = tmp_path / "w"
    code, text, _ = run(capsys, "search", "diff", "--switch", "disrupted_rejection", "--scope", str(f),
                        "--witnesses", "1", "--out", str(out), "--format", "json")
    assert code == 1
    r = json.loads(text)
    [w] = r["witnesses"]
    # the smallest: both units in one Location (A19.12: "enters its Location")
    pos = load_position(w["file"])
    assert len({u.hex for u in pos.units}) == 1 and r["tried"] == w["index"]
    assert w["vanished"] and all(c["switch"] == "disrupted_rejection" for e in w["vanished"] for c in e["caused_by"])
    assert w["replay"].split()[1:] == ["diff", w["file"], "--from", "current", "--switch", "disrupted_rejection"]
    code, text, _ = run(capsys, *w["replay"].split()[1:], "--format", "json")
    assert code == 1
    d = json.loads(text)
    assert {x["outcome"] for x in d["rows"] if x["change"] == "-"} == {e["outcome"] for e in w["vanished"]}
    assert {x["outcome"] for x in d["rows"] if x["change"] == "+"} == {e["outcome"] for e in w["appeared"]}


def test_surviving_mutants_handed_to_the_search(capsys, tmp_path):
    from asl_kb.mutate.__main__ import main as mutate
    from asl_kb.mutate.mutants import file_mutants
    scope = tmp_path / "pair.yaml"
    scope.write_text(PAIR)
    ms = file_mutants(rules_dir(), SURRENDER)
    captor = next(m for m in ms if m.kind == "delete" and m.clause.startswith(CAPTOR_CLAUSE))
    # a clause no RtPh position of the scope reaches: the Mopping Up captor (A20.21)
    mopping = next(m for m in ms if m.kind == "delete" and m.clause.startswith("mop_captor(U,X) :-"))
    out = tmp_path / "found"
    code = mutate([f"rules/{SURRENDER}", "--search", "--mutants", captor.id, mopping.id, "--scope", str(scope),
                   "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 1
    report = json.loads((out / "search-report.json").read_text())
    told = {r["id"]: r for r in report["mutants"]}
    assert told[captor.id]["told_apart"] and not told[mopping.id]["told_apart"]
    assert told[mopping.id]["complete"] and "equivalent within the scope" in text
    # the proposed case is a position `asl-kb diff` reads and replays under the mutant
    case = Path(told[captor.id]["file_out"])
    assert load_position(case).units
    vanished = {e["outcome"] for e in told[captor.id]["vanished"]}
    assert any("surrender" in o for o in vanished)
