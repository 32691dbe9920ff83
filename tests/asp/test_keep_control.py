"""A one-position CLI run keeps its last small clingo Control until it ends
(asl_kb/asp/control.py keep_the_last): never two at once, never a large one,
never one that did not answer."""

import gc
import weakref

from asl_kb.asp import control


class _Ctl:
    """Stands for a Control (weakly referable, to see when it is let go)."""


def test_the_last_small_control_that_answered_is_kept_until_the_next(monkeypatch):
    monkeypatch.setattr(control, "_LAST", None)
    control.keep_the_last()
    first, large = _Ctl(), _Ctl()
    control.answered(first, 5000)
    seen = weakref.ref(first)
    del first
    gc.collect()
    assert seen() is not None  # kept
    control.answered(large, control.KEEP_AT_MOST + 1)
    assert control._LAST == [seen()]  # a large one is not
    control.new_control("position.lp")
    gc.collect()
    assert seen() is None and control._LAST == []  # let go when the next is built


def test_nothing_is_kept_unless_asked(monkeypatch):
    monkeypatch.setattr(control, "_LAST", None)
    ctl = _Ctl()
    control.answered(ctl, 10)
    assert control._LAST is None


def test_a_one_position_run_reads_its_programs_ahead(monkeypatch):
    # (asl_kb/asp/control.py read_ahead): the Controls read in a thread are
    # the ones new_control hands out, in any order asked, and answer as one
    # read when asked; under another rules folder nothing is read ahead
    from asl_kb.asp.facts import position_facts
    from asl_kb.asp.solve import ground_stages
    from asl_kb.position.loader import load_position
    from asl_kb.resources import cases_dir, rules_dir

    facts = position_facts(load_position(cases_dir() / "rout/A10.5-EX.yaml"))

    def shown(ctl):
        ground_stages(ctl)
        got = []
        ctl.solve(on_model=lambda m: got.extend(m.symbols(shown=True)))
        return sorted(got)

    monkeypatch.setattr(control, "_LOADED", set())
    monkeypatch.setattr(control, "_AHEAD", {})
    control.read_ahead(("position.lp", "rout.lp"))
    ahead = {key: box for key, (_, box) in control._AHEAD.items()}
    assert sorted(ahead) == [str(rules_dir() / "position.lp"), str(rules_dir() / "rout.lp")]
    ctl = control.new_control("rout.lp", facts)
    assert ahead[str(rules_dir() / "rout.lp")] == [ctl] and list(control._AHEAD) == [str(rules_dir() / "position.lp")]
    read_here = control.new_control("rout.lp", facts)  # (a second Control: its statements added)
    assert shown(ctl) == shown(read_here) != []
    monkeypatch.setattr(control, "_LOADED", set())
    monkeypatch.setattr(control, "_AHEAD", {})
    with control.using_rules(rules_dir()):
        control.read_ahead(("rout.lp",))
    assert control._AHEAD == {}
