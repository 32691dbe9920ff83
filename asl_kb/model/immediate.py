"""Immediate surrenders: Heat of Battle (A15.5), Disrupted (A19.12)."""

from __future__ import annotations

from asl_kb.model.common import Because, set_fields, because_lines
from asl_kb.record import Record, record


@record(slots=True)
class ImmediateFate(Record):
    """One outcome of an immediate surrender: `kind` surrender (to `captor`,
    `guard` its Guard), eliminated (the captor rejects it: `cause`
    no_quarter, the side that `invokes_no_quarter`), berserk,
    broken_disrupted, routs_in_its_rtph or no_surrender."""

    kind: str
    because: list[Because]
    captor: str | None = None
    guard: str | None = None
    cause: str | None = None
    invokes_no_quarter: str | None = None

    def to_json(self) -> dict:
        return {
            "fate": self.kind,
            **set_fields(self, "cause", "captor", "guard", "invokes_no_quarter"),
            "because": because_lines(self.because),
        }


@record(slots=True)
class ImmediateSurrender(Record):
    """A unit an immediate surrender may take, its Final Heat of Battle DR
    (`final_dr`, Heat of Battle only) and its fates."""

    id: str
    side: str
    at: str
    fates: list[ImmediateFate]
    final_dr: int | None = None

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "side": self.side,
            "at": self.at,
            "fates": [f.to_json() for f in self.fates],
            **set_fields(self, "final_dr"),
        }
