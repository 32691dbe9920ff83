"""Answer-set symbols read once: the one module that uses clingo's private API.

Every attribute of a `clingo.Symbol` (name, arguments, string, number, type,
hash) is a call into the C library, and the readers ask for them again and
again: a rout graph of a few thousand states asked ~10^6 of them (most of the
time of `outcomes` on an open board). `read_symbols` turns an answer set into
`ReadSymbol`s: clingo symbols (same equality, hash and order, usable wherever
a clingo.Symbol is, dict keys included) whose attributes are read from C once
per distinct symbol. clingo interns symbols, so two symbols are equal exactly
when their representations (`_rep`) are.

That fast path needs what clingo does not publish (`clingo._internal`, a
symbol's `_rep`, `Symbol`'s constructor); nothing outside this module names
them (tests/asp/test_symbols.py greps for it). One switch chooses the path:
`plain()` (or the environment variable ASL_KB_PLAIN_SYMBOLS=1) reads through
the public API only -- the symbols as clingo hands them out -- and is the
reference the fast path is compared with (tests/asp/test_symbols.py). A clingo
whose private API is not as this module expects gets the plain path, and
`fast_path_problem()` says why (a test fails on it with that reason).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from typing import Any

import clingo

_FUNCTION = clingo.SymbolType.Function
_NUMBER = clingo.SymbolType.Number
_STRING = clingo.SymbolType.String
_TYPES = {int(t.value): t for t in clingo.SymbolType}
#: the C functions the fast path calls
_C_NAMES = (
    "clingo_symbol_hash",
    "clingo_symbol_type",
    "clingo_symbol_name",
    "clingo_symbol_arguments",
    "clingo_symbol_number",
    "clingo_symbol_string",
    "clingo_error_message",
    "clingo_symbol_type_function",
)


def _probe() -> tuple[str | None, Any, Any]:
    """(why the fast path cannot run on this clingo or None, _ffi, _lib)."""
    try:
        from clingo._internal import _ffi, _lib
    except ImportError as e:
        return f"clingo {clingo.__version__} has no clingo._internal ({e})", None, None
    missing = [n for n in _C_NAMES if not hasattr(_lib, n)]
    if missing:
        return f"clingo {clingo.__version__}'s C library lacks {', '.join(missing)}", None, None
    probe = clingo.Function("f", [clingo.Number(1)])
    if not isinstance(getattr(probe, "_rep", None), int):
        return f"clingo {clingo.__version__}'s Symbol has no integer _rep", None, None
    try:
        made = clingo.Symbol(probe._rep)
    except Exception as e:  # noqa: BLE001 - any failure means: not as expected
        return f"clingo {clingo.__version__}'s Symbol(rep) fails ({e})", None, None
    if made != probe or _lib.clingo_symbol_hash(probe._rep) != hash(probe):
        return f"clingo {clingo.__version__}'s symbols no longer compare or hash by _rep", None, None
    return None, _ffi, _lib


_PROBLEM, _ffi, _lib = _probe()
#: the switch: true reads symbols through clingo's public API only
_PLAIN: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "asl_kb_plain_symbols", default=_PROBLEM is not None or os.environ.get("ASL_KB_PLAIN_SYMBOLS", "") not in ("", "0")
)


def fast_path_problem() -> str | None:
    """Why this clingo cannot take the fast path (None: it can)."""
    return _PROBLEM


def is_plain() -> bool:
    return _PLAIN.get()


@contextlib.contextmanager
def plain():
    """Inside the block, symbols are read through clingo's public API only
    (slower; the reference the fast path must equal)."""
    token = _PLAIN.set(True)
    try:
        yield
    finally:
        _PLAIN.reset(token)


def keys(symbols) -> frozenset:
    """The symbols as a set equal to another answer's exactly when the
    symbols are (clingo keeps one copy of each symbol in the process, so
    this holds whichever Control made them); `any_named` reads it."""
    if _PLAIN.get():
        return frozenset(symbols)
    return frozenset(s._rep for s in symbols)


def unseen(symbols, seen: set) -> list:
    """The symbols not in `seen` (a set of keys(): clingo keeps one copy of
    each symbol), added to it: an answer read in parts reads each once."""
    key = (lambda s: s) if _PLAIN.get() else (lambda s: s._rep)
    out = [s for s in symbols if key(s) not in seen]
    seen.update(key(s) for s in out)
    return out


# (the base is chosen at import, so mypy takes it as Any)
class ReadSymbol(clingo.Symbol if _PROBLEM is None else object):  # type: ignore[misc]
    """A clingo symbol with its attributes read once (only those of its type
    are set: `number` of a function raises AttributeError, as clingo raises
    RuntimeError)."""

    __slots__ = ("type", "name", "arguments", "number", "string", "_hash")
    _hash: int | None

    def __hash__(self) -> int:
        # (read from C when first asked: most of an answer's symbols, its
        # links and explanations, are never hashed, only their arguments)
        h = self._hash
        if h is None:
            h = self._hash = _lib.clingo_symbol_hash(self._rep)
        return h

    def __eq__(self, other: object) -> bool:
        if isinstance(other, clingo.Symbol):
            return self._rep == other._rep
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, clingo.Symbol):
            return self._rep != other._rep
        return NotImplemented


def read_symbols(symbols, memo: dict | None = None) -> list[ReadSymbol]:
    """The symbols (and, recursively, their arguments) as ReadSymbols; `memo`
    (rep -> ReadSymbol) may be shared between calls. On the plain path: the
    symbols themselves."""
    if _PLAIN.get():
        return list(symbols)
    memo = {} if memo is None else memo
    reader = _Reader(memo)
    get, new = memo.get, reader._new
    return [get(r) or new(r) for r in _reps(symbols)]


def _reps(symbols) -> list[int]:
    """The representations of `symbols`; a model's (clingo's sequence over
    its C array) read off that array, without a Symbol made for each."""
    array = getattr(symbols, "_p_symbols", None)
    if isinstance(array, _ffi.CData) and _ffi.typeof(array).item.cname == "uint64_t":
        return _ffi.unpack(array, len(array))
    return [s._rep for s in symbols]


class _Reader:
    """Reads symbols through the C API with one set of out-parameters for
    the whole answer set (clingo's own accessors allocate them per call)."""

    def __init__(self, memo: dict):
        self.memo = memo
        self.p_args = _ffi.new("clingo_symbol_t**")
        self.p_size = _ffi.new("size_t*")
        self.p_char = _ffi.new("char**")
        self.p_int = _ffi.new("int*")
        #: names by their C string: clingo keeps one copy of each name, so
        #: a name is decoded once, not once per symbol
        self.names: dict = {}

    def read(self, rep: int) -> ReadSymbol:
        out = self.memo.get(rep)
        return out if out is not None else self._new(rep)

    def _new(self, rep: int) -> ReadSymbol:
        # (each C call's success asked inline: a call of _ok each is a tenth
        # of reading an open board's answer)
        lib = _lib
        out = ReadSymbol.__new__(ReadSymbol)
        out._rep = rep
        out._hash = None
        kind = _TYPES[lib.clingo_symbol_type(rep)]
        out.type = kind
        if kind is _FUNCTION:
            if not lib.clingo_symbol_name(rep, self.p_char):
                _ok(False)
            c = self.p_char[0]
            name = self.names.get(c)
            if name is None:
                name = self.names[c] = _ffi.string(c).decode()
            out.name = name
            if not lib.clingo_symbol_arguments(rep, self.p_args, self.p_size):
                _ok(False)
            size = self.p_size[0]
            if size:
                get = self.memo.get
                # the arguments met before are most of them: looked up here,
                # not in a call each
                out.arguments = [get(r) or self._new(r) for r in self.p_args[0][0:size]]
            else:
                out.arguments = []
        elif kind is _NUMBER:
            _ok(lib.clingo_symbol_number(rep, self.p_int))
            out.number = self.p_int[0]
        elif kind is _STRING:
            _ok(lib.clingo_symbol_string(rep, self.p_char))
            out.string = _ffi.string(self.p_char[0]).decode()
        self.memo[rep] = out
        return out


def _ok(success: bool) -> None:
    if not success:
        raise RuntimeError(_ffi.string(_lib.clingo_error_message()).decode())


def any_named(keyed, name: str) -> bool:
    """Whether any of the symbols of `keyed` (made by `keys()`, on either
    path) is a function named `name`: read through the C API with one
    out-parameter on the fast path."""
    p_char: Any = _ffi.new("char**") if _PROBLEM is None else None
    want = name.encode()
    for k in keyed:
        if type(k) is int:
            if _lib.clingo_symbol_type(k) == _lib.clingo_symbol_type_function:
                _ok(_lib.clingo_symbol_name(k, p_char))
                if _ffi.string(p_char[0]) == want:
                    return True
        elif k.type is _FUNCTION and k.name == name:
            return True
    return False


def named(symbols, names) -> list:
    """The symbols that are functions named one of `names`, chosen through
    the C API before any is read (an answer may hold thousands of rout states
    a reader does not look at)."""
    if _PLAIN.get():
        wanted = set(names)
        return [s for s in symbols if s.type is _FUNCTION and s.name in wanted]
    p_char = _ffi.new("char**")
    want = {n.encode() for n in names}
    fn = _lib.clingo_symbol_type_function
    out = []
    for s in symbols:
        rep = s._rep
        if _lib.clingo_symbol_type(rep) == fn:
            _ok(_lib.clingo_symbol_name(rep, p_char))
            if _ffi.string(p_char[0]) in want:
                out.append(s)
    return out
