"""The text listing (asl_kb/report/text.py): `--limit N` shows at most N of
each prisoners' listing -- the requirements and the options alike -- and
says how many it left out; without a limit it shows every one."""

import re

import pytest

from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position
from asl_kb.report.render import to_text

from conftest import FACTS

# a position with four requirements and one with sixteen options
POSITIONS = ["prisoners/A20.5-insufficient-guard.yaml", "prisoners/A11.11-cc-table.yaml"]


def _listed(text: str, verb: str) -> int:
    return len(re.findall(rf"^  {verb}: ", text, flags=re.M))


@pytest.mark.parametrize("name", POSITIONS)
@pytest.mark.parametrize("limit", [None, 1, 2, 100])
def test_limit_cuts_each_prisoners_listing(name, limit):
    r = outcomes(load_position(FACTS / name))
    text = to_text(r, limit=limit)
    for verb, items in (("must", r.prisoners.required), ("may", r.prisoners.options)):
        shown = len(items) if limit is None else min(limit, len(items))
        assert _listed(text, verb) == shown
    cut = [m.groups() for m in re.finditer(r"^  \((\d+) of (\d+) \w+ listed", text, flags=re.M)]
    want = [
        (str(limit), str(len(items)))
        for items in (r.prisoners.required, r.prisoners.options)
        if limit is not None and len(items) > limit
    ]
    assert cut == want
