"""asl-kb check: positions the rules leave without a legal outcome or that
break a rule, with the clauses named. (Consistency of the bundled positions
and the broken rule of the over-capacity Guard are cases: `check:` in
facts/*/*.yaml, facts/prisoners/A20.51-over-capacity.yaml; here the clause
term, the exit code and the soft program.)"""

import subprocess
import sys


from asl_kb.engines.check import check
from asl_kb.position.loader import load_position_text
from asl_kb.asp.control import new_control
from conftest import ROOT

OVER = """
name: over capacity
phase: rally
attacker: american
map: {area: [A1, J10]}
units:
  - {id: H, side: american, type: hero, counter: 1-4-9, at: E5}
  - {id: P1, side: german, type: squad, counter: (1)-0-6, at: E5, guard: H}
  - {id: P2, side: german, type: squad, counter: (1)-0-6, at: E5, guard: H}
"""


def test_a_guard_over_capacity_breaks_a20_51():
    r = check(load_position_text(OVER, "<over>"))
    assert not r["consistent"]
    [finding] = r["findings"]
    [clause] = finding["clauses"]
    assert finding["kind"] == "position_breaks_rule"
    assert (clause["rule"], clause["violated"]) == ("A20.51", "over_capacity(H)")
    # the Guard's line in the file, and a sentence naming it (issue 27)
    h = next(u for u in load_position_text(OVER, "<over>").units if u.id == "H")
    assert clause["at"].startswith(f"<over>:{h.line}: units[")
    assert "H" in clause["says"] and clause["says"] != clause["violated"]


def test_cli_exit_code_1_when_not_consistent(tmp_path):
    f = tmp_path / "over.yaml"
    f.write_text(OVER)
    out = subprocess.run([sys.executable, "-m", "asl_kb", "check", str(f)], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1 and f"{f}:" in out.stdout and "[A20.51]" in out.stdout


def test_phase_conflicts_are_named_by_the_soft_program():
    """A fate that exists only under No Quarter while nothing can invoke it:
    the optimal soft model names A20.3's clause."""
    ctl = new_control(
        "check.lp",
        'version(current). phase_unit("U",german,1). start("U",loc("E5",0)). '
        'enemy_side("U",american). fate_option("U",0,1).',
        ("--opt-mode=optN", "0"),
    )
    ctl.ground([("base", [])])
    found = []
    ctl.solve(on_model=lambda m: found.append(sorted(str(s) for s in m.symbols(shown=True) if s.name == "violated")))
    assert found[-1] == ['violated("A20.3",needs_no_quarter("U"))']
