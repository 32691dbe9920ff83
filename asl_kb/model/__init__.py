"""The result model every renderer uses (docs/contract.md).

The reader (asl_kb/asp/reader.py) turns any program's answer set into these
objects; text, JSON and HTML render them. Each class has `to_json()`, the
object as the JSON output shows it (a dict in a fixed key order), and the
attributes the text renderer (asl_kb/report/text.py) reads.

Shared (common.py; `Term` and `Violation` below):
* `Because`  one line of explanation: a rule id and the rules' words for it
  (from because/3 and says/2).

The rout program (rout.py; asl_kb/engines/graph.py, outcomes.py):
* `Fate`     one legal fate of a broken unit: rout, stay, surrender, freed
  or eliminated, where it ends, its path, Low Crawl, the `Interdiction`
  Locations on the way, the captor and Guard (and the `AbandonedSW`), the
  cause of an elimination, and why;
* `UnitFates` a broken unit (or one that might break voluntarily) with why
  it must, may or may not rout, its fates and their `FateSummary` (per
  `Destination`, the `UnbeatenRoute`s: report/summary.py);
* `ImmediateSurrender` (immediate.py) a unit a Heat of Battle (A15.5) or Disrupted
  (A19.12) surrender may take, with its `ImmediateFate`s.

The whole-phase program (phase.py; asl_kb/engines/phase.py):
* `WholePhase` the count of the whole-phase outcomes, the `IndependentUnit`s,
  the leaders' `VoluntaryRout`s and the `PhaseOutcome`s listed, each a list of
  `Turn`s in rout order.

The prisoners program (prisoners.py; asl_kb/engines/prisoners.py;
`Term` and `Violation` in common.py, as every program's results use them):
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

All of a position's outcomes (`asl-kb outcomes`, outcomes.py): `Outcomes`, with the
`Cut` of a run stopped by --timeout.

Each group lives in its own module (common, rout, immediate, phase,
prisoners, outcomes); the classes every run builds are imported here, the
others from their module where a run needs them (a rulebook position's run
imports neither the prisoners' nor the whole phase's classes).
"""

from asl_kb.model.common import Because, Term, Violation
from asl_kb.model.outcomes import Cut, Outcomes
from asl_kb.model.rout import AbandonedSW, Destination, Fate, FateSummary, Interdiction, UnbeatenRoute, UnitFates

__all__ = [
    "AbandonedSW",
    "Because",
    "Cut",
    "Destination",
    "Fate",
    "FateSummary",
    "Interdiction",
    "Outcomes",
    "Term",
    "UnbeatenRoute",
    "UnitFates",
    "Violation",
]
