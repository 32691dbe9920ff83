"""`asl-kb search coverage`: what the scopes can say, against what the rules
read. For each input predicate of rules/core/defined.lp (the facts the
Python wrapper hands to the programs): the shipped scopes some position of
which produces it, and the clauses that read it (file:line). An input no
scope produces is one no search can exercise: a switch or an erratum whose
clauses read it is "none" in every shipped scope (docs/committee.md).

The positions' facts are those of the rout and the prisoners programs
(asl_kb/asp/facts.py), for one position of each combination of what a scope
holds and a spread of the others (reach.py `produced`); the phase
program's inputs are made from the rout program's answer
(engines/phase.py), the switches by the rule sets compared: both are
listed as such.
"""

from __future__ import annotations

from pathlib import Path

import clingo.ast as A

from asl_kb.committee.reach import clauses, inputs, produced, read_constants
from asl_kb.resources import rules_dir


class _Reads(A.Transformer):
    def __init__(self):
        self.found: set[tuple[str, int]] = set()

    def visit_SymbolicAtom(self, node):
        sym = node.symbol
        if sym.ast_type == A.ASTType.Function:
            self.found.add((sym.name, len(sym.arguments)))
        return node


def readers(rules: Path | None = None) -> dict[tuple[str, int], list[str]]:
    """(name, arity) -> the clauses (file:line) whose body reads it."""
    out: dict[tuple[str, int], list[str]] = {}
    for c in clauses(str(rules or rules_dir())):
        v = _Reads()
        for lit in c.rule.body:
            v(lit)
        for sig in sorted(v.found):
            out.setdefault(sig, []).append(c.where)
    return out


def coverage(scopes: list, per_scope: int = 40, rules: Path | None = None) -> dict:
    """`rules`: a complete rules folder whose clauses are read (None: the
    shipped rules)."""
    made = {s.name: produced(s, per_scope) for s in scopes}
    read = readers(rules)
    consts = read_constants(str(rules or rules_dir()))
    rows: list[dict] = []
    for name, arity, section in inputs(rules):
        given = (
            ["(from the rout program's answer)"]
            if section.startswith("the phase program")
            else (["(by the rule sets compared)"] if section.startswith("rule version") else [])
        )
        rows.append(
            {
                "input": f"{name}/{arity}",
                "section": section,
                "scopes": given or [s for s in made if (name, arity) in made[s].args],
                "read_by": read.get((name, arity), []),
            }
        )
        # the constants the rules read of it that no scope gives
        # (`status(_,encircled)`), with the clauses that read each
        lacking = {
            shown: where
            for shown, where in sorted(consts.get((name, arity), {}).items())
            if not any(m.gives(_need(shown)) for m in made.values())
        }
        if lacking:
            rows[-1]["constants_never_produced"] = lacking
    return {
        "scopes": list(made),
        "per_scope": per_scope,
        "inputs": rows,
        "never_produced": [r["input"] for r in rows if not r["scopes"]],
        "constants_never_produced": [c for r in rows for c in r.get("constants_never_produced", {})],
    }


def _need(shown: str) -> tuple:
    """`status(_,encircled)` as a reach.Need."""
    from asl_kb.committee.reach import split_fact

    name, args = split_fact(shown)
    return (name, len(args), tuple(None if a == "_" else a for a in args))


def to_text(report: dict, limit: int | None = 3) -> str:
    rows = [("INPUT", "SCOPES", "READ BY")]
    for r in report["inputs"]:
        shown = r["read_by"] if limit is None else r["read_by"][:limit]
        more = len(r["read_by"]) - len(shown)
        rows.append(
            (
                r["input"],
                ", ".join(r["scopes"]) or "-",
                " ".join(shown) + (f" (+{more})" if more else "") if r["read_by"] else "-",
            )
        )
    w0 = max(len(x[0]) for x in rows)
    w1 = max(len(x[1]) for x in rows)
    lines = [f"{a:<{w0}}  {b:<{w1}}  {c}".rstrip() for a, b, c in rows]
    never = report["never_produced"]
    lines.append(
        f"{len(never)} of {len(report['inputs'])} inputs produced by no position of "
        f"{', '.join(report['scopes'])} (a spread of at most {report['per_scope']} each): "
        + (", ".join(never) or "none")
    )
    consts = report["constants_never_produced"]
    lines.append(
        f"{len(consts)} constants the rules read produced by no position of them: " + (", ".join(consts) or "none")
    )
    return "\n".join(lines) + "\n"
