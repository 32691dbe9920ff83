"""A10.531 EX: broken units in 1G2, J2, I5, I4 under DM; Germans in G4, K4,
H5 (4-6-7s) and J4 (4-6-8)."""
import dataclasses

import pytest

from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position
from conftest import FACTS, Result

EX = "rout/A10.531-EX.yaml"


@pytest.fixture(scope="module")
def ex():
    return Result(outcomes(load_position(FACTS / EX)))


@pytest.fixture(scope="module")
def ex_nq():
    p = load_position(FACTS / EX)
    return Result(outcomes(dataclasses.replace(p, no_quarter=("german",))))


def test_g2_may_rout_to_f1_g1_or_even_h2(ex):
    assert {"F1", "G1", "H2"} <= ex.routs("RG2")
    # H2 is closer to units G2 had not seen: allowed
    assert ex.rout("RG2", "H2")[0]["path"] == ["G2", "H2"]


def test_j2_may_stay_or_rout_to_k2(ex):
    assert "stay" in ex.kinds("RJ2")
    assert ex.rout("RJ2", "K2")


def test_j2_may_ignore_k2_for_j0_subject_to_interdiction_in_j1_from_h5(ex):
    assert ("J1", ("GH5",)) in {x for s in ex.interdiction_sets("RJ2", "J0") for x in s}
    assert (("J1", ("GH5",)),) in ex.interdiction_sets("RJ2", "J0")
    # unless it Low Crawls to J1
    crawl = ex.rout("RJ2", "J1", low_crawl=True)
    assert crawl and crawl[0]["interdiction"] == []


def test_i5_cannot_rout_so_it_surrenders(ex):
    assert ex.surrenders_only("RI5")
    assert ex.captors("RI5") == {"GH5", "GJ4"}


def test_i5_under_no_quarter_is_eliminated_for_failure_to_rout(ex_nq):
    assert [(f["fate"], f.get("cause")) for f in ex_nq.fates("RI5")] == [("eliminated", "failure_to_rout")]


def test_i4_without_no_quarter_surrenders_to_the_468_in_j4(ex):
    assert [(f["fate"], f.get("captor"), f.get("cause")) for f in ex.fates("RI4")] == [
        ("surrender", "GJ4", None), ("eliminated", "GJ4", "no_quarter")]
    rejected = ex.fates("RI4")[1]
    assert rejected["invokes_no_quarter"] == "german"
    assert any(b["rule"] == "A20.3" for b in rejected["because"])


def test_i4_under_no_quarter_may_only_rout_to_i3(ex_nq):
    fates = ex_nq.fates("RI4")
    assert fates and all(f["fate"] == "rout" for f in fates)
    assert all(f["path"][1] == "I3" for f in fates)


def test_i4_low_crawls_to_i3_free_of_interdiction(ex_nq):
    crawl = ex_nq.rout("RI4", "I3", low_crawl=True)
    assert crawl and crawl[0]["interdiction"] == []


def test_i4_may_risk_interdiction_in_i3_to_reach_h2_or_j2(ex_nq):
    for dest in ("H2", "J2"):
        sets = ex_nq.interdiction_sets("RI4", dest)
        assert sets, dest
        assert all(any(h == "I3" for h, _ in s) for s in sets), dest


def test_i4_may_go_on_toward_h0_or_j0(ex_nq):
    """"... it may continue to rout from H2, or J2, or directly from I3 toward
    H0/J0 subject to possible further Interdiction"."""
    assert {"H0", "J0"} <= ex_nq.routs("RI4")
    for dest in ("H0", "J0"):
        assert all(any(h == "I3" for h, _ in s) for s in ex_nq.interdiction_sets("RI4", dest))
