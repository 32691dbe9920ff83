"""The impact of an erratum: over every position a search judged, how many
changed, by outcome kind.

`search diff` tells each verdict it takes, in the scope's order, to an
`Impact` (committee/scan.py): positions judged, positions changed, and for
each kind of outcome (compare.py's `kind`: rout, Interdicted rout, Low
Crawl, surrender, elimination, ...) how many positions gained or lost one,
and how many such outcomes appeared or vanished in all. The table is
honest about what it covers: the whole scope (exhausted), or only the first
K positions judged before the search stopped (after N witnesses, --timeout,
--max-positions); `--impact` judges the whole scope, keeping the first N
witnesses. Rendered as text (`lines`), JSON (`as_json`, the report's
`impact`: one entry per scope or bound walked) and HTML (`write_index`,
DIR/index.html beside the witnesses of `--out DIR`).
"""

from __future__ import annotations

import collections
from pathlib import Path

#: a row's counts, in the order of the JSON and the table
COUNTS = ("gained_positions", "lost_positions", "gained", "lost")


class Impact:
    """What the verdicts of one scope's walk come to (fed one at a time)."""

    def __init__(self, scope: str) -> None:
        self.scope = scope
        self.tried = self.changed = self.cut = 0
        self.rows: dict[str, collections.Counter] = {}

    def add(self, verdict: dict) -> None:
        self.tried += 1
        self.cut += bool(verdict.get("incomplete"))
        if not verdict.get("witness"):
            return
        self.changed += 1
        for key, side in (("appeared", "gained"), ("vanished", "lost")):
            for kind, n in collections.Counter(e["kind"] for e in verdict[key]).items():
                row = self.rows.setdefault(kind, collections.Counter())
                row[f"{side}_positions"] += 1
                row[side] += n

    def as_json(self, stopped: str | None) -> dict:
        """{scope, tried, changed, complete (the whole scope judged, each
        position in full), stopped, rows: [{kind, gained_positions,
        lost_positions, gained, lost}]}: rows by positions changed, then kind."""
        order = sorted(
            self.rows, key=lambda k: (-(self.rows[k]["gained_positions"] + self.rows[k]["lost_positions"]), k)
        )
        rows = [{"kind": k, **{c: self.rows[k][c] for c in COUNTS}} for k in order]
        return {
            "scope": self.scope,
            "tried": self.tried,
            "changed": self.changed,
            "complete": stopped == "scope exhausted" and not self.cut,
            "stopped": stopped,
            "rows": rows,
        }


def heading(t: dict) -> str:
    """What a tally covers, in words."""
    changed = f"{t['changed']:,} of {t['tried']:,} positions changed"
    if t["complete"]:
        return f"impact over scope {t['scope']}, every position judged: {changed}"
    why = f"stopped: {t['stopped']}" if t["stopped"] != "scope exhausted" else "some positions cut"
    return (
        f"impact over the first {t['tried']:,} positions of scope {t['scope']} ({why}; "
        f"--impact judges the whole scope): {changed}"
    )


HEADER = ("OUTCOME KIND", "POSITIONS +", "POSITIONS -", "OUTCOMES +", "OUTCOMES -")


def lines(impact: list[dict], room: int) -> list[str]:
    """Each scope's tally as a compact table (text)."""
    from asl_kb.report import table

    out: list[str] = []
    still = [t for t in impact if t["complete"] and not t["changed"]]
    if len(still) > 1:  # (the bounds walked before the one that told the rule sets apart: one line)
        said = ", ".join(f"{t['scope']} ({t['tried']:,})" for t in still)
        out += table.wrap(f"impact: no position changed in scopes {said}, every position judged", room, "    ")
    for t in impact:
        if len(still) > 1 and t in still:
            continue
        out += table.wrap(heading(t), room, "    ")
        if t["rows"]:
            rows = [HEADER] + [
                (r["kind"], *(f"{r[c]:,}".rjust(len(h)) for c, h in zip(COUNTS, HEADER[1:], strict=True)))
                for r in t["rows"]
            ]
            out += table.lines(rows, room, (0,), "  ")
    return out


def write_index(out: str, report: dict, board) -> Path:
    """DIR/index.html beside the witnesses of `--out DIR`: the impact table,
    and each witness with its position file, its two-board page (linked
    when it is there) and the command that makes it (`board(file)`). PositionError
    (`FILE: --out: message`, exit 2) when it cannot be written."""
    from asl_kb.committee.compare import summary
    from asl_kb.errors import PositionError
    from asl_kb.report.html import environment

    path = Path(out) / "index.html"
    witnesses = []
    for w in report.get("witnesses", ()):
        if "file" not in w:
            continue
        yaml = Path(w["file"])
        page = yaml.with_suffix(".html")
        witnesses.append(
            {
                **w,
                "yaml_name": yaml.name,
                "page_name": page.name,
                "page_there": page.is_file(),
                "board": board(w["file"]),
                "said": "; ".join(f"{key} {summary(w[key])}" for key in ("vanished", "appeared") if w.get(key)),
            }
        )
    html = (
        environment()
        .get_template("impact.html.j2")
        .render(report=report, impact=report.get("impact", []), witnesses=witnesses, heading=heading)
    )
    try:
        path.write_text(html, encoding="utf-8")
    except OSError as e:
        raise PositionError(str(path), None, "--out", f"cannot write: {e.strerror}") from None
    return path


def index_problem(out: str) -> str | None:
    """What keeps DIR/index.html from being written (asl_kb/outputs.py), before any work."""
    from asl_kb import outputs

    path = Path(out) / "index.html"
    return outputs.problem("--out", str(path)) if Path(out).is_dir() else None
