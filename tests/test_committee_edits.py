"""A rules folder's edits (asl_kb/committee/edits.py): found clause by
clause against the shipped rules, and turned into a switch's clauses so
that `search diff` skips the positions they cannot touch. The folder:
tests/data/errata/low-crawl-leaves-enemy, the A10.52 erratum "Low Crawl may
leave an enemy-occupied Location" (the clause barring it deleted)."""
from __future__ import annotations

from pathlib import Path

from asl_kb.committee import edits
from asl_kb.committee.compare import compare
from asl_kb.committee.enumerate import candidates, to_yaml
from asl_kb.committee.relevance import may_touch
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.committee.scope import load_scope
from asl_kb.committee.search import as_switch
from asl_kb.position.loader import load_position_text
from asl_kb.resources import rules_dir

FOLDER = Path(__file__).parent / "data" / "errata" / "low-crawl-leaves-enemy"
LOW_CRAWL = "rout/A10_52_low_crawl.lp"
BARRED = "lc_barred(U) :- start(U,L), side(U,SideA), side(E,SideB), SideA != SideB, in_loc(L,E), not guard_of(E,_)."


def test_the_deleted_clause_is_the_one_edit():
    rs = parse_ruleset(str(FOLDER))
    shipped = (rules_dir() / LOW_CRAWL).read_text()
    line = shipped[:shipped.index(BARRED)].count("\n") + 1
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
