"""Q&A rulings as readings (issue 32, point 11): every `qa_reading` of
rules/core/versions.lp has its words and its other reading, is pinned by a
case run under both settings, and docs/rulings.md is what
`python -m tools.rulings` writes (its search blocks are re-run by
tests/test_docs.py as every sample output is)."""

import re

import pytest

from tools import rulings
from asl_kb.engines.diff import switches_in_force
from asl_kb.position.loader import load_position

from conftest import ROOT

READINGS = rulings.readings()


def test_every_qa_reading_is_on_in_both_versions():
    pos = load_position(ROOT / "facts" / "rout" / "A20.3-rejected-leader.yaml")
    from asl_kb import record

    for version in ("current", "prior"):
        on = switches_in_force(record.replace(pos, rules=version))
        assert {r["switch"] for r in READINGS} <= set(on), version


@pytest.mark.parametrize("r", READINGS, ids=[r["switch"] for r in READINGS])
def test_a_ruling_has_its_words_and_the_other_reading(r):
    assert re.match(r"[A-Z]\d+\.\d+$", r["rule"])
    assert '"' in r["picks"], "the ruling's words, quoted from the source"
    assert r["other"].startswith("Off"), "the other reading, encoded too"


@pytest.mark.parametrize("r", READINGS, ids=[r["switch"] for r in READINGS])
def test_a_ruling_is_pinned_under_both_settings(r):
    """A case sets the switch off by name, and the same case holds a run
    under the default (on): a clause of either reading deleted fails it."""
    cases = rulings.cases_of(r["switch"])
    assert cases, f"no case sets readings: {{{r['switch']}: off}}"
    for case in cases:
        text = (ROOT / case).read_text()
        runs = text.split("\n    - label:")[1:]
        assert any(f"{r['switch']}: off" in run for run in runs)
        assert any(r["switch"] not in run for run in runs), "a run under the default reading too"


def test_rulings_page_lists_every_ruling_and_its_witness():
    text = (ROOT / "docs" / "rulings.md").read_text()
    heads = re.findall(r"^## `(\w+)` \(([A-Z][\d.]+)\)$", text, re.M)
    assert heads == [(r["switch"], r["rule"]) for r in READINGS]
    found = rulings.found_in(text)
    # the rulings whose units a cheap scope places have a witness
    assert set(rulings.SCOPE_OF) <= set(found)
    for switch, (_scope, command, output) in found.items():
        assert f"--switch {switch} " in command and "1 witness(es)" in output
        assert f"caused by {switch} [" in output, "a witness is attributed to its switch"


def test_a_stale_rulings_page_fails(monkeypatch):
    """render() is what the page must be: a ruling's words changed in the rules
    make the committed page stale."""
    text = (ROOT / "docs" / "rulings.md").read_text()
    found = rulings.found_in(text)
    assert rulings.render(found) == text
    changed = [dict(r, picks=r["picks"] + " (changed)") if i == 0 else r for i, r in enumerate(READINGS)]
    monkeypatch.setattr(rulings, "readings", lambda: changed)
    assert rulings.render(found) != text
