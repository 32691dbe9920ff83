"""What the rules and the engine take for granted about the facts asp/facts.py writes."""

import re
import sys
from pathlib import Path

from asl_kb.asp.facts import position_facts
from asl_kb.board import hexgrid
from asl_kb.position.loader import load_position, load_position_text
from asl_kb.resources import cases_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from generate import generate_open, generate_position  # noqa: E402

_LOC = r'loc\("([^"]+)",(\d+)\)'
_COST = re.compile(rf"^cost\({_LOC},{_LOC},\d+\)\.$", re.M)
_ADJACENT = re.compile(rf"^adjacent\({_LOC},{_LOC}\)\.$", re.M)
_AREA = re.compile(rf'^area\("[^"]+",{_LOC}\)\.$', re.M)


def _pairs(found) -> set:
    return {((a, int(la)), (b, int(lb))) for a, la, b, lb in found}


def _adjacent_locations(l1, l2) -> bool:
    """ADJACENT (glossary): the same level of adjacent hexes, or consecutive
    levels of one hex."""
    (h1, v1), (h2, v2) = l1, l2
    if h1 == h2:
        return abs(v1 - v2) == 1
    return v1 == v2 and hexgrid.adjacent(h1, h2)


def test_adjacent_locations_are_given_once_as_a_cost_or_as_adjacent():
    """rules/rout/doc.lp: cost/3 is given only for ADJACENT Locations, so the
    step clauses (step/4, reachable/4, back/5, Low Crawl, free_reach/4) read
    it without adjacent/2 beside it; and it stands for adjacent/2 too
    (rules/core/base.lp derives it), which the facts give only for ADJACENT
    Locations a rout may not enter: every two ADJACENT Locations in reach
    are one or the other, never both."""
    positions = [load_position(f) for f in sorted(cases_dir().rglob("*.yaml"))]
    positions += [
        load_position_text(generate_position(2, 10, 0, spread=True), "spread"),
        load_position_text(generate_open(0), "open"),
    ]
    costs = blocked = 0
    for p in positions:
        facts = position_facts(p)
        steps, others = _pairs(_COST.findall(facts)), _pairs(_ADJACENT.findall(facts))
        costs, blocked = costs + len(steps), blocked + len(others)
        assert not steps & others, p.name
        given = steps | others
        assert all(_adjacent_locations(a, b) for a, b in given), p.name
        reach = {(h, int(v)) for h, v in _AREA.findall(facts)}
        for a in reach:
            h, v = a
            for b in [(h, v - 1), (h, v + 1)] + [(n, v) for n in hexgrid.neighbors(h)]:
                if b in reach:
                    assert (a, b) in given, (p.name, a, b)
    assert costs > 10_000 and blocked > 0  # the positions above give both


def test_the_rules_read_a_cost_as_adjacent_too():
    from asl_kb.asp.control import new_control

    position = load_position_text(generate_position(1, 4, 0), "small")
    facts = position_facts(position)
    ctl = new_control("rout.lp", facts)
    ctl.ground([("base", [])])
    derived = {
        (str(a.symbol.arguments[0]), str(a.symbol.arguments[1])) for a in ctl.symbolic_atoms.by_signature("adjacent", 2)
    }
    written = {
        (f'loc("{a}",{la})', f'loc("{b}",{lb})') for a, la, b, lb in _COST.findall(facts) + _ADJACENT.findall(facts)
    }
    assert derived == written and len(written) > 100


def test_facts_reach_the_grounder_as_facts_however_they_are_written():
    """asp/control.py hands plain facts to clingo in aspif: a fact written
    twice, several facts on a line, a string holding periods or a pool's
    `;` or a letter outside ASCII (aspif counts bytes), an interval and a
    rule beside them all reach the grounder as facts (a symbol output twice
    in aspif would be an atom of its own, no fact)."""
    import clingo
    from asl_kb.asp.control import add_facts

    ctl = clingo.Control(["--warn=none"])
    add_facts(
        ctl,
        'status("G",unarmed).\nstatus("G",unarmed).\nversion(current). phase(rout).\n'
        'erratum_switch("A20.21",on).\nunit("a;b. c").\nunit("q\\"x.").\nunit("Düren").\nn(1..2).\n'
        "derived(X) :- n(X).\n",
    )
    ctl.ground([("base", [])])
    atoms = {str(a.symbol): a.is_fact for a in ctl.symbolic_atoms}
    assert atoms == {
        a: True
        for a in (
            'status("G",unarmed)',
            "version(current)",
            "phase(rout)",
            'erratum_switch("A20.21",on)',
            'unit("a;b. c")',
            'unit("q\\"x.")',
            'unit("Düren")',
            "n(1)",
            "n(2)",
            "derived(1)",
            "derived(2)",
        )
    }


def test_plain_facts_told_at_once_are_those_told_line_by_line(monkeypatch):
    """asp/control.py tells a text of plain facts from the whole text at
    once; it must hand clingo what reading it line by line does."""
    from asl_kb.asp import control

    texts = [position_facts(load_position(f)) for f in sorted(cases_dir().rglob("*.yaml"))]
    texts.append(position_facts(load_position_text(generate_position(2, 10, 0, spread=True), "spread")))
    positions = len(texts)
    texts += [
        'p("a.b").\n',
        "p(1).\nq(2). r(3).\n",
        "p(1).\n#external q.\n",
        "p(1..2).\n",
        "p(1).\np(1).\n",
        "p(1;2).\n",
        "p(1).\n\nq(2).\n",
        "P(1).\n",
        "p(1)",
        "p(1).\nq(2):-p(1).\n",
        "p(1). % c\n",
    ]
    told_at_once = []
    for text in texts:
        control._split_facts.cache_clear()
        fast = control._split_facts(text)
        told_at_once.append(control._all_plain(text, len(text.splitlines())))
        control._split_facts.cache_clear()
        with monkeypatch.context() as m:
            m.setattr(control, "_all_plain", lambda text, lines: False)
            slow = control._split_facts(text)
        assert fast == slow, text[:200]
    # the positions' facts are all told at once; of the odd texts, only the
    # one of plain facts, one written twice
    assert all(told_at_once[:positions])
    assert [t for t, at_once in zip(texts[positions:], told_at_once[positions:]) if at_once] == ["p(1).\np(1).\n"]


def test_remembered_facts_rebuild_only_the_header(monkeypatch):
    # remember_facts() (the suite, make mutate): a position under another
    # version, other readings or without No Quarter shares the lines after
    # the header -- not figured again, and the same text as built afresh
    from asl_kb.asp import facts
    from asl_kb.record import replace

    p = load_position(cases_dir() / "rout/A20.21-unconcealed-interdictor.yaml")
    variants = [
        replace(p, rules="prior"),
        replace(p, readings=(("unconcealed_interdictor", False),)),
        replace(p, no_quarter=("german",)),
    ]
    monkeypatch.setattr(facts.process.STATE, "remembered", None)
    fresh = [facts.FactBuilder(v, tagged=True).build() for v in [p] + variants]
    assert len(set(fresh)) == 4
    facts.remember_facts()
    boards = []
    board = facts.FactBuilder.board
    monkeypatch.setattr(facts.FactBuilder, "board", lambda self: boards.append(1) or board(self))
    assert [facts.FactBuilder(v, tagged=True).build() for v in [p] + variants] == fresh
    assert len(boards) == 1
