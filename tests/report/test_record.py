"""asl_kb/record.py gives every record class what `@dataclass` would have
generated: for every record met in real results (a rout, a whole phase,
prisoners, positions, units, terrain), `==`, `repr` and `hash` (frozen
classes; the others unhashable) agree with a plain dataclass of the same
fields; and __init__ (defaults, factories, __post_init__), the frozen guards,
replace(), copies and pickles behave as a dataclass's."""

import copy
import dataclasses
import itertools
import pickle

import pytest

from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position
from asl_kb import record as rec
from asl_kb.record import FrozenRecord, Record

from conftest import FACTS

POSITIONS = [
    "rout/A10.5-EX.yaml",
    "phase/article-Ex6.yaml",
    "prisoners/A20.55-EX.yaml",
    "immediate/article-Ex8.yaml",
    "rout/A10.533-EX1.yaml",
]


def _records(obj, seen, out):
    """Every Record reachable from obj (through fields, lists, tuples, dicts)."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Record):
        out.setdefault(type(obj), []).append(obj)
        for f in rec.fields(obj):
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
    fields = [(f.name, f.type, dataclasses.field(compare=f.compare, repr=f.repr, hash=f.hash)) for f in rec.fields(cls)]
    twin = dataclasses.make_dataclass(cls.__name__, fields, frozen=issubclass(cls, FrozenRecord))
    twin.__qualname__ = cls.__qualname__
    return lambda obj: twin(**{f.name: getattr(obj, f.name) for f in rec.fields(cls)})


def test_every_kind_of_record_is_met(records):
    # the model's classes a run builds, the position's and the board's
    names = {c.__name__ for c in records}
    assert {
        "Because",
        "Fate",
        "UnitFates",
        "Outcomes",
        "Position",
        "Unit",
        "Turn",
        "WholePhase",
        "Prisoners",
        "Option",
        "Band",
        "Term",
        "ImmediateSurrender",
    } <= names


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
        assert a == rec.replace(a)
        # a copy, a deep copy and a pickled one are equal records of the class
        for b in (copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
            assert type(b) is cls and b is not a and rec.replace(b) == a == b


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
        y: int = rec.field(default=0, hash=False)

    assert hash(Point(1, 2)) == hash(Point(1, 3)) and Point(1, 2) != Point(1, 3)


def _pair(frozen: bool, slots: bool):
    """A record class and the dataclass of the same fields and options."""
    base = FrozenRecord if frozen else Record

    def body(field):
        class C(base):
            """A record."""

            a: int
            b: str = "b"
            c: tuple = ()
            d: list = field(default_factory=list)
            e: dict = field(default_factory=dict, repr=False, compare=False)

            def __post_init__(self):
                if self.a < 0:
                    raise ValueError("a < 0")

        return C

    mine = rec.record(body(rec.field), frozen=frozen, slots=slots)
    theirs = dataclasses.dataclass(body(dataclasses.field), frozen=frozen, slots=slots, eq=False, repr=False)
    return mine, theirs


@pytest.mark.parametrize("frozen,slots", list(itertools.product((False, True), repeat=2)))
def test_init_and_guards_agree_with_dataclass(frozen, slots):
    mine, theirs = _pair(frozen, slots)
    assert [f.name for f in rec.fields(mine)] == [f.name for f in dataclasses.fields(theirs)]
    for args, kwargs in [((1,), {}), ((1, "x", (2,), [3]), {"e": {4: 5}}), ((), {"a": 2, "d": [1]})]:
        m, t = mine(*args, **kwargs), theirs(*args, **kwargs)
        assert [getattr(m, f.name) for f in rec.fields(mine)] == [
            getattr(t, f.name) for f in dataclasses.fields(theirs)
        ]
    # each record its own default list; __post_init__ runs; the same errors
    assert mine(1).d is not mine(1).d
    for args, kwargs, error in [
        ((-1,), {}, ValueError),
        ((), {}, TypeError),
        ((1,), {"z": 1}, TypeError),
        ((1, "b", (), [], {}, 6), {}, TypeError),
        ((1,), {"a": 1}, TypeError),
    ]:
        with pytest.raises(error):
            theirs(*args, **kwargs)
        with pytest.raises(error):
            mine(*args, **kwargs)
    m = mine(1)
    assert hasattr(m, "__dict__") == hasattr(theirs(1), "__dict__") == (not slots)
    if frozen:
        with pytest.raises(rec.FrozenInstanceError):
            m.a = 2
        with pytest.raises(AttributeError):
            del m.b
        assert m.a == 1 and m == mine(1)
    else:
        m.a = 2
        assert m == mine(2) and m != mine(1)
    # replace: the fields not named are the same objects (a shallow copy)
    assert rec.replace(m, b="y") == mine(m.a, "y") and rec.replace(m, b="y").d is m.d
    t = theirs(1)
    assert dataclasses.replace(t, b="y").d is t.d


def test_a_record_is_declared_as_a_dataclass_is():
    with pytest.raises(TypeError):  # a field without a default after one with

        @rec.record
        class Order(Record):
            a: int = 0
            b: int

    with pytest.raises(ValueError):  # a mutable default shared by every record

        @rec.record
        class Shared(Record):
            a: list = []  # noqa: RUF012
