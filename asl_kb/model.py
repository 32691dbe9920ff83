"""The result model every renderer uses (docs/contract.md).

The reader (asl_kb/asp/reader.py) turns any program's answer set into these
objects; text, JSON (and later HTML) render them. Each class has `to_json()`,
the object as the JSON output shows it (a dict in a fixed key order), and the
attributes the text template reads.

* `Because`  one line of explanation: a rule id and the rules' words for it
  (from because/3 and says/2);
* `Term`     an option, requirement, state, effect, event or broken clause:
  a kind and named arguments (arguments/2), units by id, Locations, sides;
  never a term string. `says` is its wording (says(kind(K), T));
* `Violation` a clause the position breaks (violated/2): its rule and clause;
* `Band`     Original rolls (or a Random Selection) with the same effects;
* `Choice`   a result the rules leave to one party (chosen/5): N of the
  effects, chosen by the defender, the attacker or Random Selection;
* `Option`   a choice or a requirement of the prisoners program with its
  dice bands, other effects and explanation;
* `Event`    a result that is nobody's choice (an effect of fire, a joint
  result of two CC attacks);
* `Prisoners` the whole prisoners result.
The rout program's fates and the phase program's outcomes are dicts built by
asl_kb/engines/graph.py and phase.py through the same reader (because/3,
says/2).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Because:
    rule: str
    says: str

    def to_json(self) -> dict:
        return {"rule": self.rule, "says": self.says}


@dataclass(frozen=True)
class Term:
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


@dataclass(frozen=True)
class Violation:
    rule: str
    clause: Term
    #: the clause as the program names it (check's listing)
    text: str = ""

    def to_json(self) -> dict:
        return {"rule": self.rule, **self.clause.to_json(), "says": self.clause.says}


@dataclass
class Choice:
    by: str
    count: int
    of: list[Term]
    says: str = ""

    def to_json(self) -> dict:
        return {"kind": "chosen", "by": self.by, "count": self.count,
                "of": [t.to_json() for t in self.of]}


@dataclass
class Band:
    roll: str                 # dr2 (2d6), dr1 (1d6) or random_selection
    ways: int
    chance: str
    percent: float
    effects: list             # Term or Choice
    says: list[str]
    start: int | None = None  # the Original roll (from .. to)
    end: int | None = None
    selected: str | None = None   # the counter a Random Selection picks

    def to_json(self) -> dict:
        out: dict = {}
        if self.selected is not None:
            out["selected"] = self.selected
        else:
            out["from"], out["to"] = self.start, self.end
        out.update({"ways": self.ways, "chance": self.chance, "percent": self.percent, "roll": self.roll,
                    "effects": [e.to_json() for e in self.effects], "says": self.says})
        return out


@dataclass
class Option:
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


@dataclass
class Event:
    term: Term
    effects: list[Term]
    because: list[Because]

    def to_json(self) -> dict:
        return {**self.term.to_json(), "says": self.term.says,
                "effects": [{**e.to_json(), "says": e.says} for e in self.effects],
                "because": [b.to_json() for b in self.because]}


@dataclass
class JointResult:
    """One joint result of two opposed CC attacks (A20.221): a Term of kind
    both_cleared, first_cleared, second_cleared or neither_cleared."""
    result: Term
    chance: str
    percent: float

    def to_json(self) -> dict:
        return {**self.result.to_json(), "says": self.result.says, "chance": self.chance, "percent": self.percent}


@dataclass
class Joint:
    """Two opposed CC attacks (joint(I,J)) and the chance of each joint result."""
    term: Term
    results: list[JointResult]

    @property
    def attacks(self) -> list:
        return [v for _, v in self.term.args]

    def to_json(self) -> dict:
        return {**self.term.to_json(), "says": self.term.says, "results": [r.to_json() for r in self.results]}


@dataclass
class Prisoners:
    phase: str
    states: dict[str, list[Term]]
    required: list[Option]
    options: list[Option]
    notes: dict[str, list[Because]] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    simultaneous: list[Joint] = field(default_factory=list)
    violated: list[Violation] = field(default_factory=list)

    def to_json(self) -> dict:
        out: dict = {"phase": self.phase,
                     "states": {u: [{**t.to_json(), "says": t.says} for t in ts] for u, ts in self.states.items()},
                     "required": [o.to_json() for o in self.required],
                     "options": [o.to_json() for o in self.options]}
        if self.notes:
            out["notes"] = {u: [b.to_json() for b in bs] for u, bs in self.notes.items()}
        if self.events:
            out["events"] = [e.to_json() for e in self.events]
        if self.simultaneous:
            out["simultaneous"] = [j.to_json() for j in self.simultaneous]
        if self.violated:
            out["violated"] = [v.to_json() for v in self.violated]
        return out


def to_json(obj):
    """json.dumps(default=...): a model object as its JSON form."""
    if hasattr(obj, "to_json"):
        return obj.to_json()
    raise TypeError(f"not JSON serializable: {type(obj).__name__}")
