"""Which positions a switch cannot touch: a sound shortcut for `search diff`.

Flipping switch X changes nothing but the atom in_force(X). The clauses it
can act through are the *switch clauses*: those with in_force(X) in their
body. If, in a position, the rest of every switch clause's body is false,
no switch clause fires under either setting, the rest of the program does
not mention in_force(X), and so both settings give the same answer set (the
one of the program without the switch clauses) -- the position's outcomes
cannot differ, and `search diff` need not run them twice.

That "the rest of the body is false" is shown, without solving, on an
over-approximation: the *slice* of the entry program that can derive the
switch clauses' body atoms, with negative literals, aggregates and
conditional literals dropped (each treated as true), grounded with the
position's facts. Dropping body conditions and negation only adds atoms
(the slice is a positive program whose one model holds every answer set of
the real one), so when the slice derives no switch clause's body, the real
program cannot either. Where that argument does not hold cheaply the answer
is "may touch" and the position is run as usual:

* a predicate of the slice has a clause in a `#program` part other than
  `base` (the staged rout graph: grounded in stages by asl_kb/asp/solve.py)
  -- unless the switch clause is in `#program final` and some of its body
  literals name a stage whose atoms are complete once that stage is grounded
  (`_staged_slice`): its body cut to those literals is sliced from base and
  the step, plan and carry clauses as grounded up to that stage;
* a predicate of the slice is `#external`, a slice clause has a head the
  slice cannot copy (a head aggregate, a theory atom), or dropping a
  condition leaves it unsafe;
* the switch clause is in a program whose facts come from another program's
  answer (phase.lp, check.lp: built by asl_kb/engines/phase.py), not from
  the position.

`PROGRAMS` lists the entry programs `compare` runs and how each one's facts
follow from the position; tests/committee/test_committee_relevance.py checks that
`outcomes` loads no other entry program, and that a pruned position's
outcomes really are the same under both settings.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import hashlib
import re
from pathlib import Path

import clingo
import clingo.ast as A

from asl_kb import process
from asl_kb.asp.control import active_rules, add_facts, release_at_exit

PROGRAM_NAMES = ("rout.lp", "prisoners.lp", "phase.lp", "position.lp", "switches.lp")

_TOUCH = "switch_clause_body_holds__"


def _quiet(_code, _message) -> None:
    """The slice's own clingo messages (an unsafe slice is a bail, not an error)."""


class _Bail(Exception):
    """The slice cannot be built soundly: the answer is 'may touch'."""


@dataclasses.dataclass(frozen=True)
class Slice:
    """The positive over-approximation for one entry program and switch set:
    `text` (None: no switch clause in this program; "": cannot tell) and the
    predicate names whose facts it reads."""

    text: str | None
    inputs: frozenset[str] = frozenset()


def _function(atom):
    """(name, arity) of a SymbolicAtom's function, or None."""
    if atom.ast_type != A.ASTType.SymbolicAtom:
        return None
    sym = atom.symbol
    if sym.ast_type == A.ASTType.Pool:  # p(a;b): one predicate
        sigs = {_function(A.SymbolicAtom(t)) for t in sym.arguments}
        if len(sigs) == 1:
            return sigs.pop()
        raise _Bail(f"atom {atom}")
    if sym.ast_type == A.ASTType.Function and not sym.external:
        return sym.name, len(sym.arguments)
    if sym.ast_type == A.ASTType.SymbolicTerm and sym.symbol.type == clingo.SymbolType.Function:
        return sym.symbol.name, len(sym.symbol.arguments)
    raise _Bail(f"atom {atom}")


def _switch_of(lit) -> str | None:
    """The switch X of a body literal in_force(X) / not in_force(X)."""
    if lit.ast_type != A.ASTType.Literal or lit.atom.ast_type != A.ASTType.SymbolicAtom:
        return None
    sig = _function(lit.atom)
    if sig != ("in_force", 1):
        return None
    return (
        str(lit.atom.symbol.arguments[0])
        if lit.atom.symbol.ast_type == A.ASTType.Function
        else str(lit.atom.symbol.symbol.arguments[0])
    )


def _positive(lit) -> bool:
    return lit.ast_type == A.ASTType.Literal and lit.sign == A.Sign.NoSign


def _vars(node, anonymous: bool = False) -> set[str]:
    """The variables occurring in an AST node (with `anonymous`, "_" too:
    a comparison over _ is never bound by anything)."""
    if node is None or isinstance(node, (str, int)):
        return set()
    if isinstance(node, (list, tuple)) or type(node).__name__ == "ASTSequence":
        return set().union(set(), *(_vars(n, anonymous) for n in node))
    if not hasattr(node, "ast_type"):
        return set()
    if node.ast_type == A.ASTType.Variable:
        return {node.name} if node.name != "_" or anonymous else set()
    return set().union(set(), *(_vars(getattr(node, k), anonymous) for k in node.child_keys))


@dataclasses.dataclass
class _Clause:
    """One clause of the slice: head atom (text, signature, variables) and
    the positive body conditions kept (symbolic literals and comparisons)."""

    head: str
    sig: tuple
    head_vars: set
    atoms: list  # (signature, text, variables)
    comparisons: list  # (text, variables, binds: [(var, needs)])


def _conditions(body):
    """Positive literals and comparisons of a body, and its negative
    literals (kept only where they read facts alone, see _render);
    aggregates and conditional literals dropped (treated as true)."""
    atoms: list = []
    comparisons: list = []
    for lit in body:
        if (
            lit.ast_type == A.ASTType.Literal
            and lit.sign == A.Sign.Negation
            and lit.atom.ast_type == A.ASTType.SymbolicAtom
        ):
            comparisons.append((str(lit), _vars(lit.atom, True) - {"_"}, [], _function(lit.atom)))
            continue
        if not _positive(lit):
            continue
        atom = lit.atom
        if atom.ast_type == A.ASTType.SymbolicAtom:
            atoms.append((_function(atom), str(lit), _vars(atom)))
        elif atom.ast_type == A.ASTType.Comparison:
            binds = []  # (variables it binds, variables it needs bound)
            if len(atom.guards) == 1 and atom.guards[0].comparison == A.ComparisonOperator.Equal:
                left, right = atom.term, atom.guards[0].term
                for one, other in ((left, right), (right, left)):
                    if one.ast_type == A.ASTType.Variable and one.name != "_":
                        binds.append(({one.name}, _vars(other, True)))
                        if _pattern(other):  # N = rout_state(K,L,_,...) with N bound: matched
                            binds.append((_vars(other), {one.name}))
            comparisons.append((str(lit), _vars(atom, True), binds, None))
        elif atom.ast_type == A.ASTType.BooleanConstant and not atom.value:
            comparisons.append(("#false", set(), [], None))
        # body aggregates, theory atoms: dropped (treated as true)
    return atoms, comparisons


def _pattern(term) -> bool:
    """A term clingo can match a bound value against: a function of
    variables, constants and such functions (no arithmetic)."""
    t = term.ast_type
    if t in (A.ASTType.Variable, A.ASTType.SymbolicTerm):
        return True
    return t == A.ASTType.Function and not term.external and all(_pattern(a) for a in term.arguments)


#: entries a per-rule memo keeps before it starts again (a program has ~1,000
#: rules; a long search may parse many rule folders, each with its own rules)
_MEMO_AT_MOST = 50_000


def _per_rule(fn):
    """`fn(rule, switches)` read once per rule and switch set (slices of one
    program share them). Rules come from the cached _parsed(); each entry
    keeps its rule, so the id stays its own. A _Bail is kept and raised again."""
    memo: dict[tuple, tuple] = {}

    @functools.wraps(fn)
    def once(rule, switches):
        key = (id(rule), switches)
        got = memo.get(key)
        if got is None or got[0] is not rule:
            if len(memo) >= _MEMO_AT_MOST:
                memo.clear()
            try:
                got = (rule, fn(rule, switches), None)
            except _Bail as e:
                got = (rule, None, e)
            memo[key] = got
        if got[2] is not None:
            raise got[2]
        return got[1]

    return once


def _clauses(rule, switches) -> list[_Clause]:
    """The slice's clauses for one rule: one per atom its head may derive
    (read once per rule and the switches of `switches` its body reads: a
    rule that reads none is the same under every switch set)."""
    read = _switch_uses(rule, ())[1]
    return _clauses_under(rule, tuple(x for x in switches if x in read) if read else ())


@_per_rule
def _clauses_under(rule, switches) -> list[_Clause]:
    return _rule_clauses(rule, switches)


def _rule_clauses(rule, switches) -> list[_Clause]:
    body = [l for l in rule.body if _switch_of(l) not in switches]
    atoms, comparisons = _conditions(body)
    head = rule.head
    t = head.ast_type
    out = []
    if t == A.ASTType.Literal:
        if head.atom.ast_type == A.ASTType.BooleanConstant or head.sign != A.Sign.NoSign:
            return []  # an integrity constraint, a negated head: derive nothing
        out.append(_Clause(str(head.atom), _function(head.atom), _vars(head.atom), atoms, comparisons))
    elif t in (A.ASTType.Disjunction, A.ASTType.Aggregate):
        for e in head.elements:
            lit = e.literal
            if lit.ast_type != A.ASTType.Literal or lit.atom.ast_type != A.ASTType.SymbolicAtom:
                raise _Bail(f"head {head}")
            if lit.sign != A.Sign.NoSign:
                continue
            ca, cc = _conditions(e.condition)
            out.append(_Clause(str(lit.atom), _function(lit.atom), _vars(lit.atom), atoms + ca, comparisons + cc))
    else:
        raise _Bail(f"head {head}")
    return out


@dataclasses.dataclass(frozen=True)
class _Program:
    """An entry program as parsed: its rules with the `#program` part each
    is in, its #const definitions, the signatures it declares #external."""

    rules: tuple
    consts: tuple
    externals: frozenset


@functools.lru_cache(maxsize=16)
def _parsed(folder: str, entry: str) -> _Program:
    """The entry program of a rules folder, parsed once (_Bail: an #external
    the slice cannot read)."""
    statements: list = []
    A.parse_files([str(Path(folder) / entry)], statements.append)
    part, rules, consts, externals = "base", [], [], set()
    files: dict[str, tuple] = {}
    for st in statements:
        t = st.ast_type
        if t == A.ASTType.Program:
            part = st.name
        elif t == A.ASTType.Rule:
            rules.append((part, _canonical(st, folder, files)))
        elif t == A.ASTType.Definition:
            consts.append(str(st))
        elif t == A.ASTType.External:
            externals.add(_function(st.atom))
    return _Program(tuple(rules), tuple(consts), frozenset(externals))


#: the name of the process's memo (asl_kb/process.py) of one statement object
#: per rule text met at one place of one file's text, whatever folder it was
#: read from: the per-rule memos (_per_rule) then serve the rules a committee
#: trial's folder shares with the shipped ones
CANON = "committee.relevance canon"


def _canonical(st, folder: str, files: dict):
    """The statement first parsed at st's place in a file with the same
    name under its folder and the same text (`files`: name -> key, read
    once per parse)."""
    begin = st.location.begin
    name = begin.filename
    file_key = files.get(name)
    if file_key is None:
        try:
            text = Path(name).read_bytes()
        except OSError:
            return st
        try:
            rel = Path(name).resolve().relative_to(Path(folder).resolve()).as_posix()
        except ValueError:
            rel = name
        file_key = files[name] = (rel, hashlib.sha256(text).hexdigest())
    key = (file_key, begin.line, begin.column)
    canon = process.kept(CANON)
    got = canon.get(key)
    if got is None:
        if len(canon) >= _MEMO_AT_MOST:
            canon.clear()
        got = canon[key] = st
    return got


@dataclasses.dataclass(frozen=True)
class _ToSlice:
    """What a slice is built from: a program's clauses ((part, rule)),
    constants and externals, and the switch clauses it slices for."""

    rules: list
    consts: list
    externals: set
    switch_rules: list


def _with_switch_clauses(folder: str, entry: str, switches: tuple[str, ...]) -> _ToSlice:
    """An entry program's clauses, constants and externals (fresh lists, for a
    slice to extend), and those of its clauses that read one of `switches`."""
    program = _parsed(folder, entry)
    rules = list(program.rules)
    return _ToSlice(
        rules,
        list(program.consts),
        set(program.externals),
        [(p, r) for p, r in rules if _is_switch_clause(r, switches)],
    )


@functools.lru_cache(maxsize=64)
def _slice(
    folder: str, entry: str, switches: tuple[str, ...], bounded: frozenset | None = None, superset: bool = False
) -> Slice:
    try:
        program = _with_switch_clauses(folder, entry, switches)
        if not program.switch_rules:
            return Slice(None)
        return _build(program, switches, bounded, superset)
    except _Bail:
        return Slice("")


_IN_FORCE = re.compile(r"\bin_force\(([^()]*)\)")


def _is_switch_clause(rule, switches) -> bool:
    """Whether in_force(X) of a switch X is in the rule's body, as a literal
    of the body itself (else _Bail: a use the slice does not follow, e.g.
    in_force(S) with a variable, or inside an aggregate)."""
    unnamed, named, nested = _switch_uses(rule, ())
    if unnamed is not None:
        raise _Bail(f"in_force({unnamed}) in {rule}")
    if not nested.isdisjoint(switches):
        raise _Bail(f"in_force nested in {rule}")
    return not named.isdisjoint(switches)


@_per_rule
def _switch_uses(rule, _) -> tuple[str | None, frozenset, frozenset]:
    """What _is_switch_clause asks of a rule, read once whatever the
    switches: the first in_force(S) of its body with S not a name (None:
    none), the switches its body names in in_force(X), and those of them
    named more often than as literals of the body itself (nested)."""
    top = collections.Counter(_switch_of(l) for l in rule.body)
    head = len(_IN_FORCE.findall(str(rule.head)))
    named: collections.Counter = collections.Counter()
    unnamed = None
    for arg in _IN_FORCE.findall(str(rule))[head:]:
        arg = arg.strip()
        if re.fullmatch(r"[a-z][A-Za-z0-9_']*", arg):
            named[arg] += 1
        elif unnamed is None:
            unnamed = arg
    return unnamed, frozenset(named), frozenset(x for x in named if named[x] != top[x])


def _flag(sig) -> str:
    return f"{_TOUCH}any({sig[0]},{sig[1]})"


def _render(c: _Clause, flagged: set, head: str | None = None, exact: frozenset = frozenset()) -> tuple[str, bool]:
    """The clause as text, weakened until safe: a literal of a flagged
    predicate becomes the flag "some atom of it may hold", a comparison
    over variables nothing binds is dropped, a negative literal is kept only
    over a predicate whose atoms are exactly the facts (`exact`: no clause
    derives it). Returns (text, head_safe)."""
    body, bound = [], set()
    for sig, text, vs in c.atoms:
        if sig in flagged:
            body.append(_flag(sig))
        else:
            body.append(text)
            bound |= vs
    pending = list(c.comparisons)
    grew = True
    while grew:
        grew = False
        for comp in list(pending):
            text, vs, binds, neg = comp
            if neg is not None and neg not in exact:
                pending.remove(comp)  # `not p` of a derived p: dropped (treated as true)
                continue
            if vs <= bound:
                body.append(text)
                pending.remove(comp)
                grew = True
                continue
            for gives, needs in binds:
                if needs <= bound:
                    bound |= gives
                    body.append(text)
                    pending.remove(comp)
                    grew = True
                    break
    safe = c.head_vars <= bound
    h = head if head is not None else (c.head if safe and c.sig not in flagged else _flag(c.sig))
    return f"{h} :- {', '.join(body) or '#true'}.", safe


@dataclasses.dataclass(frozen=True)
class _Heads:
    """What derives a program's predicates: its clauses by head signature
    ((part, _Clause)), the names in a head the slice cannot copy, its
    externals; `bounded`, `superset`: what the position's facts give
    (_slice)."""

    by_head: dict[tuple, list]
    unreadable: set[str]
    externals: set
    bounded: frozenset | None
    superset: bool

    def exact(self, sig) -> bool:
        """Its atoms are exactly the program's facts of it (`superset`: the
        bound gives more facts than the program gets: none is exact)."""
        return (
            not self.superset
            and sig not in self.by_head
            and sig[0] not in self.unreadable
            and sig not in self.externals
            and (self.bounded is None or sig[0] in self.bounded)
        )


def _heads(program: _ToSlice, switches, bounded, superset: bool) -> _Heads:
    """The program's clauses by head, but for `switches` (_clauses), and the
    names in a head it cannot read."""
    by_head: dict[tuple, list] = {}
    unreadable: set[str] = set()
    for part, r in program.rules:
        try:
            clauses = _clauses(r, switches)
        except _Bail:
            unreadable |= set(re.findall(r"[a-z_][A-Za-z0-9_']*", str(r.head)))
            continue
        for c in clauses:
            by_head.setdefault(c.sig, []).append((part, c))
    return _Heads(by_head, unreadable, program.externals, bounded, superset)


def _touch(part: str, r, program: _ToSlice, switches, heads: _Heads) -> _Clause:
    """A switch clause's body but its switch literals, and the conditions
    under which it can add anything (_subsumed)."""
    if part != "base":
        raise _Bail(f"switch clause in #program {part}")
    atoms, comparisons = _conditions([l for l in r.body if _switch_of(l) not in switches])
    more_atoms, more_comparisons = _subsumed(r, program.rules, program.switch_rules, switches, heads.exact)
    return _Clause("", ("", 0), set(), atoms + more_atoms, comparisons + more_comparisons)


def _reached(touch: list[_Clause], heads: _Heads) -> tuple[set[tuple], set[tuple]]:
    """The predicates the switch clauses' bodies depend on: all they read,
    and those read positively, whose clauses the slice copies."""
    seen: set[tuple] = set()
    derived: set[tuple] = set()
    need = [(sig, True) for c in touch for sig, _, _ in c.atoms] + [
        (x[3], False) for c in touch for x in c.comparisons if x[3]
    ]
    while need:
        sig, positive = need.pop()
        seen.add(sig)
        if not positive or sig in derived:
            continue
        derived.add(sig)
        if sig in heads.externals or sig[0] in heads.unreadable:
            raise _Bail(f"{sig[0]}/{sig[1]}: #external, or a head the slice cannot copy")
        for part, c in heads.by_head.get(sig, ()):
            if part != "base":
                raise _Bail(f"{sig[0]}/{sig[1]} in #program {part}")
            need += [(s, True) for s, _, _ in c.atoms] + [(x[3], False) for x in c.comparisons if x[3]]
    return seen, derived


def _flagged(derived: set[tuple], by_head: dict[tuple, list], unknown: set[tuple], exacts: frozenset) -> set[tuple]:
    """Weakened to safety: a predicate some clause cannot derive with its
    arguments bound is flagged, and read as "may hold" where it is used."""
    flagged: set[tuple] = set(unknown)
    while True:
        more = {c.sig for sig in derived for _, c in by_head.get(sig, ()) if not _render(c, flagged, exact=exacts)[1]}
        if more <= flagged:
            return flagged
        flagged |= more


def _flag_lines(flagged: set[tuple], unknown: set[tuple]) -> list[str]:
    """Facts of a flagged predicate raise its flag too; a predicate the
    bound does not give raises it anyway."""
    lines = []
    for sig in sorted(flagged):
        if sig in unknown:
            lines.append(f"{_flag(sig)}.")
            continue
        args = ",".join(f"V{i}" for i in range(sig[1]))
        lines.append(f"{_flag(sig)} :- {sig[0]}({args})." if sig[1] else f"{_flag(sig)} :- {sig[0]}.")
    return lines


def _build(program: _ToSlice, switches, bounded, superset: bool = False) -> Slice:
    heads = _heads(program, switches, bounded, superset)
    touch = [_touch(part, r, program, switches, heads) for part, r in program.switch_rules]
    # A `not p` stays only where p is exact (no clause derives it, _render):
    # else it is dropped, and how p is derived cannot matter.
    seen, derived = _reached(touch, heads)
    exacts = frozenset(sig for sig in seen if heads.exact(sig))
    # facts the program may get but the bound does not give: may hold anything
    unknown = {sig for sig in derived if sig not in heads.by_head and bounded is not None and sig[0] not in bounded}
    flagged = _flagged(derived, heads.by_head, unknown, exacts)
    lines = list(program.consts)
    lines += [_render(c, flagged, exact=exacts)[0] for sig in sorted(derived) for _, c in heads.by_head.get(sig, ())]
    lines += _flag_lines(flagged, unknown)
    lines += [_render(c, flagged, head=f"{_TOUCH}({n})", exact=exacts)[0] for n, c in enumerate(touch)]
    text = "\n".join(lines) + "\n"
    ctl = clingo.Control(["--warn=none"], logger=_quiet)
    try:  # still unsafe somewhere: cannot tell
        ctl.add("base", [], text)
        ctl.ground([("base", [])])
    except RuntimeError:
        raise _Bail("unsafe") from None
    return Slice(text, frozenset(s[0] for s in seen))


def _subsumed(rx, rules, switch_rules, switches, exact) -> tuple[list, list]:
    """Conditions under which a switch clause can add anything: a clause
    `H :- B, not in_force(X)` beside a clause `H :- B, E` (same head, one
    condition E more, E over facts alone, none of its body reached by any
    switch clause) adds H only where E is false -- elsewhere the other
    clause derives H under either setting. The negation of each such E, as
    (atoms, comparisons) to add to the switch clause's body."""
    rest = [l for l in rx.body if _switch_of(l) not in switches]
    rest_text = {str(l) for l in rest}
    touched = _downstream(rules, switch_rules)
    atoms: list = []
    comparisons: list = []
    for part, r in rules:
        if part != "base" or r is rx or str(r.head) != str(rx.head) or any(_switch_of(l) for l in r.body):
            continue
        body = {str(l): l for l in r.body}
        extra = [l for t, l in body.items() if t not in rest_text]
        if not rest_text <= set(body) or len(extra) != 1:
            continue
        e = extra[0]
        if e.ast_type != A.ASTType.Literal or e.atom.ast_type != A.ASTType.SymbolicAtom:
            continue
        if _rule_names(r)[1] & touched:
            continue
        sig = _function(e.atom)
        if not exact(sig):
            continue
        if e.sign == A.Sign.Negation:
            atoms.append((sig, str(e.atom), _vars(e.atom)))
        elif e.sign == A.Sign.NoSign:
            comparisons.append((f"not {e.atom}", _vars(e.atom, True) - {"_"}, [], sig))
    return atoms, comparisons


def _atom_names(node) -> set[str]:
    """The predicate names of the atoms in an AST node (aggregates,
    conditions and negation included)."""
    if node is None or isinstance(node, (str, int)):
        return set()
    if isinstance(node, (list, tuple)) or type(node).__name__ == "ASTSequence":
        return set().union(set(), *(_atom_names(n) for n in node))
    if not hasattr(node, "ast_type"):
        return set()
    if node.ast_type == A.ASTType.SymbolicAtom:
        return {_function(node)[0]}
    return set().union(set(), *(_atom_names(getattr(node, k)) for k in node.child_keys))


@_per_rule
def _names(rule, _switches) -> tuple[frozenset, frozenset]:
    return frozenset(_atom_names(rule.head)), frozenset(_atom_names(rule.body))


def _rule_names(rule) -> tuple[frozenset, frozenset]:
    """The predicate names of a rule's head and of its body, read once."""
    return _names(rule, ())


def _downstream(rules, switch_rules) -> set[str]:
    """Names of the predicates a switch clause's head may change."""
    names = set().union(*(_rule_names(r)[0] for _, r in switch_rules))
    grew = True
    while grew:
        grew = False
        for _, r in rules:
            heads, body = _rule_names(r)
            if body & names:
                if not heads <= names:
                    names |= heads
                    grew = True
    return names


_FACT = re.compile(r"^([a-z_][A-Za-z0-9_']*)")


def _holds(s: Slice, facts: str) -> bool:
    """Whether the slice, grounded with the facts it reads, derives a switch
    clause's body."""
    keep = "\n".join(line for line in facts.splitlines() if (m := _FACT.match(line)) and m.group(1) in s.inputs)
    ctl = clingo.Control(["--warn=none"], logger=_quiet)
    with A.ProgramBuilder(ctl) as builder:
        for statement in _slice_statements(s.text):
            builder.add(statement)
    add_facts(ctl, keep + "\n")
    ctl.ground([("base", [])])
    return any(a.symbol.name == _TOUCH for a in ctl.symbolic_atoms.by_signature(_TOUCH, 1))


@functools.lru_cache(maxsize=64)
def _slice_statements(text: str) -> tuple:
    """A slice's statements, parsed once (a slice is asked of every position
    of a scope)."""
    out: list = []
    A.parse_string(text, out.append, logger=_quiet)
    return tuple(out)


_ADDED = re.compile(r"""\bf?["']([a-z_][A-Za-z0-9_]*)\(""")


@functools.lru_cache(maxsize=1)
def _unit_predicates() -> frozenset:
    """The predicates FactBuilder.header()/units() emit and no other method
    of it does: their facts from header+units are all the position has."""
    import inspect
    from asl_kb.asp import facts

    cheap = set(
        _ADDED.findall(inspect.getsource(facts.FactBuilder.header))
        + _ADDED.findall(inspect.getsource(facts.FactBuilder.units))
        + _ADDED.findall(inspect.getsource(facts.switch_facts))
    )
    others = set()
    for name, fn in inspect.getmembers(facts.FactBuilder, inspect.isfunction):
        if name not in ("header", "units"):
            others |= set(_ADDED.findall(inspect.getsource(fn)))
    return frozenset(cheap - others)


def _unit_facts(position):
    """header + units facts (cheap); exact for _unit_predicates()."""
    from asl_kb.asp.facts import FactBuilder

    fb = FactBuilder(position)
    fb.header()
    fb.units()
    return "\n".join(fb.lines) + "\n"


_PHASE_BOUND = frozenset({"start", "unit_type", "side", "enemy_side"})


def _phase_facts(position) -> str:
    """A superset of the facts of asl_kb/engines/phase.py Phase.facts() for
    the predicates in _PHASE_BOUND and the switch facts (each unit where it
    stands, its type and side, the sides it is an enemy of); the fates' facts
    are not bounded (read as "may hold")."""
    from asl_kb.asp.facts import loc, q, switch_facts

    out = switch_facts(position)
    sides = sorted({u.side for u in position.units})
    for u in position.units:
        U = q(u.id)
        out += [f"start({U},{loc(u.hex, u.level)}).", f"unit_type({U},{u.type}).", f"side({U},{u.side})."]
        out += [f"enemy_side({U},{x})." for x in sides if x != u.side]
    return "\n".join(out) + "\n"


@functools.lru_cache(maxsize=1)
def _programs():
    """Entry program -> the ways to bound its facts from the position, cheapest
    first: (facts function, the predicate names it gives -- None: all --,
    whether it gives a superset of them rather than exactly the program's).
    An entry program not here with a switch clause: never pruned."""
    from asl_kb.asp.facts import position_facts, prisoner_facts, switch_facts

    switch_names = frozenset(_ADDED.findall(__import__("inspect").getsource(switch_facts)))
    return {
        "rout.lp": ((_unit_facts, _unit_predicates(), False), (position_facts, None, False)),
        "prisoners.lp": ((prisoner_facts, None, False),),
        "phase.lp": ((_phase_facts, _PHASE_BOUND | switch_names, True),),
        "position.lp": (),
        "switches.lp": (),
    }


def may_touch(position, switches: tuple[str, ...], phase: bool = False) -> bool:
    """False only when no switch clause of `switches` can fire in any program
    `compare` runs for the position (under the active rules folder); the
    position must already carry its rule set's version and readings."""
    from asl_kb.record import replace

    folder = str(active_rules())
    variants = [position]
    if phase:  # the whole phase asks the rout program again with No Quarter for all (outcomes.py)
        variants.append(replace(position, no_quarter=tuple(sorted({u.side for u in position.units}))))
    switches = tuple(sorted(switches))
    for entry, bounds in _programs().items():
        if _slice(folder, entry, switches).text is None:
            continue  # no switch clause in this program
        for facts_of, bounded, superset in bounds:
            s = _slice(folder, entry, switches, bounded, superset)
            if s.text and not any(_holds(s, facts_of(p)) for p in variants):
                break  # shown untouched with this bound
        else:
            # a switch clause in the staged rout graph's final part
            for facts_of, bounded, superset in bounds:
                s = _staged_slice(folder, entry, switches, bounded, superset)
                if s.text and not any(_holds(s, facts_of(p)) for p in variants):
                    break
            else:
                return True
    return False


class _AtStage(A.Transformer):
    """A clause of `#program step(t,p)`, `plan(t,p)` or `carry(t)` as
    grounded at stage k: the parameters t and p replaced by k and k-1."""

    def __init__(self, values: dict[str, int]):
        self.values = values

    def visit_SymbolicTerm(self, node):
        sym = node.symbol
        if sym.type == clingo.SymbolType.Function and not sym.arguments and sym.name in self.values:
            return node.update(symbol=clingo.Number(self.values[sym.name]))
        return node


@functools.lru_cache(maxsize=64)
def _staged_slice(
    folder: str, entry: str, switches: tuple[str, ...], bounded: frozenset | None = None, superset: bool = False
) -> Slice:
    """The slice for switch clauses in `#program final` of the staged rout
    program (asl_kb/asp/solve.py grounds base, then step(t,p) (with plan(t,p)
    where plans/1 says) and carry(t) for t = 0, 1, ..., then final). A clause
    in `final` cannot change an atom grounded before it, and its body literal
    p(k,...) (k a number) is complete -- every atom of it that can hold is
    grounded -- once stage k is, when every clause deriving p is in `#program
    step(t,p)` or `plan(t,p)` with head p(t,...); a literal over a predicate
    only facts or `base` clauses derive is complete after base. Each switch
    clause's body cut to those literals (an over-approximation: a literal
    dropped is read as true) is judged against base and the step, plan and
    carry clauses as grounded at stages 0..k
    (t, p replaced by numbers), sliced as for a switch clause in base.
    Slice(None): no switch clause; Slice(""): cannot tell."""
    try:
        program = _with_switch_clauses(folder, entry, switches)
        if not program.switch_rules:
            return Slice(None)
        if any(p != "final" for p, _ in program.switch_rules):
            return Slice("")
        complete, unreadable = _completeness(program.rules)
        cut, last = [], -1
        for _, r in program.switch_rules:
            body, stage = _cut(r, switches, complete, unreadable)
            if not any(
                _positive(l) and l.atom.ast_type == A.ASTType.SymbolicAtom and _switch_of(l) is None for l in body
            ):
                return Slice("")
            cut.append(("base", r.update(body=body)))
            last = max(last, stage)
        grounded = _grounded_to(program.rules, last)
        sliced = _ToSlice(_may_fire(grounded, folder), program.consts, program.externals, cut)
        return _build(sliced, switches, bounded, superset)
    except _Bail:
        return Slice("")


def _completeness(rules) -> tuple[dict[tuple, object], set[str]]:
    """Per predicate, when its atoms are complete: -1 (after base), "t"
    (a step's, head p(t,...)), None (never); and the names in a head the
    slice cannot copy (never complete)."""
    complete: dict[tuple, object] = {}
    unreadable: set[str] = set()
    for part, r in rules:
        try:
            heads = [(c.sig, c.head) for c in _clauses(r, ())]
        except _Bail:
            unreadable |= _rule_names(r)[0]
            continue
        for sig, head in heads:
            kind = -1 if part == "base" else ("t" if part in STAGE_PARTS and _STAGE_FIRST.match(head) else None)
            complete[sig] = kind if complete.get(sig, kind) == kind else None
    return complete, unreadable


def _cut(r, switches, complete: dict[tuple, object], unreadable: set[str]) -> tuple[list, int]:
    """A switch clause's body cut to its literals complete at some stage
    (the switch literal, comparisons and aggregates kept), and the last
    stage they need (-1: base)."""
    body, last = [], -1
    for lit in r.body:
        if (
            _switch_of(lit) in switches
            or lit.ast_type != A.ASTType.Literal
            or lit.atom.ast_type != A.ASTType.SymbolicAtom
        ):
            body.append(lit)  # the switch literal; comparisons, aggregates: _conditions reads them
            continue
        sig = _function(lit.atom)
        kind = None if sig[0] in unreadable else complete.get(sig, -1)
        stage = _first_number(str(lit.atom))
        if _positive(lit) and (kind == -1 or (kind == "t" and stage is not None)):
            body.append(lit)
            last = max(last, stage if kind == "t" and stage is not None else -1)
        elif not _positive(lit) and kind == -1:
            body.append(lit)  # `not p` of a fact predicate: kept where exact (_render)
    return body, last


def _grounded_to(rules, last: int) -> list:
    """Base and the step, plan and carry clauses as grounded at stages
    0..last (t, p replaced by numbers), all as base clauses."""
    grounded = [(p, r) for p, r in rules if p == "base"]
    for k in range(last + 1):
        step, carry = _AtStage({"t": k, "p": k - 1}), _AtStage({"t": k})
        grounded += [("base", step(r)) for p, r in rules if p in STAGE_PARTS]
        if k < last:
            grounded += [("base", carry(r)) for p, r in rules if p == "carry"]
    return grounded


def _may_fire(rules, folder: str) -> list:
    """The clauses that may fire: those whose positive body atoms are all of
    predicates the position's facts may give (fact_names) or a clause that
    may fire derives (least fixpoint). At stage 0 this drops every clause
    reading the carry of a stage -1 (was_movable(-1,...): no such stage is
    grounded), and so what only they would need (the A10.51 step bars)."""
    derivable, live, rest = set(fact_names(folder)), [], list(rules)
    grew = True
    while grew:
        grew, waiting = False, []
        for part, r in rest:
            if {sig[0] for sig, _, _ in _conditions(r.body)[0]} <= derivable:
                live.append((part, r))
                heads = _rule_names(r)[0]
                if not heads <= derivable:
                    derivable |= heads
                    grew = True
            else:
                waiting.append((part, r))
        rest = waiting
    kept = {id(r) for _, r in live}
    return [(p, r) for p, r in rules if id(r) in kept]


_DEFINED = re.compile(r"^\s*#defined\s+([a-z_][A-Za-z0-9_']*)\s*/", re.M)
_WRITTEN = re.compile(r"""["']([a-z_][A-Za-z0-9_]*)\(""")


@functools.lru_cache(maxsize=16)
def fact_names(folder: str) -> frozenset:
    """The predicate names a position's facts may hold: the inputs the rules
    folder declares (core/defined.lp) and every name asl_kb/asp/facts.py
    writes (tests/committee/test_committee_relevance.py checks the bundled cases'
    facts against it)."""
    import inspect
    from asl_kb.asp import facts

    defined = Path(folder) / "core" / "defined.lp"
    names = set(_DEFINED.findall(defined.read_text(encoding="utf-8"))) if defined.is_file() else set()
    return frozenset(names | set(_WRITTEN.findall(inspect.getsource(facts))))


#: the parts a stage of the rout graph grounds (asl_kb/asp/solve.py): step(t,p),
#: and plan(t,p) where the rules say so -- the slice takes plan at every stage
#: (more clauses: more atoms, never fewer)
STAGE_PARTS = ("step", "plan")
#: a head p(t,...) of #program step(t,p) or plan(t,p): the stage first
_STAGE_FIRST = re.compile(r"[a-z_][A-Za-z0-9_']*\(t[,)]")


def _first_number(literal: str) -> int | None:
    """k of an atom written p(k,...) with k a number."""
    m = re.match(r"[a-z_][A-Za-z0-9_']*\((-?\d+)[,)]", literal)
    return int(m.group(1)) if m else None


def has_switch_clause(entry: str, switches: tuple[str, ...]) -> bool:
    """Whether the entry program (e.g. "phase.lp") of the active rules folder
    may have a clause with in_force(X) of a switch X in its body (True when
    the program cannot be read for it)."""
    return _slice(str(active_rules()), entry, tuple(sorted(switches))).text is not None


# the parsed programs and slices above hold clingo.ast statements
for _cache in (_parsed, _slice, _slice_statements, _staged_slice):
    release_at_exit(_cache.cache_clear)
release_at_exit(process.kept(CANON).clear)
