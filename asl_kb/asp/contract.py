"""The contract (docs/contract.md), checked where an answer is read.

Every program speaks through the predicates of rules/core/contract.lp; the
engines read their arguments as this table says (a rule id as a string, a
die roll as a number, a Location as loc(Hex, Level)...). The shipped rules
keep to it (tests/asp/test_contract.py); a rules folder need not: an atom
it derives in another shape is an error that names the predicate, the atom
and the clause deriving it (`FILE:LINE: because/3: ...`), not a crash deep
in an engine. The check runs only while a rules folder is in force
(control.using_rules): the shipped rules' answers are read unchecked.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import clingo

from asl_kb.errors import RulesError

_FUNCTION = clingo.SymbolType.Function
_NUMBER = clingo.SymbolType.Number
_STRING = clingo.SymbolType.String


class Shape:
    """What an argument must be: `fits(symbol)`, and its words."""

    __slots__ = ("fits", "said")

    def __init__(self, fits: Callable[[clingo.Symbol], bool], said: str):
        self.fits = fits
        self.said = said


ANY = Shape(lambda s: True, "any term")
STRING = Shape(lambda s: s.type is _STRING, "a string")
NUMBER = Shape(lambda s: s.type is _NUMBER, "a number")
#: a term with a name: a constant (rout) or a compound term (surrender("G1"))
TERM = Shape(lambda s: s.type is _FUNCTION and s.name != "", "a name or a term f(...)")
NAMED = Shape(
    lambda s: s.type is _STRING or (s.type is _FUNCTION and s.name != ""), "a string, a name or a term f(...)"
)


def fn(name: str, *args: Shape) -> Shape:
    """A term name(args...), each argument of its shape."""

    def fits(s) -> bool:
        return (
            s.type is _FUNCTION
            and s.name == name
            and len(s.arguments) == len(args)
            and all(a.fits(x) for a, x in zip(args, s.arguments))
        )

    return Shape(fits, f"{name}({', '.join(a.said for a in args)})" if args else name)


def one_of(*shapes: Shape) -> Shape:
    return Shape(lambda s: any(x.fits(s) for x in shapes), " or ".join(x.said for x in shapes))


def numbers(low: int, high: int) -> Shape:
    return Shape(lambda s: s.type is _NUMBER and low <= s.number <= high, f"a number {low}..{high}")


def _epoch(s) -> bool:
    """An epoch term: at_start(Unit), or a term whose first argument is one."""
    for _ in range(1000):
        if s.type is not _FUNCTION or not s.arguments:
            return False
        if s.name == "at_start":
            return len(s.arguments) == 1 and s.arguments[0].type is _STRING
        s = s.arguments[0]
    return False


EPOCH = Shape(_epoch, 'an epoch term (at_start("Unit") or one whose first argument is one)')
LOC = fn("loc", STRING, NUMBER)
ROUT_STATE = fn("rout_state", EPOCH, LOC, ANY, ANY, ANY, TERM)
ROUT_STATE.said = "rout_state(Epoch, loc(Hex, Level), _, _, _, How)"
DESIGNATING = fn("designating", fn("question", EPOCH, LOC, ANY))
DESIGNATING.said = "designating(question(Epoch, loc(Hex, Level), _))"
STATE = one_of(ROUT_STATE, DESIGNATING)
STATE.said = "a rout state (rout_state/6, designating/1)"
LEAF = one_of(
    ROUT_STATE,
    fn("stay", STATE),
    fn("failure_to_rout", STATE),
    fn("surrenders", ANY, STATE),
    fn("rejection", ANY, STATE),
    fn("repulse", ANY, STATE),
)
LEAF.said = "a leaf term (a rout_state, stay(S), failure_to_rout(S), surrenders(X,S), rejection(X,S), repulse(X,S))"
NODE = one_of(STATE, LEAF)
NODE.said = "a rout state or a leaf term"
FATE = one_of(fn("rout"), fn("stay"), fn("surrender", ANY), fn("eliminated", TERM))
IMMEDIATE = one_of(fn("heat_of_battle", STRING, ANY), fn("disrupted", STRING, ANY))
NAMES = one_of(
    TERM, Shape(lambda s: s.type is _FUNCTION and s.name == "" and all(TERM.fits(x) for x in s.arguments), "")
)
NAMES.said = "a name or a tuple of names"
#: the input fact an offending/2 names (engines/legality.py finds its line)
OFFENDING = one_of(
    fn("guard_of", STRING, STRING),
    fn("status", STRING, TERM),
    fn("rides", STRING, ANY),
    fn("cc", NUMBER),
    Shape(lambda s: TERM.fits(s) and s.name not in ("guard_of", "status", "rides", "cc"), ""),
)
OFFENDING.said = "an input fact (guard_of(P,G), status(U,S), rides(U,V), cc(I), ...)"
ROLL_KIND = one_of(fn("dr2"), fn("dr1"), fn("one_of", numbers(1, 10**6)))

#: (name, arity) -> its arguments: (name, shape); every program's
CONTRACT: dict[tuple[str, int], tuple[tuple[str, Shape], ...]] = {
    ("because", 3): (("Subject", NAMED), ("Rule", STRING), ("Reason", NAMED)),
    ("says", 2): (("Reason", TERM), ("Template", STRING)),
    ("arguments", 2): (("Kind", TERM), ("Names", NAMES)),
    ("violated", 2): (("Rule", STRING), ("Clause", TERM)),
    # rout.lp
    ("link", 2): (("From", STATE), ("To", NODE)),
    ("leaf", 2): (("Stage", ANY), ("Leaf", LEAF)),
    ("fate", 2): (("Leaf", one_of(LEAF, IMMEDIATE)), ("Fate", FATE)),
    ("interdiction", 3): (("Entry", fn("entry", ANY, ANY, ANY)), ("Hex", ANY), ("Interdictor", ANY)),
    ("optional_interdiction", 3): (("Entry", fn("entry", ANY, ANY, ANY)), ("Hex", ANY), ("Interdictor", ANY)),
    ("must_rout", 1): (("Unit", STRING),),
    ("may_rout", 1): (("Unit", STRING),),
    ("may_accompany", 2): (("Unit", STRING), ("Leader", STRING)),
    ("rout_rank", 2): (("Unit", STRING), ("Rank", NUMBER)),
    ("may_break", 1): (("Unit", STRING),),
    ("vb_candidate", 1): (("Unit", STRING),),
    ("vb_refused", 2): (("Rule", STRING), ("Reason", NAMED)),
    ("immediate", 3): (("Event", one_of(fn("heat_of_battle"), fn("disrupted"))), ("Unit", STRING), ("Fate", TERM)),
    # rout/A10_53_nmc.lp: the chain of checks (asl_kb/report/odds.py)
    ("chain_start", 3): (("Unit", STRING), ("With", NAMED), ("State", ANY)),
    ("interdiction_check", 3): (("Unit", STRING), ("State", ANY), ("Check", ANY)),
    ("check_dice", 3): (("Unit", STRING), ("Check", ANY), ("Dice", one_of(fn("dr1"), fn("dr2")))),
    ("check_roll", 4): (("Unit", STRING), ("Check", ANY), ("Roll", numbers(1, 12)), ("Effect", TERM)),
    ("check_next", 4): (
        ("Unit", STRING),
        ("Check", ANY),
        ("Effect", TERM),
        ("Next", one_of(fn("rout_on", ANY), fn("check", ANY), fn("stop", TERM))),
    ),
    ("state_mf", 3): (("Unit", STRING), ("State", ANY), ("MF", NUMBER)),
    ("over_mf", 3): (("Unit", STRING), ("State", ANY), ("What", TERM)),
    ("stop_eliminates", 3): (("Unit", STRING), ("Location", ANY), ("Enemy", ANY)),
    ("nmc_morale", 2): (("Unit", STRING), ("Morale", NUMBER)),
    ("nmc_morale_from", 2): (("Unit", STRING), ("From", TERM)),
    ("nmc_per", 1): (("Per", TERM),),
    ("needs_quarter", 1): (("Leaf", ANY),),
    ("pin_eliminates", 3): (("Unit", STRING), ("Hex", STRING), ("Enemy", ANY)),
    ("phase_reads", 2): (("Leaf", ANY), ("Rule", STRING)),
    # phase.lp, check.lp
    ("pick", 2): (("Unit", STRING), ("Class", NUMBER)),
    ("slot", 2): (("Unit", STRING), ("Slot", NUMBER)),
    ("freed", 1): (("Unit", STRING),),
    ("prisoner", 2): (("Unit", STRING), ("Guard", STRING)),
    ("nq_invoked", 1): (("Side", TERM),),
    ("with", 2): (("Leader", STRING), ("Unit", STRING)),
    # prisoners.lp
    ("roll", 4): (("Option", ANY), ("Kind", ROLL_KIND), ("Roll", ANY), ("Effect", ANY)),
    ("chosen", 5): (("Option", ANY), ("Roll", ANY), ("Effect", TERM), ("Who", TERM), ("Count", NUMBER)),
    ("joint_roll", 5): (("I", NUMBER), ("J", NUMBER), ("R1", NUMBER), ("R2", NUMBER), ("Result", TERM)),
    # position.lp
    ("offending", 2): (("Clause", TERM), ("Fact", OFFENDING)),
    # switches.lp
    ("in_force", 1): (("Switch", TERM),),
    ("version_switch", 2): (("Switch", TERM), ("Rule", STRING)),
    ("qa_reading", 2): (("Switch", TERM), ("Rule", STRING)),
    ("text_reading", 2): (("Switch", TERM), ("Rule", STRING)),
}
#: what one program reads more narrowly than the others
NARROWER: dict[str, dict[tuple[str, int], tuple[tuple[str, Shape], ...]]] = {
    # (the phase program's explanations are of units, their reasons terms:
    # freed(Captor) names the captor)
    "phase": {
        ("because", 3): (
            ("Subject", STRING),
            ("Rule", STRING),
            ("Reason", one_of(fn("freed", STRING), Shape(lambda s: TERM.fits(s) and s.name != "freed", ""))),
        )
    },
}
NARROWER["phase"][("because", 3)][2][1].said = "a term (freed(Captor) with the captor's id)"
#: each predicate of the contract -> its arities, in the contract's order
_ARITIES: dict[str, tuple[int, ...]] = {
    name: tuple(a for n, a in CONTRACT if n == name) for name in dict.fromkeys(n for n, _ in CONTRACT)
}
#: per roll kind, the rolls it has (the dice's faces or totals)
_FACES = {"dr2": range(2, 13), "dr1": range(1, 7)}


def _ordinal(i: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(i, f"{i}th")


def problem(s, program: str | None = None) -> tuple[str, str] | None:
    """(predicate, what is wrong) of an atom the contract refuses, or None."""
    if s.type is not _FUNCTION:
        return None
    arities = _ARITIES.get(s.name)
    if arities is None:
        return None  # not the contract's: no reader looks at it
    signature = f"{s.name}/{len(s.arguments)}"
    args = (NARROWER.get(program or "", {}).get((s.name, len(s.arguments)))) or CONTRACT.get((s.name, len(s.arguments)))
    if args is None:
        known = ", ".join(f"{s.name}/{a}" for a in arities)
        return signature, f"{s}: not in the contract ({known}; docs/contract.md)"
    for i, ((name, shape), x) in enumerate(zip(args, s.arguments), 1):
        if not shape.fits(x):
            return signature, f"{s}: {name} (the {_ordinal(i)} argument) must be {shape.said}, not {x}"
    if s.name == "roll" and len(s.arguments) == 4:
        kind, r = s.arguments[1], s.arguments[2]
        faces = _FACES.get(kind.name)
        if faces is not None and not (r.type is _NUMBER and r.number in faces):
            return signature, f"{s}: Roll (the 3rd argument) of a {kind.name} must be a number {faces[0]}..{faces[-1]}"
    return None


def check(symbols, program: str | None = None) -> None:
    """Raise the RulesError of the first atom of `symbols` the contract
    refuses, where a rules folder is in force."""
    from asl_kb.asp import control

    if not control.checking_contract():
        return
    for s in symbols:
        found = problem(s, program)
        if found is not None:
            raise refused(s, *found)


def check_relations(atoms: dict[str, list]) -> None:
    """The relations between a rout answer's atoms the graph reads (every
    leaf has a fate; a surrender its Guard, guard_after/2; a rejection
    the side that invokes No Quarter, invokes_no_quarter/2), where a rules
    folder is in force: RulesError at the clause deriving the atom left
    without its partner."""
    from asl_kb.asp import control

    if not control.checking_contract():
        return
    fates = {s.arguments[0]: s for s in atoms.get("fate", ())}
    guards = {s.arguments[0] for s in atoms.get("guard_after", ())}
    invokes = {s.arguments[0] for s in atoms.get("invokes_no_quarter", ())}
    for s in atoms.get("leaf", ()):
        if s.arguments[1] not in fates:
            raise refused(s, "leaf/2", f"{s}: the leaf has no fate/2")
    for subject, s in fates.items():
        f = s.arguments[1]
        if f.name == "surrender" and subject not in guards:
            raise refused(s, "fate/2", f"{s}: a surrender with no guard_after/2 (the Guard that results)")
        if f.name == "eliminated" and f.arguments[0].name == "no_quarter" and subject not in invokes:
            raise refused(s, "fate/2", f"{s}: a rejection with no invokes_no_quarter/2 (the side invoking it)")


def refused(atom, signature: str, message: str) -> RulesError:
    """The error of `atom`, refused for `message`, at the clause deriving it."""
    file, line = deriving(atom)
    return RulesError(file, line, signature, message + " (docs/contract.md)")


def fill(template: str, atom, *args, **named) -> str:
    """A says/2 template filled: a template naming an argument `atom` has
    not, or not well formed, is a rules folder's error at its says/2."""
    try:
        return template.format(*args, **named)
    except (IndexError, KeyError, ValueError) as e:
        says = clingo.Function("says", [atom, clingo.String(template)])
        raise refused(says, "says/2", f"{says}: the template does not fit {atom} ({type(e).__name__}: {e})") from None


# -- the clause deriving an atom ---------------------------------------------

_INCLUDE = re.compile(r'^\s*#include\s+("[^"]*"|<[^>]*>)\s*\.', re.M)


def deriving(atom) -> tuple[str, int | None]:
    """(file, line) of a clause of the rules in force whose head can derive
    `atom` (a #show term too): one of the rules folder's own files first;
    (the rules folder, None) where none is found."""
    from asl_kb.asp import control

    from asl_kb.resources import rules_dir

    folder = control.active_rules()
    own = control.own_files()
    best: tuple | None = None
    for path in sorted(folder.rglob("*.lp")):
        rel = path.relative_to(folder).as_posix()
        # (a clause the folder left as shipped is blamed after one it edited)
        shipped = {c for _, _, c in _heads(rules_dir() / rel, atom.name, len(atom.arguments))} if rel in own else set()
        for head, line, clause in _heads(path, atom.name, len(atom.arguments)):
            rank = (
                not _may_give(head, atom),
                rel not in own or clause in shipped,
                -_constants(head),
            )
            if best is None or rank < best[0]:
                best = (rank, control.shown_path(path), line)
    return (best[1], best[2]) if best else (control.rules_label(), None)


def _constants(term) -> int:
    """How many constants and function names a term of a clause fixes (the
    more, the surer a clause that may give an atom is the one)."""
    import clingo.ast as A

    if term.ast_type == A.ASTType.SymbolicTerm:
        return 1
    if term.ast_type == A.ASTType.Function:
        return 1 + sum(_constants(a) for a in term.arguments)
    return 0


def _heads(path: Path, name: str, arity: int):
    """(head term, line) of each clause of one file that derives name/arity."""
    import clingo.ast as A

    try:
        text = _INCLUDE.sub("", path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return []
    out: list = []

    def take(st) -> None:
        if st.ast_type == A.ASTType.Rule:
            heads = _atoms(st.head)
        elif st.ast_type == A.ASTType.ShowTerm:
            heads = iter([st.term])
        else:
            return
        for h in heads:
            if h.ast_type == A.ASTType.Function and h.name == name and len(h.arguments) == arity:
                out.append((h, st.location.begin.line, " ".join(str(st).split())))

    try:
        A.parse_string(text, take)
    except RuntimeError:
        return []
    return out


def _atoms(node):
    """The atoms of a clause's head (a literal, a disjunction, an aggregate's
    elements, a conditional literal's)."""
    import clingo.ast as A

    t = node.ast_type
    if t == A.ASTType.Literal:
        yield from _atoms(node.atom)
    elif t == A.ASTType.SymbolicAtom:
        yield node.symbol
    elif t == A.ASTType.ConditionalLiteral:
        yield from _atoms(node.literal)
    elif t in (A.ASTType.Disjunction, A.ASTType.Aggregate):
        for e in node.elements:
            yield from _atoms(e)
    elif t == A.ASTType.HeadAggregate:
        for e in node.elements:
            yield from _atoms(e.condition)


def _may_give(term, x) -> bool:
    """Whether a term of a clause (a head, its arguments) may be the symbol
    x: its constants and function names are x's (a variable, an operation
    may be anything)."""
    import clingo.ast as A

    t = term.ast_type
    if t == A.ASTType.SymbolicTerm:
        return str(term.symbol) == str(x)
    if t == A.ASTType.Function:
        return (
            x.type is _FUNCTION
            and x.name == term.name
            and len(x.arguments) == len(term.arguments)
            and all(_may_give(a, b) for a, b in zip(term.arguments, x.arguments))
        )
    return True
