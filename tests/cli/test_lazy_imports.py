"""A small position's `asl-kb outcomes --format json` imports only what its
run uses (docs/performance.md: a rulebook position's run is measured as a
ratio to the import floor): not the text or HTML report, jsonschema (the
tests' reference validator of the position schema), orjson (for many fates
only), clingo's AST module (a second Control of a program: its statements
parsed), the committee's machinery or the web app, nor what only a run of
several groups uses (the children's pickle and signal: asl_kb/children.py;
`select` comes with jsonschema_rs, the position's validator), nor
`dataclasses` and its `inspect` (the records are built without them:
asl_kb/record.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NOT_IMPORTED = (
    "asl_kb.report.text",
    "asl_kb.report.html",
    "asl_kb.report.png",
    "jsonschema",
    "orjson",
    "clingo.ast",
    "asl_kb.committee.search",
    "asl_kb.committee.enumerate",
    "asl_kb.serve.app",
    "asl_kb.engines.phase",
    "asl_kb.engines.prisoners",
    "matplotlib",
    "playwright",
    "pickle",
    "signal",
    "dataclasses",
    "inspect",
)


def test_a_rulebook_position_imports_only_what_it_uses():
    code = (
        "import sys, io, contextlib; from asl_kb.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    code = main(['outcomes', 'facts/rout/A10.5-EX.yaml', '--format', 'json'])\n"
        f"print(code, [m for m in {NOT_IMPORTED!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split(None, 1) == ["0", "[]\n"], out.stdout + out.stderr
