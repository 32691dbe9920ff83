"""Two rule sets judged on one grounding (asl_kb/asp/once.py solve_each,
outcomes.answers_each) and when equal answers are trusted
(asl_kb/committee/compare.py): the search's fast paths must answer exactly
as two separate runs do."""

from pathlib import Path

from asl_kb.asp.once import solve_each
from asl_kb.committee.compare import _same_answers, compare
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.engines.outcomes import answers, answers_each
from asl_kb.position.loader import load_position

ROOT = Path(__file__).resolve().parents[2]
CURRENT = parse_ruleset("current")


def _pair(case, switch):
    p = load_position(ROOT / "facts" / case)
    flipped = CURRENT.flipped(switch)
    return CURRENT.apply(p), flipped, flipped.apply(p)


def test_one_grounding_answers_as_two_runs():
    # article Ex. 6: the first reading of "the entire rout path" rewinds the unit
    pa, _, pb = _pair("phase/article-Ex6.yaml", "current_rout_path")
    once = answers_each([pa, pb], rout_once=True)
    assert once == [answers(pa), answers(pb)]
    assert once[0] != once[1]  # the external facts really switch the reading


def test_the_prisoners_program_is_grounded_once_too():
    # article Ex. 18: the A20.52 Guard restriction, current vs prior
    p = load_position(ROOT / "facts/prisoners/article-Ex18.yaml")
    prior = parse_ruleset("prior")
    pa, pb = CURRENT.apply(p), prior.apply(p)
    with CURRENT.active():
        once = answers_each([pa, pb])
    assert once[0] == answers(pa)
    with prior.active():
        assert once[1] == answers(pb)
    assert once[0][2:] != once[1][2:]  # the prisoners program's answers differ


def test_variants_differing_in_more_than_facts_are_solved_on_their_own():
    assert solve_each(["a.\nb :- a.\n", "a.\nb :- not a.\n"], entry="switches.lp", staged=False) is None


def test_equal_rout_answers_are_trusted_only_where_the_whole_phase_cannot_tell():
    # a surrender fate: outcomes() runs the whole-phase program, where
    # stack_surrender acts (A20.21 "A stack ... surrenders simultaneously")
    pa, flipped, pb = _pair("rout/A20.21-stack-and-leader.yaml", "stack_surrender")
    assert answers(pa) == answers(pb)
    assert not _same_answers(pa, CURRENT, pb, flipped)
    # current_rout_path has no clause there
    pa, flipped, pb = _pair("rout/A20.21-stack-and-leader.yaml", "current_rout_path")
    assert _same_answers(pa, CURRENT, pb, flipped)
    d = compare(load_position(ROOT / "facts/rout/A20.21-stack-and-leader.yaml"), CURRENT, flipped)
    assert d["appeared"] == d["vanished"] == []
