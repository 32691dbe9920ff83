"""The one reader of answer sets (docs/contract.md).

Every program speaks through the same output predicates:

* because(Subject, Rule, Reason)  why Subject (a rout state, rout(U),
  heat_of_battle(U,F), disrupted(U,F), a prisoners option, a unit id, a
  phase unit) is what it is: Rule fired for Reason;
* says(Reason, Template)          the words of a reason or roll effect ({0},
  {1} ... its arguments); says(kind(K), Template) the words of a result
  term of kind K ({name}: its named argument);
* arguments(K, (Name, ...))       the names of a result term's arguments;
* violated(Rule, Clause)          the position (or a whole-phase outcome)
  breaks Clause of Rule;
* the results themselves, one predicate per kind of result: fate/2 and
  link/2 (rout), immediate/3 (Heat of Battle, A19.12), pick/2 (phase),
  option/1, required/1, state/2, roll/4, effect/2, joint_roll/5 (prisoners).

`Answer(symbols)` sorts a shown answer set into these; the engines build
the result model (asl_kb/model/) from it. No engine tells programs or
results apart by the letters of a predicate name.
"""

from __future__ import annotations

import functools
from collections import defaultdict

import clingo

from asl_kb.asp import contract, control
from asl_kb.asp.symbols import read_symbols, unseen
from asl_kb.model import Because, Term, Violation


def text(sym) -> str:
    """A term as a player reads it: strings bare, numbers as numbers,
    functions as name(a, b)."""
    if sym.type == clingo.SymbolType.String:
        return sym.string
    if sym.type == clingo.SymbolType.Number:
        return str(sym.number)
    if sym.type == clingo.SymbolType.Function and sym.arguments:
        return f"{sym.name}({', '.join(text(a) for a in sym.arguments)})"
    return str(sym)


def location(sym) -> str:
    """loc(H, Level) as the output writes a Location: H, or H@Level above ground."""
    h, level = sym.arguments
    return h.string if level.number == 0 else f"{h.string}@{level.number}"


@functools.lru_cache(maxsize=None)
@functools.lru_cache(maxsize=None)
def rule_order(rule: str):
    """Rule ids in rulebook order (A10.5 < A10.51 < A20.3)."""
    parts = rule.lstrip("ABCDEFG").split(".")
    return (tuple(int(x) if x.isdigit() else 0 for x in parts), rule)


def reason_kind(reason) -> str:
    """The kind of a reason term (its name; a string or number as written)."""
    if reason.type == clingo.SymbolType.Function and reason.name:
        return reason.name
    return text(reason)


class Answer:
    """One answer set, read through the contract."""

    def __init__(self, symbols, memo: dict | None = None, growing: bool = False, program: str | None = None):
        #: the program answering ("phase": its narrower reading of the contract)
        self.program = program
        self.says: dict[str, str] = {}
        self._lines: dict = {}  # (rule, reason) -> ((rule, words), kind)
        self._made: dict = {}  # (rule, words, kind) -> Because
        self._order: dict = {}  # (rule, words) -> its place in rulebook order
        self.kind_says: dict[str, str] = {}
        self.arguments: dict[str, tuple[str, ...]] = {}
        self.because: dict = defaultdict(list)
        self.violated: list[tuple[str, clingo.Symbol]] = []
        self.atoms: dict[str, list] = defaultdict(list)
        self._said: dict = {}
        #: `growing`: more symbols are read in later (add()), each once
        self._seen: set | None = set() if growing else None
        self._memo = {} if growing and memo is None else memo
        self.add(symbols)

    def add(self, symbols) -> dict[str, list]:
        """Read symbols into this answer: a growing one (the rout program
        run on groups of units, asl_kb/asp/groups.py) skips those it has
        read before (two groups may derive one atom: a says/2, a unit both
        name). Returns the atoms read now by name (as `atoms`, and the
        because/3 atoms read now)."""
        if self._seen is not None:
            symbols = unseen(symbols, self._seen)
        new: dict[str, list] = defaultdict(list)
        read = read_symbols(symbols, self._memo)
        if control.checking_contract():  # (a rules folder's answer: asl_kb/asp/contract.py)
            contract.check(read, self.program)
        for s in read:
            name = s.name
            a = s.arguments
            if name == "because" and len(a) == 3:
                self.because[a[0]].append((a[1].string, a[2]))
                new[name].append(s)
            elif name == "says" and len(a) == 2:
                key = a[0]
                if key.name == "kind" and len(key.arguments) == 1:
                    self.kind_says[key.arguments[0].name] = a[1].string
                else:
                    self.says[key.name] = a[1].string
            elif name == "arguments" and len(a) == 2:
                names = a[1].arguments if a[1].name == "" else (a[1],)
                self.arguments[a[0].name] = tuple(n.name for n in names)
            elif name == "violated" and len(a) == 2:
                self.violated.append((a[0].string, a[1]))
            else:
                self.atoms[name].append(s)
                new[name].append(s)
        return new

    # --- explanations -----------------------------------------------------
    def say(self, reason) -> str:
        """The words of a reason (says/2: {0}, {1} ... its arguments)."""
        said = self._said.get(reason)
        if said is None:
            said = text(reason)
            if reason.type == clingo.SymbolType.Function:
                template = self.says.get(reason.name)
                if template is not None:
                    said = contract.fill(template, reason, *[text(x) for x in reason.arguments])
            self._said[reason] = said
        return said

    def explain(self, pairs, by_rule_number: bool = True) -> list[Because]:
        """(rule, reason) pairs as sorted, distinct lines of explanation: in
        rulebook order, or (by_rule_number False) by the rule id's letters."""
        return self.explain_lines(self.lines(pairs), by_rule_number)

    def lines(self, pairs) -> list[tuple]:
        """(rule, reason) pairs as lines ((rule, words), kind), for
        explain_lines: a caller that explains many lists sharing pairs (a
        rout graph's paths share their states) reads each pair once."""
        lines = self._lines
        out = []
        for pair in pairs:
            line = lines.get(pair)
            if line is None:  # a fate's path repeats its states' reasons
                line = lines[pair] = ((pair[0], self.say(pair[1])), reason_kind(pair[1]))
                if line[0] not in self._order:
                    self._order[line[0]] = (rule_order(pair[0]), line[0][1])
            out.append(line)
        return out

    def explain_lines(self, lines, by_rule_number: bool = True) -> list[Because]:
        """explain() of the pairs read by lines()."""
        items: dict[tuple[str, str], str] = {}
        for k, kind in lines:
            if k not in items or kind < items[k]:  # one line per wording, as before
                items[k] = kind
        # (one Because a line: the fates of an open board repeat a few dozen
        # lines thousands of times)
        made = self._made
        return [
            made.get((r, s, items[r, s])) or self._because(r, s, items[r, s])
            for r, s in sorted(items, key=self._order.__getitem__ if by_rule_number else None)
        ]

    def _because(self, rule: str, says: str, kind: str) -> Because:
        b = self._made[(rule, says, kind)] = Because(rule, says, kind)
        return b

    def explain_subject(self, subject, by_rule_number: bool = True) -> list[Because]:
        return self.explain(self.because.get(subject, ()), by_rule_number)

    # --- result terms -----------------------------------------------------
    def value(self, sym):
        if sym.type == clingo.SymbolType.String:
            return sym.string
        if sym.type == clingo.SymbolType.Number:
            return sym.number
        if sym.name == "loc" and len(sym.arguments) == 2:
            return location(sym)
        if not sym.arguments:
            return sym.name
        if sym.name == "":
            return [self.value(x) for x in sym.arguments]
        return self.term(sym)

    def term(self, sym, positional: bool = False) -> Term:
        """A result term as a kind with named arguments (arguments/2) and its
        words: says(kind(K), T) with named fields, or (positional, for the
        effects of a roll) says(K, T) with {0}, {1} ..."""
        if sym.type != clingo.SymbolType.Function:
            return Term(kind=text(sym), says=text(sym), text=text(sym))
        names = self.arguments.get(sym.name, ())
        values = [self.value(a) for a in sym.arguments]
        if len(names) != len(values):  # undeclared: a test keeps every shown kind declared
            names = tuple(f"arg{i + 1}" for i in range(len(values)))
        args = tuple(zip(names, values))
        template = None if positional else self.kind_says.get(sym.name)
        if template is not None:
            words = contract.fill(
                template, clingo.Function("kind", [clingo.Function(sym.name)]), **{n: str(v) for n, v in args}
            )
        else:
            words = self.say(sym)
        return Term(sym.name, args, words, text(sym))

    def violations(self) -> list[Violation]:
        return sorted(
            (Violation(rule, self.term(clause), text(clause)) for rule, clause in self.violated),
            key=lambda v: (v.rule, v.text),
        )
