"""Random small positions (fixed seeds): every program runs without error,
every broken unit has at least one legal fate, and the whole-phase count is
at least one — the invariants a rules committee relies on."""

import random

import pytest

from asl_kb.engines.check import check
from asl_kb.errors import PositionError
from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position_text

HEXES = [f"{c}{r}" for c in "CDEFGH" for r in range(2, 8)]
TYPES = [
    ("squad", "4-6-7"),
    ("squad", "4-4-7"),
    ("half_squad", "2-4-7"),
    ("leader", "8-1"),
    ("crew", "1-2-7"),
    ("squad", "(1)-0-6"),
]
STATUS = ["broken", "dm", "disrupted", "pinned", "cx", "concealed", "berserk", "melee", "fanatic"]
PHASES = ["rout", "rally", "prep_fire", "defensive_fire", "close_combat", "movement"]


def position(seed: int) -> str:
    rng = random.Random(seed)
    units = []
    for i in range(rng.randint(2, 6)):
        t, c = rng.choice(TYPES)
        st = set(rng.sample(STATUS, rng.randint(0, 2)))
        if st & {"dm", "disrupted"}:
            st.add("broken")
        u = {
            "id": f"U{i}",
            "side": rng.choice(["german", "russian"]),
            "type": t,
            "counter": c,
            "at": rng.choice(HEXES),
            "status": "[" + ", ".join(sorted(st)) + "]",
        }
        units.append(u)
    for u in units:
        g = rng.choice(units)
        if rng.random() < 0.2 and g is not u and g["side"] != u["side"] and "guard" not in g:
            u.update(at=g["at"], guard=g["id"], status="[]")
    body = "".join("  - {" + ", ".join(f"{k}: {v}" for k, v in u.items()) + "}\n" for u in units)
    return (
        f"name: random {seed}\nphase: {rng.choice(PHASES)}\nattacker: {rng.choice(['german', 'russian'])}\n"
        "map: {area: [A1, J10], terrain: {E3: woods, G6: building, F4: grain}}\nunits:\n" + body
    )


@pytest.mark.parametrize("seed", [0, 1, *(pytest.param(s, marks=pytest.mark.slow) for s in range(2, 8))])
def test_random_position_has_an_outcome_for_every_broken_unit(seed):
    try:
        pos = load_position_text(position(seed), f"<random {seed}>")
    except PositionError:
        pytest.skip("the generator made an invalid position")
    r = outcomes(pos, phase=True, limit=3).to_json()
    for u in r["units"]:
        assert u["fates"], (seed, u["id"])
    assert r["phase"]["count"] is None or r["phase"]["count"] >= 1
    assert not [f for f in check(pos)["findings"] if f["kind"] == "no_legal_outcome"]
