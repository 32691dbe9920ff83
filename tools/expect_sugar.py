"""The shorthand keys of `expect:` as patterns of the JSON answer.

A case's keys that compare one value of the answer (`must_rout: on`,
`count: 3`, `because: [A10.5]`, a phase's `listed: 2`, ...) are written
here as the `match:` pattern they stand for (expect_match.py), with the
lines of the keys, so a failure is reported where the case wrote it
(docs/cases.md, the table of shorthands).
"""

from __future__ import annotations

from asl_kb.position.loader import Map as _Map, given as _is_given, str_at


def _given(node):
    """A mapping's keys and values, a key with an empty value left out."""
    return [(k, v) for k, v in node.items() if _is_given(v)]


def pattern(line, **keys):
    """A pattern mapping written at `line` (each key's line too)."""
    m = _Map(keys)
    m.line, m.key_lines = line, {k: line for k in keys}
    return m


def _rule(word):
    """RULE or RULE:REASON as a pattern of one `because` line."""
    rule, _, reason = str(word).partition(":")
    line = word.line
    return pattern(line, rule=str_at(rule, line), **({"reason": str_at(reason, line)} if reason else {}))


def unit_sugar(node):
    """The pattern of a unit's JSON that its scalar keys stand for:
    `must_rout: on` is `{must_rout: on}`, `count: N` `{fates: {count: N}}`,
    `because: [R]` `{because: {contains: [{rule: R}]}}`, `not_because`
    `none_of`, `voluntary_rout: [ID]` `{voluntary_rout: {exactly: [ID]}}`."""
    pat = pattern(node.line)
    for k, v in _given(node):
        line = node.key_lines.get(k, node.line)
        if k in ("must_rout", "may_rout", "may_break", "inconsistent", "final_dr"):
            pat[k] = v
        elif k == "count":
            pat["fates"] = pattern(line, count=v)
        elif k == "voluntary_rout":
            pat[k] = pattern(line, exactly=v)
        elif k in ("because", "not_because"):
            pat.setdefault("because", pattern(line))
            pat["because"]["contains" if k == "because" else "none_of"] = [_rule(w) for w in v]
            pat["because"].key_lines["contains" if k == "because" else "none_of"] = line
        else:
            continue
        pat.key_lines.setdefault(k if k in pat else {"count": "fates", "not_because": "because"}[k], line)
    return pat


def phase_sugar(node):
    """The pattern of the phase's JSON that its scalar keys stand for:
    `count: N` (`unknown`: null), `listed: N` `{outcomes: {count: N}}`,
    `independent: [ID]` `{independent: {exactly: [{unit: ID}]}}`,
    `voluntary_rout` each `{leader: L, with_one_of: {exactly: [ID]}}`, exactly."""
    pat = pattern(node.line)
    for k, v in _given(node):
        line = node.key_lines.get(k, node.line)
        if k == "count":
            pat[k] = str_at("null", line) if v == "unknown" else v
        elif k == "listed":
            pat["outcomes"] = pattern(line, count=v)
        elif k == "independent":
            pat[k] = pattern(line, exactly=[pattern(line, unit=u) for u in v])
        elif k == "voluntary_rout":
            pat[k] = pattern(
                line,
                exactly=[
                    pattern(
                        getattr(x, "line", line),
                        leader=x["leader"],
                        with_one_of=pattern(line, exactly=x["with_one_of"]),
                    )
                    for x in v
                ],
            )
        else:
            continue
        pat.key_lines["outcomes" if k == "listed" else k] = line
    return pat


def notes_sugar(node):
    """A prisoners' `notes: {UNIT: [RULE]}`: for each unit, the pattern of
    its notes `{contains: [{rule: RULE}]}`."""
    return {
        str(u): pattern(node.key_lines.get(u, node.line), contains=[_rule(w) for w in rules])
        for u, rules in _given(node)
    }


def simultaneous_sugar(node):
    """A prisoners' `simultaneous: [RESULT]`: each RESULT is among the
    results of some joint roll: `{simultaneous: {contains: [{results: {contains: [RESULT]}}]}}`."""
    joints = [pattern(x.line, results=pattern(x.line, contains=[x])) for x in node]
    return pattern(node.line, simultaneous=pattern(node.line, contains=joints))
