"""clingo's warnings stay on (asl_kb/asp/control.py collects them): the input
predicates are declared (rules/core/defined.lp), so any warning is a real
mistake — a misspelt predicate, a wrong arity, a global variable in an
aggregate. Every bundled position runs through every program: the rout
graphs (plain, --voluntary-break), the whole phase (--phase), check, the
prisoners program, the position checks and the version switches (diff)."""
from __future__ import annotations

import pytest

import _runs
from conftest import SLOW_VB, full_outcomes
from asl_kb.asp import control
from asl_kb.engines.diff import switches_in_force
from asl_kb.engines.legality import violations
from asl_kb.engines.prisoners import solve_prisoners
from asl_kb.position.loader import load_position
from asl_kb.resources import cases_dir

POSITIONS = sorted(cases_dir().glob("*/*.yaml"))
RUNS = {
    # the outcomes and check runs are the session's shared ones (tests/_runs.py:
    # their warnings are logged again each time they are handed out)
    "phase": lambda p: _runs.outcomes(p, phase=True),    # the rout graphs too, as plain
    "check": _runs.check,                                # runs plain outcomes first
    "prisoners": solve_prisoners,       # also where the position has no prisoners
    "position_checks": violations,
    "switches": switches_in_force,
}


def _warnings(run, position) -> list[str]:
    before = len(control.WARNINGS)
    run(position)
    return [f"{code}: {message}" for code, message in control.WARNINGS[before:]]


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_program_runs_without_a_clingo_warning(path):
    position = load_position(path)
    runs = dict(RUNS)
    if position.phase == "rout":   # A10.41: who may break, before the RtPh
        # the schema's and the stable listings' run where it has --voluntary-break
        runs["voluntary_break"] = (lambda p: _runs.outcomes(p, voluntary_break=True)) if path.name in SLOW_VB \
            else (lambda p: full_outcomes(path))
    found = {name: _warnings(run, position) for name, run in runs.items()}
    assert {name: ws for name, ws in found.items() if ws} == {}


def test_a_warning_is_caught(tmp_path):
    """The logger sees what clingo says: an undeclared, underived predicate."""
    (tmp_path / "rout.lp").write_text("#program base.\np :- no_such_input(1).\n")
    with control.using_rules(tmp_path):
        before = len(control.WARNINGS)
        ctl = control.new_control("rout.lp")
        ctl.ground([("base", [])])
    assert [code for code, _ in control.WARNINGS[before:]] == ["AtomUndefined"]
