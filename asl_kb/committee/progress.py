"""A search's progress on standard error: one line redrawn in place,
`[#####.....] 1234/2116 positions · 1 witness · 45 s`. Drawn only on a
terminal or when asked (`--progress`), at most a few times a second; the
report on standard output is the same with or without it."""

from __future__ import annotations

import sys
import time

WIDTH = 30
#: seconds between two redraws
EVERY = 0.25


class Bar:
    def __init__(self, total: int | None, what: str = "witness", stream=None):
        self.total = total
        self.what = what
        self.stream = stream or sys.stderr
        self.last = 0.0
        self.drawn = False

    def __call__(self, tried: int, found: int, seconds: float, last: bool = False) -> None:
        """Redraw (`last`: the walk's end, drawn whenever it comes)."""
        now = time.monotonic()
        if now - self.last < EVERY and not last and (self.total is None or tried < self.total):
            return
        self.last = now
        if self.total:
            done = min(WIDTH, WIDTH * tried // self.total)
            bar = f"[{'#' * done}{'.' * (WIDTH - done)}] {tried}/{self.total}"
        else:
            bar = f"{tried}"
        found_words = f"{found} {self.what}{'' if found == 1 else 'es' if self.what.endswith('s') else 's'}"
        self.stream.write(f"\r{bar} positions · {found_words} · {seconds:.0f} s\x1b[K")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


def bar_for(scope, asked: bool, what: str = "witness") -> Bar | None:
    """A Bar for the scope when asked or standard error is a terminal."""
    if not (asked or sys.stderr.isatty()):
        return None
    from asl_kb.committee.enumerate import count

    # (counting a scope of three units or more costs half a minute: no total)
    return Bar(count(scope) if scope.max_units <= 2 else None, what)
