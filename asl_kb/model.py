"""The result model every renderer uses (docs/contract.md).

The reader (asl_kb/asp/reader.py) turns any program's answer set into these
objects; text, JSON and HTML render them. Each class has `to_json()`, the
object as the JSON output shows it (a dict in a fixed key order), and the
attributes the text template reads.

Shared:
* `Because`  one line of explanation: a rule id and the rules' words for it
  (from because/3 and says/2).

The rout program (asl_kb/engines/graph.py, outcomes.py):
* `Fate`     one legal fate of a broken unit: rout, stay, surrender, freed
  or eliminated, where it ends, its path, Low Crawl, the `Interdiction`
  Locations on the way, the captor and Guard (and the `AbandonedSW`), the
  cause of an elimination, and why;
* `UnitFates` a broken unit (or one that might break voluntarily) with why
  it must, may or may not rout, its fates and their `FateSummary` (per
  `Destination`, the `UnbeatenRoute`s: report/summary.py);
* `ImmediateSurrender` a unit a Heat of Battle (A15.5) or Disrupted
  (A19.12) surrender may take, with its `ImmediateFate`s.

The whole-phase program (asl_kb/engines/phase.py):
* `WholePhase` the count of the whole-phase outcomes, the `IndependentUnit`s,
  the leaders' `VoluntaryRout`s and the `PhaseOutcome`s listed, each a list of
  `Turn`s in rout order.

The prisoners program (asl_kb/engines/prisoners.py):
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
* `Joint`    two opposed CC attacks and the chance of each `JointResult`
  (A20.221);
* `Prisoners` the whole prisoners result.

All of a position's outcomes (`asl-kb outcomes`): `Outcomes`, with the
`Cut` of a run stopped by --timeout.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Because:
    """One line of explanation: the rule, the reason's kind (the name of the
    reason term of because/3: what tools and cases compare) and its words."""
    rule: str
    says: str
    reason: str = ""

    def to_json(self) -> dict:
        if self.reason:
            return {"rule": self.rule, "reason": self.reason, "says": self.says}
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


# --------------------------------------------------------------------------
# the rout program: each broken unit's fates
# --------------------------------------------------------------------------

def _given(obj, *names: str) -> dict:
    """The named attributes of obj that are set (not None), in that order:
    the JSON leaves out what does not apply."""
    return {n: v for n in names if (v := getattr(obj, n)) is not None}


def _lines(because: list[Because]) -> list[dict]:
    """Because lines as JSON (thousands of fates have a few each: no call per line)."""
    return [{"rule": b.rule, "reason": b.reason, "says": b.says} if b.reason else {"rule": b.rule, "says": b.says}
            for b in because]


@dataclass(frozen=True, slots=True)
class Interdiction:
    """An Open Ground Location on the way where an Interdiction NMC applies
    (A10.53), and the units that may enforce it (the DEFENDER picks one)."""
    at: str
    by: tuple[str, ...]

    def to_json(self) -> dict:
        return {"at": self.at, "by": list(self.by)}


@dataclass(frozen=True, slots=True)
class AbandonedSW:
    """A SW a surrendering unit leaves behind in its Location (A20.24)."""
    sw: str
    at: str

    def to_json(self) -> dict:
        return {"sw": self.sw, "at": self.at}


@dataclass(slots=True)
class Fate:
    """One legal fate of a broken unit: how it ends the Rout Phase.

    `kind` is rout, stay, surrender, freed (a surrender some whole-phase
    outcome frees as Unarmed for lack of Guard capacity, A20.51) or
    eliminated; `at` the Location it ends in; `path` the shortest example
    path (`paths`: every path, with --all-paths); `interdiction` the Open
    Ground Locations where an Interdiction NMC applies, `optional_interdiction`
    those where concealed units may drop concealment to Interdict (A10.533).
    A surrender names its `captor`, the `guard` that results and the SW it
    `abandons`; an elimination its `cause` (failure_to_rout, no_quarter), for
    a rejected surrender the captor and the side that `invokes_no_quarter`,
    and the units whose LLMC a leader's elimination calls for (`llmc`).
    """
    kind: str
    at: str
    low_crawl: bool
    path: list[str]
    interdiction: list[Interdiction]
    optional_interdiction: list[Interdiction]
    because: list[Because]
    captor: str | None = None
    guard: str | None = None
    abandons: list[AbandonedSW] | None = None
    cause: str | None = None
    invokes_no_quarter: str | None = None
    llmc: list[str] | None = None
    paths: list[list[str]] | None = None

    @property
    def key(self) -> tuple:
        """What makes two fates the same outcome (not the example path)."""
        return Fate.key_of(self.kind, self.captor, self.cause, self.at, self.low_crawl,
                           Fate.exposure_key(self.interdiction), Fate.exposure_key(self.optional_interdiction))

    @staticmethod
    def key_of(kind, captor, cause, at, low_crawl, interdiction: tuple, optional: tuple) -> tuple:
        """Fate.key from its parts (the fate walk figures it before building a
        Fate); `interdiction`, `optional`: exposure_key of each list."""
        return (kind, captor or "", cause or "", at, low_crawl, interdiction, optional)

    @staticmethod
    def exposure_key(interdictions) -> tuple:
        """An Interdiction list's part of Fate.key."""
        return tuple((i.at, i.by) for i in interdictions)

    def to_json(self) -> dict:
        out: dict = {"fate": self.kind, **_given(self, "cause", "captor", "guard", "invokes_no_quarter")}
        if self.abandons is not None:
            out["abandons"] = [a.to_json() for a in self.abandons]
        out.update(_given(self, "llmc"))
        out["at"] = self.at
        out["low_crawl"] = self.low_crawl
        out["path"] = self.path
        out["interdiction"] = [i.to_json() for i in self.interdiction]
        out["optional_interdiction"] = [i.to_json() for i in self.optional_interdiction]
        out["because"] = _lines(self.because)
        out.update(_given(self, "paths"))
        return out


@dataclass(slots=True)
class UnbeatenRoute:
    """Routes to one destination whose Interdiction Locations (and optional
    Interdiction) no other route there beats, with the numbers of the fates
    that take them (1-based, as `--all` numbers them)."""
    interdiction: list[str]
    optional_interdiction: list[str]
    fates: list[int]

    def to_json(self) -> dict:
        return {"interdiction": self.interdiction, "optional_interdiction": self.optional_interdiction,
                "fates": self.fates}


@dataclass(slots=True)
class Destination:
    """The rout fates ending in one Location: how many (`fates`), the numbers
    of the Low Crawl ones, the unbeaten routes (fewest Interdiction Locations
    first; `least_interdiction` the fewest, None when only Low Crawl gets
    there) and how many routes are `beaten`."""
    at: str
    fates: int
    low_crawl: list[int]
    least_interdiction: int | None
    unbeaten: list[UnbeatenRoute]
    beaten: int

    def to_json(self) -> dict:
        return {"at": self.at, "fates": self.fates, "low_crawl": self.low_crawl,
                "least_interdiction": self.least_interdiction,
                "unbeaten": [r.to_json() for r in self.unbeaten], "beaten": self.beaten}


@dataclass(slots=True)
class FateSummary:
    """What a player weighs of a unit's fates (asl_kb/report/summary.py):
    counts, the rout fates per destination, the numbers of the other fates."""
    fates: int
    rout_fates: int
    beaten_rout_fates: int
    destinations: list[Destination]
    other_fates: list[int]

    def to_json(self) -> dict:
        return {"fates": self.fates, "rout_fates": self.rout_fates, "beaten_rout_fates": self.beaten_rout_fates,
                "destinations": [d.to_json() for d in self.destinations], "other_fates": self.other_fates}


@dataclass(slots=True)
class UnitFates:
    """A broken unit (or, with --voluntary-break, an unbroken unit that might
    break, A10.41): whether it must or may rout and why, the leaders that may
    rout with it (A10.711), and every legal fate. A unit without a legal fate
    is `inconsistent` (a question for the rules committee)."""
    id: str
    side: str
    at: str
    must_rout: bool
    may_rout: bool
    because: list[Because]
    fates: list[Fate]
    voluntary_rout: list[str] | None = None
    may_break: bool | None = None
    summary: FateSummary | None = None

    @property
    def inconsistent(self) -> bool:
        return not self.fates

    def to_json(self) -> dict:
        out: dict = {"id": self.id, "side": self.side, "at": self.at, "must_rout": self.must_rout,
                     "may_rout": self.may_rout, "because": _lines(self.because),
                     "fates": [f.to_json() for f in self.fates], **_given(self, "voluntary_rout")}
        if self.inconsistent:
            out["inconsistent"] = True
        out.update(_given(self, "may_break"))
        if self.summary is not None:
            out["summary"] = self.summary.to_json()
        return out


# --------------------------------------------------------------------------
# immediate surrenders: Heat of Battle (A15.5), Disrupted (A19.12)
# --------------------------------------------------------------------------

@dataclass(slots=True)
class ImmediateFate:
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
        return {"fate": self.kind, **_given(self, "cause", "captor", "guard", "invokes_no_quarter"),
                "because": _lines(self.because)}


@dataclass(slots=True)
class ImmediateSurrender:
    """A unit an immediate surrender may take, its Final Heat of Battle DR
    (`final_dr`, Heat of Battle only) and its fates."""
    id: str
    side: str
    at: str
    fates: list[ImmediateFate]
    final_dr: int | None = None

    def to_json(self) -> dict:
        return {"id": self.id, "side": self.side, "at": self.at, "fates": [f.to_json() for f in self.fates],
                **_given(self, "final_dr")}


# --------------------------------------------------------------------------
# the whole Rout Phase (--phase)
# --------------------------------------------------------------------------

@dataclass(slots=True)
class Turn:
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
        return {"unit": self.unit, "fate": self.fate, "at": self.at,
                **_given(self, "captor", "cause", "invokes_no_quarter", "low_crawl", "interdiction", "guard",
                         "accompanied_by"),
                "because": _lines(self.because)}


@dataclass(slots=True)
class PhaseOutcome:
    """One whole-phase outcome: the sides whose rejections invoked No Quarter
    (A20.3) and every coupled unit's turn, in rout order."""
    no_quarter_invoked: list[str]
    turns: list[Turn]

    def to_json(self) -> dict:
        return {"no_quarter_invoked": self.no_quarter_invoked, "turns": [t.to_json() for t in self.turns]}


@dataclass(frozen=True, slots=True)
class IndependentUnit:
    """A unit no constraint ties to the others: any of its `fates` (counted)
    goes with every whole-phase outcome."""
    unit: str
    fates: int

    def to_json(self) -> dict:
        return {"unit": self.unit, "fates": self.fates}


@dataclass(frozen=True, slots=True)
class VoluntaryRout:
    """A leader that stays, or routs with one of these broken units (A10.711)."""
    leader: str
    with_one_of: list[str]

    def to_json(self) -> dict:
        return {"leader": self.leader, "with_one_of": self.with_one_of}


@dataclass
class WholePhase:
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
        return {"count": self.count, "independent": [i.to_json() for i in self.independent],
                "voluntary_rout": [v.to_json() for v in self.voluntary_rout],
                "outcomes": [o.to_json() for o in self.outcomes], "assumes": self.assumes,
                "combinations": self.combinations}


# --------------------------------------------------------------------------
# every outcome of a position (asl-kb outcomes)
# --------------------------------------------------------------------------

@dataclass
class Cut:
    """What a run stopped by --timeout (or --max-memory) left out: `during`
    what, and the units whose fates are not listed."""
    timeout: float | None
    during: str
    units: list[str]
    memory_mib: int | None = None

    def to_json(self) -> dict:
        out = {"timeout": self.timeout, "while": self.during, "units": self.units}
        if self.memory_mib is not None:
            out["memory_mib"] = self.memory_mib
        return out


@dataclass
class Outcomes:
    """Every outcome of a position: each broken unit's fates (in rout
    order), and where they apply the whole phase, the immediate surrenders,
    the prisoners' options and the Voluntary Break (A10.41; with
    `voluntary_break_refused` the reasons none is offered). `stats` (the
    solver's figures) and `fate_info` (what the whole-phase program reads of
    each fate, for `asl-kb check`) are never in the JSON."""
    position: str
    rules: str
    complete: bool
    units: list[UnitFates]
    phase: WholePhase | None = None
    heat_of_battle: list[ImmediateSurrender] | None = None
    disrupted: list[ImmediateSurrender] | None = None
    prisoners: Prisoners | None = None
    voluntary_break: list[UnitFates] | None = None
    voluntary_break_refused: list[Because] | None = None
    incomplete_because: list[str] | None = None
    cut: Cut | None = None
    stats: Any = field(default=None, repr=False, compare=False)
    fate_info: dict = field(default_factory=dict, repr=False, compare=False)

    def to_json(self) -> dict:
        out: dict = {"position": self.position, "rules": self.rules, "complete": self.complete,
                     "units": [u.to_json() for u in self.units]}
        if self.phase is not None:
            out["phase"] = self.phase.to_json()
            if self.cut is not None:      # the enumeration was cut: said beside the phase
                out["cut"] = self.cut.to_json()
        for key in ("heat_of_battle", "disrupted"):
            section = getattr(self, key)
            if section is not None:
                out[key] = [u.to_json() for u in section]
        if self.prisoners is not None:
            out["prisoners"] = self.prisoners.to_json()
        if self.voluntary_break is not None:
            out["voluntary_break"] = [u.to_json() for u in self.voluntary_break]
        if self.voluntary_break_refused is not None:
            out["voluntary_break_refused"] = _lines(self.voluntary_break_refused)
        out.update(_given(self, "incomplete_because"))
        if self.cut is not None and self.phase is None:
            out["cut"] = self.cut.to_json()
        return out
