"""Two rule sets judged on one grounding (asl_kb/asp/once.py) answer as two
runs do -- every program part, the stages too -- and a grounding whose
stages multiply paths of mixed rule sets is given up before it takes the
memory, the two run apart."""

from pathlib import Path

import pytest

from asl_kb.asp import once
from asl_kb.asp.control import new_control
from asl_kb.asp.facts import position_facts
from asl_kb.committee.compare import _applied
from asl_kb.committee.enumerate import candidates, to_yaml
from asl_kb.committee.judging import switches_in_force
from asl_kb.committee.relevance import has_switch_clause
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.committee.scope import load_scope
from asl_kb.engines.outcomes import answers_each, canonical
from asl_kb.position.loader import load_position_text, switch_names

ROOT = Path(__file__).resolve().parents[2]
CURRENT = parse_ruleset("current")


def _positions(scope: str, n: int | None = None):
    s = load_scope(scope)
    for i, c in enumerate(candidates(s)):
        if n is not None and i >= n:
            return
        yield load_position_text(to_yaml(s, c), f"{s.name} #{c.index + 1}")


def _other(name: str):
    return parse_ruleset("prior") if name == "prior" else CURRENT.flipped(name)


def _once_and_apart(p, b) -> tuple[list, list]:
    """The position's answers under CURRENT and b grounded once, and run
    apart (each under its rule set)."""
    pa, pb = _applied(p, CURRENT), _applied(p, b)
    with CURRENT.active():
        both = answers_each([pa, pb], rout_once=True)
    with b.active():
        b_alone = answers_each([pb])
    return both, [_current(p.name, pa), *b_alone]


#: the answers under the current rules, by position (the same for every switch)
_CURRENT: dict = {}


def _current(name: str, pa):
    if name not in _CURRENT:
        with CURRENT.active():
            (_CURRENT[name],) = answers_each([pa])
    return _CURRENT[name]


class _Atoms:
    def __init__(self, sizes):
        self.sizes = iter(sizes)

    def __len__(self):
        return next(self.sizes)

    def __getitem__(self, _):
        return None


class _Control:
    def __init__(self, sizes):
        self.symbolic_atoms = _Atoms(sizes)


def test_stages_multiplying_paths_are_given_up():
    # one rule set's rout graph grows by its frontier; mixed paths multiply
    # (the sizes of the concealed position below, grounded once)
    mixed = [3664, 5667, 9370, 19273, 64566]
    w = once.Watched()
    with pytest.raises(once.Outgrown):
        for stage in range(len(mixed)):
            w.parts(_Control(mixed[stage:]), stage)
    assert len(w.sizes) == len(mixed)  # (given up before the fifth stage's ground call)
    plain = [3663, 5593, 11758, 30056, 63221, 112640, 166246, 217284]
    w = once.Watched()
    for stage in range(len(plain)):
        w.parts(_Control(plain[stage:]), stage)
    # past the bound of atoms, or expected past it, it is given up too
    w = once.Watched(atoms=200_000)
    with pytest.raises(once.Outgrown):
        for stage in range(len(plain)):
            w.parts(_Control(plain[stage:]), stage)
    assert w.sizes[-1] < 200_000


def test_a_few_positions_grounded_once_answer_as_two_runs():
    # make test's sample of the sweep below: a switch of #program base read
    # in the stages, one of #program plan, and a version
    for name in ("interdictor_target_selection", "leave_building_toward_cover", "prior"):
        for p in _positions("tiny", 2):
            both, apart = _once_and_apart(p, _other(name))
            assert both == apart


@pytest.mark.timeout(900)
def _in_rout() -> list[str]:
    """The switches with a clause in the rout program (the others' atoms it
    never reads: grounded once, it is the plain grounding)."""
    with CURRENT.active():
        return [n for n in sorted(switch_names()) if has_switch_clause("rout.lp", (n,))]


@pytest.mark.parametrize("name", ["prior", *_in_rout()])
def test_every_position_of_a_scope_grounded_once_answers_as_two_runs(name):
    """make test-slow: every position of scope tiny under the current rules
    and under each switch of the rout program flipped, and the prior version (and of scope
    concealed, where mixed paths multiply, under unconcealed_interdictor):
    the answers of one grounding are the two runs' exactly -- and so the
    verdict (compare.py: equal answers, no difference). (A search runs only
    the positions a switch's clauses may touch: here every one is, each
    switch's clauses grounded with it left open.)"""
    b = _other(name)
    for scope in ("tiny", "concealed") if name == "unconcealed_interdictor" else ("tiny",):
        for p in _positions(scope):
            both, apart = _once_and_apart(p, b)
            assert both == apart, p.name


def test_a_concealed_interdictor_grounded_once_is_given_up(monkeypatch):
    # a broken squad ADJACENT to a 9-1 leader, a concealed squad beside:
    # under unconcealed_interdictor one run holds 210,000 atoms, the other
    # 6,000, and grounded once the stages grew mixed paths to 1.7 million
    # atoms at the sixth (1.1 GB): given up at the fifth, the two run apart
    p = next(x for i, x in enumerate(_positions("concealed", 3)) if i == 2)
    b = CURRENT.flipped("unconcealed_interdictor")
    pa, pb = canonical(_applied(p, CURRENT)), canonical(_applied(p, b))
    assert set(switches_in_force(pa)) ^ set(switches_in_force(pb)) == {"unconcealed_interdictor"}
    seen: list[once.Watched] = []

    class Seen(once.Watched):
        def __init__(self):
            super().__init__()
            seen.append(self)

    monkeypatch.setattr(once, "Watched", Seen)
    with CURRENT.active():
        assert once.solve_each([position_facts(pa), position_facts(pb)], 1) is None
        (sizes,) = [w.sizes for w in seen]
        assert len(sizes) < 6 and sizes[-1] < 100_000
        # the plain run of the first: many times more atoms than the once grounding held when given up
        ctl = new_control("rout.lp", position_facts(pa))
        from asl_kb.asp.solve import ground_stages

        ground_stages(ctl, 1)
        assert len(ctl.symbolic_atoms) > 2 * sizes[-1]
    both, apart = _once_and_apart(p, b)
    assert both == apart and both[0] != both[1]
