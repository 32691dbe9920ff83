"""The geometry the Interdiction probe cases stand on (the probe's rules
questions are cases: facts/rout/interdiction-probe.yaml,
interdiction-probe-far.yaml, A20.21-entire-rout-path.yaml). Hexes, ranges and
arcs are computed in Python, so they are tested here."""

from asl_kb.board import geometry, hexgrid


def test_probe_geometry():
    """The only hex between D5 and F5 is E5 (E6 is water); X (B3) and Y (D2)
    are 3 hexes from E5 and farther from F5 than from D5."""
    assert set(hexgrid.neighbors("D5")) & set(hexgrid.neighbors("F5")) == {"E5", "E6"}
    for h in ("B3", "D2"):
        assert hexgrid.distance(h, "E5") == 3
        assert hexgrid.distance(h, "F5") > hexgrid.distance(h, "D5")


def test_far_probe_distances():
    assert hexgrid.distance("D3", "U5") == 17
    assert hexgrid.distance("E3", "U5") == 16


def test_sherman_probe_arc():
    """Hexside 3 of B3 faces E5; hexside 6 does not."""
    assert geometry.in_arc("B3", 3, "E5")
    assert not geometry.in_arc("B3", 6, "E5")
