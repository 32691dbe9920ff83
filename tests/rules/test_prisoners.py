"""Prisoners after capture: what the cases cannot say yet. The article's
examples, the EX paragraphs and the Q&As are cases (facts/prisoners/*.yaml:
options, requirements, states, events and roll bands by kind and named
arguments; a Kill Number and its DRMs show in which Original rolls a band
holds). What stays here is said only in an explanation's wording (odds of a
joint attack, "does not penalize", "always Armed", "adds no MF", ...) or is an
equivalence of two ways to write a position (`guarding:` / `guard:`). Move a
test into its case when explanations carry structured reasons."""

from conftest import FACTS


def inline(name, phase, attacker, units, extra=""):
    """A small position on an open map, E5 and around."""
    rows = "".join(f"  - {u}\n" for u in units)
    return f"name: {name}\nphase: {phase}\nattacker: {attacker}\nmap: {{area: [A1, J10]}}\nunits:\n{rows}{extra}"


def pris(run, path_or_text, **kw):
    """The prisoners result as its JSON form (asl_kb/model.py)."""
    return run(path_or_text, **kw).json["prisoners"]


def matches(obj, kind, **args):
    return obj["kind"] == kind and all(obj.get(k) == v for k, v in args.items())


def option(p, kind, **args):
    """The option or requirement of that kind with those named arguments."""
    found = [o for o in p["required"] + p["options"] if matches(o, kind, **args)]
    assert found, (kind, args, [(o["kind"], o["says"]) for o in p["required"] + p["options"]])
    return found[0]


def has(items, kind, **args) -> bool:
    return any(matches(o, kind, **args) for o in items)


def terms(items) -> set:
    """Result objects as (kind, arguments...) tuples, for set comparisons."""
    return {tuple([o["kind"]] + [v for k, v in o.items() if k not in ("kind", "says")]) for o in items}


def band(o, roll):
    """The effects of one Original roll, as the rules word them."""
    return [b for b in o["rolls"] if b["from"] <= roll <= b["to"]][0]["says"]


def chance(o, pred):
    """k (of 36, or 6) of the rolls whose effects satisfy pred."""
    return sum(b["ways"] for b in o["rolls"] if pred(b["says"]))


def says(o):
    return " / ".join(b["says"] for b in o["because"])


# --- Example 1 -----------------------------------------------------------------


def test_ex9_hand_to_hand_american_kill_8_german_6(run):
    text = (
        (FACTS / "prisoners/article-Ex9.yaml")
        .read_text()
        .replace("capture: yes}", "capture: yes, hand_to_hand: yes}")
        .replace("defenders: [A]}", "defenders: [A], hand_to_hand: yes}")
    )
    p = pris(run, text)
    a = option(p, "cc", attack=0, mode="capture")
    assert "Kill Number 8" in says(a)
    assert band(a, 9) == ["G: one unit captured (defender's choice; a HS of a squad)"]
    assert band(a, 8) == ["G captured"]
    assert "Kill Number 6" in says(option(p, "cc", attack=1, mode="kill"))


def test_ex11_guard_attacks_its_prisoner_at_6_to_1_the_hs_at_half_fp_3_to_2_or_both_at_1_to_1(run):
    p = pris(run, "prisoners/article-Ex11-melee.yaml")
    assert "6:1 FP" in says(option(p, "cc", attack=0, mode="kill"))
    assert "3:2 FP" in says(option(p, "cc", attack=1, mode="kill")) and "half FP" in says(
        option(p, "cc", attack=1, mode="kill")
    )
    assert "3:3 FP" in says(option(p, "cc", attack=2, mode="kill"))


def test_qa_guard_attacking_its_prisoner_and_an_enemy_squad_in_melee_attacks_both_at_half_fp(run):
    """Q&A (A20.52): a 4-6-7 Guard with a full squad prisoner in Melee with an
    enemy 4-4-7 "can attack both, but its FP is halved then": 2:5."""
    text = inline(
        "Q&A A20.52",
        "close_combat",
        "german",
        [
            "{id: G, side: german, type: squad, counter: 4-6-7, at: E5, status: [melee]}",
            "{id: P, side: russian, type: squad, counter: (1)-0-6, at: E5, guard: G}",
            "{id: R, side: russian, type: squad, counter: 4-4-7, at: E5, status: [melee]}",
        ],
        "close_combat:\n  - {attackers: [G], defenders: [P, R]}\n",
    )
    o = option(pris(run, text), "cc", attack=0, mode="kill")
    assert "2:5 FP" in says(o) and "half FP" in says(o)


def test_qa_may_a_unit_transfer_a_prisoner_and_do_other_rph_aph_activities(run):
    """Q&A: "Does this mean a unit could transfer a prisoner AND do other
    RPh/APh activities ...? A. Yes\""""
    assert "does not penalize either unit's RPh/APh capabilities" in says(
        option(pris(run, "prisoners/article-Ex14.yaml"), "transfer", prisoner="GP", guard="L92", new_guard="A1")
    )


def test_qa_abandoned_smc_prisoners_are_always_armed(run):
    """Q&A (A20.551): "Are Abandoned SMC prisoners also always Armed? A. Yes.\""""
    text = (
        (FACTS / "prisoners/article-Ex14.yaml")
        .read_text()
        .replace(
            "{id: GP, side: german, type: squad, counter: (1)-0-6, at: G1, guard: L92}",
            "{id: GP, side: german, type: leader, counter: 8-0, at: G1, guard: L92}",
        )
    )
    o = option(pris(run, text), "abandon", prisoner="GP", guard="L92")
    assert "always Armed" in says(o)


def test_ex16_prisoner_in_melee_may_withdraw_and_the_guard_may_infiltrate_leaving_it(run):
    p = pris(run, "prisoners/article-Ex16.yaml")
    assert "success is an escape" in says(option(p, "withdraw", prisoner="GP", guard="AG"))
    assert "escaped Unarmed" in says(option(p, "guard_infiltrates", guard="AG"))
    e = option(p, "escape", prisoner="GP", guard="AG")
    assert "without a NTC" in says(e)


def test_qa_if_the_guard_withdraws_on_a_6_6_do_his_prisoners_accompany_him(run):
    """Q&A (A20.55): "No, the prisoners cannot accompany the Guard withdrawing
    from Melee.\""""
    assert "cannot go with it" in says(
        option(pris(run, "prisoners/article-Ex16.yaml"), "guard_infiltrates", guard="AG")
    )


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


def test_qa_one_sw_use_may_eliminate_as_many_prisoner_counters_as_it_wants(run):
    """Q&A (A20.4): "It can eliminate as many prisoner counters as it wants for
    its SW usage.\""""
    assert "any number of prisoner counters" in says(option(pris(run, massacre()), "massacre", by="R", victim="P"))


def test_qa_a_wounded_smc_prisoner_moves_at_the_foot_rate_of_its_guard(run):
    """Q&A (A20.53): "Do even wounded SMC prisoners move 'at the foot rate ...
    of their accompanying Guard'? ... Can Captured leaders increase their
    Guard's available MF? A. Yes. Yes. No.\""""
    p = pris(run, "prisoners/article-Ex18.yaml")
    assert any(b["rule"] == "A20.53" and "adds no MF" in b["says"] for b in p["notes"]["L81"])


def test_guarding_on_the_guard_is_the_same_as_guard_on_the_prisoner(run):
    a = pris(run, "prisoners/article-Ex14.yaml")
    text = (
        (FACTS / "prisoners/article-Ex14.yaml")
        .read_text()
        .replace(", guard: L92}", "}")
        .replace("counter: 9-2, at: G1}", "counter: 9-2, at: G1, guarding: [GP]}")
    )
    assert pris(run, text) == a


def test_a20_5_an_insufficient_sole_guard_takes_what_it_can(run):
    """A20.5: "If the only Personnel unit available to assume Guard duties is
    insufficient, it guards all those units it can handle (20.51) and the
    remainder may be moved by their previous owner"."""
    text = inline(
        "insufficient",
        "defensive_fire",
        "american",
        [
            "{id: S, side: american, type: squad, counter: 6-6-6, at: E5}",
            "{id: L, side: american, type: leader, counter: 8-0, at: E5}",
            "{id: P1, side: german, type: squad, counter: (1)-0-6, at: E5, guard: S}",
            "{id: P2, side: german, type: squad, counter: (1)-0-6, at: E5, guard: S}",
            "{id: P3, side: german, type: squad, counter: (1)-0-6, at: E5, guard: S}",
        ],
        "fire_effects: {by: german, eliminated: [S]}\n",
    )
    p = pris(run, text)
    o = option(p, "guard_what_it_can", new_guard="L", guard="S")
    assert o["required"] and "can guard US# 5 of the US# 9" in says(o)


# --- whose choice (chosen/5) and which dice (roll_for/2): decided in the rules --


def _chosen(o, roll):
    return [e for b in o["rolls"] if b["from"] <= roll <= b["to"] for e in b["effects"] if e["kind"] == "chosen"]


def test_a20_22_ex_final_dr_equal_to_kill_number_one_unit_of_the_defenders_choice(run):
    """A20.22: "if the Final CC DR is equal to the CC Kill Number ... one
    defending unit of the defender's choice is captured"; a Casualty Reduction
    of one of several units is by Random Selection."""
    p = pris(run, "prisoners/A20.22-EX.yaml")
    [c] = _chosen(option(p, "cc", attack=0, mode="capture"), 5)
    assert (c["by"], c["count"]) == ("defender", 1)
    assert terms(c["of"]) == {("one_captured", "R426a"), ("one_captured", "R426b")}
    [k] = _chosen(option(p, "cc", attack=0, mode="kill"), 4)
    assert k["by"] == "random_selection" and len(k["of"]) == 3


def test_a20_551_more_rearming_candidates_than_enemy_units_cleared_is_the_attackers_choice(run):
    """A20.551: "One attacking Unarmed friendly unit ... is rearmed immediately
    for each armed enemy unit it eliminated/captured": one Guard cleared, two
    or three Unarmed attackers: the attacker chooses one."""
    p = pris(run, "prisoners/A20.55-EX.yaml")
    [c] = _chosen(option(p, "cc", attack=0, mode="kill"), 5)
    assert (c["by"], c["count"]) == ("attacker", 1)
    assert {e["kind"] for e in c["of"]} == {"rearm_half"} and {e["unit"] for e in c["of"]} == {"P1", "P2"}


def test_an_escape_is_decided_by_the_prisoners_ntc(run):
    """A20.55: prisoners "must first pass a NTC": the option's dice are the NTC's."""
    e = option(pris(run, "prisoners/A20.55-EX.yaml"), "escape", prisoner="P1", guard="GC")
    assert matches(e["roll_for"], "escape_ntc", prisoner="P1") and e["rolls"]
