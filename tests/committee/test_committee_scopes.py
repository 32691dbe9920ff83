"""What a scope can say (issue 32, points 6 and 7): a unit kind's position
keys, building levels, features, passengers, the header's choices; "exactly
one of each", "stacked with", "within range N of"; which inputs of
rules/core/defined.lp the shipped scopes produce; a warning for a changed
clause that can act nowhere in the scope; `search diff` without `--scope`
passing over the scopes that cannot hold what the changed clauses read."""

import json

import pytest

from asl_kb.board import hexgrid
from asl_kb.committee.enumerate import candidates, count, to_yaml
from asl_kb.committee.scope import SCOPES_DIR, load_scope, scope_from_text
from asl_kb.errors import PositionError
from asl_kb.position.loader import load_position_text
from test_committee_diff import assert_replayed, one_witness, run

KINDS = """\
name: kinds
map: {centre: P15, radius: 1, margin: 1}
terrain: {palette: [{terrain: building, levels: 1}, {terrain: woods, features: [foxhole, smoke]}], non_open: 1}
units:
  one_of_each: yes
  kinds:
    - {name: routing, type: squad, counter: 4-4-7, side: russian, status: [broken], nationality: hungarian, class: green, heat_of_battle: 10}
    - {name: captor, type: squad, counter: 4-6-7, side: german, sw: [lmg], level: 1, within: {of: routing, range: 1}}
    - {name: upstairs, type: leader, counter: 8-0, side: german, level: 1, stacked_with: captor}
attacker: german
"""


def _positions(text):
    s = scope_from_text(text, "kinds.yaml")
    return s, [(c, load_position_text(to_yaml(s, c), "x.yaml")) for c in candidates(s)]


def test_one_of_each_stacked_with_within_and_levels():
    s, positions = _positions(KINDS)
    assert positions and len(positions) == count(s)
    for _, p in positions:
        routing, captor, upstairs = (
            next(u for u in p.units if u.type == t and (t != "squad" or u.side == side))
            for t, side in (("squad", "russian"), ("squad", "german"), ("leader", ""))
        )
        # exactly one of each kind
        assert len(p.units) == 3
        # within range 1 of the broken squad
        assert hexgrid.distance(routing.hex, captor.hex) <= 1
        # on level 1 of a building hex, in the Location of the captor -- so
        # the captor is upstairs too
        assert upstairs.level == 1 and p.levels_of(upstairs.hex) >= 1
        assert (upstairs.hex, upstairs.level) == (captor.hex, captor.level)
        # the kind's position keys, as the loader reads them
        assert (routing.nationality, routing.unit_class, routing.heat_of_battle) == ("hungarian", "green", 10)
        assert [w.kind for w in captor.sw] == ["lmg"]


def test_header_choices_name_the_units_of_their_kinds():
    text = (SCOPES_DIR / "combat.yaml").read_text()
    s, positions = _positions(text)
    said = {(bool(p.close_combat), p.fire_effects is not None) for _, p in positions}
    assert said == {(a, b) for a in (False, True) for b in (False, True)}
    for _, p in positions:
        guard = next(u for u in p.units if u.type == "squad" and u.side == "german")
        side = {u.id: u.side for u in p.units}
        for cc in p.close_combat:
            assert tuple(cc.defenders) == (guard.id,) and all(side[x] == "russian" for x in cc.attackers)
        if p.fire_effects is not None and p.fire_effects.eliminated:
            assert tuple(p.fire_effects.eliminated) == (guard.id,)
    # a choice naming a kind no unit of the position is of is no position of
    # its own: with `mopping_up: [yes]` only positions with a building holding
    # a unit are left
    plain = (SCOPES_DIR / "tiny.yaml").read_text().replace("palette: [woods]", "palette: [building]")
    _, mopped = _positions(plain.replace("phase: [rout]", "phase: [rout]\nmopping_up: [yes]"))
    assert mopped and len(mopped) < count(scope_from_text(plain, "tiny.yaml"))
    assert all(p.mopping_up and all(p.terrain_of(h).terrain == "building" for h in p.mopping_up) for _, p in mopped)


@pytest.mark.parametrize(
    "old, new, line, key",
    [
        ("within: {of: routing, range: 1}", "within: {of: nobody, range: 1}", 8, "units.kinds[1].within.of"),
        ("class: green", "class: heroic", 7, "units.kinds (units[0].class)"),
        ("{terrain: building, levels: 1}", "{terrain: woods, levels: 1}", 3, "terrain.palette[0].levels"),
        ("level: 1,", "level: 2,", 8, "units.kinds[1].level"),
    ],
)
def test_bad_scope_keys_file_line_key(old, new, line, key):
    with pytest.raises(PositionError) as e:
        scope_from_text(KINDS.replace(old, new), "kinds.yaml")
    assert (e.value.file, e.value.line, e.value.key) == ("kinds.yaml", line, key)


def test_every_input_a_scope_sets_is_produced_by_a_shipped_scope(capsys):
    # (medium aside: it repeats small's inputs with a leader and a building,
    # and enumerating its three units over two rings costs half a minute)
    names = [p.stem for p in sorted(SCOPES_DIR.glob("*.yaml")) if p.stem != "medium"]
    args = [x for n in names for x in ("--scope", n)]
    code, out, _ = run(capsys, "search", "coverage", *args, "--format", "json")
    r = json.loads(out)
    # (vb_scope/1: a search never asks Voluntary Break)
    assert code == 0 and r["never_produced"] == ["vb_scope/1"]
    rows = {x["input"]: x for x in r["inputs"]}
    # each with the scopes that produce it and the clauses that read it
    assert rows["fortification/3"]["scopes"] == ["entrenched", "features"]
    assert rows["cc_capture/1"]["scopes"] == ["combat"]
    assert any(c.startswith("prisoners/A20_22_cc_capture.lp:") for c in rows["cc_capture/1"]["read_by"])
    assert rows["reading_switch/2"]["scopes"] == ["(by the rule sets compared)"]


def test_a_clause_that_can_act_nowhere_in_the_scope_is_named(capsys):
    code, out, _ = run(
        capsys, "search", "diff", "--switch", "escape_exception_own_borders", "--scope", "tiny", "--format", "json"
    )
    r = json.loads(out)
    assert code == 0 and not r["witnesses"]
    idle = {x["clause"]: x["needs"] for x in r["idle_clauses"]}
    assert idle == {
        "prisoners/A20_55_escape.lp:28": ["status(_,in_own_country)"],
        "prisoners/A20_55_escape.lp:30": ["status(_,in_own_country)", "nationality(_,hungarian)"],
    }
    code, text, _ = run(capsys, "search", "diff", "--switch", "escape_exception_own_borders", "--scope", "tiny")
    assert "warning: prisoners/A20_55_escape.lp:28 can act nowhere in scope tiny" in text
    # a switch whose clause may act there: no such warning
    code, out, _ = run(
        capsys,
        "search",
        "diff",
        "--switch",
        "current_rout_path",
        "--scope",
        "tiny",
        "--max-positions",
        "1",
        "--format",
        "json",
    )
    assert json.loads(out)["idle_clauses"] == []


def test_the_shipped_scopes_give_a_two_unit_witness_of_escape_exception_own_borders(capsys, tmp_path):
    # --scope shipped: the shipped scopes one after another, smallest first
    # (without --scope a search walks the bounds read off the rules instead)
    _, w = one_witness(capsys, "--switch", "escape_exception_own_borders", "--scope", "shipped", "--out", str(tmp_path))
    assert w["units"] <= 2 and w["position"].startswith("escape #")
    assert all(
        c == {"switch": "escape_exception_own_borders", "rule": "A20.55"}
        for e in w["vanished"] + w["appeared"]
        for c in e["caused_by"]
    )
    assert_replayed(capsys, w, "--switch", "escape_exception_own_borders")


def test_without_scope_unconcealed_interdictor_goes_to_the_scope_with_a_concealed_unit():
    # every shipped scope smaller than `concealed` is passed over (none
    # places a concealed unit: its clause's sibling reads not
    # status(I,concealed)); `concealed` is the first one searched
    from asl_kb.committee import reach
    from asl_kb.committee.rulesets import parse_ruleset
    from asl_kb.committee.search import shipped_scopes_by_size

    a, b = parse_ruleset("current"), parse_ruleset("current", switch="unconcealed_interdictor")
    folder, changed = reach.changed(a, b)
    assert [c.where for c in changed] == ["rout/A10_53_interdiction.lp:69"]
    order = [s.name for s in shipped_scopes_by_size()]
    for scope in shipped_scopes_by_size()[: order.index("concealed") + 1]:
        idle = reach.missing(scope, folder, changed)
        # (combat holds no broken unit: no interdicts/3 either)
        assert idle == {} if scope.name == "concealed" else "status(_,concealed)" in idle[changed[0].where]


def test_a_three_unit_witness_of_unconcealed_interdictor(capsys, tmp_path):
    # the shipped scope `concealed` with a 1-hex margin: the same positions
    scope = tmp_path / "concealed.yaml"
    scope.write_text((SCOPES_DIR / "concealed.yaml").read_text().replace("margin: 7", "margin: 1"))
    assert [c.units for c in candidates(load_scope(str(scope)))] == [
        c.units for c in candidates(load_scope("concealed"))
    ]
    _, w = one_witness(capsys, "--switch", "unconcealed_interdictor", "--scope", str(scope), "--out", str(tmp_path))
    assert w["units"] == 3
    position = load_position_text(open(w["file"]).read(), w["file"])
    assert any("concealed" in u.status for u in position.units)
    assert all(
        c == {"switch": "unconcealed_interdictor", "rule": "A20.21"}
        for e in w["vanished"] + w["appeared"]
        for c in e["caused_by"]
    )
