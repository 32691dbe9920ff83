"""LOS on VASL boards as VASL's engine traces it (asl_kb/vasl/los.py, batch.py),
on synthetic archives of VASL's format (tests/vasl_archives.py sample_board:
a hill with a crest, woods, a two-hex stone building, grain, a wall and a
hedge along hexsides; the second board reversed). The answers below are
VASL's own on these archives (its LOS classes run locally on them give the
same)."""

from __future__ import annotations

import random

import pytest

from vasl_archives import boards_folder, sample_board
from asl_kb.vasl.batch import los_many, los_split
from asl_kb.vasl.layout import BoardSpec
from asl_kb.vasl.realmap import RealMap


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    folder = boards_folder(tmp_path_factory.mktemp("vasl") / "boards", {"91": sample_board(), "92": sample_board()})
    return RealMap((BoardSpec("91"), BoardSpec("92", 1, 0, reversed=True)), folder)


def los(real, a: str, b: str):
    ah, _, al = a.partition("@")
    bh, _, bl = b.partition("@")
    r = real.los(real.layout.parse(ah), int(al or 0), real.layout.parse(bh), int(bl or 0))
    return ("blocked" if r.blocked else "clear"), real.hex_at(r.at), r.hindrance


@pytest.mark.parametrize(
    "a, b, want",
    [
        # a blind hex behind a crest: from the level-2 summit over the
        # level-1 ridge, the hex right behind it is blind (B10.23), two
        # behind it is seen
        ("91C5", "91I6", ("blocked", "91H5", 0)),
        ("91C5", "91J6", ("clear", None, 0)),
        # woods higher than both ends (A6.2)
        ("91D2", "91G2", ("blocked", "91E2", 0)),
        # grain: a hindrance
        ("91M2", "91P2", ("clear", None, 1)),
        # a wall across the line, both ends at its level (B9.2)
        ("91S4", "91S7", ("blocked", "91S5", 0)),
        # a wall along the hexspine the line runs on: beside both ends it is
        # ignored; farther it blocks (B9.2)
        ("91R5", "91T5", ("clear", None, 0)),
        ("91P5", "91V5", ("blocked", "91S5", 0)),
        # a hedge likewise
        ("91T3", "91V3", ("clear", None, 0)),
        ("91R3", "91X3", ("blocked", "91U3", 0)),
        # a building's upper level sees over the woods and the building
        ("91K8@2", "91E3", ("clear", None, 0)),
        ("91J8", "91M8", ("blocked", "91K8", 0)),
        # the building's levels: no stairway drawn, no LOS from one to another
        ("91K8@1", "91K8", ("blocked", "91K8", 0)),
        # across the seam onto the reversed board, and on it
        ("91A1", "92A1", ("blocked", "91E2", 0)),
        ("92C5", "92I6", ("blocked", "92H5", 0)),
    ],
)
def test_los_as_vasl_traces_it(real, a, b, want):
    assert los(real, a, b) == want


def test_many_lines_at_once_are_the_pixel_by_pixel_trace(real):
    """The batch (asl_kb/vasl/batch.py) against VASL's trace at every
    pixel (Tracer.los), on random pairs of Locations of the two boards."""
    rnd = random.Random(42)
    names = real.layout.hexes()
    pairs = []
    while len(pairs) < 40:
        a, b = rnd.choice(names), rnd.choice(names)
        if real.layout.distance(a, b) > 10:
            continue
        la = rnd.choice([0, 0, 1, 2]) if real.levels_of(a) else 0
        lb = rnd.choice([0, 0, 1, 2]) if real.levels_of(b) else 0
        pairs.append((real.location(a, la), real.location(b, lb)))
    tracer = real.tracer
    traced = [tracer.los(s, t) for s, t in pairs]
    assert los_many(tracer, pairs) == traced
    # half of them in a child process: the same answers
    assert los_split(tracer, pairs, at_least=2) == traced
    # what the rules ask (where=False): blocked or not, the clear ones' hindrance
    quick = los_many(tracer, pairs, where=False)
    assert [(r.blocked, 0 if r.blocked else r.hindrance) for r in quick] == [
        (r.blocked, 0 if r.blocked else r.hindrance) for r in traced
    ]


class _Boards:
    """What the rules' LOS (asl_kb/vasl/sight.py) reads of a position: its
    boards, nothing painted, no SMOKE, no `los:` overrides."""

    def __init__(self, real):
        self.real, self.grid = real, real.layout
        self.smoke, self.terrain = (), {}
        self.los_blocked = self.los_clear = self.los_hindrance = ()


def test_the_rules_lines_are_the_pixel_by_pixel_trace(real, monkeypatch):
    """The rules' path (sight.py: the lines a hex's core surely blocks told
    untraced, cores.py; the others traced together, where=False) against
    VASL's trace at every pixel, from beside the building (lines through its
    core) and from its upper level."""
    from asl_kb.vasl import cores
    from asl_kb.vasl.sight import RealLos

    told = []
    screen = cores.blocked_by_cores
    monkeypatch.setattr(cores, "blocked_by_cores", lambda *a: told.append(hit := screen(*a)) or hit)
    sight = RealLos(_Boards(real))
    pairs = [
        (a, la, b, 0)
        for a, la, rings in (("91J8", 0, (3, 5)), ("91K8", 2, (4,)))
        for b in real.layout.within(a, max(rings))
        if real.layout.distance(a, b) in rings
    ]
    sight.prefetch(pairs)
    assert sum(int(hit.sum()) for hit in told) > 0  # some lines told blocked untraced
    tracer = real.tracer
    for a, la, b, lb in pairs:
        r = tracer.los(real.location(a, la), real.location(b, lb))  # traced from a
        assert sight.los(a, la, b, lb) == ((False, 0) if r.blocked else (True, r.hindrance)), (a, la, b)


def test_the_rules_read_los_from_the_unit_whose_los_matters(real):
    """VASL's LOS from the building's upper level K8@2 to G2 is blocked (by
    the ridge at H3), from G2 to K8@2 clear: an artefact of its pixels (A6.1
    has LOS reciprocal). A `los(L,E,N)` fact is the LOS of the enemy unit E
    (it fires, interdicts, forces the rout, is Known): traced from E's
    Location to L, both ways the viewshed scans go (from E's spot, or from
    each Location in reach)."""
    from collections import namedtuple

    from asl_kb.asp.facts import _seen
    from asl_kb.vasl.sight import RealLos

    sight = RealLos(_Boards(real))
    assert sight.los("91K8", 2, "91G2", 0) == (False, 0) and sight.los("91G2", 0, "91K8", 2) == (True, 0)
    Unit = namedtuple("Unit", "hex level side")
    watchers = [Unit("91K8", 2, "german")]
    sides_at = {("91G2", 0): frozenset({"russian"}), ("91G1", 0): frozenset({"russian"})}
    for from_watchers in (True, False):
        seen = _seen(RealLos(_Boards(real)), sides_at, watchers, from_watchers)
        assert seen[("91G1", 0)] == {("91K8", 2): (True, 0)}  # seen
        assert not seen[("91G2", 0)].get(("91K8", 2), (False, 0))[0], from_watchers  # K8@2 does not see G2
