"""Where a changed clause can act: which inputs of rules/core/defined.lp
(the facts the Python wrapper hands to the programs) it needs, and whether
a scope ever produces them.

A clause can fire only where each atom its body reads positively can hold.
An input atom holds only where a position gives such a fact -- with the
constants the clause writes (`status(P,in_own_country)` needs a unit of
that status); a derived atom only where some clause deriving it can fire
(a fixpoint over predicate names, every rules file). Negation, aggregates
and conditions are read as true, so "cannot act" is shown, never guessed: a
scope that never produces a needed input cannot tell the rule sets apart
through that clause. One refinement, as in relevance.py: a switch clause
`H :- B, not in_force(X)` beside `H :- B, not E` (E an input atom) adds
nothing where E never holds, so it needs E as well (`unconcealed_interdictor`
needs a concealed unit).

What a scope produces is read off its positions' facts (asl_kb/asp/facts.py)
for one position of each combination of unit kinds, terrain, header
choices and phase it holds, and a spread of the others, on a map with a
1-hex margin (the kinds of facts do not depend on the margin).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from pathlib import Path

import clingo.ast as A

from asl_kb.resources import rules_dir

_DEFINED = re.compile(r"^#defined\s+(\w+)/(\d+)\s*\.", re.M)
_SECTION = re.compile(r"^% -- (.*)$", re.M)
_INCLUDE = re.compile(r'^\s*#include\s+"[^"]*"\s*\.', re.M)
_FACT = re.compile(r"^(-?[a-z]\w*)(\(|\.)")
#: inputs a scope does not set: the rule sets compared set the switches, and
#: the phase program's come from the rout program's answer
NOT_BY_SCOPE = ("rule version and switches", "the phase program")


def inputs(rules: Path | None = None) -> list[tuple[str, int, str]]:
    """(name, arity, section) of every #defined input of core/defined.lp."""
    text = ((rules or rules_dir()) / "core" / "defined.lp").read_text()
    out = []
    for m in _DEFINED.finditer(text):
        sections = [s for s in _SECTION.finditer(text) if s.start() < m.start()]
        out.append((m[1], int(m[2]), sections[-1][1].strip() if sections else ""))
    return out


def by_scope(rules: Path | None = None) -> frozenset:
    """The inputs a scope's positions set: (name, arity)."""
    return frozenset((n, a) for n, a, section in inputs(rules) if not section.startswith(NOT_BY_SCOPE))


@dataclasses.dataclass(frozen=True)
class Clause:
    where: str  # file:line
    rule: A.AST  # clingo AST Rule


def rules_of(text: str, rel: str, line: int = 0) -> list[Clause]:
    out: list[Clause] = []

    def take(st):
        if st.ast_type == A.ASTType.Rule:
            out.append(Clause(f"{rel}:{line or st.location.begin.line}", st))

    # each file alone, its includes not followed (every file is read)
    A.parse_string(_INCLUDE.sub("", text), take)
    return out


@functools.lru_cache(maxsize=8)
def clauses(folder: str) -> tuple[Clause, ...]:
    """Every clause of every rules file of a complete rules folder."""
    root = Path(folder)
    return tuple(
        c
        for p in sorted(root.rglob("*.lp"))
        for c in rules_of(p.read_text(encoding="utf-8"), p.relative_to(root).as_posix())
    )


def _atoms(lits, positive: bool = True):
    """(name, arity, args) of the body's plain literals of that sign."""
    sign = A.Sign.NoSign if positive else A.Sign.Negation
    for lit in lits:
        if lit.ast_type != A.ASTType.Literal or lit.sign != sign:
            continue
        atom = lit.atom
        if atom.ast_type != A.ASTType.SymbolicAtom:
            continue
        for f in functions(atom.symbol):
            yield f.name, len(f.arguments), f.arguments


def functions(term) -> list:
    """A term as its functions (a pool `p(a;b)` is several)."""
    if term.ast_type == A.ASTType.Function:
        return [term]
    if term.ast_type == A.ASTType.Pool:
        return [f for t in term.arguments for f in functions(t)]
    return []


def heads_of(rule) -> set:
    found: set = set()

    class V(A.Transformer):
        def visit_SymbolicAtom(self, node):
            found.update((f.name, len(f.arguments)) for f in functions(node.symbol))
            return node

    V()(rule.head)
    return found


def _constants(args) -> tuple:
    """Per argument: the constant's text, None for a term with a variable."""
    out: list[str | None] = []
    for a in args:
        if a.ast_type == A.ASTType.SymbolicTerm:
            out.append(str(a.symbol))
        elif a.ast_type == A.ASTType.Function and not a.arguments:
            out.append(a.name)
        else:
            out.append(None)
    return tuple(out)


def _switch_of(rule) -> str | None:
    for name, arity, args in list(_atoms(rule.body)) + list(_atoms(rule.body, False)):
        if (name, arity) == ("in_force", 1):
            return _constants(args)[0]
    return None


@functools.lru_cache(maxsize=8)
def clause_shapes(folder: str) -> tuple[tuple[frozenset, frozenset, str | None], ...]:
    """Per clause of clauses(folder): the (name, arity) its body reads
    positively, those its head may derive, the switch it reads -- walked
    once per folder, as clauses() parses it once (every search and every
    scope asks again)."""
    return tuple(
        (frozenset((n, a) for n, a, _ in _atoms(c.rule.body)), frozenset(heads_of(c.rule)), _switch_of(c.rule))
        for c in clauses(folder)
    )


def switch_clauses(folder: str, switches) -> list[Clause]:
    """The clauses reading in_force(X) of one of `switches`."""
    wanted = set(switches)
    return [c for c, (_, _, switch) in zip(clauses(folder), clause_shapes(folder)) if switch in wanted]


def edit_clauses(rs) -> list[Clause]:
    """A rules folder's edited clauses: the folder's text of each clause it
    adds or rewrites, the shipped text of each it deletes or rewrites."""
    from asl_kb.committee import edits

    out = []
    for e in edits.edits(rs):
        out.extend(rules_of(e.clause, e.file, e.line) if e.clause else [])
        # the shipped text of a rewritten clause, named apart from the new one
        was = [c for t in e.was_texts for c in rules_of(t.decode(), e.file, e.line)]
        out.extend(dataclasses.replace(c, where=f"{c.where} (shipped)") if e.clause else c for c in was)
    return out


Need = tuple  # (name, arity, constants per argument)


def needs(folder: str, changed: list[Clause], inputs_: frozenset) -> dict[str, list[Need]]:
    """clause -> the input atoms it reads positively, itself or through a
    switch's sibling clause (module doc)."""
    out: dict[str, list[Need]] = {}
    everything = clauses(folder)
    for c in changed:
        got = [(n, a, _constants(args)) for n, a, args in _atoms(c.rule.body) if (n, a) in inputs_]
        if _switch_of(c.rule) is not None:
            got += _sibling_needs(c.rule, everything, inputs_)
        out[c.where] = got
    return out


def _reads_switch(lit) -> bool:
    return any((n, a) == ("in_force", 1) for n, a, _ in list(_atoms([lit])) + list(_atoms([lit], False)))


def _sibling_needs(rule, everything, inputs_) -> list[Need]:
    """`H :- B, not in_force(X)` beside `H :- B, not E`: it needs E too."""
    if not any(_reads_switch(lit) and lit.sign == A.Sign.Negation for lit in rule.body):
        return []
    body = {str(lit) for lit in rule.body if not _reads_switch(lit)}
    got = []
    for other in everything:
        theirs = {str(lit) for lit in other.rule.body}
        if str(other.rule.head) != str(rule.head) or not body < theirs or len(theirs - body) != 1:
            continue
        (extra,) = [lit for lit in other.rule.body if str(lit) not in body]
        got += [(n, a, _constants(args)) for n, a, args in _atoms([extra], False) if (n, a) in inputs_]
    return got


_ANY_DEFINED = re.compile(r"#defined\s+([a-z_]\w*)\s*/\s*(\d+)")
_EXTERNAL = re.compile(r"#external\s+([a-z_]\w*)(?:\(([^.]*)\))?")


@functools.lru_cache(maxsize=8)
def handed_over(folder: str) -> frozenset:
    """What neither a scope nor a clause gives but may hold: the predicates
    a program hands another (#defined outside core/defined.lp), #external
    atoms, and every name asl_kb/asp/facts.py writes (any arity)."""
    from asl_kb.committee.relevance import fact_names

    root = Path(folder)
    out: set = set()
    for p in root.rglob("*.lp"):
        if p.relative_to(root).as_posix() == "core/defined.lp":
            continue
        text = p.read_text(encoding="utf-8")
        out |= {(n, int(a)) for n, a in _ANY_DEFINED.findall(text)}
        out |= {(n, len(split_fact(f"x({a})")[1]) if a else 0) for n, a in _EXTERNAL.findall(text)}
    declared = {n for n, _, _ in inputs(root)}
    return frozenset(out | {(n, -1) for n in fact_names(folder) if n not in declared})


# -- what may hold, constant by constant -----------------------------------
#
# An abstract grounding: per predicate (name, arity), per argument, the set
# of values it may take (None: any). A clause fires where each positive body
# literal may match -- its constants among the values, each variable's
# values met over its literals and the `X = c` / `X = (a;b)` comparisons --
# and gives its head the values so bound. Negation, aggregates and other
# comparisons are read as true, so what cannot hold is shown, never guessed.
#
# A function term is read by its functor: `option(massacre(X,P))` in a head
# gives option/1 the value `massacre(_,_)` (any term of that name and arity),
# and in a body it matches only a value of that functor -- `massacre(_,_)`, or
# a ground term a position gives (`loc(p15,0)` is a `loc(_,_)`). What is
# inside is any value (its variables are bound elsewhere, or not at all).

Arg = tuple  # ("c", text) | ("pool", frozenset) | ("v", name) | ("f", name, arity) | ("*",)


def functor_value(name: str, arity: int) -> str:
    """The value standing for every term of functor name/arity: `massacre(_,_)`."""
    return f"{name}({','.join('_' * arity)})"


@functools.lru_cache(maxsize=65536)
def functor(text: str) -> tuple[str, int] | None:
    """A value's functor (`loc(p15,0)`, `loc(_,_)` -> ("loc", 2)); None for a
    constant, a number, a string or a tuple."""
    if not text.endswith(")") or text[0] in '"(-' or "(" not in text:
        return None
    name, args = split_fact(text)
    return (name, len(args)) if re.fullmatch(r"[a-z_]\w*", name) else None


def _abstract_value(text: str) -> bool:
    f = functor(text)
    return f is not None and text == functor_value(*f)


@functools.lru_cache(maxsize=4096)
def _functors(values: frozenset) -> frozenset:
    """The functors of a set of values (abstract or ground)."""
    return frozenset(f for f in map(functor, values) if f is not None)


def _fits(text: str, values: frozenset) -> bool:
    """Whether the value `text` may be one of `values`: equal to one, or of
    the functor of an abstract one (`loc(p15,0)` in {`loc(_,_)`}), or, being
    abstract, the functor of one."""
    if text in values:
        return True
    f = functor(text)
    if f is None:
        return False
    return f in _functors(values) if _abstract_value(text) else functor_value(*f) in values


def _arg(term, top: frozenset) -> Arg:
    t = term.ast_type
    if t == A.ASTType.SymbolicTerm:
        text = str(term.symbol)
        return ("*",) if text in top else ("c", text)
    if t == A.ASTType.Function and not term.external and term.name:
        if not term.arguments:
            return ("*",) if term.name in top else ("c", term.name)
        return ("f", term.name, len(term.arguments))
    if t == A.ASTType.Variable:
        return ("*",) if term.name == "_" else ("v", term.name)
    if t == A.ASTType.Pool:
        alts = [_arg(x, top) for x in term.arguments]
        if all(a[0] in ("c", "f") for a in alts):
            return ("pool", frozenset(a[1] if a[0] == "c" else functor_value(*a[1:]) for a in alts))
    return ("*",)


@dataclasses.dataclass(frozen=True)
class _Shape:
    """A clause as the abstract grounding reads it."""

    body: tuple  # per positive literal: its alternatives ((name, arity, args), ...)
    equal: tuple  # (variable, frozenset of constants)
    heads: tuple  # (name, arity, args)


def literals_of(term, top) -> tuple:
    return tuple((f.name, len(f.arguments), tuple(_arg(a, top) for a in f.arguments)) for f in functions(term))


def shape_of(rule, top: frozenset) -> _Shape:
    body, equal = [], []
    for lit in rule.body:
        if lit.ast_type != A.ASTType.Literal or lit.sign != A.Sign.NoSign:
            continue
        atom = lit.atom
        if atom.ast_type == A.ASTType.SymbolicAtom:
            alts = literals_of(atom.symbol, top)
            if alts:
                body.append(alts)
        elif atom.ast_type == A.ASTType.Comparison and len(atom.guards) == 1:
            g = atom.guards[0]
            if g.comparison != A.ComparisonOperator.Equal:
                continue
            for x, y in ((atom.term, g.term), (g.term, atom.term)):
                a, b = _arg(x, top), _arg(y, top)
                if a[0] == "v" and b[0] in ("c", "pool", "f"):
                    equal.append((a[1], _value(b, {})))
    heads: list = []

    class V(A.Transformer):
        def visit_SymbolicAtom(self, node):
            heads.extend(literals_of(node.symbol, top))
            return node

    V()(rule.head)
    return _Shape(tuple(body), tuple(equal), tuple(heads))


_CONST = re.compile(r"^\s*#const\s+([a-z_]\w*)\s*=", re.M)
_PARAMS = re.compile(r"^\s*#program\s+\w+\s*\(([^)]*)\)", re.M)


@functools.lru_cache(maxsize=8)
def _abstract(folder: str) -> tuple[_Shape, ...]:
    """Per clause of clauses(folder), its _Shape; a `#const` name or a
    `#program` part's parameter (`t`, `p`: a number when grounded) is any
    value, not the constant it reads as."""
    top = abstract_top(folder)
    return tuple(shape_of(c.rule, top) for c in clauses(folder))


def _meet(a, b):
    if a is None:
        return b
    if b is None:
        return a
    both = a & b
    if not (_functors(a) and _functors(b)):
        return both
    # (a ground term meets the abstract value of its functor, and so on)
    return both | {x for x in a - b if _fits(x, b)} | {y for y in b - a if _fits(y, a)}


def _join(a, b):
    return None if a is None or b is None else a | b


def _bound(args, vals, env: dict) -> dict | None:
    """`env` with what a literal's arguments `args` may take where its
    predicate may hold with `vals` (per argument; None: any value); None
    where a constant or pool of it, or a variable's values, cannot."""
    e = dict(env)
    for a, v in zip(args, vals):
        if a[0] == "c" and v is not None and not _fits(a[1], v):
            return None
        if a[0] == "pool" and v is not None and not any(_fits(x, v) for x in a[1]):
            return None
        if a[0] == "f" and v is not None and a[1:] not in _functors(v):
            return None
        if a[0] == "v":
            e[a[1]] = _meet(e.get(a[1]), v)
            if e[a[1]] is not None and not e[a[1]]:
                return None
    return e


def bind(body, equal, facts: dict, anyname: frozenset, env: dict | None = None) -> dict | None:
    """The values each variable may take where every literal of `body` may
    hold (None: it cannot)."""
    env = dict(env or {})
    for alts in body:
        merged: dict | None = None
        for name, arity, args in alts:
            vals = (None,) * arity if name in anyname else facts.get((name, arity))
            e = None if vals is None else _bound(args, vals, env)
            if e is not None:
                merged = e if merged is None else {k: _join(merged.get(k), e.get(k)) for k in set(merged) | set(e)}
        if merged is None:
            return None
        env = merged
    for var, values in equal:
        env[var] = _meet(env.get(var), values)
        if env[var] is not None and not env[var]:
            return None
    return env


def _value(a: Arg, env: dict):
    if a[0] == "c":
        return frozenset([a[1]])
    if a[0] == "f":
        return frozenset([functor_value(a[1], a[2])])
    if a[0] == "pool":
        return a[1]
    if a[0] == "v":
        return env.get(a[1])
    return None


Facts = dict  # (name, arity) -> tuple per argument of frozenset | None


def may_hold(folder: str, given: Facts, handed_by_clauses: bool = False) -> Facts:
    """What may hold where the inputs `given` may (their values per
    argument): the abstract grounding's fixpoint (module section above).
    What a program hands another and every name asl_kb/asp/facts.py writes
    (handed) may hold with any values -- with `handed_by_clauses`, what a
    program hands another that some clause derives holds only where that
    clause may fire (the clauses of every program are read together)."""
    handed = handed_over(folder)
    anyname = frozenset(n for n, a in handed if a == -1)
    facts: dict = dict(given)
    shapes = _abstract(folder)
    derived = {(n, a) for sh in shapes for n, a, _ in sh.heads} if handed_by_clauses else set()
    for n, a in handed:
        if a >= 0 and (n, a) not in derived:
            facts[(n, a)] = (None,) * a
    # (a worklist: a clause is read again only when what its body reads
    # has changed -- the same fixpoint as reading every clause until none
    # changes, the values only growing)
    readers = _readers(folder)
    todo = [i for i, sh in enumerate(shapes) if sh.heads]
    queued = set(todo)
    while todo:
        i = todo.pop()
        queued.discard(i)
        sh = shapes[i]
        env = bind(sh.body, sh.equal, facts, anyname)
        if env is None:
            continue
        for name, arity, args in sh.heads:
            new = tuple(_value(a, env) for a in args)
            old = facts.get((name, arity))
            got = new if old is None else tuple(_join(x, y) for x, y in zip(old, new))
            if got != old:
                facts[(name, arity)] = got
                fresh = [j for j in readers.get((name, arity), ()) if j not in queued]
                todo.extend(fresh)
                queued.update(fresh)
    return facts


@functools.lru_cache(maxsize=8)
def _readers(folder: str) -> dict[tuple[str, int], tuple[int, ...]]:
    """(name, arity) -> the clauses (by index in _abstract(folder)) with a
    head, whose body reads it."""
    out: dict = {}
    for i, sh in enumerate(_abstract(folder)):
        if sh.heads:
            for alts in sh.body:
                for name, arity, _ in alts:
                    out.setdefault((name, arity), []).append(i)
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


def _given(made: "Produced", folder: str) -> Facts:
    """A scope's input facts as may_hold reads them: the values it produces,
    any value for the inputs no scope sets (the switches, the phase
    program's)."""
    ins = by_scope(Path(folder))
    out: dict = {k: tuple(frozenset(x) for x in v) for k, v in made.args.items()}
    for n, a, _ in inputs(Path(folder)):
        if (n, a) not in ins:
            out[(n, a)] = (None,) * a
    return out


def lit_shown(name: str, args: tuple) -> str:
    shown = (a[1] if a[0] == "c" else functor_value(*a[1:]) if a[0] == "f" else "_" for a in args)
    return f"{name}({','.join(shown)})" if args else name


# -- what a scope produces ---------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Produced:
    """The input facts a scope's positions give: per (name, arity), the
    constants seen at each argument."""

    args: dict

    def gives(self, need: Need) -> bool:
        name, arity, consts = need
        seen = self.args.get((name, arity))
        if seen is None:
            return False
        return all(c is None or c in seen[i] for i, c in enumerate(consts))


def split_fact(fact: str) -> tuple[str, list[str]]:
    """`p(a,f(b,c),"x,y").` -> ("p", ["a", "f(b,c)", '"x,y"'])."""
    fact = fact.rstrip(".")
    if "(" not in fact:
        return fact, []
    name, rest = fact.split("(", 1)
    args, depth, quoted, cur = [], 0, False, ""
    for ch in rest[:-1]:
        if ch == '"' and not cur.endswith("\\"):
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            depth -= 1
        elif not quoted and ch == "," and depth == 0:
            args.append(cur)
            cur = ""
            continue
        cur += ch
    return name, args + [cur]


def _samples(scope, per_scope: int):
    """One position of each combination of what it holds, then a spread."""
    from asl_kb.committee.enumerate import candidates

    firsts, rest = {}, []
    for c in candidates(scope):
        key = (
            frozenset(i for _, i in c.units),
            frozenset(i for _, i in c.terrain),
            c.options,
            c.phase,
            c.no_quarter,
            c.attacker,
        )
        if key not in firsts:
            firsts[key] = c
        else:
            rest.append(c)
    step = max(1, len(rest) // max(1, per_scope))
    return list(firsts.values()) + rest[::step][:per_scope]


@functools.lru_cache(maxsize=32)
def produced(scope, per_scope: int = 40) -> Produced:
    """What a scope's positions give, read off one position of each
    combination of what it holds and `per_scope` more spread over its
    enumeration (every position enumerated: `search coverage --sample`)."""
    return _read_off(scope, _samples(scope, per_scope))


@functools.lru_cache(maxsize=32)
def defined(scope) -> Produced:
    """What a scope's positions give, read off its definition: a position
    of each combination of its kinds (how many of each), palette entries
    and header choices, its units and terrain nearest the centre -- where
    the enumeration (produced) walks every placement to find one of each,
    which for a scope of three units on 19 hexes is most of a search's
    cost. None of the facts a scope gives depends on where its units stand
    beyond that (tests/committee/test_committee_reach.py: every shipped
    scope's pass-over verdicts, either way)."""
    return _read_off(scope, _from_definition(scope))


def _read_off(scope, positions) -> Produced:
    from asl_kb.asp.facts import position_facts, prisoner_facts, switch_facts
    from asl_kb.committee.enumerate import to_yaml
    from asl_kb.position.loader import load_position_text

    # (the same candidates: the enumeration reads only the patch, and the
    # scope's own are already enumerated)
    near = dataclasses.replace(scope, margin=min(scope.margin, 1))
    found: dict = {}
    for c in positions:
        p = load_position_text(to_yaml(near, c), f"{scope.name} #{c.index + 1}")
        # (the facts a search gives: it never asks Voluntary Break, so no vb_scope/1)
        text = "\n".join([position_facts(p), prisoner_facts(p)] + switch_facts(p))
        for line in text.splitlines():
            if _FACT.match(line):
                name, args = split_fact(line)
                seen = found.setdefault((name, len(args)), tuple(set() for _ in args))
                for i, a in enumerate(args):
                    seen[i].add(a)
    return Produced(found)


#: placements tried for one combination of kinds and palette entries before
#: the enumeration is asked instead
_TRIES = 20000


def _from_definition(scope) -> list:
    """A position of each combination of the scope's kinds (a multiset of
    its unit specs, of each size it allows) and palette entries, with each
    header choice (enumerate.with_headers); the placement the first that
    fits (enumerate's checks), tried nearest the centre first. The
    enumeration's own when some combination is not settled in _TRIES
    placements."""
    from asl_kb.committee import enumerate as E

    to_rel, _ = E.relative(scope)
    cells = sorted(to_rel.values(), key=E.nearest_key)
    broken = {i for i, sp in enumerate(scope.specs) if "broken" in sp.status}
    most_terrain = scope.non_open if scope.palette else 0
    forms = []
    for n in range(scope.min_units, scope.max_units + 1):
        for t in range(most_terrain + 1):
            for specs in itertools.combinations_with_replacement(range(len(scope.specs)), n):
                if scope.require_broken and not broken & set(specs):
                    continue
                for kinds in itertools.combinations_with_replacement(range(len(scope.palette)), t):
                    form = _first_fit(scope, cells, specs, kinds)
                    if form is False:
                        return _samples(scope, 0)
                    if form is not None:
                        forms.append(form)
    return list(E.with_headers(scope, forms, 0))


def _first_fit(scope, cells, specs, kinds):
    """The first placement of units of `specs` and terrain of `kinds` that
    fits the scope (as enumerate.placements forms it), nearest the centre
    first; None when none does, False when _TRIES did not settle it."""
    from asl_kb.committee import enumerate as E

    named = [scope.specs[i].kind for i in specs]
    if any(k.count is not None and not k.count[0] <= named.count(k.name) <= k.count[1] for k in scope.kinds):
        return None  # (how many of a kind: wherever they stand)
    tries = 0
    for where in itertools.combinations(cells, len(kinds)):
        terrain = tuple(zip(where, kinds))
        for at in itertools.product(cells, repeat=len(specs)):
            tries += 1
            if tries > _TRIES:
                return False
            units = tuple(sorted(zip(at, specs)))
            if E._kinds_fit(scope, units) and E._levels_fit(scope, units, terrain):
                return (
                    tuple(sorted((E.nearest_key(c), i) for c, i in units)),
                    tuple(sorted((E.nearest_key(c), i) for c, i in terrain)),
                )
    return None


def missing(scope, folder: str, changed: list[Clause], per_scope: int | None = None) -> dict[str, list[str]]:
    """clause -> what it needs that no position of the scope produces, or
    that nothing the scope produces lets a clause derive, constant by
    constant (`status(_,concealed)`, `rtph_never(_)`). Clauses that may act
    in the scope are left out. What the scope produces is read off its
    definition (defined), or with `per_scope` off its enumeration (produced)."""
    ins = by_scope(Path(folder))
    made = defined(scope) if per_scope is None else produced(scope, per_scope)
    facts = may_hold(folder, _given(made, folder))
    handed = handed_over(folder)
    anyname = frozenset(n for n, a in handed if a == -1)
    want = needs(folder, changed, ins)
    top = abstract_top(folder)
    out: dict[str, list[str]] = {}
    for c in changed:
        lack = [_shown(n) for n in want[c.where] if not made.gives(n) and not _can(n, facts)]
        sh = shape_of(c.rule, top)
        for alts in sh.body:
            if alts[0][0] == "in_force":
                continue
            if bind((alts,), (), facts, anyname) is None:
                lack += [lit_shown(n, a) for n, _, a in alts[:1]]
        if not lack and bind(sh.body, sh.equal, facts, anyname) is None:
            lack.append("its body's literals together")
        for x in lack:
            if x not in out.setdefault(c.where, []):
                out[c.where].append(x)
    return out


@functools.lru_cache(maxsize=8)
def read_constants(folder: str) -> dict[tuple[str, int], dict[str, list[str]]]:
    """(name, arity) of each input a scope sets -> each constant a clause
    reads of it (`status(_,encircled)`, a body literal of any sign, in an
    aggregate or condition too, or through `X = (a;b)`) -> the clauses
    (file:line) that read it (read once per folder: not to be changed)."""
    ins = by_scope(Path(folder))
    top = abstract_top(folder)
    out: dict = {}
    for c in clauses(folder):
        equal = dict(shape_of(c.rule, top).equal)
        found: list = []

        class V(A.Transformer):
            def visit_SymbolicAtom(self, node):
                found.extend(literals_of(node.symbol, top))
                return node

        for lit in c.rule.body:
            V()(lit)
        for name, arity, args in found:
            if (name, arity) not in ins:
                continue
            for i, a in enumerate(args):
                values = (
                    {a[1]} if a[0] == "c" else a[1] if a[0] == "pool" else equal.get(a[1], ()) if a[0] == "v" else ()
                )
                for v in values:
                    shown = f"{name}({','.join(v if k == i else '_' for k in range(arity))})"
                    where = out.setdefault((name, arity), {}).setdefault(shown, [])
                    if c.where not in where:
                        where.append(c.where)
    return out


def _can(need: Need, facts: Facts) -> bool:
    """Whether a clause may derive the input atom `need` (cc_attacker/2)."""
    name, arity, consts = need
    vals = facts.get((name, arity))
    return vals is not None and all(c is None or v is None or c in v for c, v in zip(consts, vals))


@functools.lru_cache(maxsize=8)
def abstract_top(folder: str) -> frozenset:
    top: set = set()
    for p in Path(folder).rglob("*.lp"):
        text = p.read_text(encoding="utf-8")
        top |= set(_CONST.findall(text))
        top |= {x.strip() for m in _PARAMS.findall(text) for x in m.split(",") if x.strip()}
    return frozenset(top)


def _shown(need: Need) -> str:
    name, _, consts = need
    return f"{name}({','.join(c if c is not None else '_' for c in consts)})"


def changed(a, b) -> tuple[str, list[Clause]] | None:
    """The clauses two rule sets differ by, and the complete rules folder
    they are read in: a switch's clauses (the rule sets differ in switches
    alone), or a rules folder's edits against the shipped rules. None when
    they differ otherwise (two versions: every switch they set apart)."""
    from asl_kb.committee.rulesets import materialize
    from asl_kb.committee.rulesets import flipped

    switches = flipped(a, b)
    if switches:
        folder = a.complete or (materialize(a.folder) if a.folder is not None else rules_dir())
        return str(folder), switch_clauses(str(folder), switches)
    if (
        a.folder is None
        and a.complete is None
        and b.folder is not None
        and not a.flip
        and not b.flip
        and a.version == b.version
    ):
        return str(materialize(b.folder)), edit_clauses(b)
    return None


#: the entry programs `search diff` compares the outcomes of (position.lp
#: checks the position first); phase.lp's whole-phase outcomes only with
#: --phase (without it the phase program is asked only which surrenders a
#: Guard's capacity frees); check.lp never (`search gaps` runs it)
COMPARED = ("rout.lp", "prisoners.lp", "position.lp")
_INCLUDED = re.compile(r'^\s*#include\s+"([^"]+)"\s*\.', re.M)


@functools.lru_cache(maxsize=8)
def programs(folder: str) -> dict[str, frozenset]:
    """Each rules file of a complete rules folder -> the entry programs
    (top-level .lp files) that load it, following #include (paths from
    the folder's root)."""
    root = Path(folder)
    out: dict[str, set] = {}
    for entry in sorted(p.name for p in root.glob("*.lp")):
        seen, todo = set(), [entry]
        while todo:
            rel = todo.pop()
            if rel in seen or not (root / rel).is_file():
                continue
            seen.add(rel)
            todo += _INCLUDED.findall((root / rel).read_text(encoding="utf-8"))
        for rel in seen:
            out.setdefault(rel, set()).add(entry)
    return {k: frozenset(v) for k, v in out.items()}


def not_compared(a, b, phase: bool = False) -> list[dict]:
    """The changed clauses (changed()) that no program `search diff`
    compares loads: [{"clause": FILE:LINE, "programs": [entry, ...]}] --
    an erratum of the whole-phase program without --phase, of check.lp."""
    got = changed(a, b)
    if got is None:
        return []
    compared = set(COMPARED) | ({"phase.lp"} if phase else set())
    loads = programs(got[0])
    out = []
    for c in got[1]:
        entries = loads.get(c.where.split(":", 1)[0], frozenset())
        if not entries & compared:
            out.append({"clause": c.where, "programs": sorted(entries)})
    return out


def not_compared_reason(clauses: list[dict]) -> str:
    """Why a search that found nothing, with changed clauses in programs it
    does not compare, is incomplete, in words."""
    where = sorted({p for c in clauses for p in c["programs"]}) or ["no entry program"]
    names = ", ".join(c["clause"] for c in clauses)
    why = []
    if "phase.lp" in where:
        why.append("its whole-phase outcomes are compared only with --phase")
    if "check.lp" in where:
        why.append("check.lp is run by search gaps")
    return f"the changed clauses {names} are loaded only by {', '.join(where)}: not compared" + (
        f" ({'; '.join(why)})" if why else ""
    )


def passed_over(scope, a, b) -> dict[str, list[str]] | None:
    """idle() where every changed clause is idle: no position of the scope
    can tell a from b (a search passes the scope over); None otherwise."""
    got = changed(a, b)
    idle_ = idle(scope, a, b)
    return idle_ if idle_ is not None and got is not None and len(idle_) == len(got[1]) else None


def idle(scope, a, b) -> dict[str, list[str]] | None:
    """Each changed clause that can act nowhere in the scope, with what it
    needs that the scope never produces; None when the changed clauses are
    not known (changed() is None) or none is idle."""
    got = changed(a, b)
    if got is None or not got[1]:
        return None
    return missing(scope, got[0], got[1]) or None
