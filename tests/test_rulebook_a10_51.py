"""A10.51 EX: broken unit in 3M2 ground level, Good Order enemy in M3: it may
rout upstairs to M2 1st level and stop, or go on to N1 1st level, or N1 2nd
level via M2 2nd level; upper levels of M2/N2 are not ADJACENT to M3."""
EX = "rout/A10.51-EX.yaml"


def test_may_rout_upstairs_and_stop(run):
    r = run(EX)
    assert r.rout("A1", "M2@1"), "M2 1st level is a legal end"
    assert r.rout("A1", "M2@1")[0]["path"] == ["M2", "M2@1"]


def test_may_continue_into_n1_levels(run):
    r = run(EX)
    assert {"N1@1", "N1@2", "M2@2"} <= r.routs("A1")


def test_upper_levels_next_to_the_enemy_are_not_adjacent(run):
    r = run(EX)
    assert {"N2@1", "N2@2"} <= r.routs("A1")


def test_never_ends_adjacent_to_the_enemy_at_ground_level(run):
    r = run(EX)
    adjacent_to_m3 = {"L2", "L3", "N2", "N3", "M2", "M4"}
    assert not (r.routs("A1") & adjacent_to_m3)


def test_no_surrender_with_an_interdiction_free_rout(run):
    r = run(EX)
    assert "surrender" not in r.kinds("A1")
    assert r.rout("A1", "M2@1")[0]["interdiction"] == []
