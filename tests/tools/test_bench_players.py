"""docs/performance.md is the table benchmarks/bench_players.py writes
(`make bench`): one row per position of the benchmark, each well formed.
Its figures are the last run's and are not checked."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_players  # noqa: E402

NUMBER = re.compile(r"^\d+(\.\d+)?$")


def _table(text: str) -> list[list[str]]:
    """The rows of the first table (make bench's: the sections after it hold
    the measurements behind docs/design.md's decisions)."""
    text = text.split(bench_players.REST, 1)[0]
    lines = [line for line in text.splitlines() if line.startswith("|")]
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]


def test_performance_doc_is_the_current_table():
    text = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    rows = _table(text)
    assert rows[0] == list(bench_players.COLUMNS)
    assert all(set(c) <= set("-:") and c for c in rows[1])
    body = rows[2:]
    assert all(len(r) == len(bench_players.COLUMNS) for r in body)
    assert body[0][0].startswith("import floor")
    names = [r[0] for r in body[1:]]
    assert names == [r.name for r in bench_players.rows()]
    for r in body:
        assert NUMBER.match(r[1]) and NUMBER.match(r[2]), r  # wall s, x floor
    for r in body[1:]:
        assert NUMBER.match(r[3]) and r[5] in ("yes", "no") and r[6] in ("yes", "no"), r
    # the current table only: no date, commit hash or machine load
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b|\b[0-9a-f]{7,40}\b|load average", text)


def test_a_run_keeps_the_sections_after_the_table():
    doc = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    lines = bench_players.table([(r, 0.25, 40.0) for r in bench_players.rows()], 0.1)
    written = bench_players.document(lines, doc)
    assert written.startswith(bench_players.DOC_HEAD)
    assert bench_players.REST in doc and written.endswith(doc[doc.index(bench_players.REST) :])


def test_table_is_what_the_doc_holds():
    """The writer's own output parses back to the same rows."""
    rows = bench_players.rows()
    results = [(r, 0.25, 40.0) for r in rows]
    parsed = _table("\n".join(bench_players.table(results, 0.1)))
    assert [p[0] for p in parsed[3:]] == [r.name for r in rows]
    # 0.25 s is 2.5x the floor: the A10.5 EX row (<= 1.5x) is missed, the others met
    verdicts = {p[0]: p[5] for p in parsed[3:]}
    assert verdicts["the rulebook's A10.5 EX"] == "no"
    assert verdicts["160 broken units over 16 boards"] == "yes"
