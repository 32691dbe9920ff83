"""`match:` of a case: a subset of the JSON answer, with five operators.

A pattern is compared with the JSON of `asl-kb outcomes --format json`
(docs/output.schema.json), node by node:

* a mapping: every key given is compared with that key of the answer (a key
  the answer leaves out is `null`; `off` also matches it, the answer leaves
  out some false flags); keys not given are not compared;
* a list: the answer's list, in order, element by element, as long;
* a scalar: equal as written (`on`/`off` for true/false, `7` for 7);
* a mapping whose keys are all operators, on a list of the answer:
  `contains: [P, ...]` each P matches some element; `none_of: [P, ...]` no
  element matches any P; `exactly: [P, ...]` each element paired with its
  own P that it matches (as many, a multiset); `all: P` every element matches
  P; `count: N` N elements. On a mapping of the answer those keys are keys
  (the phase's `count`).

A failure names the line of the pattern node that failed and, inside a list
of units or fates, the unit (`id`, else `unit`) it is about.
"""

from __future__ import annotations

from typing import Any, Callable

from asl_kb.position.loader import given as _given

OPERATORS = ("contains", "none_of", "exactly", "all", "count")
FLAGS = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}

#: fail(line, unit, expected, found)
Fail = Callable[[Any, Any, str, str], None]


def is_operators(p) -> bool:
    """Whether a pattern is a mapping of operators only (applied to a list)."""
    return isinstance(p, dict) and bool(p) and all(k in OPERATORS for k in _keys(p))


def matches(p, v) -> bool:
    """Whether the answer's value `v` matches the pattern `p`."""
    found: list = []
    check(p, v, lambda *a: found.append(a))
    return not found


def check(p, v, fail: Fail, where: str = "", unit=None) -> None:
    """Compare the answer's value `v` with the pattern `p`; each mismatch is
    reported once through `fail`, at the deepest pattern node that differs."""
    line = getattr(p, "line", None)
    if is_operators(p) and (isinstance(v, list) or v is None):
        _operators(p, v or [], fail, where, unit)
    elif isinstance(p, dict):
        if not isinstance(v, dict):
            fail(line, unit, f"{where or 'the answer'}: {show(p)}", _brief(v))
            return
        unit = _unit_of(v, unit)
        for k in _keys(p):
            check(p[k], v.get(k), _at(fail, p, k), _join(where, k), unit)
    elif isinstance(p, list):
        if not isinstance(v, list) or len(v) != len(p):
            fail(line, unit, f"{where}: {show(p)}", _brief(v))
            return
        for i, (x, y) in enumerate(zip(p, v)):
            check(x, y, fail, f"{where}[{i}]", _unit_of(y, unit))
    elif not _scalar_equal(p, v):
        fail(line, unit, f"{where}: {p}", f"{where}: {_brief(v)}")


def _operators(p, items: list, fail: Fail, where: str, unit) -> None:
    at = lambda k: getattr(p, "key_lines", {}).get(k, getattr(p, "line", None))
    for k in _keys(p):
        want = p[k]
        if k == "count":
            if str(len(items)) != str(want):
                fail(at(k), unit, f"{where}: {want} items", f"{len(items)}: {_brief_all(items)}")
        elif k == "all":
            for x in items:
                check(want, x, _at(fail, p, k), f"{where}[*]", _unit_of(x, unit))
        elif k == "contains":
            for w in want:
                _contains(w, items, fail, where, (at(k), unit))
        elif k == "none_of":
            for w in want:
                _none_of(w, items, fail, where, (at(k), unit))
        elif k == "exactly":
            if not _pairs(want, items):
                fail(at(k), unit, f"{where}: exactly {show(want)}", _brief_all(items))


def _contains(w, items: list, fail: Fail, where: str, said: tuple) -> None:
    """`contains:` pattern `w` among `items`; `said`: the key's line and the
    unit it is about."""
    if any(matches(w, x) for x in items):
        return
    same = [x for x in items if _named(w) is not None and _unit_of(x, None) == _named(w)]
    if len(same) == 1:  # the element it is about: the key that differs
        check(w, same[0], fail, f"{where}[{_named(w)}]", _named(w))
    else:
        fail(
            getattr(w, "line", said[0]),
            _named(w) or said[1],
            f"{where} to contain {show(w)}",
            f"0 matching among {_brief_all(items)}",
        )


def _none_of(w, items: list, fail: Fail, where: str, said: tuple) -> None:
    """`none_of:` pattern `w` among `items` (`said` as _contains)."""
    hits = [x for x in items if matches(w, x)]
    if hits:
        unit = said[1]
        who = {_unit_of(x, unit) for x in hits}
        fail(
            getattr(w, "line", said[0]),
            who.pop() if len(who) == 1 else unit,
            f"{where} to have none {show(w)}",
            _brief_all(hits),
        )


def _pairs(patterns: list, items: list) -> bool:
    """Whether each item can be paired with its own pattern that it matches
    (a multiset: a Location Interdicted twice is listed twice)."""
    if len(patterns) != len(items):
        return False
    fits = [[j for j, x in enumerate(items) if matches(w, x)] for w in patterns]
    owner: dict = {}  # item -> the pattern it is paired with

    def pair(i, seen) -> bool:  # an augmenting path from pattern i
        for j in fits[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or pair(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return all(pair(i, set()) for i in range(len(patterns)))


def _keys(p) -> list:
    """The keys given (an empty value is absent, as the loader reads it)."""
    return [k for k, x in p.items() if _given(x)]


def _at(fail: Fail, p, k) -> Fail:
    """`fail` with a scalar's missing line taken from its key's line."""
    line = getattr(p, "key_lines", {}).get(k, getattr(p, "line", None))
    return lambda ln, unit, e, f: fail(ln if ln is not None else line, unit, e, f)


def _unit_of(v, unit):
    if isinstance(v, dict):
        for k in ("id", "unit"):
            if isinstance(v.get(k), str):
                return v[k]
    return unit


def _named(w):
    return _unit_of(w, None) if isinstance(w, dict) else None


def _join(where: str, k) -> str:
    return f"{where}.{k}" if where else str(k)


def _scalar_equal(p, v) -> bool:
    if isinstance(p, (dict, list)):
        return False
    s = str(p)
    if isinstance(v, bool) or v is None:
        flag = FLAGS.get(s.lower())
        return (v is None and (s == "null" or flag is False)) or (
            flag is not None and flag == bool(v) and v is not None
        )
    if isinstance(v, (dict, list)):
        return False
    if isinstance(v, float):
        try:
            return float(s) == v
        except ValueError:
            return False
    return str(v) == s


def show(p) -> str:
    """A pattern as one line of flow YAML."""
    if isinstance(p, dict):
        return "{" + ", ".join(f"{k}: {show(p[k])}" for k in _keys(p)) + "}"
    if isinstance(p, list):
        return "[" + ", ".join(show(x) for x in p) + "]"
    return str(p)


def _brief(v) -> str:
    if isinstance(v, dict):
        if "rule" in v and "reason" in v:  # a line of `because`: its words are never compared
            return f"{v['rule']}:{v['reason']}"
        # left out: the words, the odds, what is empty or false
        return (
            "{"
            + ", ".join(
                f"{k}: {_brief(x)}"
                for k, x in v.items()
                if k not in ("says", "odds", "odds_with_leader", "summary") and not (x is None or x is False or x == [])
            )
            + "}"
        )
    if isinstance(v, list):
        return _brief_all(v)
    if v is None:
        return "absent"
    return str(v)


def _brief_all(items: list) -> str:
    shown = [_brief(x) for x in items[:12]]
    more = f" ... ({len(items)} in all)" if len(items) > 12 else ""
    return "[" + "; ".join(shown) + "]" + more
