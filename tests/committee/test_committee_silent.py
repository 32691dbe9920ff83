"""No silent answers: a committee command that could not look says so.

* `search diff --phase` runs (the relevance shortcut asks the rout program
  again with No Quarter for every side);
* `outcomes` and `why-not` under `--rules DIR` or `--switch X` name the rule
  set they ran under; `why-not` under an erratum names the edited clause
  that forbids the fate; `outcomes` with a broken unit left without a legal
  fate answers no (exit 1, docs/output-format.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asl_kb.committee.relevance import may_touch
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.position.loader import load_position_text
from test_committee_diff import run


def load_scope_text(text: str):
    from asl_kb.committee.scope import scope_from_text

    return scope_from_text(text, "one.yaml")


ERRATA = Path(__file__).resolve().parents[1] / "data" / "errata"
CAPTOR_IN_COVER = str(ERRATA / "captor-in-cover")

#: tiny's 9th position: a broken Russian squad ADJACENT to a Good Order
#: German squad in open ground -- its one legal fate under the shipped rules
#: is a surrender (or its rejection); captor-in-cover leaves it none
ADJACENT = """\
name: adjacent
rules: current
attacker: german
no_quarter: []
phase: rout
map: {default_terrain: open, area: [H7, X23], terrain: {}}
units:
- {id: U1, side: russian, type: squad, counter: 4-4-7, at: P15, status: [broken]}
- {id: U2, side: german, type: squad, counter: 4-6-7, at: O16}
"""


@pytest.fixture(scope="module")
def adjacent(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("silent") / "adjacent.yaml"
    path.write_text(ADJACENT)
    return str(path)


def test_phase_shortcut_asks_no_quarter_for_all():
    """`search diff --phase` judged a position through may_touch(phase=True),
    which copied the position with dataclasses.replace (exit 70)."""
    rs = parse_ruleset("current", switch="stack_surrender")
    position = rs.apply(load_position_text(ADJACENT, "adjacent"))
    with rs.active():
        # one unit per Location: the stack's clauses cannot act, with or without the phase
        assert not may_touch(position, ("stack_surrender",), phase=True)


def test_search_diff_phase_runs(capsys):
    code, out, err = run(
        capsys, "search", "diff", "--switch", "stack_surrender", "--phase", "--scope", "tiny", "--max-positions", "3"
    )
    assert code in (0, 1, 3), err
    assert "internal error" not in err and "scope tiny" in out


@pytest.mark.parametrize("how", [["--rules", CAPTOR_IN_COVER], ["--switch", "stack_surrender"]])
def test_outcomes_name_their_rule_set(capsys, adjacent, how):
    code, out, _ = run(capsys, "outcomes", adjacent, *how, "--format", "json")
    rs = parse_ruleset(how[1] if how[0] == "--rules" else "current", switch=how[1] if how[0] == "--switch" else None)
    assert json.loads(out)["rules"] == rs.label != "current"
    code, out, _ = run(capsys, "why-not", adjacent, "U1", "surrender", "U2", *how, "--format", "json")
    assert json.loads(out)["rules"] == rs.label


def test_outcomes_without_a_legal_fate_answer_no(capsys, adjacent):
    code, out, _ = run(capsys, "outcomes", adjacent, "--format", "json")
    assert code == 0 and all(u["fates"] for u in json.loads(out)["units"])
    code, out, _ = run(capsys, "outcomes", adjacent, "--rules", CAPTOR_IN_COVER, "--format", "json")
    r = json.loads(out)
    assert code == 1 and [u["id"] for u in r["units"] if u.get("inconsistent")] == ["U1"]


def test_why_not_names_the_edited_clause(capsys, adjacent):
    code, out, _ = run(capsys, "why-not", adjacent, "U1", "surrender", "U2", "--format", "json")
    assert code == 0 and json.loads(out)["legal"]
    code, out, _ = run(
        capsys, "why-not", adjacent, "U1", "surrender", "U2", "--rules", CAPTOR_IN_COVER, "--format", "json"
    )
    r = json.loads(out)
    assert code == 1 and not r["legal"]
    assert [(e["file"], e["rule"], e["edit"]) for e in r["edits"]] == [
        ("rout/A20_21_surrender.lp", "A20.21", "changed")
    ]
    assert "cover_terrain" in r["edits"][0]["clause"] and not r.get("also_in_shipped_rules")


#: one position: a lone broken Russian squad
ONE = """\
name: one
attacker: german
map: {centre: P15, radius: 0, margin: 1}
units:
  count: 1
  kinds:
    - {type: squad, counter: 4-4-7, side: russian, status: [broken]}
"""
NO_REJECTION = str(ERRATA / "no-rejection-no-capture")


@pytest.fixture(scope="module")
def one(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("silent") / "one.yaml"
    path.write_text(ONE)
    return str(path)


def test_an_erratum_of_the_phase_program_is_not_compared_without_phase(capsys, one):
    """Its edited clauses are loaded only by phase.lp and check.lp: without
    --phase the search never compares what they shape -- not "none"."""
    code, out, _ = run(capsys, "search", "diff", "--to", NO_REJECTION, "--scope", one, "--format", "json")
    r = json.loads(out)
    assert code == 3 and not r["complete"] and not r["witnesses"]
    assert {c["clause"].split(":")[0] for c in r["not_compared"]} == {"phase/A20_3_no_rejection.lp"}
    assert all("phase.lp" in c["programs"] and "rout.lp" not in c["programs"] for c in r["not_compared"])
    code, out, _ = run(capsys, "search", "diff", "--to", NO_REJECTION, "--scope", one, "--phase", "--format", "json")
    r = json.loads(out)
    assert r["not_compared"] == [] and code != 70


def test_where_a_changed_clause_can_act_is_read_constant_by_constant():
    """mop_up_any_unit's clauses read rtph_never/1 (a fanatic, berserk,
    Japanese... unit) and ss_vs_russian/2 (an SS unit): derivable by name in
    every scope, by constant in none -- `features` has Mopping Up, and no
    such unit; `prisoners` has a berserk Guard, and no Mopping Up."""
    from asl_kb.committee import reach
    from asl_kb.committee.scope import load_scope

    a, b = parse_ruleset("current"), parse_ruleset("current", switch="mop_up_any_unit")
    folder, changed = reach.changed(a, b)
    features = reach.missing(load_scope("features"), folder, changed)
    assert sorted(features) == [c.where for c in changed] and len(changed) == 2
    assert {x for v in features.values() for x in v} == {"rtph_never(_)", "ss_vs_russian(_,_)"}
    prisoners = reach.missing(load_scope("prisoners"), folder, changed)
    assert all("mop_captor(_,_)" in v for v in prisoners.values())
    assert "rtph_never(_)" not in prisoners[changed[0].where]  # the berserk Guard


def test_never_equivalent_where_nothing_was_run(monkeypatch):
    """Every position of every scope searched shown untouched: not equivalent."""
    from asl_kb.committee import search

    scope = load_scope_text(ONE)
    monkeypatch.setattr(search, "shipped_scopes_by_size", lambda: [scope])
    r = search.grow_diff(parse_ruleset("current"), parse_ruleset("current", switch="guard_outnumbered"))
    assert r["tried"] == r["untouched"] == 1 and not r["complete"] and "equivalent_within" not in r


def test_coverage_reads_constants_and_no_voluntary_break(capsys):
    code, out, _ = run(capsys, "search", "coverage", "--scope", "tiny", "--sample", "3", "--format", "json")
    r = json.loads(out)
    never = set(r["constants_never_produced"])
    assert {"status(_,encircled)", "status(_,fanatic)", "nationality(_,japanese)", "unit_type(_,hero)"} <= never
    assert {"status(_,broken)", "unit_type(_,squad)"}.isdisjoint(never)
    rows = {x["input"]: x for x in r["inputs"]}
    assert any(w.startswith("rout/") for w in rows["status/2"]["constants_never_produced"]["status(_,fanatic)"])
    # a search never asks Voluntary Break: no scope gives vb_scope/1
    assert rows["vb_scope/1"]["scopes"] == [] and "vb_scope/1" in r["never_produced"]


SURRENDER = "rout/A20_21_surrender.lp"
MOP_CAPTOR = "mop_captor(U,X) :- routing(U), status(U,broken), in_building(U,B), mopped(B), in_building(X,B),"


def _folder(tmp_path, text: str):
    (tmp_path / "rout").mkdir(parents=True)
    (tmp_path / SURRENDER).write_text(text)
    return parse_ruleset(str(tmp_path))


def _shipped() -> str:
    from asl_kb.resources import rules_dir

    return (rules_dir() / SURRENDER).read_text()


def test_a_folder_reading_a_removed_predicate_is_stale(tmp_path, capsys):
    """A Mopping-Up captor written with enemy/2, a predicate the rules no
    longer have: said (stderr, JSON `stale`), where it would silently never hold."""
    from asl_kb.committee import stale

    text = _shipped()
    start = text.index(MOP_CAPTOR)
    end = text.index(".\n", start)
    clause = text[start:end]
    old = clause[: clause.index("side(X,S)")] + "side(X,S), attacker(S), armed(X), enemy(U,X)"
    rs = _folder(tmp_path, text[:start] + old + text[end:])
    found = stale.findings(rs)
    line = text[:start].count("\n") + 1
    assert [(f["file"], f["line"], f["kind"], f["predicate"]) for f in found] == [
        (SURRENDER, line, "reads_nothing", "enemy/2")
    ]
    stale.process.kept("committee.stale warned").pop(rs.folder, None)
    lone = tmp_path / "lone.yaml"
    lone.write_text(ADJACENT.replace("- {id: U2, side: german, type: squad, counter: 4-6-7, at: O16}\n", ""))
    code, out, err = run(capsys, "diff", "--to", str(tmp_path), "--format", "json", str(lone))
    assert f"{SURRENDER}:{line}: stale" in err
    assert [f["predicate"] for f in json.loads(out)["stale"]] == ["enemy/2"]
    # the tests' own errata follow the rules they copy
    assert all(stale.findings(parse_ruleset(str(folder))) == [] for folder in sorted(ERRATA.iterdir()))


def test_a_folder_copied_from_an_older_text_names_what_it_undoes(tmp_path, monkeypatch):
    """The folder's file is an earlier text of the shipped file (the shipped
    rules' history, here one earlier text): the clause the shipped rules
    added since, which the folder lacks, is named -- one edit per clause."""
    from asl_kb.committee import stale
    from asl_kb.committee.clauses import text_clauses

    text = _shipped()
    start = text.index("mop_refused(U,X) :- mop_captor(U,X), ss_vs_russian(U,X)")
    end = text.index(".\n", start) + 2
    earlier = text[:start] + text[end:]
    clauses = tuple(c.text for c in text_clauses(earlier.encode()))
    monkeypatch.setattr(stale, "_history", lambda rel: (("0123456789abcdef", clauses),) if rel == SURRENDER else ())
    rs = _folder(tmp_path, earlier)
    found = stale.findings(rs)
    assert [(f["kind"], f["line"], f["against"]) for f in found] == [
        ("drops_later", text[:start].count("\n") + 1, "0123456789ab")
    ]


def test_edits_are_one_per_clause(tmp_path):
    """Three shipped clauses in a row, two deleted and the middle one
    rewritten: three edits, not one "changed" run."""
    from asl_kb.committee import edits

    text = _shipped()
    lines = ["mopped(B) :-", "in_building(U,B) :-", MOP_CAPTOR]
    spans = [(text.index(x), text.index(".\n", text.index(x)) + 2) for x in lines]
    rewritten = text[spans[1][0] : spans[1][1]].replace("building(H,B)", "building(H,B), level(H,0)")
    folder = text[: spans[0][0]] + rewritten + text[spans[2][1] :]
    got = [(e.kind, e.line) for e in edits.edits(_folder(tmp_path, folder))]
    assert [k for k, _ in got] == ["deleted", "changed", "deleted"]
