"""asl_kb/collector.py: the cyclic garbage collector paused while one answer
is figured, and back as it was."""

from pathlib import Path
import sys

from asl_kb.position.loader import load_position, load_position_text
from asl_kb.resources import cases_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
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


def test_overlapping_pauses_end_with_the_last():
    """Two blocks under way (threads of a Dask worker, or the CLI around
    outcomes()): the collector stays off until the last ends, then is as it
    was before the first, on or off."""
    import gc
    from asl_kb.collector import paused

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
