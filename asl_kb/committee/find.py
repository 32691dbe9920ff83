"""`asl-kb search find --where ASSERTION`: an assertion in the committee's
words, checked within bounds.

The committee member writes a condition over the contract's predicates
(rules/core/contract.lp: `fate/2`, `leaf/2`, `link/2`, `because/3`, ...)
and the position's facts (rules/core/defined.lp: `status/2`, `side/2`,
...), deriving `found` (or `found(...)`, to name what was found) where it
holds -- "a unit that may surrender to a side that gives No Quarter":

    found(U) :- leaf(_,N), fate(N,surrender(X)), N = surrenders(X,_),
                ... no_quarter(S), side(X,S).

The file is read as the last part of the rout program (`#program final`,
after every rout stage). The positions are chosen by the solver within the
bounds (generate.py: a scope's bounds as choice rules), smallest first; the
first where `found` holds is reported (the smallest position where the
assertion's condition holds: a counterexample to "no unit ever ..."), or,
when every position within the bounds was looked at -- the solver's search
space exhausted and each position judged -- that none exists there: "none
within bounds B" is a proof for those bounds, and only then is it said.
Without `--scope`, the bounds are read off the assertion's clauses
(bounds.py, grow.py), smallest first.
"""

from __future__ import annotations

import functools
from pathlib import Path

from asl_kb.committee.asked import Asked
from asl_kb.committee.rulesets import RuleSet
from asl_kb.committee.scan import ScanOptions, finish_report, scan, scanned, witness_entries
from asl_kb.committee.scope import Scope
from asl_kb.errors import PositionError

SHOW = "".join(f"\n#show found/{n}." for n in range(4))


def read_where(path: str) -> str:
    """The assertion's text, checked: it parses, and derives found/N
    (FILE:LINE: where: message, exit 2, otherwise)."""
    import clingo.ast as A

    p = Path(path)
    if not p.is_file():
        raise PositionError(path, None, "--where", "no such file")
    text = p.read_text(encoding="utf-8")
    heads: list = []
    messages: list = []

    def take(st):
        if st.ast_type == A.ASTType.Rule and "found" in str(st.head):
            heads.append(st)

    try:
        A.parse_string(text, take, logger=lambda _c, m: messages.append(m))
    except RuntimeError:
        line = None
        first = messages[0] if messages else "syntax error"
        bits = first.split(":")
        if len(bits) > 2 and bits[1].isdigit():
            line = int(bits[1])
        said = first.splitlines()[-1].strip() if messages else "syntax error"
        raise PositionError(path, line, "where", said) from None
    if not heads:
        raise PositionError(path, None, "where", "derives no found/N: nothing to look for")
    return text


def judge_where(name: str, text: str, rs: RuleSet, where: str) -> dict:
    """One position: does the assertion's condition hold in it? (picklable)"""
    from asl_kb.asp.control import new_control
    from asl_kb.asp.facts import position_facts
    from asl_kb.asp.solve import ground_stages
    from asl_kb.engines.legality import require_legal
    from asl_kb.engines.outcomes import canonical
    from asl_kb.position.loader import load_position_text

    with rs.active():
        position = rs.apply(load_position_text(text, name))
        try:
            require_legal(position)
        except PositionError:
            return {"witness": False, "incomplete": [], "found": [], "illegal": True}
        position = canonical(position)
        concealed = sum(1 for u in position.units if "concealed" in u.status)
        ctl = new_control("rout.lp", position_facts(position) + "\n#program final.\n" + where + SHOW)
        ground_stages(ctl, concealed)
        found: list[str] = []
        ctl.solve(on_model=lambda m: found.extend(str(s) for s in m.symbols(shown=True) if s.name == "found"))
    return {"witness": bool(found), "incomplete": [], "found": sorted(set(found))}


def search_find(scope: Scope, rs: RuleSet, where_file: str, asked: Asked | None = None, **options) -> dict:
    """The smallest positions of the bounds where the assertion's condition
    holds; `within_bounds` (it holds nowhere within them) only after every
    position was judged and the solver's search space was exhausted. The
    solver chooses them whatever `asked` says (by default one witness);
    `options`: scan.scan's others."""
    from asl_kb.committee import generate

    asked = asked or Asked(witnesses=1)
    where = read_where(where_file)
    judge = functools.partial(judge_where, rs=rs, where=where)
    run, positions = generate.walk(scope)
    s = scan(
        scope,
        asked.judged(judge),
        ScanOptions(witnesses=asked.witnesses, max_positions=asked.max_positions, positions=positions, **options),
    )
    found = witness_entries(
        s,
        asked.out,
        "found",
        lambda v: {"found": v["found"]},
        lambda n, file, w, v: (
            f"asl-kb search find {where_file} witness {n} of bounds {scope.name}\nfound: {', '.join(v['found'])}\n"
        ),
    )
    report = {
        "rules": rs.as_json(),
        "rules_label": rs.label,
        "where": where_file,
        **scanned(s),
        "witnesses": found,
    }
    return generate.within(finish_report(report, s), run, scope)


def to_text(report: dict) -> str:
    from asl_kb.report import table

    room = table.width()
    from asl_kb.committee.generate import bounds_text

    head = f"search find {report['where']} under {report['rules_label']} within bounds {bounds_text(report['bounds'])}"
    lines = table.wrap(head, room, "  ")
    if report["witnesses"]:
        for w in report["witnesses"]:
            lines += table.wrap(
                f"  found in {w['position']} ({w['units']} unit(s), {w['non_open']} non-open hex(es)): "
                + ", ".join(w["found"]),
                room,
                "    ",
            )
            lines += ["    " + x for x in table.wrap(w["brief"], room - 4, "  ")]
            if "file" in w:
                lines.append(f"    {w['file']}")
        return "\n".join(lines) + "\n"
    if report.get("within_bounds"):
        said = (
            f"  none: it holds in no position within these bounds ({report['tried']:,} positions, every one "
            "the solver could choose: exhaustive)"
        )
    else:
        said = f"  none found in {report['tried']:,} positions — INCOMPLETE: " + "; ".join(
            report.get("incomplete_because", ["not every position within the bounds was judged"])
        )
    return "\n".join(lines + table.wrap(said, room, "    ")) + "\n"
