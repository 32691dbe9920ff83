"""What the rules and the engine take for granted about the facts asp/facts.py writes."""
import re
import sys
from pathlib import Path

from asl_kb.asp.facts import position_facts
from asl_kb.position.loader import load_position, load_position_text
from asl_kb.resources import cases_dir

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from generate import generate_open, generate_position  # noqa: E402

_COST = re.compile(r"^cost\((loc\(.*?\)),(loc\(.*?\)),\d+\)\.$", re.M)
_ADJACENT = re.compile(r"^adjacent\((loc\(.*?\)),(loc\(.*?\))\)\.$", re.M)


def test_a_step_cost_is_given_only_between_adjacent_locations():
    """rules/rout/doc.lp: cost/3 is given only for ADJACENT Locations, so the
    step clauses (step/4, reachable/4, back/5, Low Crawl, free_reach/4) read
    it without adjacent/2 beside it."""
    positions = [load_position(f) for f in sorted(cases_dir().rglob("*.yaml"))]
    positions += [load_position_text(generate_position(2, 10, 0, spread=True), "spread"),
                  load_position_text(generate_open(0), "open")]
    costs = 0
    for p in positions:
        facts = position_facts(p)
        adjacent = set(_ADJACENT.findall(facts))
        steps = _COST.findall(facts)
        costs += len(steps)
        assert set(steps) <= adjacent, p.name
    assert costs > 10_000          # the positions above do give step costs


def test_facts_reach_the_grounder_as_facts_however_they_are_written():
    """asp/control.py hands plain facts to clingo in aspif: a fact written
    twice, several facts on a line, a string holding periods or a pool's
    `;` or a letter outside ASCII (aspif counts bytes), an interval and a
    rule beside them all reach the grounder as facts (a symbol output twice
    in aspif would be an atom of its own, no fact)."""
    import clingo
    from asl_kb.asp.control import add_facts
    ctl = clingo.Control(["--warn=none"])
    add_facts(ctl, 'status("G",unarmed).\nstatus("G",unarmed).\nversion(current). phase(rout).\n'
                   'erratum_switch("A20.21",on).\nunit("a;b. c").\nunit("q\\"x.").\nunit("Düren").\nn(1..2).\n'
                   'derived(X) :- n(X).\n')
    ctl.ground([("base", [])])
    atoms = {str(a.symbol): a.is_fact for a in ctl.symbolic_atoms}
    assert atoms == {a: True for a in ('status("G",unarmed)', "version(current)", "phase(rout)",
                                       'erratum_switch("A20.21",on)', 'unit("a;b. c")', 'unit("q\\"x.")',
                                       'unit("Düren")',
                                       "n(1)", "n(2)", "derived(1)", "derived(2)")}

