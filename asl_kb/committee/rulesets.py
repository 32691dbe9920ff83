"""Rule sets a committee compares.

A rule set is written as

* `current` or `prior` -- a rule version of rules/core/versions.lp;
* a folder of `.lp` files overlaying the shipped rules: a file with the same
  relative name as a shipped one replaces it, a new name is added (it takes
  part only if some program includes it, e.g. a replaced entry file);
* either of them with one switch of rules/core/versions.lp flipped
  (`--switch NAME`): on where the rule set has it off, off where on.

A folder is checked (every .lp file must parse; the programs of the
materialized folder must load) and materialized once per process into a
temporary complete rules folder, run with `asl_kb.asp.control.using_rules`.
Problems are `FILE:LINE: KEY: message` errors (RuleSetError), as positions'.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import re
import shutil
import tempfile
from pathlib import Path

import clingo
import clingo.ast

from asl_kb import process
from asl_kb.asp.control import clingo_error, made_from, shown_path, using_rules
from asl_kb.errors import RulesError
from asl_kb.record import replace
from asl_kb.resources import rules_dir

VERSIONS = ("current", "prior")
#: the entry programs a complete rules folder must load
ENTRY_PROGRAMS = (
    "rout.lp",
    "why_not.lp",
    "phase.lp",
    "check.lp",
    "prisoners.lp",
    "position.lp",
    "switches.lp",
    "core/versions.lp",
)


#: a bad rule set: a folder that is not one, a file that does not parse, an
#: unknown version or switch (printed FILE:LINE: KEY: message): the rules
#: folder errors clingo's messages make (asl_kb/asp/control.py clingo_error)
RuleSetError = RulesError


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """What a position is run under."""

    version: str = "current"
    #: an overlay folder (None: the shipped rules)
    folder: Path | None = None
    #: relative names of the overlay's files that replace shipped ones / are new
    replaces: tuple[str, ...] = ()
    adds: tuple[str, ...] = ()
    #: a switch of versions.lp flipped relative to the rule set (None: none)
    flip: str | None = None
    #: a complete rules folder run as it is (a folder's edits partly undone,
    #: committee/edits.py), instead of the materialized overlay
    complete: Path | None = None

    @property
    def label(self) -> str:
        base = str(self.folder) if self.folder is not None else self.version
        return base + (f" with {self.flip} flipped" if self.flip else "")

    def flipped(self, switch: str) -> "RuleSet":
        return dataclasses.replace(self, flip=switch)

    def cli_args(self) -> list[str]:
        """The options that name this rule set to `outcomes`, `check`,
        `why-not` and `report` (a replay line)."""
        return ["--rules", str(self.folder) if self.folder is not None else self.version] + (
            ["--switch", self.flip] if self.flip else []
        )

    def as_json(self) -> dict:
        out: dict = {"version": self.version}
        if self.folder is not None:
            out.update(folder=str(self.folder), replaces=list(self.replaces), adds=list(self.adds))
        if self.flip:
            out["switch"] = self.flip
        return out

    @contextlib.contextmanager
    def active(self):
        """Run the block's programs under this rule set's rules folder."""
        folder = self.complete or (materialize(self.folder) if self.folder is not None else None)
        with using_rules(folder):
            yield

    def apply(self, position):
        """The position as this rule set runs it: its version, and the
        flipped switch set against what is in force for it."""
        position = replace(position, rules=self.version)
        if not self.flip:
            return position
        from asl_kb.committee.judging import switches_in_force

        with self.active():
            on = self.flip in switches_in_force(position)
        return with_switch(position, self.flip, not on)


def with_switch(position, name: str, on: bool):
    readings = tuple((n, v) for n, v in position.readings if n != name) + ((name, on),)
    return replace(position, readings=readings)


def parse_ruleset(text: str, switch: str | None = None, key: str = "--rules") -> RuleSet:
    """`current`, `prior` or a folder path (checked), with `switch` flipped."""
    if text in VERSIONS:
        rs = RuleSet(version=text)
    else:
        rs = overlay(text, key)
    if switch is not None:
        check_switch(rs, switch)
        rs = rs.flipped(switch)
    return rs


def overlay(folder: str | Path, key: str = "--rules") -> RuleSet:
    """A RuleSet for an overlay folder, checked (RuleSetError if bad): every
    file UTF-8 text that parses, no script, and every entry program of the
    complete folder loads (its includes resolve, none twice) and grounds
    (no unsafe variable: clingo checks every part at the first ground)."""
    path = Path(folder)
    if not path.exists():
        raise RuleSetError(str(folder), None, key, f"no such rule version or folder (versions: {', '.join(VERSIONS)})")
    if not path.is_dir():
        raise RuleSetError(str(folder), None, key, "not a folder of .lp files (or a rule version: current, prior)")
    files = sorted(p.relative_to(path).as_posix() for p in path.rglob("*.lp") if p.is_file())
    if not files:
        raise RuleSetError(str(folder), None, key, "the folder holds no .lp file")
    stamp = (str(path), path.resolve(), _stamp(path))
    checked = process.kept("committee.rulesets checked")
    known = checked.get(stamp)
    if isinstance(known, RulesError):
        raise known.with_traceback(None)
    if known is not None:
        assert known.folder is not None  # (an overlay's)
        made_from(materialize(known.folder), path)  # (made again if it was discarded)
        return known
    try:
        rs = _checked(path, files, key)
    except RulesError as e:
        checked[stamp] = e
        raise
    checked[stamp] = rs
    return rs


# (process.kept("committee.rulesets checked"): an overlay folder, its files'
# _stamp -> its RuleSet, or why it is refused: checked once per process while
# its files are unchanged (a committee's runs, the server's, the tests' name
# one folder many times))


def _checked(path: Path, files: list[str], key: str) -> RuleSet:
    """overlay()'s checks of a folder holding `files`."""
    for rel in files:
        _text(path / rel)
    shipped = rules_dir()
    replaces = tuple(f for f in files if (shipped / f).is_file())
    adds = tuple(f for f in files if f not in replaces)
    rs = RuleSet(folder=path.resolve(), replaces=replaces, adds=adds)
    assert rs.folder is not None  # set just above
    complete = materialize(rs.folder)
    made_from(complete, path)  # (its files named as the command line names the folder)
    # each file parsed where it runs, in the complete folder: an overlaid
    # entry program's #include names a shipped file (check.lp's phase/doc.lp)
    for rel in files:
        _parse_file(complete / rel, str(path / rel))
    _load_entries(complete, set(files))
    return rs


def _text(path: Path) -> str:
    """A rules file's text: UTF-8, not binary (clingo's Python layer cannot
    even report what it finds in other bytes)."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise RuleSetError(str(path), None, None, f"cannot read file: {e.strerror}") from None
    if b"\0" in data:
        line = data.count(b"\n", 0, data.index(b"\0")) + 1
        raise RuleSetError(str(path), line, None, "file is binary, not rules text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise RuleSetError(str(path), line, None, f"file is not UTF-8 text (byte 0x{data[e.start]:02x})") from None


def _parse_file(path: Path, shown: str) -> None:
    """The file parses; it holds no script (a rules folder is rules, not
    code run by the grounder)."""
    messages: list[str] = []
    scripts: list = []

    def take(stm) -> None:
        if stm.ast_type == clingo.ast.ASTType.Script:
            scripts.append(stm)

    try:
        clingo.ast.parse_files([str(path)], take, logger=lambda _code, msg: messages.append(msg), message_limit=5)
        failed = any(": error:" in m for m in messages)
    except RuntimeError:
        failed = True
    if failed:
        key = "include" if any("could not be opened" in m for m in messages) else "syntax"
        raise clingo_error(messages, key, shown)
    for stm in scripts:
        where = shown_path(stm.location.begin.filename)
        raise RuleSetError(where, stm.location.begin.line, "script", "scripts are not allowed in a rules folder")


_INCLUDE = re.compile(r'^[ \t]*#include\s+(?:"([^"]*)"|<([^>]*)>)\s*\.', re.M)


def _reads(folder: Path, entry: str) -> set[str] | None:
    """The files (relative names) an entry program of a complete folder
    reads, itself and what it includes; None where an include cannot be
    told (then the entry is loaded: clingo says)."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        try:
            text = (folder / rel).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        for m in _INCLUDE.finditer(text):
            name = m[1] or m[2]
            near = (folder / rel).parent / name
            found = near if near.is_file() else folder / name
            try:
                todo.append(found.resolve().relative_to(folder.resolve()).as_posix())
            except ValueError:
                return None
    return seen


def _load_entries(folder: Path, own: set[str]) -> None:
    """Every entry program of the complete folder that reads a file of the
    overlay (`own`) loads (includes resolve, all parse, no file included
    twice) and grounds with no facts (clingo checks every part's clauses
    then: an unsafe variable, a #program of the wrong parameters). An entry
    whose files another such entry reads too is loaded in it (rout.lp in
    why_not.lp)."""
    reads = {e: _reads(folder, e) for e in ENTRY_PROGRAMS}

    def within(a: str, b: str) -> bool:  # entry a's files all read by entry b
        ra, rb = reads[a], reads[b]
        return ra is not None and rb is not None and ra < rb

    touched = [e for e in ENTRY_PROGRAMS if (reads[e] or own) & own]
    for entry in touched:
        if any(within(entry, other) for other in touched):
            continue
        messages: list[str] = []
        twice: list[str] = []

        def log(code, msg: str) -> None:
            (twice if code == clingo.MessageCode.FileIncluded else messages).append(msg)

        ctl = clingo.Control(logger=log, message_limit=5)
        try:
            ctl.load(str(folder / entry))
        except RuntimeError:
            raise clingo_error(messages, "load", str(folder / entry)) from None
        if twice:
            raise _included_twice(twice[0], str(folder / entry))
        try:
            ctl.ground([("base", [])])
        except RuntimeError:
            raise clingo_error(messages, "grounding", str(folder / entry)) from None


_INCLUDED = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+):[^\n]*?already included file:\s*(?P<name>.*)$", re.S)


def _included_twice(message: str, entry: str) -> RuleSetError:
    """clingo's warning of a file included twice (it reads it once) as an
    error: in a rules folder it is a slip, most often a file that includes
    itself."""
    m = _INCLUDED.match(message.strip())
    if m is None:
        return RuleSetError(shown_path(entry), None, "include", " ".join(message.split()))
    here, name = Path(m["file"]), m["name"].strip()
    itself = (here.parent / name).resolve() == here.resolve() or Path(name).resolve() == here.resolve()
    said = "the file includes itself" if itself else f"{name} is included twice (clingo reads it once)"
    return RuleSetError(shown_path(here), int(m["line"]), "include", said)


def check_switch(rs: RuleSet, name: str) -> None:
    from asl_kb.position.loader import switch_names

    with rs.active():
        known = switch_names()
    if name not in known:
        versions = (rs.folder or rules_dir()) / "core" / "versions.lp"
        if rs.folder is not None and not versions.is_file():
            versions = rules_dir() / "core" / "versions.lp"
        raise RuleSetError(
            str(versions), None, "switch", f"unknown switch {name!r} (known: {', '.join(sorted(known))})"
        )


# -- materialized folders ----------------------------------------------------

# (process.kept("committee.rulesets made"): an overlay folder -> (its files'
# _stamp, the complete folder made of it); process.kept("committee.rulesets
# temp"): the temporary folder they are made in ("root") and how many were
# made in this process ("count": their names))


def _stamp(folder: Path) -> tuple:
    """The overlay's files as they are now (name, size, time written)."""
    out = []
    for p in sorted(folder.rglob("*.lp")):
        try:
            st = p.stat()
        except OSError:
            continue
        out.append((p.relative_to(folder).as_posix(), st.st_size, st.st_mtime_ns))
    return tuple(out)


def materialize(folder: Path) -> Path:
    """A complete rules folder: the shipped rules with the overlay's files
    copied over them (once per process while the overlay's files are
    unchanged; removed at exit)."""
    folder = Path(folder).resolve()
    stamp = _stamp(folder)
    made, temp = process.kept("committee.rulesets made"), process.kept("committee.rulesets temp")
    done = made.get(folder)
    if done is not None and done[0] == stamp:
        return done[1]
    if "root" not in temp:
        temp["root"] = Path(tempfile.mkdtemp(prefix="asl-kb-rules-"))
        atexit.register(shutil.rmtree, temp["root"], True)
    temp["count"] = temp.get("count", 0) + 1
    target = temp["root"] / f"r{temp['count']}"
    shutil.copytree(rules_dir(), target)
    for p in sorted(folder.rglob("*.lp")):
        dest = target / p.relative_to(folder)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, dest)
    made[folder] = (stamp, target)
    made_from(target, folder)
    return target


def discard_materialized() -> None:
    """Remove the materialized folders now (a one-position command ends its
    process without running exit handlers)."""
    root = process.kept("committee.rulesets temp").pop("root", None)
    if root is not None:
        shutil.rmtree(root, True)
    process.kept("committee.rulesets made").clear()


def flipped(a: RuleSet, b: RuleSet) -> tuple[str, ...] | None:
    """The switches a and b differ in when that is all they differ in (same
    version, same rules folder), else None."""
    if (a.version, a.folder, a.complete) != (b.version, b.folder, b.complete):
        return None
    return tuple(sorted(f for f in (a.flip, b.flip) if f is not None)) if a.flip != b.flip else ()
