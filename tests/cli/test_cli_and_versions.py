"""The command line and byte-identical JSON. (Rule versions and errata as
switches are cases: `run: {rules: prior}` / `run: {errata: ...}`, e.g.
facts/rout/A20.21-unconcealed-interdictor.yaml.)"""

import json
import subprocess
import sys

from conftest import FACTS, ROOT

EX = FACTS / "rout/A10.531-EX.yaml"


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "asl_kb", "outcomes", *map(str, args)], capture_output=True, text=True, cwd=ROOT
    )


def test_json_is_byte_identical_across_runs():
    a, b = cli(EX, "--format", "json"), cli(EX, "--format", "json")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    data = json.loads(a.stdout)
    assert set(data) == {"position", "rules", "complete", "units"}
    assert data["complete"] is True
    for unit in data["units"]:
        assert {"id", "at", "must_rout", "because", "fates"} <= set(unit)
        assert unit["because"]
        for f in unit["fates"]:
            assert f["because"], f  # every fate is explained
            assert all(set(b) == {"rule", "reason", "says"} for b in f["because"])


def test_default_position_runs():
    r = subprocess.run([sys.executable, "-m", "asl_kb", "outcomes"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "A10.531 EX" in r.stdout and "surrender to GJ4" in r.stdout


def test_attacker_routs_first():
    data = json.loads(cli(FACTS / "rout/article-Ex3.yaml", "--format", "json").stdout)
    sides = [u["side"] for u in data["units"]]
    attacker = "german"
    assert sides == sorted(sides, key=lambda s: s != attacker)


def test_all_paths_lists_every_path_of_a_fate():
    data = json.loads(cli(EX, "--format", "json", "--all-paths").stdout)
    rj2 = next(u for u in data["units"] if u["id"] == "RJ2")
    j0 = [
        f
        for f in rj2["fates"]
        if f["fate"] == "rout" and f["at"] == "J0" and [i["at"] for i in f["interdiction"]] == ["J1"]
    ]
    assert j0 and ["J2", "J1", "J0"] in j0[0]["paths"]
    assert all(p[0] == "J2" and p[-1] == "J0" for p in j0[0]["paths"])


def test_unknown_rule_version_is_a_clear_error():
    r = cli(EX, "--rules", "1985")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "1985" in r.stderr


def test_prisoners_json_is_byte_identical_across_runs():
    import subprocess
    import sys

    cmd = [
        sys.executable,
        "-m",
        "asl_kb",
        "outcomes",
        str(ROOT / "facts" / "prisoners/article-Ex18.yaml"),
        "--format",
        "json",
    ]
    a = subprocess.run(cmd, capture_output=True, text=True)
    b = subprocess.run(cmd, capture_output=True, text=True)
    assert a.returncode == 0 and a.stdout == b.stdout and '"prisoners"' in a.stdout
