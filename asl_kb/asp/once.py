"""Several variants of a position's facts grounded once.

The committee judges a position under two rule sets that differ in a few
facts (the rule version, a switch). The facts common to both are facts;
those of one only are `#external` atoms, set true or false for each variant
before it is solved: assigned true an external is a fact, false it is
absent, so each solve answers as the program with that variant's facts
alone -- the grounding, with the externals left open, holds every
variant's. About half the time of two runs: the atoms no differing fact
reaches are grounded once.

Left open, a differing fact keeps what it reaches from grounding to facts.
In the rout program's stages (asp/solve.py) the grounder then takes the
moves of either variant from the states of either, and where the variants'
rout graphs part early and the stages are many, paths neither variant has
grow with each stage: a broken squad ADJACENT to a 9-1 leader with a
concealed squad beside them, under unconcealed_interdictor, holds 210,000
atoms in one run and 6,000 in the other, and 324,000 at the fifth of its
nine stages grounded once, then 1.7 million (1.1 GB) at the sixth. So the
stages are watched (Watched): a grounding whose stages grow as mixed paths
do, or expected to pass ATOMS at its next stage, is given up before it,
and the variants run apart -- the same
answers (tests/committee/test_committee_judging_once.py holds this path to
the plain one on every position of a scope under every switch the rout
program reads).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import clingo

from asl_kb.asp.control import new_control
from asl_kb.asp.solve import Stages, ground_stages

#: the atoms a grounding of several variants may hold: a committee
#: position's two runs hold some hundred thousand together (a position
#: whose runs are larger is run apart after the first stages)
ATOMS = 1_000_000


class Outgrown(Exception):
    """A grounding of several variants given up: its next stage was expected
    to take it past ATOMS (run each variant on its own)."""


#: a stage growing the grounding by more than this many times what the one
#: before grew it, and by more than SURGE_ATOMS, is mixed paths multiplying
SURGE = 4
SURGE_ATOMS = 20_000


class Watched(Stages):
    """The stage loop, given up (Outgrown) before its next stage where paths
    of mixed variants multiply: one variant's rout graph grows by its
    frontier, each stage by about as much as the one before or less (every
    plain run of the shipped scopes: at most 3.3 times, and less from the
    third stage on), mixed paths by more each stage (4.5 to 6 times, 45,000
    atoms and more, at the fourth stage of the position above) -- or where
    the next stage, growing as the last did times its growth over the one
    before, is expected to take the grounding past `atoms`."""

    def __init__(self, atoms: int = ATOMS):
        self.atoms = atoms
        self.sizes: list[int] = []

    def parts(self, ctl, stage: int) -> list:
        self.sizes.append(len(ctl.symbolic_atoms))
        s = self.sizes
        if len(s) >= 3:
            last, before = s[-1] - s[-2], max(s[-2] - s[-3], 1)
            surge = last > SURGE * before and last > SURGE_ATOMS
            if surge or s[-1] + last * max(1.0, last / before) > self.atoms:
                raise Outgrown(f"stage {stage}: {s[-1]:,} atoms, the last stage {last:,} after {before:,}")
        return super().parts(ctl, stage)


def solve_each(
    variants: list[str], concealed: int = 0, entry: str = "rout.lp", staged: bool = True
) -> list[Sequence[clingo.Symbol]] | None:
    """The shown atoms of the program's answer set for each of several fact
    texts that differ in a few facts (a switch, the rule version), grounded
    once (the module's docstring). Returns the atoms of every answer set,
    as prisoners.answer() reads them; None when a differing line is not a
    plain fact, or the stages outgrew ATOMS (solve each on its own)."""
    lines = [v.splitlines() for v in variants]
    common = set(lines[0]).intersection(*lines[1:])
    differing = sorted(set().union(*lines) - common)
    terms = [_fact(x) for x in differing]
    if None in terms:
        return None
    text = "\n".join(x for x in lines[0] if x in common) + "\n" + "".join(f"#external {x}\n" for x in differing)
    ctl = new_control(entry, text)
    if staged:
        try:
            ground_stages(ctl, concealed, stages=Watched())
        except Outgrown:
            return None
    else:
        ctl.ground([("base", [])])
    out: list[Sequence[clingo.Symbol]] = []
    for variant in lines:
        have = set(variant)
        # (no term is None: returned above)
        for line, term in zip(differing, cast("list[clingo.Symbol]", terms)):
            ctl.assign_external(term, line in have)
        shown: list[clingo.Symbol] = []
        ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)))
        out.append(shown)
    return out


def _fact(line: str) -> clingo.Symbol | None:
    """The atom of a fact line as asl_kb/asp/facts.py writes it ("p(a,1)."),
    or None for anything else."""
    if not line.endswith(".") or ":-" in line:
        return None
    try:
        sym = clingo.parse_term(line[:-1])
    except RuntimeError:
        return None
    return sym if sym.type == clingo.SymbolType.Function and sym.name else None
