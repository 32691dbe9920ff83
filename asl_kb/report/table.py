"""Plain-text tables no wider than the terminal: columns padded to their
widest cell, and where the whole is too wide, the wrapping columns' cells
wrapped onto more lines (textwrap), so a row is never cut."""

from __future__ import annotations

import shutil
import sys
import textwrap

#: the width when there is no terminal to measure (output piped or captured)
DEFAULT_WIDTH = 80
#: the narrowest a wrapped column is made
MIN_WRAP = 16


def width() -> int:
    """The terminal's width ($COLUMNS first) when the output is one, else
    DEFAULT_WIDTH: piped or captured output is the same wherever it is made."""
    if not sys.stdout.isatty():
        return DEFAULT_WIDTH
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns


def wrap(text: str, room: int, indent: str = "") -> list[str]:
    """`text` on lines of at most `room` characters, the later ones indented."""
    return textwrap.wrap(text, max(room, MIN_WRAP), subsequent_indent=indent, break_on_hyphens=False) or [""]


def lines(rows: list[tuple[str, ...]], room: int, wrapping: tuple[int, ...], indent: str = "") -> list[str]:
    """The rows (the header first) as padded columns two spaces apart, at most
    `room` wide: the columns in `wrapping` share what the others leave, a
    narrow one whole, the others evenly."""
    n = len(rows[0])
    widths = [max(len(r[i]) for r in rows) for i in range(n)]
    total = len(indent) + sum(widths) + 2 * (n - 1)
    if total > room and wrapping:
        left = room - len(indent) - sum(w for i, w in enumerate(widths) if i not in wrapping) - 2 * (n - 1)
        open_ = sorted(wrapping, key=lambda i: widths[i])
        while open_:
            fair = max(MIN_WRAP, left // len(open_))
            i = open_.pop(0)
            widths[i] = min(widths[i], fair)
            left -= widths[i]
    out = []
    for row in rows:
        cells = [wrap(c, widths[i]) if i in wrapping else [c] for i, c in enumerate(row)]
        for k in range(max(len(c) for c in cells)):
            parts = [(c[k] if k < len(c) else "").ljust(widths[i]) for i, c in enumerate(cells)]
            out.append((indent + "  ".join(parts)).rstrip())
    return out
