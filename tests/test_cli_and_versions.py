"""The command line, byte-identical JSON, rule versions and errata as switches."""
import json
import subprocess
import sys

from conftest import FACTS, ROOT

EX = FACTS / "rout/A10.531-EX.yaml"


def cli(*args):
    return subprocess.run([sys.executable, "-m", "asl_kb", "outcomes", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


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
            assert all(set(b) == {"rule", "says"} for b in f["because"])


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
    j0 = [f for f in rj2["fates"] if f["fate"] == "rout" and f["at"] == "J0"
          and [i["at"] for i in f["interdiction"]] == ["J1"]]
    assert j0 and ["J2", "J1", "J0"] in j0[0]["paths"]
    assert all(p[0] == "J2" and p[-1] == "J0" for p in j0[0]["paths"])


def test_unknown_rule_version_is_a_clear_error():
    r = cli(EX, "--rules", "1985")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "1985" in r.stderr


CONCEALED_INTERDICTOR = """
name: erratum A20.21 unconcealed Interdictor
attacker: german
map: {area: [A1, M10], terrain: {E5: woods}}
units:
  - {id: R, side: russian, type: squad, counter: 4-4-7, at: C5, status: [broken]}
  - {id: G, side: german, type: leader, counter: 9-1, at: B5}  # no SW: no range, cannot Interdict
  - {id: H, side: german, type: squad, counter: 4-6-7, at: D8, status: [concealed]}
"""


def test_erratum_unconcealed_interdictor_is_a_switch(run):
    """A20.21 [errata included]: only a possible *unconcealed* Interdictor makes
    the rout unfree. R must rout from C5 (ADJACENT to G) to the woods E5 via
    D5/D6, Open Ground in LOS and Normal Range of the concealed H only."""
    current = run(CONCEALED_INTERDICTOR)
    assert "rout" in current.kinds("R") and "surrender" not in current.kinds("R")
    routs = [f for f in current.fates("R") if f["fate"] == "rout" and f["at"] == "E5"]
    assert routs and all(f["interdiction"] == [] for f in routs)
    assert any(f["optional_interdiction"] for f in routs)
    # without the erratum (or under the prior text) the concealed H counts
    off = run(CONCEALED_INTERDICTOR.replace("attacker: german", "attacker: german\nerrata: {A20.21: off}"))
    assert off.surrenders_only("R") and off.captors("R") == {"G"}
    prior = run(CONCEALED_INTERDICTOR, rules="prior")
    assert prior.surrenders_only("R")


def test_prisoners_json_is_byte_identical_across_runs():
    import subprocess, sys
    cmd = [sys.executable, "-m", "asl_kb", "outcomes", str(ROOT / "cases" / "prisoners/article-Ex18.yaml"), "--format", "json"]
    a = subprocess.run(cmd, capture_output=True, text=True)
    b = subprocess.run(cmd, capture_output=True, text=True)
    assert a.returncode == 0 and a.stdout == b.stdout and '"prisoners"' in a.stdout
