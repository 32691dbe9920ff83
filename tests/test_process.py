"""asl_kb/process.py: the process machinery behind one switch. The
cyclic garbage collector paused while one answer is figured, and back as it
was; a one-position command's process ended without Python's teardown; and
the same answers, byte for byte and exit status, with the switch off (the
plain path: ASL_KB_PLAIN=1)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from asl_kb.position.loader import load_position, load_position_text
from asl_kb.resources import cases_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from generate import generate_position  # noqa: E402


def test_outcomes_leave_no_cyclic_garbage_and_the_collector_as_it_was():
    """outcomes() runs with Python's cyclic garbage collector off (and the CLI
    runs so for one position): that is safe only while a run leaves no cycles
    behind for it to collect. And the collector is back as it was."""
    import gc
    from asl_kb.engines.outcomes import outcomes

    positions = [
        load_position(cases_dir() / "rout" / "A20.21-surrender.yaml"),
        load_position_text(generate_position(1, 10, 0, spread=True), "spread"),
    ]
    for p in positions:
        outcomes(p, phase=True)  # module caches filled
    gc.collect()
    was = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for p in positions:
            result = outcomes(p, phase=True)
            assert result.units and gc.isenabled()
            del result
            gc.collect()
            assert gc.garbage == [], p.name
    finally:
        gc.set_debug(was)
        gc.garbage.clear()
    gc.disable()
    try:
        outcomes(positions[0])
        assert not gc.isenabled()
    finally:
        gc.enable()
    import contextlib
    import io
    from asl_kb.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["outcomes", str(cases_dir() / "rout" / "A20.21-surrender.yaml"), "--format", "json"]) == 0
    assert gc.isenabled()  # the CLI's pause (one position) ends with it


def test_a_pause_with_the_switch_off_leaves_the_collector_alone(monkeypatch):
    import gc
    from asl_kb import process

    monkeypatch.setattr(process, "QUICK", False)
    with process.paused():
        assert gc.isenabled()


def test_overlapping_pauses_end_with_the_last():
    """Two blocks under way (threads of a Dask worker, or the CLI around
    outcomes()): the collector stays off until the last ends, then is as it
    was before the first, on or off."""
    import gc
    from asl_kb.process import paused

    for before in (True, False):
        (gc.enable if before else gc.disable)()
        try:
            outer = paused()
            outer.__enter__()
            with paused():
                assert not gc.isenabled()
            assert not gc.isenabled()
            outer.__exit__(None, None, None)
            assert gc.isenabled() is before
        finally:
            gc.enable()


ROOT = Path(__file__).resolve().parents[1]
POSITION = cases_dir() / "rout" / "A10.5-EX.yaml"


@pytest.mark.parametrize(
    "argv",
    [
        ["outcomes", str(POSITION), "--format", "json", "--phase"],
        ["why-not", str(POSITION), "R1", "rout", "5K3"],
    ],
    ids=["outcomes", "why-not"],
)
def test_the_plain_path_answers_the_same(argv):
    """The `asl-kb` process with the machinery on and off: the same standard
    output, standard error and exit status (JSON; text and a `no`)."""
    runs = []
    for plain in ("0", "1"):
        env = {**os.environ, "ASL_KB_PLAIN": plain}
        runs.append(subprocess.run([sys.executable, "-m", "asl_kb", *argv], capture_output=True, env=env, cwd=ROOT))
    quick, slow = runs
    assert (quick.returncode, quick.stdout, quick.stderr) == (slow.returncode, slow.stdout, slow.stderr)
    assert quick.stdout or quick.stderr
