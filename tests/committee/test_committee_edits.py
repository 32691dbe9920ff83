"""A rules folder's edits (asl_kb/committee/edits.py): found clause by
clause against the shipped rules, and turned into a switch's clauses so
that `search diff` skips the positions they cannot touch. The folder:
tests/data/errata/low-crawl-leaves-enemy, the A10.52 erratum "Low Crawl may
leave an enemy-occupied Location" (the clause barring it deleted)."""

from __future__ import annotations

from pathlib import Path

import clingo

from asl_kb.committee import edits
from asl_kb.committee.compare import compare, same_outcomes
from asl_kb.committee.enumerate import candidates, to_yaml
from asl_kb.committee.relevance import may_touch
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.committee.scope import load_scope
from asl_kb.committee.search import as_switch, judge_diff, to_text
from asl_kb.engines.graph import live
from asl_kb.position.loader import load_position_text
from asl_kb.resources import rules_dir

FOLDER = Path(__file__).resolve().parents[1] / "data" / "errata" / "low-crawl-leaves-enemy"
LOW_CRAWL = "rout/A10_52_low_crawl.lp"
BARRED = "lc_barred(U) :- start(U,L), side(U,SideA), side(E,SideB), SideA != SideB, in_loc(L,E), not guard_of(E,_)."


def test_the_deleted_clause_is_the_one_edit():
    rs = parse_ruleset(str(FOLDER))
    shipped = (rules_dir() / LOW_CRAWL).read_text()
    line = shipped[: shipped.index(BARRED)].count("\n") + 1
    (e,) = edits.edits(rs)
    assert (e.file, e.line, e.rule, e.kind, e.was) == (LOW_CRAWL, line, "A10.52", "deleted", BARRED)
    # and the rule's words the rules file quotes above it
    assert e.sentence.startswith('"Low Crawl cannot be used to exit an enemy-occupied Location."')
    assert e.as_json()["sentence"] == e.sentence


def test_edits_as_a_switch_skip_only_positions_they_cannot_touch():
    a, b = parse_ruleset("current"), parse_ruleset(str(FOLDER))
    off, on = as_switch(a, b)
    assert off.flip == edits.SWITCH and on.complete == off.complete
    text = (on.complete / LOW_CRAWL).read_text()
    assert "not in_force(asl_kb_erratum)" in text and "in_force(asl_kb_erratum)" in text.replace("not ", "")
    scope = load_scope("tiny")
    touched, untouched = [], []
    for c in candidates(scope):
        p = load_position_text(to_yaml(scope, c), f"tiny #{c.index + 1}")
        with off.active():
            (touched if may_touch(off.apply(p), (edits.SWITCH,)) else untouched).append(p)
    # the edited clause reads an enemy in the broken unit's Location: only
    # positions with both units in one hex may be touched
    assert len(touched) == 5 and all(p.units[0].hex == p.units[1].hex for p in touched)
    assert not any(u.hex == v.hex and u.side != v.side for p in untouched for u in p.units for v in p.units)
    # sound on a skipped position beside the enemy: the same outcomes
    beside = next(p for p in untouched if len(p.units) == 2)
    d = compare(beside, a, b)
    assert not d["appeared"] and not d["vanished"]


def test_a_touched_position_differing_only_in_dead_ends_is_not_read():
    """The erratum lets the broken squad Low Crawl out of its enemy's hex,
    but every Location it could crawl to is ADJACENT to that unbroken enemy:
    the answers differ only in rout states no fate is reached from. Without
    those dead ends (graph.live) they are equal -- and so are the outcomes
    read in full under the real rule sets."""
    a, b = parse_ruleset("current"), parse_ruleset(str(FOLDER))
    off, on = as_switch(a, b)
    scope = load_scope("tiny")
    c = next(c for c in candidates(scope) if c.index == 30)
    p = load_position_text(to_yaml(scope, c), "tiny #31")
    assert p.units[0].hex == p.units[1].hex == "O16"
    assert not same_outcomes(p, off, on, explained=True)
    assert same_outcomes(p, off, on, explained=True, live=True)
    d = compare(p, a, b, shortcut=False)
    assert not d["appeared"] and not d["vanished"] and not d["fired_only_in_to"]
    # not a witness, but said: the erratum acts here, on dead ends only
    assert judge_diff("tiny #31", to_yaml(scope, c), a, b, False) == {
        "witness": False,
        "incomplete": [],
        "appeared": [],
        "vanished": [],
        "fired_only_in_from": [],
        "fired_only_in_to": [],
        "dead_ends_only": True,
    }
    # a position where the erratum changes nothing at all is not so marked
    other = next(c for c in candidates(scope) if c.index == 28)
    q = load_position_text(to_yaml(scope, other), "tiny #29")
    dead: list = []
    assert same_outcomes(q, off, on, explained=True, live=True, dead_ends=dead) and not dead


def test_a_search_whose_changes_are_all_dead_ends_warns():
    """Every touched position equal only without dead ends: the report says
    the changed clauses act there, on dead ends only (JSON
    `dead_ends_only`), not a bare "none"."""
    report = {
        "from_label": "current",
        "to_label": "FOLDER",
        "scope": "tiny",
        "complete": True,
        "tried": 53,
        "untouched": 48,
        "dead_ends_only": 5,
        "witnesses": [],
        "to": {"folder": "F"},
    }
    warned = [x for x in to_text(report).split("\n  warning: ")[1:]]
    assert len(warned) == 1 and "5 positions" in warned[0]
    # one touched position with a real difference left out: no such warning
    assert "warning" not in to_text({**report, "dead_ends_only": 4})


def test_live_drops_dead_ends_only():
    """graph.live: a link into a state no leaf is reached from, and what is
    said of that state, go; a start left with dead ends only stays (as its
    own term: it is still a root of the graph)."""
    s = clingo.parse_term
    start = 'rout_state(at_start("U1"),loc("P15",0),0,none,0,start)'
    stuck = 'rout_state(at_start("U2"),loc("P16",0),0,none,0,start)'
    e = 'rout_state(at_start("U1"),loc("P16",0),4,none,1,mv)'
    atoms = [
        s(x)
        for x in (
            f"link({start},b)",
            "link(b,c)",
            'leaf("U1",c)',
            'because(b,"A10.5",x)',
            f"link({start},d)",
            f"link(d,{e})",
            'because(d,"A10.52",y)',
            'interdiction(entry(at_start("U1"),loc("P16",0),mv),"P16","U2")',
            f"link({stuck},f)",
            "fate(c,stay)",
            'because(rout("U1"),"A10.5",must)',
        )
    ]
    kept = {str(x) for x in live(atoms)}
    assert kept == {
        f"link({start},b)",
        "link(b,c)",
        'leaf("U1",c)',
        'because(b,"A10.5",x)',
        "fate(c,stay)",
        'because(rout("U1"),"A10.5",must)',
        stuck,
    }
    assert live(atoms[:4]) == atoms[:4]  # nothing dead: as it was


def test_live_keeps_an_interdictions_explanation_while_a_live_state_names_it():
    """graph.live: an Interdiction (said once per entry(K,L,E): every state
    rout_state(K,L,_,_,_,E)) and its own explanation (subject
    interdiction(H,I), said once per Location and Interdictor) go with the
    last state left that names them, and stay while one does."""
    s = clingo.parse_term
    start = 'rout_state(at_start("U1"),loc("P15",0),0,none,0,start)'
    b = 'rout_state(at_start("U1"),loc("P16",0),2,none,1,mv)'
    d = 'rout_state(at_start("U1"),loc("P17",0),2,none,1,mv)'
    d2 = 'rout_state(at_start("U1"),loc("P16",0),4,none,1,mv)'  # dead, b's entry
    p16 = 'interdiction(entry(at_start("U1"),loc("P16",0),mv),"P16","G1")'
    atoms = [
        s(x)
        for x in (
            f"link({start},{b})",
            f'leaf("U1",{b})',
            p16,
            f"link({start},{d})",
            f"link({d},{d2})",
            'interdiction(entry(at_start("U1"),loc("P17",0),mv),"P17","G1")',
            'because(interdiction("P16","G1"),"A10.53",interdicted("P16","G1"))',
            'because(interdiction("P17","G1"),"A10.53",interdicted("P17","G1"))',
        )
    ]
    kept = {str(x) for x in live(atoms)}
    assert kept == {
        f"link({start},{b})",
        f'leaf("U1",{b})',
        p16,
        'because(interdiction("P16","G1"),"A10.53",interdicted("P16","G1"))',
    }


def test_a_finding_that_comes_from_a_folder_s_includes_names_them(tmp_path):
    """An empty rout.lp leaves every broken unit without a legal outcome: not
    something the shipped rules give too, but the folder's #include lines
    deleted (no clause of it changed)."""
    from asl_kb.committee.gaps import check_under

    folder = tmp_path / "empty-rout"
    folder.mkdir()
    (folder / "rout.lp").write_text("")
    rs = parse_ruleset(str(folder))
    position = load_position_text(
        "name: small\nattacker: russian\nmap: {area: [A1, E5]}\nunits:\n"
        "  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: D4, status: [broken]}\n"
        "  - {id: G1, side: german, type: squad, counter: 4-6-7, at: E1}\n",
        "small.yaml",
    )
    (f,) = check_under(rs.apply(position), rs)["findings"]
    assert f["kind"] == "no_legal_outcome" and not f.get("also_in_shipped_rules")
    (e,) = f["edits"]
    assert (e["file"], e["edit"]) == ("rout.lp", "deleted") and e["was"].startswith('#include "rout/doc.lp".')
