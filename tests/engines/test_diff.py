"""asl-kb diff: the same position under the current and the prior text;
outcomes that appear or vanish, each with the switch of rules/versions.lp
that causes it."""

import json
import subprocess
import sys

from asl_kb.engines.diff import diff, switches_in_force
from asl_kb.position.loader import load_position, load_position_text
from conftest import FACTS, ROOT


def load(rel, **subs):
    text = (FACTS / rel).read_text()
    for a, b in subs.items():
        text = text.replace(a, b)
    return load_position_text(text, rel)


def test_switches_in_force_are_read_off_the_rules():
    cur = switches_in_force(load_position(FACTS / "rout/article-Ex4.yaml"))
    # stack_surrender's sentence is in A20.21 and A20.3 (errata of either turn it off)
    assert cur["stack_surrender"] == "A20.3, A20.21" and cur["current_rout_path"] == "A20.21"
    prior = load(("rout/article-Ex4.yaml"), **{"rules: current": "rules: prior"})
    assert "stack_surrender" not in switches_in_force(prior)
    assert "current_rout_path" in switches_in_force(prior)  # a Q&A reading holds in both
    # a narrower reading of a rule's own words (text_reading) is off in both
    # unless switched on, and then names its rule
    assert "leave_building_toward_cover" not in cur and "leave_building_toward_cover" not in switches_in_force(prior)
    on = load(
        "rout/article-Ex4.yaml", **{"rules: current": "rules: current\nreadings: {leave_building_toward_cover: on}"}
    )
    assert switches_in_force(on)["leave_building_toward_cover"] == "A10.51"


def test_hob_rejection_vanishes_in_the_prior_text_because_of_a20_3():
    d = diff(load("immediate/article-Ex8.yaml", **{"no_quarter: [american]": "no_quarter: []"}), "current", "prior")
    assert [e["outcome"] for e in d["vanished"]] == [
        "G838 (heat of battle): eliminated (rejected) by A",
        "G838 (heat of battle): eliminated (rejected) by B",
    ]
    assert all(e["caused_by"] == [{"switch": "disrupted_rejection", "rule": "A20.3"}] for e in d["vanished"])
    assert d["appeared"] == []


def test_stack_rejection_unit_by_unit_appears_in_the_prior_text_whole_phase():
    d = diff(
        load("rout/article-Ex4.yaml", **{"no_quarter: [american]": "no_quarter: []"}), "current", "prior", phase=True
    )
    appeared = {e["outcome"] for e in d["appeared"]}
    assert "whole phase: G467 eliminated (rejected) by A at BB8; G468 rout at DD8" in appeared
    assert "whole phase: G467 eliminated (rejected) by A at BB8; G468 eliminated (rejected) by A at BB8" in {
        e["outcome"] for e in d["vanished"]
    }
    assert all(c["switch"] == "stack_surrender" for e in d["appeared"] + d["vanished"] for c in e["caused_by"])


def test_guard_restriction_flips_with_a20_52():
    d = diff(load_position(FACTS / "prisoners/article-Ex18.yaml"), "current", "prior")
    gone = [e for e in d["vanished"] if e["outcome"] == "AG: restricted Guard (A20.52)"]
    assert gone and gone[0]["caused_by"] == [{"switch": "guard_outnumbered", "rule": "A20.52"}]


def test_diff_cli_json(tmp_path):
    # article Ex18's position alone (a case's every run is asked: test_committee_diff.py)
    text = (FACTS / "prisoners/article-Ex18.yaml").read_text()
    position = tmp_path / "article-Ex18.yaml"
    position.write_text(text[: text.index("\nexpect:")] + "\n")
    out = subprocess.run(
        [sys.executable, "-m", "asl_kb", "diff", str(position), "--format", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    # the corpus diff (asl_kb/committee): one table, exit 1 when something differs
    assert out.returncode == 1
    d = json.loads(out.stdout)
    assert d["from"] == {"version": "current"} and d["to"] == {"version": "prior"}
    assert any(
        r["unit"] == "AG"
        and r["change"] == "-"
        and r["outcome"] == "AG: restricted Guard (A20.52)"
        and r["caused_by"] == [{"switch": "guard_outnumbered", "rule": "A20.52"}]
        for r in d["rows"]
    )
