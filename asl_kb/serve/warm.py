"""Imported once by the fork server (asl_kb/serve/work.py): one small answer,
so that every child forked from it finds the rules parsed and the report's
template compiled (a cold child spends ~0.4 s on them, more than a small
position's answer)."""

from __future__ import annotations

import atexit
import os

from asl_kb.serve import answers

_TEXT = """name: warm-up
attacker: russian
map: {area: [A1, E5], terrain: {C3: woods}}
units:
  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: D4, status: [broken]}
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: E1}
"""

try:
    answers.outcomes(_TEXT, "warm-up.yaml", False, 30.0, 1024)
    answers.why_not(_TEXT, "warm-up.yaml", "R1", "C3")
except Exception:  # a cold child still answers
    pass


def _exit_quietly() -> None:
    """The fork server ends with the server: end it without Python's
    teardown, where clingo's cached rules would outlive the library that
    frees them (an `Exception ignored in AST.__del__` each). Only the fork
    server imports this module."""
    os._exit(0)


atexit.register(_exit_quietly)
