"""How a one-position run ends its answer cheaply: its JSON written as
bytes (cli._write), the JSON of shared parts made once (model/rout.py), and
the fates no whole-phase rule reads listed rather than keyed
(graph.merged_info)."""

import io
import json
import subprocess
import sys
from types import SimpleNamespace

from asl_kb import cli
from asl_kb.engines.graph import _UNREAD, FateInfo, merged_info
from asl_kb.model.common import Because
from asl_kb.model.rout import Fate, Interdiction, Odds, PinnedAt


def test_the_cli_answer_is_the_same_text_as_bytes_or_text(monkeypatch):
    """Bytes go to standard output's buffer after the text written before
    them; an output without a buffer gets the text."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", out)
    cli._write("first ")
    cli._write("Überlebt\n".encode())
    out.flush()
    assert raw.getvalue().decode() == "first Überlebt\n"
    plain = io.StringIO()
    monkeypatch.setattr(sys, "stdout", plain)
    cli._write("a ")
    cli._write("b\n".encode())
    assert plain.getvalue() == "a b\n"


def test_a_one_position_run_writes_its_json_whole(tmp_path):
    """The command itself (cli.run: the process ends at its answer, the JSON
    written as bytes): the same answer as to_json in this process."""
    from asl_kb.engines.outcomes import outcomes
    from asl_kb.position.loader import load_position
    from asl_kb.report.render import to_json
    from asl_kb.resources import cases_dir

    path = cases_dir() / "rout" / "A10.5-EX.yaml"
    got = subprocess.run(
        [sys.executable, "-m", "asl_kb", "outcomes", str(path), "--format", "json"], capture_output=True, check=True
    ).stdout.decode()
    assert got == to_json(outcomes(load_position(path)))
    assert json.loads(got)["units"]


def test_shared_parts_are_written_once_and_alike():
    """Two fates naming the same Interdiction, line and chances: the JSON is
    what each part's own to_json says, and each part's JSON is made once."""
    i = Interdiction("C3", ("G1",))
    b = Because("A10.53", "Interdiction NMC in C3", "interdicted")
    pin = PinnedAt("C3", 11)
    fates = [
        Fate("rout", at, False, ["B2", "C3", at], [i], [], [b], odds=Odds(1, 20, 3, [pin], 2, of=36))
        for at in ("D4", "D5")
    ]
    memo: dict = {}
    one, two = (f.to_json(memo) for f in fates)
    assert one["interdiction"] == [i.to_json()] and one["because"] == [b.to_json()]
    assert one["odds"] == fates[0].odds.to_json()
    assert one["odds"]["pinned"] == [{"at": "C3", "chance": "11/36", "percent": 30.6}]
    assert one["interdiction"][0] is two["interdiction"][0] and one["because"][0] is two["because"][0]
    assert one["odds"]["intact"] is two["odds"]["intact"]
    assert one["at"] == "D4" and two["at"] == "D5"


def test_merged_info_reads_the_later_world_first_unread_fates_included():
    """As {**g1.info, **g.info} did when every fate was keyed: a fate the
    later world lists unread is unread, whatever the earlier said."""
    read = FateInfo(True, frozenset({"A20.21"}))
    earlier = SimpleNamespace(info={("U1", "k"): read, ("U1", "j"): read}, unread=[("U1", "u")])
    later = SimpleNamespace(info={("U1", "m"): read}, unread=[("U1", "k"), ("U1", "m")])
    assert merged_info(earlier, later) == {
        ("U1", "k"): _UNREAD,
        ("U1", "j"): read,
        ("U1", "u"): _UNREAD,
        ("U1", "m"): read,
    }
