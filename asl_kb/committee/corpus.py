"""`asl-kb diff PATH...`: many positions (files, folders, globs) under two
rule sets, one table: position x unit x outcome that appears (+) or vanishes
(-) x what causes it. Stable order: positions by path, then unit, change,
outcome."""
from __future__ import annotations

import glob
from pathlib import Path

from asl_kb.committee.compare import compare
from asl_kb.committee.rulesets import RuleSet
from asl_kb.errors import PositionError
from asl_kb.position.loader import load_position

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


def corpus_diff(paths: list[str], a: RuleSet, b: RuleSet, phase: bool = False) -> dict:
    """Load every position first (a bad one raises PositionError), then
    compare each; the report as a dict (see docs/committee.md)."""
    files = expand(paths)
    positions = [(f, load_position(f)) for f in files]
    rows, summary, cut = [], [], []
    for f, pos in positions:
        d = compare(pos, a, b, phase=phase)
        for change, sign in (("appeared", "+"), ("vanished", "-")):
            for e in d[change]:
                rows.append({"file": f.as_posix(), "position": pos.name, "unit": e["unit"], "change": sign,
                             "outcome": e["outcome"], "caused_by": e["caused_by"]})
        summary.append({"file": f.as_posix(), "position": pos.name, "differs": bool(d["appeared"] or d["vanished"]),
                        "fired_only_in_from": d["fired_only_in_from"], "fired_only_in_to": d["fired_only_in_to"],
                        "complete": d["complete"]})
        cut += [f"{f.as_posix()}: {w}" for w in d.get("incomplete_because", ())]
    out = {"from": a.as_json(), "to": b.as_json(), "positions": len(files),
           "differing": sum(1 for s in summary if s["differs"]), "complete": not cut,
           "rows": rows, "per_position": summary}
    if cut:
        out["incomplete_because"] = cut
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


def to_text(report: dict, label_a: str, label_b: str, limit: int | None = None) -> str:
    head = (f"diff {label_a} -> {label_b}: {report['positions']} position(s), {report['differing']} differ"
            + ("" if report["complete"] else " — INCOMPLETE: " + "; ".join(report["incomplete_because"])))
    if not report["rows"]:
        return head + "\n  no outcome changes\n"
    rows = report["rows"] if limit is None else report["rows"][:limit]
    table = [("POSITION", "UNIT", "±", "OUTCOME", "CAUSED BY")]
    table += [(r["file"], r["unit"], r["change"], r["outcome"], "; ".join(cause_text(c) for c in r["caused_by"]))
              for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    lines = [head] + ["  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths)) + "  " + row[4]
                      for row in table]
    if len(rows) < len(report["rows"]):
        lines.append(f"  ({len(rows)} of {len(report['rows'])} rows listed: --limit)")
    return "\n".join(line.rstrip() for line in lines) + "\n"
