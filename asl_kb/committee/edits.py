"""The clauses a rules folder changes, and which of them a finding needs.

A folder overlays the shipped rules file by file; what the committee wants
named is the clause it edited. Each overlay file's clauses (clingo's parser,
asl_kb/committee/clauses.py, as `make mutate` reads them) are matched against
the shipped file's, in order (difflib): every run of clauses added, deleted
or rewritten is one *edit*, with its file, line, rule id and both texts.

`needed(rs, present)`: the edits a finding comes from -- a set of them that
gives it with every other edit undone, none of which can be undone too (a
minimal core over the edits): the finding is run again under rules folders
with edits undone, one more at a time. None when the shipped rules (every
edit undone) give it too.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import cast

import clingo.ast as A

from asl_kb import process
from asl_kb.asp.control import using_rules
from asl_kb.engines.cores import rule_of_file
from asl_kb.resources import rules_dir


@dataclasses.dataclass(frozen=True)
class Edit:
    file: str  # path under the rules folder, e.g. "rout/A20_21_surrender.lp"
    line: int  # line of the edit in the folder's file (deleted: in the shipped file)
    kind: str  # "added", "deleted" or "changed"
    clause: str  # the folder's clause(s) (whitespace collapsed), "" when deleted
    was: str  # the shipped clause(s), "" when added
    start: int  # byte span of the folder's file the shipped text replaces to undo it
    end: int
    replacement: bytes
    #: the shipped clauses' texts, one by one
    was_texts: tuple[bytes, ...] = ()
    #: the comment right above the clause (its rule's words, as the rules
    #: files quote them), "" when none
    sentence: str = ""
    #: a deleted clause put back where another `#program` part is in force:
    #: (the shipped clause's `#program` directive, the one to resume after it)
    parts: tuple[bytes, bytes] | tuple[()] = ()

    def put_back(self, clauses: bytes) -> bytes:
        """Shipped clause text as it goes back in the folder's file at `start`
        (a deleted one in its own `#program` part)."""
        if not self.parts:
            return clauses
        return b"\n" + self.parts[0] + b"\n" + clauses + b"\n" + self.parts[1] + b"\n"

    @property
    def rule(self) -> str:
        return rule_of_file(self.file)

    def as_json(self) -> dict:
        out = {"file": self.file, "line": self.line, "rule": self.rule, "edit": self.kind}
        if self.clause:
            out["clause"] = self.clause
        if self.was:
            out["was"] = self.was
        if self.sentence:
            out["sentence"] = self.sentence
        return out

    def text(self) -> str:
        """One line: `rout/A20_21_surrender.lp:89 [A20.21] changed: CLAUSE`."""
        return f"{self.file}:{self.line} [{self.rule}] {self.kind}: {self.clause or self.was}"


def _clauses(rules: Path, rel: str):
    from asl_kb.committee.clauses import file_clauses

    text = (rules / rel).read_bytes()
    return text, [(c.text, c.start, c.end, c.line) for c in file_clauses(rules, rel)]


#: how alike a shipped clause and the folder's must be to be one rewritten
#: clause rather than one deleted and one added (difflib's ratio)
ALIKE = 0.6


def _one_by_one(opcodes, theirs: list[str] | None = None, mine: list[str] | None = None):
    """difflib's runs split into one edit per clause: a run of clauses
    added or deleted clause by clause; a run rewritten, each folder clause
    paired, in order, with the most alike shipped clause (at least ALIKE),
    the others deleted or added one by one."""
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "insert":
            yield from ((tag, i1, i1, j, j + 1) for j in range(j1, j2))
        elif tag == "delete":
            yield from ((tag, i, i + 1, j1, j1) for i in range(i1, i2))
        elif tag == "replace" and i2 - i1 == j2 - j1:
            yield from ((tag, i1 + k, i1 + k + 1, j1 + k, j1 + k + 1) for k in range(i2 - i1))
        elif tag == "replace" and theirs is not None and mine is not None:
            yield from _paired(theirs, mine, range(i1, i2), range(j1, j2))
        else:
            yield tag, i1, i2, j1, j2


def _paired(theirs: list[str], mine: list[str], old: range, new: range):
    """A run of `theirs` (the shipped clauses at `old`) rewritten as one of
    `mine` (the folder's at `new`): each of mine paired, in order, with the
    most alike of theirs left (at least ALIKE), else added; theirs passed
    over, deleted."""
    i = old.start
    for j in new:
        ratios = [(difflib.SequenceMatcher(None, theirs[k], mine[j]).ratio(), -k) for k in range(i, old.stop)]
        best = max(ratios, default=(0.0, 0))
        if best[0] < ALIKE:
            yield ("insert", i, i, j, j + 1)
            continue
        k = -best[1]
        yield from (("delete", x, x + 1, j, j) for x in range(i, k))
        yield ("replace", k, k + 1, j, j + 1)
        i = k + 1
    yield from (("delete", x, x + 1, new.stop, new.stop) for x in range(i, old.stop))


_PROGRAM = re.compile(rb"^[ \t]*#program[^.]*\.", re.M)


def _part_at(text: bytes, offset: int) -> bytes:
    """The `#program` directive in force at a byte offset of a rules file."""
    found = [m.group(0).strip() for m in _PROGRAM.finditer(text, 0, offset)]
    return found[-1] if found else b"#program base."


def _comment_above(text: bytes, line: int) -> str:
    """The `%` comment block right above a line (1-based) of a rules file,
    as one line of words."""
    lines = text.decode().split("\n")
    block = []
    n = line - 2
    while n >= 0 and lines[n].lstrip().startswith("%"):
        block.append(lines[n].lstrip().lstrip("%").strip())
        n -= 1
    return " ".join(w for w in reversed(block) if w)


def _unmoved(file_edits: list[tuple[Edit, bytes]]) -> list[Edit]:
    """A file's edits without the clauses only moved: a clause deleted in
    one place and added, the same text, in the same `#program` part,
    elsewhere (the same rules)."""
    drop: set[int] = set()
    for i, (e, part) in enumerate(file_edits):
        if e.kind != "deleted":
            continue
        for k, (f, fpart) in enumerate(file_edits):
            if k not in drop and f.kind == "added" and f.clause == e.was and fpart == part:
                drop |= {i, k}
                break
    return [e for i, (e, _) in enumerate(file_edits) if i not in drop]


def edits(rs) -> tuple[Edit, ...]:
    """Every edit of the rule set's folder against the shipped rules, in file
    order (none for a rule version)."""
    if rs.folder is None:
        return ()
    memo = process.kept("committee.edits")
    hit = memo.get(rs.folder)
    if hit is not None:
        return hit
    from asl_kb.committee.rulesets import materialize

    complete, shipped = materialize(rs.folder), rules_dir()
    out: list[Edit] = []
    for rel in sorted(rs.replaces + rs.adds):
        text, mine = _clauses(complete, rel)
        old_text, theirs = _clauses(shipped, rel) if rel in rs.replaces else (b"", [])
        sm = difflib.SequenceMatcher(None, [c[0] for c in theirs], [c[0] for c in mine], autojunk=False)
        file_edits: list[tuple[Edit, bytes]] = []
        for tag, i1, i2, j1, j2 in _one_by_one(sm.get_opcodes(), [c[0] for c in theirs], [c[0] for c in mine]):
            if tag == "equal":
                continue
            was = " ".join(c[0] for c in theirs[i1:i2])
            replacement = b"\n".join(old_text[c[1] : c[2]] for c in theirs[i1:i2])
            parts: tuple[bytes, bytes] | tuple[()] = ()
            if j1 < j2:
                start, end, line = mine[j1][1], mine[j2 - 1][2], mine[j1][3]
            else:  # deleted: the shipped clauses go back after the clause before
                start = end = mine[j1 - 1][2] if j1 else (mine[0][1] if mine else len(text))
                line = theirs[i1][3]  # where it stood in the shipped file
                # (in the `#program` part it stood in: the clause before may be in another)
                was_in, here = _part_at(old_text, theirs[i1][1]), _part_at(text, start)
                if was_in != here:
                    parts = (was_in, here)
                replacement = b"\n" + replacement + b"\n"
            kind = "changed" if i1 < i2 and j1 < j2 else ("added" if j1 < j2 else "deleted")
            said = _comment_above(old_text if j1 == j2 else text, line) or (
                _comment_above(old_text, theirs[i1][3]) if i1 < i2 else ""
            )
            e = Edit(
                rel,
                line,
                kind,
                " ".join(c[0] for c in mine[j1:j2]),
                was,
                start,
                end,
                replacement,
                tuple(old_text[c[1] : c[2]] for c in theirs[i1:i2]),
                said,
                parts,
            )
            part = _part_at(old_text, theirs[i1][1]) if j1 == j2 else _part_at(text, start)
            file_edits.append((dataclasses.replace(e, replacement=e.put_back(replacement)), part))
        out.extend(_unmoved(file_edits))
    memo[rs.folder] = tuple(out)
    return memo[rs.folder]


def undone(rs, which: frozenset[int]) -> Path:
    """A complete rules folder: the rule set's with the edits `which` (their
    indices in edits(rs)) undone."""
    key = (rs.folder, which)
    variants = process.kept("committee.edits undone")
    hit = variants.get(key)
    if hit is not None and hit.exists():
        return hit
    from asl_kb.committee.rulesets import materialize

    complete = materialize(rs.folder)
    target = complete.parent / f"{complete.name}-undo{len(variants)}"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(complete, target)
    all_edits = edits(rs)
    by_file: dict[str, list[Edit]] = {}
    for i in sorted(which):
        by_file.setdefault(all_edits[i].file, []).append(all_edits[i])
    for rel, es in by_file.items():
        text = (complete / rel).read_bytes()
        for e in sorted(es, key=lambda e: e.start, reverse=True):
            text = text[: e.start] + e.replacement + text[e.end :]
        (target / rel).write_bytes(text)
    variants[key] = target
    return target


def needed(rs, present: Callable[[], bool]) -> list[Edit] | None:
    """The edits the finding `present()` (run under the active rules) comes
    from: a set of them that gives it alone (every other edit undone) and
    none of which can be undone -- a minimal core over the edits. None when
    the shipped rules give it too. Where it stays with every clause edit
    undone, the folder's other changes give it (an #include left out, a
    #show, a #const: directive_edits), all of them named."""
    all_edits = edits(rs)
    others = directive_edits(rs)
    if not others and not all_edits:
        return None
    with using_rules(None):
        if present():
            return None
    everything = frozenset(range(len(all_edits)))

    def gives(kept: frozenset[int]) -> bool:
        with using_rules(undone(rs, everything - kept)):
            return present()

    # (with no directive changed, every clause edit undone is the shipped rules, run above)
    if not all_edits or (others and gives(frozenset())):
        return others
    kept = set(everything)
    for i in sorted(everything):
        if gives(frozenset(kept - {i})):
            kept.discard(i)
    return [all_edits[i] for i in sorted(kept)]


def _directives(text: str) -> list[tuple[str, int]]:
    """A rules file's statements other than its clauses (#include, #show,
    #const, #external, #program, ...), as (comparable text, line)."""
    out = [(f"#include {m[1]}.", text.count("\n", 0, m.start()) + 1) for m in _INCLUDE_ANY.finditer(text)]
    stmts: list = []
    try:
        A.parse_string(_INCLUDE_ANY.sub("", text), stmts.append)
    except RuntimeError:
        return out
    out += [
        (" ".join(str(s).split()), s.location.begin.line)
        for s in stmts
        if s.ast_type not in (A.ASTType.Rule, A.ASTType.Comment, A.ASTType.Minimize)
    ]
    return sorted(out, key=lambda d: d[1])


def _run(directives: list) -> str:
    """A run of statements in words: each, or the first two and the last of many."""
    said = [d[0] for d in directives]
    if len(said) <= 3:
        return " ".join(said)
    return f"{said[0]} {said[1]} ... {said[-1]} ({len(said)} statements)"


def directive_edits(rs) -> list[Edit]:
    """The folder's changes to the statements that are not clauses (each
    run of #include, #show, #const... added, deleted or changed against
    the shipped file), as edits to name; they are not undone one by one."""
    if rs.folder is None:
        return []
    out = []
    for rel in rs.replaces:
        mine = _directives((rs.folder / rel).read_text(encoding="utf-8"))
        theirs = _directives((rules_dir() / rel).read_text(encoding="utf-8"))
        sm = difflib.SequenceMatcher(None, [d[0] for d in theirs], [d[0] for d in mine], autojunk=False)
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag == "equal":
                continue
            kind = "changed" if i1 < i2 and j1 < j2 else ("added" if j1 < j2 else "deleted")
            line = mine[j1][1] if j1 < j2 else theirs[i1][1]
            clause, was = _run(mine[j1:j2]), _run(theirs[i1:i2])
            out.append(Edit(rel, line, kind, clause, was, 0, 0, b""))
    return out


# -- the edits as a switch ---------------------------------------------------

#: the switch the combined folder (as_switch) gives a folder's edits
SWITCH = "asl_kb_erratum"
_INCLUDE_ANY = re.compile(r'^[ \t]*#include\s+("[^"]*"|<[^>]*>)\s*\.', re.M)
_INCLUDE = re.compile(r'^\s*#include\s+"([^"]+)"\s*\.', re.M)


def _guarded(clause: bytes, sign: str) -> bytes | None:
    """A clause (its text) with `in_force(SWITCH)` (sign "") or `not
    in_force(SWITCH)` (sign "not ") added to its body, as clingo prints it;
    None for a statement that takes no body literal (#minimize)."""
    out: list = []
    A.parse_string(clause.decode(), out.append)
    rules = [s for s in out if s.ast_type != A.ASTType.Program]
    if len(rules) != 1 or rules[0].ast_type != A.ASTType.Rule:
        return None
    st = rules[0]
    loc = st.location
    lit = A.Literal(
        loc,
        A.Sign.Negation if sign else A.Sign.NoSign,
        A.SymbolicAtom(A.Function(loc, "in_force", [A.Function(loc, SWITCH, [], 0)], 0)),
    )
    return str(st.update(body=list(st.body) + [lit])).encode()


def _others(text: bytes) -> list[str]:
    """A file's statements other than its clauses (#show, #const, #external,
    #program, #minimize...) and its #include lines, as comparable text."""
    out: list = []
    A.parse_string(_INCLUDE.sub("", text.decode()), out.append)
    return [str(s) for s in out if s.ast_type not in (A.ASTType.Rule, A.ASTType.Comment)]


def as_switch(rs) -> Path | None:
    """A complete rules folder holding both the shipped rules and the
    folder's: each edit's new clauses read `in_force(SWITCH)`, its shipped
    clauses `not in_force(SWITCH)`, and versions.lp declares SWITCH a Q&A
    reading (on unless a position's `readings` turns it off). With SWITCH on
    it answers as the folder, off as the shipped rules, so the edits are a
    switch's clauses (committee/relevance.py skips the positions they cannot
    touch, and both sides are grounded once). None when the folder changes
    more than clauses (an #include of a shipped file, #show, #const,
    #external, #program, #minimize) or a clause takes no body literal."""
    switched = process.kept("committee.edits as a switch")
    if rs.folder in switched:
        hit = switched[rs.folder]
        if hit is None or hit.exists():
            return hit
    from asl_kb.committee.rulesets import materialize

    complete, shipped = materialize(rs.folder), rules_dir()
    all_edits = edits(rs)
    target = complete.parent / f"{complete.name}-switch"
    result: Path | None = target
    try:
        for rel in rs.replaces:
            mine, theirs = (complete / rel).read_bytes(), (shipped / rel).read_bytes()
            kept = set(_INCLUDE.findall(theirs.decode()))
            new = set(_INCLUDE.findall(mine.decode()))
            # an include may only be added, of a file the folder adds
            if not kept <= new or not (new - kept) <= set(rs.adds) or _others(mine) != _others(theirs):
                raise ValueError(rel)
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(complete, target)
        for rel in sorted(set(e.file for e in all_edits)):
            text = (complete / rel).read_bytes()
            mine = _clauses(complete, rel)[1]
            by_start = {(c[1], c[2]): c for c in mine}
            pieces = []
            for e in sorted((e for e in all_edits if e.file == rel), key=lambda e: e.start, reverse=True):
                new_clauses = [c for (a, b), c in by_start.items() if e.start <= a and b <= e.end]
                guarded = [_guarded(text[c[1] : c[2]], "") for c in sorted(new_clauses, key=lambda c: c[1])]
                was = [_guarded(x, "not ") for x in e.was_texts]
                if any(g is None for g in guarded + was):
                    raise ValueError(rel)
                # (none is None: raised above)
                pieces.append((e.start, e.end, e.put_back(b"\n".join(cast("list[bytes]", guarded + was)))))
            for start, end, piece in pieces:
                text = text[:start] + piece + text[end:]
            (target / rel).write_bytes(text)
        versions = target / "core" / "versions.lp"
        versions.write_text(
            versions.read_text() + f"\n% (asl-kb search: the rule folder {rs.folder} as a switch)\n"
            f'qa_reading({SWITCH}, "{rs.folder.name}").\n'
        )
    except (ValueError, RuntimeError):
        result = None
    switched[rs.folder] = result
    return result
