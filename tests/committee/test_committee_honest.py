"""Cut runs say so: a whole-phase diff listed short of its combinations is
incomplete; a search stops within its --timeout even inside a long batch;
`python -m tools.mutate --search` cut by its timeout counts the mutant
unfinished (exit 3), not "not told apart"."""

from __future__ import annotations

import json
import time

from asl_kb.committee import scan as scan_mod
from asl_kb.committee.scope import load_scope
from asl_kb.engines import diff as diff_mod
from tools.mutate.__main__ import main as mutate_main
from tools.mutate.mutants import file_mutants
from asl_kb.resources import rules_dir
from conftest import FACTS
from test_committee_diff import run


def test_a_phase_diff_listed_short_is_incomplete(capsys, monkeypatch, tmp_path):
    # article Ex6's position (not its runs): 2 whole-phase combinations; compare only 1 of them
    text = (FACTS / "phase/article-Ex6.yaml").read_text()
    case = tmp_path / "article-Ex6.yaml"
    case.write_text(text[: text.index("\nexpect:")] + "\n")
    case = str(case)
    code, out, _ = run(capsys, "diff", case, "--phase", "--switch", "massacre_in_location", "--format", "json")
    assert code == 0 and json.loads(out)["complete"]
    monkeypatch.setattr(diff_mod, "PHASE_COMPARED", 1)
    code, out, _ = run(capsys, "diff", case, "--phase", "--switch", "massacre_in_location", "--format", "json")
    r = json.loads(out)
    assert code == 3 and not r["complete"]
    assert any("2 combinations, only the first 1 compared" in w for w in r["incomplete_because"])


def test_timeout_stops_inside_a_batch():
    """A cluster's batch is long: the deadline is looked at after each result."""

    def slow(jobs):
        for index, _name, _text in jobs:
            time.sleep(0.1)
            yield index, {"witness": False, "incomplete": []}

    slow.batch = 64
    started = time.perf_counter()
    s = scan_mod.scan(load_scope("tiny"), slow, scan_mod.ScanOptions(timeout=1.0))
    took = time.perf_counter() - started
    assert s["stopped"] == "--timeout 1 s reached" and s["incomplete"]
    # (a batch of 64 would be 6.4 s; one result past the deadline is 0.1 s;
    # a run keeps its --timeout within 10 % or 1 s, whichever is larger:
    # docs/output-format.md -- a loaded machine takes some of that)
    assert 0 < s["tried"] < 64 and took < 1.0 + max(0.1 * 1.0, 1.0)


def test_timeout_cuts_a_long_position_judged_in_process():
    """In this process a position is judged under the time left: the engines'
    checks (budget.check) cut a long one at the deadline, and it is not
    counted judged."""
    from asl_kb import budget

    def judge(_name, _text):
        ends = time.monotonic() + (0.05 if judge.calls else 30.0)  # the 2nd position: 30 s
        judge.calls = judge.calls - 1 if judge.calls else 0
        while time.monotonic() < ends:
            budget.check("a long position")
            time.sleep(0.01)
        return {"witness": False, "incomplete": []}

    judge.calls = 1
    started = time.perf_counter()
    s = scan_mod.scan(load_scope("tiny"), scan_mod.serial(judge), scan_mod.ScanOptions(timeout=1.5))
    took = time.perf_counter() - started
    assert s["stopped"] == "--timeout 1.5 s reached" and s["incomplete"] == ["stopped: --timeout 1.5 s reached"]
    assert s["tried"] == 1 and took < 1.5 * 1.1 + 0.25  # (+ the scope's enumeration, on a busy machine)


def test_mutant_search_cut_by_timeout_is_unfinished(tmp_path, capsys):
    rel = "rout/A20_21_surrender.lp"
    # (a clause that acts in tiny -- an ADJACENT captor -- so the scope is
    # walked, not passed over)
    m = next(
        m
        for m in file_mutants(rules_dir(), rel)
        if m.kind == "delete" and m.clause.startswith("captor(t,") and "adj_unit(" in m.clause
    )
    code = mutate_main(
        [rel, "--search", "--mutants", m.id, "--scope", "tiny", "--timeout", "0.001", "--out", str(tmp_path)]
    )
    out = capsys.readouterr().out
    assert code == 3 and "UNFINISHED" in out and "1 unfinished" in out
    (row,) = json.loads((tmp_path / "search-report.json").read_text())["mutants"]
    assert row["told_apart"] is False and row["complete"] is False


def test_progress_bar_on_stderr_only_when_asked(capsys):
    argv = ("search", "diff", "--switch", "guard_outnumbered", "--scope", "tiny")
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""  # not a terminal, not asked
    code, out2, err = run(capsys, *argv, "--progress")
    assert code == 0 and out2 == out
    assert "\r[" in err and "53/53 positions" in err and err.endswith("\n")


def test_a_witness_fits_twenty_lines(capsys):
    code, out, _ = run(
        capsys, "search", "diff", "--switch", "disrupted_rejection", "--scope", "disrupted", "--witnesses", "2"
    )
    assert code == 1
    blocks = out.split("\n  witness ")[1:]
    assert blocks and all(len(b.splitlines()) <= 20 for b in blocks)
    # no wider than the terminal (80 columns: no terminal here); the
    # position (wrapped), then what vanished in words
    assert max(map(len, out.splitlines())) <= 80
    assert "U1 russian squad 4-4-7 broken disrupted at P15" in " ".join(blocks[0].split())
    assert any(line.strip().startswith("vanished 1 elimination") for line in blocks[0].splitlines())


def test_search_coverage_names_inputs_their_scopes_and_readers(capsys):
    code, out, _ = run(capsys, "search", "coverage", "--scope", "tiny", "--sample", "3", "--format", "json")
    assert code == 0
    r = json.loads(out)
    rows = {x["input"]: x for x in r["inputs"]}
    from asl_kb.committee.coverage import inputs

    assert set(rows) == {f"{n}/{a}" for n, a, _ in inputs()}
    # tiny places broken squads: status/2 is produced; it holds no Guard
    assert rows["status/2"]["scopes"] == ["tiny"] and rows["guard_of/2"]["scopes"] == []
    assert "guard_of/2" in r["never_produced"]
    # who reads an input: the A10.52 clause barring Low Crawl reads start/2
    assert any(c.startswith("rout/A10_52_low_crawl.lp:") for c in rows["start/2"]["read_by"])


def test_search_diff_without_scope_grows_smallest_first(capsys):
    # --scope shipped: the shipped scopes one after another (without
    # --scope: the bounds read off the rules, test_committee_bounds.py).
    # The switch acts only with a berserk Guard and its prisoners, in a fire
    # phase: the smaller shipped scopes produce none and are passed over
    # (reach.py, constant by constant); the positions in all are capped
    # (exit 3, said cut)
    code, out, err = run(
        capsys,
        "search",
        "diff",
        "--switch",
        "massacre_in_location",
        "--scope",
        "shipped",
        "--max-positions",
        "1",
        "--format",
        "json",
        "--progress",
    )
    r = json.loads(out)
    assert code == 3 and not r["complete"] and not r["witnesses"]
    # one progress bar over the scopes grown: the positions tried in all
    assert "\r1 positions · 0 witnesses" in err and err.endswith("\n")
    grown = [g["scope"] for g in r["grown"]]
    assert grown[:3] == ["escape", "entrenched", "combat"] and grown[-1] == "prisoners"
    assert all(g["passed_over"] for g in r["grown"][:-1]) and r["grown"][-1]["tried"] == 1
    assert r["incomplete_because"] == ["stopped: 1 positions tried in all (--max-positions)"]
    # a --timeout passed before the first scope: that scope cut at once, said cut (not an internal
    # error); its first position, figured, may already be a witness: exit 1
    # with one (docs/committee.md), 3 without, incomplete either way
    code, out, _ = run(capsys, "search", "diff", "--scope", "shipped", "--timeout", "0.001", "--format", "json")
    r = json.loads(out)
    assert code == (1 if r["witnesses"] else 3)
    assert not r["complete"] and [g["scope"] for g in r["grown"]] == ["escape"]
    # a switch the smallest scope with a Disrupted unit shows: found there;
    # a scope producing nothing its clauses read is passed over, not run
    code, out, _ = run(
        capsys,
        "search",
        "diff",
        "--switch",
        "disrupted_rejection",
        "--scope",
        "shipped",
        "--witnesses",
        "1",
        "--format",
        "json",
    )
    r = json.loads(out)
    assert code == 1 and [g["scope"] for g in r["grown"]] == ["escape", "entrenched", "combat", "disrupted"]
    assert r["grown"][2]["tried"] == 0 and r["grown"][2]["passed_over"]
    assert r["witnesses"][0]["index"] == 2
