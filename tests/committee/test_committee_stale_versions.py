"""A rules folder naming the version it edits (overlay.toml): read against
that version's clauses as the package records them, without git. The
clauses its edits touch that the shipped rules no longer have are named
(FILE:LINE, the clause); a folder naming the running rules' version gets
none; on_stale = "refuse" makes them an error (exit 2)."""

from __future__ import annotations

import json

import pytest

from asl_kb.committee import overlay_file, stale
from asl_kb.committee.clauses import text_clauses
from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.resources import rules_dir
from test_committee_diff import run

SURRENDER = "rout/A20_21_surrender.lp"
#: a clause the shipped rules added since the older version (which lacks it)
ADDED = "mop_refused(U,X) :- mop_captor(U,X), ss_vs_russian(U,X), not in_force(mop_up_any_unit).\n"
#: the clause after it
ADDED_AFTER = "captor(t,question(K,L,S0),X) :- probe"
#: a clause the shipped rules rewrote since (the older version's text, then the folder's edit of it)
NOW = "mopped(B) :- mopping_up(H), building(H,B).\n"
OLDER = "mopped(B) :- mopping_up(H), building(H,B), unit_at(_,loc(H,_)).\n"
EDITED = "mopped(B) :- mopping_up(H), building(H,B), unit_at(_,loc(H,0)).\n"
#: a clause the shipped rules deleted since
DELETED = "mop_refused(U,X) :- mop_captor(U,X), status(X,berserk).\n"


def _older_text() -> str:
    text = (rules_dir() / SURRENDER).read_text()
    assert ADDED in text and NOW in text
    return text.replace(ADDED, "").replace(NOW, OLDER) + DELETED


@pytest.fixture
def older(tmp_path, monkeypatch):
    """The package's records with an older version 0.0.9 beside the
    current one: the surrender file as it was before the shipped rules
    added ADDED, rewrote NOW and deleted DELETED."""
    records = tmp_path / "released"
    records.mkdir()
    current = overlay_file.recorded()[-1]
    data = json.loads((overlay_file.RECORDS / f"{current}.json").read_text())
    (records / f"{current}.json").write_text(json.dumps(data))
    data["files"][SURRENDER] = [c.text for c in text_clauses(_older_text().encode())]
    (records / "0.0.9.json").write_text(json.dumps({**data, "version": "0.0.9"}))
    monkeypatch.setattr(overlay_file, "RECORDS", records)
    overlay_file.clauses_of.cache_clear()
    stale._findings.cache_clear()
    yield current
    overlay_file.clauses_of.cache_clear()
    stale._findings.cache_clear()


def _folder(root, text: str, toml: str | None):
    (root / "rout").mkdir(parents=True)
    (root / SURRENDER).write_text(text)
    if toml is not None:
        (root / "overlay.toml").write_text(toml)
    return parse_ruleset(str(root))


def _line(text: str, clause: str) -> int:
    return text[: text.index(clause)].count("\n") + 1


def test_the_released_version_is_recorded_once(tmp_path, monkeypatch):
    """pyproject's version has its record (written when it was released),
    and the tool never writes over a record: a folder written against a
    version is read against the rules that version shipped."""
    from tools import rule_versions

    version = rule_versions.current_version()
    assert version in overlay_file.recorded()
    assert rule_versions.main(["--check"]) == 0
    kept = tmp_path / "released"
    kept.mkdir()
    (kept / f"{version}.json").write_text("as released")
    monkeypatch.setattr(rule_versions, "RECORDS", kept)
    assert rule_versions.main([]) == 1
    assert (kept / f"{version}.json").read_text() == "as released"
    (kept / f"{version}.json").unlink()
    assert rule_versions.main(["--check"]) == 1
    assert rule_versions.main([]) == 0
    assert json.loads((kept / f"{version}.json").read_text()) == {
        "version": version,
        **overlay_file.record_of(rules_dir()),
    }


def test_a_folder_against_an_older_version_names_what_its_edits_touch(tmp_path, older, capsys):
    folder_text = _older_text().replace(OLDER, EDITED)
    rs = _folder(tmp_path / "f", folder_text, 'against = "0.0.9"\n')
    found = stale.findings(rs)
    assert sorted((f["kind"], f["line"], f["against"]) for f in found) == sorted(
        [
            ("edits_gone", _line(folder_text, EDITED), "0.0.9"),
            ("readds_deleted", _line(folder_text, DELETED), "0.0.9"),
            ("drops_later", _line(folder_text, ADDED_AFTER), "0.0.9"),
        ]
    )
    said = {f["kind"]: f["clause"] for f in found}
    assert said["edits_gone"] == " ".join(OLDER.split())
    assert said["drops_later"] == " ".join(ADDED.split())
    # said on stderr wherever the folder is used, with FILE:LINE
    stale.process.kept("committee.stale warned").pop(rs.folder, None)
    stale.warn(rs)
    err = capsys.readouterr().err
    assert f"{rs.folder / SURRENDER}:{_line(folder_text, EDITED)}: stale" in err


def test_a_folder_against_the_current_version_is_not_warned(tmp_path, older):
    text = (rules_dir() / SURRENDER).read_text().replace(NOW, EDITED)
    assert stale.findings(_folder(tmp_path / "now", text, f'against = "{older}"\n')) == []


def test_a_file_the_shipped_rules_no_longer_have(tmp_path, older):
    """The older version had a file the shipped rules dropped since: the
    folder's copy is said to replace a file that is gone."""
    records = overlay_file.RECORDS
    data = json.loads((records / "0.0.9.json").read_text())
    data["files"]["rout/A99_gone.lp"] = ["gone(U) :- unit(U)."]
    (records / "0.0.9.json").write_text(json.dumps(data))
    overlay_file.clauses_of.cache_clear()
    root = tmp_path / "f"
    rs = _folder(root, _older_text(), 'against = "0.0.9"\n')
    (root / "rout" / "A99_gone.lp").write_text("gone(U) :- unit(U).\n")
    rs = parse_ruleset(str(root))
    assert ("file_gone", "rout/A99_gone.lp", 1) in [(f["kind"], f["file"], f["line"]) for f in stale.findings(rs)]


def test_refused_when_the_folder_says_so(tmp_path, older, capsys):
    folder = tmp_path / "f"
    _folder(folder, _older_text().replace(OLDER, EDITED), 'against = "0.0.9"\non_stale = "refuse"\n')
    code, _out, err = run(capsys, "diff", "--to", str(folder))
    assert code == 2
    assert f"{folder / 'overlay.toml'}:1: against: " in err


@pytest.mark.parametrize(
    "toml, where",
    [
        ('against = "9.9.9"\n', "1: against: "),
        ("# what it edits\nagainst = 1\n", "2: against: "),
        ('against = "0.0.9"\nbogus = 1\n', "2: bogus: "),
        ('against = "0.0.9"\non_stale = "maybe"\n', "2: on_stale: "),
        ("against = \n", "1: "),  # not TOML
    ],
)
def test_a_bad_overlay_file(tmp_path, older, capsys, toml, where):
    """FILE:LINE: KEY: message, exit 2, before any position is run."""
    folder = tmp_path / "f"
    _folder(folder, _older_text(), toml)
    code, _out, err = run(capsys, "diff", "--to", str(folder))
    assert code == 2
    assert f"{folder / 'overlay.toml'}:{where}" in err
