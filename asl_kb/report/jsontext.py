"""`indented(obj)`: the very text of `json.dumps(obj, indent=2,
ensure_ascii=False)`, written faster.

With `indent` the standard library uses its pure-Python encoder (the C one
only writes compact JSON), a generator per container and a yield per token:
an all-open board's megabytes of fates spent half its run there. This writer
builds the same text with one join per container and the C string escaper
(`json.encoder.encode_basestring`, as the standard encoder uses), so the
output is byte-identical (tests/report/test_jsontext.py compares the two).

A part already written (`Written`: its text as at the top level, e.g. by
orjson) is put in at its place, each of its lines indented to the depth
there: a JSON text has no line break but between its tokens."""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any, cast

__all__ = ["Written", "indented", "orjson_alike"]


class Written(str):
    """A value's JSON text, written as `indented` writes it at the top level."""

    __slots__ = ()


_INF = float("inf")


def _float(o: float) -> str:
    # as json.encoder's floatstr (allow_nan=True)
    if o != o:
        return "NaN"
    if o == _INF:
        return "Infinity"
    if o == -_INF:
        return "-Infinity"
    return float.__repr__(o)


def _key(k) -> str:
    # as json.encoder's key coercion (skipkeys=False): a string as itself,
    # a number, true, false or null as the string of its JSON
    if isinstance(k, str):
        return encode_basestring(k)
    if k is None or isinstance(k, (int, float)):
        return '"' + cast(str, _scalar(k)) + '"'  # (a scalar's JSON is a str)
    raise TypeError(f"keys must be str, int, float, bool or None, not {k.__class__.__name__}")


def _scalar(o) -> str | None:
    """The JSON of a scalar, None when `o` is a container."""
    if isinstance(o, str):
        return encode_basestring(o)
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        return _float(o)
    if isinstance(o, (list, tuple, dict)):
        return None
    # as the standard encoder's default(): not serializable
    return json.dumps(o)


#: the exact-type fast path of _scalar (subclasses take the isinstance way)
_FAST: dict[type, Callable[[Any], str]] = {
    str: encode_basestring,
    type(None): lambda o: "null",
    bool: lambda o: "true" if o else "false",
    int: int.__repr__,
    float: _float,
}
#: the indents of the first 64 depths (deeper ones made as met)
_INDENTS = tuple("\n" + "  " * n for n in range(64))


def _value(o, depth: int) -> str:
    cls = o.__class__
    f = _FAST.get(cls)
    if f is not None:
        return f(o)
    if cls is Written:
        return o.replace("\n", "\n" + "  " * depth) if depth else str(o)
    if cls is not dict and cls is not list:
        s = _scalar(o)
        if s is not None:
            return s
    if depth + 1 < len(_INDENTS):
        inner, outer = _INDENTS[depth + 1], _INDENTS[depth]
    else:
        inner, outer = "\n" + "  " * (depth + 1), "\n" + "  " * depth
    fast, d1 = _FAST, depth + 1
    if isinstance(o, dict):
        if not o:
            return "{}"
        parts = []
        for k, v in o.items():
            f = fast.get(v.__class__)
            kk = encode_basestring(k) if k.__class__ is str else _key(k)
            parts.append(kk + ": " + (f(v) if f is not None else _value(v, d1)))
        return "{" + inner + ("," + inner).join(parts) + outer + "}"
    if not o:
        return "[]"
    parts = [fast[v.__class__](v) if v.__class__ in fast else _value(v, d1) for v in o]
    return "[" + inner + ("," + inner).join(parts) + outer + "]"


def indented(obj) -> str:
    """json.dumps(obj, indent=2, ensure_ascii=False), byte for byte."""
    return _value(obj, 0)


#: the ints orjson writes (64 bits, signed or not)
_INT_RANGE = range(-(1 << 63), 1 << 64)


def orjson_alike(o) -> bool:
    """Whether orjson's indented text of `o` (OPT_INDENT_2) is json.dumps's
    (indent=2, ensure_ascii=False): only dicts with string keys, lists,
    tuples, strings, booleans, None, ints of 64 bits and floats json.dumps
    writes without an exponent (0, or from 1e-4 to below 1e16), each of the
    very type (a subclass may write itself otherwise)."""
    cls = o.__class__
    if cls is str or cls is bool or o is None:
        return True
    if cls is int:
        return o in _INT_RANGE
    if cls is float:
        return o == 0 or 1e-4 <= abs(o) < 1e16
    if cls is dict:
        return all(k.__class__ is str for k in o) and all(orjson_alike(v) for v in o.values())
    if cls is list or cls is tuple:
        return all(orjson_alike(v) for v in o)
    return False
