"""The mutants of the rules: every rule clause deleted, every body literal
negated.

Clauses are found with clingo's own parser (clingo.ast); a mutant is the
file's text with one clause's span cut out, or `not ` added before / taken
away from one body literal, spliced by the locations the parser reports, so
comments and layout stay as written. Not mutated: #show, #include, #program,
#const, comments, and the says/2 wording facts (they only word explanations).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import clingo.ast as A

from asl_kb.committee import clauses
from asl_kb.committee.clauses import collapse, offsets, span

#: the kinds of mutation
DELETE, NEGATE = "delete", "negate"
_NOT = re.compile(rb"not\s+")
#: `% equivalent: delete -- why` or `% equivalent: LITERAL -- why` in the comment
#: block right above a clause: that mutant changes no answer (docs/mutation.md)
_EQUIVALENT = re.compile(r"^%\s*equivalent:\s*(.+?)\s+--\s+(.*)$")


@dataclasses.dataclass(frozen=True)
class Mutant:
    file: str  # path under the rules folder, e.g. "rout/A10_52_low_crawl.lp"
    line: int  # line of the clause (negate: of the literal)
    kind: str  # DELETE or NEGATE
    clause: str  # the clause as written (whitespace collapsed)
    literal: str = ""  # NEGATE: the body literal as written
    start: int = 0  # byte span of the file replaced by `replacement`
    end: int = 0
    replacement: bytes = b""
    equivalent: str = ""  # the reason, when the rules file marks this mutant equivalent

    @property
    def id(self) -> str:
        lit = f"@{self.literal}" if self.kind == NEGATE else ""
        return f"{self.file}:{self.line}:{self.kind}:{self.start}{lit}"

    @property
    def mutation(self) -> str:
        if self.kind == DELETE:
            return "clause deleted"
        return f"`{self.literal}` -> `{self.replacement.decode()}`"

    def apply(self, text: bytes) -> bytes:
        """The mutated text of the file (`text`: its original bytes)."""
        return text[: self.start] + self.replacement + text[self.end :]

    def overlay(self, rules: Path, out: Path) -> Path:
        """Write a complete rules folder `out` (a copy of `rules`) with this
        mutant in place: a rule set `using_rules(out)` runs."""
        import shutil

        shutil.copytree(rules, out, dirs_exist_ok=True)
        src = (rules / self.file).read_bytes()
        (out / self.file).write_bytes(self.apply(src))
        return out

    def as_dict(self) -> dict:
        return {
            "id": self.id,
            "file": self.file,
            "line": self.line,
            "kind": self.kind,
            "clause": self.clause,
            "mutation": self.mutation,
            **({"equivalent": self.equivalent} if self.equivalent else {}),
        }


@dataclasses.dataclass(frozen=True)
class Clause:
    """One mutable clause of a rules file: its AST statement, the parameters of
    the `#program` part it is in, where it ends in the file's bytes, and its
    mutants (the deletion first, then one negation per body literal, in order)."""

    statement: A.AST
    part: tuple[str, ...]
    end: int
    mutants: tuple[Mutant, ...]


def file_clauses(rules: Path, rel: str) -> list[Clause]:
    """Every mutable clause of one rules file (asl_kb/committee/clauses.py),
    in file order, with its mutants."""
    path = rules / rel
    text = path.read_bytes()
    starts = offsets(text)
    lines = text.decode().split("\n")
    out = []
    for c in clauses.file_clauses(rules, rel):
        st = c.statement
        marks = _equivalent_marks(lines, c.line, rel)
        mutants = [Mutant(rel, c.line, DELETE, c.text, start=c.start, end=c.end)]
        body = st.body if st.ast_type == A.ASTType.Rule else ()
        for lit in body:
            if lit.ast_type != A.ASTType.Literal:
                continue  # conditional literals are left alone
            la, lb = span(starts, lit.location)
            written = text[la:lb]
            m = _NOT.match(written)
            flipped = written[m.end() :] if m else b"not " + written
            mutants.append(Mutant(rel, lit.location.begin.line, NEGATE, c.text, collapse(written), la, lb, flipped))
        for target, (line, reason) in marks.items():
            hit = [
                i
                for i, m in enumerate(mutants)
                if (m.kind == DELETE and target == "delete") or (m.kind == NEGATE and m.literal == target)
            ]
            if not hit:
                raise SystemExit(
                    f"rules/{rel}:{line}: equivalent: the clause below has no mutant {target!r} "
                    f"(`delete` or one of its body literals as written)"
                )
            for i in hit:
                mutants[i] = dataclasses.replace(mutants[i], equivalent=reason)
        out.append(Clause(st, c.part, c.end, tuple(mutants)))
    return out


def _equivalent_marks(lines: list[str], first: int, rel: str) -> dict[str, tuple[int, str]]:
    """The `% equivalent:` marks in the comment block right above line `first`
    (1-based): target -> (line, reason); a reason goes on over the comment
    lines after it."""
    block = []
    n = first - 1
    while n >= 1 and lines[n - 1].lstrip().startswith("%"):
        block.append(n)
        n -= 1
    marks: dict[str, tuple[int, str]] = {}
    current = None
    for n in reversed(block):
        line = lines[n - 1].strip()
        m = _EQUIVALENT.match(line)
        if m:
            current = collapse(m[1].encode())
            marks[current] = (n, m[2].strip())
        elif current is not None:
            more = line.lstrip("%").strip()
            if not more:
                current = None
            else:
                ln, why = marks[current]
                marks[current] = (ln, f"{why} {more}")
    for target, (ln, why) in marks.items():
        if not why:
            raise SystemExit(f"rules/{rel}:{ln}: equivalent: {target}: give the reason after `--`")
    return marks


def unsafe_mutants(rules: Path, rel: str) -> dict[str, str]:
    """The negations of one rules file that leave a variable unsafe (the
    negated literal was its only binder), by mutant id, with clingo's message:
    such a mutant no longer grounds at all, which is told from the clause
    alone, in its #program part, before any case is run."""
    import clingo

    text = (rules / rel).read_bytes()
    starts = offsets(text)
    out: dict[str, str] = {}
    for c in file_clauses(rules, rel):
        a, _ = span(starts, c.statement.location)
        for m in c.mutants:
            if m.kind != NEGATE:
                continue
            clause = (text[a : m.start] + m.replacement + text[m.end : c.end]).decode()
            said: list[str] = []
            ctl = clingo.Control(["--warn=none"], logger=lambda code, msg: said.append(msg), message_limit=5)
            try:
                ctl.add("clause", list(c.part), clause)
                ctl.ground([])
            except RuntimeError:
                first = next((x for x in said if "error" in x), "error")
                out[m.id] = f"rules/{rel}:{m.line}: " + first.split("\n")[0].split(": ", 1)[-1]
    return out


def file_mutants(rules: Path, rel: str) -> list[Mutant]:
    """Every mutant of one rules file, in file order."""
    return [m for c in file_clauses(rules, rel) for m in c.mutants]


def rule_files(rules: Path, only: list[str] | None = None) -> list[str]:
    """The rules files (paths under `rules`) to mutate: all, or those `only`
    names (paths as given on the command line, with or without `rules/`,
    or globs)."""
    every = sorted(str(p.relative_to(rules)) for p in rules.rglob("*.lp"))
    if not only:
        return every
    import fnmatch

    chosen = []
    for pat in only:
        pat = pat.strip()
        if pat.startswith("rules/"):
            pat = pat[len("rules/") :]
        hits = [f for f in every if fnmatch.fnmatch(f, pat) or f == pat]
        if not hits:
            raise SystemExit(f"error: FILES: no rules file matches {pat!r}")
        chosen += [h for h in hits if h not in chosen]
    return chosen


_INCLUDE = re.compile(r'^\s*#include\s+"([^"]+)"\s*\.', re.M)


def include_tree(rules: Path, entry: str) -> set[str]:
    """The files an entry program loads (itself and its #include's, as paths
    under `rules`)."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        rel = todo.pop()
        if rel in seen or not (rules / rel).is_file():
            continue
        seen.add(rel)
        here = Path(rel).parent
        for inc in _INCLUDE.findall((rules / rel).read_text()):
            cand = (here / inc).as_posix()
            todo.append(cand if (rules / cand).is_file() else inc)
    return seen
