"""Shared helpers: run a position file and look at the fates of a unit."""
from pathlib import Path

import pytest

from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position, load_position_text

ROOT = Path(__file__).resolve().parent.parent
FACTS = ROOT / "cases"


class Result:
    def __init__(self, result):
        self.raw = result                 # the model (asl_kb.model.Outcomes)
        self.json = result.to_json()      # its JSON form, read by the helpers below
        self.units = {u["id"]: u for u in self.json["units"]}

    def fates(self, unit):
        return self.units[unit]["fates"]

    def routs(self, unit):
        """Final Locations of the rout fates (any path, any Interdiction)."""
        return {f["at"] for f in self.fates(unit) if f["fate"] == "rout"}

    def kinds(self, unit):
        return {f["fate"] for f in self.fates(unit)}

    def captors(self, unit):
        return {f["captor"] for f in self.fates(unit) if f["fate"] == "surrender"}

    def surrenders_only(self, unit):
        """Every fate is a surrender, or that surrender rejected (A20.3: the
        captor may eliminate it instead, invoking No Quarter)."""
        fates = self.fates(unit)
        taken = {f["captor"] for f in fates if f["fate"] == "surrender"}
        rejected = {f["captor"] for f in fates
                    if f["fate"] == "eliminated" and f.get("cause") == "no_quarter"}
        return bool(taken) and taken == rejected and len(fates) == 2 * len(taken)

    def rout(self, unit, at, low_crawl=False):
        """The rout fates of unit ending in `at`."""
        return [f for f in self.fates(unit)
                if f["fate"] == "rout" and f["at"] == at and f["low_crawl"] == low_crawl]

    def phase(self):
        """The whole-phase outcomes as lists of turns (unit, fate, at, captor),
        in the order the units rout."""
        return [[(t["unit"], t["fate"], t["at"], t.get("captor")) for t in o["turns"]]
                for o in self.json["phase"]["outcomes"]]

    def interdiction_sets(self, unit, at, low_crawl=False):
        return {tuple((i["at"], tuple(i["by"])) for i in f["interdiction"])
                for f in self.rout(unit, at, low_crawl)}


@pytest.fixture
def run():
    def _run(path_or_text, phase=False, **replace):
        if isinstance(path_or_text, Path) or str(path_or_text).endswith(".yaml"):
            position = load_position(FACTS / path_or_text if not Path(path_or_text).is_absolute() else path_or_text)
        else:
            position = load_position_text(path_or_text, "<test>")
        if replace:
            import dataclasses
            position = dataclasses.replace(position, **replace)
        return Result(outcomes(position, phase=phase))
    return _run


#: --voluntary-break builds a rout graph for every unbroken unit near the
#: enemy: for these four positions that takes half a minute a run
SLOW_VB = {"A20.22-EX.yaml", "article-Ex9.yaml", "article-Ex10.yaml", "article-Ex11.yaml"}
_FULL = {}


def full_outcomes(path):
    """outcomes(--phase --limit 10, and --voluntary-break where it is quick)
    of a bundled position, computed once per test session (the stable-listing
    and the schema tests read the same result)."""
    if path not in _FULL:
        _FULL[path] = outcomes(load_position(path), phase=True, limit=10,
                               voluntary_break=Path(path).name not in SLOW_VB)
    return _FULL[path]
