"""asl-kb check: a position the rules leave without a legal outcome, or in
which they are broken, with the clauses in conflict named (the rules
committee's job).

* a broken unit with no legal fate in the Rout Phase (the rules as encoded
  leave it nothing to do), with why it must rout;
* no whole-phase outcome: the phase program with its constraints made soft
  (rules/check.lp) finds the combinations breaking the fewest
  constraints — each of them a minimal set of clauses in conflict;
* the position itself breaks a rule (rules/position.lp: a prisoner away from
  its Guard, Close Combat across Locations, ...): these are reported alone,
  as the rules give such a position no outcome;
* the position itself breaks a rule of the prisoners program (a Guard over
  capacity, a Guard that may not guard, an Unarmed unit attacking an AFV).
"""
from __future__ import annotations

from asl_kb.budget import TimedOut
from asl_kb.engines.legality import prisoner_violations, violations
from asl_kb.engines.outcomes import outcomes
from asl_kb.engines.phase import Phase
from asl_kb.asp.control import new_control
from asl_kb.asp.reader import Answer


def _phase_conflicts(position, result) -> list[dict]:
    ph = Phase(position, result.units, None, info=result.fate_info)
    if not ph.coupled:
        return []
    ctl = new_control("check.lp", ph.facts(), ("--opt-mode=optN", "0"))
    ctl.ground([("base", [])])
    sets = set()

    def on_model(m):
        if m.optimality_proven:
            sets.add(tuple(sorted((rule, str(clause)) for rule, clause in Answer(m.symbols(shown=True)).violated)))
    ctl.solve(on_model=on_model)
    return [{"clauses": [{"rule": r, "violated": v} for r, v in c]} for c in sorted(sets) if c]


def check(position) -> dict:
    broken = violations(position)
    where = lambda v: f"{position.file}:{v.line}: {v.key}" if v.line is not None else position.file  # noqa: E731
    if broken:
        return {"position": position.name, "rules": position.rules, "consistent": False,
                "findings": [{"kind": "position_breaks_rule",
                              "clauses": [{"rule": v.rule, "violated": v.clause, "says": v.says, "at": where(v)}]}
                             for v in broken]}
    result = outcomes(position)
    if result.cut is not None:
        # cut by --timeout / --max-memory: no finding can be trusted
        if result.cut.timeout is None:      # (a cut by the clock names its timeout)
            raise MemoryError
        raise TimedOut(result.cut.during)
    findings = []
    for u in result.units:
        if u.inconsistent:
            findings.append({"kind": "no_legal_outcome", "unit": u.id, "because": [b.to_json() for b in u.because]})
    for c in _phase_conflicts(position, result):
        findings.append({"kind": "no_whole_phase_outcome", **c})
    for v in prisoner_violations(position, result.prisoners):
        findings.append({"kind": "position_breaks_rule",
                         "clauses": [{"rule": v.rule, "violated": v.clause, "says": v.says, "at": where(v)}]})
    return {"position": position.name, "rules": position.rules, "consistent": not findings, "findings": findings}
