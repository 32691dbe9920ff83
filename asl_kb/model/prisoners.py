"""The prisoners program's result (asl_kb/engines/prisoners.py): options and
requirements with their dice bands, choices, events and joint CC results."""

from __future__ import annotations


from asl_kb.model.common import Because, Term, Violation
from asl_kb.record import Record, field, record


@record
class Choice(Record):
    """A result the rules leave to one party (chosen/5): `count` of the effects
    `of`, chosen `by` the defender, the attacker or Random Selection."""

    by: str
    count: int
    of: list[Term]
    says: str = ""

    def to_json(self) -> dict:
        return {"kind": "chosen", "by": self.by, "count": self.count, "of": [t.to_json() for t in self.of]}


@record
class Band(Record):
    """Original rolls (or a Random Selection) with the same effects, and their
    chance."""

    roll: str  # dr2 (2d6), dr1 (1d6) or random_selection
    ways: int
    chance: str
    percent: float
    effects: list  # Term or Choice
    says: list[str]
    start: int | None = None  # the Original roll (from .. to)
    end: int | None = None
    selected: str | None = None  # the counter a Random Selection picks

    def to_json(self) -> dict:
        out: dict = {}
        if self.selected is not None:
            out["selected"] = self.selected
        else:
            out["from"], out["to"] = self.start, self.end
        out.update(
            {
                "ways": self.ways,
                "chance": self.chance,
                "percent": self.percent,
                "roll": self.roll,
                "effects": [e.to_json() for e in self.effects],
                "says": self.says,
            }
        )
        return out


@record
class Option(Record):
    """A choice or a requirement of the prisoners program, with its dice bands,
    other effects and why."""

    term: Term
    required: bool
    because: list[Because]
    rolls: list[Band] = field(default_factory=list)
    roll_for: Term | None = None
    effects: list[Term] = field(default_factory=list)

    @property
    def says(self) -> str:
        return self.term.says

    def to_json(self) -> dict:
        out = {**self.term.to_json(), "says": self.term.says, "required": self.required}
        if self.rolls:
            out["rolls"] = [b.to_json() for b in self.rolls]
        if self.roll_for is not None:
            out["roll_for"] = {**self.roll_for.to_json(), "says": self.roll_for.says}
        if self.effects:
            out["effects"] = [{**e.to_json(), "says": e.says} for e in self.effects]
        out["because"] = [b.to_json() for b in self.because]
        return out


@record
class Event(Record):
    """A result that is nobody's choice (an effect of fire, a joint result of two CC
    attacks)."""

    term: Term
    effects: list[Term]
    because: list[Because]

    def to_json(self) -> dict:
        return {
            **self.term.to_json(),
            "says": self.term.says,
            "effects": [{**e.to_json(), "says": e.says} for e in self.effects],
            "because": [b.to_json() for b in self.because],
        }


@record
class JointResult(Record):
    """One joint result of two opposed CC attacks (A20.221): a Term of kind
    both_cleared, first_cleared, second_cleared or neither_cleared."""

    result: Term
    chance: str
    percent: float

    def to_json(self) -> dict:
        return {**self.result.to_json(), "says": self.result.says, "chance": self.chance, "percent": self.percent}


@record
class Joint(Record):
    """Two opposed CC attacks (joint(I,J)) and the chance of each joint result."""

    term: Term
    results: list[JointResult]

    @property
    def attacks(self) -> list:
        return [v for _, v in self.term.args]

    def to_json(self) -> dict:
        return {**self.term.to_json(), "says": self.term.says, "results": [r.to_json() for r in self.results]}


@record
class Prisoners(Record):
    """The whole prisoners result: each unit's states, what the rules require and
    allow, events, joint CC results, broken clauses."""

    phase: str
    states: dict[str, list[Term]]
    required: list[Option]
    options: list[Option]
    notes: dict[str, list[Because]] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    simultaneous: list[Joint] = field(default_factory=list)
    violated: list[Violation] = field(default_factory=list)

    def to_json(self) -> dict:
        out: dict = {
            "phase": self.phase,
            "states": {u: [{**t.to_json(), "says": t.says} for t in ts] for u, ts in self.states.items()},
            "required": [o.to_json() for o in self.required],
            "options": [o.to_json() for o in self.options],
        }
        if self.notes:
            out["notes"] = {u: [b.to_json() for b in bs] for u, bs in self.notes.items()}
        if self.events:
            out["events"] = [e.to_json() for e in self.events]
        if self.simultaneous:
            out["simultaneous"] = [j.to_json() for j in self.simultaneous]
        if self.violated:
            out["violated"] = [v.to_json() for v in self.violated]
        return out
