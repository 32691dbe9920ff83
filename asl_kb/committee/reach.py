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


def _rules_of(text: str, rel: str, line: int = 0) -> list[Clause]:
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
        for c in _rules_of(p.read_text(encoding="utf-8"), p.relative_to(root).as_posix())
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
        for f in _functions(atom.symbol):
            yield f.name, len(f.arguments), f.arguments


def _functions(term) -> list:
    """A term as its functions (a pool `p(a;b)` is several)."""
    if term.ast_type == A.ASTType.Function:
        return [term]
    if term.ast_type == A.ASTType.Pool:
        return [f for t in term.arguments for f in _functions(t)]
    return []


def _heads(rule) -> set:
    found: set = set()

    class V(A.Transformer):
        def visit_SymbolicAtom(self, node):
            found.update((f.name, len(f.arguments)) for f in _functions(node.symbol))
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
def _shapes(folder: str) -> tuple[tuple[frozenset, frozenset, str | None], ...]:
    """Per clause of clauses(folder): the (name, arity) its body reads
    positively, those its head may derive, the switch it reads -- walked
    once per folder, as clauses() parses it once (every search and every
    scope asks again)."""
    return tuple(
        (frozenset((n, a) for n, a, _ in _atoms(c.rule.body)), frozenset(_heads(c.rule)), _switch_of(c.rule))
        for c in clauses(folder)
    )


def switch_clauses(folder: str, switches) -> list[Clause]:
    """The clauses reading in_force(X) of one of `switches`."""
    wanted = set(switches)
    return [c for c, (_, _, switch) in zip(clauses(folder), _shapes(folder)) if switch in wanted]


def edit_clauses(rs) -> list[Clause]:
    """A rules folder's edited clauses: the folder's text of each clause it
    adds or rewrites, the shipped text of each it deletes or rewrites."""
    from asl_kb.committee import edits

    out = []
    for e in edits.edits(rs):
        out.extend(_rules_of(e.clause, e.file, e.line) if e.clause else [])
        # the shipped text of a rewritten clause, named apart from the new one
        was = [c for t in e.was_texts for c in _rules_of(t.decode(), e.file, e.line)]
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
def _handed(folder: str) -> frozenset:
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
        out |= {(n, len(_split(f"x({a})")[1]) if a else 0) for n, a in _EXTERNAL.findall(text)}
    declared = {n for n, _, _ in inputs(root)}
    return frozenset(out | {(n, -1) for n in fact_names(folder) if n not in declared})


@functools.lru_cache(maxsize=32)
def derivable(folder: str, given: frozenset) -> tuple[frozenset, frozenset]:
    """The predicates (name, arity) that may hold when the inputs `given`
    may (positive body atoms only; a fixpoint), and those of them some
    clause may derive (an input a clause derives too: cc_attacker/2)."""
    handed = _handed(folder)
    anyarity = {n for n, a in handed if a == -1}
    rules = [(body, heads) for body, heads, _ in _shapes(folder)]
    have = set(given) | handed | {(n, a) for body, _ in rules for n, a in body if n in anyarity}
    changed = True
    while changed:
        changed = False
        for body, heads in rules:
            if not heads <= have and body <= have:
                have |= heads
                changed = True
    return frozenset(have), frozenset(h for body, heads in rules if body <= have for h in heads)


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


def _split(fact: str) -> tuple[str, list[str]]:
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
    from asl_kb.asp.facts import position_facts, prisoner_facts, switch_facts
    from asl_kb.committee.enumerate import to_yaml
    from asl_kb.position.loader import load_position_text

    # (the same candidates: the enumeration reads only the patch, and the
    # scope's own are already enumerated)
    near = dataclasses.replace(scope, margin=min(scope.margin, 1))
    found: dict = {}
    for c in _samples(scope, per_scope):
        p = load_position_text(to_yaml(near, c), f"{scope.name} #{c.index + 1}")
        text = "\n".join([position_facts(p, voluntary_break=True), prisoner_facts(p)] + switch_facts(p))
        for line in text.splitlines():
            if _FACT.match(line):
                name, args = _split(line)
                seen = found.setdefault((name, len(args)), tuple(set() for _ in args))
                for i, a in enumerate(args):
                    seen[i].add(a)
    return Produced(found)


def missing(scope, folder: str, changed: list[Clause], per_scope: int = 40) -> dict[str, list[str]]:
    """clause -> what it needs that no position of the scope produces
    (`status(_,concealed)`; a derived atom: its name/arity). Clauses that
    may act in the scope are left out."""
    ins = by_scope(Path(folder))
    made = produced(scope, per_scope)
    given = frozenset(k for k in made.args) | (frozenset((n, a) for n, a, _ in inputs(Path(folder))) - ins)
    can, by_rule = derivable(folder, given)
    out: dict[str, list[str]] = {}
    want = needs(folder, changed, ins)
    for c in changed:
        lack = [_shown(n) for n in want[c.where] if not made.gives(n) and n[:2] not in by_rule]
        lack += [
            f"{n}/{a}" for n, a, _ in _atoms(c.rule.body) if (n, a) not in ins and (n, a) not in can and n != "in_force"
        ]
        if lack:
            out.setdefault(c.where, [])
            out[c.where] += [x for x in lack if x not in out[c.where]]
    return out


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


def idle(scope, a, b) -> dict[str, list[str]] | None:
    """Each changed clause that can act nowhere in the scope, with what it
    needs that the scope never produces; None when the changed clauses are
    not known (changed() is None) or none is idle."""
    got = changed(a, b)
    if got is None or not got[1]:
        return None
    return missing(scope, got[0], got[1]) or None
