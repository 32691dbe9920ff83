"""A10.533 CONCEALMENT: what the cases (facts/rout/A10.533-EX1.yaml and
A10.533-EX2.yaml) cannot say yet. Where a concealed unit drops concealment,
which unit repulses a rout and which destination a fate designated are, in
the result model, only in the explanation's wording (an A10.533 or A10.51
`says`); these tests read them from it until explanations carry structured
reasons. Everything else of the two EX paragraphs is in the case files.

Map: the broken Russian squad R1 in the Open Ground hex I4; German squads in
G4 and J4; single-hex buildings in J4, H3, G3, H2 and G4; everything else
open. EX1: the German in J4 is concealed, the one in G4 Known. EX2: only the
German in G4 is concealed, the one in J4 Known. No Quarter is not in effect.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path


from asl_kb.board import hexgrid
from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position

RULEBOOK = Path(__file__).resolve().parents[2] / "facts" / "rout"
EX1 = RULEBOOK / "A10.533-EX1.yaml"
EX2 = RULEBOOK / "A10.533-EX2.yaml"


@lru_cache(maxsize=None)
def solve(path: Path) -> dict:
    return outcomes(load_position(path)).to_json()


def russian(path: Path) -> dict:
    u = next(u for u in solve(path)["units"] if u["id"] == "R1")
    assert not u.get("inconsistent"), "no legal outcome"
    return u


def fates(path: Path, kind: str | None = None) -> list[dict]:
    return [f for f in russian(path)["fates"] if kind is None or f["fate"] == kind]


def says(f: dict, rule: str) -> list[str]:
    return [b["says"] for b in f["because"] if b["rule"] == rule]


def reveals(f: dict, unit: str) -> list[str]:
    """The hexes where `unit` drops concealment in this fate's explanation
    (an A10.533 reason such as "GJ4 drops concealment while the unit is in I4";
    not the offer "concealed GJ4 may drop concealment to Interdict in H1")."""
    out = []
    for s in says(f, "A10.533"):
        if "may drop" in s:
            continue
        m = re.search(rf"\b{unit}\b.*\b(?:drops|dropped|loses|reveals)\b.*\bin ([A-Z]{{1,2}}\d+)", s)
        if m:
            out.append(m.group(1))
    return out


def repulsed_by(f: dict, unit: str) -> bool:
    return any("repulsed" in s and re.search(rf"\b{unit}\b", s) for s in says(f, "A10.533"))


def heads_for(f: dict, hex_: str) -> bool:
    """An A10.51 reason names hex_ as the designated destination."""
    return any(s.startswith("designates") and re.search(rf"\b{hex_}\b", s) for s in says(f, "A10.51"))


# --------------------------------------------------------------------------
# The map
# --------------------------------------------------------------------------


def test_map_geometry():
    """The ADJACENCY facts both EX paragraphs rest on."""
    assert hexgrid.adjacent("I4", "J4") and hexgrid.adjacent("I4", "H3")
    assert hexgrid.distance("I4", "G4") == 2
    assert hexgrid.adjacent("H3", "G4") and hexgrid.adjacent("G3", "G4")
    assert not hexgrid.adjacent("H2", "G4")
    assert hexgrid.adjacent("H3", "G3") and hexgrid.adjacent("H3", "H2")
    # J4 is the nearest building (2 MF) not closer to the Known German in G4 (EX1)
    assert hexgrid.distance("J4", "G4") > hexgrid.distance("I4", "G4")


# --------------------------------------------------------------------------
# First EX: the German in J4 concealed, the one in G4 Known
# --------------------------------------------------------------------------


def test_ex1_destination_is_j4():
    """ "It must rout into J4, which is the closest building not closer to a
    Known enemy unit in its LOS": every fate that did not see the concealed
    German drop his concealment first heads for J4."""
    unrevealed = [f for f in fates(EX1) if not reveals(f, "GJ4")]
    assert unrevealed
    for f in unrevealed:
        assert heads_for(f, "J4"), f


def test_ex1_repulsed_from_j4_and_eliminated():
    """ "Entry to J4 is repulsed however, as the German squad loses concealment
    ... The broken squad is eliminated for Failure to Rout because it had to
    end its RtPh ADJACENT to a Known enemy unit.\""""
    elim = [f for f in fates(EX1, "eliminated") if repulsed_by(f, "GJ4")]
    assert elim
    for f in elim:
        assert f["cause"] == "failure_to_rout"
        assert hexgrid.adjacent(f["at"], "J4")  # repulsed to the last occupied hex
    # the repulse never lets it into J4
    assert not [f for f in fates(EX1) if f.get("at") == "J4"]


def test_ex1_surrender_to_j4_when_it_drops_concealment():
    """ "Had he preferred to take the Russian unit prisoner, the German could
    have opted to drop his concealment voluntarily and allowed the Russians to
    rout to him as his prisoners (20.21)." No Quarter is not in effect."""
    surr = [f for f in fates(EX1, "surrender") if f["captor"] == "GJ4"]
    assert surr
    assert all(reveals(f, "GJ4") for f in surr)


def test_ex1_concealed_j4_is_not_a_mandatory_interdictor():
    """While concealed, the German in J4 may Interdict only by dropping
    concealment (A10.533): never listed as a mandatory Interdictor in a fate
    where he has not revealed himself."""
    for f in fates(EX1):
        if not reveals(f, "GJ4"):
            assert all("GJ4" not in i["by"] for i in f["interdiction"]), f


# --------------------------------------------------------------------------
# Second EX: only the German in G4 concealed, the one in J4 Known
# --------------------------------------------------------------------------


def rout_ends(path):
    return {f["at"] for f in fates(path, "rout")}


def test_ex2_reveal_before_the_rout_closes_h3():
    """ "... unless the German squad in G4 drops its concealment before the
    Russian routs to H3": then H3 and G3 are ADJACENT to a Known German, the
    only way out (I3) is Interdicted by the Known J4 squad, so the Russian,
    ADJACENT to J4, surrenders to it (A20.21, no No Quarter)."""
    early = [f for f in fates(EX2) if "I4" in reveals(f, "GG4") and f["path"].count("I4") == 1]
    assert early
    for f in early:
        assert f.get("at") not in ("H3", "G3")
        assert f["captor"] == "GJ4" and (f["fate"] == "surrender" or f.get("cause") == "no_quarter")


def test_ex2_reveal_in_h3_forces_continuation_to_h2():
    """ "If the German squad drops its concealment before ... the end of the
    RtPh, the broken unit would have to continue its rout to H2 or be
    eliminated": no rout in which G4 is revealed while the Russian is in H3
    ends in H3 or G3 (both ADJACENT to G4)."""
    in_h3 = [f for f in fates(EX2, "rout") if "H3" in reveals(f, "GG4")]
    assert in_h3
    assert all(f["at"] == "H2" for f in in_h3)


def test_ex2_concealed_g4_never_mandatory_interdictor():
    for f in fates(EX2):
        if not reveals(f, "GG4"):
            assert all("GG4" not in i["by"] for i in f["interdiction"]), f
