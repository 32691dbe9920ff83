"""docs/serve.md says what the code does: its table of options holds every
option of `asl-kb serve` with the default the parser gives it, and the
limits it names are the app's."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from asl_kb import cli

DOC = Path(__file__).resolve().parents[2] / "docs" / "serve.md"


def _serve_parser() -> argparse.ArgumentParser:
    ap = cli._parser(["serve"])
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices["serve"]


def _documented() -> dict[str, str]:
    """option -> its default, from the doc's table (the first column's
    option name, the second column's first code span)."""
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `(--[a-z-]+)[^`]*` \| (.*?) \|", line)
        if m:
            code = re.search(r"`([^`]*)`", m[2])
            rows[m[1]] = code[1] if code else m[2].strip()
    return rows


def test_every_option_and_its_default_is_documented():
    parser = _serve_parser()
    shown = {
        a.option_strings[-1]: a.default
        for a in parser._actions
        if a.option_strings and a.option_strings[-1] not in ("--help", "--version", "--debug")
    }
    documented = _documented()
    assert set(documented) == set(shown)
    for option, default in shown.items():
        if default is None:  # --rules: the position's own; --switch: none flipped
            assert (
                documented[option] == {"--rules": "the position's", "--switch": "none", "--vasl-boards": "none"}[option]
            )
        else:
            assert documented[option] == f"{default:g}" if isinstance(default, float) else str(default), option
    assert shown["--timeout"] == cli.DEFAULT_SERVE_TIMEOUT and shown["--max-memory"] == cli.DEFAULT_MAX_MEMORY


def test_the_limits_named_are_the_apps():
    from asl_kb.position.loader import MAX_BYTES
    from asl_kb.serve import app, server

    text = DOC.read_text(encoding="utf-8")
    assert f"at most {app.MAX_BODY // 2**20} MiB" in text and MAX_BYTES == 2**20 and "the loader's 1 MiB" in text
    assert server.STOP_GRACE == 1 and "get a second, then they are killed" in text
