"""What a search works out once per process (asl_kb/committee/judging.py)
answers as the plain path does (engines/diff.py switches_in_force,
engines/legality.py require_legal): on every position of a scope, under
every shipped switch and every erratum of tests/data/errata, a search's
verdicts are the same with and without it."""

from pathlib import Path

import pytest

from asl_kb.committee import judging, search
from asl_kb.committee.enumerate import candidates, to_yaml
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.committee.scope import load_scope
from asl_kb.engines import diff, legality
from asl_kb.engines.legality import PositionRuleError
from asl_kb.position.loader import load_position_text, switch_names

ROOT = Path(__file__).resolve().parents[2]
ERRATA = ROOT / "tests" / "data" / "errata"
CURRENT = parse_ruleset("current")
#: a Guard of the prisoner's own side (A20.5): a position that breaks a rule
BAD = (
    "name: bad\nattacker: russian\nunits:\n"
    "  - {id: R2, side: russian, type: squad, counter: 4-4-7, at: L3}\n"
    "  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: L3, guard: R2}\n"
)


def _positions(scope: str, n: int | None = None) -> list[tuple[str, str]]:
    s = load_scope(scope)
    out = []
    for c in candidates(s):
        out.append((f"{s.name} #{c.index + 1}", to_yaml(s, c)))
        if n is not None and len(out) >= n:
            break
    return out


def _rule_sets(name: str):
    if (ERRATA / name).is_dir():
        return CURRENT, parse_ruleset(str(ERRATA / name), key="--to")
    return CURRENT, CURRENT.flipped(name)


def _plain(monkeypatch) -> None:
    """judging's answers worked out anew each time (the plain path)."""
    monkeypatch.setattr(judging, "switches_in_force", diff.switches_in_force)
    monkeypatch.setattr(judging, "require_legal", legality.require_legal)
    import asl_kb.committee.compare as compare

    monkeypatch.setattr(compare, "switches_in_force", diff.switches_in_force)
    monkeypatch.setattr(compare, "require_legal", legality.require_legal)


def test_switches_in_force_as_the_plain_path():
    p = load_position_text(_positions("tiny", 1)[0][1], "p")
    for rs in (CURRENT, parse_ruleset("prior"), CURRENT.flipped("mop_up_any_unit"), CURRENT.flipped("stack_surrender")):
        with rs.active():
            q = rs.apply(p)
            assert judging.switches_in_force(q) == diff.switches_in_force(q)
            assert judging.switches_in_force(q) == diff.switches_in_force(q)  # (kept)
    on = CURRENT.flipped("mop_up_any_unit").apply(p)
    assert "mop_up_any_unit" in judging.switches_in_force(on) or "mop_up_any_unit" in judging.switches_in_force(p)
    assert judging.switches_in_force(on) != judging.switches_in_force(p)


def test_a_position_breaking_a_rule_is_refused_each_time():
    bad = load_position_text(BAD, "bad.yaml")
    for _ in range(2):  # (never kept as legal)
        with pytest.raises(PositionRuleError) as e:
            judging.require_legal(bad)
        assert [(v.rule, v.clause.split("(")[0], v.key) for v in e.value.violations] == [
            ("A20.5", "guard_on_own_side", "units[1].guard")
        ]
    judging.require_legal(load_position_text(_positions("tiny", 1)[0][1], "p"))


def test_legality_reads_the_switches_where_a_rules_folder_makes_it(tmp_path):
    # position.lp of this folder refuses every position under prior rules:
    # its answer cannot be kept without the version
    (tmp_path / "core").mkdir()
    shipped = (ROOT / "rules" / "core" / "position_checks.lp").read_text()
    (tmp_path / "core" / "position_checks.lp").write_text(
        shipped + '\nviolated("A20.5", under_prior(x)) :- version(prior).\n'
    )
    folder = parse_ruleset(str(tmp_path))
    p = load_position_text(_positions("tiny", 1)[0][1], "p")
    with folder.active():
        judging.require_legal(p)
        with pytest.raises(PositionRuleError):
            judging.require_legal(parse_ruleset("prior").apply(p))


CASES = sorted(switch_names()) + sorted(p.name for p in ERRATA.iterdir())


@pytest.mark.parametrize("name", CASES)
def test_every_position_of_a_scope_as_the_plain_path(name):
    """Every position of scope tiny under the rule sets of every switch and
    erratum: the switches in force and the legality judging.py keeps are
    the plain path's."""
    for rs in _rule_sets(name):
        with rs.active():
            for n, t in _positions("tiny"):
                p = rs.apply(load_position_text(t, n))
                assert judging.switches_in_force(p) == diff.switches_in_force(p)
                judging.require_legal(p)
                assert not legality.violations(p)


@pytest.mark.parametrize("name", CASES)
def test_a_search_judges_as_the_plain_path(monkeypatch, name):
    """make test-slow: positions of scope tiny (every one under a switch,
    the first 12 under an erratum: each is run in full) judged with and
    without what judging.py keeps: the same verdicts."""
    a, b = _rule_sets(name)
    jobs = _positions("tiny", 12 if (ERRATA / name).is_dir() else None)
    kept = [search.judge_diff(n, t, a, b, False) for n, t in jobs]
    _plain(monkeypatch)
    assert [search.judge_diff(n, t, a, b, False) for n, t in jobs] == kept


def test_a_few_positions_judge_as_the_plain_path(monkeypatch):
    # make test's sample of the above: an erratum, and a version (the
    # switches it differs in), the first positions of scope tiny
    for a, b, n in ((*_rule_sets("captor-in-cover"), 2), (CURRENT, parse_ruleset("prior"), 1)):
        jobs = _positions("tiny", n)
        kept = [search.judge_diff(n, t, a, b, False) for n, t in jobs]
        with monkeypatch.context() as m:
            _plain(m)
            assert [search.judge_diff(n, t, a, b, False) for n, t in jobs] == kept
