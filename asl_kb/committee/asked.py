"""What a search is asked beside its scope and rule set (search gaps,
search find): how many witnesses, at most how many positions, where to
write them, who judges them and whether the solver chooses them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable


@dataclasses.dataclass(frozen=True)
class Asked:
    """`witnesses`: stop after that many; `max_positions`: try at most that
    many (None: all); `out`: a folder each witness is written into as a
    position YAML; `evaluator`: judges the positions (scan.serial when
    None); `generate`: the solver chooses them (generate.py)."""

    witnesses: int = 3
    max_positions: int | None = None
    out: str | None = None
    evaluator: Callable | None = None
    generate: bool = False

    def judged(self, judge: Callable) -> Callable:
        """`judge` as this search runs it: by the evaluator, else in this process."""
        from asl_kb.committee.scan import serial

        return self.evaluator(judge) if self.evaluator else serial(judge)
