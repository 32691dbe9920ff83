"""Engine runs shared by the tests of one session.

Many test files ask the same question of the same bundled position (its
outcomes plain, with --phase, with --voluntary-break; `check`): the digests,
the schema, the case runner, the report pages, the no-warnings test... Each
answer is computed once per test session and handed out again:

* the key is what the answer depends on: the engine, the whole position
  (every field of the loaded file, its name included), every option (the
  engine's defaults filled in), and the rules folder in force — only the
  shipped rules are shared (a test's own rules folder is always run, and
  so is a run with a --timeout or inside control.tracing_entries() or
  control.diagnosing());
* every caller gets its own copy (unpickled), so a test that changes a
  result changes nobody else's;
* the clingo warnings a run produced are kept with its answer and logged
  again (asl_kb.asp.control.warnings()) each time the answer is handed out,
  so tests/cli/test_no_warnings.py sees them as if the run had been made;
* a run that raises is not kept (the next caller runs it again).

The answers live in this process and, under pytest-xdist, in a folder of
the session shared by the workers (DIR, set by conftest.py), written
atomically: a worker reads what the other computed. Nothing outlives the
session (conftest.py removes the folder).

Below the engines, the rout program's answer for a facts text (solve) and
the prisoners program's for a position's prisoner facts are kept too, in
this process and (their symbols as text: clingo's do not pickle) in the
session's folder: the outcomes with and without --phase, the graph tests,
the grounding-bound and the case runs ground the same rout graphs, and
every outcomes run, check and the no-warnings test run the same prisoners
program. Only a plain run of the shipped rules is kept: a deadline, a short
--timeout, a test's own rules, tracing, diagnosing, keeping controls or a
test's own new_control run it.
"""

from __future__ import annotations

import fcntl
import hashlib
import inspect
import os
import pickle
from collections import OrderedDict
from pathlib import Path

import clingo

from asl_kb import budget, record
from asl_kb.asp import control
from asl_kb.asp import solve as _solve_module
from asl_kb.asp.facts import prisoner_facts
from asl_kb.engines import prisoners as _prisoners_module
from asl_kb.engines.check import check as _check
from asl_kb.engines.outcomes import outcomes as _outcomes
from asl_kb.resources import rules_dir

#: the session's shared folder (None: this process only)
DIR: Path | None = None
_MEMO: dict[str, bytes] = {}
#: runs made / answers handed out again, for this process
STATS = {"runs": 0, "shared": 0}


def _defaults(fn) -> dict:
    return {
        k: p.default for k, p in inspect.signature(fn).parameters.items() if p.default is not inspect.Parameter.empty
    }


_NEW_CONTROL = control.new_control
_SOLVE = _solve_module.solve
_PRISONERS = _prisoners_module.answer
#: (kind, facts) key -> (shown symbols, figures, warnings logged), most recent last
_SOLVED: OrderedDict = OrderedDict()
_SOLVED_AT_MOST = 256
#: a run's --timeout no test run comes near (the CLI's default, 600 s): an
#: answer kept holds under it; a shorter one (a test of the deadline) runs
_AMPLE = 60.0


def _plain() -> bool:
    """Whether a run now is a plain run of the shipped rules."""
    return (
        control.active_rules() == rules_dir()
        and control._TRACE.get() is None
        and not control._DIAGNOSING.get()
        and control._KEEP.get() is None
        and (budget.timeout() is None or budget.timeout() >= _AMPLE)
        and _solve_module.new_control is _NEW_CONTROL
    )


def solve(facts: str, concealed: int = 0, entry: str = "rout.lp", deadline=None):
    """asl_kb.asp.solve.solve(...), kept in this process and the session (a
    copy of its symbols list and stats each time; its warnings logged again)."""
    if deadline is not None or not _plain():
        return _SOLVE(facts, concealed, entry, deadline)
    symbols, stats = _kept("solve", (facts, concealed, entry), lambda: _SOLVE(facts, concealed, entry))
    return symbols, record.replace(stats)


def prisoners_answer(position) -> list:
    """asl_kb.engines.prisoners.answer(position), kept as solve() is: the
    prisoners program reads only the position's prisoner_facts."""
    if not _plain() or _prisoners_module.new_control is not _NEW_CONTROL:
        return _PRISONERS(position)
    return _kept("prisoners", prisoner_facts(position), lambda: (_PRISONERS(position), None))[0]


def _kept(kind: str, what, make):
    """make() -> (shown symbols, figures), once for `what` in the session:
    kept in this process (the most recent _SOLVED_AT_MOST) and, the symbols
    as one tuple term as asl_kb.asp.workers hands them back (a tenth of a
    solve's time to write and read), in the session's folder. The warnings
    the run logged are logged again each time. Returns a copy of the list."""
    key = hashlib.sha256(repr((kind, what)).encode("utf-8")).hexdigest()
    hit = _SOLVED.get(key)
    if hit is None:

        def run():
            before = len(control.warnings())
            symbols, figures = make()
            STATS["runs"] += 1
            made = (symbols, figures, control.warnings()[before:])
            text = "(" + "".join(f"{s}," for s in symbols) + ")"
            return made, pickle.dumps((text, figures, made[2]), protocol=pickle.HIGHEST_PROTOCOL)

        made, blob = run() if DIR is None else _once(f"{kind}-{key}.pickle", run)
        if made is None:
            text, figures, warnings = pickle.loads(blob)
            STATS["shared"] += 1
            control.warnings().extend(warnings)
            made = (clingo.parse_term(text).arguments, figures, warnings)
        hit = _SOLVED[key] = made
        if len(_SOLVED) > _SOLVED_AT_MOST:
            _SOLVED.popitem(last=False)
    else:
        _SOLVED.move_to_end(key)
        STATS["shared"] += 1
        control.warnings().extend(hit[2])
    return list(hit[0]), hit[1]


def _once(name: str, make):
    """(what make() made, or None where another worker of the session made
    it; its pickled form) for the file `name` of the session's folder DIR:
    one run per name in the session. A worker asking for a name the other is
    making waits for it (the lock is the OS's: a worker that dies lets it
    go); the file is written whole (a temporary file, then os.replace)."""
    assert DIR is not None
    file = DIR / name
    with open(file.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if file.is_file():
                return None, file.read_bytes()
            made, blob = make()
            part = file.with_name(f"{file.name}.{os.getpid()}.part")
            part.write_bytes(blob)
            os.replace(part, file)
            return made, blob
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


_OPTIONS = {"outcomes": (_outcomes, _defaults(_outcomes)), "check": (_check, _defaults(_check))}


def _key(kind: str, position, options: dict) -> str:
    # `expect` (a case's expectations) takes no part in a position's == and
    # hash, nor in its answer
    text = repr((kind, record.replace(position, expect=None), sorted(options.items())))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _shared(kind: str, position, options: dict):
    fn, defaults = _OPTIONS[kind]
    unknown = set(options) - set(defaults)
    if unknown:
        raise TypeError(f"{kind}() got unexpected options {sorted(unknown)}")
    if (
        control.active_rules() != rules_dir()
        or options.get("timeout") is not None
        or control._TRACE.get() is not None
        or control._DIAGNOSING.get()
    ):
        # a test's own rules, a timed run, a traced run, a run loading its
        # programs as text (control.diagnosing()): always run
        return fn(position, **options)
    key = _key(kind, position, {**defaults, **options})
    blob = _MEMO.get(key)
    if blob is None and DIR is not None:
        value, blob = _once(f"{kind}-{key}.pickle", lambda: _run(fn, position, options))
        if value is not None:
            _MEMO[key] = blob
            return value
    elif blob is None:
        value, _MEMO[key] = _run(fn, position, options)
        return value
    _MEMO[key] = blob
    STATS["shared"] += 1
    value, warnings = pickle.loads(blob)
    control.warnings().extend(warnings)
    return value


def _run(fn, position, options):
    """(answer, pickled answer and the warnings it logged)."""
    before = len(control.warnings())
    value = fn(position, **options)
    STATS["runs"] += 1
    return value, pickle.dumps((value, control.warnings()[before:]), protocol=pickle.HIGHEST_PROTOCOL)


def outcomes(position, **options) -> dict:
    """asl_kb.engines.outcomes.outcomes(position, **options), shared."""
    return _shared("outcomes", position, options)


def check(position) -> dict:
    """asl_kb.engines.check.check(position), shared."""
    return _shared("check", position, {})
