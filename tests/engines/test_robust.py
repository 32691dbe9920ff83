"""Issue 27: every command bounded and every bad input a clean error -- each
test built from the issue's reproduction, and a fuzz through every
subcommand that finds no exit code outside the documented table."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from asl_kb import budget, cli
from asl_kb.engines import outcomes as outcomes_module
from asl_kb.engines.outcomes import outcomes, unit_key
from asl_kb.position.loader import MAX_ROW, load_position_text

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "output-format.md"

SQUAD = "side: russian, type: squad, counter: 4-4-7"
TWO = f"""name: two units
attacker: russian
map: {{area: [A0, GG10]}}
units:
  - {{id: R1, {SQUAD}, at: L2, status: [broken]}}
  - {{id: G1, side: german, type: squad, counter: 4-6-7, at: L5}}
"""
#: a Guard over capacity (A20.51): a position that breaks a prisoners rule
OVER = """name: over capacity
phase: rally
attacker: american
units:
  - {id: H, side: american, type: hero, counter: 1-4-9, at: E5}
  - {id: P1, side: german, type: squad, counter: (1)-0-6, at: E5, guard: H}
  - {id: P2, side: german, type: squad, counter: (1)-0-6, at: E5, guard: H}
"""
#: a prisoner away from its Guard (A20.5): breaks rules/core/position_checks.lp
AWAY = f"""name: away
attacker: russian
units:
  - {{id: G1, side: german, type: squad, counter: 4-6-7, at: L2}}
  - {{id: R1, {SQUAD}, at: L3, guard: G1}}
"""


def run(*argv, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """main() in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def write(tmp_path, text: str, name: str = "p.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- 1. exit 70


def test_a_unit_id_of_4301_digits_is_bad_input_in_every_subcommand(tmp_path):
    f = write(tmp_path, TWO.replace("id: R1", "id: " + "9" * 4301))
    for argv in (
        ["outcomes", f],
        ["check", f],
        ["report", f, "-o", tmp_path / "r.html"],
        ["diff", f],
        ["why-not", f, "G1", "stay"],
    ):
        code, _, err = run(*argv)
        assert code == 2, (argv, err)
        assert err.startswith(f"error: {f}:5: units[0].id:") and len(err) < 400
    assert not (tmp_path / "r.html").exists()


def test_unit_key_orders_digit_runs_of_any_length_as_numbers():
    ids = ["R10", "R9", "R" + "1" * 5000, "R010", "R2"]
    assert sorted(ids, key=unit_key) == ["R2", "R9", "R10", "R010", "R" + "1" * 5000]


def _no_new_files(folder: Path, before: set) -> None:
    assert {p for p in folder.rglob("*")} == before


@pytest.mark.parametrize(
    "option, target",
    [
        ("-o", "missing/dir/x.html"),
        ("-o", "."),
        ("-o", "x.txt"),
        ("--png", "x.txt"),
        ("--png", "."),
        ("--png", "missing/x.png"),
        ("--png", "x.jpg"),
    ],
)
def test_report_output_paths_are_checked_before_any_work(tmp_path, option, target):
    f = write(tmp_path, TWO)
    before = set(tmp_path.rglob("*"))
    code, out, err = run("report", f, option, tmp_path / target)
    assert code == 2 and out == "" and err.startswith(f"error: {'--output' if option == '-o' else option}:")
    _no_new_files(tmp_path, before)


def test_the_mutation_tools_output_paths_are_checked_too(tmp_path):
    from tools.mutate.__main__ import main as mutate

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert mutate(["--list", "--report", str(tmp_path / "missing" / "r.json")]) == 2
        assert mutate(["--list", "--report", str(tmp_path / "r.txt")]) == 2
        assert mutate(["--list", "--overlay", "x", str(write(tmp_path, ""))]) == 2
    assert err.getvalue().count("error: --") == 3
    assert {p.name for p in tmp_path.iterdir()} == {"p.yaml"}


@pytest.mark.parametrize(
    "argv",
    [
        ["search", "gaps", "--out", "{f}"],  # a file where a folder is meant
        ["search", "gaps", "--out", "{tmp}/missing/deeper"],  # its parent folder is missing
        ["search", "diff", "--stream", "{tmp}"],  # a folder where a file is meant
        ["search", "diff", "--stream", "{tmp}/missing/run.jsonl"],
    ],
)
def test_search_output_paths_are_checked_too(tmp_path, argv):
    f = write(tmp_path, TWO)
    before = set(tmp_path.rglob("*"))
    code, out, err = run(*[a.format(f=f, tmp=tmp_path) for a in argv])
    assert code == 2 and err.startswith("error: --")
    _no_new_files(tmp_path, before)


def test_an_unwritable_output_file_is_bad_input(tmp_path, monkeypatch):
    """(os.access says no: as root every file is writable.)"""
    from asl_kb import outputs

    f = write(tmp_path, TWO)
    locked = write(tmp_path, "", "locked.html")
    monkeypatch.setattr(outputs.os, "access", lambda path, mode: Path(path) != locked)
    code, _, err = run("report", f, "-o", locked)
    assert code == 2 and err.startswith(f"error: --output: {locked}: cannot write")
    assert locked.read_text() == ""


# ---------------------------------------------------------------- 2. the area


def test_an_area_past_the_largest_map_is_a_clear_error(tmp_path):
    for corner, words in (
        ("ZZ9999", "no column ZZ"),
        (f"GG{MAX_ROW + 1}", f"no row {MAX_ROW + 1}"),
        ("HH10", "no column HH"),
    ):
        f = write(tmp_path, TWO.replace("GG10", corner))
        code, _, err = run("outcomes", f)
        assert code == 2 and err.startswith(f"error: {f}:3: map.area[1]: ") and words in err


def test_the_largest_area_runs_every_subcommand_within_the_default_caps(tmp_path):
    """Two units on the largest map the loader accepts: every subcommand
    answers in full within the default --timeout and --max-memory, and the
    work is the same as on one board: the same facts for the solver (they
    follow the units and the hexes they can reach), the same page."""
    from asl_kb.asp.facts import position_facts

    big_text = TWO.replace("GG10", f"GG{MAX_ROW}")
    f = write(tmp_path, big_text)
    assert position_facts(load_position_text(big_text, "big")) == position_facts(load_position_text(TWO, "small"))
    for argv in (
        ["outcomes", f],
        ["check", f],
        ["why-not", f, "R1", "rout", "L1"],
        ["report", f, "-o", tmp_path / "big.html"],
        ["diff", f],
    ):
        code, _, err = run(*argv)
        assert code in (0, 1), (argv, err)
    # the page draws the hexes around the units, not the whole area
    assert f"GG{MAX_ROW}" not in (tmp_path / "big.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------- 3. --timeout


@pytest.mark.parametrize(
    "argv", [["outcomes", "{f}"], ["check", "{f}"], ["why-not", "{f}", "R1", "stay"], ["diff", "{f}"]]
)
def test_every_subcommand_takes_timeout_and_max_memory(tmp_path, argv):
    f = write(tmp_path, TWO)
    code, out, err = run(
        *[a.format(f=f) for a in argv],
        "--format",
        "json",
        "--timeout",
        "1e-9",
        "--max-memory",
        str(cli.DEFAULT_MAX_MEMORY),
    )
    assert code == 3, err
    answer = json.loads(out)
    assert answer["complete"] is False and answer["incomplete_because"]
    assert "--timeout" in answer["incomplete_because"][0]


def test_report_past_the_timeout_is_incomplete(tmp_path):
    f = write(tmp_path, TWO)
    code, _, err = run("report", f, "-o", tmp_path / "r.html", "--timeout", "1e-9")
    assert code == 3 and "--timeout" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_the_defaults_are_the_same_for_every_subcommand():
    for argv in (
        ["outcomes"],
        ["check"],
        ["why-not", "x", "R1", "stay"],
        ["report"],
        ["diff"],
        ["search", "gaps"],
        ["search", "diff"],
    ):
        args = cli._parser(argv).parse_args(argv)
        assert (args.timeout, args.max_memory) == (cli.DEFAULT_TIMEOUT, cli.DEFAULT_MAX_MEMORY), argv


def test_a_run_cut_while_reading_lists_the_units_done(monkeypatch):
    """A cut after the rout graphs are solved lists the units whose fates
    were read (in full) and the units not reached."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate_position

    p = load_position_text(generate_position(1, 3, 0), "three")
    whole = outcomes(p)
    assert len(whole.units) >= 2
    calls = {"n": 0}
    real = budget.check

    def check(where):
        if where == "reading the fates":
            calls["n"] += 1
            if calls["n"] == 2:
                raise budget.TimedOut(where)
        real(where)

    monkeypatch.setattr(outcomes_module.budget, "check", check)
    cut = outcomes(p, timeout=600).to_json()
    assert cut["complete"] is False
    first = whole.units[0].id
    assert cut["cut"]["done"] == [first] and [u["id"] for u in cut["units"]] == [first]
    assert cut["units"][0]["fates"] == whole.to_json()["units"][0]["fates"]
    assert first not in cut["cut"]["units"]
    assert set(cut["cut"]["units"]) == {u.id for u in whole.units[1:]}


def test_the_facts_scan_looks_at_the_deadline(monkeypatch):
    """The LOS and reach scans in Python stop at the deadline (they never
    looked at it: 1,000 broken units ran 29 s with --timeout 10)."""
    from asl_kb.asp import facts

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate_position

    p = load_position_text(generate_position(2, 10, 0, spread=True), "spread")
    seen = []
    real = budget.check

    def check(where):
        seen.append(where)
        real(where)

    monkeypatch.setattr(facts.budget, "check", check)
    # (each build scans: not the session's remembered facts, tests/conftest.py)
    monkeypatch.setattr(facts.process.STATE, "remembered", None)
    with budget.deadline_in(600):
        facts.FactBuilder(p).build()
    assert any("line of sight" in w for w in seen) and any("reach" in w for w in seen)
    with budget.deadline_in(1e-9), pytest.raises(budget.TimedOut):
        time.sleep(1e-3)
        facts.FactBuilder(p).build()


def test_the_deadline_is_kept_by_the_process(tmp_path):
    """`asl-kb outcomes --timeout 1` on spread boards: the process answers
    within the slack (1 s) past its deadline, startup aside."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate_position

    f = write(tmp_path, generate_position(8, 20, 0, spread=True))
    t0 = time.monotonic()
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            "import time,sys; t=time.monotonic(); "
            "sys.argv=['asl-kb','outcomes',sys.argv[1],'--format','json','--timeout','1']; "
            "from asl_kb.cli import run; run()",
            str(f),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    spent = time.monotonic() - t0
    assert r.returncode == 3, r.stderr
    answer = json.loads(r.stdout)
    assert answer["complete"] is False and set(answer["cut"]) >= {"units", "done", "while"}
    assert len(answer["cut"]["units"]) + len(answer["cut"]["done"]) == 160
    assert spent < 1 + budget.slack(1) + 3, spent  # 3 s: the interpreter's start, imports


# ---------------------------------------------------------------- 4. rules broken


def _doc_table() -> dict[str, int]:
    """docs/output-format.md: what each subcommand does with a position that
    breaks a rule (its exit code)."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### A position that breaks a rule", 1)[1].split("\n#", 1)[0]
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^\| `([a-z-]+)` \| (\d+) ", section, re.M)}


@pytest.mark.parametrize("text", [OVER, AWAY], ids=["prisoners-rule", "position-check"])
def test_a_rule_breaking_position_gets_the_documented_exit_code(tmp_path, text):
    table = _doc_table()
    assert set(table) == {"outcomes", "why-not", "report", "diff", "check"}
    f = write(tmp_path, text)
    unit = "P1" if text is OVER else "R1"
    argv = {
        "outcomes": ["outcomes", f],
        "check": ["check", f],
        "why-not": ["why-not", f, unit, "stay"],
        "report": ["report", f, "-o", tmp_path / "r.html"],
        "diff": ["diff", f],
    }
    for name, code in table.items():
        got, out, err = run(*argv[name])
        assert got == code, (name, out, err)
        if code == 2:  # FILE:LINE: KEY: breaks RULE: the rule's words
            assert re.match(rf"error: {re.escape(str(f))}:\d+: \S+: breaks A\d", err), err
    assert not (tmp_path / "r.html").exists()


def test_check_says_the_rule_in_words_at_the_units_line(tmp_path):
    f = write(tmp_path, OVER)
    code, out, _ = run("check", f)
    assert code == 1
    assert f"{f}:5: units[0]: [A20.51]" in out  # the Guard H's line
    assert "over_capacity" not in out  # a sentence, not the atom
    code, out, _ = run("check", f, "--format", "json")
    [clause] = json.loads(out)["findings"][0]["clauses"]
    assert (clause["rule"], clause["violated"], clause["at"]) == ("A20.51", "over_capacity(H)", f"{f}:5: units[0]")


# ---------------------------------------------------------------- 5. smaller gaps


def test_why_not_names_a_missing_level(tmp_path):
    f = write(
        tmp_path,
        TWO.replace("map: {area: [A0, GG10]}", "map: {area: [A0, GG10], terrain: {F5: building}, levels: {F5: 1}}"),
    )
    code, _, err = run("why-not", f, "R1", "rout", "F5@3")
    assert code == 2 and "no level 3 in F5" in err
    code, _, err = run("why-not", f, "R1", "rout", "F5@" + "9" * 5000)
    assert code == 2 and "not a level" in err and len(err) < 300


@pytest.mark.parametrize(
    "edit, key, words",
    [
        (
            (
                "L2, status",
                "L2, status: [broken]}}\n  - {id: T, side: russian, type: vehicle, at: L3, vca: 99999999999, x",
            ),
            None,
            None,
        ),
        (
            ("attacker: russian", "attacker: russian\nno_quarter: [martians]"),
            "no_quarter[0]",
            "no unit is of side 'martians'",
        ),
        (("name: two units", 'name: "two\\0units"'), "name", "control character"),
        (("at: L5", "at: HH5"), "units[1].at", "no column HH"),
        (("at: L5", "at: L5, morale: 99999999999"), "units[1].morale", "99999999999 is out of range 1..12"),
    ],
)
def test_smaller_input_gaps_are_clear_errors(tmp_path, edit, key, words):
    if key is None:  # elevation: the message names the range, not "a whole number"
        f = write(
            tmp_path,
            TWO.replace("map: {area: [A0, GG10]}", "map: {area: [A0, GG10], terrain: {M2: {elevation: 99999999999}}}"),
        )
        key, words = "map.terrain.M2.elevation", "out of range -10..100"
    else:
        f = write(tmp_path, TWO.replace(*edit))
    code, _, err = run("outcomes", f)
    assert code == 2 and f": {key}: " in err and words in err, err


def test_standard_input_is_a_position(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TWO.encode())))
    code, out, _ = run("outcomes", "-", "--format", "json")
    assert code == 0 and json.loads(out)["units"][0]["id"] == "R1"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"name: x\n")))
    code, _, err = run("check", "-")
    assert code == 2 and err.startswith("error: <stdin>:1: attacker:")


def test_diff_reports_a_bad_file_and_goes_on(tmp_path):
    write(tmp_path, TWO, "a-good.yaml")
    write(tmp_path, TWO.replace("at: L5", "at: L99"), "b-bad.yaml")
    write(tmp_path, TWO, "c-good.yaml")
    code, out, err = run("diff", tmp_path, "--format", "json")
    assert code == 0  # the others' answer: nothing differs
    report = json.loads(out)
    assert [e["file"].rsplit("/", 1)[-1] for e in report["errors"]] == ["b-bad.yaml"]
    assert [p["file"].rsplit("/", 1)[-1] for p in report["per_position"]] == ["a-good.yaml", "c-good.yaml"]
    assert "b-bad.yaml:6: units[1].at:" in err


# ---------------------------------------------------------------- the fuzz

#: values a mutation puts in place of a scalar
_NASTY = [
    "99999999999",
    "-1",
    "0",
    "",
    "~",
    "[]",
    "{}",
    "'\\0'",
    "ZZ9999",
    "GG10",
    "A0",
    "F5@3",
    "L2@1",
    "9" * 5000,
    "R" * 200,
    "é",
    "martians",
    "broken",
    "yes",
    "1.5",
    "null",
    "[broken, dm]",
    "{area: [A1, ZZ99999]}",
    "!!python/object:os.system x",
    "&a x",
    "*a",
    '"\\x00"',
    "[[L2, L3]]",
]
_SCALAR = re.compile(r"(?<=: )[^,{}\[\]\n]+|(?<=\[)[^,\]\n]+|(?<=, )[^,:{}\[\]\n]+(?=[,\]])")


def _mutants(n: int, seed: int = 27) -> list[str]:
    rng = random.Random(seed)
    bases = [TWO, OVER, AWAY, TWO.replace("status: [broken]", "status: [broken], guard: G1")]
    out = []
    for _ in range(n):
        lines = rng.choice(bases).splitlines()
        for _ in range(rng.randint(1, 2)):
            i = rng.randrange(len(lines))
            how = rng.random()
            if how < 0.6:
                spots = list(_SCALAR.finditer(lines[i]))
                if spots:
                    m = rng.choice(spots)
                    lines[i] = lines[i][: m.start()] + rng.choice(_NASTY) + lines[i][m.end() :]
            elif how < 0.75:
                del lines[i]
            elif how < 0.9:
                lines.insert(i, lines[rng.randrange(len(lines))])
            else:
                lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        out.append("\n".join(lines) + "\n")
    return out


def test_fuzz_finds_no_exit_code_outside_the_table(tmp_path):
    """A few hundred mutated positions, each through every subcommand (and
    the output-path options): every exit code is in cli.EXIT_CODES, never 70.
    Most mutants are refused by the loader (cheap); the engines run on the
    first few that load, a subcommand each, to keep the test a few seconds."""
    documented = set(cli.EXIT_CODES) - {cli.EXIT_INTERNAL, cli.EXIT_INTERRUPTED}
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    engine_runs = 0
    t0 = time.perf_counter()
    for n, text in enumerate(_mutants(300)):
        f = write(tmp_path, text, f"m{n}.yaml")
        try:
            load_position_text(text, str(f))
            loads = True
        except Exception:  # noqa: BLE001 - a PositionError, or a bug the runs below show
            loads = False
        paths = [
            ["report", f, "-o", out_dir / "a.txt"],
            ["report", f, "--png", out_dir],
            ["search", "gaps", "--out", f],
            ["diff", f, "--max-memory", "10"],
        ]
        if loads:
            if engine_runs >= 5:
                continue
            engine_runs += 1
            argvs = [
                [
                    ["outcomes", f],
                    ["check", f],
                    ["why-not", f, "R1", "rout", "L1"],
                    ["report", f, "-o", out_dir / "r.html"],
                    ["diff", f],
                ][n % 5]
            ]
        else:
            argvs = [
                ["outcomes", f],
                ["check", f],
                ["why-not", f, "R1", "stay"],
                ["report", f, "-o", out_dir / "r.html"],
                ["diff", f],
            ]
        for argv in argvs + paths[n % 4 : n % 4 + 1]:
            try:
                code, _, err = run(*argv)
            except SystemExit as e:  # argparse: a bad option is exit 2
                code, err = e.code, ""
            assert code in documented, (argv, text, err)
    assert engine_runs >= 5
    assert time.perf_counter() - t0 < 60


def test_a_cut_answer_is_described_by_the_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "output.schema.json").read_text(encoding="utf-8"))
    f = write(tmp_path, TWO)
    code, out, _ = run("outcomes", f, "--format", "json", "--timeout", "1e-9")
    assert code == 3
    jsonschema.validate(json.loads(out), schema)


@pytest.mark.parametrize("argv", [["check", "{f}"], ["why-not", "{f}", "R1", "stay"], ["diff", "{f}"]])
def test_past_the_memory_cap_every_subcommand_says_it_is_incomplete(tmp_path, monkeypatch, argv):
    """Where an allocation fails under --max-memory (clingo raises
    MemoryError), the subcommand answers complete: false, exit 3."""
    from asl_kb.asp import solve as solve_module

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(solve_module, "new_control", no_memory)
    monkeypatch.setattr("asl_kb.asp.once.new_control", no_memory)
    monkeypatch.setattr("asl_kb.engines.why_not.new_control", no_memory)
    f = write(tmp_path, TWO)
    code, out, _ = run(*[a.format(f=f) for a in argv], "--format", "json", "--max-memory", "512")
    assert code == 3
    answer = json.loads(out)
    assert answer["complete"] is False
    assert "--max-memory 512 MiB" in " ".join(answer.get("incomplete_because", []))
