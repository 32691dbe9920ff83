"""Changed clauses that act in no legal position: what they need is what
the rules' own position checks refuse.

A position is judged only when it is legal: position.lp derives
`violated(Rule, Clause)` where a position breaks a rule (a prisoner that
is a vehicle, a Guard of its own side...), and such a position is refused.
A changed clause whose body, wherever it holds, makes the body of one such
check hold too can act in no legal position: the rule sets it tells apart
answer alike on every position there is, not only within bounds.

"Makes the body hold" is shown, never guessed, literal by literal of the
check's body, each for the clause's variable in the check's first one:

* an atom the clause's body reads positively, or reads through a
  predicate every definition of which (in the programs that load the
  clause) reads it positively -- `prisoner(P,_)`, defined only as
  `prisoner(P,G) :- guard_of(P,G)` in the prisoners program, makes
  `guard_of(P,_)` hold;
* `unit_type(P,T)` with comparisons of T to constants: every unit a
  position names has one unit type of the position format's
  (loader.UNIT_TYPES: the loader writes `unit_type/2` of each), and the clause's
  body may narrow P's -- `unit_type(P,c)`, or `q(P)` / `not q(P)` where
  every definition of q reads only P's unit type and compares it to
  constants (`infantry(E) :- unit_type(E,T), T != vehicle, T != gun`): `not
  infantry(P)` leaves a vehicle or a Gun.

Any other literal of a check (a negation, a second unit, an aggregate) is
not shown, so the check is not counted.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import clingo.ast as A

from asl_kb.committee import reach
from asl_kb.position.loader import UNIT_TYPES

#: the entry program whose checks a judged position must pass
CHECKS = "position.lp"


def nowhere(folder: str, changed: list) -> list[dict] | None:
    """Each changed clause with the position check its body makes hold
    ({"clause", "check": file:line, "rule", "name"}), when every one of
    them acts in no legal position; else None."""
    out = []
    for c in changed:
        check = refused_by(folder, c)
        if check is None:
            return None
        out.append({"clause": c.where, **check})
    return out or None


def refused_by(folder: str, clause) -> dict | None:
    """The position check ({"check": file:line, "rule", "name"}) the
    clause's body makes hold wherever it holds (module doc), or None."""
    program = _program_of(folder, clause.where.split(":", 1)[0])
    for check in _checks(folder):
        rule = _rule_of(check.rule)
        if rule is not None and _entails(clause.rule, check.rule, program):
            return {"check": check.where, "rule": rule, "name": _name_of(check.rule)}
    return None


def _name_of(rule) -> str:
    """The name a check gives what it finds: `prisoner_not_personnel`."""
    said = rule.head.atom.symbol.arguments[1]
    return said.name if said.ast_type == A.ASTType.Function else str(said)


def _rule_of(rule) -> str | None:
    """The rule id of a check `violated("A20.5", name(...)) :- ...`."""
    head = rule.head
    if head.ast_type != A.ASTType.Literal or head.atom.ast_type != A.ASTType.SymbolicAtom:
        return None
    f = head.atom.symbol
    if f.ast_type != A.ASTType.Function or f.name != "violated" or len(f.arguments) != 2:
        return None
    return str(f.arguments[0]).strip('"')


@functools.lru_cache(maxsize=8)
def _checks(folder: str) -> tuple:
    """The clauses deriving violated/2 of the files position.lp loads."""
    loads = reach.programs(folder)
    return tuple(
        c
        for c, (_, heads, _) in zip(reach.clauses(folder), reach.clause_shapes(folder))
        if CHECKS in loads.get(c.where.split(":", 1)[0], frozenset()) and ("violated", 2) in heads
    )


@functools.lru_cache(maxsize=64)
def _program_of(folder: str, file: str) -> dict:
    """The definitions of the entry programs that load `file`: (name,
    arity) -> the clauses that may derive it; a predicate a position or
    another program may give as well (an input, what the Python writes,
    what a program hands another) has none: it is not read through its
    definitions."""
    loads = reach.programs(folder)
    entries = loads.get(file, frozenset())
    outside = {n for n, _, _ in reach.inputs(Path(folder))} | {n for n, _ in reach.handed_over(folder)}
    out: dict = {}
    for c, (_, heads, _) in zip(reach.clauses(folder), reach.clause_shapes(folder)):
        if loads.get(c.where.split(":", 1)[0], frozenset()) & entries:
            for h in heads:
                out.setdefault(h, []).append(c)
    return {k: v for k, v in out.items() if k[0] not in outside}


def _literals(rule):
    """(sign, name, args) of each plain literal of a body, and the
    comparisons apart."""
    plain, compared = [], []
    for lit in rule.body:
        if lit.ast_type != A.ASTType.Literal:
            plain.append(("other", "", ()))
            continue
        atom = lit.atom
        if atom.ast_type == A.ASTType.SymbolicAtom and atom.symbol.ast_type == A.ASTType.Function:
            plain.append((lit.sign, atom.symbol.name, tuple(atom.symbol.arguments)))
        elif atom.ast_type == A.ASTType.Comparison and lit.sign == A.Sign.NoSign:
            compared.append(atom)
        else:
            plain.append(("other", "", ()))
    return plain, compared


def _var(term) -> str | None:
    return term.name if term.ast_type == A.ASTType.Variable and term.name != "_" else None


def _names(term) -> set[str] | None:
    """The constants a term is (`vehicle`, `(vehicle;gun)`); None when it
    is anything else."""
    if term.ast_type == A.ASTType.Pool:
        alts = [_names(t) for t in term.arguments]
        return None if any(a is None for a in alts) else set().union(*alts)  # type: ignore[arg-type]
    if term.ast_type == A.ASTType.Function and not term.arguments and not term.external:
        return {term.name}
    if term.ast_type == A.ASTType.SymbolicTerm and re.fullmatch(r"[a-z_]\w*", str(term.symbol)):
        return {str(term.symbol)}
    return None


def _types_of(variable: str, compared: list) -> set[str] | None:
    """The unit types a variable bound by `unit_type(E,X)` may be, under
    the comparisons of X to constants; None when a comparison is of another
    kind."""
    ok = set(UNIT_TYPES)
    for cmp in compared:
        if len(cmp.guards) != 1 or _var(cmp.term) != variable:
            return None
        g = cmp.guards[0]
        values = _names(g.term)
        if not values:
            return None
        if g.comparison == A.ComparisonOperator.Equal:
            ok &= values
        elif g.comparison == A.ComparisonOperator.NotEqual and len(values) == 1:
            ok -= values
        else:
            return None
    return ok


def _typed(program: dict, name: str) -> set[str] | None:
    """The unit types for which q(E) holds, where every definition of q/1
    reads only E's unit type and compares it to constants; None otherwise."""
    got: set[str] = set()
    defs = program.get((name, 1), [])
    if not defs:
        return None
    for c in defs:
        head = c.rule.head
        if head.ast_type != A.ASTType.Literal or head.atom.ast_type != A.ASTType.SymbolicAtom:
            return None
        e = _var(head.atom.symbol.arguments[0]) if head.atom.symbol.ast_type == A.ASTType.Function else None
        plain, compared = _literals(c.rule)
        if e is None or len(plain) != 1 or plain[0][:2] != (A.Sign.NoSign, "unit_type") or _var(plain[0][2][0]) != e:
            return None
        t = plain[0][2][1]
        if (x := _var(t)) is not None:
            types = _types_of(x, compared)
        elif not compared and _names(t) is not None:
            types = _names(t)
        else:
            types = None
        if types is None:
            return None
        got |= types
    return got


def _types_allowed(clause_rule, variable: str, program: dict) -> set[str]:
    """The unit types the clause's body leaves its variable."""
    ok = set(UNIT_TYPES)
    plain, compared = _literals(clause_rule)
    for sign, name, args in plain:
        if not args or _var(args[0]) != variable:
            continue
        if name == "unit_type" and len(args) == 2 and sign == A.Sign.NoSign:
            t = args[1]
            if _names(t) is not None:
                ok &= _names(t) or set()
            elif (x := _var(t)) is not None:
                ok &= _types_of(x, [c for c in compared if _var(c.term) == x]) or set(UNIT_TYPES)
        elif len(args) == 1 and sign in (A.Sign.NoSign, A.Sign.Negation):
            typed = _typed(program, name)
            if typed is not None:
                ok = ok & typed if sign == A.Sign.NoSign else ok - typed
    return ok


def _holds_through(clause_rule, variable: str, name: str, arity: int, program: dict) -> bool:
    """Whether the body makes `name(variable,...)` hold: it reads it
    positively, or reads positively (its variable first) a predicate every
    definition of which reads it so (one step)."""
    plain, _ = _literals(clause_rule)
    for sign, n, args in plain:
        if sign != A.Sign.NoSign or not args or _var(args[0]) != variable:
            continue
        if (n, len(args)) == (name, arity):
            return True
        defs = program.get((n, len(args)), [])
        if defs and all(_defined_reading(c.rule, name, arity) for c in defs):
            return True
    return False


def _defined_reading(rule, name: str, arity: int) -> bool:
    """Whether a definition `h(E,...) :- B` reads name(E,...) positively in B."""
    head = rule.head
    if head.ast_type != A.ASTType.Literal or head.atom.ast_type != A.ASTType.SymbolicAtom:
        return False
    symbol = head.atom.symbol
    if symbol.ast_type != A.ASTType.Function or not symbol.arguments or _var(symbol.arguments[0]) is None:
        return False
    e = _var(symbol.arguments[0])
    plain, _ = _literals(rule)
    return any(
        sign == A.Sign.NoSign and (n, len(args)) == (name, arity) and _var(args[0]) == e
        for sign, n, args in plain
        if args
    )


def _entails(clause_rule, check_rule, program: dict) -> bool:
    """Whether, for some variable of the clause in the check's first
    variable, the clause's body makes every literal of the check's hold.
    A check is read only where each literal's first argument is that
    variable and its others are variables met once (any value), each
    comparison one of a unit type (`T = (vehicle;gun)`)."""
    plain, compared = _literals(check_rule)
    if not plain or any(sign != A.Sign.NoSign or not args for sign, _, args in plain):
        return False
    first = _var(plain[0][2][0])
    rest = [a for _, _, args in plain for a in args[1:]]
    if first is None or any(_var(a[0]) != first for _, _, a in plain) or any(_var(a) == first for a in rest):
        return False
    if any(a.ast_type != A.ASTType.Variable for a in rest):
        return False
    named = [v for a in rest if (v := _var(a)) is not None]
    typed = {_var(a[1]) for _, n, a in plain if n == "unit_type" and len(a) == 2}
    if len(named) != len(set(named)) or any(_var(c.term) not in typed for c in compared):
        return False
    mine = {v for _, _, args in _literals(clause_rule)[0] for a in args if (v := _var(a)) is not None}
    return any(all(_literal_holds((clause_rule, v, program), lit, compared) for lit in plain) for v in sorted(mine))


def _literal_holds(clause: tuple, lit, compared) -> bool:
    """Whether the clause's body (clause: its rule, its variable in the
    check's first, the program's definitions) makes a check's literal hold."""
    clause_rule, v, program = clause
    _, name, args = lit
    if name == "unit_type" and len(args) == 2:
        t = _var(args[1])
        types = set(UNIT_TYPES) if t is None else _types_of(t, [c for c in compared if _var(c.term) == t])
        return types is not None and _types_allowed(clause_rule, v, program) <= types
    return _holds_through(clause_rule, v, name, len(args), program)


def said(found: list[dict]) -> str:
    """The answer in words."""
    parts = [f"{f['clause']} needs what {f['rule']} {f['name']} ({f['check']}) refuses" for f in found]
    return "equivalent: the changed clauses act in no legal position: " + "; ".join(parts)
