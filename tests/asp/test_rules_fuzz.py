"""A rules folder is input too, whatever a committee member's hand does to
it: a seeded fuzz that breaks shipped rule files the way an erratum typed by
hand breaks them (a token deleted, two arguments swapped, an arity changed)
and runs each broken folder through a subcommand that takes `--rules`. Every
exit code is one of 0, 1, 2, 3 (docs/output-format.md), never 70, and no
traceback is printed: a broken folder is `FILE:LINE: KEY: message`, a
program without an answer set is exit 1, a run past its bound is exit 3.

Bounded: a fixed number of mutants, each run with `--timeout`, the loop
stopped early past its time budget (the mutants run are reported). make
test runs the first three (one of each kind of break, through outcomes,
check and why-not), make test-slow the rest."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
SEED = 4601
MUTANTS = 9
#: the loop's own budget (seconds): each run is bounded by --timeout too
BUDGET = 40.0

SMALL = (
    "name: small\nattacker: russian\nmap: {area: [A1, E5], terrain: {C3: woods}}\nunits:\n"
    "  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: D4, status: [broken]}\n"
    "  - {id: G1, side: german, type: squad, counter: 4-6-7, at: E1}\n"
)
COMMANDS = (
    ["outcomes", "POS"],
    ["check", "POS"],
    ["why-not", "POS", "R1", "rout", "C4"],
    ["outcomes", "POS", "--phase"],
)
#: the files the rout and the checks read (the statements a hand edits most)
FILES = sorted(p.relative_to(RULES).as_posix() for p in (RULES / "rout").glob("A*.lp")) + [
    "core/position_checks.lp",
    "core/A10_4_morale.lp",
]

TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_][A-Za-z0-9_]*|\d+|:-|[(),.;:]')
ARGS = re.compile(r"\b([a-z_][A-Za-z0-9_]*)\(([^()\n]*)\)")


def _clauses(text: str) -> list[int]:
    """Indexes of the lines holding code (not comments, not blank)."""
    return [i for i, line in enumerate(text.split("\n")) if line.strip() and not line.lstrip().startswith("%")]


def _delete_token(line: str, rnd: random.Random) -> str | None:
    tokens = list(TOKEN.finditer(line.split("%", 1)[0]))
    if not tokens:
        return None
    t = rnd.choice(tokens)
    return line[: t.start()] + line[t.end() :]


def _swap_arguments(line: str, rnd: random.Random) -> str | None:
    atoms = [m for m in ARGS.finditer(line) if m.group(2).count(",") >= 1]
    if not atoms:
        return None
    m = rnd.choice(atoms)
    args = m.group(2).split(",")
    i, j = rnd.sample(range(len(args)), 2)
    args[i], args[j] = args[j], args[i]
    return line[: m.start(2)] + ",".join(args) + line[m.end(2) :]


def _change_arity(line: str, rnd: random.Random) -> str | None:
    atoms = list(ARGS.finditer(line))
    if not atoms:
        return None
    m = rnd.choice(atoms)
    args = m.group(2).split(",")
    args = args[:-1] if len(args) > 1 and rnd.random() < 0.5 else [*args, "x"]
    return line[: m.start(2)] + ",".join(args) + line[m.end(2) :]


MUTATIONS = (_delete_token, _swap_arguments, _change_arity)


def _mutants(n: int):
    """(file, mutation name, line number, text) for n seeded mutants."""
    rnd = random.Random(SEED)
    made = 0
    while made < n:
        rel = rnd.choice(FILES)
        text = (RULES / rel).read_text(encoding="utf-8")
        lines = text.split("\n")
        i = rnd.choice(_clauses(text))
        mutation = MUTATIONS[made % len(MUTATIONS)]
        changed = mutation(lines[i], rnd)
        if changed is None or changed == lines[i]:
            continue
        lines[i] = changed
        made += 1
        yield rel, mutation.__name__.strip("_"), i + 1, "\n".join(lines)


@pytest.mark.parametrize(
    "part", [pytest.param(range(3), id="first"), pytest.param(range(3, MUTANTS), id="rest", marks=pytest.mark.slow)]
)
def test_broken_rule_files_give_a_documented_exit_and_no_traceback(tmp_path, part):
    pos = tmp_path / "small.yaml"
    pos.write_text(SMALL, encoding="utf-8")
    t0 = time.perf_counter()
    ran = []
    for n, (rel, how, line, text) in enumerate(_mutants(MUTANTS)):
        if n not in part:
            continue
        if time.perf_counter() - t0 > BUDGET:
            break
        folder = tmp_path / f"r{n}"
        (folder / rel).parent.mkdir(parents=True)
        (folder / rel).write_text(text, encoding="utf-8")
        argv = [str(pos) if a == "POS" else a for a in COMMANDS[n % len(COMMANDS)]]
        cmd = [sys.executable, "-m", "asl_kb", *argv, "--rules", str(folder), "--timeout", "20"]
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=60)
        said = f"{rel}:{line} {how}: {argv[0]} -> {out.returncode}\n{out.stderr[-2000:]}"
        assert out.returncode in (0, 1, 2, 3), said
        assert "Traceback" not in out.stderr and "internal error" not in out.stderr, said
        if out.returncode == 2:
            # a broken folder's error names a file of the folder (FILE:LINE: KEY:)
            assert str(folder) in out.stderr or "--rules" in out.stderr, said
        ran.append((rel, how, out.returncode))
    # the budget let most of them run, and the mutations reached the solver too
    assert len(ran) >= len(part) // 2 + 1, ran
    assert {code for *_, code in ran} - {2}, ("every mutant refused before a run: no fuzz of the reader", ran)
