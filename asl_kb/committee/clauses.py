"""The clauses of a rules file, as clingo's own parser finds them.

A clause is a rule or #minimize statement written in the file itself (not
in a file it #include's), with its byte span -- clingo reports locations by
line and byte column -- its line, its text with the whitespace collapsed,
and the parameters of the `#program` part it is in. The says/2 wording
facts are not clauses here: they only word explanations. A committee's
edited folder is read clause by clause against the shipped one
(asl_kb/committee/edits.py); `make mutate` mutates these clauses
(tools/mutate/mutants.py).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import clingo.ast as A


@dataclasses.dataclass(frozen=True)
class Clause:
    statement: A.AST
    part: tuple[str, ...]  # the parameters of its #program part
    line: int
    start: int  # its byte span in the file
    end: int
    text: str  # as written, whitespace collapsed


def offsets(text: bytes) -> list[int]:
    """Byte offset of the start of each line (clingo columns count bytes)."""
    starts = [0]
    for m in re.finditer(rb"\n", text):
        starts.append(m.end())
    return starts


def span(starts: list[int], loc) -> tuple[int, int]:
    """The byte span of a clingo location."""
    return (starts[loc.begin.line - 1] + loc.begin.column - 1, starts[loc.end.line - 1] + loc.end.column - 1)


def collapse(b: bytes) -> str:
    return " ".join(b.decode().split())


def _is_wording(rule) -> bool:
    head = rule.head
    return (
        head.ast_type == A.ASTType.Literal
        and head.atom.ast_type == A.ASTType.SymbolicAtom
        and head.atom.symbol.ast_type == A.ASTType.Function
        and head.atom.symbol.name == "says"
    )


def _collect(text: bytes, parse, own=lambda st: True) -> list[Clause]:
    """The clauses `parse(take)` hands over, spans read in `text` (`own`:
    whether a statement is of this file, not of one it #include's)."""
    starts = offsets(text)
    out: list[Clause] = []
    part: list[tuple[str, ...]] = [()]

    def take(st):
        if st.ast_type == A.ASTType.Program:
            part[0] = tuple(p.name for p in st.parameters)
            return
        if st.ast_type not in (A.ASTType.Rule, A.ASTType.Minimize) or not own(st):
            return
        if st.ast_type == A.ASTType.Rule and _is_wording(st):
            return
        a, b = span(starts, st.location)
        out.append(Clause(st, part[0], st.location.begin.line, a, b, collapse(text[a:b])))

    parse(take)
    return out


def file_clauses(rules: Path, rel: str) -> list[Clause]:
    """Every clause of the rules file `rel` (a path under `rules`), in file order."""
    path = rules / rel
    target = str(path.resolve())
    return _collect(
        path.read_bytes(),
        lambda take: A.parse_files([str(path)], take),
        lambda st: str(Path(st.location.begin.filename).resolve()) == target,
    )


_INCLUDE = re.compile(rb"^[ \t]*#include[^\n]*", re.M)


def text_clauses(text: bytes) -> list[Clause]:
    """The clauses of a rules file's text (as file_clauses; its #include
    lines left out, each blanked so that lines and bytes stay put)."""
    text = _INCLUDE.sub(lambda m: b" " * len(m.group(0)), text)
    try:
        return _collect(text, lambda take: A.parse_string(text.decode(), take))
    except RuntimeError:  # an earlier text that no longer parses: no clauses
        return []
