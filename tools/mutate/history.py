"""Which case (and run) killed each mutant last time: tried first next time.

A mutant is killed by the first failing case, so the order the cases run in
is most of what a killed mutant costs; half of a complete run's CPU on
killed mutants went to the 100 whose one killing case came after 10 to 47
others. PIT keeps such a history between runs; so does this:
`history.json` beside this module (written by each complete run, not
committed: the first run on a checkout orders by the other hints) maps each mutant -- by a
hash of its file, kind, clause and literal as written, which survive edits
elsewhere in the file -- to the case and run that killed it. It orders, never decides: a
verdict is the cases' whatever the order, and a stale entry costs one case.
"""

from __future__ import annotations

import json
from pathlib import Path

from asl_kb.resources import cases_dir

#: the history, data this tool writes (tools/mutate/history.json; .gitignore)
DEFAULT = Path(__file__).with_name("history.json")


def key(m) -> str:
    """The mutant's file, kind, clause and literal as written, hashed short."""
    import hashlib

    return hashlib.sha256("\t".join((m.file, m.kind, m.clause, m.literal)).encode()).hexdigest()[:16]


def _rel(case: str) -> str:
    try:
        return Path(case).resolve().relative_to(cases_dir().resolve()).as_posix()
    except ValueError:
        return str(case)


def load(path: str | None) -> dict[str, dict]:
    """key -> {"case": the case's path (absolute), "run": its run's label}."""
    if not path or not Path(path).is_file():
        return {}
    try:
        data = json.loads(Path(path).read_text())
    except ValueError:
        return {}
    base = cases_dir()
    return {k: {"case": str(base / v["case"]), "run": v.get("run")} for k, v in data.get("killed_by", {}).items()}


def update(path: str | None, mutants, results: dict) -> None:
    """Record this complete run's killers (a mutant not killed this time loses
    its entry)."""
    if not path:
        return
    old = {}
    if Path(path).is_file():
        try:
            old = json.loads(Path(path).read_text()).get("killed_by", {})
        except ValueError:
            old = {}
    for m in mutants:
        r = results.get(m.id)
        if r is None:
            continue
        k = key(m)
        if r["status"] == "killed" and r.get("by"):
            old[k] = {"case": _rel(r["by"]), **({"run": r["run"]} if r.get("run") else {})}
        else:
            old.pop(k, None)
    Path(path).write_text(
        json.dumps(
            {
                "about": "tools/mutate/history.py: the case that killed each mutant last time, tried first",
                "killed_by": dict(sorted(old.items())),
            },
            indent=1,
            ensure_ascii=False,
        )
        + "\n"
    )
