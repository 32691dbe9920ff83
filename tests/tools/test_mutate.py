"""make mutate (tools.mutate): mutants spliced by clingo's locations, the
include trees, and a run of the worker pool on a tiny rules folder."""

from __future__ import annotations

from pathlib import Path

import clingo
import pytest

from tools.mutate.mutants import DELETE, NEGATE, file_mutants, include_tree, rule_files
from tools.mutate.pool import Pool

MAIN = '#include "ch/r.lp".\n#show ok/0.\n'
R = (
    b"% A1.1 a rule \xe2\x80\x94 with a dash\n"
    b"#program base.\n"
    b"a(1). a(2).\n"
    b"b(X) :- a(X), not c(X).   % A1.2\n"
    b"ok :- b(2),\n    not b(3).\n"
    b'says(a, "wording").\n'
)


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
    assert file_mutants(rules, "main.lp") == []  # #include and #show are not clauses


def test_splice_keeps_comments_and_layout(tmp_path):
    rules = _rules(tmp_path / "rules")
    m = next(m for m in file_mutants(rules, "ch/r.lp") if m.literal == "not c(X)")
    text = m.apply(R)
    assert text == R.replace(b"not c(X)", b"c(X)")
    assert m.line == 4
    d = next(m for m in file_mutants(rules, "ch/r.lp") if m.kind == DELETE and m.clause.startswith("ok"))
    assert d.apply(R) == R.replace(b"ok :- b(2),\n    not b(3).", b"")
    clingo.ast.parse_string(d.apply(R).decode(), lambda st: None)  # still parses


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
    assert by[(DELETE, "a(1).")] == "pass"  # survives: nothing pins a(1)
    assert by[(DELETE, "a(2).")] == "fail"
    assert by[(NEGATE, "not c(X)")] == "fail"  # c/1 never holds: no b/1
    assert by[(NEGATE, "a(X)")] == "error"  # X unsafe: no longer grounds
    assert by[(NEGATE, "not b(3)")] == "fail"


R2 = (
    b"#program base.\n"
    b"a(1). a(2).\n"
    b"b(X) :- a(X), not c(X).\n"
    b"d(X) :- e(X), a(X).\n"
    b"f :- a(X), X > 1, e(Y), Y = X.\n"
    b"#show b/1. #show d/1. #show f/0.\n"
)


def test_probes_say_which_mutants_can_change_a_run(tmp_path):
    """A mutant whose clause (or the body its negation leaves) has no ground
    instance in a run cannot change it (tools/mutate/reach.py); e/1 never
    holds here, so neither d/1's clause nor f's has an instance."""
    from asl_kb.asp.control import keeping_controls, new_control, using_rules
    from tools.mutate.reach import grounded, write_probes

    rules = tmp_path / "rules"
    (rules / "ch").mkdir(parents=True)
    (rules / "main.lp").write_text('#include "ch/r.lp".\n')
    (rules / "ch" / "r.lp").write_bytes(R2)
    probes = write_probes(rules, ["ch/r.lp"], tmp_path / "probed")

    def run(folder):
        with using_rules(folder), keeping_controls() as controls:
            ctl = new_control("main.lp")
            ctl.ground([("base", [])])
            shown = []
            ctl.solve(on_model=lambda m: shown.extend(sorted(str(s) for s in m.symbols(shown=True))))
        return shown, grounded(controls)

    plain, _ = run(rules)
    shown, fired = run(tmp_path / "probed")
    assert shown == plain == ["b(1)", "b(2)"]  # the probes change no answer
    ms = file_mutants(rules, "ch/r.lp")
    may = {
        (m.kind, m.literal or m.clause): probes.may_change(m.id, fired)
        for m in ms
        if not (m.literal == "a(X)" and not m.clause.startswith("d"))
    }
    assert may[(DELETE, "a(1).")] and may[(DELETE, "b(X) :- a(X), not c(X).")]
    assert may[(NEGATE, "not c(X)")]
    assert not may[(DELETE, "d(X) :- e(X), a(X).")]
    assert may[(NEGATE, "e(X)")]  # `not e(X), a(X)` has instances
    assert not may[(NEGATE, "a(X)")] and not may[(DELETE, "f :- a(X), X > 1, e(Y), Y = X.")]
    assert may[(NEGATE, "e(Y)")] and not may[(NEGATE, "X > 1")]
    assert probes.may_change(ms[0].id, None)  # no record: may change


def test_equivalent_marks(tmp_path):
    rules = tmp_path / "rules"
    (rules / "ch").mkdir(parents=True)
    marked = R2.replace(
        b"d(X) :-",
        b"% why d/1\n% equivalent: delete -- e/1 is never\n%   derived\n% equivalent: a(X) -- the same\nd(X) :-",
    )
    (rules / "ch" / "r.lp").write_bytes(marked)
    ms = {(m.kind, m.clause, m.literal): m for m in file_mutants(rules, "ch/r.lp")}
    d = "d(X) :- e(X), a(X)."
    assert ms[(DELETE, d, "")].equivalent == "e/1 is never derived"
    assert ms[(NEGATE, d, "a(X)")].equivalent == "the same"
    assert not ms[(NEGATE, d, "e(X)")].equivalent and not ms[(DELETE, "a(1).", "")].equivalent
    assert not ms[(NEGATE, "b(X) :- a(X), not c(X).", "a(X)")].equivalent
    (rules / "ch" / "r.lp").write_bytes(marked.replace(b"equivalent: a(X)", b"equivalent: g(X)"))
    with pytest.raises(SystemExit, match=r"rules/ch/r.lp:7: equivalent: .*'g\(X\)'"):
        file_mutants(rules, "ch/r.lp")


def test_history_records_each_killer_and_forgets_a_mutant_no_longer_killed(tmp_path):
    """tools/mutate/history.json: the case and run that killed a mutant, by a key
    that survives line shifts; a mutant that is not killed loses its entry."""
    from types import SimpleNamespace
    from tools.mutate import history
    from asl_kb.resources import cases_dir

    a = SimpleNamespace(id="f.lp:3:delete:10", file="rout/f.lp", kind="delete", clause="p :- q.", literal="")
    b = SimpleNamespace(id="f.lp:4:negate:20@q", file="rout/f.lp", kind="negate", clause="p :- q.", literal="q")
    moved = SimpleNamespace(id="f.lp:9:delete:99", file="rout/f.lp", kind="delete", clause="p :- q.", literal="")
    case = str(cases_dir() / "rout" / "A10.5-EX.yaml")
    path = tmp_path / "h.json"
    history.update(
        str(path), [a, b], {a.id: {"status": "killed", "by": case, "run": "as written"}, b.id: {"status": "survived"}}
    )
    got = history.load(str(path))
    assert got[history.key(moved)] == {"case": case, "run": "as written"}  # same clause, other line
    assert history.key(b) not in got
    assert '"rout/A10.5-EX.yaml"' in path.read_text()  # stored relative to facts/
    history.update(str(path), [a], {a.id: {"status": "survived"}})
    assert history.load(str(path)) == {}


def test_unsafe_mutants_are_exactly_the_negations_whose_program_no_longer_grounds(tmp_path):
    """`make mutate` counts a negation that leaves a variable unsafe as an
    error without running a case: told from the clause alone, it must agree
    with grounding the whole program with that mutant in place."""
    import shutil
    from asl_kb.asp import control
    from tools.mutate.mutants import NEGATE, file_mutants, unsafe_mutants
    from asl_kb.resources import rules_dir

    rules = rules_dir()
    unsafe = unsafe_mutants(rules, "check.lp")
    assert unsafe and all(": error: unsafe variables" in m for m in unsafe.values())
    folder = tmp_path / "rules"
    shutil.copytree(rules, folder)
    original = (rules / "check.lp").read_bytes()
    for m in file_mutants(rules, "check.lp"):
        if m.kind != NEGATE:
            continue
        (folder / "check.lp").write_bytes(m.apply(original))
        with control.using_rules(folder):
            try:
                control.new_control("check.lp").ground([("base", [])])
                grounds = True
            except RuntimeError:
                grounds = False
        assert grounds == (m.id not in unsafe), m.id


def test_a_case_runs_the_preferred_runs_first_and_stops_at_the_first_failure(monkeypatch):
    """`make mutate` hands a case the labels of the runs that killed mutants
    like this one: those run first, and the case stops at its first failure."""
    from tools import casebook
    from asl_kb.resources import cases_dir

    path = cases_dir() / "rout" / "A20.21-surrender.yaml"
    labels = [r.label for r in casebook.load_case(path).runs]
    assert len(labels) > 3
    ran = []

    def fake_run(case, r):
        ran.append(r.label)
        return [r.label] if r.label in (labels[1], labels[3]) else []

    monkeypatch.setattr(casebook, "_run", fake_run)
    assert casebook.run_case(path, first_failure=True, prefer=[labels[3], "no such run"]) == [labels[3]]
    assert ran == [labels[3]]
    ran.clear()
    assert casebook.run_case(path, first_failure=True) == [labels[1]]
    assert ran == labels[:2]
