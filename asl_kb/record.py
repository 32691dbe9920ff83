"""Value semantics for the position, board and result classes, written once.

For every class, `@dataclass` writes the source of its __init__, __repr__,
__eq__ and (frozen) __hash__, __setattr__ and __delattr__ and compiles each
at import: ~0.3 ms a class, 40 classes, a tenth of a command-line run on a
rulebook position. The classes here are dataclasses declared through
`record` (eq and repr off: dataclass compiles only __init__ and, frozen, the
guards against assignment) on a base that gives what dataclass would have
generated, as one function for every class:

* ``==``: an object of the very same class whose compared fields (a field's
  ``compare``) are equal, else NotImplemented;
* ``repr``: ``Name(field=value, ...)`` over the fields shown (``repr``);
* ``hash`` (frozen classes only; the others are unhashable, as with
  dataclass): the hash of the tuple of the fields hashed (a field's
  ``hash``, else its ``compare``).

tests/test_record.py compares each with what dataclass generates.
"""
from __future__ import annotations

import dataclasses
import reprlib
from operator import attrgetter
from typing import dataclass_transform

#: a class -> the getters of its compared, shown and hashed fields as
#: tuples, and the names of the shown ones (figured at first use)
_FIELDS: dict[type, tuple] = {}


def _fields(cls: type) -> tuple:
    hit = _FIELDS.get(cls)
    if hit is None:
        fields = dataclasses.fields(cls)
        compared = [f.name for f in fields if f.compare]
        shown = tuple(f.name for f in fields if f.repr)
        hashed = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
        hit = _FIELDS[cls] = (_tuple_getter(compared), _tuple_getter(shown), shown, _tuple_getter(hashed))
    return hit


def _tuple_getter(names: list[str] | tuple[str, ...]):
    """A function: object -> the tuple of these attributes (attrgetter gives
    a bare value for one name)."""
    if len(names) == 1:
        name = names[0]
        return lambda obj: (getattr(obj, name),)
    if not names:
        return lambda obj: ()
    return attrgetter(*names)


class Record:
    """Equality and repr of a dataclass declared through `record`."""
    __slots__ = ()

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            compared = _fields(self.__class__)[0]
            return compared(self) == compared(other)
        return NotImplemented

    # (a class that defines __eq__ is unhashable unless it says otherwise:
    # a mutable record, as a dataclass with eq and without frozen)
    __hash__ = None  # type: ignore[assignment]

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        _, shown, names, _ = _fields(self.__class__)
        values = ", ".join(f"{n}={v!r}" for n, v in zip(names, shown(self)))
        return f"{self.__class__.__qualname__}({values})"


class FrozenRecord(Record):
    """A frozen record: hashable, by its compared fields."""
    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]  # hashable where Record is not (as dataclass)
        return hash(_fields(self.__class__)[3](self))


@dataclass_transform()  # a type checker reads a record as the dataclass it is
def record(cls=None, /, *, frozen: bool = False, slots: bool = False):
    """`@dataclass` for a class deriving from Record (FrozenRecord when
    frozen): the same __init__, fields and frozen guards; equality, repr and
    hash from the base."""
    def wrap(c):
        # frozen exactly when hashable: a FrozenRecord's hash must not change
        if not issubclass(c, Record) or issubclass(c, FrozenRecord) != frozen:
            want = "FrozenRecord" if frozen else "Record (not FrozenRecord)"
            raise TypeError(f"{c.__qualname__}: a {'frozen ' if frozen else ''}record derives from {want}")
        return dataclasses.dataclass(c, frozen=frozen, slots=slots, eq=False, repr=False)
    return wrap if cls is None else wrap(cls)
