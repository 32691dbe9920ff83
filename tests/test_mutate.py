"""make mutate (asl_kb.mutate): mutants spliced by clingo's locations, the
include trees, and a run of the worker pool on a tiny rules folder."""
from __future__ import annotations

from pathlib import Path

import clingo

from asl_kb.mutate.mutants import DELETE, NEGATE, file_mutants, include_tree, rule_files
from asl_kb.mutate.pool import Pool

MAIN = '#include "ch/r.lp".\n#show ok/0.\n'
R = (b'% A1.1 a rule \xe2\x80\x94 with a dash\n'
     b'#program base.\n'
     b'a(1). a(2).\n'
     b'b(X) :- a(X), not c(X).   % A1.2\n'
     b'ok :- b(2),\n    not b(3).\n'
     b'says(a, "wording").\n')


def _rules(tmp: Path) -> Path:
    (tmp / "ch").mkdir(parents=True)
    (tmp / "main.lp").write_text(MAIN)
    (tmp / "ch" / "r.lp").write_bytes(R)
    return tmp


def test_mutants_delete_each_clause_and_negate_each_body_literal(tmp_path):
    rules = _rules(tmp_path / "rules")
    ms = file_mutants(rules, "ch/r.lp")
    deleted = [m.clause for m in ms if m.kind == DELETE]
    assert deleted == ["a(1).", "a(2).", "b(X) :- a(X), not c(X).", "ok :- b(2), not b(3)."]
    negated = {(m.literal, m.replacement.decode()) for m in ms if m.kind == NEGATE}
    assert negated == {("a(X)", "not a(X)"), ("not c(X)", "c(X)"), ("b(2)", "not b(2)"), ("not b(3)", "b(3)")}
    assert file_mutants(rules, "main.lp") == []          # #include and #show are not clauses


def test_splice_keeps_comments_and_layout(tmp_path):
    rules = _rules(tmp_path / "rules")
    m = next(m for m in file_mutants(rules, "ch/r.lp") if m.literal == "not c(X)")
    text = m.apply(R)
    assert text == R.replace(b"not c(X)", b"c(X)")
    assert m.line == 4
    d = next(m for m in file_mutants(rules, "ch/r.lp") if m.kind == DELETE and m.clause.startswith("ok"))
    assert d.apply(R) == R.replace(b"ok :- b(2),\n    not b(3).", b"")
    clingo.ast.parse_string(d.apply(R).decode(), lambda st: None)    # still parses


def test_include_tree_and_file_choice(tmp_path):
    rules = _rules(tmp_path / "rules")
    assert include_tree(rules, "main.lp") == {"main.lp", "ch/r.lp"}
    assert rule_files(rules, ["rules/ch/r.lp"]) == ["ch/r.lp"]
    assert rule_files(rules, ["ch/*.lp"]) == ["ch/r.lp"]


class TinySuite:
    """Two cases: 'ok' holds (pins every clause on ok's way), 'a2' says a(2) is a fact."""
    name = "tiny"

    def case_files(self):
        return ["ok", "a2"]

    def run_case(self, case):
        from asl_kb.asp.control import new_control
        ctl = new_control("main.lp", "#show a/1.")
        ctl.ground([("base", [])])
        got = []
        ctl.solve(on_model=lambda m: got.extend(str(s) for s in m.symbols(shown=True)))
        want = {"ok": "ok", "a2": "a(2)"}[case]
        return [] if want in got else [f"{want} missing"]


def test_pool_runs_cases_against_each_mutant(tmp_path):
    rules = _rules(tmp_path / "rules")
    ms = file_mutants(rules, "ch/r.lp")
    pool = Pool(2, f"{TinySuite.__module__}:TinySuite", rules)
    try:
        got = {}
        tasks = [(m.id, m.file, m.apply(R), ["a2", "ok"], 60.0) for m in ms]
        for key, res, crash in pool.run(tasks):
            assert crash is None
            got[key] = res[-1]["status"]
    finally:
        pool.close()
    by = {(m.kind, m.literal or m.clause): got[m.id] for m in ms}
    assert by[(DELETE, "a(1).")] == "pass"               # survives: nothing pins a(1)
    assert by[(DELETE, "a(2).")] == "fail"
    assert by[(NEGATE, "not c(X)")] == "fail"            # c/1 never holds: no b/1
    assert by[(NEGATE, "a(X)")] == "error"               # X unsafe: no longer grounds
    assert by[(NEGATE, "not b(3)")] == "fail"
