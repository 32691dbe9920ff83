"""asl_kb/vasl/pieces.py: a piece's identity (nationality, kind, printed
values) and its own status read from its traits, as VASL's module builds
its counters."""

from asl_kb.vasl import pieces
from asl_kb.vasl.save import read_save
from vasl_saves import (
    Save,
    Shown,
    building_level,
    concealment,
    layer,
    leader,
    marker,
    P,
    conceal,
    phase_track,
    squad,
    support_weapon,
    unknown,
    vehicle,
)


def _identify(tmp_path, *made):
    s = Save()
    s.stack(100, 100, list(made))
    game = read_save(s.write(tmp_path / "g.vsav"))
    by_id = {p.id: p for p in game.pieces}
    return [pieces.identify(by_id[m.id]) for m in made]


def test_squads_half_squads_and_leaders(tmp_path):
    sq, hs, bsq, ldr, bldr = _identify(
        tmp_path,
        squad("ru", "4-4-7"),
        squad("ge", "2-4-7", half=True, cls="E"),
        squad("ru", "5-2-7", Shown(broken=True)),
        leader("ge", "9-1"),
        leader("ru", "6+1", broken=True),
    )
    assert (sq.kind, sq.nation, sq.values, sq.unit_class, sq.status) == ("squad", "ru", "4-4-7", "first_line", ())
    assert (hs.kind, hs.values, hs.unit_class) == ("half_squad", "2-4-7", "elite")
    assert (bsq.kind, bsq.values, bsq.status) == ("squad", "5-2-7", ("broken",))
    assert (ldr.kind, ldr.nation, ldr.values, ldr.status) == ("leader", "ge", "9-1", ())
    assert (bldr.values, bldr.status) == ("6+1", ("broken",))


def test_the_active_layer_not_the_palette_name(tmp_path):
    # a squad drawn as a 6-2-8 that ELR replaced: its palette name stays
    face = layer(["ru/ru628S", "ru/ru527S"], ["6-2-8 Esq", "5-2-7 1sq"], 2)
    (c,) = _identify(tmp_path, P([conceal("ru"), face], " ", "6-2-8 Esq"))
    assert (c.values, c.unit_class) == ("5-2-7", "first_line")


def test_a_counter_read_from_its_image_and_its_broken_side(tmp_path):
    brk = layer(["ru/ruc9b"], ["broken +"], 1, "BRK")
    (crew,) = _identify(tmp_path, P([conceal("ru"), brk], "ru/ru228C", "2-2-8 Icr"))
    assert (crew.kind, crew.values, crew.status) == ("crew", "2-2-8", ("broken",))
    hero_layer = layer(["ge/geHero", "ge/geHerob"], ["", ""], 2)
    (hero,) = _identify(tmp_path, P([conceal("ge"), hero_layer], " ", "Hero"))
    assert (hero.kind, hero.values, hero.status) == ("hero", "1-4-9", ("broken",))


def test_concealed_hidden_and_labelled(tmp_path):
    con, hid, lab = _identify(
        tmp_path,
        squad("ge", "4-6-7", Shown(concealed=True)),
        squad("ru", "4-4-7", Shown(hidden=True)),
        squad("am", "6-6-6", Shown(label_text="Able 1")),
    )
    assert con.status == ("concealed",) and hid.status == ("hidden",)
    assert lab.label == "Able 1" and con.label is None


def test_markers_levels_sw_vehicles_and_the_rest(tmp_path):
    dm, cx, pin, lvl, q, sw, tank, track, mystery, other = _identify(
        tmp_path,
        marker("DM"),
        marker("CX"),
        marker("Pin"),
        building_level(2),
        concealment("ge"),
        support_weapon("ge", "LMG"),
        vehicle("ru", "T-34 M43", "t3443"),
        phase_track("Allied", "RtPh"),
        unknown("ru"),
        P([], "ML/Fox1", "Foxhole"),
    )
    assert [m.status for m in (dm, cx, pin)] == [("dm",), ("cx",), ("pinned",)]
    assert (lvl.kind, lvl.level) == ("level", 2)
    assert (q.kind, q.nation) == ("concealment", "ge")
    assert (sw.kind, sw.values, sw.nation) == ("sw", "lmg", "ge")
    assert (tank.kind, tank.values, tank.nation) == ("vehicle", "T-34 M43", "ru")
    assert track.kind == "phase"
    assert mystery.kind == "unknown" and "ru/ruMystery" in mystery.why
    assert other.kind == "other" and not other.is_unit


def test_ss_counters_among_the_german_ones(tmp_path):
    # an SS squad drawn from its image (VASL's suffix s), an SS half-squad from its level name
    by_image = P([conceal("ge"), layer(["ge/ge658Ss.gif"], [""], 1)], " ", "6-5-8 SSsq")
    by_name = P([conceal("ge"), layer(["ge/ge338Hs"], ["3-3-8 SShs"], 1)], " ", "3-3-8 SShs")
    sq, hs = _identify(tmp_path, by_image, by_name)
    assert (sq.nation, sq.kind, sq.values, sq.unit_class) == ("ss", "squad", "6-5-8", "elite")
    assert (hs.nation, hs.kind, hs.values) == ("ss", "half_squad", "3-3-8")
