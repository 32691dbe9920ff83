"""The contract (docs/contract.md): every program speaks through the
documented output predicates, and every result term reaches the JSON as an
object with a kind and named arguments, never a term string."""

import json
import re

import pytest

from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position
from asl_kb.report.render import to_json
from asl_kb.resources import cases_dir, rules_dir

RULES = rules_dir()


def _catalogue() -> set[str]:
    """name/arity of every predicate the contract catalogue documents as shown."""
    text = (RULES / "core" / "contract.lp").read_text()
    return set(re.findall(r"#([a-z_]+/\d+)", text))


def test_every_shown_predicate_is_in_the_contract_catalogue():
    documented = _catalogue()
    shown = set()
    for lp in RULES.rglob("*.lp"):
        if lp.name == "contract.lp":
            continue
        shown |= set(re.findall(r"^#show ([a-z_]+/\d+)\.", lp.read_text(), re.M))
    assert shown, "no #show found"
    assert shown <= documented, sorted(shown - documented)


def test_no_explanation_predicate_but_because():
    """One form of explanation: because/3 (no why/3, unit_because/3, ...)."""
    old = re.compile(r"^(why|unit_because|hob_why|dis_why|p_why|pwhy)\(", re.M)
    assert not [lp.name for lp in RULES.rglob("*.lp") if old.search(lp.read_text())]


def _walk(x, path, bad):
    if isinstance(x, dict):
        for k, v in x.items():
            if re.fullmatch(r"arg\d+", k):
                bad.append(f"{path}.{k}: undeclared argument (arguments/2)")
            _walk(v, f"{path}.{k}", bad)
    elif isinstance(x, list):
        for v in x:
            _walk(v, path, bad)
    elif isinstance(x, str) and re.fullmatch(r"[a-z_]+\(.*\)", x):
        bad.append(f"{path}: term string {x!r}")


@pytest.mark.parametrize("case", sorted(p.name for p in (cases_dir() / "prisoners").glob("*.yaml")))
def test_prisoners_results_are_structured(case):
    result = json.loads(to_json(outcomes(load_position(cases_dir() / "prisoners" / case))))
    p = result["prisoners"]
    bad: list[str] = []
    _walk(p, "prisoners", bad)
    assert not bad, bad
    for o in p["required"] + p["options"]:
        assert o["kind"] and o["says"] and isinstance(o["because"], list)
        for b in o.get("rolls", ()):
            assert all("kind" in e for e in b["effects"])


def test_each_rules_file_has_one_program_block_per_part_in_ground_order():
    # CONTRIBUTING.md: a staged file reads in the order clingo grounds it
    # (asl_kb/asp/solve.py ground_stages: base, step+plan, carry, final)
    order = ["base", "step", "plan", "carry", "final"]
    for lp in sorted(RULES.rglob("*.lp")):
        parts = re.findall(r"^#program (\w+)", lp.read_text(), flags=re.M)
        assert len(parts) == len(set(parts)), (lp.name, parts)
        assert parts == sorted(parts, key=lambda p: order.index(p) if p in order else -1), (lp.name, parts)


def test_the_reader_checks_every_predicate_a_reader_reads():
    """asl_kb/asp/contract.py, the check of a rules folder's answer, knows
    the predicates the catalogue documents (those the engines read with a
    shape: every one but the few read as any term), and no other."""
    from asl_kb.asp.contract import CONTRACT

    checked = {f"{n}/{a}" for n, a in CONTRACT}
    # (read as any term where read at all: no shape to check)
    unshaped = {
        "invokes_no_quarter/2",
        "guard_after/2",
        "leaves_sw/2",
        "llmc/2",
        "surrenders_where_it_began/1",
        "legal/1",
        "option/1",
        "required/1",
        "state/2",
        "effect/2",
        "roll_for/2",
    }
    assert checked <= _catalogue(), sorted(checked - _catalogue())
    assert _catalogue() - checked == unshaped, sorted(_catalogue() - checked)
