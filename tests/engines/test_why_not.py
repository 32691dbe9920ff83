"""asl-kb why-not: the fates the rulebook EXs call impossible are answered
with the clauses that forbid them; the fates they call possible are legal.
Expected answers come from the EX texts (A10-current-erratized.txt), compared
by rule id and reason kind, never by wording."""

import json
import subprocess
import sys

import clingo
import pytest

from asl_kb.engines.why_not import ProposalError, parse_proposal, why_not
from asl_kb.position.loader import load_position, load_position_text

from conftest import FACTS, ROOT


def ask(path_or_position, unit, *fate):
    p = path_or_position if not isinstance(path_or_position, str) else load_position(FACTS / path_or_position)
    return why_not(p, parse_proposal(p, unit, list(fate)))


def rules(r):
    return {b["rule"] for b in r["because"]}


# --- A10.5 EX: "routs to L3 where it now discovers a Known enemy unit ADJACENT
# in K4. It cannot remain there ... so it elects to continue its rout to M4,
# where it may end its rout, or continue on to N3 or N4."
def test_a10_5_ex_l3_is_adjacent_to_the_discovered_unit():
    r = ask("rout/A10.5-EX.yaml", "R1", "rout", "L3")
    assert not r["legal"] and rules(r) == {"A10.5"}
    assert any("G3" in b["says"] and "L3" in b["says"] for b in r["because"])


@pytest.mark.parametrize("at", ["M4", "N3", "N4"])
def test_a10_5_ex_may_end_in_m4_n3_n4(at):
    r = ask("rout/A10.5-EX.yaml", "R1", "rout", at)
    assert r["legal"] and r["fates"] and not r["because"]


def test_a10_5_ex_never_moves_adjacent_to_a_known_unit():
    """ "must rout away from the Known enemy units in M2 and K2 without moving
    ADJACENT to them": K3 is ADJACENT to K2 (and K4)."""
    r = ask("rout/A10.5-EX.yaml", "R1", "rout", "K3")
    assert not r["legal"] and {"A10.5", "A10.51"} <= rules(r)


def test_a10_5_ex_may_not_stay():
    r = ask("rout/A10.5-EX.yaml", "R1", "stay")
    assert not r["legal"] and rules(r) == {"A10.5"}


# --- A10.531 EX
def test_a10_531_ex_i5_cannot_rout_it_surrenders():
    """ "The I5 unit cannot rout because any move it made would be ADJACENT to a
    Known enemy unit; consequently, it must surrender (20.21)"."""
    for at in ("H4", "I4", "J5"):
        r = ask("rout/A10.531-EX.yaml", "RI5", "rout", at)
        assert not r["legal"] and "A20.21" in rules(r), at
    assert ask("rout/A10.531-EX.yaml", "RI5", "surrender", "GJ4")["legal"]


def test_a10_531_ex_i4_surrenders_to_j4_without_no_quarter():
    """ "If No Quarter were not in effect, the broken squad in I4 would Surrender
    to the 4-6-8 in J4": a rout to I3 is pre-empted by A20.21."""
    r = ask("rout/A10.531-EX.yaml", "RI4", "rout", "I3")
    assert not r["legal"] and rules(r) == {"A20.21"}
    assert ask("rout/A10.531-EX.yaml", "RI4", "surrender", "GJ4")["legal"]


def _with_no_quarter():
    text = (FACTS / "rout/A10.531-EX.yaml").read_text()
    return load_position_text(text.replace("attacker: russian", "attacker: russian\nno_quarter: [german]"), "nq.yaml")


def test_a10_531_ex_under_no_quarter_i4_may_only_rout_to_i3_or_through_it():
    """ "Assuming No Quarter is in effect, the broken squad in I4 may only rout to
    I3 ... it also has the option to attempt to rout through I3 to H2 or J2"."""
    p = _with_no_quarter()
    for at in ("I3", "H2", "J2"):
        assert ask(p, "RI4", "rout", at)["legal"], at
    for at in ("H4", "J3", "H3"):  # ADJACENT to (or closer to) a Known enemy unit
        r = ask(p, "RI4", "rout", at)
        assert not r["legal"] and rules(r) & {"A10.5", "A10.51"}, at
    r = ask(p, "RI5", "surrender", "GH5")
    assert not r["legal"] and rules(r) == {"A20.3"}


def test_a10_531_ex_j2_may_stay_or_rout_to_k2_or_j0():
    for fate in (("stay",), ("rout", "K2"), ("rout", "J0"), ("rout", "J1")):
        assert ask("rout/A10.531-EX.yaml", "RJ2", *fate)["legal"], fate


def test_a10_531_ex_destination_must_be_designated():
    """G2 may rout to F1, G1 or H2 (the nearest building/woods): not past
    them into the open E1."""
    r = ask("rout/A10.531-EX.yaml", "RG2", "rout", "E1")
    assert not r["legal"] and rules(r) == {"A10.51"}


# --- A10.533 EX (first): "Entry to J4 is repulsed ... eliminated for Failure to Rout"
def test_a10_533_ex1_entering_the_concealed_unit_is_repulsed():
    r = ask("rout/A10.533-EX1.yaml", "R1", "rout", "J4")
    assert not r["legal"] and rules(r) == {"A10.533"}


# --- A10.533 EX (second): "The Russian can rout to H3 and stop, or move on into
# G3 or H2 ... could even attempt to enter G4 ... elimination"
def test_a10_533_ex2():
    for at in ("H3", "G3", "H2"):
        assert ask("rout/A10.533-EX2.yaml", "R1", "rout", at)["legal"], at
    r = ask("rout/A10.533-EX2.yaml", "R1", "rout", "G4")
    assert not r["legal"] and "A10.533" in rules(r)


def test_out_of_mf_and_start_location():
    r = ask("rout/A10.5-EX.yaml", "R1", "rout", "Q2")
    assert not r["legal"] and rules(r) == {"A10.5"}
    r = ask("rout/A10.5-EX.yaml", "R1", "rout", "L2")
    assert not r["legal"] and any("L2" in b["says"] for b in r["because"])


def test_failure_to_rout_is_not_legal_with_a_legal_rout():
    r = ask("rout/A10.5-EX.yaml", "R1", "eliminated")
    assert not r["legal"] and rules(r) == {"A10.5"}


def test_legal_answers_agree_with_the_outcomes():
    """A fate is legal exactly when outcomes lists it (same rules, same graph)."""
    from asl_kb.engines.outcomes import outcomes

    p = load_position(FACTS / "rout/A10.5-EX.yaml")
    unit = next(u for u in outcomes(p).to_json()["units"] if u["id"] == "R1")
    ends = {f["at"] for f in unit["fates"] if f["fate"] == "rout"}
    for h in ("K3", "L3", "L4", "M3", "M4", "M5", "N3", "N4", "O4", "K1", "J2"):
        assert ask(p, "R1", "rout", h)["legal"] == (h in ends), h


def test_proposals_answered_together_are_each_answered_alone():
    """why_not_each grounds once and sets one proposal's `#external` at a
    time: each answer must be the one the program gives with that proposal as
    its only fact (legal, and the objections by rule and reason). A10.531 EX:
    four broken units, legal and illegal fates of each kind."""
    from asl_kb.asp.facts import position_facts
    from asl_kb.asp.reader import Answer
    from asl_kb.asp.solve import solve
    from asl_kb.engines.outcomes import canonical
    from asl_kb.engines.why_not import _fact, why_not_each

    p = load_position(FACTS / "rout/A10.531-EX.yaml")
    asked = [
        ("RI5", "rout", "I4"),
        ("RI5", "surrender", "GJ4"),
        ("RI4", "rout", "I3"),
        ("RJ2", "stay"),
        ("RJ2", "rout", "K2"),
        ("RG2", "rout", "E1"),
        ("RI4", "eliminated"),
        ("RI5", "stay"),
    ]
    proposals = [parse_proposal(p, u, list(f)) for u, *f in asked]
    together = why_not_each(p, proposals)
    facts = position_facts(canonical(p))
    concealed = sum(1 for u in p.units if "concealed" in u.status)
    for proposal, got in zip(proposals, together):
        ans = Answer(solve(facts + _fact(proposal) + "\n", concealed, entry="why_not.lp")[0])
        alone = {
            (rule, reason.name)
            for subject, pairs in ans.because.items()
            if subject.type == clingo.SymbolType.Function and subject.name == "proposal"
            for rule, reason in pairs
        }
        assert got["legal"] == bool(ans.atoms["legal"]), proposal
        assert {(b["rule"], b["reason"]) for b in got["because"]} == (set() if got["legal"] else alone), proposal
    assert {r["legal"] for r in together} == {True, False}


def test_a_bad_proposal_is_bad_input():
    p = load_position(FACTS / "rout/A10.5-EX.yaml")
    for unit, words in (
        ("R9", ["stay"]),
        ("R1", ["fly"]),
        ("R1", ["rout"]),
        ("R1", ["stay", "now"]),
        ("R1", ["surrender", "X9"]),
        ("R1", ["rout", "ZZ99"]),
    ):
        with pytest.raises(ProposalError):
            parse_proposal(p, unit, words)


def test_cli_exit_codes_and_json():
    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "asl_kb", "why-not", str(FACTS / "rout/A10.5-EX.yaml"), *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )

    assert run("R1", "rout", "M4").returncode == 0
    r = run("R1", "rout", "L3", "--format", "json")
    assert r.returncode == 1
    data = json.loads(r.stdout)
    assert data["legal"] is False and data["proposal"] == {"unit": "R1", "fate": "rout", "at": "L3"}
    bad = run("R9", "stay")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_deleting_the_end_clause_removes_the_objection(tmp_path):
    """The objection is derived from the rules: without the A10.5 ends_adjacent
    clause of the why-not rules, L3 gets no A10.5 objection."""
    import shutil
    from asl_kb.asp.control import using_rules
    from asl_kb.resources import rules_dir

    folder = tmp_path / "rules"
    shutil.copytree(rules_dir(), folder)
    f = folder / "why_not" / "A10_5_why_not.lp"
    text = f.read_text()
    start = text.index('objection("A10.5",ends_adjacent(L,E))')
    end = text.index(".\n", start) + 2
    f.write_text(text[:start] + text[end:])
    with using_rules(folder):
        r = ask("rout/A10.5-EX.yaml", "R1", "rout", "L3")
    assert not r["legal"] and not any(
        "ADJACENT" in b["says"] and "L3" in b["says"] and b["rule"] == "A10.5" for b in r["because"]
    )


def reasons(r):
    return {(b["rule"], b["reason"]) for b in r["because"]}


def test_a10_5_ex_no_surrender_with_a_free_route():
    """A20.21: only a unit "unable to rout away ... or only able to rout while
    being subject to Interdiction or resorting to Low Crawl" surrenders."""
    r = ask("rout/A10.5-EX.yaml", "R1", "surrender", "G2")
    assert not r["legal"] and reasons(r) == {("A20.21", "free_route")}
    r = ask("rout/A10.5-EX.yaml", "R1", "surrender", "G3")  # K4: not ADJACENT, not yet Known
    assert {("A20.21", "not_adjacent"), ("A20.21", "not_known")} <= reasons(r)


BASE = """
name: why-not clauses
attacker: german
map: {{terrain: {{L1: building}}}}
units:
  - {{id: R1, side: russian, type: squad, counter: 4-4-7, at: L5, status: [{status}]{extra}}}
  - {{id: G1, side: german, type: squad, counter: 4-6-7, at: L4{gstatus}}}
"""


def _pos(status="broken", extra="", gstatus=""):
    return load_position_text(BASE.format(status=status, extra=extra, gstatus=gstatus), "w.yaml")


@pytest.mark.parametrize(
    "kw,unit,fate,expected",
    [
        ({}, "G1", ["stay"], ("A10.5", "not_broken")),
        ({"status": "broken, melee"}, "R1", ["rout", "L7"], ("A10.5", "in_melee")),
        ({"extra": ", nationality: japanese"}, "R1", ["surrender", "G1"], ("A20.21", "never_surrenders")),
        ({"gstatus": ", status: [berserk]"}, "R1", ["surrender", "G1"], ("A20.21", "captor_cannot")),
        ({}, "R1", ["surrender", "R1"], ("A20.21", "not_enemy")),
    ],
)
def test_clauses(kw, unit, fate, expected):
    r = ask(_pos(**kw), unit, *fate)
    assert not r["legal"] and expected in reasons(r), r["because"]


def test_not_required_to_rout():
    """Not ADJACENT, not in the open in LOS, no DM: it neither routs nor surrenders."""
    p = load_position_text(
        """
name: no rout
attacker: german
map: {terrain: {L5: building, A1: building}}
units:
  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: L5, status: [broken]}
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: A1}
""",
        "w.yaml",
    )
    r = ask(p, "R1", "rout", "L6")
    assert not r["legal"] and ("A10.5", "not_required") in reasons(r)
    assert ask(p, "R1", "stay")["legal"]
