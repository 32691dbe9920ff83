"""--timeout and --max-memory: a run past them answers with complete: false
and what was cut."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from asl_kb.cli import main
from asl_kb.engines.outcomes import outcomes, unit_key
from asl_kb.position.loader import load_position
from asl_kb.report.render import to_json
from asl_kb.resources import cases_dir

POSITION = cases_dir() / "rout" / "A10.5-EX.yaml"


def test_past_the_timeout_says_what_was_cut():
    p = load_position(POSITION)
    r = outcomes(p, timeout=1e-9).to_json()
    assert r["complete"] is False
    assert r["units"] == []
    assert r["cut"]["units"] == [u.id for u in p.units if "broken" in u.status]
    assert r["cut"]["while"]
    assert any("--timeout" in why for why in r["incomplete_because"])


def test_a_generous_timeout_changes_nothing():
    p = load_position(POSITION)
    assert to_json(outcomes(p, phase=True, timeout=600)) == to_json(outcomes(p, phase=True))


def test_cli_timeout_exits_3_with_complete_false(capsys):
    assert main(["outcomes", str(POSITION), "--format", "json", "--timeout", "0.000000001"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["complete"] is False and "cut" in out


def _cli(*argv):
    return subprocess.run([sys.executable, "-m", "asl_kb.cli", *argv], capture_output=True, text=True)


def test_past_the_memory_cap_says_what_was_cut(tmp_path):
    """A position too big for --max-memory (its own process: the cap holds
    for the whole process) answers with no fates, what was cut and the cap."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from generate import generate_position

    big = tmp_path / "eight-boards.yaml"
    big.write_text(generate_position(8, 10, 0, spread=True), encoding="utf-8")
    r = _cli("outcomes", str(big), "--format", "json", "--max-memory", "100")
    assert r.returncode == 3, r.stderr
    out = json.loads(r.stdout)
    assert out["complete"] is False and out["units"] == []
    assert out["cut"]["memory_mib"] == 100
    broken = sorted((u.id for u in load_position(big).units if "broken" in u.status), key=unit_key)
    assert out["cut"]["units"] == broken and broken[:2] == ["R1", "R2"]
    assert any("--max-memory 100 MiB" in why for why in out["incomplete_because"])
    # a rulebook position fits the same cap and is answered in full
    small = _cli("outcomes", str(POSITION), "--format", "json", "--max-memory", "100")
    assert small.returncode == 0 and json.loads(small.stdout)["complete"] is True


def test_a_memory_cap_below_64_mib_is_refused():
    r = _cli("outcomes", str(POSITION), "--max-memory", "10")
    assert r.returncode == 2
    assert "--max-memory" in r.stderr and "Traceback" not in r.stderr


def test_no_room_to_write_under_the_cap_is_said_not_a_crash(tmp_path):
    """An answer of thousands of fates whose text the cap has no room for
    (orjson cannot fail softly: a failed allocation inside it ended the
    process with SIGSEGV) answers complete: false, cut while writing the
    answer, exit 3; with room, the same position is answered in full."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from generate import generate_open

    board = tmp_path / "open-board.yaml"
    board.write_text(generate_open(0), encoding="utf-8")
    r = _cli("outcomes", str(board), "--format", "json", "--max-memory", "90")
    assert r.returncode == 3, r.stderr
    out = json.loads(r.stdout)
    assert out["complete"] is False and out["units"] == []
    assert out["cut"] == {"timeout": None, "while": "writing the answer", "units": ["R1"], "done": [], "memory_mib": 90}
    full = _cli("outcomes", str(board), "--format", "json", "--max-memory", "400")
    assert full.returncode == 0 and len(json.loads(full.stdout)["units"][0]["fates"]) > 1000


def test_orjson_is_asked_for_room_only_near_the_cap(monkeypatch):
    """render._room_for_orjson: no cap or far from it, yes without
    estimating; near it, the estimate (twice the text) decides."""
    import orjson
    from asl_kb import budget
    from asl_kb.report import render

    units = [{"id": "R1", "summary": {"fates": 3}, "fates": [{"fate": "rout", "path": ["A1", "A2"]}] * 3000}]
    text = len(orjson.dumps(units, option=orjson.OPT_INDENT_2))
    for room, fits in ((None, True), (1 << 40, True), (2 * text + (9 << 20), True), (text, False), (0, False)):
        monkeypatch.setattr(budget, "data_room", lambda room=room: room)
        assert render._room_for_orjson(units, 3000) is fits, room


def test_no_memory_cap_ends_the_process(tmp_path):
    """Whatever the cap, an answer or the cut one (exit 0 or 3, JSON that
    parses), never a crash: caps that ran out inside clingo's grounding, its
    solving thread, the first C++ exception, the fate walk and orjson (these
    positions and caps hit each on this project's machine)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from generate import Stack, generate_open, generate_open_stack, generate_position

    runs = {
        "open": (generate_open(0), (80,)),
        "stack-at-range-2": (generate_open_stack(Stack(3, smc=4), 0, enemy_range=2), (96, 136)),
        "spread": (generate_position(4, 10, 0, spread=True), (64,)),
    }
    for name, (text, caps) in runs.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        for cap in caps:
            r = _cli("outcomes", str(path), "--format", "json", "--max-memory", str(cap))
            assert r.returncode in (0, 3), (name, cap, r.returncode, r.stderr[-300:])
            out = json.loads(r.stdout)
            assert out["complete"] is (r.returncode == 0), (name, cap)
