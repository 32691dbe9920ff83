"""The one place a clingo.Control is built.

Every program (rout, phase, check, prisoners, versions) is loaded from the
active rule set: the shipped `rules/` folder, or a folder overlaying it (a
proposed erratum, a mutant) set with `using_rules()`. Warnings stay on: the
input predicates are declared in `rules/core/defined.lp`, so a warning means a
real mistake; they are collected in `WARNINGS` (a test fails on any).
"""
from __future__ import annotations

import contextlib
import contextvars
from pathlib import Path

import clingo

from asl_kb.resources import rules_dir

#: the rules folder in force (None: the shipped rules)
_ACTIVE: contextvars.ContextVar[Path | None] = contextvars.ContextVar("asl_kb_rules", default=None)
#: every clingo warning met so far in this process, as (code, message)
WARNINGS: list[tuple[str, str]] = []
#: when set (see `tracing_entries`), the entry programs loaded inside the block
_TRACE: contextvars.ContextVar[set[str] | None] = contextvars.ContextVar("asl_kb_trace", default=None)
#: when set (see `keeping_controls`), every Control built inside the block
_KEEP: contextvars.ContextVar[list | None] = contextvars.ContextVar("asl_kb_keep", default=None)


def active_rules() -> Path:
    return _ACTIVE.get() or rules_dir()


@contextlib.contextmanager
def using_rules(folder: Path | str | None):
    """Run the programs from `folder` (a complete rules folder) inside the block."""
    token = _ACTIVE.set(Path(folder) if folder is not None else None)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


@contextlib.contextmanager
def tracing_entries():
    """Collect the entry programs (e.g. "rout.lp") loaded inside the block into
    the yielded set: which rule files a run depends on (used by `make mutate`)."""
    seen: set[str] = set()
    token = _TRACE.set(seen)
    try:
        yield seen
    finally:
        _TRACE.reset(token)


@contextlib.contextmanager
def keeping_controls():
    """Collect every Control built inside the block into the yielded list, to
    read what they grounded afterwards (`make mutate`'s probes)."""
    kept: list = []
    token = _KEEP.set(kept)
    try:
        yield kept
    finally:
        _KEEP.reset(token)


def _log(code, message: str) -> None:
    WARNINGS.append((str(code).rsplit(".", 1)[-1], message.strip()))


def new_control(entry: str, facts: str = "", args: tuple[str, ...] = ()) -> clingo.Control:
    """A Control with the entry program `entry` (e.g. "rout.lp") of the active
    rule set loaded and `facts` added to #program base (not yet grounded)."""
    ctl = clingo.Control(list(args), logger=_log, message_limit=100)
    trace = _TRACE.get()
    if trace is not None:
        trace.add(entry)
    keep = _KEEP.get()
    if keep is not None:
        keep.append(ctl)
    ctl.load(str(active_rules() / entry))
    if facts:
        ctl.add("base", [], facts)
    return ctl
