"""`asl-kb search diff`: the smallest positions of a scope where two rule
sets part.

Positions are enumerated smallest first (enumerate.py) and evaluated
in-process under both rule sets; the first `witnesses` positions whose
outcomes differ are reported -- minimal within the scope -- each with the
outcomes that appear/vanish, their causes, and the clauses (because/3 rule
ids) that fired on one side only. With `out`, each witness is written as a
position YAML that `asl-kb diff FILE --from A --to B [--switch X]` replays.
"""
from __future__ import annotations

import time
from pathlib import Path

from asl_kb.committee.compare import compare
from asl_kb.committee.enumerate import candidates, to_yaml
from asl_kb.committee.rulesets import RuleSet
from asl_kb.committee.scope import Scope
from asl_kb.position.loader import load_position_text


def replay_command(a: RuleSet, b: RuleSet, file: str) -> str:
    """The `asl-kb diff` command line that replays a witness."""
    words = ["asl-kb", "diff", file, "--from", str(a.folder) if a.folder else a.version]
    to = str(b.folder) if b.folder else b.version
    if b.flip:
        if dataclass_equal_but_flip(a, b):
            return " ".join(words + ["--switch", b.flip])
        words += ["--to", to, "--switch", b.flip]
    else:
        words += ["--to", to]
    return " ".join(words)


def dataclass_equal_but_flip(a: RuleSet, b: RuleSet) -> bool:
    return a.flip is None and (a.version, a.folder) == (b.version, b.folder)


def search_diff(scope: Scope, a: RuleSet, b: RuleSet, phase: bool = False, witnesses: int = 3,
                max_positions: int | None = None, out: str | None = None) -> dict:
    found, tried, cut = [], 0, []
    started = time.perf_counter()
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
    stopped = None
    for c in candidates(scope):
        if max_positions is not None and tried >= max_positions:
            stopped = f"--max-positions {max_positions} reached"
            break
        text = to_yaml(scope, c)
        position = load_position_text(text, f"{scope.name}#{c.index + 1}")
        d = compare(position, a, b, phase=phase)
        tried += 1
        cut += [f"{scope.name} #{c.index + 1}: {w}" for w in d.get("incomplete_because", ())]
        if not (d["appeared"] or d["vanished"]):
            continue
        w = {"index": c.index + 1, "units": c.size[0], "non_open": c.size[1], "position": position.name,
             "appeared": d["appeared"], "vanished": d["vanished"],
             "fired_only_in_from": d["fired_only_in_from"], "fired_only_in_to": d["fired_only_in_to"]}
        if out:
            file = Path(out) / f"witness-{len(found) + 1:03d}.yaml"
            w["file"] = file.as_posix()
            w["replay"] = replay_command(a, b, file.as_posix())
            header = (f"asl-kb search diff witness {len(found) + 1} of scope {scope.name}: "
                      f"{a.label} -> {b.label}\nreplay: {w['replay']}\n"
                      + "".join(f"{s} {e['outcome']}\n" for key, s in (("appeared", "+"), ("vanished", "-"))
                                for e in d[key][:SHOWN])
                      + (f"... {len(d['appeared']) + len(d['vanished'])} changes in all\n"
                         if len(d["appeared"]) > SHOWN or len(d["vanished"]) > SHOWN else ""))
            file.write_text(to_yaml(scope, c, header), encoding="utf-8")
        else:
            w["yaml"] = text
        found.append(w)
        if len(found) >= witnesses:
            stopped = f"{witnesses} witness(es) found"
            break
    report = {"scope": scope.name, "from": a.as_json(), "to": b.as_json(),
              "from_label": a.label, "to_label": b.label, "tried": tried,
              "complete": not cut and (stopped is None or bool(found)),
              "stopped": stopped or "scope exhausted", "witnesses": found}
    if cut:
        report["incomplete_because"] = cut
    report["_seconds"] = time.perf_counter() - started
    return report


#: outcomes listed per witness and change in the text report
SHOWN = 8


def to_text(report: dict) -> str:
    head = f"search diff {report['from_label']} -> {report['to_label']} in scope {report['scope']}"
    if not report["witnesses"]:
        return (f"{head}: none in {report['tried']} positions"
                + ("" if report["stopped"] == "scope exhausted" else f" ({report['stopped']})") + "\n")
    lines = [f"{head}: {len(report['witnesses'])} witness(es) in {report['tried']} positions tried "
             f"(smallest first; {report['stopped']})"]
    for w in report["witnesses"]:
        lines.append(f"  witness {w['position']} ({w['units']} unit(s), {w['non_open']} non-open hex(es))"
                     + (f": {w['file']}" if "file" in w else ""))
        if "replay" in w:
            lines.append(f"    replay: {w['replay']}")
        for key, sign in (("appeared", "+"), ("vanished", "-")):
            for e in w[key][:SHOWN]:
                why = ", ".join(_cause(c) for c in e["caused_by"])
                lines.append(f"    {sign} {e['outcome']}    <- {why}")
            if len(w[key]) > SHOWN:
                lines.append(f"    {sign} ... {len(w[key]) - SHOWN} more {key} (all in --format json)")
        for key, side in (("fired_only_in_from", "from"), ("fired_only_in_to", "to")):
            if w[key]:
                lines.append(f"    clauses fired only in {side}: {', '.join(w[key])}")
        if "yaml" in w:
            lines += ["    | " + line for line in w["yaml"].splitlines()]
    return "\n".join(lines) + "\n"


def _cause(c: dict) -> str:
    from asl_kb.committee.corpus import cause_text
    return cause_text(c)
