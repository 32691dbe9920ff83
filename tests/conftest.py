"""Shared helpers: run a position file and look at the fates of a unit;
the session's shared engine runs (tests/_runs.py)."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

import _runs
from asl_kb.position.loader import load_position, load_position_text

ROOT = Path(__file__).resolve().parent.parent
FACTS = ROOT / "facts"


class Result:
    def __init__(self, result):
        self.raw = result  # the model (asl_kb.model.Outcomes)
        self.json = result.to_json()  # its JSON form, read by the helpers below
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
        rejected = {f["captor"] for f in fates if f["fate"] == "eliminated" and f.get("cause") == "no_quarter"}
        return bool(taken) and taken == rejected and len(fates) == 2 * len(taken)

    def rout(self, unit, at, low_crawl=False):
        """The rout fates of unit ending in `at`."""
        return [f for f in self.fates(unit) if f["fate"] == "rout" and f["at"] == at and f["low_crawl"] == low_crawl]

    def phase(self):
        """The whole-phase outcomes as lists of turns (unit, fate, at, captor),
        in the order the units rout."""
        return [
            [(t["unit"], t["fate"], t["at"], t.get("captor")) for t in o["turns"]]
            for o in self.json["phase"]["outcomes"]
        ]

    def interdiction_sets(self, unit, at, low_crawl=False):
        return {tuple((i["at"], tuple(i["by"])) for i in f["interdiction"]) for f in self.rout(unit, at, low_crawl)}


@pytest.fixture
def run():
    def _run(path_or_text, phase=False, **replace):
        if isinstance(path_or_text, Path) or str(path_or_text).endswith(".yaml"):
            position = load_position(FACTS / path_or_text if not Path(path_or_text).is_absolute() else path_or_text)
        else:
            position = load_position_text(path_or_text, "<test>")
        if replace:
            from asl_kb import record

            position = record.replace(position, **replace)
        return Result(_runs.outcomes(position, phase=phase))

    return _run


#: --voluntary-break builds a rout graph for every unbroken unit near the
#: enemy: for the first four positions that takes half a minute a run; the
#: Rider of note5-rider, broken, has 6.7 MB of paths on open ground, and
#: article-Ex2's take 1.8 s a run (seconds to run, validate and compare, and
#: nothing the others do not cover)
SLOW_VB = {
    "A20.22-EX.yaml",
    "article-Ex9.yaml",
    "article-Ex10.yaml",
    "article-Ex11.yaml",
    "note5-rider.yaml",
    "article-Ex2.yaml",
}


def full_outcomes(path):
    """outcomes(--phase --limit 10, and --voluntary-break where it is quick)
    of a bundled position, computed once per test session (the stable-listing
    and the schema tests read the same result)."""
    return _runs.outcomes(load_position(path), phase=True, limit=10, voluntary_break=Path(path).name not in SLOW_VB)


# ------------------------------------------------------------ make test's sample

#: The bundled positions on which make test runs the checks made of every
#: bundled position (make test-slow runs the rest, and CI both): one or more
#: of each chapter and of what the rules treat apart -- the rulebook's
#: examples, concealment, Voluntary Break, a stack with its leader, Riders,
#: the odds, a vehicle's armament, Entrenchment, the whole phase, Disrupted
#: units, Guards, Melee and escape; each cheap to answer. The cases themselves (tests/rules/test_cases.py)
#: and the digests (tests/report/test_digests.py) run every position in make
#: test.
SAMPLE = {
    "rout/A10.5-EX.yaml",
    "rout/A10.531-EX.yaml",
    "rout/A10.533-EX1.yaml",
    "rout/A10.41-start-of-rtph.yaml",
    "rout/A20.21-stack-and-leader.yaml",
    "rout/note5-passengers-riders.yaml",
    # (the odds with a pin where it eliminates; A10.53-odds's 900 fates
    # with odds are make test-slow's, and tests/report's own tests')
    "rout/A10.53-odds-adjacent-pin.yaml",
    "rout/A10.532-aamg.yaml",
    "rout/B27.41-leaving-entrenchment.yaml",
    "phase/article-Ex6.yaml",
    "immediate/A19.12-entered.yaml",
    "prisoners/A20.5-insufficient-guard.yaml",
    "prisoners/article-Ex11-melee.yaml",
    "prisoners/A20.55-EX.yaml",
}


def sampled(paths, chapters: bool = False) -> list:
    """`paths` (bundled positions) for a parametrized test: those of SAMPLE
    (with `chapters`, its first of each chapter folder only) as they are,
    every other one marked slow (make test-slow)."""
    fast = sorted(SAMPLE)
    if chapters:
        fast = [next(s for s in fast if s.startswith(ch + "/")) for ch in sorted({s.split("/")[0] for s in fast})]
    return [
        p if f"{Path(p).parent.name}/{Path(p).name}" in fast else pytest.param(p, marks=pytest.mark.slow) for p in paths
    ]


# ------------------------------------------------------------ shared runs


@pytest.fixture(autouse=True)
def _shared_engine_runs(monkeypatch):
    """The library code that runs the engines -- the case runner, check, diff,
    why-not, the committee's compare and gaps -- gets the session's shared
    runs (tests/_runs.py: same answer, computed once), and the rout
    program's shared answers (_runs.solve). A test's own rules
    folder, a --timeout run and a traced run are always run."""
    import asl_kb.asp.workers
    import asl_kb.committee.gaps
    import asl_kb.engines.check
    import asl_kb.engines.diff
    import asl_kb.engines.outcomes
    import asl_kb.engines.prisoners

    for module in (asl_kb.engines.outcomes, asl_kb.engines.check, asl_kb.engines.diff):
        monkeypatch.setattr(module, "outcomes", _runs.outcomes)
    # below them, the rout program's answer for the same facts (outcomes with
    # and without --phase, the graph and the grounding-bound tests): outcomes()
    # solves its groups of units through asl_kb.asp.workers, answers_each()
    # directly
    monkeypatch.setattr(asl_kb.engines.outcomes, "solve", _runs.solve)
    monkeypatch.setattr(asl_kb.asp.workers, "solve", _runs.solve)
    # and the prisoners program's, for the same prisoner facts
    monkeypatch.setattr(asl_kb.engines.prisoners, "answer", _runs.prisoners_answer)
    for module in (asl_kb.engines.check, asl_kb.committee.gaps):
        monkeypatch.setattr(module, "check", _runs.check)


def pytest_configure(config):
    """The folder of the session's shared engine runs: made by the controller
    (or the single process), handed to each xdist worker. A position's facts
    (its geometry: reach, LOS) are built once per process, as in `make
    mutate`'s workers: many tests ask about the same position."""
    from asl_kb.asp.facts import remember_facts

    remember_facts()
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        _runs.DIR = Path(workerinput["asl_kb_runs"])
        return
    _runs.DIR = Path(tempfile.mkdtemp(prefix="asl-kb-runs-"))
    config.stash[_RUNS_DIR] = _runs.DIR
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_HandRunsToWorkers(_runs.DIR), "asl_kb_runs")


def pytest_unconfigure(config):
    folder = config.stash.get(_RUNS_DIR, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


_RUNS_DIR = pytest.StashKey()


class _HandRunsToWorkers:
    def __init__(self, folder):
        self.folder = folder

    def pytest_configure_node(self, node):
        node.workerinput["asl_kb_runs"] = str(self.folder)


# ------------------------------------------------------------ order

#: tests that take several seconds each (a browser, a Dask cluster, a search
#: over a scope, a diff over a folder of cases): collected first, so that the
#: xdist workers start on them and no worker is left finishing one alone
RUN_FIRST = (
    "tests/report/test_report_browser.py::test_every_bundled_page_loads",
    "tests/test_docs.py::test_doc_block[committee.md",
    "tests/committee/test_committee_search.py::test_deleted_clause_found",
    "tests/committee/test_committee_scan.py::test_two_children_and_two_dask_workers",
    "tests/committee/test_committee_relevance.py::test_a_position_the_switch_changes",
    "tests/committee/test_committee_diff.py::test_a_switch_change_in_a_folder",
    # (the same diffs as the one above: next to it, in the same worker, its
    # runs are shared)
    "tests/committee/test_committee_diff.py::test_same_report_whatever_the_order",
    "tests/engines/test_diff.py::test_stack_rejection",
    "tests/report/test_output_schema.py::test_outcomes_json_validates[rout/note5-rider.yaml]",
    "tests/cli/test_installed.py",
)


#: node ids (or prefixes) make test leaves to make test-slow: tests/data/slow-tests.txt
SLOW_TESTS = tuple(
    line
    for line in (ROOT / "tests" / "data" / "slow-tests.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
)


@pytest.hookimpl(tryfirst=True)  # before -m "not slow" deselects
def pytest_collection_modifyitems(config, items):
    """The tests of tests/data/slow-tests.txt marked slow; the heavy ones
    first (RUN_FIRST). A line that names no test fails a whole run."""
    used = set()
    for item in items:
        hit = next((s for s in SLOW_TESTS if item.nodeid == s or item.nodeid.startswith(s + "[")), None)
        if hit:
            item.add_marker(pytest.mark.slow)
            used.add(hit)
    unused = sorted(set(SLOW_TESTS) - used)
    if unused and len(items) > 1000:  # (the whole suite collected)
        raise pytest.UsageError("tests/data/slow-tests.txt names no test: " + ", ".join(unused))

    def rank(item):
        for n, prefix in enumerate(RUN_FIRST):
            if item.nodeid.startswith(prefix):
                return n
        return len(RUN_FIRST)

    items.sort(key=rank)  # stable: the rest keep their order


# ------------------------------------------------------------ the browser


def _no_browser() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    from asl_kb.report import png

    if png.chromium_path() is None:
        return "no Chromium (apt-get install chromium)"
    return None


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium through Playwright (never a downloaded
    browser), for the report's and the web app's pages: skipped when it is
    missing, a failure under CI (CI=true)."""
    reason = _no_browser()
    if reason:
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail(f"browser tests cannot run under CI: {reason}")
        pytest.skip(reason)
    from asl_kb.report import png

    with png.sync_playwright() as p:
        b = png.launch(p)
        yield b
        b.close()
