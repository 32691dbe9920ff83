"""The whole Rout Phase (--phase): units rout one at a time, ATTACKER first
(A10.5); a rejected surrender invokes No Quarter for every later unit of that
side (A20.3); a stack surrenders simultaneously and is accepted or rejected
as a stack (A20.21, current text); a Guard holds prisoners up to five times
its US#, exchanging two HS for a squad, and the excess is freed (A20.51)."""

from conftest import FACTS

EX4 = (FACTS / "rout/article-Ex4.yaml").read_text()


def ex4(**subs):
    text = EX4.replace("no_quarter: [american]", "no_quarter: []")
    for old, new in subs.items():
        text = text.replace(old, new)
    return text


def test_ex4_stack_is_accepted_or_rejected_as_a_stack(run):
    """Without No Quarter both broken squads in BB8 surrender to A at one
    instant: A takes both, or rejects both (A20.21: "must be accepted or
    rejected (20.3) as a stack")."""
    r = run(ex4(), phase=True)
    assert r.raw["phase"]["count"] == 2
    assert sorted(r.phase()) == [
        [("G467", "eliminated", "BB8", "A"), ("G468", "eliminated", "BB8", "A")],
        [("G467", "surrender", "BB8", "A"), ("G468", "surrender", "BB8", "A")],
    ]
    accepted = [o for o in r.raw["phase"]["outcomes"] if not o["no_quarter_invoked"]][0]
    assert all(t["guard"] == "A" for t in accepted["turns"])


def test_ex4_prior_text_rejects_one_unit_and_the_other_routs_under_no_quarter(run):
    """Prior A20.3: "reject a RtPh surrendering unit": the captor may reject the
    first unit; the second then routs under No Quarter, through the Interdiction
    in CC8 or by Low Crawl (A10.52), or may itself be taken."""
    r = run(ex4(), phase=True, rules="prior")
    outs = r.phase()
    assert [("G467", "eliminated", "BB8", "A"), ("G468", "rout", "CC8", None)] in outs
    assert [("G467", "eliminated", "BB8", "A"), ("G468", "rout", "DD8", None)] in outs
    assert [("G467", "surrender", "BB8", "A"), ("G468", "eliminated", "BB8", "A")] in outs
    # never two rejections: the first one invokes No Quarter for the second
    assert not any(all(t[1] == "eliminated" for t in o) for o in outs)
    # 3 without a rout (both taken, one taken and one rejected each way) + 8
    # where the second routs (4 fates, either order), each with or without
    # the 9-2 routing along (A10.711): 3 + 8 * 2
    assert r.raw["phase"]["count"] == 19


def test_a_mid_phase_rejection_changes_a_later_units_fate(run):
    """G467 in BB8 and G468 in BB10 each surrender to A when their turn comes.
    If A rejects whichever routs first, No Quarter is in force when the other
    routs (A20.3): G468 then has no legal rout and is eliminated for Failure to
    Rout; G467 routs through CC8 under Interdiction or Low Crawls."""
    r = run(ex4(**{"4-6-8, at: BB8": "4-6-8, at: BB10"}), phase=True)
    outs = r.phase()
    assert [("G467", "eliminated", "BB8", "A"), ("G468", "eliminated", "BB10", None)] in outs
    assert [("G467", "eliminated", "BB8", "A"), ("G468", "surrender", "BB10", "A")] not in outs
    assert [("G468", "eliminated", "BB10", "A"), ("G467", "rout", "CC8", None)] in outs
    assert [("G467", "surrender", "BB8", "A"), ("G468", "surrender", "BB10", "A")] in outs
    assert [("G467", "surrender", "BB8", "A"), ("G468", "eliminated", "BB10", "A")] in outs
    ftr = [o for o in r.raw["phase"]["outcomes"]
           if [t["unit"] for t in o["turns"]] == ["G467", "G468"] and o["turns"][1].get("cause") == "failure_to_rout"]
    assert ftr and any(b["rule"] == "A20.3" and "G467" in b["says"] for b in ftr[0]["turns"][1]["because"])
    # 4 without a rout + G467's 4 routs after G468's rejection, with or
    # without the 9-2 (A10.711): 4 + 4 * 2
    assert r.raw["phase"]["count"] == 12


def test_ex13_hero_guards_two_hs_and_a_crew_by_exchanging_two_hs_for_a_squad(run):
    """Example 13: the German HS, HS and crew (US# 6) surrender to the hero (US#
    1, at most 5): exchanging two HS for a squad makes it 3 + 2 = 5, so none is
    freed (A20.51)."""
    r = run("phase/article-Ex13.yaml", phase=True)
    hero = [o for o in r.raw["phase"]["outcomes"]
            if all(t["fate"] == "surrender" and t["captor"] == "Hero" for t in o["turns"])]
    assert len(hero) == 1
    assert {t["unit"] for t in hero[0]["turns"]} == {"GHS1", "GHS2", "GCrew"}
    says = [b["says"] for b in hero[0]["turns"][0]["because"]]
    assert "Hero guards prisoners of US# 5 (at most 5: five times its own US#)" in says
    assert any("exchanges two prisoner HS" in s for s in says)
    for u in ("GHS1", "GHS2", "GCrew"):
        assert r.captors(u) == {"Hero", "A1", "A2"}
        assert "freed" not in r.kinds(u)
    # accepted (3 receiving units each, 27 ways) or rejected as a stack by one of 3
    assert r.raw["phase"]["count"] == 27 + 3


def test_guard_capacity_frees_the_excess_captors_choice(run):
    """A broken leader added to the stack makes US# 7 > 5, and the hero is the
    only unit that can take prisoners (the squads are berserk, A20.2): one
    unit, the captor's choice, is freed as Unarmed (A20.21)."""
    text = (FACTS / "phase/article-Ex13.yaml").read_text()
    text = text.replace("at: N5}", "at: N5, status: [berserk]}").replace("at: L5}", "at: L5, status: [berserk]}")
    text += "  - {id: GL, side: german, type: leader, counter: 8-0, at: M5, status: [broken]}\n"
    r = run(text, phase=True)
    accepted = [o for o in r.raw["phase"]["outcomes"] if not o["no_quarter_invoked"]]
    freed = sorted(tuple(t["unit"] for t in o["turns"] if t["fate"] == "freed") for o in accepted)
    assert freed == [("GCrew",), ("GHS1",), ("GHS2",), ("GL",)]
    for o in accepted:
        kept = [t for t in o["turns"] if t["fate"] == "surrender"]
        assert len(kept) == 3 and all(t["guard"] == "Hero" for t in kept)
    for u in ("GHS1", "GHS2", "GCrew", "GL"):
        assert "freed" in r.kinds(u) and r.captors(u) == {"Hero"}


def test_phase_outcomes_are_listed_up_to_the_limit_and_all_counted(tmp_path):
    import subprocess, sys, json
    out = subprocess.run([sys.executable, "-m", "asl_kb", "outcomes", str(FACTS / "phase/article-Ex13.yaml"),
                          "--phase", "--limit", "2", "--format", "json"], capture_output=True, text=True)
    assert out.returncode == 0
    phase = json.loads(out.stdout)["phase"]
    assert phase["count"] == 30 and len(phase["outcomes"]) == 2


def test_qa_does_a_captured_smc_still_count_against_the_5_times_unit_size_limit_for_a_guard(run):
    """Q&A (A20.5/A20.51): "Does the SMC still count against the 5 times Unit
    Size limit for a Guard? A. Yes": with the hero as the only captor, two HS,
    a crew and a leader (US# 2+2+2+1, 3+2+1 = 6 after the exchange) exceed its
    5, so one of them is freed; without the leader none is."""
    text = (FACTS / "phase/article-Ex13.yaml").read_text()
    text = text.replace("at: N5}", "at: N5, status: [berserk]}").replace("at: L5}", "at: L5, status: [berserk]}")
    without = run(text, phase=True)
    assert all(t["fate"] != "freed" for o in without.raw["phase"]["outcomes"] for t in o["turns"])
    text += "  - {id: GL, side: german, type: leader, counter: 8-0, at: M5, status: [broken]}\n"
    withl = run(text, phase=True)
    accepted = [o for o in withl.raw["phase"]["outcomes"] if not o["no_quarter_invoked"]]
    assert accepted and all(sum(t["fate"] == "freed" for t in o["turns"]) == 1 for o in accepted)


def test_phase_count_is_the_product_of_the_fates_and_the_leaders_choice(run):
    """Example 4 under No Quarter: no surrender anywhere, the two broken squads'
    fates do not touch each other; the 9-2 stays or routs with one of them."""
    r = run("rout/article-Ex4.yaml", phase=True)
    n = len(r.fates("G467")) * len(r.fates("G468"))
    # and the 9-2 stays, or routs with one of them (A10.711): three choices
    assert r.raw["phase"]["voluntary_rout"] == [{"leader": "L92", "with_one_of": ["G467", "G468"]}]
    assert r.raw["phase"]["count"] == 3 * n and n > 1


def test_independent_units_are_counted_not_enumerated(run):
    """Two broken squads far apart under No Quarter, no leader: their fates
    are independent; the count is the product and the units are named once."""
    text = (FACTS / "rout/article-Ex4.yaml").read_text().replace(
        "  - {id: L92, side: german, type: leader, counter: 9-2, at: BB8}\n", "")
    r = run(text, phase=True)
    assert {i["unit"] for i in r.raw["phase"]["independent"]} == {"G467", "G468"}
    assert r.raw["phase"]["count"] == len(r.fates("G467")) * len(r.fates("G468"))
    assert r.raw["phase"]["outcomes"] == []
