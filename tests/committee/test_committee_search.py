"""Scopes as data, their enumeration (smallest first, one position per
symmetry class), and `asl-kb search diff`: a rules folder with one clause
deleted is found to differ from current with a minimal position, which
`asl-kb diff` replays."""

import json
import pytest

from asl_kb.board import hexgrid
from asl_kb.committee.enumerate import SYMMETRIES, candidates, count, to_yaml
from asl_kb.committee.scope import SCOPES_DIR, load_scope, scope_from_text
from asl_kb.errors import PositionError
from asl_kb.position.loader import load_position_text
from test_committee_diff import (
    assert_replayed,
    captor_clause_deleted,
    cause_key,
    one_witness,
    run,
    without_captor_clause,
)


@pytest.mark.parametrize("name", ["tiny", "small", "medium", "disrupted"])
def test_shipped_scopes_load(name):
    s = load_scope(name)
    assert s.name == name and any("broken" in spec.status for spec in s.specs)


def test_enumeration_smallest_first_and_one_per_symmetry_class():
    s = load_scope("tiny")
    cs = list(candidates(s))
    assert len(cs) == count(s)
    sizes = [c.size for c in cs]
    assert sizes == sorted(sizes) and sizes[0] == (1, 0)
    centre = hexgrid.cube(s.centre)

    def image(c, sym):
        """c turned or mirrored, then moved so that its smallest cell is the origin"""

        def rel(h):
            x = hexgrid.cube(h)
            return sym(tuple(a - b for a, b in zip(x, centre)))

        o = min(rel(h) for h, _ in c.units + c.terrain)

        def moved(h):
            return tuple(a - b for a, b in zip(rel(h), o))

        return (
            tuple(sorted((moved(h), i) for h, i in c.units)),
            tuple(sorted((moved(h), i) for h, i in c.terrain)),
            c.attacker,
            c.no_quarter,
            c.phase,
        )

    seen = set()
    for c in cs:
        images = {image(c, sym) for sym in SYMMETRIES}
        assert not images & seen, f"{c} repeats an earlier position turned, mirrored or moved"
        seen |= images
    # a lone unit is one position wherever it stands, and written nearest the centre
    assert [c.units for c in cs if c.size == (1, 0)] == [(("P15", 0),)]
    # every placement of the scope is some candidate turned, mirrored or
    # moved: a broken unit with a German in any of its six neighbours, in
    # any hex of the patch, is one position
    one_german = [
        c for c in cs if c.size == (2, 0) and c.units[1][1] == 1 and hexgrid.distance(c.units[0][0], c.units[1][0]) == 1
    ]
    assert len(one_german) == 1
    # each candidate is a position the loader reads
    for c in cs[::10]:
        load_position_text(to_yaml(s, c), "x.yaml")


def test_deleted_clause_found_with_a_minimal_position_replayed_by_diff(capsys, tmp_path, monkeypatch):
    folder = without_captor_clause(tmp_path / "erratum")
    out = tmp_path / "witnesses"
    # the shipped scope tiny with a margin of 1 hex instead of 7: the same
    # positions in the same order (the enumeration reads only the patch), each
    # judged in a fraction of the time (a rout on a small map has few fates)
    tiny = tmp_path / "tiny.yaml"
    tiny.write_text((SCOPES_DIR / "tiny.yaml").read_text().replace("margin: 7,", "margin: 1,"))
    placements = lambda s: [(c.units, c.terrain, c.attacker, c.no_quarter, c.phase) for c in candidates(s)]
    assert placements(load_scope(str(tiny))) == placements(load_scope("tiny"))
    r, w = one_witness(capsys, "--to", str(folder), "--scope", str(tiny), "--out", str(out))
    # minimal within tiny: two units (a broken unit and a captor) and no
    # terrain; no smaller position can hold a surrender
    assert (w["units"], w["non_open"]) == (2, 0)
    assert any(e["outcome"].startswith(("U1: surrender", "U2: surrender")) for e in w["vanished"])
    assert all(
        cause_key(c) == captor_clause_deleted(folder) for e in w["vanished"] + w["appeared"] for c in e["caused_by"]
    )
    assert "A20.21" in w["fired_only_in_from"]
    # every smaller position tried first, none differing
    assert r["tried"] == w["index"]
    # the witness file replays: asl-kb diff shows the same difference
    assert_replayed(capsys, w, "--to", str(folder))
    # the same witness, rows and causes as when every position is read in
    # full under both rule sets (the folder not taken as a switch: no
    # position skipped, no answers compared first). (The deleted clause
    # goes back, as a switch's clause, into its own `#program plan(t,p)`:
    # the clause before it is in `#program base`.)
    from asl_kb.committee import search

    monkeypatch.setattr(search, "as_switch", lambda a, b: None)
    r2, w2 = one_witness(capsys, "--to", str(folder), "--scope", str(tiny))
    assert r2["untouched"] == 0
    from asl_kb.committee.edits import edits
    from asl_kb.committee.rulesets import parse_ruleset

    (e,) = edits(parse_ruleset(str(folder)))
    assert e.parts == (b"#program plan(t,p).", b"#program base.")
    keep = ("index", "appeared", "vanished", "fired_only_in_from", "fired_only_in_to")
    assert {k: w2[k] for k in keep} == {k: w[k] for k in keep}


ONE_UNIT = """\
name: lone
map: {centre: P15, radius: 1}
units:
  count: 1
  kinds: [{type: squad, counter: 4-4-7, side: russian, status: [broken]}]
attacker: german
"""


def test_a_scope_where_the_changed_clauses_can_act_nowhere_is_passed_over(capsys, tmp_path):
    f = tmp_path / "lone.yaml"
    f.write_text(ONE_UNIT)
    # A20.4 "in their Location" matters only with prisoners: a lone broken
    # unit never shows it -- read off the scope's definition, no position run
    code, out, _ = run(
        capsys, "search", "diff", "--switch", "massacre_in_location", "--scope", str(f), "--format", "json"
    )
    r = json.loads(out)
    assert code == 0 and r["passed_over"] and r["complete"] and r["tried"] == 0 and not r["witnesses"]
    # each changed clause named with what it reads that no position of the scope produces
    assert r["idle_clauses"] and all(
        x["clause"].startswith("prisoners/A20_4_massacre.lp:") and x["needs"] for x in r["idle_clauses"]
    )
    code, text, _ = run(capsys, "search", "diff", "--switch", "massacre_in_location", "--scope", str(f))
    _, *idle = " ".join(text.split()).split(" warning: ")
    assert code == 0 and len(idle) == len(r["idle_clauses"])
    assert all(" can act nowhere in scope lone: it reads " in x for x in idle)
    # a switch whose clause may act there is not passed over: its positions are run
    code, out, _ = run(capsys, "search", "diff", "--switch", "current_rout_path", "--scope", str(f), "--format", "json")
    r = json.loads(out)
    assert code == 0 and not r["passed_over"] and r["tried"] == count(load_scope(str(f))) > 0


@pytest.mark.parametrize(
    "text, line, key",
    [
        (ONE_UNIT.replace("radius: 1", "radius: 9"), 2, "map.radius"),
        (ONE_UNIT.replace("count: 1", "count: [2, 1]"), 4, "units.count"),
        (ONE_UNIT.replace("type: squad", "type: tank"), 5, "units.kinds[0].type"),
        (ONE_UNIT.replace("status: [broken]", "status: [sad]"), 5, "units.kinds[0].status[0]"),
        (ONE_UNIT + "colour: red\n", 7, "colour"),
        (ONE_UNIT.replace("attacker: german\n", ""), 1, "attacker"),
        ("name: [\n", 2, None),
    ],
)
def test_bad_scope_file_line_key(text, line, key):
    with pytest.raises(PositionError) as e:
        scope_from_text(text, "scope.yaml")
    assert (e.value.file, e.value.line, e.value.key) == ("scope.yaml", line, key)


def test_bad_scope_exit_2_on_the_command_line(capsys, tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(ONE_UNIT.replace("radius: 1", "radius: many"))
    code, out, err = run(capsys, "search", "diff", "--scope", str(f))
    assert code == 2 and out == "" and err.startswith(f"error: {f}:2: map.radius: ")
    code, out, err = run(capsys, "search", "diff", "--scope", "no-such-scope")
    assert code == 2 and "no-such-scope: scope: " in err
