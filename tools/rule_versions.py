"""The record of the clauses of a released version's rules (pyproject.toml's
`version`, in asl_kb/committee/released/), which a rules folder naming the
version it edits (its overlay.toml, asl_kb/committee/overlay_file.py) is
read against once the shipped rules have moved on.

    python -m tools.rule_versions            # at a release: record its rules
    python -m tools.rule_versions --check    # exit 1 if the version has no record

A record is written once, when its version is released (CONTRIBUTING.md),
and never again: a rules folder written against 0.2.0 is read against the
rules 0.2.0 shipped, whatever rules/ holds since. So the tool refuses to
write over a version's record; between releases, rules/ moves on under
CHANGES.md's Unreleased.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path

from asl_kb.committee.overlay_file import RECORDS, record_of

ROOT = Path(__file__).resolve().parent.parent


def current_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def record_text(version: str) -> str:
    record = {"version": version, **record_of(ROOT / "rules")}
    return json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the record does not match rules/")
    args = ap.parse_args(argv)
    version = current_version()
    path = RECORDS / f"{version}.json"
    text = record_text(version)
    if args.check:
        if not path.is_file():
            print(
                f"{path}: no record of version {version} (a release runs python -m tools.rule_versions)",
                file=sys.stderr,
            )
            return 1
        return 0
    if path.is_file():
        print(f"{path}: version {version} is recorded already (a record is never rewritten)", file=sys.stderr)
        return 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
