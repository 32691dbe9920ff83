"""A change that weighs the route figured where a rout begins against the
whole rout graph, re-figured parts included: where the committee's search
must look for it (bounds.py, generate.py).

The first reading of "the entire rout path" (rules/rout/A20_21_surrender.lp,
rewound/2) reads clean/1, a closure over the rout graph's states of every
stage. Such a clause can part from the route figured at the start only
where a later stage is figured: the stage driver (asl_kb/asp/solve.py)
grounds stage t+1 only where plans/1 or grew/1 holds -- a rout re-figured
(A10.51 "a newly-Known enemy unit", a concealed unit dropping concealment,
a destination barred on arrival).
"""

from __future__ import annotations

import functools
import re

import clingo.ast as A

from asl_kb.committee import reach

#: what makes a stage of the rout graph after the start (asl_kb/asp/solve.py)
_STAGE_GROWTH = ("plans", "grew")
_NAME = re.compile(r"(?<![\w\"])([a-z_]\w*)\s*\(")
_NAME_CONST = re.compile(r"(?<![\w\"])([a-z_]\w*)(?![\w(])")


def _variables(node) -> set[str]:
    found: set[str] = set()

    class V(A.Transformer):
        def visit_Variable(self, v):
            found.add(v.name)
            return v

    V()(node)
    return found


def _params(node) -> bool:
    """Whether a clause names a program part's parameter (`t`, `p`: a stage's
    clause, grounded once per stage)."""
    return any(n in ("t", "p") for n in _NAME_CONST.findall(str(node)))


@functools.lru_cache(maxsize=8)
def closures(folder: str) -> frozenset:
    """The predicates some clause derives from themselves at another term,
    joined through the rest of its body (`clean(M) :- edge(M,N), clean(N)`),
    with no stage parameter: closures over the whole rout graph, every
    stage of it (a stage's own closures, `free_reach(t,...)`, and renamings
    such as `leaf(T,rejection(X,P)) :- leaf(T,surrenders(X,P))` are not)."""
    out: set[str] = set()
    for c in reach.clauses(folder):
        if _params(c.rule):
            continue
        heads = {n for n, _ in reach.heads_of(c.rule)}
        head_vars = _variables(c.rule.head)
        for lit in c.rule.body:
            if lit.ast_type != A.ASTType.Literal or lit.atom.ast_type != A.ASTType.SymbolicAtom:
                continue
            sym = lit.atom.symbol
            if sym.ast_type == A.ASTType.Function and sym.name in heads and _variables(sym) - head_vars:
                out.add(sym.name)
    return frozenset(out)


def refigures(folder: str, start: list) -> bool:
    """Whether the clauses `start` read a closure over the rout graph
    (closures()) in rules that grow stages at all: then what they read
    includes the re-figuring of a rout, what lets a later stage be grounded
    (_STAGE_GROWTH's clauses read the LOS -- a unit newly Known -- and
    concealment), and they may differ only there."""
    read = {n for c in start for n in _NAME.findall(" ".join(str(lit) for lit in c.rule.body))}
    if not read & closures(folder):
        return False
    heads = {n for c in reach.clauses(folder) for n, _ in reach.heads_of(c.rule)}
    return any(g in heads for g in _STAGE_GROWTH)
