"""asl_kb/record.py gives every record class what `@dataclass` would have
generated: for every record met in real results (a rout, a whole phase,
prisoners, positions, units, terrain), `==`, `repr` and `hash` (frozen
classes; the others unhashable) agree with a plain dataclass of the same
fields."""
import dataclasses
import itertools

import pytest

from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position
from asl_kb.record import FrozenRecord, Record

from conftest import FACTS

POSITIONS = ["rout/A10.5-EX.yaml", "phase/article-Ex6.yaml", "prisoners/A20.55-EX.yaml",
             "immediate/article-Ex8.yaml", "rout/A10.533-EX1.yaml"]


def _records(obj, seen, out):
    """Every Record reachable from obj (through fields, lists, tuples, dicts)."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Record):
        out.setdefault(type(obj), []).append(obj)
        for f in dataclasses.fields(obj):
            _records(getattr(obj, f.name), seen, out)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for x in obj:
            _records(x, seen, out)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _records(k, seen, out)
            _records(v, seen, out)


@pytest.fixture(scope="module")
def records():
    out: dict = {}
    seen: set = set()
    for name in POSITIONS:
        p = load_position(FACTS / name)
        _records(p, seen, out)
        _records(outcomes(p, phase=True, voluntary_break=True), seen, out)
    return out


def _twin(cls):
    """A plain dataclass with cls's fields and options."""
    fields = [(f.name, f.type, dataclasses.field(compare=f.compare, repr=f.repr, hash=f.hash))
              for f in dataclasses.fields(cls)]
    twin = dataclasses.make_dataclass(cls.__name__, fields, frozen=issubclass(cls, FrozenRecord))
    twin.__qualname__ = cls.__qualname__
    return lambda obj: twin(**{f.name: getattr(obj, f.name) for f in dataclasses.fields(cls)})


def test_every_kind_of_record_is_met(records):
    # the model's classes a run builds, the position's and the board's
    names = {c.__name__ for c in records}
    assert {"Because", "Fate", "UnitFates", "Outcomes", "Position", "Unit", "Turn", "WholePhase",
            "Prisoners", "Option", "Band", "Term", "ImmediateSurrender"} <= names


def test_equality_repr_and_hash_agree_with_dataclass(records):
    for cls, objs in records.items():
        twin = _twin(cls)
        sample = objs[:12]
        for a in sample:
            assert repr(a) == repr(twin(a)), cls
            assert a.__eq__(object()) is NotImplemented
            if issubclass(cls, FrozenRecord):
                assert hash(a) == hash(twin(a)), cls
            else:
                with pytest.raises(TypeError):
                    hash(a)
        for a, b in itertools.product(sample, repeat=2):
            assert (a == b) == (twin(a) == twin(b)), cls
            assert (a != b) == (twin(a) != twin(b)), cls
        a = sample[0]
        assert a == dataclasses.replace(a)


def test_frozen_exactly_when_hashable():
    # a mutable record on the hashable base (or the reverse) is refused:
    # its hash would change as its fields do
    from asl_kb.record import record
    with pytest.raises(TypeError):
        @record
        class Mutable(FrozenRecord):
            a: int
    with pytest.raises(TypeError):
        @record(frozen=True)
        class Frozen(Record):
            a: int

    @record(frozen=True)
    class Point(FrozenRecord):
        x: int
        y: int = dataclasses.field(default=0, hash=False)
    assert hash(Point(1, 2)) == hash(Point(1, 3)) and Point(1, 2) != Point(1, 3)
