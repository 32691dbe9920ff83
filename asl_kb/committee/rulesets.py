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

from asl_kb.asp.control import using_rules
from asl_kb.errors import PositionError
from asl_kb.record import replace
from asl_kb.resources import rules_dir

VERSIONS = ("current", "prior")
#: the entry programs a complete rules folder must load
ENTRY_PROGRAMS = ("rout.lp", "phase.lp", "check.lp", "prisoners.lp", "core/versions.lp")


class RuleSetError(PositionError):
    """A bad rule set: a folder that is not one, a file that does not parse,
    an unknown version or switch (printed FILE:LINE: KEY: message)."""


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
        from asl_kb.engines.diff import switches_in_force

        with self.active():
            on = self.flip in switches_in_force(position)
        return with_switch(position, self.flip, not on)


def with_switch(position, name: str, on: bool):
    readings = tuple((n, v) for n, v in position.readings if n != name) + ((name, on),)
    return replace(position, readings=readings)


def parse_ruleset(text: str, switch: str | None = None, key: str = "rules") -> RuleSet:
    """`current`, `prior` or a folder path (checked), with `switch` flipped."""
    if text in VERSIONS:
        rs = RuleSet(version=text)
    else:
        rs = overlay(text, key)
    if switch is not None:
        check_switch(rs, switch)
        rs = rs.flipped(switch)
    return rs


def overlay(folder: str | Path, key: str = "rules") -> RuleSet:
    """A RuleSet for an overlay folder, checked (RuleSetError if bad)."""
    path = Path(folder)
    if not path.exists():
        raise RuleSetError(str(folder), None, key, f"no such rule version or folder (versions: {', '.join(VERSIONS)})")
    if not path.is_dir():
        raise RuleSetError(str(folder), None, key, "not a folder of .lp files (or a rule version: current, prior)")
    files = sorted(p.relative_to(path).as_posix() for p in path.rglob("*.lp") if p.is_file())
    if not files:
        raise RuleSetError(str(folder), None, key, "the folder holds no .lp file")
    shipped = rules_dir()
    replaces = tuple(f for f in files if (shipped / f).is_file())
    adds = tuple(f for f in files if f not in replaces)
    rs = RuleSet(folder=path.resolve(), replaces=replaces, adds=adds)
    assert rs.folder is not None  # set just above
    complete = materialize(rs.folder)
    # each file parsed where it runs, in the complete folder: an overlaid
    # entry program's #include names a shipped file (check.lp's phase/doc.lp)
    for rel in files:
        _parse_file(complete / rel, str(path / rel), complete, path)
    _load_entries(complete, path)
    return rs


_MESSAGE = re.compile(
    r"^(?P<file>.*?):(?P<line>\d+):\d+(?:-\d+(?::\d+)?)?: (?:error|info|warning): (?P<text>.*)$", re.S
)


def _clingo_error(
    messages: list[str], default_file: str, key: str, temp: Path | None = None, real: Path | None = None
) -> RuleSetError:
    """The first clingo message as a RuleSetError pointing at its FILE:LINE
    (a path inside the materialized folder mapped back to the overlay's, or
    to the shipped rules)."""
    for msg in messages:
        m = _MESSAGE.match(msg.strip())
        if not m:
            continue
        file = m["file"]
        if temp is not None and file.startswith(str(temp)):
            rel = Path(file).relative_to(temp)
            file = str(real / rel) if real is not None and (real / rel).is_file() else str(rules_dir() / rel)
        text = " ".join(m["text"].split())
        return RuleSetError(file, int(m["line"]), key, text)
    text = " ".join(" ".join(messages).split()) or "clingo could not read it"
    return RuleSetError(default_file, None, key, text)


def _parse_file(path: Path, shown: str, temp: Path, real: Path) -> None:
    messages: list[str] = []
    try:
        clingo.ast.parse_files(
            [str(path)], lambda _stm: None, logger=lambda _code, msg: messages.append(msg), message_limit=5
        )
    except RuntimeError:
        raise _clingo_error(messages, shown, "syntax", temp, real) from None
    if any(": error:" in m for m in messages):
        raise _clingo_error(messages, shown, "syntax", temp, real)


def _load_entries(folder: Path, real: Path) -> None:
    """Every entry program of the complete folder loads (includes resolve, all parse)."""
    for entry in ENTRY_PROGRAMS:
        messages: list[str] = []
        ctl = clingo.Control(logger=lambda _code, msg: messages.append(msg), message_limit=5)
        try:
            ctl.load(str(folder / entry))
        except RuntimeError:
            raise _clingo_error(messages, str(real / entry), "load", folder, real) from None


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

_MATERIALIZED: dict[Path, Path] = {}
_TEMP_ROOT: list[Path] = []


def materialize(folder: Path) -> Path:
    """A complete rules folder: the shipped rules with the overlay's files
    copied over them (once per process; removed at exit)."""
    folder = Path(folder).resolve()
    done = _MATERIALIZED.get(folder)
    if done is not None:
        return done
    if not _TEMP_ROOT:
        root = Path(tempfile.mkdtemp(prefix="asl-kb-rules-"))
        _TEMP_ROOT.append(root)
        atexit.register(shutil.rmtree, root, True)
    target = _TEMP_ROOT[0] / f"r{len(_MATERIALIZED)}"
    shutil.copytree(rules_dir(), target)
    for p in sorted(folder.rglob("*.lp")):
        dest = target / p.relative_to(folder)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, dest)
    _MATERIALIZED[folder] = target
    return target


def discard_materialized() -> None:
    """Remove the materialized folders now (a one-position command ends its
    process without running exit handlers)."""
    for root in _TEMP_ROOT:
        shutil.rmtree(root, True)
    _TEMP_ROOT.clear()
    _MATERIALIZED.clear()


def flipped(a: RuleSet, b: RuleSet) -> tuple[str, ...] | None:
    """The switches a and b differ in when that is all they differ in (same
    version, same rules folder), else None."""
    if (a.version, a.folder, a.complete) != (b.version, b.folder, b.complete):
        return None
    return tuple(sorted(f for f in (a.flip, b.flip) if f is not None)) if a.flip != b.flip else ()
