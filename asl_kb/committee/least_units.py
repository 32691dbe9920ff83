"""How many units a position needs at least for a clause to fire, read off
the rules: a bound of fewer cannot tell two rule sets apart through it.

A clause needs two units where its body names two of them on two sides
(`side(U,A), side(E,B), A != B`) or apart (`V != U`); and at least what
each atom it reads positively needs: the least over the clauses deriving
an atom of that shape (a function term matched by its functor, so
`leaf(0,surrenders(...))` is derived only by the clauses of surrender
leaves). A least fixpoint from nothing: a clause with a body it cannot
read (an input, a predicate whose heads are not read) needs nothing more.
A lower bound, never more than a position needs.
"""

from __future__ import annotations

import functools

import clingo.ast as A

from asl_kb.committee import reach

#: program parameters (a stage's `t`, `p`): any value
_PARAMS = ("t", "p")


def _atoms(lit) -> list:
    """The symbolic atoms of a positive body literal (none of a negative one)."""
    if lit.ast_type != A.ASTType.Literal or lit.sign != A.Sign.NoSign:
        return []
    if lit.atom.ast_type != A.ASTType.SymbolicAtom:
        return []
    return reach.functions(lit.atom.symbol)


def _heads(rule) -> list | None:
    """The atoms a clause derives, or None when its head is not read here."""
    h = rule.head
    if h.ast_type == A.ASTType.Literal:
        if h.atom.ast_type == A.ASTType.BooleanConstant:
            return []
        return reach.functions(h.atom.symbol) if h.atom.ast_type == A.ASTType.SymbolicAtom else None
    if h.ast_type == A.ASTType.Aggregate:
        out = []
        for e in h.elements:
            if e.literal.atom.ast_type != A.ASTType.SymbolicAtom:
                return None
            out += reach.functions(e.literal.atom.symbol)
        return out
    return None


def _may_match(a, b) -> bool:
    """Whether two terms may be the same ground term (variables, parameters
    and what is not read: anything)."""
    if a.ast_type == A.ASTType.Function and b.ast_type == A.ASTType.Function:
        if a.name in _PARAMS and not a.arguments or b.name in _PARAMS and not b.arguments:
            return True
        return (
            a.name == b.name
            and len(a.arguments) == len(b.arguments)
            and all(_may_match(x, y) for x, y in zip(a.arguments, b.arguments))
        )
    if a.ast_type == A.ASTType.SymbolicTerm and b.ast_type == A.ASTType.SymbolicTerm:
        return str(a.symbol) == str(b.symbol)
    if {a.ast_type, b.ast_type} == {A.ASTType.SymbolicTerm, A.ASTType.Function}:
        f, s = (a, b) if a.ast_type == A.ASTType.Function else (b, a)
        return f.name in _PARAMS and not f.arguments or (not f.arguments and str(s.symbol) == f.name)
    return True


def _var(term) -> str | None:
    return term.name if term.ast_type == A.ASTType.Variable else None


def _named(rule) -> tuple[set[str], dict[str, str | None], list[tuple[str, str]]]:
    """The unit variables a clause's positive body names, the side variable
    of each, and the pairs of variables it compares unequal."""
    sides: dict[str, str | None] = {}
    units: set[str] = set()
    unequal: list[tuple[str, str]] = []
    for lit in rule.body:
        atom = lit.atom if lit.ast_type == A.ASTType.Literal and lit.sign == A.Sign.NoSign else None
        if atom is not None and atom.ast_type == A.ASTType.Comparison and len(atom.guards) == 1:
            g = atom.guards[0]
            x, y = _var(atom.term), _var(g.term)
            if g.comparison == A.ComparisonOperator.NotEqual and x and y:
                unequal.append((x, y))
        for f in _atoms(lit):
            u = _var(f.arguments[0]) if f.name in _OF_A_UNIT and f.arguments else None
            if u:
                units.add(u)
                if f.name == "side" and len(f.arguments) == 2:
                    sides[u] = _var(f.arguments[1])
    return units, sides, unequal


#: inputs whose first argument is a unit (rules/core/defined.lp)
_OF_A_UNIT = ("unit", "side", "unit_at", "status", "unit_type", "nationality")


def apart(rule) -> int:
    """The units a clause's body names apart: 2 for two on two sides or
    two compared unequal, 1 for one unit, else 0."""
    units, sides, unequal = _named(rule)
    for x, y in unequal:
        if x in units and y in units:
            return 2
        if any(sides.get(u) == x for u in units) and any(sides.get(u) == y for u in units):
            return 2
    return 1 if units else 0


@functools.lru_cache(maxsize=8)
def _program(folder: str) -> tuple:
    """Per clause of the folder: (its heads or None, its positive body atoms, apart())."""
    return tuple(
        (_heads(c.rule), [f for lit in c.rule.body for f in _atoms(lit)], apart(c.rule)) for c in reach.clauses(folder)
    )


@functools.lru_cache(maxsize=8)
def _index(folder: str) -> tuple[dict, frozenset]:
    """The clauses deriving each (name, arity), with the head; the names some
    clause derives with a head not read here (any atom of them: anything)."""
    program = _program(folder)
    by_name: dict[tuple[str, int], list[tuple[int, object]]] = {}
    for i, (heads, _, _) in enumerate(program):
        for h in heads or ():
            by_name.setdefault((h.name, len(h.arguments)), []).append((i, h))
    unread = frozenset(
        n
        for c, (heads, _, _) in zip(reach.clauses(folder), program)
        if heads is None
        for n, _ in reach.heads_of(c.rule)
    )
    return by_name, unread


def _makers(a, by_name: dict, unread: frozenset) -> list[int] | None:
    """The clauses that may derive atom `a`; None: anything may."""
    if a.name in unread:
        return None
    return [i for i, h in by_name.get((a.name, len(a.arguments)), ()) if _may_match(a, h)]


@functools.lru_cache(maxsize=8)
def least(folder: str) -> tuple[int, ...]:
    """Per clause of reach.clauses(folder): the least units a position
    needs for it to fire (module doc)."""
    program = _program(folder)
    by_name, unread = _index(folder)
    # (each body atom's makers found once; the fixpoint then only compares)
    bodies = [[_makers(a, by_name, unread) for a in body] for _, body, _ in program]
    need = [0] * len(program)
    changed = True
    while changed:
        changed = False
        for i, (_, _, own) in enumerate(program):
            got = max([own] + [_least(m, need) for m in bodies[i]])
            if got > need[i]:
                need[i], changed = got, True
    return tuple(need)


def _least(makers: list[int] | None, need) -> int:
    return 0 if not makers else min(need[i] for i in makers)


def needed(folder: str, clauses: list) -> int:
    """The least units a position needs for any of `clauses` (changed
    clauses, of the folder or of an edit) to fire; 0 when none is given."""
    if not clauses:
        return 0
    by_name, unread = _index(folder)
    need = least(folder)
    return min(
        max([apart(c.rule)] + [_least(_makers(a, by_name, unread), need) for lit in c.rule.body for a in _atoms(lit)])
        for c in clauses
    )
