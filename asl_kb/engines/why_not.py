"""asl-kb why-not: is a fate the player proposes legal, and if not, which
rules and clauses forbid it.

The answer is derived in ASP (rules/why_not.lp: the rout program plus the
why-not rules): `proposal_legal` when some legal outcome is the proposed
fate, else `why_not(Rule, Reason)` for each clause that forbids it. Python
only parses the proposal, hands it over as a fact, and, for a legal fate,
names its number in the unit's listing (`asl-kb outcomes --all`).
"""

from __future__ import annotations

from asl_kb.asp.facts import loc, position_facts, q
from asl_kb.asp import control
from asl_kb.asp.control import new_control
from asl_kb.asp.solve import ground_stages
from asl_kb.asp.symbols import named
from asl_kb.board import hexgrid
import clingo

from asl_kb.asp.reader import Answer, location, rule_order, text
from asl_kb.errors import AslKbError
from asl_kb.model import Fate

#: the fates a player may propose, with the words each takes
FATES = {"rout": "LOCATION (a hex, or HEX@LEVEL)", "surrender": "CAPTOR (a unit id)", "stay": None, "eliminated": None}


class ProposalError(AslKbError):
    """A proposal that does not name a fate, a Location or a unit of the position."""


def parse_proposal(position, unit: str, words: list[str]) -> dict:
    """The proposal as {"unit", "fate", "at"/"captor"}; ProposalError if malformed."""
    ids = [u.id for u in position.units]
    if unit not in ids:
        shown = unit if len(unit) <= 40 else unit[:40] + "..."
        raise ProposalError(f"UNIT: no unit {shown!r} in the position (units: {', '.join(sorted(ids))})")
    if not words or words[0] not in FATES:
        raise ProposalError(f"FATE: expected one of {', '.join(FATES)}, got {' '.join(words) or 'nothing'!r}")
    kind, rest = words[0], words[1:]
    want = FATES[kind]
    if (want is None) != (not rest) or len(rest) > 1:
        raise ProposalError(f"FATE: {kind} takes {want or 'nothing more'}, got {' '.join(rest) or 'nothing'!r}")
    out = {"unit": unit, "fate": kind}
    if kind == "rout":
        h, _, level = rest[0].partition("@")
        try:
            if position.real is not None:  # VASL boards: a board-prefixed hex of the layout
                h = position.real.layout.parse(h)
            else:
                h = hexgrid.parse_hex(h, position.board)
        except ValueError as e:
            raise ProposalError(f"LOCATION: {e}") from None
        if position.real is None and not (area := hexgrid.Area(*position.area)).contains(h):
            raise ProposalError(f"LOCATION: {area.why_not_in(h, position.area)}")
        if level and not (level.isdigit() and len(level) <= 2):
            raise ProposalError(f"LOCATION: not a level: {level[:20]!r}")
        if level and int(level) > position.levels_of(h):
            # as the loader says of a unit's `at:` (asl_kb/position/loader.py)
            raise ProposalError(f"LOCATION: no level {int(level)} in {h}")
        out["at"] = h if not level or level == "0" else f"{h}@{int(level)}"
    elif kind == "surrender":
        if rest[0] not in ids:
            shown = rest[0] if len(rest[0]) <= 40 else rest[0][:40] + "..."
            raise ProposalError(f"CAPTOR: no unit {shown!r} in the position")
        out["captor"] = rest[0]
    return out


def _fact(p: dict) -> str:
    u = q(p["unit"])
    if p["fate"] == "rout":
        h, _, level = p["at"].partition("@")
        return f"proposed({u},rout({loc(h, int(level or 0))}))."
    if p["fate"] == "surrender":
        return f"proposed({u},surrender({q(p['captor'])}))."
    return f"proposed({u},{p['fate']})."


def _matches(p: dict, f: Fate) -> bool:
    if p["fate"] == "rout":
        return f.kind == "rout" and f.at == p["at"]
    if p["fate"] == "surrender":
        return f.kind == "surrender" and f.captor == p["captor"]
    if p["fate"] == "eliminated":
        return f.kind == "eliminated" and f.cause == "failure_to_rout"
    return f.kind == p["fate"]


def why_not(position, proposal: dict) -> dict:
    return why_not_each(position, [proposal])[0]


#: what an answer to a proposal is read from (the rest is the rout graph)
_READ = ("legal", "because", "says")


def why_not_each(position, proposals: list[dict]) -> list[dict]:
    """The answer to each proposal about one position, as why_not() gives it.
    The rules are grounded once: each proposal is an `#external` fact, set
    true alone for its solve, so each answer is the program's with that one
    proposal (the why-not clauses read proposed/2 only in #program final,
    after the rout stages, so the stages still ground to facts)."""
    if not proposals:
        return []
    from asl_kb.engines.outcomes import canonical

    position = canonical(position)
    concealed = sum(1 for u in position.units if "concealed" in u.status)
    atoms = [_fact(p)[:-1] for p in proposals]
    distinct = {a: clingo.parse_term(a) for a in sorted(set(atoms))}
    ctl = new_control("why_not.lp", position_facts(position) + "".join(f"#external {a}.\n" for a in distinct))
    ground_stages(ctl, concealed)
    listing = None
    out = []
    for proposal, atom in zip(proposals, atoms):
        for a, sym in distinct.items():
            ctl.assign_external(sym, a == atom)
        shown: list = []
        if not ctl.solve(on_model=lambda m: shown.extend(named(m.symbols(shown=True), _READ))).satisfiable:
            raise control.no_answer_set("why_not.lp")
        ans = Answer(shown)
        r = {
            "position": position.name,
            "rules": position.rules,
            "proposal": proposal,
            "legal": bool(ans.atoms["legal"]),
        }
        if r["legal"]:
            if listing is None:
                from asl_kb.engines.outcomes import outcomes

                listing = outcomes(position)
            unit = next(u for u in listing.units if u.id == proposal["unit"])
            r["fates"] = [n for n, f in enumerate(unit.fates, 1) if _matches(proposal, f)]
            r.update(_how(unit.fates, r["fates"]))
            r["because"] = []
        else:
            pairs = [
                p
                for subject, ps in ans.because.items()
                if subject.type == clingo.SymbolType.Function and subject.name == "proposal"
                for p in ps
            ]
            # each objection: the rule, the clause's reason (its kind, for tools
            # and tests) and the rules' words for it
            items = {(rule, reason.name, _say(ans, reason)) for rule, reason in pairs}
            r["because"] = [
                {"rule": r_, "reason": k, "says": w}
                for r_, k, w in sorted(items, key=lambda x: (rule_order(x[0]), x[2], x[1]))
            ]
        out.append(r)
    return out


def _how(fates, numbers: list[int]) -> dict:
    """How a legal rout is made: by Low Crawl only, never, or either way
    (`manner`), and its first fate in printed order -- the best route, by
    its odds (report/odds.py preference) -- as `route`: its number, path,
    Interdiction Locations and odds."""
    routs = [(n, fates[n - 1]) for n in numbers if fates[n - 1].kind == "rout"]
    if not routs:
        return {}
    crawls = {f.low_crawl for _, f in routs}
    manner = "low_crawl_only" if crawls == {True} else "no_low_crawl" if crawls == {False} else "either"
    n, f = routs[0]
    route = {
        "fate": n,
        "low_crawl": f.low_crawl,
        "path": f.path,
        # as the fate lists them: in hex order, once per entry (A10.53)
        "interdiction": [i.at for i in f.interdiction],
        "optional_interdiction": [i.at for i in f.optional_interdiction],
    }
    if f.odds is not None:
        route["odds"] = f.odds.to_json()
    return {"manner": manner, "route": route}


MANNER_WORDS = {
    "low_crawl_only": "only as a Low Crawl (A10.52)",
    "no_low_crawl": "not by Low Crawl",
    "either": "by Low Crawl or not",
}


def _arg(sym) -> str:
    """A reason's argument as a player reads it (a Location as H, or H@V)."""
    if sym.type == clingo.SymbolType.Function and sym.name == "loc" and len(sym.arguments) == 2:
        return location(sym)
    return text(sym)


def _say(ans: Answer, reason) -> str:
    template = ans.says.get(reason.name) if reason.type == clingo.SymbolType.Function else None
    if template is None:
        return text(reason)
    return template.format(*[_arg(x) for x in reason.arguments])


def to_text(r: dict, limit: int | None = None) -> str:
    p = r["proposal"]
    what = {
        "rout": f"rout to {p.get('at')}",
        "surrender": f"surrender to {p.get('captor')}",
        "stay": "stay",
        "eliminated": "eliminated",
    }[p["fate"]]
    head = f"{r['position']} — rules: {r['rules']}: {p['unit']}: {what}"
    if r["legal"]:
        from asl_kb.report.glance import morale_words, ranges

        nums = ranges(r["fates"])[1:-1]
        line = f"{head}: it is legal: fate{'s' if len(r['fates']) != 1 else ''} {nums} (asl-kb outcomes --all)"
        if "manner" in r:
            route = r["route"]
            line += f"\n    {MANNER_WORDS[r['manner']]}; best route: fate {route['fate']}, " + " → ".join(route["path"])
            ints = sorted(set(route["interdiction"]) | set(route["optional_interdiction"]))
            if ints:
                line += ", Interdiction in " + ", ".join(ints)
            if route.get("odds") and route["odds"]["nmcs"]:
                o = route["odds"]
                line += f" (intact {o['intact']['chance']}, {o['intact']['percent']}%{morale_words(o, '; ', '')})"
        return line + "\n"
    # (said once: objections of one rule that differ in one unit or hex are one line)
    from asl_kb.model import Because
    from asl_kb.report.glance import merge_because

    merged = merge_because([Because(b["rule"], b["says"], b["reason"]) for b in r["because"]])
    shown = merged if limit is None else merged[:limit]
    lines = [f"{head}: not legal"] + [f"    [{b.rule}] {b.says}" for b in shown]
    if len(shown) < len(merged):
        lines.append(f"    ({len(shown)} of {len(merged)} objections listed: --limit)")
    for e in r.get("edits", ()):
        lines.append(
            f"    edited: {e['file']}:{e['line']} [{e['rule']}] {e['edit']}: {e.get('clause') or e.get('was')}"
        )
    if r.get("also_in_shipped_rules"):
        lines.append("    (the shipped rules forbid it too)")
    return "\n".join(lines) + "\n"
