"""clingo's warnings stay on (asl_kb/asp/control.py collects them): the input
predicates are declared (rules/core/defined.lp), so any warning is a real
mistake — a misspelt predicate, a wrong arity, a global variable in an
aggregate. Every bundled position runs through every program: the rout
graphs (plain, --voluntary-break), the whole phase (--phase), check, the
prisoners program, the position checks and the version switches (diff).

A run's usual way in (parsed rules, facts as atoms: asl_kb/asp/control.py)
drops clingo's undefined-atom checks, which misfire there; those depend on
the program alone, not on the position, and are made by a few cases run
with every program loaded as text (control.diagnosing()), where they hold."""

from __future__ import annotations

import functools

import pytest

import _runs
from conftest import SLOW_VB, full_outcomes, sampled
from asl_kb.asp import control
from asl_kb.engines.check import check
from asl_kb.engines.diff import switches_in_force
from asl_kb.engines.outcomes import outcomes
from asl_kb.engines.legality import violations
from asl_kb.engines.prisoners import solve_prisoners
from asl_kb.position.loader import load_position
from asl_kb.resources import cases_dir

POSITIONS = sorted(cases_dir().glob("*/*.yaml"))
RUNS = {
    # the outcomes and check runs are the session's shared ones (tests/_runs.py:
    # their warnings are logged again each time they are handed out)
    "phase": lambda p: _runs.outcomes(p, phase=True),  # the rout graphs too, as plain
    "check": _runs.check,  # runs plain outcomes first
    "prisoners": solve_prisoners,  # also where the position has no prisoners
    "position_checks": violations,
    "switches": switches_in_force,
}


def _warnings(run, position) -> list[str]:
    before = len(control.warnings())
    run(position)
    return [f"{code}: {message}" for code, message in control.warnings()[before:]]


@pytest.mark.parametrize("path", sampled(POSITIONS, chapters=True), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_program_runs_without_a_clingo_warning(path):
    position = load_position(path)
    runs = dict(RUNS)
    if position.phase == "rout":  # A10.41: who may break, before the RtPh
        # the schema's and the stable listings' run where it has --voluntary-break
        runs["voluntary_break"] = (
            (lambda p: _runs.outcomes(p, voluntary_break=True))
            if path.name in SLOW_VB
            else (lambda p: full_outcomes(path))
        )
    found = {name: _warnings(run, position) for name, run in runs.items()}
    assert {name: ws for name, ws in found.items() if ws} == {}


#: cases that between them load every entry program (rules/*.lp) but the
#: why-not one and ground every part of it: the rout stages, concealment's
#: extra ones, Low Crawl, the phase, prisoners, the position checks.
#: (why_not.lp, loaded as text, gets clingo "info" messages on its #program
#: final clauses that read the stages' predicates through `_`, and on its
#: #show legal/1 when no proposal is legal: known, not yet settled.)
DIAGNOSED = [
    "rout/A10.5-EX.yaml",
    "rout/A10.533-EX1.yaml",
    "rout/A10.52-low-crawl.yaml",
    "rout/A10.41-voluntary-break.yaml",
    "phase/article-Ex6.yaml",
    "prisoners/A20.22-EX.yaml",
    "prisoners/A20.5-position-checks.yaml",
]


@functools.lru_cache(maxsize=None)
def _diagnosed(name) -> tuple[set, list]:
    position = load_position(cases_dir() / name)
    before = len(control.warnings())
    with control.diagnosing(), control.tracing_entries() as entries:
        for run in (
            lambda p: outcomes(p, phase=True),
            lambda p: outcomes(p, voluntary_break=True),
            check,
            solve_prisoners,
            violations,
            switches_in_force,
        ):
            run(position)
    return frozenset(entries), [f"{code}: {message}" for code, message in control.warnings()[before:]]


@pytest.mark.parametrize(
    "name", [n if n in DIAGNOSED[:1] + DIAGNOSED[-1:] else pytest.param(n, marks=pytest.mark.slow) for n in DIAGNOSED]
)
def test_every_atom_is_defined(name):
    assert _diagnosed(name)[1] == []


@pytest.mark.slow  # (every diagnosed case run: make test-slow's)
def test_the_diagnosed_cases_load_every_program():
    loaded = set().union(*(_diagnosed(name)[0] for name in DIAGNOSED))
    entries = {p.name for p in control.active_rules().glob("*.lp")} - {"why_not.lp"}
    assert loaded == entries


def test_a_warning_is_caught(tmp_path):
    """The logger sees what clingo says: an undeclared, underived predicate."""
    (tmp_path / "rout.lp").write_text("#program base.\np :- no_such_input(1).\n")
    with control.using_rules(tmp_path), control.diagnosing():
        before = len(control.warnings())
        ctl = control.new_control("rout.lp")
        ctl.ground([("base", [])])
    assert [code for code, _ in control.warnings()[before:]] == ["AtomUndefined"]


def test_the_usual_way_in_keeps_the_other_warnings(tmp_path):
    """Outside diagnosing() only the undefined-atom checks are dropped: an
    operation on a non-number is still reported."""
    (tmp_path / "rout.lp").write_text("#program base.\n#defined n/1.\np(X+1) :- n(X).\n")
    with control.using_rules(tmp_path):
        before = len(control.warnings())
        ctl = control.new_control("rout.lp", "n(a).\n")
        ctl.ground([("base", [])])
    assert [code for code, _ in control.warnings()[before:]] == ["OperationUndefined"]


def test_a_test_process_exits_without_ast_noise():
    # a process that built a Control from parsed statements keeps them
    # (control._PARSED): at exit they are released before clingo.ast's
    # module is torn down, not each with an "Exception ignored in:
    # AST.__del__" line (seen at every pytest worker's exit; a plain script
    # tears its modules down in another order)
    import subprocess
    import sys
    from conftest import ROOT

    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            "tests/cli/test_cli.py::test_check_takes_rules",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout[-500:]
    assert "Exception ignored" not in run.stdout + run.stderr, (run.stdout + run.stderr)[-500:]
