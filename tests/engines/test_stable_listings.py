"""Same input, same output, whatever the order of the file (issue 11, item 4):
reversing the units list of every bundled position leaves every listing —
units, fates, summaries, whole-phase outcomes, prisoners' options — byte-
identical, in JSON, in the default text and with --all."""

from asl_kb import record
from pathlib import Path

import pytest

from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position
from asl_kb.report.render import to_json, to_text

from conftest import FACTS, SLOW_VB, full_outcomes, sampled

POSITIONS = sorted(FACTS.glob("*/*.yaml"))
# (SLOW_VB: a few positions are compared without --voluntary-break; that
# listing is built by the same code as the units', from the same canonical
# order.)


def _render(r):
    return to_json(r), to_text(r), to_text(r, all=True)


def _outputs(position, **kw):
    return _render(outcomes(position, **kw))


def _reversed(position):
    return record.replace(position, units=tuple(reversed(position.units)))


@pytest.mark.parametrize("path", sampled(POSITIONS), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_reversing_the_units_changes_no_listing(path: Path):
    p = load_position(path)
    kw = {"phase": True, "limit": 10, "voluntary_break": path.name not in SLOW_VB}
    a, b = _render(full_outcomes(path)), _outputs(_reversed(p), **kw)
    for name, x, y in zip(("json", "text", "text --all"), a, b):
        assert x == y, f"{name} differs when the units are reversed"


def test_units_are_listed_by_rank_then_id():
    """A10.5: ATTACKER first; within a side the owner chooses the order, so the
    listing uses the unit ids (R2 before R10), not the file's order."""
    p = load_position(FACTS / "rout/A10.531-EX.yaml")
    ids = [u.id for u in outcomes(_reversed(p)).units]
    assert ids == ["RG2", "RI4", "RI5", "RJ2"]


def test_voluntary_rout_lists_units_by_id_as_every_listing_does():
    """A10.711: the units a leader may rout with, in the order of the unit
    listing (R2 before R10), not the ids' string order."""
    from asl_kb.position.loader import load_position_text

    p = load_position_text(
        """
name: a leader stacked with R2 and R10
attacker: german
map: {area: [A1, J10], terrain: {G5: woods}}
units:
  - {id: R10, side: russian, type: squad, counter: 4-4-7, at: E5, status: [broken]}
  - {id: R2, side: russian, type: squad, counter: 4-4-7, at: E5, status: [broken]}
  - {id: L1, side: russian, type: leader, counter: 8-1, at: E5}
  - {id: G, side: german, type: squad, counter: 4-6-7, at: B5}
""",
        "<leader>",
    )
    r = outcomes(p, phase=True, limit=1)
    assert [(v.leader, v.with_one_of) for v in r.phase.voluntary_rout] == [("L1", ["R2", "R10"])]
    assert [u.id for u in r.units] == ["R2", "R10"]
