"""`asl-kb search coverage`: what the scopes can say, against what the rules
read. For each input predicate of rules/core/defined.lp (the facts the
Python wrapper hands to the programs): the shipped scopes some position of
which produces it, and the clauses that read it (file:line). An input no
scope produces is one no search can exercise: a switch or an erratum whose
clauses read it is "none" in every shipped scope (docs/committee.md).

The positions' facts are those of the rout and the prisoners programs and
the switches (asl_kb/asp/facts.py), for a spread of each scope's positions
(every k-th, at most `per_scope`); the phase program's inputs are made from
the rout program's answer (engines/phase.py), and are listed as such.
"""
from __future__ import annotations

import re
from pathlib import Path

import clingo.ast as A

from asl_kb.resources import rules_dir

_DEFINED = re.compile(r"^#defined\s+(\w+)/(\d+)\s*\.", re.M)
_SECTION = re.compile(r"^% -- (.*)$", re.M)
_FACT = re.compile(r"^(-?[a-z]\w*)(\(|\.)", re.M)


def inputs(rules: Path | None = None) -> list[tuple[str, int, str]]:
    """(name, arity, section) of every #defined input of core/defined.lp."""
    text = ((rules or rules_dir()) / "core" / "defined.lp").read_text()
    out = []
    for m in _DEFINED.finditer(text):
        sections = [s for s in _SECTION.finditer(text) if s.start() < m.start()]
        out.append((m[1], int(m[2]), sections[-1][1].strip() if sections else ""))
    return out


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
    rules = rules or rules_dir()
    out: dict[tuple[str, int], list[str]] = {}
    for path in sorted(rules.rglob("*.lp")):
        rel = path.relative_to(rules).as_posix()

        def take(st, rel=rel):
            if st.ast_type != A.ASTType.Rule:
                return
            v = _Reads()
            for lit in st.body:
                v(lit)
            for sig in v.found:
                out.setdefault(sig, []).append(f"{rel}:{st.location.begin.line}")
        # each file alone, its includes not followed (every file is listed)
        A.parse_string(re.sub(r'^\s*#include\s+"[^"]*"\s*\.', "", path.read_text(), flags=re.M), take)
    return out


def produced(scope, per_scope: int = 40) -> set[tuple[str, int]]:
    """The input predicates some position of a spread of the scope's
    positions (every k-th, at most `per_scope`) gives facts of."""
    from asl_kb.asp.facts import position_facts, prisoner_facts, switch_facts
    from asl_kb.committee.enumerate import candidates, count, to_yaml
    from asl_kb.position.loader import load_position_text
    n = count(scope)
    step = max(1, n // per_scope)
    found: set[tuple[str, int]] = set()
    for c in candidates(scope):
        if c.index % step:
            continue
        p = load_position_text(to_yaml(scope, c), f"{scope.name} #{c.index + 1}")
        text = "\n".join([position_facts(p, voluntary_break=True), prisoner_facts(p)] + switch_facts(p))
        for line in text.splitlines():
            m = _FACT.match(line)
            if m:
                found.add((m[1], _arity(line)))
    return found


def _arity(fact: str) -> int:
    """The arity of one fact line `p(a,f(b,c),"x,y").`"""
    if "(" not in fact:
        return 0
    depth, n, quoted = 0, 1, False
    for ch in fact[fact.index("("):]:
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 1:
            n += 1
    return n


def coverage(scopes: list, per_scope: int = 40) -> dict:
    made = {s.name: produced(s, per_scope) for s in scopes}
    read = readers()
    rows = []
    for name, arity, section in inputs():
        by_phase = section.startswith("the phase program")
        rows.append({"input": f"{name}/{arity}", "section": section,
                     "scopes": ["(from the rout program's answer)"] if by_phase
                     else [s for s in made if (name, arity) in made[s]],
                     "read_by": read.get((name, arity), [])})
    return {"scopes": list(made), "per_scope": per_scope, "inputs": rows,
            "never_produced": [r["input"] for r in rows if not r["scopes"]]}


def to_text(report: dict, limit: int | None = 3) -> str:
    rows = [("INPUT", "SCOPES", "READ BY")]
    for r in report["inputs"]:
        shown = r["read_by"] if limit is None else r["read_by"][:limit]
        more = len(r["read_by"]) - len(shown)
        rows.append((r["input"], ", ".join(r["scopes"]) or "-",
                     " ".join(shown) + (f" (+{more})" if more else "") if r["read_by"] else "-"))
    w0 = max(len(x[0]) for x in rows)
    w1 = max(len(x[1]) for x in rows)
    lines = [f"{a:<{w0}}  {b:<{w1}}  {c}".rstrip() for a, b, c in rows]
    never = report["never_produced"]
    lines.append(f"{len(never)} of {len(report['inputs'])} inputs produced by no position of "
                 f"{', '.join(report['scopes'])} (a spread of at most {report['per_scope']} each): "
                 + (", ".join(never) or "none"))
    return "\n".join(lines) + "\n"
