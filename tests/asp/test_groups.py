"""The rout program run on groups of units (asl_kb/asp/groups.py): a group
derives for its units what the whole program derives for them, and a run
cut while a later group is grounded lists the units of the groups done
(issue 27: 1,000 spread broken units with --timeout 10 listed none)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

import _runs
from asl_kb import budget
from asl_kb.asp import groups, workers
from asl_kb.asp.facts import FactBuilder
from asl_kb.engines import outcomes as outcomes_module
from asl_kb.position.loader import load_position, load_position_text
from asl_kb.report.render import to_json

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate import generate_position  # noqa: E402

#: bundled positions whose units the rules couple: a leader routing with a
#: unit (A10.711), a Guard and its prisoners, Passengers and Riders, Mopping
#: Up, Heat of Battle and Disrupted surrenders, concealment, the whole phase
COUPLED = [
    "phase/article-Ex13.yaml",
    "phase/article-Ex6.yaml",
    "immediate/article-Ex8.yaml",
    "immediate/A19.12-entered.yaml",
    "rout/article-Ex12.yaml",
    "rout/note5-passengers-riders.yaml",
    "rout/A20.5-prisoner-low-crawl.yaml",
    "rout/A20.21-surrender.yaml",
    "rout/A10.41-voluntary-break.yaml",
]


def _spread():
    return load_position_text(generate_position(2, 3, 0, spread=True), "spread 2x3")


@pytest.mark.parametrize("name", COUPLED + ["bench:spread-2x3"])
def test_one_hex_a_group_answers_as_the_whole_program(name, monkeypatch):
    """Every unit figured in a group of its own hex (the smallest groups the
    batching makes) gives byte-identical outcomes, --phase and
    --voluntary-break included."""
    p = _spread() if name.startswith("bench:") else load_position(ROOT / "facts" / name)
    options = {"phase": True, "voluntary_break": "A10.41" in name}
    whole = to_json(_runs.outcomes(p, **options))
    monkeypatch.setattr(groups, "GROUP_LOCATIONS", 1)
    fb = FactBuilder(outcomes_module.canonical(p), options["voluntary_break"], tagged=True)
    fb.build()
    figured = [ids for _, ids in groups.groups(fb) if ids]
    assert len(figured) == len({u.hex for u in p.units if u.id in fb.reach}) >= 1
    # (two at a time in worker processes, whatever the cores: asl_kb/asp/workers.py)
    assert to_json(outcomes_module.outcomes(p, jobs=2, **options)) == whole


@pytest.mark.parametrize("name", COUPLED + ["bench:spread-2x3"])
def test_a_worker_builds_the_facts_the_whole_position_gives_its_group(name):
    """Solved on several cores, each group's facts are built for it alone
    (FactBuilder.scoped, in its worker): byte for byte the lines the whole
    position's facts give it, in their order -- one hex a group, the
    smallest groups the batching makes, and two groups."""
    p = _spread() if name.startswith("bench:") else load_position(ROOT / "facts" / name)
    p = outcomes_module.canonical(p)
    vb = "A10.41" in name
    whole = FactBuilder(p, vb, tagged=True)
    whole.build()
    for size in (1, max(1, sum(len(r) for r in whole.reach.values()) // 2)):
        cut = groups.groups(whole, budget=size)
        built = groups.groups(FactBuilder(p, vb, tagged=True), budget=size, jobs=2)
        if len(cut) == 1:
            continue
        assert [ids for _, ids in built] == [ids for _, ids in cut]
        assert all(callable(make) for make, _ in built)
        assert [make() for make, _ in built] == [text for text, _ in cut]


def test_groups_on_several_cores_come_in_a_multiple_of_them():
    """One core: a group closes at GROUP_LOCATIONS. Two: as many groups or
    the next even number, as even as may be, where each keeps
    PARALLEL_LOCATIONS, and two rounds of them (four groups) where each
    can keep it; a small position stays one group."""

    def count(total, jobs):
        return -(-total // groups.group_budget(total, jobs))

    g, floor = groups.GROUP_LOCATIONS, groups.PARALLEL_LOCATIONS
    assert groups.group_budget(g - 1, 1) == g and count(5 * g + 1, 1) == 6
    assert count(g - 1, 2) == 4 and count(5 * g + 1, 2) == 6 and count(4 * g, 2) == 4
    assert count(2 * floor - 1, 2) == 1 and count(2 * floor, 2) == 2
    assert count(4 * floor - 1, 2) == 2 and count(4 * floor, 2) == 4
    assert count(4 * g, 3) == 6 and count(6 * floor, 3) == 6


def test_a_group_takes_only_the_facts_of_its_units_and_their_neighbours(monkeypatch):
    """A group's facts are the whole position's kept to what it names: no
    Location in reach of a unit of another group far away."""
    p = outcomes_module.canonical(_spread())
    fb = FactBuilder(p, tagged=True)
    fb.build()
    monkeypatch.setattr(groups, "GROUP_LOCATIONS", 1)
    parts = groups.groups(fb)
    whole = set(fb.lines)
    assert len([ids for _, ids in parts if ids]) > 1
    for text, figured in parts:
        lines = text.splitlines()
        assert set(lines) <= whole
        for uid in figured:
            assert sum(x.startswith(f'area("{uid}",') for x in lines) == len(fb.reach[uid])
        others = {u for _, ids in parts for u in ids} - set(figured)
        assert not any(x.startswith(f'area("{u}",') for u in others for x in lines)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_cut_while_grounding_a_later_group_lists_the_units_done(monkeypatch, jobs):
    """The deadline passes while the second group is being grounded (in
    this process, or in a worker process: asl_kb/asp/workers.py): the
    answer lists the first group's units, each with the fates the whole run
    gives it, and names the others as not reached."""
    p = _spread()
    whole = to_json(_runs.outcomes(p))
    monkeypatch.setattr(groups, "GROUP_LOCATIONS", 1)
    if jobs == 1:
        starts = {"n": 0}
        real = budget.check

        def check(where):
            if where.startswith("grounding the rout graphs (reading"):
                starts["n"] += 1
                if starts["n"] == 2:
                    raise budget.TimedOut(where)
            real(where)

        monkeypatch.setattr(budget, "check", check)
    else:
        # (the worker of the second group is cut: it reports so to the parent)
        _cut_group(monkeypatch, p, 1, lambda where: budget.TimedOut(where))
    cut = json.loads(to_json(outcomes_module.outcomes(p, timeout=600, jobs=jobs)))
    _assert_cut(cut, whole)
    # what the watchdog would list, were it to fire while the cut answer is
    # written (cli.py): the same units
    assert sorted(u.id for u in outcomes_module.progress()[0]) == sorted(cut["cut"]["done"])


def _cut_group(monkeypatch, p, index, cut):
    """The worker solving group `index` of `p` (asl_kb/asp/workers.py) runs
    `cut(where)` instead of solving."""
    fb = FactBuilder(outcomes_module.canonical(p), tagged=True)
    fb.build()
    text = groups.groups(fb)[index][0]
    real = workers.solve

    def solve(facts, *args, **kwargs):
        if facts == text:
            raise cut("grounding the rout graphs (reading the rules and facts)")
        return real(facts, *args, **kwargs)

    monkeypatch.setattr(workers, "solve", solve)


def test_a_worker_past_the_deadline_is_ended_and_the_units_done_listed(monkeypatch):
    """A worker inside a call no check reaches (here: asleep) when the
    deadline passes: the parent stops waiting, ends it, and answers with
    the units of the groups read before."""
    p = _spread()
    whole = to_json(_runs.outcomes(p))
    monkeypatch.setattr(groups, "GROUP_LOCATIONS", 1)

    def asleep(where):
        time.sleep(60)
        return budget.TimedOut(where)

    _cut_group(monkeypatch, p, 1, asleep)
    t0 = time.monotonic()
    # (the first group: ~0.1 s idle; a loaded machine running the suite on
    # every core took over 1.5 s)
    cut = json.loads(to_json(outcomes_module.outcomes(p, timeout=3.0, jobs=2)))
    assert time.monotonic() - t0 < 30
    _assert_cut(cut, whole)


def _assert_cut(cut, whole):
    whole_units = {u["id"]: u for u in json.loads(whole)["units"]}
    assert cut["complete"] is False and cut["cut"]["while"].startswith("grounding the rout graphs")
    done = cut["cut"]["done"]
    assert done and [u["id"] for u in cut["units"]] == sorted(done, key=outcomes_module.unit_key)
    for u in cut["units"]:
        assert u["fates"] == whole_units[u["id"]]["fates"]
    assert set(done) | set(cut["cut"]["units"]) == set(whole_units) and not set(done) & set(cut["cut"]["units"])
