"""Rules the position itself breaks (rules/position.lp): a prisoner away from
its Guard, Close Combat across Locations, ... The rules name each broken
clause (violated/2) and the input fact at fault (offending/2); here that fact
is traced back to the file, line and key it came from.

`asl-kb check` lists them; `outcomes()` refuses such a position with a
PositionRuleError (the CLI: exit 2, like any bad input).
"""

from __future__ import annotations

from asl_kb.asp import contract, control
from asl_kb.asp.control import new_control
from asl_kb.asp.reader import text
from asl_kb.asp.facts import FactBuilder
from asl_kb.errors import PositionError
from asl_kb.record import FrozenRecord, record


@record(frozen=True)
class Violation(FrozenRecord):
    """A rule the position breaks, with where in the file (rules/position.lp)."""

    rule: str  # the rule number, e.g. "A20.5"
    clause: str  # the clause broken, e.g. "prisoner_away_from_guard(R1, G1)"
    says: str  # the clause in words
    line: int | None  # where the offending input is, when the loader knows it
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
    where = _WHERE.get(fact.name)
    return where(position, fact) if where is not None else (None, None)


def _guard_of(position, fact) -> tuple[int | None, str | None]:
    pid, gid = fact.arguments[0].string, fact.arguments[1].string
    for i, u in enumerate(position.units):
        if u.id == gid and pid in u.guarding:  # written on the Guard
            return u.line, f"units[{i}].guarding[{u.guarding.index(pid)}]"
    for i, u in enumerate(position.units):
        if u.id == pid:
            return u.line, f"units[{i}].guard"
    return None, None


def _status(position, fact) -> tuple[int | None, str | None]:
    uid, status = fact.arguments[0].string, fact.arguments[1].name
    for i, u in enumerate(position.units):
        if u.id == uid and status in u.status:
            return u.line, f"units[{i}].status[{u.status.index(status)}]"
    return None, None


def _rides(position, fact) -> tuple[int | None, str | None]:
    """rides(U,V): U is passenger_of or rider_of V."""
    u = next((u for u in position.units if u.id == fact.arguments[0].string), None)
    return _unit_key(position, fact, "passenger_of" if u is not None and u.passenger_of is not None else "rider_of")


def _entrenched(position, fact) -> tuple[int | None, str | None]:
    return _unit_key(position, fact, "entrenched")


def _unit_key(position, fact, key: str) -> tuple[int | None, str | None]:
    """The line and `key` of the unit the fact's first argument names."""
    uid = fact.arguments[0].string
    for i, u in enumerate(position.units):
        if u.id == uid:
            return u.line, f"units[{i}].{key}"
    return None, None


def _cc(position, fact) -> tuple[int | None, str | None]:
    i = fact.arguments[0].number
    return position.close_combat[i].line, f"close_combat[{i}]"


#: an offending fact's name -> where in the input it came from
_WHERE = {"guard_of": _guard_of, "status": _status, "rides": _rides, "entrenched": _entrenched, "cc": _cc}


def violations(position) -> list[Violation]:
    """Every clause the position breaks, in a stable order."""
    fb = FactBuilder(position)
    fb.header()
    fb.units()
    fb.occupied()
    ctl = new_control("position.lp", "\n".join(fb.lines) + "\n")
    ctl.ground([("base", [])])
    shown: list = []
    if not ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True))).satisfiable:
        raise control.no_answer_set("position.lp")
    contract.check(shown)
    says = {s.arguments[0].name: s.arguments[1].string for s in shown if s.name == "says"}
    at = {s.arguments[0]: s.arguments[1] for s in shown if s.name == "offending"}
    out = []
    for s in shown:
        if s.name != "violated":
            continue
        rule, clause = s.arguments[0].string, s.arguments[1]
        tpl = says.get(clause.name)
        words = contract.fill(tpl, clause, *[text(a) for a in clause.arguments]) if tpl else text(clause)
        line, key = _where(position, at[clause]) if clause in at else (None, None)
        out.append(Violation(rule, text(clause), words, line, key))
    return sorted(out, key=lambda v: (v.line or 0, v.key or "", v.rule, v.clause))


def prisoner_violations(position, prisoners) -> list[Violation]:
    """The clauses of the prisoners program (rules/prisoners.lp) the position
    breaks (a Guard over capacity or not armed Personnel, an Unarmed unit
    attacking an AFV), each with the rule's words and the line of the unit
    (or Close Combat attack) it names. The rules decide; this only finds
    the line."""
    if prisoners is None:
        return []
    index = {u.id: i for i, u in enumerate(position.units)}
    out = []
    for v in prisoners.violated:
        line, key = None, None
        for name, value in v.clause.args:
            if isinstance(value, str) and value in index:
                i = index[value]
                line, key = position.units[i].line, f"units[{i}]"
                break
            if name == "attack" and isinstance(value, int) and 0 <= value < len(position.close_combat):
                line, key = position.close_combat[value].line, f"close_combat[{value}]"
        out.append(Violation(v.rule, v.text, v.clause.says, line, key))
    return sorted(out, key=lambda v: (v.line or 0, v.key or "", v.rule, v.clause))


def require_legal(position) -> None:
    """Raise PositionRuleError if the position breaks a rule."""
    found = violations(position)
    if found:
        raise PositionRuleError(position.file, found)


def refuse_broken(position, prisoners=None) -> None:
    """Raise PositionRuleError if the position breaks a rule of
    rules/core/position_checks.lp or of the prisoners program (`prisoners`:
    its result when the caller has it, else it is run here): what every
    subcommand but `check` does with such a position (docs/output-format.md)."""
    require_legal(position)
    refuse_prisoners(position, prisoners)


def refuse_prisoners(position, prisoners=None) -> None:
    """refuse_broken() but for rules/core/position_checks.lp: for a position
    that outcomes() has checked against those already (it refuses itself a
    position that breaks one)."""
    if prisoners is None and position.involves_prisoners():
        from asl_kb.engines import prisoners as program

        prisoners = program.solve_prisoners(position)
    found = prisoner_violations(position, prisoners)
    if found:
        raise PositionRuleError(position.file, found)
