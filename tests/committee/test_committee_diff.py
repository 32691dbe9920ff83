"""`asl-kb diff PATH...`: files, folders and globs under two rule sets, one
table; exit 0 nothing differs, 1 something does, 2 bad input."""

import json

import pytest

from asl_kb.cli import main
from asl_kb.resources import rules_dir
from conftest import FACTS

SURRENDER = "rout/A20_21_surrender.lp"
# A20.21: "...ADJACENT to Known, Good Order, armed enemy Infantry ... will
# surrender to that enemy unit": the clause naming the captor in the RtPh
CAPTOR_CLAUSE = (
    "captor(t,question(K,L,S0),X) :- probe(t,question(K,L,S0)), knows(t,K,X), adj_unit(L,X), takes_prisoners(X),"
)


def without_captor_clause(folder):
    """An overlay folder: the shipped A20.21 file with its first captor/3 clause deleted."""
    text = (rules_dir() / SURRENDER).read_text()
    start = text.index(CAPTOR_CLAUSE)
    end = text.index(".\n", start) + 2
    (folder / "rout").mkdir(parents=True)
    (folder / SURRENDER).write_text(text[:start] + text[end:])
    return folder


def captor_clause_deleted(folder) -> dict:
    """The cause a change of that folder is attributed to: the edit, the
    captor/3 clause deleted (at its line in the shipped file)."""
    text = (rules_dir() / SURRENDER).read_text()
    line = text[: text.index(CAPTOR_CLAUSE)].count("\n") + 1
    return {
        "rule_folder": str(folder.resolve()),
        "edit": {"file": SURRENDER, "line": line, "rule": "A20.21", "edit": "deleted"},
    }


def cause_key(c: dict) -> dict:
    """A cause without the clause's wording."""
    if "edit" not in c:
        return c
    return {**c, "edit": {k: v for k, v in c["edit"].items() if k not in ("clause", "was", "sentence")}}


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def one_witness(capsys, *search_args):
    """`asl-kb search diff ... --witnesses 1 --format json`: it finds one (exit
    1); the report and the witness."""
    code, text, _ = run(capsys, "search", "diff", *search_args, "--witnesses", "1", "--format", "json")
    assert code == 1
    report = json.loads(text)
    [witness] = report["witnesses"]
    return report, witness


def assert_replayed(capsys, witness, *diff_args):
    """`asl-kb diff FILE ...` on a witness file shows exactly the outcomes the
    search saw appear and vanish."""
    code, text, _ = run(capsys, "diff", witness["file"], *diff_args, "--format", "json")
    assert code == 1
    rows = json.loads(text)["rows"]
    assert {x["outcome"] for x in rows if x["change"] == "-"} == {e["outcome"] for e in witness["vanished"]}
    assert {x["outcome"] for x in rows if x["change"] == "+"} == {e["outcome"] for e in witness["appeared"]}


def test_a_switch_change_in_a_folder_and_a_glob_one_table(capsys):
    code, out, _ = run(capsys, "diff", str(FACTS / "immediate"), str(FACTS / "rout/A20.21-u*.yaml"), "--format", "json")
    assert code == 1
    r = json.loads(out)
    # every run of each case: article Ex8's runs differ too (its position as
    # written has no Heat of Battle surrender to reject)
    assert r["positions"] == 3 and r["differing"] == 3 and r["runs"] > 3
    assert {x["run"] for x in r["rows"] if x["file"].endswith("article-Ex8.yaml")} >= {"without No Quarter"}
    changes = {
        (r_["file"].rsplit("/", 1)[1], r_["unit"], r_["change"], c["switch"])
        for r_ in r["rows"]
        for c in r_["caused_by"]
    }
    # A20.3 current: "reject a RtPh/Disrupted surrendering unit" (prior: RtPh only)
    assert ("A19.12-entered.yaml", "R", "-", "disrupted_rejection") in changes
    # A20.21 erratum: only an unconcealed Interdictor Known to it counts
    assert ("A20.21-unconcealed-interdictor.yaml", "R", "+", "unconcealed_interdictor") in changes
    # stable order: by file, then unit, then change
    keys = [(x["file"], x["unit"]) for x in r["rows"]]
    assert keys == sorted(keys)


def test_same_report_whatever_the_order_of_the_paths(capsys):
    a = [str(FACTS / "immediate/A19.12-entered.yaml"), str(FACTS / "rout/A20.21-unconcealed-interdictor.yaml")]
    _, one, _ = run(capsys, "diff", *a, "--format", "json")
    _, two, _ = run(capsys, "diff", *reversed(a), a[0], "--format", "json")
    assert one == two


def test_nothing_differs_exit_0(capsys):
    code, out, _ = run(capsys, "diff", str(FACTS / "rout/A10.5-EX.yaml"), "--format", "json")
    assert code == 0 and json.loads(out)["rows"] == []


def test_a_switch_flipped_against_the_same_version(capsys):
    code, out, _ = run(
        capsys,
        "diff",
        str(FACTS / "immediate/A19.12-entered.yaml"),
        "--switch",
        "disrupted_rejection",
        "--format",
        "json",
    )
    r = json.loads(out)
    assert code == 1 and r["to"] == {"version": "current", "switch": "disrupted_rejection"}
    assert {c["switch"] for x in r["rows"] for c in x["caused_by"]} == {"disrupted_rejection"}


#: a Good Order Russian squad ADJACENT to a German one at the start of its
#: RtPh: A10.41's Q&A ("No, since that could result in their immediate
#: elimination") bars its Voluntary Break; no_break_into_surrender off lets it
VOLUNTARY_BREAK = """name: voluntary break witness
attacker: russian
map: {area: [A1, F8]}
units:
  - {id: R1, side: russian, type: squad, counter: 4-4-7, at: B5}
  - {id: G1, side: german, type: squad, counter: 4-6-7, at: B6}
"""


def test_a_voluntary_break_witness_replays_with_its_question(capsys, tmp_path):
    # a witness found asking Voluntary Break (search diff without --scope,
    # JSON voluntary_break: true) replays as diff --voluntary-break: the
    # replay shows its difference, which diff without the option cannot see
    from asl_kb.committee.rulesets import parse_ruleset
    from asl_kb.committee.search import replay_command

    f = tmp_path / "witness.yaml"
    f.write_text(VOLUNTARY_BREAK)
    current = parse_ruleset("current")
    replay = replay_command(current, current.flipped("no_break_into_surrender"), str(f), voluntary_break=True)
    words = replay.split()
    assert words[:2] == ["asl-kb", "diff"] and "--voluntary-break" in words
    code, out, _ = run(capsys, *words[1:], "--format", "json")
    rows = json.loads(out)["rows"]
    assert code == 1
    assert {(x["unit"], x["change"], x["kind"]) for x in rows} == {
        ("R1", "+", "voluntary break"),
        ("G1", "+", "voluntary break"),
    }
    assert {c["switch"] for x in rows for c in x["caused_by"]} == {"no_break_into_surrender"}
    without = [w for w in words[1:] if w != "--voluntary-break"]
    code, out, _ = run(capsys, *without, "--format", "json")
    assert code == 0 and json.loads(out)["rows"] == []


def test_an_own_words_reading_is_a_switch_like_the_others(capsys):
    # leave_building_toward_cover is a text_reading of A10.51 (versions.lp),
    # off unless switched on: --switch takes it, and the changes name it and its rule
    code, out, _ = run(
        capsys,
        "diff",
        str(FACTS / "rout/A10.51-leaving-own-building.yaml"),
        "--switch",
        "leave_building_toward_cover",
        "--format",
        "json",
    )
    r = json.loads(out)
    assert code == 1 and r["to"] == {"version": "current", "switch": "leave_building_toward_cover"}
    assert {(c["switch"], c["rule"]) for x in r["rows"] for c in x["caused_by"]} == {
        ("leave_building_toward_cover", "A10.51")
    }


def test_a_rule_folder_with_a_clause_deleted_is_the_cause(capsys, tmp_path):
    folder = without_captor_clause(tmp_path / "erratum")
    # the case's position alone (its runs and why-not questions are asked
    # in test_a_switch_change_in_a_folder_and_a_glob_one_table)
    text = (FACTS / "rout/A20.21-surrender.yaml").read_text()
    position = tmp_path / "A20.21-surrender.yaml"
    position.write_text(text[: text.index("\nexpect:")] + "\n")
    code, out, _ = run(capsys, "diff", str(position), "--to", str(folder), "--format", "json")
    r = json.loads(out)
    assert code == 1
    vanished = [x for x in r["rows"] if x["change"] == "-"]
    assert any("surrender" in x["outcome"] for x in vanished)
    for x in r["rows"]:
        # the edited clause, not only the folder
        assert [cause_key(c) for c in x["caused_by"]] == [captor_clause_deleted(folder)]
        assert x["caused_by"][0]["edit"]["was"].startswith(CAPTOR_CLAUSE.strip())
    assert r["to"]["replaces"] == [SURRENDER]


@pytest.mark.parametrize(
    "argv, where",
    [
        (["diff", "no/such/file.yaml"], "no/such/file.yaml: "),
        (["diff", "no/such/*.yaml"], "no/such/*.yaml: "),
        (["diff", str(FACTS / "rout/A10.5-EX.yaml"), "--to", "nonsense"], "nonsense: --to: "),
        (["diff", str(FACTS / "rout/A10.5-EX.yaml"), "--switch", "nonsense"], "versions.lp: switch: "),
    ],
)
def test_bad_input_exit_2_one_line(capsys, argv, where):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and where in err and err.count("\n") == 1


def test_a_rule_folder_that_does_not_parse_exit_2_file_line(capsys, tmp_path):
    (tmp_path / "rout").mkdir()
    (tmp_path / "rout" / "A20_21_surrender.lp").write_text("% fine\nsurrender(X :- unit(X).\n")
    code, _, err = run(capsys, "diff", str(FACTS / "rout/A10.5-EX.yaml"), "--from", str(tmp_path))
    assert code == 2 and f"{tmp_path / 'rout' / 'A20_21_surrender.lp'}:2: syntax: " in err


def test_a_switch_the_slice_shows_idle_is_not_flipped(capsys, monkeypatch):
    # prior -> current: every switch in force on one side only is a trial, but
    # one whose clauses cannot fire in the position (relevance.may_touch)
    # could reproduce nothing and is not run -- the same rows and causes
    from asl_kb.committee import compare

    asked, flips = [], []
    may_touch, run_ = compare._may_touch, compare.run
    monkeypatch.setattr(compare, "_may_touch", lambda *a: asked.append((a[2], may_touch(*a))) or asked[-1][1])
    # (a trial's run: the position with one switch set by name, a reading)
    monkeypatch.setattr(compare, "run", lambda p, *a, **k: flips.extend(n for n, _ in p.readings) or run_(p, *a, **k))
    code, out, _ = run(capsys, "diff", str(FACTS / "rout/A20.21-unconcealed-interdictor.yaml"), "--format", "json")
    r = json.loads(out)
    assert code == 1
    touched = [s for s, may in asked if may]
    assert touched and len(touched) < len(asked)
    assert sorted(flips) == sorted(touched)
    assert {c["switch"] for x in r["rows"] for c in x["caused_by"]} <= set(touched) | {
        "+".join(sorted({s for s, _ in asked}))
    }
    # every flip run: the same report
    monkeypatch.setattr(compare, "_may_touch", lambda *a: True)
    _, every, _ = run(capsys, "diff", str(FACTS / "rout/A20.21-unconcealed-interdictor.yaml"), "--format", "json")
    assert json.loads(every) == r


def test_the_flip_of_the_one_switch_apart_is_not_run_again(capsys, monkeypatch):
    # --switch X: the trial that flips X on the first side is the second
    # rule set itself, already run
    from asl_kb.committee import compare

    ran, attributed = [], []
    run_, trials = compare.run, compare.trials
    monkeypatch.setattr(compare, "run", lambda *a, **k: ran.append(a) or run_(*a, **k))
    monkeypatch.setattr(compare, "trials", lambda *a: attributed.append(a) or trials(*a))
    code, out, _ = run(
        capsys,
        "diff",
        str(FACTS / "rout/A20.21-unconcealed-interdictor.yaml"),
        "--switch",
        "unconcealed_interdictor",
        "--format",
        "json",
    )
    r = json.loads(out)
    assert code == 1 and attributed and len(ran) == 2 * len(attributed)
    assert {c["switch"] for x in r["rows"] for c in x["caused_by"]} == {"unconcealed_interdictor"}
