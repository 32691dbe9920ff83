"""What the server loads before its first request, so that every answer's
child forked from it finds it loaded (asl_kb/serve/work.py, Runner.preload):
the rules parsed, the report's template compiled -- by answering one small
position, as a request would (a child that had to load them would spend
more on them than on a small position's answer)."""

from __future__ import annotations

from asl_kb.serve import answers

_TEXT = """name: preload
attacker: russian
map: {area: [A1, E5], terrain: {C3: woods}}
units:
  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: D4, status: [broken]}
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: E1}
"""


def rules_and_page(rules=None) -> None:
    """Answer the small position and a Why not? of it under the rule set
    --rules names (a failure leaves the children to load them, not wrong)."""
    try:
        answers.outcomes(text=_TEXT, filename="preload.yaml", phase=False, timeout=30.0, max_memory=1024, rules=rules)
        answers.why_not(_TEXT, "preload.yaml", "R1", ["rout", "C3"], rules)
    except Exception:
        pass
