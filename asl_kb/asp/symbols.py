"""Answer-set symbols read once.

Every attribute of a `clingo.Symbol` (name, arguments, string, number, type,
hash) is a call into the C library, and the readers ask for them again and
again: a rout graph of a few thousand states asked ~10^6 of them (most of the
time of `outcomes` on an open board). `read_symbols` turns an answer set into
`ReadSymbol`s: clingo symbols (same equality, hash and order, usable wherever
a clingo.Symbol is, dict keys included) whose attributes are read from C once
per distinct symbol. clingo interns symbols, so two symbols are equal exactly
when their representations (`_rep`) are.
"""
from __future__ import annotations

import clingo
from clingo._internal import _ffi, _lib

_FUNCTION = clingo.SymbolType.Function
_NUMBER = clingo.SymbolType.Number
_STRING = clingo.SymbolType.String
_TYPES = {int(t.value): t for t in clingo.SymbolType}


class ReadSymbol(clingo.Symbol):
    """A clingo symbol with its attributes read once (only those of its type
    are set: `number` of a function raises AttributeError, as clingo raises
    RuntimeError)."""

    __slots__ = ("type", "name", "arguments", "number", "string", "_hash")

    def __hash__(self) -> int:
        return self._hash

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
    (rep -> ReadSymbol) may be shared between calls."""
    memo = {} if memo is None else memo
    reader = _Reader(memo)
    read = reader.read
    return [read(s._rep) for s in symbols]


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
        out = ReadSymbol.__new__(ReadSymbol)
        out._rep = rep
        out._hash = _lib.clingo_symbol_hash(rep)
        kind = _TYPES[_lib.clingo_symbol_type(rep)]
        out.type = kind
        if kind is _FUNCTION:
            _ok(_lib.clingo_symbol_name(rep, self.p_char))
            c = self.p_char[0]
            name = self.names.get(c)
            if name is None:
                name = self.names[c] = _ffi.string(c).decode()
            out.name = name
            _ok(_lib.clingo_symbol_arguments(rep, self.p_args, self.p_size))
            size = self.p_size[0]
            if size:
                get = self.memo.get
                # the arguments met before are most of them: looked up here,
                # not in a call each
                out.arguments = [get(r) or self._new(r) for r in self.p_args[0][0:size]]
            else:
                out.arguments = []
        elif kind is _NUMBER:
            _ok(_lib.clingo_symbol_number(rep, self.p_int))
            out.number = self.p_int[0]
        elif kind is _STRING:
            _ok(_lib.clingo_symbol_string(rep, self.p_char))
            out.string = _ffi.string(self.p_char[0]).decode()
        self.memo[rep] = out
        return out


def _ok(success: bool) -> None:
    if not success:
        raise RuntimeError(_ffi.string(_lib.clingo_error_message()).decode())


def any_named(reps, name: str) -> bool:
    """Whether any of the symbols (as representations, `Symbol._rep`) is a
    function named `name`: read through the C API with one out-parameter."""
    p_char = _ffi.new("char**")
    want = name.encode()
    for rep in reps:
        if _lib.clingo_symbol_type(rep) == _lib.clingo_symbol_type_function:
            _ok(_lib.clingo_symbol_name(rep, p_char))
            if _ffi.string(p_char[0]) == want:
                return True
    return False


def named(symbols, names) -> list:
    """The symbols that are functions named one of `names`, chosen through
    the C API before any is read (an answer may hold thousands of rout states
    a reader does not look at)."""
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

