"""asl_kb/vasl/save.py: VASSAL's obfuscation, its command encoding and the
pieces a save adds, read as VASSAL reads them; broken saves refused."""

import zipfile

import pytest

from asl_kb.errors import SaveError
from asl_kb.vasl import save
from vasl_saves import Save, Shown, leader, marker, obfuscate, squad


@pytest.mark.parametrize(
    "tokens",
    [
        ["a", "b"],
        ["", "x", ""],
        ["a;b", "c"],  # the delimiter inside a token
        ["\\lead", "x"],  # a token starting with a backslash is quoted
        ["'quoted'", "y"],  # as is one already in quotes
        ["'", "z"],
        [""],
    ],
)
def test_split_reads_what_join_writes(tokens):
    assert save.split(save.join(tokens, ";"), ";") == tokens


def test_split_as_vassal_reads_escapes():
    # SequenceEncoder.Decoder: a delimiter after a backslash is text, an
    # empty string is one empty token, a trailing delimiter an empty token
    assert save.split("a\\;b;c", ";") == ["a;b", "c"]
    assert save.split("", ";") == [""]
    assert save.split("a;", ";") == ["a", ""]
    # (VASSAL's own quirk: a token ending in a backslash escapes the delimiter after it)
    assert save.split(save.join(["tail\\", "w"], ";"), ";") == ["tail;w"]


def test_nested_commands_flatten_in_order():
    inner = save.join(["", "+/1/t/s", "+/2/t/s"], save.ESC)
    text = save.join(["begin_save", inner, "bd\t", "end_save"], save.ESC)
    assert list(save.commands(text)) == ["begin_save", "", "+/1/t/s", "+/2/t/s", "bd\t", "end_save"]


def test_a_piece_its_traits_and_its_place(tmp_path):
    s = Save(boards="bd\t0\t0\t02\tVER\t6.4\t")
    sq, dm = s.stack(700, 800, [squad("ru", "4-4-7", Shown(broken=True, label_text="A;b/c")), marker("DM")])
    game = save.read_save(s.write(tmp_path / "g.vsav"))
    assert game.boards == "bd\t0\t0\t02\tVER\t6.4\t"
    assert game.vasl_version == "6.6.2"
    assert [st.pieces for st in game.stacks] == [(sq.id, dm.id)]
    p = next(p for p in game.pieces if p.id == sq.id)
    assert (p.map, p.x, p.y, p.name) == ("Main Map", 700, 800, "4-4-7 1sq")
    assert [t.kind for t in p.traits] == ["conceal;", "hide;", "label;", "emb2;", "emb2;"]
    assert p.of_kind("label;")[0].state == "A;b/c"  # escaped on the way in, whole on the way out
    assert p.of_kind("emb2;")[0].state == "1"


def test_plain_text_saves_read_too(tmp_path):
    s = Save()
    s.stack(10, 10, [leader("ge", "9-1")])
    path = tmp_path / "plain.vsav"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("savedGame", s.text())
    assert len(save.read_save(path).pieces) == 1


def _zip(path, data: bytes):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("savedGame", data)
    return path


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p.write_bytes(b"not a zip at all"), "not a zip file"),
        (lambda p: _zip(p, obfuscate(Save().text(), 7)[:-40]), "cut short"),
        (lambda p: _zip(p, obfuscate(Save().text(), 7)[:-1]), "not VASSAL's obfuscated text"),
        (lambda p: _zip(p, b"!VCSK" + b"3c" + obfuscate(Save().text(), 0x41)[7:]), "not a VASSAL saved game"),
        (lambda p: _zip(p, b"!VCSKzz00"), "not VASSAL's obfuscated text"),
        (lambda p: zipfile.ZipFile(p, "w").writestr("other", "x"), "no savedGame entry"),
    ],
    ids=["not-a-zip", "truncated-entry", "odd-digits", "wrong-key", "bad-key", "no-entry"],
)
def test_broken_saves_are_refused_with_the_reason(tmp_path, make, message):
    path = tmp_path / "bad.vsav"
    make(path)
    with pytest.raises(SaveError) as e:
        save.read_save(path)
    assert message in str(e.value) and str(path) in str(e.value)


def test_a_zip_cut_short_is_refused(tmp_path):
    path = Save().write(tmp_path / "g.vsav")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(SaveError, match="zip"):
        save.read_save(path)
