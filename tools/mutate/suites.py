"""The case suites a mutant is run against (pluggable).

A suite has a name, `case_files()` (the cases, as paths) and
`run_case(path) -> list` (the case's failures; empty: it passes).

- `casebook`: the project's cases (facts/<chapter>/*.yaml with `expect:`),
  run by tools.casebook — the suite `make mutate` uses.
- `golden`: a stand-in, and a differential check: a case fails when the
  outcomes (plain and --phase) of the bundled position differ from what the
  shipped rules give. It kills every mutant that changes any bundled output,
  so it says which clauses matter to some position, not which are pinned by
  the rule text.
"""

from __future__ import annotations

from pathlib import Path


class CasebookSuite:
    name = "casebook"

    def __init__(self):
        from tools import casebook

        self._book = casebook

    def case_files(self) -> list[Path]:
        # a position without `expect:` (not yet a case) pins nothing
        from asl_kb.committee.cases import has_expect

        return [Path(p) for p in self._book.case_files() if has_expect(p)]

    def run_case(self, path, prefer=()) -> list:
        # a mutant is killed by the first failing run: the case's later runs are not
        # needed, and the runs that killed mutants like it go first (`prefer`)
        return list(self._book.run_case(Path(path), first_failure=True, prefer=prefer))


class GoldenSuite:
    name = "golden"

    def __init__(self):
        self._expected: dict[str, str] = {}

    def case_files(self) -> list[Path]:
        from asl_kb.resources import cases_dir

        return sorted(cases_dir().glob("*/*.yaml"))

    @staticmethod
    def _output(path) -> str:
        from asl_kb.engines.outcomes import outcomes
        from asl_kb.position.loader import load_position
        from asl_kb.report.render import to_json

        return to_json(outcomes(load_position(path), phase=True))

    def run_case(self, path) -> list:
        from asl_kb.asp.control import using_rules

        key = str(path)
        if key not in self._expected:
            with using_rules(None):
                self._expected[key] = self._output(path)
        got = self._output(path)
        return [] if got == self._expected[key] else [f"{Path(path).name}: outcomes differ from the shipped rules"]


def make_suite(name: str = "auto"):
    """The suite called `name`; "auto": the casebook when it exists, else
    golden; "package.module:Class": any class with case_files() and run_case()."""
    if ":" in name:
        import importlib

        mod, _, cls = name.partition(":")
        return getattr(importlib.import_module(mod), cls)()
    if name in ("auto", "casebook"):
        try:
            return CasebookSuite()
        except ImportError:
            if name == "casebook":
                raise SystemExit("error: --suite casebook: tools.casebook is not there") from None
    if name in ("auto", "golden"):
        return GoldenSuite()
    raise SystemExit(f"error: --suite: unknown suite {name!r} (auto, casebook, golden)")
