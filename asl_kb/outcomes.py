"""Collect the answer sets of each broken unit into its fates, grouped and
ordered deterministically, each with the rule-cited explanation the rules
derived (because/3 atoms rendered through the says/2 templates)."""
from __future__ import annotations

from . import hexgrid
from .facts import position_facts
from .solve import Solver

FATE_ORDER = {"rout": 0, "stay": 1, "surrender": 2, "eliminated": 3}


def _text(sym) -> str:
    """A term as a player reads it: strings bare, numbers as numbers."""
    import clingo
    if sym.type == clingo.SymbolType.String:
        return sym.string
    if sym.type == clingo.SymbolType.Number:
        return str(sym.number)
    return str(sym)


def _say(says: dict, reason) -> str:
    import clingo
    if reason.type == clingo.SymbolType.Function:
        template = says.get(reason.name)
        if template is not None:
            return template.format(*[_text(a) for a in reason.arguments])
    return _text(reason)


def _because(says, atoms) -> list[dict]:
    items = {(_text(rule), _say(says, reason)) for rule, reason in atoms}
    return [{"rule": r, "says": s} for r, s in sorted(items, key=_rule_sort)]


def _rule_sort(item):
    rule, says = item
    parts = rule.lstrip("ABCDEFG").split(".")
    return ([int(x) if x.isdigit() else 0 for x in parts], rule, says)


def _location(h: str, level: int) -> str:
    return h if level == 0 else f"{h}@{level}"


def _fate(says, symbols, unit_id):
    f = {"fate": None}
    because, paths, ints, opts = [], [], {}, {}
    for s in symbols:
        args = s.arguments
        if not args or _text(args[0]) != unit_id:
            continue
        if s.name == "fate":
            kind = args[1]
            if kind.name == "surrender":
                f.update(fate="surrender", captor=_text(kind.arguments[0]))
            elif kind.name == "eliminated":
                f.update(fate="eliminated", cause=kind.arguments[0].name)
            else:
                f["fate"] = kind.name
        elif s.name == "final":
            f["at"] = _location(_text(args[1]), args[2].number)
        elif s.name == "low_crawl":
            f["low_crawl"] = True
        elif s.name == "int_at":
            ints.setdefault(_text(args[1]), set()).add(_text(args[2]))
        elif s.name == "opt_int_at":
            opts.setdefault(_text(args[1]), set()).add(_text(args[2]))
        elif s.name == "path":
            paths.append((args[1].number, _location(_text(args[2]), args[3].number)))
        elif s.name == "because":
            because.append((args[1], args[2]))
    f.setdefault("low_crawl", False)
    f["path"] = [l for _, l in sorted(paths)]
    f["interdiction"] = [{"at": h, "by": sorted(b)} for h, b in
                         sorted(ints.items(), key=lambda kv: hexgrid.hex_coords(kv[0]))]
    f["optional_interdiction"] = [{"at": h, "by": sorted(b)} for h, b in
                                  sorted(opts.items(), key=lambda kv: hexgrid.hex_coords(kv[0]))]
    f["because"] = _because(says, because)
    return f


def _group_key(f):
    return (FATE_ORDER.get(f["fate"], 9), f.get("captor", ""), f.get("cause", ""),
            f.get("at", ""), f["low_crawl"],
            tuple((i["at"], tuple(i["by"])) for i in f["interdiction"]),
            tuple((i["at"], tuple(i["by"])) for i in f["optional_interdiction"]))


def _unit_summary(says, symbols, unit_id):
    must = may = False
    because, accompany = [], set()
    for s in symbols:
        args = s.arguments
        if not args or _text(args[0]) != unit_id:
            continue
        if s.name == "must_rout":
            must = True
        elif s.name == "may_rout":
            may = True
        elif s.name == "unit_because":
            because.append((args[1], args[2]))
        elif s.name == "may_accompany":
            accompany.add(_text(args[1]))
    return must, may, _because(says, because), sorted(accompany)


def routing_order(position) -> list:
    """A10.5: ATTACKER first, one unit at a time (then in the order written)."""
    broken = [u for u in position.units if "broken" in u.status]
    return sorted(broken, key=lambda u: (u.side != position.attacker,))


def outcomes(position, all_paths: bool = False, max_models: int = 5000,
             timeout: float = 60.0) -> dict:
    solver = Solver(position_facts(position), all_paths=all_paths,
                    max_models=max_models, timeout=timeout)
    order = routing_order(position)
    ids = [u.id for u in order]
    units, complete, reasons = [], True, []
    for u in order:
        res = solver.unit_models(u.id, ids)
        if not res.complete:
            complete = False
            reasons.append(f"{u.id}: {res.reason}")
        groups: dict = {}
        summary = (False, False, [], [])
        for symbols in res.models:
            summary = _unit_summary(solver.says, symbols, u.id)
            f = _fate(solver.says, symbols, u.id)
            key = _group_key(f)
            if key in groups:
                groups[key]["paths"].append(f["path"])
            else:
                f["paths"] = [f["path"]]
                groups[key] = f
        fates = []
        for key in sorted(groups):
            f = groups[key]
            paths = sorted(f.pop("paths"))
            f["path"] = paths[0]
            if all_paths:
                f["paths"] = paths
            fates.append(f)
        must, may, because, accompany = summary
        entry = {"id": u.id, "side": u.side, "at": u.location, "must_rout": must,
                 "may_rout": may, "because": because, "fates": fates}
        if accompany:
            entry["voluntary_rout"] = accompany
        if not res.models:
            entry["inconsistent"] = True  # no legal outcome: a question for the rules committee
        units.append(entry)
    result = {"position": position.name, "rules": position.rules, "complete": complete,
              "units": units}
    if reasons:
        result["incomplete_because"] = reasons
    result["_stats"] = solver.stats
    return result
