"""Two deliberately broken errata written as rules folders
(tests/data/errata/): `search gaps --scope tiny` finds each, names the
clauses to blame -- a minimal unsatisfiable core over the phase program's
constraints, and the folder's edits the finding comes from -- and the gap
file's replay line (`asl-kb check FILE --rules FOLDER`) gives the same
findings, where the shipped rules find none.

* no-rejection-no-capture: a new phase file (included by an overlaid
  phase.lp and check.lp) forbids rejecting a RtPh surrender (a named
  violated/1 kind check.lp does not know) and accepting one (a plain `:-`):
  a broken unit whose only fates are surrenders has no whole-phase outcome.
* captor-in-cover: the A20.21 surrender leaf only for a captor in a
  building or woods: a unit that must surrender in the open has no fate.

Each is searched as a committee member would: `asl-kb search gaps --scope
tiny --rules FOLDER`.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import shlex
from pathlib import Path

import pytest

from asl_kb import cli
from asl_kb.committee.rulesets import parse_ruleset

ERRATA = Path(__file__).resolve().parents[1] / "data" / "errata"


def _line(folder: str, rel: str, starts: str) -> int:
    """The line of the folder's file where the clause starting `starts` is."""
    lines = (ERRATA / folder / rel).read_text().splitlines()
    return next(n for n, text in enumerate(lines, 1) if text.startswith(starts))


@functools.lru_cache(maxsize=None)
def _gap(folder: str, out: str) -> dict:
    """The first finding of `asl-kb search gaps --scope tiny --rules FOLDER`
    (the command a committee member runs)."""
    argv = [
        "search",
        "gaps",
        "--scope",
        "tiny",
        "--rules",
        str(ERRATA / folder),
        "--witnesses",
        "1",
        "--out",
        str(Path(out) / folder),
        "--format",
        "json",
    ]
    out_, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out_), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    assert code == cli.EXIT_DIFFERS, err.getvalue()
    report = json.loads(out_.getvalue())
    assert report["complete"] and report["witnesses"], report
    return report["witnesses"][0]


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    return str(tmp_path_factory.mktemp("gaps"))


def _replay(witness: dict, capsys) -> tuple[int, dict]:
    words = shlex.split(witness["replay"])
    assert words[:2] == ["asl-kb", "check"]
    code = cli.main(words[1:] + ["--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_phase_constraints_found_with_their_core(out, capsys):
    folder = "no-rejection-no-capture"
    w = _gap(folder, out)
    (f,) = w["findings"]
    assert f["kind"] == "no_whole_phase_outcome"
    rel = "phase/A20_3_no_rejection.lp"
    edited = {(rel, _line(folder, rel, "violated(no_rejection")), (rel, _line(folder, rel, ":- pick"))}
    # the core: both new constraints (the named and the unnamed), nothing else
    assert {tuple(c["at"].split(":")) for c in f["clauses"]} == {(r, str(n)) for r, n in edited}
    assert all(c["rule"] == "A20.3" for c in f["clauses"])
    assert {(e["file"], e["line"], e["edit"]) for e in f["edits"]} == {(r, n, "added") for r, n in edited}
    # replayed under the folder: the same finding; under the shipped rules: consistent
    assert f"--rules {ERRATA / folder}" in w["replay"]
    code, r = _replay(w, capsys)
    assert code == cli.EXIT_DIFFERS and r["rules"] == str(ERRATA / folder)
    assert [(g["kind"], g["clauses"], g["edits"]) for g in r["findings"]] == [(f["kind"], f["clauses"], f["edits"])]
    assert cli.main(["check", w["file"]]) == cli.EXIT_OK
    capsys.readouterr()


def test_surrender_leaf_edit_found_and_named(out, capsys):
    folder = "captor-in-cover"
    w = _gap(folder, out)
    kinds = {f["kind"] for f in w["findings"]}
    assert kinds == {"no_legal_outcome"}
    rel = "rout/A20_21_surrender.lp"
    line = _line(folder, rel, "leaf(T,surrenders(X,designating(Q)))")
    for f in w["findings"]:
        assert [(e["file"], e["line"], e["rule"], e["edit"]) for e in f["edits"]] == [(rel, line, "A20.21", "changed")]
        assert "cover_terrain" in f["edits"][0]["clause"] and "cover_terrain" not in f["edits"][0]["was"]
    code, r = _replay(w, capsys)
    assert code == cli.EXIT_DIFFERS
    assert [(g["kind"], g.get("unit"), g["edits"]) for g in r["findings"]] == [
        (f["kind"], f.get("unit"), f["edits"]) for f in w["findings"]
    ]
    assert cli.main(["check", w["file"]]) == cli.EXIT_OK
    capsys.readouterr()


def test_overlaid_entry_program_includes_shipped_files():
    """The folder overlays check.lp and phase.lp: their includes of shipped
    files resolve (they used to be looked for in the folder)."""
    rs = parse_ruleset(str(ERRATA / "no-rejection-no-capture"))
    assert set(rs.replaces) == {"check.lp", "phase.lp"} and rs.adds == ("phase/A20_3_no_rejection.lp",)


def test_every_command_takes_a_rules_folder(out, capsys):
    w = _gap("captor-in-cover", out)
    folder = str(ERRATA / "captor-in-cover")
    for argv in (["outcomes", w["file"]], ["why-not", w["file"], "U1", "stay"], ["report", w["file"]]):
        code = cli.main(argv + ["--rules", folder])
        assert code in (cli.EXIT_OK, cli.EXIT_DIFFERS), (argv, capsys.readouterr().err)
        capsys.readouterr()
    # a switch alone, against the position's own rules
    assert cli.main(["check", w["file"], "--switch", "stack_surrender", "--format", "json"]) == cli.EXIT_OK
    assert json.loads(capsys.readouterr().out)["rules"] == "current with stack_surrender flipped"
