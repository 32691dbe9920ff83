"""asl_kb/asp/symbols.py: symbols read from C once behave as clingo's own
(equality, hash, order, attributes), so every reader may use them."""
import clingo

from asl_kb.asp.facts import position_facts
from asl_kb.asp.solve import solve
from asl_kb.asp.symbols import ReadSymbol, read_symbols
from asl_kb.engines.outcomes import canonical
from asl_kb.position.loader import load_position
from asl_kb.resources import cases_dir


def _same(read, sym):
    assert isinstance(read, ReadSymbol)
    assert read == sym and sym == read and not (read != sym) and hash(read) == hash(sym)
    assert read.type == sym.type and str(read) == str(sym)
    if sym.type == clingo.SymbolType.Function:
        assert read.name == sym.name and len(read.arguments) == len(sym.arguments)
        for a, b in zip(read.arguments, sym.arguments):
            _same(a, b)
    elif sym.type == clingo.SymbolType.Number:
        assert read.number == sym.number
    elif sym.type == clingo.SymbolType.String:
        assert read.string == sym.string


def test_read_symbols_are_clingos_symbols():
    position = canonical(load_position(cases_dir() / "rout" / "A10.533-EX1.yaml"))
    symbols, _ = solve(position_facts(position))
    read = read_symbols(symbols)
    assert len(read) == len(symbols)
    for a, b in zip(read, symbols):
        _same(a, b)
    # clingo's order, and usable as keys of a dict of clingo symbols
    assert [str(s) for s in sorted(read)] == [str(s) for s in sorted(symbols)]
    table = {s: i for i, s in enumerate(symbols)}
    assert [table[s] for s in read] == list(range(len(symbols)))
    # one object per distinct symbol
    memo: dict = {}
    assert read_symbols(symbols[:1], memo)[0] is read_symbols(symbols[:1], memo)[0]
    # mixed kinds: numbers, strings, negative and nullary functions, tuples
    mixed = [clingo.Number(-3), clingo.String("x"), clingo.Function("a", [], False),
             clingo.Function("", [clingo.Number(1), clingo.String("y")]), clingo.Infimum, clingo.Supremum]
    for a, b in zip(read_symbols(mixed), mixed):
        _same(a, b)
