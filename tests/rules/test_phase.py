"""The whole Rout Phase (--phase) is tested by cases (facts/rout/article-Ex4.yaml
and facts/phase/article-Ex13.yaml: stacks, mid-phase rejections, Guard
capacity, counts, the listing limit). Here only the command line's --limit."""

import json
import subprocess
import sys

from conftest import FACTS


def test_phase_outcomes_are_listed_up_to_the_limit_and_all_counted():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "asl_kb",
            "outcomes",
            str(FACTS / "phase/article-Ex13.yaml"),
            "--phase",
            "--limit",
            "2",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0
    phase = json.loads(out.stdout)["phase"]
    assert phase["count"] == 30 and len(phase["outcomes"]) == 2
