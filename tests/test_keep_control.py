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
    assert seen() is not None           # kept
    control.answered(large, control.KEEP_AT_MOST + 1)
    assert control._LAST == [seen()]   # a large one is not
    control.new_control("position.lp")
    gc.collect()
    assert seen() is None and control._LAST == []     # let go when the next is built


def test_nothing_is_kept_unless_asked(monkeypatch):
    monkeypatch.setattr(control, "_LAST", None)
    ctl = _Ctl()
    control.answered(ctl, 10)
    assert control._LAST is None
