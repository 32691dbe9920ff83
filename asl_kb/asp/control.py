"""The one place a clingo.Control is built.

Every program (rout, phase, check, prisoners, versions) is loaded from the
active rule set: the shipped `rules/` folder, or a folder overlaying it (a
proposed erratum, a mutant) set with `using_rules()`. Warnings stay on: the
input predicates are declared in `rules/core/defined.lp`, so a warning means a
real mistake; they are collected in `warnings()` (a test fails on any).

Two ways in, one program. A run parses each entry program once per process
(its statements are kept while no rule file changes; the first Control of
an entry lets clingo read the files itself) and hands a position's plain
facts to the grounder as ground atoms, in clingo's intermediate format
(aspif); text parsing cost a small position about a sixth of its run.
clingo checks that every body atom and every #show signature is defined
only while it parses program text, and misreports both on this path, so it
drops those (AtomUndefined) messages;
`diagnosing()` loads rules and facts as text, so that clingo sees the whole
program and every warning counts (tests/cli/test_no_warnings.py runs every
program that way). Both ways give the same answers (tests/report/test_digests.py).
"""

from __future__ import annotations

import atexit
import functools
import contextlib
import contextvars
import re
from pathlib import Path

import clingo

from asl_kb import process
from asl_kb.errors import NoAnswerSet, RulesError
from asl_kb.resources import rules_dir

#: the rules folder in force (None: the shipped rules)
_ACTIVE: contextvars.ContextVar[Path | None] = contextvars.ContextVar("asl_kb_rules", default=None)
#: when set (see `tracing_entries`), the entry programs loaded inside the block
_TRACE: contextvars.ContextVar[set[str] | None] = contextvars.ContextVar("asl_kb_trace", default=None)
#: when set (see `keeping_controls`), every Control built inside the block
_KEEP: contextvars.ContextVar[list | None] = contextvars.ContextVar("asl_kb_keep", default=None)
#: when true (see `diagnosing`), rules and facts are loaded as program text
_DIAGNOSING: contextvars.ContextVar[bool] = contextvars.ContextVar("asl_kb_diagnosing", default=False)


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


@contextlib.contextmanager
def diagnosing():
    """Inside the block, every Control loads its rules and facts as program
    text: slower, and every clingo warning is a real one."""
    token = _DIAGNOSING.set(True)
    try:
        yield
    finally:
        _DIAGNOSING.reset(token)


def warnings() -> list[tuple[str, str]]:
    """Every clingo warning met so far in this process, as (code, message)
    (the process's state: asl_kb/process.py)."""
    return process.STATE.warnings


def _log(code, message: str) -> None:
    process.STATE.warnings.append((str(code).rsplit(".", 1)[-1], message.strip()))


def _log_parsed(code, message: str) -> None:
    # rules added as parsed statements, facts as aspif atoms: clingo's undefined
    # atom checks misfire (see the module's docstring); the rest stands
    if code != clingo.MessageCode.AtomUndefined:
        _log(code, message)


#: the entry programs kept parsed (process.STATE.parsed) at most
_PARSED_AT_MOST = 32


def release_at_exit(clear) -> None:
    """Empty a module-level cache of clingo.ast objects at exit: an AST
    releases its C handle in __del__ through clingo.ast's library object,
    which the interpreter's teardown of modules may have cleared first (each
    kept statement then printed "Exception ignored in: AST.__del__" as a
    test worker or a committee process exited). atexit runs before that
    teardown."""
    atexit.register(clear)


release_at_exit(process.STATE.parsed.clear)


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def parsed_statements(path: Path) -> list:
    """The statements of the entry program at `path` and the files it
    includes, parsed once per process while no file changes (parsing rout.lp
    again for each Control costs more than its grounding; a mutant or an edited rule file changes the text,
    so it is parsed again)."""
    key = str(path)
    kept = process.STATE.parsed
    hit = kept.get(key)
    if hit is not None and all(_read(name) == text for name, text in hit[0]):
        kept.move_to_end(key)
        return hit[1]
    # (clingo.ast only here: a process's first Control reads its files itself, new_control)
    from clingo.ast import ASTType, parse_files

    parsed: list = []
    parse_files([key], parsed.append, logger=_log, message_limit=100)
    names = {key} | {s.location.begin.filename for s in parsed}
    statements = [s for s in parsed if s.ast_type != ASTType.Comment]
    kept[key] = (tuple((n, _read(n)) for n in sorted(names)), statements)
    if len(kept) > _PARSED_AT_MOST:
        kept.popitem(last=False)
    return statements


def new_control(entry: str, facts: str = "", args: tuple[str, ...] = ()) -> clingo.Control:
    """A Control with the entry program `entry` (e.g. "rout.lp") of the active
    rule set loaded and `facts` added to #program base (not yet grounded)."""
    text = _DIAGNOSING.get()
    path = active_rules() / entry
    ctl = clingo.Control(list(args), logger=_log if text else _log_parsed, message_limit=100)
    trace = _TRACE.get()
    if trace is not None:
        trace.add(entry)
    keep = _KEEP.get()
    if keep is not None:
        keep.append(ctl)
    if text:
        ctl.load(str(active_rules() / entry))
        if facts:
            ctl.add("base", [], facts)
        return ctl
    loaded = process.STATE.loaded
    if str(path) not in loaded:
        # the first Control of this entry program in the process: clingo
        # reads the files itself, twice as fast as parsing them into
        # statements and adding those (a CLI run builds one or two Controls)
        loaded.add(str(path))
        ctl.load(str(path))
    else:
        from clingo.ast import ProgramBuilder

        with ProgramBuilder(ctl) as builder:
            for statement in parsed_statements(path):
                builder.add(statement)
    if facts:
        add_facts(ctl, facts)
    return ctl


def add_facts(ctl: clingo.Control, facts: str) -> None:
    """Add a facts text to #program base: its plain facts handed to clingo
    in its own intermediate format (aspif: an output statement with no
    condition is a fact), which it reads at C speed -- a third of the time
    of reading them as terms in Python and adding them through the backend,
    and the grounder takes them faster too (docs/performance.md); facts to the grounder all
    the same (tests/report/test_digests.py), none a statement for it to parse or
    prepare. Any other line (#external, a rule) is added as text."""
    aspif, rest = _split_facts(facts)
    if aspif:
        # (clingo reads a file by name only: asl_kb/process.py)
        with process.file_holding(aspif, ".aspif") as path:
            ctl.load_aspif([path])
    if rest:
        ctl.add("base", [], rest)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _one_atom(line: str) -> bool:
    """Whether a line "p(...)." is one atom and nothing else: outside its
    strings no other period (a second fact, an interval `..`), no pool `;`,
    no rule, no comment. (Most lines hold none of these in a string either:
    those are told without looking into their strings.)"""

    def plain(text: str) -> bool:
        return text.count(".") == 1 and ";" not in text and ":" not in text and "%" not in text

    return plain(line) or ('"' in line and plain(_STRING.sub('""', line)))


#: a line (after the first) not starting with a name
_NOT_A_NAME = re.compile(r"\n[^a-z]")


def _all_plain(text: str, lines: int) -> bool:
    """Whether every one of the text's `lines` lines is a plain fact, told
    from the whole text at C speed: each line's only period is its last
    character, each starts with a name, and no pool, rule, comment or
    directive is anywhere (not even in a string: such a text is read line
    by line)."""
    return (
        text.endswith(".\n")
        and text.count(".") == lines == text.count(".\n")
        and text[:1].islower()
        and not _NOT_A_NAME.search(text)
        and not any(c in text for c in ";:%#")
    )


@functools.lru_cache(maxsize=1024)
def _split_facts(text: str) -> tuple[bytes, str]:
    """The plain facts of `text` (lines "p(a,1)." as asl_kb/asp/facts.py
    writes them) as an aspif program (b"" when there are none), and the
    other lines (#external, rules, several facts on a line) as text. The
    same text comes back often (a case's runs, a mutant's cases): kept."""
    plain, rest = [], []
    # each fact once: clingo takes a symbol output twice in aspif for an atom
    # of its own, no longer a fact (a unit's status written twice by facts.py
    # left the rout graph undecided, growing without bound)
    # (aspif counts a symbol's length in bytes: an ASCII text's characters)
    ascii_only = text.isascii()
    lines = text.splitlines()
    if ascii_only and _all_plain(text, len(lines)):
        # told at once, not line by line (a spread of 16 boards writes 70,000)
        body = "".join([f"4 {len(line) - 1} {line[:-1]} 0\n" for line in dict.fromkeys(lines)])
        return (("asp 1 0 0\n" + body + "0\n").encode() if body else b"", "")
    for line in dict.fromkeys(lines):
        # an atom: a name first (not a tuple, number, string, -p or #directive)
        if line[:1].islower() and line.endswith(".") and _one_atom(line):
            n = len(line) - 1 if ascii_only else len(line[:-1].encode())
            plain.append(f"4 {n} {line[:-1]} 0\n")
        else:
            rest.append(line)
    aspif = ("asp 1 0 0\n" + "".join(plain) + "0\n").encode() if plain else b""
    return (aspif, "\n".join(rest) + "\n" if any(x.strip() for x in rest) else "")


def prime_errors() -> None:
    """Allocate this thread's C++ and clingo error state while memory is
    there: the first C++ exception a thread throws allocates it (glibc's
    thread-local blocks of a loaded library are made when first touched),
    and where that allocation fails -- a std::bad_alloc under the memory
    cap, the very first exception -- glibc ends the process ("cannot
    allocate memory for thread-local data") instead of clingo failing
    softly. Called by the CLI before it caps the memory (cli.py). (A
    string's number: clingo throws, and answers RuntimeError, in 20 us.)"""
    try:
        _ = clingo.String("").number
    except RuntimeError:
        pass


# -- a rules folder's problems, as its user names its files -----------------


def made_from(complete: Path, folder: Path) -> None:
    """`complete` is the rules folder run for the overlay `folder`
    (committee/rulesets.py materialize): its files are named as the
    folder's (or the shipped rules') in messages. (Kept in the process's
    state, process.STATE.made_from: asl_kb/process.py.)"""
    process.STATE.made_from[Path(complete)] = Path(folder)


def shown_path(path: str | Path) -> str:
    """A rules file's path as its user knows it: a file of a complete folder
    made from an overlay is the overlay's file, else the shipped one."""
    p = Path(path)
    for complete, folder in process.STATE.made_from.items():
        if p.is_relative_to(complete):
            rel = p.relative_to(complete)
            return str(folder / rel if (folder / rel).is_file() else rules_dir() / rel)
    return str(path)


def rules_label() -> str:
    """The rules in force as their user names them: the overlay folder, a
    complete folder, or the shipped rules' folder."""
    folder = _ACTIVE.get()
    if folder is None:
        return str(rules_dir())
    return str(process.STATE.made_from.get(folder, folder))


def checking_contract() -> bool:
    """Whether answers are checked against the contract as they are read
    (asl_kb/asp/contract.py): while a rules folder is in force."""
    return _ACTIVE.get() is not None


def own_files() -> set[str]:
    """The relative names of the files the rules in force take from an
    overlay folder (none for the shipped rules or a folder of its own)."""
    folder = process.STATE.made_from.get(_ACTIVE.get() or rules_dir())
    if folder is None:
        return set()
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*.lp")}


def no_answer_set(entry: str) -> NoAnswerSet:
    """The error of the entry program `entry` left without an answer set by
    the rules in force."""
    return NoAnswerSet(rules_label(), entry)


_MESSAGE = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+):\d+(?:-\d+(?::\d+)?)?: (?P<level>error|info|warning|note): ")


def _words(message: str, first: re.Match) -> str:
    """An error message's words on one line: its first line and what
    follows it (the file an #include could not open), its notes ('X' is
    unsafe) without their places; where the first line ends "in:", what
    follows is the grounder's rewriting of the clause, left out (the
    file's line shows the clause as written)."""
    lines = message.strip().split("\n")
    head = lines[0][first.end() :].strip()
    clause = head.endswith(" in:")
    words = [head[: -len(" in:")] + " in the clause" if clause else head]
    for line in lines[1:]:
        note = _MESSAGE.match(line.strip())
        if note is not None:
            words.append(f"({line.strip()[note.end() :].strip()})")
        elif not clause:
            words.append(line.strip())
    return " ".join(" ".join(words).split())


def clingo_error(messages: list[str], key: str, file: str) -> RulesError:
    """The first error among clingo's `messages` as a RulesError at its
    FILE:LINE (the file as shown_path() names it); `file` where no message
    names one. The one place clingo's words become a rules folder's error."""
    for msg in messages:
        m = _MESSAGE.match(msg.strip())
        if m is not None and m["level"] == "error":
            return RulesError(shown_path(m["file"]), int(m["line"]), key, _words(msg, m))
    text = " ".join(" ".join(messages).split()) or "clingo could not read it"
    return RulesError(shown_path(file), None, key, text)
