"""Minimal unsatisfiable cores over a program's constraints (asl-kb check).

When a program has no answer set (the whole phase left without an outcome),
which of its constraints are to blame? Each constraint of the entry program
-- an integrity constraint `:- B.` or a clause deriving `violated(C)` (the
phase program makes every one hard with `:- violated(_).`, the connector,
left as it is) -- gets one more body literal, an external atom of its own,
and the program is solved assuming them all true. clingo's core (the
assumptions an unsatisfiable solve used, `on_core`) is then shrunk one
constraint at a time until every one left is needed: a minimal set of
constraints that cannot hold together with the facts, whoever wrote them
(named or not, shipped or a rules folder's). Each comes back with its file,
line and rule id (from the file's name: `phase/A20_3_phase.lp` -> A20.3).
"""

from __future__ import annotations

import re
from pathlib import Path

import clingo
import clingo.ast as A

from asl_kb.asp.control import active_rules, add_facts

_GUARD = "asl_kb_clause"
_RULE_OF_FILE = re.compile(r"(?:^|/)([A-Z]\d+(?:_\d+)+)")


def rule_of_file(rel: str) -> str:
    """The rule id a rules file is named for (`rout/A10_52_low_crawl.lp`:
    A10.52), or "" when its name gives none."""
    m = _RULE_OF_FILE.search(rel)
    if not m:
        return ""
    first, *rest = m[1].split("_")
    return first + "".join("." + r for r in rest)


def _head_name(rule) -> str | None:
    head = rule.head
    if head.ast_type == A.ASTType.Literal and head.atom.ast_type == A.ASTType.BooleanConstant and not head.atom.value:
        return "#false"
    if (
        head.ast_type == A.ASTType.Literal
        and head.atom.ast_type == A.ASTType.SymbolicAtom
        and head.atom.symbol.ast_type == A.ASTType.Function
    ):
        return head.atom.symbol.name
    return None


def _is_connector(rule) -> bool:
    """`:- violated(_).`: the one constraint that makes every violated/1 hard."""
    body = rule.body
    if len(body) != 1 or body[0].ast_type != A.ASTType.Literal or body[0].sign != A.Sign.NoSign:
        return False
    atom = body[0].atom
    return (
        atom.ast_type == A.ASTType.SymbolicAtom
        and atom.symbol.ast_type == A.ASTType.Function
        and atom.symbol.name == "violated"
    )


def _is_constraint(rule) -> bool:
    name = _head_name(rule)
    return name == "violated" or (name == "#false" and not _is_connector(rule))


def _clause_entry(rules: Path, st) -> dict:
    file = Path(st.location.begin.filename)
    try:
        rel = file.resolve().relative_to(rules.resolve()).as_posix()
    except ValueError:
        rel = file.as_posix()
    return {"file": rel, "line": st.location.begin.line, "rule": rule_of_file(rel), "clause": _written(st)}


def _written(st) -> str:
    """The clause as clingo prints it, an integrity constraint as `:- B.`"""
    text = " ".join(str(st).split())
    return text[len("#false ") :] if text.startswith("#false :-") else text


def constraints(entry: str) -> list[dict]:
    """The constraints of an entry program of the active rule set, in load order."""
    rules = active_rules()
    return [
        _clause_entry(rules, st)
        for st in _parsed(rules / entry)
        if st.ast_type == A.ASTType.Rule and _is_constraint(st)
    ]


def _parsed(path: Path) -> list:
    """The statements of an entry program and its includes, parsed once per
    process while none of its files changes (asl_kb/asp/control.py)."""
    from asl_kb.asp.control import parsed_statements

    return parsed_statements(path)


def minimal_core(entry: str, facts: str) -> list[dict] | None:
    """A minimal set of the entry program's constraints that no answer set
    of it with `facts` can satisfy together (each: file, line, rule,
    clause), or None when the program has an answer set."""
    rules = active_rules()
    guarded: list[dict] = []
    ctl = clingo.Control(["--warn=none"])
    with A.ProgramBuilder(ctl) as builder:
        for st in _parsed(rules / entry):
            if st.ast_type == A.ASTType.Rule and _is_constraint(st):
                i = len(guarded)
                guarded.append(_clause_entry(rules, st))
                loc = st.location
                guard = A.Literal(
                    loc,
                    A.Sign.NoSign,
                    A.SymbolicAtom(A.Function(loc, _GUARD, [A.SymbolicTerm(loc, clingo.Number(i))], 0)),
                )
                st = st.update(body=list(st.body) + [guard])
            builder.add(st)
    ctl.add("base", [], "".join(f"#external {_GUARD}({i}).\n" for i in range(len(guarded))))
    if facts:
        add_facts(ctl, facts)
    ctl.ground([("base", [])])
    # free, each set by an assumption (a fixed external's value would be
    # one more assumption, in every core)
    for i in range(len(guarded)):
        ctl.assign_external(clingo.Function(_GUARD, [clingo.Number(i)]), None)
    # (each guard atom is there: declared #external above)
    lit = {
        ctl.symbolic_atoms[clingo.Function(_GUARD, [clingo.Number(i)])].literal: i  # type: ignore[union-attr]
        for i in range(len(guarded))
    }

    def unsat_core(keep: list[int]) -> list[int] | None:
        core: list[int] = []
        kept = set(keep)
        result = ctl.solve(
            assumptions=[(clingo.Function(_GUARD, [clingo.Number(i)]), i in kept) for i in range(len(guarded))],
            on_core=lambda c: core.extend(c),
        )
        if not result.unsatisfiable:
            return None
        # the constraints assumed on in the core (the deletion below makes the
        # set minimal, whatever the core's size)
        return sorted({lit[x] for x in core if x in lit} & kept)

    core = unsat_core(list(range(len(guarded))))
    if core is None:
        return None
    # deletion: drop each constraint whose absence leaves the rest unsatisfiable
    for i in list(core):
        if i not in core:
            continue
        smaller = unsat_core([j for j in core if j != i])
        if smaller is not None:
            core = smaller
    return [guarded[i] for i in core]
