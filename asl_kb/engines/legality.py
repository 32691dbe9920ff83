"""Rules the position itself breaks (rules/position.lp): a prisoner away from
its Guard, Close Combat across Locations, ... The rules name each broken
clause (violated/2) and the input fact at fault (offending/2); here that fact
is traced back to the file, line and key it came from.

`asl-kb check` lists them; `outcomes()` refuses such a position with a
PositionRuleError (the CLI: exit 2, like any bad input).
"""
from __future__ import annotations

from asl_kb.asp.control import new_control
from asl_kb.asp.reader import text
from asl_kb.asp.facts import FactBuilder
from asl_kb.errors import PositionError
from asl_kb.record import FrozenRecord, record


@record(frozen=True)
class Violation(FrozenRecord):
    """A rule the position breaks, with where in the file (rules/position.lp)."""
    rule: str           # the rule number, e.g. "A20.5"
    clause: str         # the clause broken, e.g. "prisoner_away_from_guard(R1, G1)"
    says: str           # the clause in words
    line: int | None    # where the offending input is, when the loader knows it
    key: str | None


class PositionRuleError(PositionError):
    """The position breaks a rule (the first violation; all are in `violations`)."""

    def __init__(self, file: str, violations: list[Violation]):
        self.violations = violations
        v = violations[0]
        more = f" (and {len(violations) - 1} more: asl-kb check lists them)" if len(violations) > 1 else ""
        super().__init__(file, v.line, v.key, f"breaks {v.rule}: {v.says}{more}")

    def __reduce__(self):
        return (type(self), (self.file, self.violations))


def _where(position, fact) -> tuple[int | None, str | None]:
    """The line and key of the input an offending fact came from."""
    if fact.name == "guard_of":
        pid, gid = fact.arguments[0].string, fact.arguments[1].string
        for i, u in enumerate(position.units):
            if u.id == gid and pid in u.guarding:     # written on the Guard
                return u.line, f"units[{i}].guarding[{u.guarding.index(pid)}]"
        for i, u in enumerate(position.units):
            if u.id == pid:
                return u.line, f"units[{i}].guard"
    if fact.name == "status":
        uid, status = fact.arguments[0].string, fact.arguments[1].name
        for i, u in enumerate(position.units):
            if u.id == uid and status in u.status:
                return u.line, f"units[{i}].status[{u.status.index(status)}]"
    if fact.name == "rides":     # rides(U,V): U is passenger_of or rider_of V
        uid = fact.arguments[0].string
        for i, u in enumerate(position.units):
            if u.id == uid:
                return u.line, f"units[{i}].{'passenger_of' if u.passenger_of is not None else 'rider_of'}"
    if fact.name == "cc":
        i = fact.arguments[0].number
        return position.close_combat[i].line, f"close_combat[{i}]"
    return None, None


def violations(position) -> list[Violation]:
    """Every clause the position breaks, in a stable order."""
    fb = FactBuilder(position)
    fb.header()
    fb.units()
    ctl = new_control("position.lp", "\n".join(fb.lines) + "\n")
    ctl.ground([("base", [])])
    shown: list = []
    ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)))
    says = {s.arguments[0].name: s.arguments[1].string for s in shown if s.name == "says"}
    at = {s.arguments[0]: s.arguments[1] for s in shown if s.name == "offending"}
    out = []
    for s in shown:
        if s.name != "violated":
            continue
        rule, clause = s.arguments[0].string, s.arguments[1]
        tpl = says.get(clause.name)
        words = tpl.format(*[text(a) for a in clause.arguments]) if tpl else text(clause)
        line, key = _where(position, at[clause]) if clause in at else (None, None)
        out.append(Violation(rule, text(clause), words, line, key))
    return sorted(out, key=lambda v: (v.line or 0, v.key or "", v.rule, v.clause))


def require_legal(position) -> None:
    """Raise PositionRuleError if the position breaks a rule."""
    found = violations(position)
    if found:
        raise PositionRuleError(position.file, found)
