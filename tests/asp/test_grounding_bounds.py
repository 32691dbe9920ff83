"""The rout graph grounds the A10.51 step restrictions only around the
Locations a step may still leave (plan_from/3: the MF left less least_step/1)
and the way back to a destination only as far as the MF left after the next
step (back_left/4). Those bounds are grounding scope, not rules: with them
removed, every position must answer the same. A bound one step too tight
would drop a legal step, and no mutant of `make mutate` (deleting a clause,
negating a literal) tells it."""

import shutil
import sys
from pathlib import Path

import pytest

from asl_kb.asp.control import using_rules
from asl_kb.engines.outcomes import answers
from asl_kb.position.loader import load_position, load_position_text
from asl_kb.resources import cases_dir, rules_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from generate import generate_open, generate_position, generate_stack  # noqa: E402
from conftest import SAMPLE  # noqa: E402

#: (file, the bounded text, the same without the bound)
UNBOUNDED = [
    ("rout/A10_51_direction.lp", "(|X1-X0| + |Y1-Y0| + |Z1-Z0|) / 2 * Least + Least <= Mx - S.", "Least = Least."),
    ("rout/A10_5_routing.lp", "back_left(t,K,D,Mx-S0-Least) :-", "back_left(t,K,D,Mx) :-"),
]


@pytest.fixture(scope="module")
def unbounded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rules") / "rules"
    shutil.copytree(rules_dir(), folder)
    for name, bounded, free in UNBOUNDED:
        path = folder / name
        text = path.read_text(encoding="utf-8")
        assert text.count(bounded) == 1, (name, bounded)
        path.write_text(text.replace(bounded, free), encoding="utf-8")
    return folder


def _positions():
    for folder in ("rout", "phase"):
        for f in sorted((cases_dir() / folder).glob("*.yaml")):
            yield f.stem, lambda f=f: load_position(f)
    for seed in (0, 1, 2):
        yield (
            f"spread-2x6-seed{seed}",
            lambda s=seed: load_position_text(generate_position(2, 6, s, spread=True), "spread"),
        )
    yield "stack-3+4smc", lambda: load_position_text(generate_stack(3, 4, 0), "stack")
    yield "open", lambda: load_position_text(generate_open(0), "open")


#: make test's positions of the check (make test-slow runs the others): the
#: sample's rout and phase positions (tests/conftest.py), a spread map and a stack
FAST = {Path(p).stem for p in SAMPLE} | {"spread-2x6-seed0", "stack-3+4smc"}


@pytest.mark.parametrize(
    "name,make",
    [(n, m) if n in FAST else pytest.param(n, m, marks=pytest.mark.slow) for n, m in _positions()],
    ids=[n for n, _ in _positions()],
)
def test_the_grounding_bounds_change_no_answer(name, make, unbounded):
    position = make()
    bounded = answers(position)
    with using_rules(unbounded):
        free = answers(position)
    assert bounded == free
    assert any(bounded[1])  # the rout program answered something
