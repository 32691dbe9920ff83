"""A rules folder is input: shipped rule files mutated at random (a token
deleted, two arguments of an atom swapped, an argument added or dropped)
and run as `--rules FOLDER` give an answer or a clean error -- exit 0, 1,
2 or 3, never a traceback or exit 70 (issue 46).

Seeded and bounded in time: the mutants are those of the seed
(ASL_KB_FUZZ_SEED, default 46), run until ASL_KB_FUZZ_SECONDS (default 4)
have passed; one child process runs them all in turn through cli.main (a
mutant that ended the process -- clingo aborting -- is named as the last
one begun). A failure names the seed and the mutant, to replay."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
SEED = int(os.environ.get("ASL_KB_FUZZ_SEED", "46"))
SECONDS = float(os.environ.get("ASL_KB_FUZZ_SECONDS", "4"))
SMALL = (
    "name: small\nattacker: russian\nmap: {area: [A1, E5], terrain: {C3: woods}}\nunits:\n"
    "  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: D4, status: [broken]}\n"
    "  - {id: G1, side: german, type: squad, counter: 4-6-7, at: E1}\n"
)
#: a rules file's tokens outside comments: strings, names and variables,
#: numbers, two-character operators, any other character
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|%\*.*?\*%|%[^\n]*|\w+|:-|\.\.|!=|<=|>=|\S', re.S)
ATOM = re.compile(r"\b[a-z_]\w*\(")


def _atoms(text: str) -> list[tuple[int, list[tuple[int, int]]]]:
    """(where its name starts, the spans of its top-level arguments) of each
    name(...) in the text outside comments and strings."""
    code = [m for m in TOKEN.finditer(text) if not m.group().startswith("%")]
    out = []
    for i, m in enumerate(code):
        if not (ATOM.fullmatch(m.group() + "(") and i + 1 < len(code) and code[i + 1].group() == "("):
            continue
        depth, args, start = 0, [], code[i + 1].end()
        for t in code[i + 1 :]:
            g = t.group()
            if g == "(":
                depth += 1
            elif g == ")":
                depth -= 1
                if depth == 0:
                    args.append((start, t.start()))
                    break
            elif g == "," and depth == 1:
                args.append((start, t.start()))
                start = t.end()
        if depth == 0 and args:
            out.append((m.start(), args))
    return out


def mutate(text: str, rng: random.Random) -> tuple[str, str] | None:
    """One mutant of a rules file's text, and what was done (None: none of
    this kind here)."""
    kind = rng.choice(("delete a token", "swap two arguments", "change an arity"))
    if kind == "delete a token":
        tokens = [m for m in TOKEN.finditer(text) if not m.group().startswith("%")]
        if not tokens:  # (a file of comments only: contract.lp, doc.lp)
            return None
        t = rng.choice(tokens)
        return text[: t.start()] + text[t.end() :], f"{kind} {t.group()!r} at offset {t.start()}"
    atoms = [a for a in _atoms(text) if len(a[1]) >= (2 if kind.startswith("swap") else 1)]
    if not atoms:
        return None
    at, args = rng.choice(atoms)
    if kind.startswith("swap"):
        (a1, b1), (a2, b2) = sorted(rng.sample(args, 2))
        return text[:a1] + text[a2:b2] + text[b1:a2] + text[a1:b1] + text[b2:], f"{kind} at offset {at}"
    a, b = args[-1]
    if len(args) > 1 and rng.random() < 0.5:  # one argument fewer
        return text[: args[-2][1]] + text[b:], f"{kind} (one fewer) at offset {at}"
    return text[:b] + ",x" + text[b:], f"{kind} (one more) at offset {at}"


#: the child: runs each mutant folder given on standard input through
#: cli.main, a line of JSON each (begun, then its exit and what it printed)
CHILD = """
import contextlib, io, json, sys, time
from asl_kb import cli
ends = time.monotonic() + float(sys.argv[1])
for line in sys.stdin:
    if time.monotonic() > ends:
        break
    job = json.loads(line)
    print(json.dumps({"begun": job["n"]}), flush=True)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = cli.main(job["argv"])
        except SystemExit as e:
            code = e.code
    print(json.dumps({"n": job["n"], "code": code, "err": err.getvalue()[-2000:]}), flush=True)
"""


def _jobs(tmp: Path, rng: random.Random, count: int):
    files = sorted(p.relative_to(RULES).as_posix() for p in RULES.rglob("*.lp"))
    position = tmp / "small.yaml"
    position.write_text(SMALL, encoding="utf-8")
    commands = (
        ["outcomes", str(position)],
        ["check", str(position)],
        ["why-not", str(position), "R1", "rout", "C4"],
    )
    n = 0
    while n < count:
        rel = rng.choice(files)
        made = mutate((RULES / rel).read_text(encoding="utf-8"), rng)
        if made is None:
            continue
        text, what = made
        folder = tmp / f"mutant-{n}"
        (folder / rel).parent.mkdir(parents=True)
        (folder / rel).write_text(text, encoding="utf-8")
        argv = rng.choice(commands) + ["--rules", str(folder), "--timeout", "30"]
        yield {"n": n, "argv": argv, "what": f"{rel}: {what}"}
        n += 1


def test_mutated_rule_files_give_an_answer_or_a_clean_error(tmp_path):
    # (more than the time allows on this machine: the clock ends the run)
    jobs = list(_jobs(tmp_path, random.Random(SEED), 100))
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(SECONDS)],
        input="".join(json.dumps({"n": j["n"], "argv": j["argv"]}) + "\n" for j in jobs),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=SECONDS + 120,
    )
    lines = [json.loads(line) for line in child.stdout.splitlines()]
    done = [x for x in lines if "code" in x]
    begun = [x["begun"] for x in lines if "begun" in x]
    where = f"(ASL_KB_FUZZ_SEED={SEED}; replay with {{mutant}})"
    if len(begun) > len(done):  # the process ended inside a run
        j = jobs[begun[-1]]
        raise AssertionError(
            f"{j['what']}: the process ended (exit {child.returncode}): {child.stderr[-2000:]} {where}"
        )
    assert done, child.stderr
    print(f"{len(done)} mutants run in {SECONDS:g} s:", sorted(x["code"] for x in done))
    bad = [
        f"{jobs[x['n']]['what']} -> exit {x['code']}: {x['err'].strip()[-500:]}"
        for x in done
        if x["code"] not in (0, 1, 2, 3) or "Traceback" in x["err"] or "internal error" in x["err"]
    ]
    assert not bad, f"{where}\n" + "\n".join(bad)
    # (an exit 2 is one line naming where: FILE:LINE: or FILE:)
    for x in done:
        if x["code"] == 2:
            assert x["err"].startswith("error: "), x["err"]
