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
from clingo._internal import _lib

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
    return [_read(s, memo) for s in symbols]


def _read(sym: clingo.Symbol, memo: dict) -> ReadSymbol:
    rep = sym._rep
    out = memo.get(rep)
    if out is not None:
        return out
    out = ReadSymbol.__new__(ReadSymbol)
    out._rep = rep
    out._hash = _lib.clingo_symbol_hash(rep)
    kind = _TYPES[_lib.clingo_symbol_type(rep)]
    out.type = kind
    if kind is _FUNCTION:
        out.name = clingo.Symbol.name.fget(sym)
        out.arguments = [_read(a, memo) for a in clingo.Symbol.arguments.fget(sym)]
    elif kind is _NUMBER:
        out.number = clingo.Symbol.number.fget(sym)
    elif kind is _STRING:
        out.string = clingo.Symbol.string.fget(sym)
    memo[rep] = out
    return out
