"""Which mutants can change a case: every clause's instances, recorded once.

A mutant changes one clause c (deleted, or one body literal negated). If c
has no ground instance when a case's programs are grounded, the grounder
produces exactly the same ground program without it, so deleting c changes
nothing there. A negated literal gives c' whose positive body is c's
positive body less that literal (a negative literal flipped only adds one);
if even that reduced body has no match, c' has no instance either and the
mutant's ground program is the original's. So a mutant need only be run
against the cases where its *probe* -- the positive body that stays -- has
a match in the atoms the grounder found possible.

The probes are extra rules `mutant_reach(Probe, Part) :- Body.` spliced
right after their clause (same `#program` part) into a copy of the rules
folder; the baseline runs every case once there and reads which
`mutant_reach/2` atoms each Control grounded. Over-approximations keep this
sound: negative literals, aggregates and conditional literals are left out
of a probe, so are literals whose variables would be unsafe without them,
and a body is split into parts that share no variable (each grounded alone,
so no cross product): the probe matches when every part does. A clause whose
probe keeps nothing (a fact, a body of negations) matches always.

What this cannot see: Python reading the rule text itself (the switch names
in core/versions.lp are facts, whose probe always matches).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import clingo
import clingo.ast as A

from tools.mutate.mutants import NEGATE, file_clauses

#: the probe atoms' name (no rule uses it)
PROBE = "mutant_reach"
_UNSAFE = re.compile(r"note: '([A-Z][A-Za-z0-9_']*)' is unsafe")


class _Vars(A.Transformer):
    def __init__(self):
        self.names: set[str] = set()

    def visit_Variable(self, node):
        if node.name != "_":
            self.names.add(node.name)
        return node


def _variables(lit) -> frozenset[str]:
    v = _Vars()
    v(lit)
    return frozenset(v.names)


def _kept(body) -> list[tuple[int, object]]:
    """(position among the body's literals, literal) for the literals a probe
    may keep: positive atoms and comparisons."""
    out, i = [], -1
    for lit in body:
        if lit.ast_type != A.ASTType.Literal:
            continue
        i += 1
        if lit.sign == A.Sign.NoSign and lit.atom.ast_type in (A.ASTType.SymbolicAtom, A.ASTType.Comparison):
            out.append((i, lit))
    return out


def _unsafe(lits: list, params: tuple[str, ...]) -> set[str] | None:
    """The variables clingo calls unsafe in a rule with this body (empty: safe;
    None: it fails for another reason)."""
    msgs: list[str] = []
    ctl = clingo.Control(["--warn=none"], logger=lambda code, m: msgs.append(m))
    try:
        ctl.add("probe", list(params), f"{PROBE}(0,0) :- {', '.join(str(l) for l in lits)}.")
        ctl.ground([("probe", [clingo.Number(0)] * len(params))])
    except RuntimeError:
        names = set(_UNSAFE.findall("\n".join(msgs)))
        return names or None
    return set()


def _safe(lits: list, params: tuple[str, ...], cache: dict) -> list:
    """`lits` less what makes the probe unsafe (the literals holding an unsafe
    variable, then every comparison, then everything)."""
    key = (tuple(str(l) for l in lits), params)
    if key in cache:
        return cache[key]
    keep = list(lits)
    while keep:
        bad = _unsafe(keep, params)
        if bad == set():
            break
        fewer = [l for l in keep if not (bad and _variables(l) & bad)]
        if len(fewer) == len(keep):
            fewer = [l for l in keep if l.atom.ast_type == A.ASTType.SymbolicAtom]
            if len(fewer) == len(keep):
                fewer = []
        keep = fewer
    cache[key] = keep
    return keep


def _parts(lits: list) -> list[list]:
    """The literals grouped so no two groups share a variable."""
    groups: list[tuple[set[str], list]] = []
    for lit in lits:
        names = set(_variables(lit))
        joined = [g for g in groups if g[0] & names]
        for g in joined:
            groups.remove(g)
            names |= g[0]
        groups.append((names, [l for g in joined for l in g[1]] + [lit]))
    return [g[1] for g in groups]


@dataclass(frozen=True)
class Probes:
    """The probe of every mutant: `parts[mutant id]` is (probe number, how many
    parts); a mutant matches a case when all its parts were grounded there."""

    parts: dict[str, tuple[int, int]]

    def may_change(self, mutant_id: str, grounded: set[tuple[int, int]] | None) -> bool:
        if grounded is None or mutant_id not in self.parts:
            return True
        n, count = self.parts[mutant_id]
        return all((n, k) in grounded for k in range(count))


def write_probes(rules: Path, files: list[str], out: Path) -> Probes:
    """Copy the rules folder `rules` to `out` with the probes of every clause
    of `files` spliced in; their numbering."""
    shutil.copytree(rules, out, dirs_exist_ok=True)
    parts: dict[str, tuple[int, int]] = {}
    cache: dict = {}
    number = 0
    for rel in files:
        text = (rules / rel).read_bytes()
        inserts: list[tuple[int, bytes]] = []
        for clause in file_clauses(rules, rel):
            st = clause.statement
            body = st.body
            kept = _kept(body)
            bodies: dict[tuple[int, ...], list] = {}  # kept positions -> the mutants
            whole = tuple(i for i, _ in kept)
            bodies[whole] = [clause.mutants[0]]
            for m, (i, _) in zip(
                clause.mutants[1:], ((i, l) for i, l in enumerate(l for l in body if l.ast_type == A.ASTType.Literal))
            ):
                assert m.kind == NEGATE
                less = tuple(j for j in whole if j != i)
                bodies.setdefault(less, []).append(m)
            rules_text = []
            for positions, mutants in bodies.items():
                lits = _safe([l for i, l in kept if i in positions], clause.part, cache)
                groups = _parts(lits)
                for k, g in enumerate(groups):
                    rules_text.append(f"{PROBE}({number},{k}) :- {', '.join(str(l) for l in g)}.")
                for m in mutants:
                    parts[m.id] = (number, len(groups))
                number += 1
            at = clause.end
            if st.ast_type == A.ASTType.Minimize:  # its location is the element's
                at = text.index(b".", text.index(b"}", at)) + 1
            inserts.append((at, ("\n" + "\n".join(rules_text)).encode() if rules_text else b""))
        for at, add in sorted(inserts, reverse=True):
            text = text[:at] + add + text[at:]
        (out / rel).write_bytes(text)
    return Probes(parts)


def grounded(controls) -> set[tuple[int, int]]:
    """The probe parts the Controls of a run grounded."""
    out = set()
    for ctl in controls:
        for sa in ctl.symbolic_atoms.by_signature(PROBE, 2):
            a, b = sa.symbol.arguments
            out.add((a.number, b.number))
    return out
