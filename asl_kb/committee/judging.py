"""What judging positions under two rule sets works out once per process,
not once per position.

A search judges thousands of positions under the same two rule sets. Two
of the small programs each judge ran anew per position answer the same for
most of them, because they read little of a position:

* the switches in force (switches.lp: engines/diff.py switches_in_force)
  read only the position's rule version and switches -- a handful of
  different headers in a whole search;
* the position's legality (position.lp: engines/legality.py) is asked of
  the position under both rule sets, which differ only in the version and
  switches -- facts position.lp does not read unless a rules folder makes it.

Each answer is kept per rules folder, keyed by the parsed program's
identity (asl_kb/asp/control.py parsed_statements: a new one whenever a
file it reads changes) and the facts the program reads. The plain path
(engines/diff.py, engines/legality.py) gives the same answers:
tests/committee/test_committee_judging.py compares them.
"""

from __future__ import annotations

import re

from asl_kb import process
from asl_kb.asp import control
from asl_kb.asp.facts import FactBuilder, switch_facts

#: rules folders whose answers are kept (a search compares two; a folder's
#: edits undone one at a time make a few more)
KEPT = 16

#: what is kept, by program (_kept): it holds clingo.ast statements, let go
#: before the interpreter's teardown (control.release_at_exit)
PROGRAMS = "committee.judging programs"
control.release_at_exit(lambda: process.kept(PROGRAMS).clear())

#: the facts a version and switches are written as (asl_kb/asp/facts.py switch_facts)
_SWITCH_FACT = re.compile(r"\b(version|erratum_switch|reading_switch|in_force)\(")


def _kept(entry: str) -> dict:
    """What is kept for the active rules folder's `entry` program: by the
    parsed statements' id (a program changed on disk is parsed again:
    another list), with the statements themselves."""
    statements = control.parsed_statements(control.active_rules() / entry)
    programs = process.kept(PROGRAMS)
    hit = programs.get(id(statements))
    if hit is None or hit[0] is not statements:
        reads_switches = any(_SWITCH_FACT.search(str(s)) for s in statements)
        hit = programs[id(statements)] = (statements, {"reads_switches": reads_switches})
        if len(programs) > KEPT:
            del programs[next(iter(programs))]
    return hit[1]


def switches_in_force(position) -> dict[str, str]:
    """engines/diff.py switches_in_force, once per rule version and switches."""
    from asl_kb.engines.diff import switches_in_force as plain

    kept = _kept("switches.lp")
    key = ("in_force", *switch_facts(position))
    got = kept.get(key)
    if got is None:
        got = kept[key] = plain(position)
    return dict(got)


def require_legal(position) -> None:
    """engines/legality.py require_legal (PositionRuleError where the
    position breaks a rule), once per position as position.lp reads it:
    without its version and switches unless the program reads them."""
    from asl_kb.engines import legality

    kept = _kept("position.lp")
    fb = FactBuilder(position)
    fb.header()
    fb.units()
    fb.occupied()
    lines = fb.lines
    if not kept["reads_switches"]:
        switches = set(switch_facts(position))
        lines = [x for x in lines if x not in switches]
    key = ("legal", "\n".join(lines))
    if key not in kept:
        legality.require_legal(position)  # (raises for a position that breaks a rule: not kept)
        kept[key] = True
