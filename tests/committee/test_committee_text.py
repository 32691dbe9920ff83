"""A committee report a person reads at a glance (issue 32, point 10): a
witness in at most 20 lines, summed up in words; diff rows in words (a
prisoner option as its sentence, one wording for every elimination); tables
no wider than the terminal (80 columns when the output is no terminal)."""

from asl_kb.committee import corpus, search
from asl_kb.engines.diff import describe, outcome_items, kind_of
from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position
from asl_kb.report import table

from conftest import ROOT

CAUSE = [{"switch": "guard_outnumbered", "rule": "A20.52"}]


def _entry(unit, outcome, kind, at, caused_by=CAUSE):
    return {"unit": unit, "outcome": outcome, "caused_by": caused_by, "kind": kind, "at": at}


def _report(appeared, vanished):
    witness = {
        "position": "guards #2",
        "units": 2,
        "non_open": 0,
        "brief": "german attacking, rout phase; "
        + "; ".join(f"U{i} russian squad 4-4-7 broken at P15" for i in range(6)),
        "appeared": appeared,
        "vanished": vanished,
        "fired_only_in_from": ["A10.53"],
        "fired_only_in_to": [],
    }
    return {
        "from_label": "current",
        "to_label": "current with guard_outnumbered flipped",
        "scope": "guards",
        "to": {"version": "current"},
        "complete": True,
        "tried": 2,
        "untouched": 1,
        "stopped": "1 witness(es) found",
        "witnesses": [witness],
    }


def test_a_witness_fits_twenty_lines_of_the_terminal_and_says_what_it_comes_to():
    vanished = [
        _entry(
            "U1",
            f"U1: rout at J{i % 40}, Interdiction in J{i % 40}, K13, L13, M14, N14, O15, P16, Q17",
            "Interdicted rout",
            f"J{i % 40}",
        )
        for i in range(5026)
    ]
    appeared = [_entry("U1", "U1: surrender to U2 at P15", "surrender", "P15")]
    text = search.to_text(_report(appeared, vanished))
    lines = text.splitlines()
    assert len(lines) <= search.REPORT_LINES
    assert max(map(len, lines)) <= table.DEFAULT_WIDTH
    said = " ".join(text.split())
    # the witness summed up: counts by kind, destinations counted, not 5,026 rows
    assert "vanished 5,026 Interdicted routs to 40 destinations; appeared 1 surrender" in said
    # one cause for every change: said once, not on each row
    assert said.count("guard_outnumbered [A20.52]") == 1
    shown = [line for line in lines if line.startswith("    - U1")]
    assert shown and f"{5026 - len(shown):,} more vanished" in said


def test_rows_with_different_causes_name_each():
    rows = [
        _entry("U1", "U1: rout at J1", "rout", "J1"),
        _entry("U1", "U1: rout at J2", "rout", "J2", [{"switch": "stack_surrender", "rule": "A20.3, A20.21"}]),
    ]
    text = search.to_text(_report(rows, []))
    assert "<- guard_outnumbered [A20.52]" in text and "<- stack_surrender [A20.3, A20.21]" in text
    assert "caused by" not in text


def test_a_diff_table_fits_the_terminal_and_keeps_every_word():
    outcome = "may: Close Combat attack 0 (capture) (" + "; ".join(f"DR {i}: G captured" for i in range(2, 13)) + ")"
    report = {
        "positions": 1,
        "differing": 1,
        "complete": True,
        "rows": [
            {
                "file": "facts/prisoners/article-Ex9.yaml",
                "run": "the reading capture_under_no_quarter off",
                "unit": "(prisoners)",
                "change": "-",
                "outcome": outcome,
                "caused_by": [{"switch": "capture_under_no_quarter", "rule": "A20.22"}],
            }
        ],
    }
    text = corpus.to_text(report, "current", "current with capture_under_no_quarter flipped")
    assert max(map(len, text.splitlines())) <= table.DEFAULT_WIDTH
    # wrapped in its column, beside the cause: every word kept
    assert set(outcome.split()) <= set(text.split())
    # a narrow table is laid out as before: one row a line
    row = {k: v for k, v in report["rows"][0].items() if k != "run"}
    short = dict(report, rows=[dict(row, file="a.yaml", outcome="R: stay at E5")])
    assert len(corpus.to_text(short, "a", "b").splitlines()) == 3


def test_table_lines_wrap_the_wrapping_columns_only():
    rows = [("UNIT", "OUTCOME"), ("G", "word " * 40)]
    out = table.lines(rows, 40, (1,))
    assert max(map(len, out)) <= 40 and all(not line[:3].strip() or line.startswith(("UNIT", "G ")) for line in out)
    assert table.lines(rows, 400, (1,)) == [line.rstrip() for line in table.lines(rows, 400, ())]


def _described(path, **options):
    r = outcomes(load_position(ROOT / "facts" / path), **options)
    return {item: describe(item) for item in outcome_items(r)}


def test_one_wording_for_eliminations():
    rejected = [
        w
        for i, w in _described("rout/A20.3-rejected-leader.yaml").items()
        if i[0] == "unit" and kind_of(i)[0] == "elimination"
    ]
    assert rejected == ["RL: eliminated (rejected) by G at C5, LLMC for RS"]
    immediate = [
        w
        for i, w in _described("immediate/A19.12-entered.yaml").items()
        if i[0] == "disrupted" and kind_of(i)[0] == "elimination"
    ]
    assert immediate == ["R (disrupted): eliminated (rejected) by G"]
    phase = [w for i, w in _described("rout/A20.3-rejected-leader.yaml", phase=True).items() if i[0] == "phase"]
    assert phase and all("eliminated (rejected) by G" in w for w in phase if "eliminated" in w)


def test_prisoner_options_are_sentences():
    described = _described("prisoners/A20.4-massacre.yaml")
    options = [w for i, w in described.items() if kind_of(i)[0] == "prisoner option"]
    assert "may: R massacres P; then No Quarter for the russian side; the german side's ELR becomes 4" in options
    # the terms the engine reads (massacre(R, P)) are not what a person reads
    assert not any("massacre(" in w for w in described.values())
