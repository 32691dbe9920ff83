"""The whole Rout Phase (--phase, asl_kb/engines/phase.py)."""

from __future__ import annotations

from asl_kb.model.common import Because, set_fields, because_lines
from asl_kb.record import FrozenRecord, Record, record


@record(slots=True)
class Turn(Record):
    """One unit's turn in a whole-phase outcome: its fate given the earlier
    units' (`fate` as a Fate's kind; a rout's `low_crawl` and Interdiction
    Locations; the `guard` of a surrender; the leader it is `accompanied_by`,
    A10.711) and why it follows from the others'."""

    unit: str
    fate: str
    at: str
    because: list[Because]
    captor: str | None = None
    cause: str | None = None
    invokes_no_quarter: str | None = None
    low_crawl: bool | None = None
    interdiction: list[str] | None = None
    guard: str | None = None
    accompanied_by: str | None = None

    def to_json(self) -> dict:
        return {
            "unit": self.unit,
            "fate": self.fate,
            "at": self.at,
            **set_fields(
                self, "captor", "cause", "invokes_no_quarter", "low_crawl", "interdiction", "guard", "accompanied_by"
            ),
            "because": because_lines(self.because),
        }


@record(slots=True)
class PhaseOutcome(Record):
    """One whole-phase outcome: the sides whose rejections invoked No Quarter
    (A20.3) and every coupled unit's turn, in rout order."""

    no_quarter_invoked: list[str]
    turns: list[Turn]

    def to_json(self) -> dict:
        return {"no_quarter_invoked": self.no_quarter_invoked, "turns": [t.to_json() for t in self.turns]}


@record(frozen=True, slots=True)
class IndependentUnit(FrozenRecord):
    """A unit no constraint ties to the others: any of its `fates` (counted)
    goes with every whole-phase outcome."""

    unit: str
    fates: int

    def to_json(self) -> dict:
        return {"unit": self.unit, "fates": self.fates}


@record(frozen=True, slots=True)
class VoluntaryRout(FrozenRecord):
    """A leader that stays, or routs with one of these broken units (A10.711)."""

    leader: str
    with_one_of: list[str]

    def to_json(self) -> dict:
        return {"leader": self.leader, "with_one_of": self.with_one_of}


#: the largest integer every JSON reader keeps exact (JavaScript's Number.MAX_SAFE_INTEGER)
MAX_SAFE_INTEGER = 2**53 - 1


@record
class WholePhase(Record):
    """The whole Rout Phase: every legal whole-phase outcome counted (`count`,
    None when the enumeration was cut): `combinations` of the coupled units'
    fates times the fates of each independent unit; the first `outcomes`
    (--limit), and what the combination `assumes`."""

    count: int | None
    independent: list[IndependentUnit]
    voluntary_rout: list[VoluntaryRout]
    outcomes: list[PhaseOutcome]
    assumes: list[str]
    combinations: int | None

    def to_json(self) -> dict:
        out: dict = {
            "count": self.count,
            "independent": [i.to_json() for i in self.independent],
            "voluntary_rout": [v.to_json() for v in self.voluntary_rout],
            "outcomes": [o.to_json() for o in self.outcomes],
            "assumes": self.assumes,
            "combinations": self.combinations,
        }
        # a count past JavaScript's safe integers (2^53 - 1) is also given as
        # its decimal string: a reader that parses JSON numbers as doubles
        # (a browser) would round it
        for key in ("count", "combinations"):
            if out[key] is not None and out[key] > MAX_SAFE_INTEGER:
                out[f"{key}_string"] = str(out[key])
        return out
