"""A rules folder's `overlay.toml`: the rules version its edits are against.

    # overlay.toml, beside the folder's .lp files
    against = "0.1.0"       # a released version (pyproject.toml's `version`)
    on_stale = "warn"       # or "refuse": an error, exit 2 (default: warn)

A folder naming the version it edits is read against that version's
clauses, as recorded in the package (committee/released/): the clauses its
edits touch that the shipped rules no longer have are named
(committee/stale.py), with no git history needed. A folder without the
file is read as before.
"""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from functools import cache
from pathlib import Path

from asl_kb.errors import RulesError

NAME = "overlay.toml"
RECORDS = Path(__file__).resolve().parent / "released"
ON_STALE = ("warn", "refuse")


@dataclasses.dataclass(frozen=True)
class Overlay:
    file: Path  # the overlay.toml
    against: str
    on_stale: str
    line: int  # of `against`


def recorded() -> list[str]:
    """The rules versions the package holds the clauses of, oldest first."""
    return sorted((p.stem for p in RECORDS.glob("*.json")), key=_version_key)


def _version_key(v: str) -> tuple:
    return tuple(int(x) if x.isdigit() else x for x in re.split(r"[.\-+]", v))


@cache
def clauses_of(version: str) -> dict[str, tuple[str, ...]]:
    """{rules file: its clause texts} of a recorded version."""
    data = json.loads((RECORDS / f"{version}.json").read_text(encoding="utf-8"))
    return {rel: tuple(texts) for rel, texts in data["files"].items()}


def record_of(rules: Path) -> dict:
    """The record of a rules folder (every .lp file's clause texts, in file
    order), as tools/rule_versions.py writes it."""
    from asl_kb.committee.clauses import text_clauses

    files = {
        p.relative_to(rules).as_posix(): [c.text for c in text_clauses(p.read_bytes())]
        for p in sorted(rules.rglob("*.lp"))
    }
    return {"files": files}


def _line_of(text: str, key: str) -> int:
    m = re.search(rf"^\s*{key}\s*=", text, re.M)
    return text[: m.start()].count("\n") + 1 if m else 1


def read(folder: Path) -> Overlay | None:
    """The folder's overlay.toml, checked (RulesError `FILE:LINE: KEY:
    message`); None without one."""
    path = folder / NAME
    if not path.is_file():
        return None
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except UnicodeDecodeError:
        raise RulesError(str(path), None, None, "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise RulesError(str(path), int(m.group(1)) if m else None, None, f"not TOML: {e}") from None
    for key in sorted(set(data) - {"against", "on_stale"}):
        raise RulesError(str(path), _line_of(text, key), key, "unknown key (known: against, on_stale)")
    against, on_stale = data.get("against"), data.get("on_stale", "warn")
    if not isinstance(against, str):
        raise RulesError(
            str(path),
            _line_of(text, "against"),
            "against",
            'the rules version the folder edits, e.g. against = "0.1.0"',
        )
    if against not in recorded():
        raise RulesError(
            str(path),
            _line_of(text, "against"),
            "against",
            f"no record of rules version {against!r} (recorded: {', '.join(recorded())})",
        )
    if on_stale not in ON_STALE:
        raise RulesError(str(path), _line_of(text, "on_stale"), "on_stale", f"one of {', '.join(ON_STALE)}")
    return Overlay(path, against, on_stale, _line_of(text, "against"))
