"""Shared by every program's results: `Because` (one line of explanation),
`Term` (a result term: a kind and named arguments) and `Violation` (a
clause the position breaks); the JSON helpers of the result classes; the
order units are listed in (`unit_key`)."""

from __future__ import annotations

import re
from typing import Any

from asl_kb.record import FrozenRecord, record


@record(frozen=True)
class Because(FrozenRecord):
    """One line of explanation: the rule, the reason's kind (the name of the
    reason term of because/3: what tools and cases compare) and its words."""

    rule: str
    says: str
    reason: str = ""

    def to_json(self) -> dict:
        if self.reason:
            return {"rule": self.rule, "reason": self.reason, "says": self.says}
        return {"rule": self.rule, "says": self.says}


@record(frozen=True)
class Term(FrozenRecord):
    """kind plus named arguments; an argument is a str (unit id, hex,
    Location "H" or "H@level", side, class), an int, a Term or a list."""

    kind: str
    args: tuple[tuple[str, Any], ...] = ()
    says: str = ""
    #: the term as the program writes it, e.g. cc(0, capture) (for diff and
    #: check listings; never in the JSON of a result)
    text: str = ""

    def arg(self, name: str, default=None):
        return dict(self.args).get(name, default)

    def to_json(self) -> dict:
        out: dict = {"kind": self.kind}
        for name, value in self.args:
            out[name] = _json(value)
        return out

    def __str__(self) -> str:
        return self.says or self.kind


def _json(value):
    if isinstance(value, Term):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value


@record(frozen=True)
class Violation(FrozenRecord):
    """A clause the position breaks (violated/2): its rule and the clause."""

    rule: str
    clause: Term
    #: the clause as the program names it (check's listing)
    text: str = ""

    def to_json(self) -> dict:
        return {"rule": self.rule, **self.clause.to_json(), "says": self.clause.says}


def set_fields(obj, *names: str) -> dict:
    """The named attributes of obj that are set (not None), in that order:
    the JSON leaves out what does not apply."""
    return {n: v for n in names if (v := getattr(obj, n)) is not None}


def because_lines(because: list[Because]) -> list[dict]:
    """Because lines as JSON (thousands of fates have a few each: no call per line)."""
    return [
        {"rule": b.rule, "reason": b.reason, "says": b.says} if b.reason else {"rule": b.rule, "says": b.says}
        for b in because
    ]


def unit_key(uid: str):
    """A unit id's place in every listing: digits compared as numbers
    (R2 before R10), so that no listing depends on the file's unit order.
    A digit run is compared by its length without leading zeros, then its
    digits: the order of its number, with no int() of a run of any length."""
    return [(0, len(x.lstrip("0")), x.lstrip("0")) if x.isdigit() else (1, 0, x) for x in re.split(r"(\d+)", uid) if x]
