"""Value semantics for the position, board and result classes, written once.

A record is a class of named fields, declared as a dataclass is (`@record`
on a class of annotated fields, `field(...)` for the options), that gets
what `@dataclass` would have generated -- the same __init__ (defaults,
default factories, __post_init__), ``==``, ``repr``, and for a frozen
record ``hash`` and the guards against assignment -- but not from
`dataclasses`: that module (with `inspect`, which it imports) and the
time it spends on each class (the source of each method written and
compiled at import) cost a command-line run on a rulebook position a tenth
of its time, for ~45 classes of which a run builds a few. Here each method
is one function for every class, but __init__, compiled for each class
the first time one is built:

* ``==``: an object of the very same class whose compared fields (a field's
  ``compare``) are equal, else NotImplemented;
* ``repr``: ``Name(field=value, ...)`` over the fields shown (``repr``);
* ``hash`` (frozen records only; the others are unhashable, as with
  dataclass): the hash of the tuple of the fields hashed (a field's
  ``hash``, else its ``compare``); assigning or deleting an attribute of a
  frozen record raises FrozenInstanceError (an AttributeError).

`fields()` and `replace()` are dataclasses.fields() and dataclasses.replace()
for records. tests/report/test_record.py compares each with what dataclass generates.
"""

from __future__ import annotations

import reprlib
from functools import cache
from operator import attrgetter
from typing import Any, Callable, dataclass_transform


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


#: no default (a field without one, dataclasses.MISSING)
MISSING: Any = _Missing()


class FrozenInstanceError(AttributeError):
    """An attribute of a frozen record assigned or deleted."""


class Field:
    """A record's field: its name, its default or default factory, and whether
    it is shown (repr), compared (==) and hashed (None: as compared)."""

    __slots__ = ("name", "type", "default", "default_factory", "repr", "compare", "hash")

    def __init__(
        self,
        default=MISSING,
        default_factory=MISSING,
        repr: bool = True,  # noqa: A002
        compare: bool = True,
        hash: bool | None = None,
    ):  # noqa: A002
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare
        self.hash = hash

    def __repr__(self) -> str:
        return (
            f"Field(name={self.name!r}, default={self.default!r}, default_factory={self.default_factory!r}, "
            f"repr={self.repr}, compare={self.compare}, hash={self.hash})"
        )


def field(
    *,
    default: Any = MISSING,
    default_factory: Any = MISSING,
    repr: bool = True,  # noqa: A002
    compare: bool = True,
    hash: bool | None = None,
) -> Any:  # noqa: A002
    """A field's options, as dataclasses.field() (the options records use)."""
    return Field(default, default_factory, repr, compare, hash)


def fields(class_or_record) -> tuple[Field, ...]:
    """The fields of a record class or record, in order."""
    cls: Any = class_or_record if isinstance(class_or_record, type) else type(class_or_record)
    try:
        return cls.__record_fields__
    except AttributeError:
        raise TypeError(f"{cls.__qualname__} is not a record") from None


def replace(obj, /, **changes):
    """A new record of obj's class with obj's fields, `changes` replacing some."""
    for f in type(obj).__record_fields__:
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)


def _figure_fields(cls: type) -> tuple:
    """A class -> the getters of its compared, shown and hashed fields as
    tuples, and the names of the shown ones."""
    fs = fields(cls)
    compared = [f.name for f in fs if f.compare]
    shown = tuple(f.name for f in fs if f.repr)
    hashed = [f.name for f in fs if (f.compare if f.hash is None else f.hash)]
    return (_tuple_getter(compared), _tuple_getter(shown), shown, _tuple_getter(hashed))


#: _figure_fields, figured at a class's first use (typed as taking a class:
#: mypy reads a record class, whose records are unhashable, as unhashable)
_fields: Callable[[type], tuple] = cache(_figure_fields)


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
    """Equality and repr of a class declared through `record`."""

    __slots__ = ()
    __record_fields__: tuple[Field, ...] = ()

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
    """A frozen record: hashable, by its hashed fields; its fields set once,
    by __init__ (and a copy's or an unpickled one's, by __setstate__)."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]  # hashable where Record is not (as dataclass)
        return hash(_fields(self.__class__)[3](self))

    def __setattr__(self, name: str, value) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self):
        return [getattr(self, f.name) for f in self.__record_fields__]

    def __setstate__(self, state) -> None:
        # (a mapping: the state Python's default pickling keeps of an object)
        pairs = state.items() if isinstance(state, dict) else zip((f.name for f in self.__record_fields__), state)
        for name, value in pairs:
            object.__setattr__(self, name, value)


@dataclass_transform(field_specifiers=(field,))  # a type checker reads a record as a dataclass
def record(cls=None, /, *, frozen: bool = False, slots: bool = False):
    """`@dataclass` for a class deriving from Record (FrozenRecord when
    frozen): its fields, in order, from its annotations; __init__ as
    dataclass writes it; with `slots`, a class with __slots__ (no __dict__)."""

    def wrap(c):
        # frozen exactly when hashable: a FrozenRecord's hash must not change
        if not issubclass(c, Record) or issubclass(c, FrozenRecord) != frozen:
            want = "FrozenRecord" if frozen else "Record (not FrozenRecord)"
            raise TypeError(f"{c.__qualname__}: a {'frozen ' if frozen else ''}record derives from {want}")
        return _make(c, slots)

    return wrap if cls is None else wrap(cls)


def _make(cls: Any, slots: bool) -> type:
    own = []
    seen_default = False
    for name, kind in cls.__dict__.get("__annotations__", {}).items():
        if "ClassVar" in str(kind) or "InitVar" in str(kind):
            raise TypeError(f"{cls.__qualname__}.{name}: a record has no ClassVar or InitVar fields")
        value = cls.__dict__.get(name, MISSING)
        f = value if isinstance(value, Field) else Field(default=value)
        f.name, f.type = name, kind
        if f.default is not MISSING and type(f.default).__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default argument {name!r} follows default argument")
        seen_default = seen_default or has_default
        if isinstance(value, Field):
            # the class attribute is the default, as dataclass leaves it
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        own.append(f)
    inherited = tuple(f for base in reversed(cls.__mro__[1:]) for f in base.__dict__.get("__record_fields__", ()))
    every = inherited + tuple(own)
    if slots:
        body = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
        for f in every:
            body.pop(f.name, None)
        body["__slots__"] = tuple(f.name for f in own)
        qualname = cls.__qualname__
        cls = type(cls)(cls.__name__, cls.__bases__, body)
        cls.__qualname__ = qualname
    cls.__record_fields__ = every
    if "__init__" not in cls.__dict__:
        cls.__init__ = _first_init(cls)
    return cls


def _first_init(cls: Any):
    """An __init__ that compiles the class's own __init__ (the first time one
    of its records is built), puts it in its place and runs it."""

    def __init__(self, *args, **kwargs):
        init = _compile_init(cls)
        cls.__init__ = init
        init(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _compile_init(cls: Any):
    """The source dataclass would write for the class's __init__, compiled:
    each field an argument (its default, or a marker standing for its
    default factory), set in order (object.__setattr__ on a frozen record),
    then __post_init__ where the class has one."""
    frozen = issubclass(cls, FrozenRecord)
    env: dict[str, Any] = {"_MISSING": MISSING, "_set": object.__setattr__}
    args, body = [], []
    for i, f in enumerate(cls.__record_fields__):
        value = f.name
        if f.default_factory is not MISSING:
            env[f"_factory{i}"] = f.default_factory
            args.append(f"{f.name}=_MISSING")
            value = f"_factory{i}() if {f.name} is _MISSING else {f.name}"
        elif f.default is not MISSING:
            env[f"_default{i}"] = f.default
            args.append(f"{f.name}=_default{i}")
        else:
            args.append(f.name)
        body.append(f"_set(self, {f.name!r}, {value})" if frozen else f"self.{f.name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    src = f"def __init__(self, {', '.join(args)}):\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    ns: dict[str, Any] = {}
    exec(compile(src, f"<record {cls.__qualname__}>", "exec"), env, ns)
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init
