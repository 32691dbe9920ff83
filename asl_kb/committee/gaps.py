"""`asl-kb search gaps`: the smallest positions of a scope the rules leave
without a legal outcome or in which they are broken, each with the clauses
in conflict -- what `asl-kb check` finds for one position
(asl_kb/engines/check.py: a broken unit with no legal fate and why it must
rout; no whole-phase outcome, with each minimal set of violated clauses the
soft-constraint program rules/check.lp finds; a rule the position breaks).
"""

from __future__ import annotations

import functools

from asl_kb.committee.asked import Asked
from asl_kb.committee.rulesets import RuleSet
from asl_kb.committee.scan import ScanOptions, finish_report, scan, scanned, witness_entries
from asl_kb.committee.scope import Scope
from asl_kb.engines.check import check
from asl_kb.position.loader import load_position_text


def judge_gaps(name: str, text: str, rs: RuleSet) -> dict:
    """One position: does `asl-kb check` find something? (picklable, for workers)"""
    with rs.active():
        position = rs.apply(load_position_text(text, name))
        r = check_under(position, rs)
    return {"witness": not r["consistent"], "incomplete": [], "findings": r["findings"]}


def _same(a: dict, b: dict) -> bool:
    return a["kind"] == b["kind"] and a.get("unit") == b.get("unit")


def check_under(position, rs: RuleSet) -> dict:
    """`asl-kb check` of a position (already `rs.apply`'d) under the rule set;
    under a rules folder each finding also names the folder's edits it
    needs (committee/edits.py: undone, the finding goes)."""
    from asl_kb.committee.edits import needed

    with rs.active():
        r = check(position)
    if rs.folder is None:
        return r
    for f in r["findings"]:
        blamed = needed(rs, lambda: any(_same(f, g) for g in check(position)["findings"]))
        f["edits"] = [e.as_json() for e in blamed] if blamed is not None else []
        if blamed is None:
            f["also_in_shipped_rules"] = True
    return r


def clause_rules(finding: dict) -> list[str]:
    """The rule ids of a finding's clauses (or of its because lines)."""
    rules = [c["rule"] for c in finding.get("clauses", ())] + [b["rule"] for b in finding.get("because", ())]
    return sorted(set(rules))


def replay_command(rs: RuleSet, file: str) -> str:
    """The `asl-kb check` command line that replays a finding under its rule set."""
    return " ".join(["asl-kb", "check", file] + rs.cli_args())


def search_gaps(scope: Scope, rs: RuleSet, asked: Asked | None = None, **scan_options) -> dict:
    """The smallest positions of the scope `check` finds something in, as
    `asked` says (asked.py); `scan_options`: scan.scan's others (timeout,
    since, progress, stream, resume)."""
    asked = asked or Asked()
    judge = functools.partial(judge_gaps, rs=rs)
    run = None
    if asked.generate:  # the solver chooses the positions (generate.py)
        from asl_kb.committee import generate as gen

        run, scan_options["positions"] = gen.walk(scope)
    s = scan(
        scope,
        asked.judged(judge),
        ScanOptions(witnesses=asked.witnesses, max_positions=asked.max_positions, **scan_options),
    )

    def header(n, file, w, v):
        w["replay"] = replay_command(rs, file)
        return (
            f"asl-kb search gaps finding {n} of scope {scope.name} under {rs.label}\n"
            f"replay: {replay_command(rs, file)}\n"
            + "".join(f"{f['kind']}: {', '.join(clause_rules(f))}\n" for f in v["findings"])
        )

    found = witness_entries(
        s,
        asked.out,
        "gap",
        lambda v: {"findings": [{**f, "rules": clause_rules(f)} for f in v["findings"]]},
        header,
    )
    report = {"scope": scope.name, "rules": rs.as_json(), "rules_label": rs.label, **scanned(s), "witnesses": found}
    report = finish_report(report, s)
    if run is not None:
        from asl_kb.committee import generate as gen

        report = gen.within(report, run, scope)
    return report


def to_text(report: dict) -> str:
    head = f"search gaps under {report['rules_label']} in scope {report['scope']}"
    incomplete = "" if report["complete"] else " — INCOMPLETE: " + "; ".join(report["incomplete_because"])
    if not report["witnesses"]:
        if report.get("within_bounds"):
            from asl_kb.committee.generate import bounds_text

            return (
                f"{head}: none for every position within bounds {bounds_text(report['bounds'])} "
                f"({report['tried']} positions, the solver's search exhausted)\n"
            )
        return f"{head}: none in {report['tried']} positions{incomplete}\n"
    lines = [
        f"{head}: {len(report['witnesses'])} finding(s) in {report['tried']} positions tried "
        f"(smallest first; {report['stopped']}){incomplete}"
    ]
    for w in report["witnesses"]:
        lines.append(
            f"  {w['position']} ({w['units']} unit(s), {w['non_open']} non-open hex(es))"
            + (f": {w['file']}" if "file" in w else "")
        )
        lines.append(f"    {w['brief']}")
        if "replay" in w:
            lines.append(f"    replay: {w['replay']}")
        for f in w["findings"]:
            lines.append(
                f"    {f['kind'].replace('_', ' ')}"
                + (f" ({f['unit']})" if "unit" in f else "")
                + f": {', '.join(f['rules'])}"
            )
            if f["kind"] == "no_whole_phase_outcome":
                lines += [f"      core: {c['at']} [{c['rule']}] {c['violated']}" for c in f["clauses"]]
            lines += [
                f"      edited: {e['file']}:{e['line']} [{e['rule']}] {e['edit']}: {e.get('clause') or e.get('was')}"
                for e in f.get("edits", ())
            ]
    return "\n".join(lines) + "\n"
