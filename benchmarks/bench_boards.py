"""Positions on VASL boards (issue 42): prints figures, asserts nothing.

Cases, each run as the user runs it (a fresh `asl-kb` process, the boards
read cold from their archives):

* outcomes - a three-board position (two boards side by side, one below the
             first), 40 units of which 15 broken, `asl-kb outcomes --format
             json`; the target is 2 s
* los      - `asl-kb los --board B --pairs FILE`, 1,000 random pairs of hexes
             of one board; the target is 1 s

The boards: those of the VASL boards folder when one is configured
(--vasl-boards DIR, $ASL_KB_VASL_BOARDS or the config file; boards 2, 3 and
4 there), else three synthetic boards of VASL's format built here (hills,
woods, buildings, grain, brush, orchards, walls and hedges, seeded), so the
figures do not depend on anyone's boards folder. The units stand on hexes
drawn at random (seeded) among those the rules model.

Per case: wall and CPU time of the process (median of --repeat runs), its
peak memory, and for outcomes the LOS pairs the rules asked.

Usage (from the repository root):
    .venv/bin/python benchmarks/bench_boards.py [--repeat 3] [--vasl-boards DIR] [--synthetic]
"""

from __future__ import annotations

import argparse
import compileall
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (str(HERE), str(ROOT), str(ROOT / "tests")):
    if p not in sys.path:
        sys.path.insert(0, p)

from bench_cases import run_child  # noqa: E402

from asl_kb.errors import AslKbError  # noqa: E402
from asl_kb.vasl import archive  # noqa: E402
from asl_kb.vasl.layout import BoardSpec, column_index, column_letters  # noqa: E402
from asl_kb.vasl.realmap import RealMap  # noqa: E402

REAL = ("2", "3", "4")
SYNTHETIC = ("81", "82", "83")
#: terrain a unit may stand on (the others: water, cliffs, what the rules do not model)
STAND = {"open", "woods", "grain", "brush", "orchard", "stone_building", "wooden_building", "road", "rubble"}


def synthetic_board(seed: int):
    """A busy board of VASL's format (tests/vasl_archives.py Painter)."""
    from vasl_archives import Painter  # type: ignore[import-not-found]

    rnd = random.Random(seed)
    p = Painter()

    def some_hex(rows=(1, 10)) -> str:
        return f"{column_letters(rnd.randrange(1, 32))}{rnd.randrange(rows[0], rows[1] + 1)}"

    def near(h: str) -> str:
        letters = h.rstrip("0123456789")
        row = int(h[len(letters) :])
        col = min(32, max(0, column_index(letters) + rnd.choice((-1, 0, 1))))
        return f"{column_letters(col)}{min(10, max(1, row + rnd.choice((-1, 0, 1))))}"

    for _ in range(3):
        _hill(p, some_hex((3, 8)), near)
    for _ in range(10):  # woods
        h = some_hex()
        for w in {h} | {near(h) for _ in range(4)}:
            p.hex(w, "Woods", scale=rnd.uniform(0.7, 1.0))
    for terrain, n in (("Grain", 6), ("Brush", 4), ("Orchard", 3)):
        for _ in range(n):
            h = some_hex()
            for w in {h} | {near(h) for _ in range(3)}:
                p.hex(w, terrain, scale=0.95)
    for _ in range(14):  # buildings, some of two levels
        kind = rnd.choice(("Stone Building", "Wooden Building", "Stone Building, 2 Level"))
        p.disk(some_hex(), rnd.uniform(14, 22), kind)
    for _ in range(16):  # walls and hedges along hexsides
        p.hexside(some_hex(), rnd.randrange(1, 7), rnd.choice(("Wall", "Hedge")))
    return p


def _hill(p, top: str, near) -> None:
    """A hill: a level-1 skirt, a level-2 top, a level-3 summit."""
    skirt = {top} | {near(top) for _ in range(10)}
    for h in skirt:
        p.ground(h, 1)
    for h in {top} | {near(top) for _ in range(3)}:
        p.ground(h, 2, scale=0.8)
    p.ground(top, 3, scale=0.5)


def synthetic_folder(folder: Path, seed: int) -> Path:
    from vasl_archives import boards_folder

    return boards_folder(folder, {b: synthetic_board(seed + i) for i, b in enumerate(SYNTHETIC)})


def specs(boards) -> tuple[BoardSpec, ...]:
    a, b, c = boards
    return (BoardSpec(a), BoardSpec(b, col=1), BoardSpec(c, row=1))


def position_text(real: RealMap, boards, seed: int) -> str:
    """40 units (15 broken Russians, 10 more Russians, 15 Germans) on hexes
    drawn at random among those a unit may stand on."""
    rnd = random.Random(seed)
    hexes = []
    for h in real.layout.hexes():
        try:
            t = real.terrain_of(h)
        except AslKbError:
            continue
        if t[0] in STAND:
            hexes.append(h)
    picked = rnd.sample(hexes, 40)
    units = []
    for i, h in enumerate(picked):
        if i < 15:
            units.append(f"  - {{id: R{i}, side: russian, type: squad, counter: 4-4-7, at: {h}, status: [broken]}}")
        elif i < 25:
            units.append(f"  - {{id: Q{i}, side: russian, type: squad, counter: 4-4-7, at: {h}}}")
        else:
            units.append(f"  - {{id: G{i}, side: german, type: squad, counter: 4-6-7, at: {h}}}")
    a, b, c = boards
    return (
        "name: three boards, 40 units\nattacker: russian\nmap:\n"
        f"  boards: ['{a}', {{board: '{b}', col: 1}}, {{board: '{c}', row: 1}}]\n"
        "units:\n" + "\n".join(units) + "\n"
    )


def pairs_text(real: RealMap, board: str, n: int, seed: int) -> str:
    rnd = random.Random(seed)
    hexes = [h for h in real.layout.hexes() if h.startswith(board)]
    return "".join(f"{rnd.choice(hexes)} {rnd.choice(hexes)}\n" for _ in range(n))


class Setup(NamedTuple):
    """The boards a benchmark runs on: their folder, names and map."""

    folder: Path
    boards: tuple[str, str, str]
    real: RealMap
    kind: str  # "VASL" or "synthetic"


def setup(tmp: Path, seed: int = 0, folder: Path | None = None, synthetic: bool = False) -> Setup:
    """Boards 2, 3 and 4 of `folder` (default: the configured VASL boards
    folder) when it has them, else three synthetic boards built in `tmp`."""
    if folder is None and not synthetic:
        try:
            folder = archive.boards_folder()
        except AslKbError:
            folder = None
    if synthetic or folder is None or not all(archive.archive_path(folder, b).is_file() for b in REAL):
        folder = synthetic_folder(tmp / "boards", seed)
        return Setup(folder, SYNTHETIC, RealMap(specs(SYNTHETIC), folder), "synthetic")
    return Setup(folder, REAL, RealMap(specs(REAL), folder), "VASL")


def _cli() -> list[str]:
    script = Path(sys.executable).parent / "asl-kb"
    return [str(script)] if script.exists() else [sys.executable, "-m", "asl_kb.cli"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each case (default 3)")
    ap.add_argument("--vasl-boards", metavar="DIR", help="a VASL boards folder (default: the configured one)")
    ap.add_argument("--synthetic", action="store_true", help="synthetic boards even if a boards folder is configured")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    compileall.compile_dir(str(ROOT / "asl_kb"), quiet=1)

    with tempfile.TemporaryDirectory(prefix="asl-kb-bench-boards-") as tmp:
        given = Path(args.vasl_boards) if args.vasl_boards else None
        got = setup(Path(tmp), args.seed, given, args.synthetic)
        folder, boards, real = got.folder, got.boards, got.real
        pos = Path(tmp) / "three-boards.yaml"
        pos.write_text(position_text(real, boards, args.seed), encoding="utf-8")
        pairs = Path(tmp) / "pairs.txt"
        pairs.write_text(pairs_text(real, boards[0], 1000, args.seed), encoding="utf-8")
        print(f"boards: {', '.join(boards)} ({got.kind}, {folder if got.kind == 'VASL' else 'built here'})")

        env = dict(os.environ, ASL_KB_VASL_BOARDS=str(folder))
        cli = _cli()
        cases = {
            "outcomes: 3 boards, 40 units (15 broken)": cli + ["outcomes", str(pos), "--format", "json"],
            f"los: 1,000 pairs on board {boards[0]}": cli + ["los", "--board", boards[0], "--pairs", str(pairs)],
        }
        runs: dict[str, list[dict]] = {k: [] for k in cases}
        for _ in range(max(1, args.repeat)):
            for k, argv_ in cases.items():
                runs[k].append(run_child(argv_, env=env))
        width = max(len(k) for k in cases)
        print(f"{'case'.ljust(width)}  {'wall s':>7}  {'cpu s':>6}  {'peak MiB':>8}  rc")
        for k, rs in runs.items():
            wall = statistics.median(r["wall"] for r in rs)
            cpu = statistics.median(r["cpu"] for r in rs)
            peak = max(r["maxrss_mib"] for r in rs)
            print(f"{k.ljust(width)}  {wall:7.3f}  {cpu:6.3f}  {peak:8.0f}  {rs[0]['rc']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
