"""Bad or hostile position files give one clear PositionError, never a traceback.

Each case marks the offending line with "# <-" and names the expected key;
the same files are then run through the CLI, which must exit with 2.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from asl_kb.errors import PositionError
from asl_kb.position.loader import MAX_BYTES, load_position

ROOT = Path(__file__).resolve().parents[2]

HEAD = "name: bad\nattacker: russian\n"
SQUAD = "side: russian, type: squad, counter: 4-4-7"

BILLION_LAUGHS = textwrap.dedent("""\
    name: lol
    attacker: russian
    a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]  # <-
    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
    d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
    e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
    f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
    g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
    h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
    i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
    """)

# name -> (file text, expected key, words the message must contain)
CASES = {
    "unknown_top_key": (HEAD + "colour: red  # <-\n", "colour", "unknown key 'colour'"),
    "unknown_unit_key": (
        HEAD + "units:\n  - id: R1\n    side: russian\n    type: squad\n    counter: 4-4-7\n"
        "    at: L2\n    elr: 3  # <-\n",
        "units[0].elr",
        "unknown key 'elr'",
    ),
    "bad_hex_syntax": (HEAD + f"units:\n  - {{id: R1, {SQUAD}, at: M-2}}  # <-\n", "units[0].at", "M-2"),
    "unit_off_map": (
        HEAD + f"map: {{area: [J0, P10]}}\nunits:\n  - {{id: R1, {SQUAD}, at: A5}}  # <-\n",
        "units[0].at",
        "outside the map area J0..P10",
    ),
    "duplicate_unit_id": (
        HEAD + f"units:\n  - {{id: R1, {SQUAD}, at: L2}}\n  - {{id: R1, {SQUAD}, at: L3}}  # <-\n",
        "units[1].id",
        "duplicate unit id 'R1' (lines 4 and 5)",
    ),
    "malformed_yaml": (HEAD + "  phase: rout  # <-\n", None, "malformed YAML"),
    "mismatched_brackets": (HEAD + "units: [{id: R1, at: L2]  # <-\nmap: {}\n", None, "malformed YAML"),
    "python_object_tag": (HEAD + "notes: !!python/object:os.system echo  # <-\n", "notes", "tags are not allowed"),
    "python_apply_tag": (
        HEAD + "notes: !!python/object/apply:os.system [touch pwned]  # <-\n",
        "notes",
        "tags are not allowed",
    ),
    "python_name_tag": (
        HEAD + "units:\n  - id: !!python/name:os.system R1  # <-\n",
        "units[0].id",
        "tags are not allowed",
    ),
    "custom_tag": (HEAD + "map: !board {board: 5}  # <-\n", "map", "tags are not allowed"),
    "anchor": (HEAD + "notes: &n hello  # <-\nexpect: *n\n", "notes", "anchors and aliases are not allowed"),
    "alias_bomb": (BILLION_LAUGHS, "a", "anchors and aliases are not allowed"),
    "duplicate_top_key": (HEAD + "phase: rout\nphase: rally  # <-\n", "phase", "duplicate key 'phase' (lines 3 and 4)"),
    "duplicate_nested_key": (
        HEAD + "units:\n  - id: R1\n    id: R2  # <-\n",
        "units[0].id",
        "duplicate key 'id' (lines 4 and 5)",
    ),
    "unknown_reading": (
        HEAD + "readings:\n  whole_path: off  # <-\n",
        "readings.whole_path",
        "unknown reading 'whole_path'",
    ),
    # issue 10.5: an erratum switch for a rule without one is the same error
    # as an unknown reading (rules/core/versions.lp lists the rules with switches)
    "unknown_erratum": (HEAD + "errata:\n  A99.9: off  # <-\n", "errata.A99.9", "A20.21"),
    # issue 10.3: passenger_of / rider_of (Surrender Check note 5); riding
    # elsewhere, an enemy vehicle or without one's Guard break D6.1, A20.51
    # (facts/rout/note5-passengers-riders.yaml)
    "passenger_of_unknown": (
        HEAD + f"units:\n  - {{id: R1, {SQUAD}, at: L2, passenger_of: T9}}  # <-\n",
        "units[0].passenger_of",
        "no unit 'T9'",
    ),
    "passenger_of_not_vehicle": (
        HEAD + f"units:\n  - {{id: R1, {SQUAD}, at: L2, passenger_of: R2}}  # <-\n  - {{id: R2, {SQUAD}, at: L2}}\n",
        "units[0].passenger_of",
        "not a vehicle",
    ),
    "passenger_and_rider": (
        HEAD + f"units:\n  - {{id: R1, {SQUAD}, at: L2, passenger_of: T1, rider_of: T1}}  # <-\n"
        "  - {id: T1, side: russian, type: vehicle, at: L2}\n",
        "units[0].rider_of",
        "not both",
    ),
    "crew_broken_not_vehicle": (
        HEAD + f"units:\n  - {{id: R1, {SQUAD}, at: L2, status: [crew_broken]}}  # <-\n",
        "units[0].status",
        "Inherent Crew",
    ),
    "reading_not_on_off": (
        HEAD + "readings: {current_rout_path: maybe}  # <-\n",
        "readings.current_rout_path",
        "maybe",
    ),
    # (Close Combat across Locations, a prisoner away from its Guard: rules the
    # position breaks, tests/rules/test_position_rules.py)
    "cc_unknown_unit": (
        HEAD + f"units:\n  - {{id: R1, {SQUAD}, at: L2}}\n"
        "close_combat:\n  - {attackers: [R1], defenders: [X9]}  # <-\n",
        "close_combat[0].defenders[0]",
        "no unit 'X9'",
    ),
    "missing_level": (
        HEAD + "map: {terrain: {M2: building}, levels: {M2: 2}}\n"
        f"units:\n  - {{id: R1, {SQUAD}, at: 'M2@3'}}  # <-\n",
        "units[0].at",
        "no level 3 in M2",
    ),
    "level_in_plain_hex": (
        HEAD + f"units:\n  - {{id: R1, {SQUAD}, at: 'L2@1'}}  # <-\n",
        "units[0].at",
        "no level 1 in L2",
    ),
    "top_not_mapping": ("- just  # <-\n- a list\n", None, "top level must be a mapping"),
    "missing_required": ("name: x  # <-\n", "attacker", "required key 'attacker' is missing"),
    "bad_counter": (
        HEAD + "units:\n  - {id: R1, side: russian, type: squad, counter: 4-4, at: L2}  # <-\n",
        "units[0].counter",
        "FP-RANGE-MORALE",
    ),
    # (a wounded squad, DM or Disruption without broken: rules the position
    # breaks, A17.11, A10.62, A19.12, facts/rout/A10.62-dm-is-broken.yaml)
    "unknown_sw": (
        HEAD + f"units:\n  - {{id: R1, {SQUAD}, at: L2, sw: [laser]}}  # <-\n",
        "units[0].sw[0]",
        "unknown weapon 'laser'",
    ),
    "not_a_number": (
        HEAD + f"units:\n  - {{id: R1, {SQUAD}, at: L2, morale: high}}  # <-\n",
        "units[0].morale",
        "whole number",
    ),
    "bad_terrain": (HEAD + "map:\n  terrain:\n    M2: lava  # <-\n", "map.terrain.M2", "'lava' is not one of"),
    "same_hex_twice": (
        HEAD + "map:\n  board: 5\n  terrain:\n    M2: woods\n    5M2: open  # <-\n",
        "map.terrain.5M2",
        "hex M2 is listed twice",
    ),
    "hexside_not_adjacent": (HEAD + "map:\n  hexsides:\n    M2-M4: wall  # <-\n", "map.hexsides.M2-M4", "not ADJACENT"),
    "hexside_unknown": (
        HEAD + "map:\n  hexsides:\n    M2-M3: fence  # <-\n",
        "map.hexsides.M2-M3",
        "'fence' is not one of",
    ),
    "hexside_twice": (
        HEAD + "map:\n  hexsides:\n    M2-M3: wall\n    M3-M2: hedge  # <-\n",
        "map.hexsides.M3-M2",
        "listed twice",
    ),
    "hexside_one_hex": (HEAD + "map:\n  hexsides:\n    M2: wall  # <-\n", "map.hexsides.M2", "two hexes"),
    "second_document": (HEAD + "---  # <-\nname: other\n", None, "only one YAML document"),
    "deep_nesting": ("expect: " + "[" * 5000 + "]" * 5000 + "  # <-\n", None, "nested more than"),
}


def expected_line(text: str) -> int | None:
    for number, line in enumerate(text.splitlines(), 1):
        if "# <-" in line:
            return number
    return None


@pytest.fixture(params=sorted(CASES))
def case(request, tmp_path):
    text, key, words = CASES[request.param]
    path = tmp_path / f"{request.param}.yaml"
    path.write_text(text, encoding="utf-8")
    return path, expected_line(text), key, words


def test_one_clear_error(case):
    path, line, key, words = case
    with pytest.raises(PositionError) as info:
        load_position(path)
    err = info.value
    assert (err.file, err.line, err.key) == (str(path), line, key)
    assert words in err.message
    prefix = f"{path}:{line}: " if line is not None else f"{path}: "
    assert str(err).startswith(prefix + (f"{key}: " if key else ""))


def test_alias_bomb_is_refused_quickly(tmp_path):
    # If the anchors reached a constructor this would build 9**9 strings.
    path = tmp_path / "lol.yaml"
    path.write_text(BILLION_LAUGHS, encoding="utf-8")
    with pytest.raises(PositionError, match="anchors and aliases"):
        load_position(path)


def test_apply_tag_runs_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "apply.yaml"
    path.write_text(CASES["python_apply_tag"][0], encoding="utf-8")
    with pytest.raises(PositionError):
        load_position(path)
    assert not (tmp_path / "pwned").exists()


@pytest.fixture
def huge_file(tmp_path) -> Path:
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as f:
        f.truncate(100 * 1024 * 1024)  # sparse: instant, takes no disk
    return path


def test_huge_file_refused_before_reading(huge_file):
    with pytest.raises(PositionError) as info:
        load_position(huge_file)
    err = info.value
    assert (err.file, err.line, err.key) == (str(huge_file), None, None)
    assert "file too large" in err.message and "1 MiB" in err.message
    assert str(err).startswith(f"{huge_file}: file too large")


def test_just_over_the_limit(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(PositionError, match="file too large"):
        load_position(path)


@pytest.mark.parametrize("content", ["", "\n\n", "# only a comment\n", "---\n"])
def test_empty_file(tmp_path, content):
    path = tmp_path / "empty.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(PositionError, match="file is empty") as info:
        load_position(path)
    assert info.value.file == str(path)


def test_missing_file(tmp_path):
    path = tmp_path / "nope.yaml"
    with pytest.raises(PositionError, match="cannot read file"):
        load_position(path)


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"name: x\nnotes: caf\xe9\n")
    with pytest.raises(PositionError, match="not UTF-8") as info:
        load_position(path)
    assert info.value.line == 2


# ------------------------------------------------------------------ CLI

needs_cli = pytest.mark.skipif(not (ROOT / "asl_kb" / "cli.py").exists(), reason="asl_kb/cli.py is not written yet")


def run_cli(path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run(
        [sys.executable, "-m", "asl_kb", "outcomes", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def assert_clean_failure(result: subprocess.CompletedProcess, path: Path, line: int | None) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    location = f"{path}:{line}:" if line is not None else f"{path}:"
    assert f"error: {location}" in result.stderr


@needs_cli
def test_cli_exit_code_2(case, capsys):
    # the command line in this process (cli.main, what the `asl-kb` script
    # runs): a process each was 38 interpreter starts; the real process is
    # run below on the huge and the empty file
    from asl_kb import cli

    path, line, key, words = case
    code = cli.main(["outcomes", str(path)])
    err = capsys.readouterr().err
    assert_clean_failure(subprocess.CompletedProcess([], code, "", err), path, line)
    assert words in err


@needs_cli
def test_cli_huge_file(huge_file):
    assert_clean_failure(run_cli(huge_file), huge_file, None)


@needs_cli
def test_cli_empty_file(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("", encoding="utf-8")
    assert_clean_failure(run_cli(path), path, None)
