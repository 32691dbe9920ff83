"""The positions players make (issue 28), as whole CLI runs beside the import
floor: prints each against its target and writes docs/performance.md.

Each row is one `asl-kb outcomes POSITION --format json` process (`--phase`
where the row says so), its wall time the median of `--repeat` runs and its
peak memory (ru_maxrss) the most of any; the import floor (`python -c
'import clingo, yaml, jinja2'`) is run in the same rounds, interleaved with
the rows, so that a busy machine slows both alike. Every position is
generated and seeded (benchmarks/generate.py) but the rulebook's A10.5 EX
(facts/rout/A10.5-EX.yaml), whose target is a ratio to the floor. asl_kb's
bytecode is written first, as an installed package has it (the floor's
packages do).

Nothing is asserted: the machine may be shared. docs/performance.md holds
the current table only (no date, commit or machine load: those belong to a
run, not to the document); tests/tools/test_bench_players.py checks its form.

Usage (from the repository root):
    .venv/bin/python benchmarks/bench_players.py            # every row, 3 runs each
    .venv/bin/python benchmarks/bench_players.py --quick    # the small rows only
    .venv/bin/python benchmarks/bench_players.py --no-write # print, leave the doc alone
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import bench_boards  # noqa: E402
from bench_cases import run_child  # noqa: E402
from generate import (  # noqa: E402
    generate_area_spread,
    generate_open,
    Stack,
    generate_open_stack,
    generate_position,
)

FLOOR = [sys.executable, "-c", "import clingo, yaml, jinja2"]
DOC = ROOT / "docs" / "performance.md"
RULEBOOK = ROOT / "facts" / "rout" / "A10.5-EX.yaml"
#: the table's columns (tests/tools/test_bench_players.py checks the document by them)
COLUMNS = ("position", "wall s", "x floor", "peak MiB", "target", "met", "met at a 0.09 s floor")
#: the import floor the issue's targets in seconds were set against: a target
#: of T s is T / 0.09 times the floor, which a busy machine moves less
ISSUE_FLOOR = 0.09


@dataclass(frozen=True)
class Row:
    """One benchmark row: a position (YAML text, or a bundled file), its CLI
    options, and its target: seconds of wall time, or a ratio to the floor
    (`ratio`), and at most `mib` MiB where given."""

    name: str
    make: Callable[..., str] | Path  # () -> YAML text (given the boards: on boards), or a Path
    phase: bool = False
    seconds: float | None = None
    ratio: float | None = None
    mib: float | None = None
    quick: bool = True
    #: on VASL boards (benchmarks/bench_boards.py sets them up: `make` is
    #: then given them), and the command: `outcomes` of the position made,
    #: or `los` of the pairs made on the first board (`asl-kb los --board`)
    boards: bool = False
    command: str = "outcomes"

    def target(self) -> str:
        parts = [f"<= {self.seconds:g} s" if self.seconds is not None else f"<= {self.ratio:g}x floor"]
        if self.mib is not None:
            parts.append(f"<= {self.mib:g} MiB")
        return ", ".join(parts)

    def met(self, wall: float, floor: float, mib: float, scaled: bool = False) -> bool:
        """Within the target; `scaled`: the seconds read as a ratio to the
        floor (T / ISSUE_FLOOR times it)."""
        if self.seconds is None:
            assert self.ratio is not None  # a target in seconds or as a ratio
            ok = wall / floor <= self.ratio
        else:
            ok = wall / floor <= self.seconds / ISSUE_FLOOR if scaled else wall <= self.seconds
        return ok and (self.mib is None or mib <= self.mib)


def rows(seed: int = 0) -> list[Row]:
    """Issue 28's table, in its order."""
    return [
        Row(
            "legal stack: 3 squads + 4 leaders ADJACENT to an enemy, --phase",
            lambda: generate_open_stack(Stack(3, smc=4), seed),
            phase=True,
            seconds=0.5,
        ),
        Row(
            "10 squads in one hex ADJACENT to an enemy, --phase",
            lambda: generate_open_stack(Stack(10), seed),
            phase=True,
            seconds=1.0,
        ),
        Row("one broken squad on an all-open board, enemy at range 2", lambda: generate_open(seed), seconds=0.5),
        Row("the rulebook's A10.5 EX", RULEBOOK, ratio=1.5),
        Row("160 broken units over 16 boards", lambda: generate_position(16, 10, seed, spread=True), seconds=1.5),
        Row(
            "300 broken units over [A1, GG200]",
            lambda: generate_area_spread(300, 200, seed),
            seconds=3.0,
            mib=500,
            quick=False,
        ),
        Row(
            "1,000 broken units over [A1, GG200]",
            lambda: generate_area_spread(1000, 200, seed),
            seconds=10.0,
            mib=500,
            quick=False,
        ),
        Row(
            "25-unit stack (12 squads, 9 HS, 4 leaders, a player's order) ADJACENT to an enemy",
            lambda: generate_open_stack(Stack(12, smc=4, hs=9), seed, shuffled=True),
            seconds=1.0,
        ),
        Row(
            "3 VASL boards read cold, 40 units (15 broken)",
            lambda b: bench_boards.position_text(b.real, b.boards, seed),
            seconds=2.0,
            boards=True,
        ),
        Row(
            "`asl-kb los`: 1,000 pairs of hexes of a VASL board read cold",
            lambda b: bench_boards.pairs_text(b.real, b.boards[0], 1000, seed),
            seconds=1.0,
            boards=True,
            command="los",
        ),
    ]


def _cli() -> list[str]:
    script = Path(sys.executable).parent / "asl-kb"
    return [str(script)] if script.exists() else [sys.executable, "-m", "asl_kb.cli"]


def run(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, peak MiB) of one child process; its output discarded."""
    r = run_child(argv)
    if r["rc"] not in (0, 3):  # 3: an incomplete answer, still an answer
        raise RuntimeError(f"{' '.join(argv)} exited {r['rc']}")
    return r["wall"], r["maxrss_mib"]


def _compile_bytecode() -> None:
    """Write asl_kb's bytecode (__pycache__) first, as installing a package
    does: the floor's packages have theirs, and a checkout run with
    PYTHONDONTWRITEBYTECODE set would compile every module of asl_kb in
    every run (~50 ms, a third of a rulebook position's)."""
    import compileall

    compileall.compile_dir(str(ROOT / "asl_kb"), quiet=1)


def table(results: list[tuple[Row, float, float]], floor: float) -> list[str]:
    """The Markdown table of the results (no date, commit or load)."""
    lines = [
        "| " + " | ".join(COLUMNS) + " |",
        "| " + " | ".join("---" for _ in COLUMNS) + " |",
        f"| import floor (`python -c 'import clingo, yaml, jinja2'`) | {floor:.2f} | 1.00 | - | - | - | - |",
    ]
    for row, wall, mib in results:
        lines.append(
            f"| {row.name} | {wall:.2f} | {wall / floor:.2f} | {mib:.0f} | "
            f"{row.target()} | {_yes(row.met(wall, floor, mib))} | {_yes(row.met(wall, floor, mib, True))} |"
        )
    return lines


def _yes(ok: bool) -> str:
    return "yes" if ok else "no"


DOC_HEAD = """# Performance

The positions players make, each one whole `asl-kb outcomes POSITION --format
json` process (`--phase` where the row says so), beside the import floor
(`python -c 'import clingo, yaml, jinja2'`) measured in the same run,
interleaved with the rows. Wall time: the median of the runs; peak memory:
the most of any run (ru_maxrss of the process alone: each is started from a
small launcher, never forked from the benchmark). The positions are generated and seeded by
`benchmarks/generate.py` (the rulebook's A10.5 EX is `facts/rout/A10.5-EX.yaml`);
asl_kb's bytecode is written before the runs, as installing the package does.
`make bench` runs `benchmarks/bench_players.py`, which prints this table and
writes it here: the figures are those of the last run, on whatever machine
ran it. A shared machine slows every row and the floor alike, so the last
column reads each target in seconds as a ratio to the floor, as set: T s
with the floor at 0.09 s, that is T / 0.09 times the floor.

The rows on VASL boards (docs/real-boards.md) read boards 2, 3 and 4 of the
configured VASL boards folder, else three synthetic boards of VASL's format
built by `benchmarks/bench_boards.py` (hills, woods, buildings, grain,
brush, orchards, walls and hedges), each process reading its boards cold;
the `asl-kb los` row is `asl-kb los --board B --pairs FILE`.

"""

#: what follows the table in docs/performance.md (the measurements behind
#: docs/design.md's decisions): kept as it is when the table is written
REST = "\n## "


def document(lines: list[str], old: str) -> str:
    """docs/performance.md with this run's table: the head and the table
    written anew, the sections after the table kept."""
    rest = old[old.index(REST) :] if REST in old else ""
    return DOC_HEAD + "\n".join(lines) + "\n" + rest


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each row and of the floor (default 3)")
    ap.add_argument("--quick", action="store_true", help="leave out the 300 and 1,000 unit rows")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-write", action="store_true", help="do not write docs/performance.md")
    ap.add_argument("--cli", help="the command to run instead of asl-kb (e.g. another checkout's, to compare)")
    args = ap.parse_args(argv)
    chosen = [r for r in rows(args.seed) if r.quick or not args.quick]
    cli = args.cli.split() if args.cli else _cli()
    walls: dict[str, list[float]] = {r.name: [] for r in chosen}
    mibs: dict[str, float] = {r.name: 0.0 for r in chosen}
    floors: list[float] = []
    _compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="asl-kb-bench-") as tmp:
        boards = None
        if any(r.boards for r in chosen):
            # the configured VASL boards folder's boards 2, 3 and 4, else
            # three synthetic boards of VASL's format built here
            boards = bench_boards.setup(Path(tmp), args.seed)
            os.environ["ASL_KB_VASL_BOARDS"] = str(boards.folder)
            print(f"VASL boards: {', '.join(boards.boards)} ({boards.kind})", file=sys.stderr)
        paths = {}
        argvs = {}
        for i, r in enumerate(chosen):
            if isinstance(r.make, Path):
                paths[r.name] = str(r.make)
            else:
                paths[r.name] = os.path.join(tmp, f"row{i}.yaml")
                text = r.make(boards) if r.boards else r.make()
                Path(paths[r.name]).write_text(text, encoding="utf-8")
            if r.command == "los":
                assert boards is not None
                argvs[r.name] = cli + ["los", "--board", boards.boards[0], "--pairs", paths[r.name]]
            else:
                argvs[r.name] = cli + ["outcomes", paths[r.name], "--format", "json"] + (["--phase"] if r.phase else [])
        for k in range(max(1, args.repeat)):
            floors.append(run(FLOOR)[0])
            for r in chosen:
                wall, mib = run(argvs[r.name])
                walls[r.name].append(wall)
                mibs[r.name] = max(mibs[r.name], mib)
                print(f"  round {k + 1}: {r.name}: {wall:.2f} s", file=sys.stderr, flush=True)
    floor = statistics.median(floors)
    results = [(r, statistics.median(walls[r.name]), mibs[r.name]) for r in chosen]
    lines = table(results, floor)
    print(
        f"seed {args.seed}; median of {max(1, args.repeat)} interleaved runs; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPU(s)"
    )
    print("\n".join(lines))
    for r, wall, mib in results:
        print(
            f"target: {r.name}: {r.target()} -> {'met' if r.met(wall, floor, mib) else 'missed'}"
            + (
                ""
                if r.seconds is None
                else f"; as {r.seconds / ISSUE_FLOOR:.1f}x the floor: {wall / floor:.1f}x -> "
                f"{'met' if r.met(wall, floor, mib, True) else 'missed'}"
            )
        )
    if not (args.no_write or args.quick or args.cli):
        DOC.write_text(document(lines, DOC.read_text(encoding="utf-8") if DOC.exists() else ""), encoding="utf-8")
        print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
