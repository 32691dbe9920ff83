"""Rule sets for the committee: versions, one switch flipped, overlay folders
(materialized once; bad folders are FILE:LINE: KEY: message errors)."""

from pathlib import Path

import pytest

from asl_kb.asp.control import active_rules
from asl_kb.committee.rulesets import RuleSetError, parse_ruleset
from asl_kb.engines.diff import switches_in_force
from asl_kb.position.loader import load_position
from asl_kb.resources import rules_dir
from conftest import FACTS


def test_versions_and_a_switch_flipped_against_what_is_in_force():
    pos = load_position(FACTS / "rout/article-Ex4.yaml")
    cur = parse_ruleset("current")
    assert cur.folder is None and cur.flip is None
    assert "stack_surrender" in switches_in_force(cur.apply(pos))
    flipped = parse_ruleset("current", switch="stack_surrender")
    assert "stack_surrender" not in switches_in_force(flipped.apply(pos))
    # prior has it off: flipping turns it on
    assert "stack_surrender" in switches_in_force(parse_ruleset("prior", switch="stack_surrender").apply(pos))


def test_overlay_folder_replaces_and_adds_and_is_used_inside_active(tmp_path):
    (tmp_path / "rout").mkdir()
    shipped = (rules_dir() / "rout" / "A20_21_surrender.lp").read_text()
    (tmp_path / "rout" / "A20_21_surrender.lp").write_text(shipped + "\n% a committee note\n")
    (tmp_path / "rout" / "extra.lp").write_text("#program base.\n")
    rs = parse_ruleset(str(tmp_path))
    assert rs.replaces == ("rout/A20_21_surrender.lp",) and rs.adds == ("rout/extra.lp",)
    with rs.active():
        folder = active_rules()
        assert folder != rules_dir()
        assert (folder / "rout" / "A20_21_surrender.lp").read_text().endswith("% a committee note\n")
        assert (folder / "rout" / "extra.lp").is_file() and (folder / "rout.lp").is_file()
    assert active_rules() == rules_dir()
    # materialized once per process
    with rs.active():
        assert active_rules() == folder


def test_a_file_that_does_not_parse_is_reported_at_its_line(tmp_path):
    (tmp_path / "core").mkdir()
    bad = tmp_path / "core" / "mine.lp"
    bad.write_text("ok.\n\nbroken(:- .\n")
    with pytest.raises(RuleSetError) as e:
        parse_ruleset(str(tmp_path))
    assert (e.value.file, e.value.line, e.value.key) == (str(bad), 3, "syntax")


def test_not_a_folder_and_unknown_switch(tmp_path):
    f = tmp_path / "x.lp"
    f.write_text("a.\n")
    (tmp_path / "empty").mkdir()
    for text in (str(f), str(tmp_path / "missing"), str(tmp_path / "empty")):  # a file, nothing, an empty folder
        with pytest.raises(RuleSetError) as e:
            parse_ruleset(text)
        assert e.value.file == text and e.value.key == "--rules"
    with pytest.raises(RuleSetError) as e:
        parse_ruleset("current", switch="no_such_switch")
    assert e.value.key == "switch" and Path(e.value.file).name == "versions.lp"
