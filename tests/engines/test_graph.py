"""asl_kb/engines/graph.py: the fate walk figures each fate's key from its
leaf and exposures before building the fate (only the first of a listed
fate's paths is built); the whole-phase program reads fates by that key
(Graph.info), so it must be the built fate's own Fate.key."""

import pytest

from _runs import solve  # the session's rout answers: both tests read every case's
from asl_kb.asp.facts import position_facts
from asl_kb.engines.graph import Graph, merged_info
from asl_kb.engines.outcomes import unit_of, canonical
from asl_kb.position.loader import load_position
from asl_kb.resources import cases_dir
from conftest import sampled


def _cases():
    # every bundled rout and phase case: routs, stays, surrenders, No
    # Quarter eliminations, Failure to Rout, Low Crawls, Interdiction
    for folder in ("rout", "phase"):
        yield from sorted((cases_dir() / folder).glob("*.yaml"))


@pytest.mark.parametrize("path", sampled(_cases()), ids=lambda p: p.stem)
def test_fate_keys_are_the_fates_own(path):
    position = canonical(load_position(path))
    g = Graph(solve(position_facts(position))[0])
    kinds = set()
    for root in g.roots:
        unit = unit_of(root)
        fates = g.fates(root, all_paths=False).values()
        # (the fates no whole-phase rule reads are listed, not keyed)
        info = merged_info(g)
        for f in fates:
            assert (unit, f.key) in info
            kinds.add(f.kind)
    assert kinds or not g.roots


def test_the_cases_hold_every_kind_of_fate():
    kinds, causes = set(), set()
    for path in _cases():
        position = canonical(load_position(path))
        g = Graph(solve(position_facts(position))[0])
        for root in g.roots:
            for f in g.fates(root, all_paths=False).values():
                kinds.add(f.kind)
                causes.add((f.kind, f.cause, bool(f.captor)))
    assert {"rout", "stay", "surrender", "eliminated"} <= kinds
    assert ("eliminated", "no_quarter", True) in causes and ("eliminated", "failure_to_rout", False) in causes
