"""asl-kb check: a position the rules leave without a legal outcome, or in
which they are broken, with the clauses in conflict named (the rules
committee's job).

* a broken unit with no legal fate in the Rout Phase (the rules as encoded
  leave it nothing to do), with why it must rout;
* no whole-phase outcome: a minimal set of the phase program's constraints
  that cannot hold together (engines/cores.py, every constraint, named or
  not, with its file and line), and the combinations breaking the fewest
  constraints (rules/check.lp, the constraints made soft) -- each a minimum
  set of clauses to give up;
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
from asl_kb.engines.cores import constraints, minimal_core


def _phase_conflicts(position, result) -> list[dict]:
    """No whole-phase outcome: a minimal set of the phase program's
    constraints that cannot hold together (engines/cores.py: every
    constraint, named or not), and the smallest sets of violated clauses
    whose breaking gives an outcome (rules/check.lp, --opt-mode=optN: the
    minimum correction sets; a plain `:- ...` constraint stays hard there)."""
    ph = Phase(position, result.units, None, info=result.fate_info)
    if not ph.coupled:
        return []
    facts = ph.facts()
    # (check.lp first, whatever the answer: the program it loads is the
    # one the tests read for clingo's warnings)
    ctl = new_control("check.lp", facts, ("--opt-mode=optN", "0"))
    ctl.ground([("base", [])])
    sets = set()

    def on_model(m):
        if m.optimality_proven:
            named = {(rule, str(clause)) for rule, clause in Answer(m.symbols(shown=True)).violated}
            # a violated/1 kind check.lp does not name (a rules folder's new
            # constraint) takes part all the same, its rule read below
            known = {c for _, c in named}
            named |= {
                ("", str(s.arguments[0]))
                for s in m.symbols(atoms=True)
                if s.name == "violated" and len(s.arguments) == 1 and str(s.arguments[0]) not in known
            }
            sets.add(tuple(sorted(named)))

    ctl.solve(on_model=on_model)
    core = minimal_core("phase.lp", facts)
    if core is None:
        return []
    # a kind check.lp does not name: the rule of the clause deriving it
    named = {
        c["clause"].split("(", 2)[1]: c["rule"] for c in constraints("phase.lp") if c["clause"].startswith("violated(")
    }
    corrections = [
        [{"rule": r or named.get(v.split("(", 1)[0], ""), "violated": v} for r, v in c] for c in sorted(sets) if c
    ]
    return [
        {
            "clauses": [{"rule": c["rule"], "violated": c["clause"], "at": f"{c['file']}:{c['line']}"} for c in core],
            "corrections": corrections,
        }
    ]


def check(position) -> dict:
    broken = violations(position)
    where = lambda v: f"{position.file}:{v.line}: {v.key}" if v.line is not None else position.file  # noqa: E731
    if broken:
        return {
            "position": position.name,
            "rules": position.rules,
            "consistent": False,
            "findings": [
                {
                    "kind": "position_breaks_rule",
                    "clauses": [{"rule": v.rule, "violated": v.clause, "says": v.says, "at": where(v)}],
                }
                for v in broken
            ],
        }
    result = outcomes(position)
    if result.cut is not None:
        # cut by --timeout / --max-memory: no finding can be trusted
        if result.cut.timeout is None:  # (a cut by the clock names its timeout)
            raise MemoryError
        raise TimedOut(result.cut.during)
    findings = []
    for u in result.units:
        if u.inconsistent:
            findings.append({"kind": "no_legal_outcome", "unit": u.id, "because": [b.to_json() for b in u.because]})
    for c in _phase_conflicts(position, result):
        findings.append({"kind": "no_whole_phase_outcome", **c})
    for v in prisoner_violations(position, result.prisoners):
        findings.append(
            {
                "kind": "position_breaks_rule",
                "clauses": [{"rule": v.rule, "violated": v.clause, "says": v.says, "at": where(v)}],
            }
        )
    return {"position": position.name, "rules": position.rules, "consistent": not findings, "findings": findings}
