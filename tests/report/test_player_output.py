"""A player's screen (issue 30): for every bundled position the default text
answers "where can it go, at what risk, and why" in at most 40 lines per
unit, units of one Location with the same fates shown once as a stack; the
explanations are said once (no two lines of one rule differing in one unit
id); the fate numbers are those of the JSON's `fates`, and the odds of a
rout add up to every roll of the dice."""

import re
from pathlib import Path
from collections import Counter

import pytest

import _runs
from asl_kb.position.loader import load_position
from asl_kb.report.glance import MAX_LINES, stacks, unit_lines
from asl_kb.report.render import to_text
from asl_kb.resources import cases_dir
from conftest import sampled

#: the issue's table-side question (a squad, leader and HS stacked in the
#: open, a Known and a concealed enemy squad in woods at range 3: ~1,700
#: fates a unit): a test position, not a bundled one, so that the suites
#: over every bundled position (schema, pages, digests) do not pay for it
BIG = Path(__file__).resolve().parents[1] / "data" / "player-stack-in-the-open.yaml"
CASES = sorted(cases_dir().rglob("*.yaml")) + [BIG]


def _id(p: Path) -> str:
    return str(p.relative_to(cases_dir())) if p != BIG else "tests/data/" + BIG.name


def test_the_big_stack_case_holds():
    """Its expectations (the hand-worked odds beside them) as a bundled
    case's are held (tests/rules/test_cases.py)."""
    from tools.casebook import run_case

    assert not run_case(BIG)


def _result(path):
    return _runs.outcomes(load_position(path))


@pytest.mark.parametrize("path", sampled(CASES), ids=[_id(p) for p in CASES])
def test_default_text_is_one_screen_per_unit_or_stack(path):
    r = _result(path)
    shown = stacks(r.units)
    assert sorted(u.id for s in shown for u in s) == sorted(u.id for u in r.units)
    for stack in shown:
        # a stack: one Location, the same fates
        assert len({(u.at, tuple(f.key for f in u.fates)) for u in stack}) == 1
        lines = unit_lines(stack)
        assert len(lines) <= MAX_LINES, "\n".join(lines)
        # every [n] printed is a fate of the unit, and names what `--all` numbers n
        for m in re.finditer(r"\[(\d+)(?:-(\d+))?", "\n".join(lines)):
            lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
            assert 1 <= lo <= hi <= len(stack[0].fates)
        # explanations once: no two lines of one rule that differ in one word only
        body = [ln.strip() for ln in lines if ln.strip().startswith("[A") or " only: [" in ln]
        for i, a in enumerate(body):
            for b in body[i + 1 :]:
                ta, tb = a.split(), b.split()
                if len(ta) == len(tb) and ta[0] == tb[0]:
                    assert sum(x != y for x, y in zip(ta, tb)) != 1, (a, b)


@pytest.mark.parametrize("path", sampled(CASES), ids=[_id(p) for p in CASES])
def test_the_odds_add_up(path):
    for u in _result(path).units:
        for f in u.fates:
            if f.kind != "rout" and not (f.interdiction or f.optional_interdiction):
                # (a surrender or elimination has odds when it is reached through Interdiction)
                assert f.odds is None
                continue
            for o in [f.odds] + list(f.odds_with_leader or ()):
                if o is None:
                    continue
                stops = sum(p.ways for p in o.pinned) + sum(p.ways for p in o.stopped or ())
                assert o.intact + o.reduced + stops + o.eliminated == o.of
                # 6^K: at least 36^nmcs (two dice each), more with a LLMC or a Wound Severity dr
                assert o.of % 36**o.nmcs == 0
                # one NMC per Interdiction Location entered: a re-entered
                # Location counts once per entry (A10.53, facts/rout/A10.53-re-entry.yaml)
                entries = Counter(i.at for i in f.interdiction) | Counter(i.at for i in f.optional_interdiction)
                assert o.nmcs == (0 if f.low_crawl else sum(entries.values()))


def test_the_big_stack_fits_one_screen_per_unit():
    """The issue's position: a broken squad, leader and HS stacked in Open
    Ground with 1,700 fates each: the whole default text is one stack of
    at most 40 lines, where --all lists every fate."""
    r = _result(BIG)
    assert all(len(u.fates) > 1500 for u in r.units)
    text = to_text(r)
    block = text.split("\n\n")[0].splitlines()[1:]  # (the first line names the position)
    assert block[0].startswith("R1, R2, R3 ")
    assert len(block) <= MAX_LINES
    assert len(to_text(r, all=True).splitlines()) > 10 * len(r.units[0].fates)
    # the JSON keeps each unit, each naming its stack
    j = r.to_json()
    assert [u["id"] for u in j["units"]] == ["R1", "R2", "R3"]
    assert all(u["stack"] == ["R1", "R2", "R3"] for u in j["units"])


def test_fate_numbers_are_the_printed_order():
    """--all prints the fates 1, 2, 3 ... in the JSON's order, and the default
    text's ranges point at the fates they name."""
    r = _result(BIG)
    numbered = re.findall(r"^  (\d+)\. (\w+)", to_text(r, all=True), flags=re.M)
    assert [int(n) for n, _ in numbered[: len(r.units[0].fates)]] == list(range(1, len(r.units[0].fates) + 1))
    u = r.units[0]
    for line in unit_lines([u]):
        m = re.match(r"^  \[(\d+)(?:-(\d+))?\] (surrender|eliminated)", line)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
            assert {f.kind for f in u.fates[lo - 1 : hi]} == {m.group(3)}


LLMC_STACK = """
name: a broken squad and its broken leader surrounded
attacker: american
map: {board: "1", default_terrain: open, area: [W1, GG10]}
units:
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: BB8, status: [broken]}
  - {id: L1, side: german, type: leader, counter: 8-1, at: BB8, status: [broken]}
  - {id: A, side: american, type: squad, counter: 6-6-6, at: BB9}
  - {id: B, side: american, type: squad, counter: 6-6-6, at: BB7}
  - {id: C, side: american, type: squad, counter: 6-6-6, at: CC8}
  - {id: D, side: american, type: squad, counter: 6-6-6, at: AA8}
"""


def test_a_stack_is_shown_once_with_what_differs():
    """A squad and its leader with the same fates: one block naming both,
    the surrenders to four captors one line, the leader's LLMC (A10.2) noted
    for him alone; the JSON keeps each unit."""
    from asl_kb.position.loader import load_position_text

    r = _runs.outcomes(load_position_text(LLMC_STACK, "stack.yaml"))
    lines = to_text(r).splitlines()
    assert lines[1].startswith("G1, L1 (german) in BB8, a stack")
    assert sum(1 for ln in lines if re.match(r"^  \[\d+(-\d+)?\] surrender to A, B, C or D ", ln)) == 1
    llmc = [ln for ln in lines if "LLMC for G1" in ln]
    assert llmc and all(ln.strip().startswith("L1") for ln in llmc)
    assert [u["id"] for u in r.to_json()["units"]] == ["G1", "L1"]
