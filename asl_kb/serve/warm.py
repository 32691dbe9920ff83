"""One small answer figured in the server before the first request
(asl_kb/serve/work.py, Runner.warm), so that every child forked from it
finds the rules parsed and the report's template compiled (a cold child
spends more on them than on a small position's answer)."""

from __future__ import annotations

from asl_kb.serve import answers

_TEXT = """name: warm-up
attacker: russian
map: {area: [A1, E5], terrain: {C3: woods}}
units:
  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: D4, status: [broken]}
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: E1}
"""


def up(rules=None) -> None:
    """Answer the warm-up position, as a request would, under the rule set
    --rules names (a failure leaves the children cold, not wrong)."""
    try:
        answers.outcomes(_TEXT, "warm-up.yaml", False, 30.0, 1024, rules)
        answers.why_not(_TEXT, "warm-up.yaml", "R1", ["rout", "C3"], rules)
    except Exception:
        pass
