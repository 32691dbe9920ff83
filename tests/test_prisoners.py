"""Prisoners after capture (rules/prisoners.lp): the article's Examples 1, 9,
10, 11, 14-19, the A20.22 and A20.55 EX paragraphs, and the Q&As on Guards,
Massacre, Escape and Rearming. Chances are k/36 for a DR, k/6 for a dr."""
from conftest import FACTS


def inline(name, phase, attacker, units, extra=""):
    """A small position on an open map, E5 and around."""
    rows = "".join(f"  - {u}\n" for u in units)
    return (f"name: {name}\nphase: {phase}\nattacker: {attacker}\nmap: {{area: [A1, J10]}}\n"
            f"units:\n{rows}{extra}")


def pris(run, path_or_text, **kw):
    return run(path_or_text, **kw).raw["prisoners"]


def option(p, name):
    found = [o for o in p["required"] + p["options"] if o["option"] == name]
    assert found, (name, [o["option"] for o in p["required"] + p["options"]])
    return found[0]


def band(o, roll):
    """The effects of one Original roll."""
    return [b for b in o["rolls"] if b["from"] <= roll <= b["to"]][0]["effects"]


def chance(o, pred):
    """k (of 36, or 6) of the rolls whose effects satisfy pred."""
    return sum(b["ways"] for b in o["rolls"] if pred(b["effects"]))


def says(o):
    return " / ".join(b["says"] for b in o["because"])


# --- Example 1 -----------------------------------------------------------------

def test_ex1_recapture_in_the_mph_4_to_1_minus_1_no_infiltration_melee_if_it_fails(run):
    p = pris(run, "prisoners/article-Ex1.yaml")
    o = option(p, 'cc(0, capture)')
    assert "4:1 FP, Kill Number 9" in says(o)
    assert "-1 DRM instead of +1" in says(o)
    assert band(o, 9) == ["RU captured"]                       # Final 8 < 9
    assert band(o, 10) == ["RU: one unit captured (defender's choice; a HS of a squad)"]
    assert band(o, 11) == ["melee", "no effect"] and band(o, 12) == ["melee", "no effect"]
    assert "leader creation" in band(o, 2)
    assert not any("infiltrate" in e for b in o["rolls"] for e in b["effects"])


def test_ex1_abandon_in_the_rph_keeps_the_protection_of_a20_3_and_a20_4(run):
    p = pris(run, "prisoners/article-Ex1-abandon.yaml")
    o = option(p, "abandon(GP, R447)")
    assert "A20.53" in {b["rule"] for b in o["because"]}


def test_ex1_abandoned_prisoner_eliminated_by_the_side_that_abandoned_it_is_a_massacre(run):
    text = (FACTS / "prisoners/article-Ex1-abandon.yaml").read_text().replace(
        "guard: R447}", "status: [abandoned]}").replace("phase: rally", "phase: prep_fire")
    text += "fire_effects: {by: russian, eliminated: [GP]}\n"
    p = pris(run, text)
    assert option(p, "massacre_by_elimination(GP)")["required"]


def test_qa_are_escaped_prisoners_which_do_not_rearm_also_subject_to_the_protection_of_a20_3_a20_4(run):
    """Q&A: "Are escaped Prisoners which do not rearm ALSO subject to the
    Protection of A20.3 - 20.4? A: No.\""""
    text = (FACTS / "prisoners/article-Ex1-abandon.yaml").read_text().replace(
        "guard: R447}", "status: [escaped]}").replace("phase: rally", "phase: prep_fire")
    text += "fire_effects: {by: russian, eliminated: [GP]}\n"
    p = pris(run, text)
    assert not any(o["option"].startswith("massacre_by_elimination") for o in p["required"])


# --- Examples 9, 10, 11 and the A20.22 EX ----------------------------------------

def test_ex9_capture_at_3_to_2_minus_1_and_the_german_back_at_1_to_2(run):
    p = pris(run, "prisoners/article-Ex9.yaml")
    a = option(p, "cc(0, capture)")
    assert "Kill Number 6" in says(a)
    assert band(a, 7) == ["G: one unit captured (defender's choice; a HS of a squad)"]   # Final 6
    assert band(a, 5) == ["G captured"]
    g = option(p, "cc(1, kill)")
    assert "Kill Number 4" in says(g)
    assert band(g, 4) == ["A: one unit Casualty Reduced (Random Selection)"]
    assert band(g, 3) == ["A eliminated"]


def test_ex9_hand_to_hand_american_kill_8_german_6(run):
    text = (FACTS / "prisoners/article-Ex9.yaml").read_text().replace("capture: yes}", "capture: yes, hand_to_hand: yes}").replace(
        "defenders: [A]}", "defenders: [A], hand_to_hand: yes}")
    p = pris(run, text)
    a = option(p, "cc(0, capture)")
    assert "Kill Number 8" in says(a)
    assert band(a, 9) == ["G: one unit captured (defender's choice; a HS of a squad)"]
    assert band(a, 8) == ["G captured"]
    assert "Kill Number 6" in says(option(p, "cc(1, kill)"))


def test_qa_may_capture_be_attempted_by_a_side_which_earlier_invoked_no_quarter(run):
    """Q&A (A20.22): "May this (capture during the CCPh) be attempted by a side
    which earlier invoked No Quarter? A. Yes." (Example 9: No Quarter for both.)"""
    p = pris(run, "prisoners/article-Ex9.yaml")
    assert option(p, "cc(0, capture)")


def test_ex10_both_capture_each_other_and_rearm_green_and_conscript_in_melee(run):
    p = pris(run, "prisoners/article-Ex10.yaml")
    assert "G captured" in band(option(p, "cc(0, capture)"), 3)
    assert "A captured" in band(option(p, "cc(1, capture)"), 3)
    joint = p["simultaneous"][0]
    both = [r for r in joint["results"] if r["result"] == "both_cleared"][0]
    assert both["chance"] == f"{15 * 6}/1296"   # American DR <= 6 (15 ways) x German DR <= 4 (6 ways)
    ev = [e for e in p["events"] if e["event"] == "joint(0, 1)"][0]
    assert set(ev["effects"]) == {"rearm_all(A, green)", "rearm_all(G, conscript)"}


def test_ex11_capture_at_2_to_1_kill_7_final_7_captures_one_hs(run):
    p = pris(run, "prisoners/article-Ex11.yaml")
    a = option(p, "cc(0, capture)")
    assert "Kill Number 7" in says(a)
    assert band(a, 6) == ["J: one unit captured (defender's choice; a HS of a squad)"]   # Final 7


def test_ex11_hara_kiri_ntc_passes_eliminated_fails_no_attack(run):
    p = pris(run, "prisoners/article-Ex11.yaml")
    h = option(p, "hara_kiri(J, 0)")
    assert band(h, 7) == ["eliminated"] and band(h, 8) == ["fails no attack and capture drm minus 1"]
    assert h["because"][0]["rule"] == "G1.641"


def test_ex11_guard_attacks_its_prisoner_at_6_to_1_the_hs_at_half_fp_3_to_2_or_both_at_1_to_1(run):
    p = pris(run, "prisoners/article-Ex11-melee.yaml")
    assert "6:1 FP" in says(option(p, "cc(0, kill)"))
    assert "3:2 FP" in says(option(p, "cc(1, kill)")) and "half FP" in says(option(p, "cc(1, kill)"))
    assert "3:3 FP" in says(option(p, "cc(2, kill)"))


def test_qa_guard_attacking_its_prisoner_and_an_enemy_squad_in_melee_attacks_both_at_half_fp(run):
    """Q&A (A20.52): a 4-6-7 Guard with a full squad prisoner in Melee with an
    enemy 4-4-7 "can attack both, but its FP is halved then": 2:5."""
    text = inline("Q&A A20.52", "close_combat", "german", [
        "{id: G, side: german, type: squad, counter: 4-6-7, at: E5, status: [melee]}",
        "{id: P, side: russian, type: squad, counter: (1)-0-6, at: E5, guard: G}",
        "{id: R, side: russian, type: squad, counter: 4-4-7, at: E5, status: [melee]}"],
        "close_combat:\n  - {attackers: [G], defenders: [P, R]}\n")
    o = option(pris(run, text), "cc(0, kill)")
    assert "2:5 FP" in says(o) and "half FP" in says(o)


def test_a20_22_ex_original_dr_3_captures_both_4_2_6_and_a_hs_of_the_4_4_7(run):
    p = pris(run, "prisoners/A20.22-EX.yaml")
    o = option(p, "cc(0, capture)")
    assert "8:12 FP, Kill Number 4" in says(o)
    assert band(o, 3) == ["R426a captured", "R426b captured",
                          "R447: one unit captured (defender's choice; a HS of a squad)"]


def test_qa_striped_japanese_squad_capture_equal_to_kill_number_gives_a_captured_and_an_uncaptured_hs(run):
    """Q&A (A20.22): a striped Japanese squad captured with Final DR = Kill
    Number: "1) a captured halfsquad and an uncaptured halfsquad"."""
    p = pris(run, "prisoners/article-Ex11.yaml")
    assert band(option(p, "cc(0, capture)"), 6) == ["J: one unit captured (defender's choice; a HS of a squad)"]


# --- Guards: Examples 14, 15 and the Q&As ------------------------------------------

def test_ex14_the_9_2_may_transfer_its_prisoner_to_a_good_order_squad_without_penalty(run):
    p = pris(run, "prisoners/article-Ex14.yaml")
    t = option(p, "transfer(GP, L92, A1)")
    assert "does not penalize" in says(t)
    assert not any(o["option"] == "transfer(GP, L92, A2)" for o in p["options"])  # A2 is broken


def test_qa_may_a_unit_transfer_a_prisoner_and_do_other_rph_aph_activities(run):
    """Q&A: "Does this mean a unit could transfer a prisoner AND do other
    RPh/APh activities ...? A. Yes\""""
    assert "does not penalize either unit's RPh/APh capabilities" in says(
        option(pris(run, "prisoners/article-Ex14.yaml"), "transfer(GP, L92, A1)"))


def test_ex15_the_hs_must_become_the_guard_when_the_9_2_is_eliminated(run):
    p = pris(run, "prisoners/article-Ex15.yaml")
    for u in ("GP1", "GP2"):
        o = option(p, f"assume_guard(AHS, {u})")
        assert o["required"] and "must assume" in says(o)


def test_ex15_a_broken_or_pinned_hs_cannot_take_them_so_the_prisoners_are_freed(run):
    for st in ("broken", "pinned"):
        text = (FACTS / "prisoners/article-Ex15.yaml").read_text().replace("counter: 3-3-7, at: G5}", f"counter: 3-3-7, at: G5, status: [{st}]}}")
        p = pris(run, text)
        assert option(p, "freed(GP1)")["required"] and option(p, "freed(GP2)")["required"]


def test_qa_should_the_guard_be_eliminated_must_a_unit_capable_of_accepting_transfer_assume_the_guard(run):
    """Q&A (A20.5): "A20,5 should probably say 'must immediately assume'";
    "Broken units are not 'capable'"."""
    p = pris(run, "prisoners/article-Ex15.yaml")
    assert option(p, "assume_guard(AHS, GP1)")["required"]


def test_qa_does_a_captured_smc_count_against_the_5_times_unit_size_limit_for_a_guard(run):
    """Q&A: "Does the SMC still count against the 5 times Unit Size limit for
    a Guard? A. Yes": a hero guarding a squad, a HS and a leader (3+2+1)."""
    text = inline("Q&A SMC counts", "rally", "american", [
        "{id: H, side: american, type: hero, counter: 1-4-9, at: E5}",
        "{id: P1, side: german, type: squad, counter: (1)-0-6, at: E5, guard: H}",
        "{id: P2, side: german, type: half_squad, counter: (1)-0-6, at: E5, guard: H}",
        "{id: P3, side: german, type: leader, counter: 8-0, at: E5, guard: H}"])
    p = pris(run, text)
    assert "over_capacity(H)" in " ".join(p["violated"])
    assert "guard_load(6, 5)" in p["states"]["H"]


def test_qa_abandoned_smc_prisoners_are_always_armed(run):
    """Q&A (A20.551): "Are Abandoned SMC prisoners also always Armed? A. Yes.\""""
    text = (FACTS / "prisoners/article-Ex14.yaml").read_text().replace(
        "{id: GP, side: german, type: squad, counter: (1)-0-6, at: G1, guard: L92}",
        "{id: GP, side: german, type: leader, counter: 8-0, at: G1, guard: L92}")
    o = option(pris(run, text), "abandon(GP, L92)")
    assert "always Armed" in says(o)


def test_guard_outnumbered_may_not_interdict_current_text_and_the_prior_reverse(run):
    """A20.52: a Guard whose US# is < its prisoners' US# may not Interdict
    (current); the prior text exempts exactly that Guard."""
    p = pris(run, "prisoners/article-Ex15.yaml")
    assert "guard_restricted" in p["states"]["L92"]
    prior = pris(run, "prisoners/article-Ex15.yaml", rules="prior")
    assert "guard_restricted" not in prior["states"].get("L92", [])


# --- Escape: Examples 16, 18 and the A20.55 EX -------------------------------------

def test_ex16_prisoner_in_melee_may_withdraw_and_the_guard_may_infiltrate_leaving_it(run):
    p = pris(run, "prisoners/article-Ex16.yaml")
    assert "success is an escape" in says(option(p, "withdraw(GP, AG)"))
    assert "escaped Unarmed" in says(option(p, "guard_infiltrates(AG)"))
    e = option(p, "escape(GP, AG)")
    assert "without a NTC" in says(e)


def test_qa_if_the_guard_withdraws_on_a_6_6_do_his_prisoners_accompany_him(run):
    """Q&A (A20.55): "No, the prisoners cannot accompany the Guard withdrawing
    from Melee.\""""
    assert "cannot go with it" in says(option(pris(run, "prisoners/article-Ex16.yaml"), "guard_infiltrates(AG)"))


def test_prior_text_no_escape_in_melee_against_an_unbroken_guard(run):
    p = pris(run, "prisoners/article-Ex16.yaml", rules="prior")
    assert not any(o["option"] == "escape(GP, AG)" for o in p["options"])


def test_ex18_ntc_with_the_captured_leaders_minus_1_then_dr_7_or_less_eliminates_the_guard(run):
    p = pris(run, "prisoners/article-Ex18.yaml")
    sq = option(p, "escape(GP, AG)")
    assert chance(sq, lambda e: e == ["passes"]) == 21          # DR - 1 <= 6
    ld = option(p, "escape(L81, AG)")
    assert chance(ld, lambda e: e == ["passes"]) == 26          # DR <= 8, not its own leadership
    cc = option(p, "cc(0, kill)")
    assert "Kill Number 4" in says(cc) and "leadership DRM -1" in says(cc)
    assert band(cc, 7) == ["AG eliminated", "GP becomes a conscript HS and an Unarmed HS", "L81 is Armed (SMC)"]
    assert band(cc, 8) == ["melee", "no effect"]   # "If the Guard survives, a Melee forms"


def test_prior_text_escaped_smc_is_not_said_to_be_armed(run):
    p = pris(run, "prisoners/article-Ex18.yaml", rules="prior")
    assert "L81 is Armed (SMC)" not in band(option(p, "cc(0, kill)"), 7)


def test_a20_55_ex_odds_1_1_against_the_guard_1_2_with_the_hs_and_the_hs_back_at_1_1(run):
    p = pris(run, "prisoners/A20.55-EX.yaml")
    assert "2:2 FP, Kill Number 5" in says(option(p, "cc(0, kill)"))
    assert "-2 DRM against broken GC" in says(option(p, "cc(0, kill)"))
    assert "2:4 FP, Kill Number 4" in says(option(p, "cc(1, kill)"))
    assert "2:2 FP, Kill Number 5" in says(option(p, "cc(2, kill)"))
    for u in ("P1", "P2", "P3"):
        assert "must first pass a NTC" in says(option(p, f"escape({u}, GC)"))


def test_qa_guard_eliminated_by_its_prisoners_with_an_enemy_squad_there_the_squad_must_become_guard(run):
    """Q&A (A20.5 & A20.55): the prisoners eliminate their broken HS Guard but
    a squad of the Guard's side is there: "The squad has to become a Guard,
    since the Prisoners did not successfully Escape\""""
    e = option(pris(run, "prisoners/A20.55-EX.yaml"), "escape(P1, GC)")
    assert "guard_eliminated(must_be_taken_over)" in e["effects"]


def test_italians_japanese_and_axis_minors_never_attempt_escape(run):
    for nat in ("italian", "japanese", "hungarian"):
        text = (FACTS / "prisoners/article-Ex18.yaml").read_text().replace(
            "counter: (1)-0-6, at: E5, guard: AG}", f"counter: (1)-0-6, at: E5, guard: AG, nationality: {nat}}}")
        p = pris(run, text)
        assert not any(o["option"] == "escape(GP, AG)" for o in p["options"])


# --- Rearming and Scrounging: Examples 17, 19 ----------------------------------------

def test_ex17_guard_killed_prisoner_casualty_reduced_rearms_as_a_conscript_hs_double_cvp(run):
    p = pris(run, "prisoners/article-Ex17.yaml")
    assert option(p, "casualty_reduced(GP)")["required"]
    assert option(p, "rearm(GP, conscript)")["required"]
    ev = [e for e in p["events"] if e["event"] == "fire(german)"][0]
    assert ev["effects"] == ["double_cvp_for_captor(GP)"]


def test_ex19_scrounging_the_wreck_dr_1_to_3(run):
    o = option(pris(run, "prisoners/article-Ex19.yaml"), "scrounge_wreck(GC)")
    assert chance(o, lambda e: e == ["rearms"]) == 3 and o["rolls"][0]["roll"] == "dr1"
    assert "conscript" in says(o)


def test_a20_552_scrounging_in_the_mph_needs_a_dr_of_2(run):
    o = option(pris(run, "prisoners/article-Ex1.yaml"), "scrounge(E5)")
    assert chance(o, lambda e: e == ["rearms"]) == 1


def test_qa_former_prisoner_may_not_attack_an_afv_in_cc_unarmed_units_have_no_ccv(run):
    """Q&A: "Can the former prisoner attack the AFV in CC as well? A. No;
    unarmed units do not have a CCV.\""""
    text = inline("Q&A no CCV", "close_combat", "russian", [
        "{id: U, side: russian, type: squad, counter: (1)-0-6, at: E5, status: [escaped]}",
        "{id: S, side: german, type: vehicle, at: E5, status: [bu], armament: [{kind: ma, range: 16}]}"],
        "close_combat:\n  - {attackers: [U], defenders: [S]}\n")
    assert "unarmed_attacks_afv(0, U)" in " ".join(pris(run, text)["violated"])


def test_qa_unarmed_unit_with_a_sw_is_armed_and_affects_rout():
    """The article's answer to Stan: an Unarmed unit possessing a SW is Armed
    (Index "Armed"); without one it does not affect enemy routs (A20.5)."""
    import clingo
    from pathlib import Path
    rules = (Path(__file__).resolve().parent.parent / "rules" / "core" / "base.lp").read_text()
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], rules + 'unit("U"). status("U",unarmed). weapon("U",sw(lmg),2,6). unit("V"). status("V",unarmed).')
    ctl.ground([("base", [])])
    armed = {str(a.symbol.arguments[0]) for a in ctl.symbolic_atoms.by_signature("armed", 1)}
    assert '"U"' in armed and '"V"' not in armed


# --- Massacre ------------------------------------------------------------------------

MASSACRE = """
name: massacre
phase: %(phase)s
attacker: russian
elr: {german: 3, russian: 3}
map: {area: [A1, J10]}
units:
  - {id: R, side: russian, type: squad, counter: 4-4-7, at: E5%(rstatus)s}
  - {id: P, side: german, type: squad, counter: (1)-0-6, at: E5, guard: R}
  - {id: P2, side: german, type: squad, counter: (1)-0-6, at: G5, status: [abandoned]}
"""


def massacre(phase="prep_fire", rstatus=""):
    return MASSACRE % {"phase": phase, "rstatus": rstatus}


def test_russian_may_massacre_prisoners_in_its_location_in_its_fire_phase_elr_plus_one_and_no_quarter(run):
    p = pris(run, massacre())
    o = option(p, "massacre(R, P)")
    assert not o["required"]
    assert set(o["effects"]) == {"elr(german, 4)", "no_quarter(russian)"}
    assert not any(x["option"] == "massacre(R, P2)" for x in p["options"])   # not in its Location


def test_prior_text_massacre_is_not_limited_to_the_location(run):
    p = pris(run, massacre(), rules="prior")
    assert option(p, "massacre(R, P2)")


def test_no_massacre_in_the_enemy_fire_phase(run):
    p = pris(run, massacre(phase="defensive_fire"))
    assert not any(x["option"].startswith("massacre(") for x in p["options"] + p["required"])


def test_berserk_unit_with_prisoners_must_massacre_at_the_start_of_its_fire_phase_and_stops_being_berserk(run):
    text = massacre(rstatus=", status: [berserk]").replace("side: russian, type: squad, counter: 4-4-7", "side: russian, nationality: american, type: squad, counter: 6-6-6")
    p = pris(run, text)
    o = option(p, "massacre(R, P)")
    assert o["required"] and "berserk_ends" in o["effects"]


def test_prior_text_berserk_unit_massacres_in_the_next_fire_phase_instead(run):
    text = massacre(rstatus=", status: [berserk]")
    p = pris(run, text, rules="prior")
    assert option(p, "massacre_next_fire_phase(R, P)")["required"]


def test_qa_one_sw_use_may_eliminate_as_many_prisoner_counters_as_it_wants(run):
    """Q&A (A20.4): "It can eliminate as many prisoner counters as it wants for
    its SW usage.\""""
    assert "any number of prisoner counters" in says(option(pris(run, massacre()), "massacre(R, P)"))


def test_massacre_in_melee_is_not_allowed_and_elr_rises_once_only(run):
    p = pris(run, massacre(rstatus=", status: [melee]"))
    assert not any(x["option"].startswith("massacre(") for x in p["options"])
    once = pris(run, massacre().replace("elr:", "massacred: [russian]\nelr:"))
    assert option(once, "massacre(R, P)")["effects"] == ["no_quarter(russian)"]


def test_qa_mph_recapture_is_infiltration_possible_no_and_leader_creation_yes(run):
    """Q&As on recapturing Unarmed units in the MPh: "Is Infiltration
    possible? A. No." "What about leader creation? A. Yes.\""""
    o = option(pris(run, "prisoners/article-Ex1.yaml"), "cc(0, capture)")
    assert "leader creation" in band(o, 2)
    assert all("infiltrate" not in e for b in o["rolls"] for e in b["effects"])


def test_qa_escape_is_not_successful_while_any_other_enemy_unit_is_there_even_a_broken_one(run):
    """Q&A (A20.55): "Per 20.55, Escape is successful only if there are no enemy
    units CAPABLE OF ACCEPTING TRANSFER ... [implied]? A. No." — any other
    enemy unit there, even a broken one, means no escape."""
    text = (FACTS / "prisoners/article-Ex18.yaml").read_text() + ""
    text = text.replace("close_combat:\n", "close_combat:\n") .replace(
        "units:\n", "units:\n  - {id: AX, side: american, type: squad, counter: 6-6-6, at: E5, status: [broken]}\n")
    e = option(pris(run, text), "escape(GP, AG)")
    assert "guard_eliminated(must_be_taken_over)" in e["effects"]


def test_qa_a_wounded_smc_prisoner_moves_at_the_foot_rate_of_its_guard(run):
    """Q&A (A20.53): "Do even wounded SMC prisoners move 'at the foot rate ...
    of their accompanying Guard'? ... Can Captured leaders increase their
    Guard's available MF? A. Yes. Yes. No.\""""
    p = pris(run, "prisoners/article-Ex18.yaml")
    assert any(b["rule"] == "A20.53" and "adds no MF" in b["says"] for b in p["notes"]["L81"])


def test_prisoners_pin_with_their_guard(run):
    text = (FACTS / "prisoners/article-Ex14.yaml").read_text().replace(
        "{id: L92, side: american, type: leader, counter: 9-2, at: G1}",
        "{id: L92, side: american, type: leader, counter: 9-2, at: G1, status: [pinned]}")
    assert "pinned_with_guard" in pris(run, text)["states"]["GP"]



def test_ex17_random_selection_of_the_kia_includes_the_guard_and_its_prisoner(run):
    """Example 17: "The Random Selection to determine which unit suffers the
    KIA includes both the American unit and its prisoner" (A20.54)."""
    text = (FACTS / "prisoners/article-Ex17.yaml").read_text().replace(
        "fire_effects: {by: german, eliminated: [AHS], failed_mc: [GP]}",
        "fire_effects: {by: german, random_selection: {at: T5, result: kia}}")
    o = option(pris(run, text), "random_selection(T5)")
    sel = {b["selected"]: (b["chance"], b["effects"]) for b in o["rolls"]}
    assert sel["AHS"] == ("1/2", ["AHS eliminated", "prisoners freed or taken over"])
    assert sel["GP"][0] == "1/2" and "GP eliminated" in sel["GP"][1]


def test_guarding_on_the_guard_is_the_same_as_guard_on_the_prisoner(run):
    a = pris(run, "prisoners/article-Ex14.yaml")
    text = (FACTS / "prisoners/article-Ex14.yaml").read_text().replace(", guard: L92}", "}").replace(
        "counter: 9-2, at: G1}", "counter: 9-2, at: G1, guarding: [GP]}")
    assert pris(run, text) == a


def test_ambush_minus_1_to_the_ambushers_plus_1_back(run):
    text = (FACTS / "prisoners/article-Ex9.yaml").read_text().replace(
        "defenders: [G], capture: yes}", "defenders: [G], capture: yes, ambush: yes}")
    p = pris(run, text)
    assert band(option(p, "cc(0, capture)"), 8) == ["G: one unit captured (defender's choice; a HS of a squad)"]  # 8-1-1 = 6
    assert band(option(p, "cc(1, kill)"), 3) == ["A: one unit Casualty Reduced (Random Selection)"]          # 3+1 = 4


def test_a20_5_an_insufficient_sole_guard_takes_what_it_can(run):
    """A20.5: "If the only Personnel unit available to assume Guard duties is
    insufficient, it guards all those units it can handle (20.51) and the
    remainder may be moved by their previous owner"."""
    text = inline("insufficient", "defensive_fire", "american", [
        "{id: S, side: american, type: squad, counter: 6-6-6, at: E5}",
        "{id: L, side: american, type: leader, counter: 8-0, at: E5}",
        "{id: P1, side: german, type: squad, counter: (1)-0-6, at: E5, guard: S}",
        "{id: P2, side: german, type: squad, counter: (1)-0-6, at: E5, guard: S}",
        "{id: P3, side: german, type: squad, counter: (1)-0-6, at: E5, guard: S}"],
        "fire_effects: {by: german, eliminated: [S]}\n")
    p = pris(run, text)
    o = option(p, "guard_what_it_can(L, S)")
    assert o["required"] and "can guard US# 5 of the US# 9" in says(o)


def test_the_escape_attack_is_figured_without_a_declaration(run):
    """A20.55: the prisoners that may escape attack their Guard; Example 18's
    odds come out with no close_combat key."""
    text = (FACTS / "prisoners/article-Ex18.yaml").read_text().split("close_combat:")[0]
    o = option(pris(run, text), "cc(esc(AG), kill)")
    assert "2:3 FP, Kill Number 4" in says(o)
    assert band(o, 7)[0] == "AG eliminated" and band(o, 8) == ["melee", "no effect"]
