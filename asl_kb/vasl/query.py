"""`asl-kb los`: the LOS between pairs of Locations, as the rules read it.

    asl-kb los POSITION A B [C D ...]
    asl-kb los --vasl-boards DIR --board NAME --pairs FILE

A Location is a hex (`2O5`; on a one-board map `O5` too) or `HEX@N`, the
N-th level of a building in it (0: the ground level). For each pair: clear
or blocked, the hex where it is blocked, and the hindrance DRM. On VASL
boards the LOS is VASL's (asl_kb/vasl/los.py), traced from the first
Location of the pair to the second; a position's `los:` overrides win and
its SMOKE and vehicles add their hindrance (asl_kb/vasl/sight.py). On a
painted map it is the hex model's (asl_kb/board/los.py).
"""

from __future__ import annotations

import json
import os
import stat
from typing import NamedTuple

from asl_kb import budget
from asl_kb.errors import AslKbError, PositionError

__all__ = ["Answer", "run"]

#: a pairs file is a few KiB; the same bound as a position file
MAX_BYTES = 1024 * 1024
#: pairs to trace at least before a child process traces half of them
PARALLEL_PAIRS = 400


class Answer(NamedTuple):
    source: str
    target: str
    clear: bool
    blocked_at: str | None
    hindrance: int
    reason: str

    def to_json(self) -> dict:
        return {
            "from": self.source,
            "to": self.target,
            "los": "clear" if self.clear else "blocked",
            "blocked_at": self.blocked_at,
            "hindrance": self.hindrance,
        }

    def text(self) -> str:
        if not self.clear:
            where = f" at {self.blocked_at}" if self.blocked_at else ""
            why = f" ({self.reason})" if self.reason else ""
            return f"{self.source} -> {self.target}: blocked{where}{why}"
        return f"{self.source} -> {self.target}: clear" + (f", hindrance +{self.hindrance}" if self.hindrance else "")


def run(args) -> str:
    """The subcommand's answer, text or JSON (AslKbError for bad input: the
    command line says it, exit 2)."""
    if args.position is not None:
        if args.board is not None or args.pairs is not None:
            raise AslKbError("los: give a position and its pairs, or --board and --pairs, not both")
        if not args.locations or len(args.locations) % 2:
            raise AslKbError("los: give the Locations in pairs: POSITION A B [C D ...]")
        from asl_kb.position.loader import load_position

        position = load_position(args.position)
        where = _OnPosition(position)
        pairs = [
            (where.parse(a, f"Location {i + 1}"), where.parse(b, f"Location {i + 2}"))
            for i, (a, b) in enumerate(zip(args.locations[::2], args.locations[1::2]))
        ]
    else:
        if args.board is None or args.pairs is None:
            raise AslKbError("los: give a position file and pairs of Locations, or --board NAME and --pairs FILE")
        if args.locations:
            raise AslKbError("los: with --pairs, the pairs are the file's, not the command line's")
        where = _OnBoard(args.board)
        pairs = _read_pairs(args.pairs, where)
    where.prefetch(pairs)
    answers = []
    for i, (a, b) in enumerate(pairs):
        if not i % 256:
            budget.check("tracing LOS")
        answers.append(where.answer(a, b))
    if args.format == "json":
        return json.dumps([a.to_json() for a in answers], indent=2, ensure_ascii=False) + "\n"
    return "".join(a.text() + "\n" for a in answers)


def _read_pairs(path: str, where) -> list:
    """FILE: one pair a line, `FROM TO` (blank lines and `#` comments
    skipped); `FILE:LINE: message` for a bad line."""
    name = path
    try:
        if path == "-":
            import sys

            data = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode):
                raise PositionError(name, None, None, "not a regular file")
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise PositionError(name, None, None, f"cannot read file: {e.strerror}") from None
    if len(data) > MAX_BYTES:
        raise PositionError(name, None, None, f"file too large: more than {MAX_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PositionError(name, None, None, "file is not UTF-8 text") from None
    pairs = []
    for n, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 2:
            raise PositionError(name, n, None, f"expected a pair `FROM TO`, got {len(words)} words")
        try:
            pairs.append((where.parse(words[0], None), where.parse(words[1], None)))
        except AslKbError as e:
            raise PositionError(name, n, None, str(e)) from None
    return pairs


def _split_level(text: str, what) -> tuple[str, int]:
    hex_text, sep, level = text.partition("@")
    if sep and not (level.isdigit() and len(level) <= 2):
        raise AslKbError(f"{what + ': ' if what else ''}bad level in {text!r}: expected HEX@N")
    return hex_text, int(level) if sep else 0


class _OnBoard:
    """One VASL board read from the boards folder, no position."""

    def __init__(self, board: str):
        from asl_kb.vasl import archive
        from asl_kb.vasl.layout import BoardSpec
        from asl_kb.vasl.realmap import real_map

        self.real = real_map((BoardSpec(board=board),), archive.boards_folder())

    def parse(self, text: str, what) -> tuple[str, int]:
        hex_text, level = _split_level(text, what)
        try:
            name = self.real.layout.parse(hex_text)
        except ValueError as e:
            raise AslKbError(f"{what + ': ' if what else ''}{e}") from None
        if level and self.real.location(name, level) is None:
            raise AslKbError(f"{what + ': ' if what else ''}no level {level} in {name}")
        return name, level

    def prefetch(self, pairs) -> None:
        self.traced = _trace_all(self.real, pairs)

    def answer(self, a, b) -> Answer:
        return _traced(self.real, a, b, None, self.traced)


class _OnPosition:
    """A position's map: VASL boards (with the position's overrides, SMOKE,
    vehicles) or the painted map."""

    def __init__(self, position):
        self.p = position
        from asl_kb.board.los import of_position

        self.los = of_position(position, [u.hex for u in position.units if u.type == "vehicle"])

    def parse(self, text: str, what) -> tuple[str, int]:
        hex_text, level = _split_level(text, what)
        p = self.p
        try:
            if p.real is not None:
                name = p.real.layout.parse(hex_text)
            else:
                from asl_kb.board import hexgrid

                name = hexgrid.parse_hex(hex_text, p.board)
                area = hexgrid.Area(*p.area)
                if not area.contains(name):
                    raise ValueError(area.why_not_in(name, p.area))
        except ValueError as e:
            raise AslKbError(f"{what}: {e}") from None
        if level > p.levels_of(name):
            raise AslKbError(f"{what}: no level {level} in {name}")
        return name, level

    def prefetch(self, pairs) -> None:
        self.traced = _trace_all(self.p.real, pairs) if self.p.real is not None else {}

    def answer(self, a, b) -> Answer:
        p = self.p
        if p.real is None:
            clear, hindrance = self.los.los(a[0], a[1], b[0], b[1])
            return Answer(_name(a), _name(b), clear, None, hindrance if clear else 0, "")
        return _traced(p.real, a, b, self.los, self.traced)


def _trace_all(real, pairs) -> dict:
    """VASL's LOS for each pair (from its first Location to its second),
    traced together (asl_kb/vasl/batch.py)."""
    from asl_kb.vasl.batch import los_split

    todo = list(dict.fromkeys((a, b) for a, b in pairs if a != b))
    locs = [(real.location(*a), real.location(*b)) for a, b in todo]
    real.tracer.tables()  # (figured once, before a child may share them)
    return dict(zip(todo, los_split(real.tracer, locs, at_least=PARALLEL_PAIRS)))


def _name(loc: tuple[str, int]) -> str:
    return loc[0] if loc[1] == 0 else f"{loc[0]}@{loc[1]}"


def _traced(real, a, b, sight, traced) -> Answer:
    """VASL's LOS from a to b, then the position's overrides and counters."""
    if sight is not None:
        r = sight.override(a[0], a[1], b[0], b[1])
        if r is not None:
            return Answer(_name(a), _name(b), r[0], None, r[1], "" if r[0] else "the position's los: says so")
    if a == b:
        return Answer(_name(a), _name(b), True, None, 0, "")
    r = traced[(a, b)]
    if r.blocked:
        return Answer(_name(a), _name(b), False, real.hex_at(r.at), 0, r.reason)
    total = r.hindrance
    if sight is not None:
        total += sight.added(a[0], b[0])
        if total >= 6:
            return Answer(_name(a), _name(b), False, None, 0, "Hindrance total of six or more (B.10)")
    return Answer(_name(a), _name(b), True, None, total, "")
