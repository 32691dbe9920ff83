"""Every outcome of a position (asl-kb outcomes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from asl_kb.model.common import Because, set_fields, because_lines
from asl_kb.model.rout import UnitFates
from asl_kb.record import Record, field, record

if TYPE_CHECKING:  # (a run imports them only when it builds them: asl_kb/model/__init__.py)
    from asl_kb.model.immediate import ImmediateSurrender
    from asl_kb.model.phase import WholePhase
    from asl_kb.model.prisoners import Prisoners


@record
class Cut(Record):
    """What a run stopped by --timeout (or --max-memory) left out: `during`
    what, the units whose fates are not listed (not reached), and those
    whose fates are (`done`: read in full before the cut)."""

    timeout: float | None
    during: str
    units: list[str]
    memory_mib: int | None = None
    done: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        out = {"timeout": self.timeout, "while": self.during, "units": self.units, "done": self.done}
        if self.memory_mib is not None:
            out["memory_mib"] = self.memory_mib
        return out


@record
class Outcomes(Record):
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
        out: dict = {
            "position": self.position,
            "rules": self.rules,
            "complete": self.complete,
            "units": [u.to_json() for u in self.units],
        }
        if self.phase is not None:
            out["phase"] = self.phase.to_json()
            if self.cut is not None:  # the enumeration was cut: said beside the phase
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
            out["voluntary_break_refused"] = because_lines(self.voluntary_break_refused)
        out.update(set_fields(self, "incomplete_because"))
        if self.cut is not None and self.phase is None:
            out["cut"] = self.cut.to_json()
        return out
