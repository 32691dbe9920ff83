"""`asl-kb diff PATH...`: many positions (files, folders, globs) under two
rule sets, one table: position x unit x outcome that appears (+) or vanishes
(-) x what causes it. Stable order: positions by path, then unit, change,
outcome."""

from __future__ import annotations

import glob
from pathlib import Path

from asl_kb.committee.compare import compare, summary
from asl_kb.committee.rulesets import RuleSet
from asl_kb.engines.legality import refuse_broken
from asl_kb.errors import PositionError
from asl_kb.position.loader import load_position
from asl_kb.record import replace

_GLOB_CHARS = set("*?[")


def expand(paths: list[str]) -> list[Path]:
    """Position files named by files, folders (every .yaml/.yml under them)
    and globs; sorted, each once. PositionError for a path naming nothing."""
    found: dict[str, Path] = {}
    for text in paths:
        if _GLOB_CHARS & set(text):
            hits = [Path(h) for h in glob.glob(text, recursive=True)]
            files = [h for h in hits if h.is_file()] + [f for h in hits if h.is_dir() for f in _under(h)]
            if not files:
                raise PositionError(text, None, None, "no position file matches this pattern")
        else:
            p = Path(text)
            if p.is_dir():
                files = _under(p)
                if not files:
                    raise PositionError(text, None, None, "the folder holds no .yaml position file")
            elif p.is_file():
                files = [p]
            else:
                raise PositionError(text, None, None, "no such file or folder")
        for f in files:
            found.setdefault(str(f.resolve()), f)
    return sorted(found.values(), key=lambda f: f.as_posix())


def _under(folder: Path) -> list[Path]:
    return sorted(f for ext in ("*.yaml", "*.yml") for f in folder.rglob(ext) if f.is_file())


def questions(path: Path, position) -> list[tuple]:
    """What a file asks: a plain position, its outcomes; a case (with
    `expect:`), each of its runs -- the run's position and options (whole
    phase, --voluntary-break), its why-not proposals and whether it asks
    `check` -- as (label, position, options, proposals, check)."""
    from asl_kb.committee.cases import asks_outcomes, has_expect, read_case, run_position

    if not has_expect(path):
        return [("", position, {"outcomes": True}, [], False)]
    case = read_case(path)
    out, seen = [], set()
    for r in case.runs:
        p = run_position(case, r)
        proposals = r.proposals
        options = {**r.options, "outcomes": asks_outcomes(r)}
        # runs that differ only in what the rule sets compared set (`rules:`)
        # ask the same question: once
        key = (
            replace(p, rules="", name=""),
            tuple(sorted(options.items(), key=str)),
            tuple((u, f) for u, f, _ in proposals),
            r.asks_check,
        )
        if key in seen:
            continue
        seen.add(key)
        out.append((r.label if len(case.runs) > 1 else "", p, options, proposals, r.asks_check))
    return out


def _answers(position, rs: RuleSet, proposals: list, check: bool, applied: bool = False) -> set[tuple]:
    """The why-not answers (legal, or the objections' rule ids) and the
    check findings (kind, unit, rule ids) of a run, as comparable items."""
    items: set[tuple] = set()
    with rs.active():
        p = position if applied else rs.apply(position)
        if proposals:
            from asl_kb.engines.why_not import why_not_each

            for (unit, fate, _), r in zip(proposals, why_not_each(p, [x[2] for x in proposals])):
                rules = sorted({b["rule"] for b in r.get("because", ())})
                items.add(
                    (unit, f"why-not {unit} {fate}: " + ("legal" if r["legal"] else f"not legal ({', '.join(rules)})"))
                )
        if check:
            from asl_kb.committee.gaps import clause_rules
            from asl_kb.engines.check import check as run_check

            r = run_check(p)
            if r["consistent"]:
                items.add(("(check)", "check: consistent"))
            for f in r["findings"]:
                items.add(
                    (
                        f.get("unit", "(check)"),
                        f"check: {f['kind'].replace('_', ' ')}"
                        + (f" ({f['unit']})" if "unit" in f else "")
                        + f" [{', '.join(clause_rules(f))}]",
                    )
                )
    return items


def _answer_changes(position, a: RuleSet, b: RuleSet, proposals: list, check: bool) -> list[tuple]:
    """The why-not and check answers that appear (+) or vanish (-), each
    with its causes found as compare() finds an outcome's (compare.trials)."""
    from asl_kb.committee.compare import attributed, trials

    qa, qb = _answers(position, a, proposals, check), _answers(position, b, proposals, check)
    appeared, vanished = qb - qa, qa - qb
    if not (appeared or vanished):
        return []
    tried, combination = trials(position, a, b)
    causes = attributed(
        tried, lambda p, rs, applied: _answers(p, rs, proposals, check, applied), qa, appeared, vanished
    )
    return [
        (sign, u, o, causes.get((u, o)) or [combination])
        for sign, xs in (("+", appeared), ("-", vanished))
        for u, o in sorted(xs)
    ]


def _changes(d: dict, asked: tuple | None) -> list[tuple]:
    """A run's rows: (sign, unit, outcome, causes, kind and at) of each
    outcome that vanished, then of each that appeared (an erratum is read by
    what it takes away), then its why-not and check answers' (`asked`:
    _answer_changes' arguments), what vanished first."""
    changes = [
        (sign, e["unit"], e["outcome"], e["caused_by"], {"kind": e["kind"], "at": e.get("at") or ""})
        for change, sign in (("vanished", "-"), ("appeared", "+"))
        for e in d[change]
    ]
    if asked is not None:
        changes += sorted(((*x, {}) for x in _answer_changes(*asked)), key=lambda x: x[0] != "-")
    return changes


def corpus_diff(paths: list[str], a: RuleSet, b: RuleSet, phase: bool = False, voluntary_break: bool = False) -> dict:
    """Load every position first, then compare each -- a case's every run,
    with its options (`phase`, `voluntary_break`: asked of every run too),
    why-not proposals and check; the report as a dict (see
    docs/committee.md). A file that cannot be loaded, or a run asking the
    outcomes of a position that breaks a rule, is listed under `errors`
    (FILE:LINE: KEY: message) and the others are compared all the same; past
    the run's --timeout (asl_kb/budget.py) the files not reached are listed
    as cut."""
    from asl_kb.budget import TimedOut

    files = expand(paths)
    asked, errors = [], []
    for f in files:
        try:
            pos = load_position(f)
            asked.append((f, pos, questions(f, pos)))
        except PositionError as e:
            errors.append({"file": f.as_posix(), "error": str(e)})
    rows, summary, cut = [], [], []
    runs = 0
    for n, (f, pos, runs_of) in enumerate(asked):
        try:
            for label, p, options, proposals, check in runs_of:
                runs += 1
                name = pos.name + (f" [{label}]" if label else "")
                d: dict
                try:
                    if options["outcomes"]:
                        refuse_broken(p)
                    d = compare(
                        p,
                        a,
                        b,
                        phase=phase or options.get("phase", False),
                        voluntary_break=voluntary_break or options.get("voluntary_break", False),
                    )
                except PositionError as e:
                    if options["outcomes"]:
                        errors.append({"file": f.as_posix(), **({"run": label} if label else {}), "error": str(e)})
                        continue
                    # a run asking only check/why-not of a position that breaks
                    # a rule: it has no outcomes to compare
                    d = {
                        "appeared": [],
                        "vanished": [],
                        "fired_only_in_from": [],
                        "fired_only_in_to": [],
                        "complete": True,
                    }
                changes = _changes(d, (p, a, b, proposals, check) if proposals or check else None)
                rows += [
                    {
                        "file": f.as_posix(),
                        "position": name,
                        **({"run": label} if label else {}),
                        "unit": unit,
                        "change": sign,
                        "outcome": outcome,
                        **what,
                        "caused_by": caused,
                    }
                    for sign, unit, outcome, caused, what in changes
                ]
                summary.append(
                    {
                        "file": f.as_posix(),
                        "position": name,
                        "differs": bool(changes),
                        "fired_only_in_from": d["fired_only_in_from"],
                        "fired_only_in_to": d["fired_only_in_to"],
                        "complete": d["complete"],
                    }
                )
                cut += [f"{f.as_posix()}{f' [{label}]' if label else ''}: {w}" for w in d.get("incomplete_because", ())]
        except TimedOut as e:
            left = ", ".join(g.as_posix() for g, _, _ in asked[n:])
            cut.append(f"--timeout passed while {e}: not compared: {left}")
            break
    out = {
        "from": a.as_json(),
        "to": b.as_json(),
        "positions": len(files),
        "runs": runs,
        "differing": len({s["file"] for s in summary if s["differs"]}),
        "complete": not cut,
        "rows": rows,
        "per_position": summary,
    }
    if cut:
        out["incomplete_because"] = cut
    if errors:
        out["errors"] = sorted(errors, key=lambda e: e["file"])
    return out


def cause_text(c: dict) -> str:
    if "edit" in c:
        e = c["edit"]
        return f"{e['file']}:{e['line']} [{e['rule']}] ({e['edit']} in {c['rule_folder']})"
    if "rule_folder" in c and c.get("rule") != "combination":
        parts = [f"replaces {', '.join(c['replaces'])}"] if c.get("replaces") else []
        parts += [f"adds {', '.join(c['adds'])}"] if c.get("adds") else []
        return f"the rule folder {c['rule_folder']}" + (f" ({'; '.join(parts)})" if parts else "")
    text = f"{c['switch']} [{c['rule']}]"
    if "rule_folder" in c:
        text += f" + the rule folder {c['rule_folder']}"
    return text


#: rows of one position (one run of a case) the text lists when --limit is
#: not given: a screen; the JSON lists every one
ROWS_SHOWN = 20


def _listed(rows: list[dict], limit: int | None) -> tuple[list[dict], dict[tuple, list[dict]]]:
    """The rows the text lists -- at most `limit` (else ROWS_SHOWN) of each
    position's run, what vanished first, what appeared given up to half of
    them when both are cut -- and, per run cut short, the run's rows."""
    most = ROWS_SHOWN if limit is None else limit
    runs: dict[tuple, list[dict]] = {}
    for r in rows:
        runs.setdefault(_run_of(r), []).append(r)
    listed: list[dict] = []
    cut: dict[tuple, list[dict]] = {}
    for key, run in runs.items():
        if len(run) <= most:
            listed += run
            continue
        cut[key] = run
        gone = [r for r in run if r["change"] == "-"]
        came = [r for r in run if r["change"] != "-"]
        room = most - min(len(gone), most - min(len(came), most // 2))
        listed += gone[: most - room] + came[:room]
    return listed, cut


def _run_of(row: dict) -> tuple:
    return row["file"], row.get("run", "")


def _left_out(run: list[dict], shown: int) -> str:
    """The line closing a run cut short: how many rows are not listed, and
    what the run's changes come to (compare.summary's words)."""
    said = "; ".join(
        f"{word} {summary([r for r in run if r['change'] == sign and 'kind' in r]) or len(run)}"
        for sign, word in (("-", "vanished"), ("+", "appeared"))
        if any(r["change"] == sign for r in run)
    )
    return f"  ... {len(run) - shown:,} more rows of this position ({said}): --limit N lists N, --format json every one"


def to_text(report: dict, label_a: str, label_b: str, limit: int | None = None) -> str:
    from asl_kb.report import table as tables

    head = f"diff {label_a} -> {label_b}: {report['positions']} position(s), {report['differing']} differ" + (
        "" if report["complete"] else " — INCOMPLETE: " + "; ".join(report["incomplete_because"])
    )
    head += "".join(f"\n  NOT COMPARED: {e['error']}" for e in report.get("errors", ()))
    if not report["rows"]:
        return head + "\n  no outcome changes\n"
    rows, cut = _listed(report["rows"], limit)
    table: list[tuple[str, ...]] = [("POSITION", "UNIT", "±", "OUTCOME", "CAUSED BY")]
    table += [
        (
            r["file"] + (f" [{r['run']}]" if "run" in r else ""),
            r["unit"],
            r["change"],
            r["outcome"],
            "; ".join(cause_text(c) for c in r["caused_by"]),
        )
        for r in rows
    ]
    keys = {row[0]: _run_of(r) for row, r in zip(table[1:], rows, strict=True)}
    room = tables.width()
    head_lines = [x for line in head.splitlines() for x in tables.wrap(line, room, "    ")]
    lines = head_lines + tables.lines(table, room, ())
    if max(map(len, lines)) > room or cut:
        # too wide for the terminal (or a position cut short): each position
        # on a line of its own, its rows under it, the outcome and the cause
        # wrapped
        lines = list(head_lines)
        for position in dict.fromkeys(row[0] for row in table[1:]):
            lines += tables.wrap(position, room, "    ")
            lines += tables.lines(
                [table[0][1:]] + [row[1:] for row in table[1:] if row[0] == position], room, (2, 3), "  "
            )
            key = keys[position]
            if key in cut:
                shown = sum(_run_of(r) == key for r in rows)
                lines += tables.wrap(_left_out(cut[key], shown), room, "      ")
    return "\n".join(line.rstrip() for line in lines) + "\n"
