"""Synthetic Rout Phase positions for the benchmarks.

``generate_position(boards, broken, seed)`` returns the YAML text of a
position (docs/position-format.md) made of ``boards`` geomorphic boards
stacked north to south: board 0 holds rows 0..10 (row 0 only in the
half-hex columns B, D, ...), board k >= 1 holds rows 10k+1..10k+10, all of
them columns A..GG, so ``map.area`` is ``[A0, GG{10*boards}]``. (Rows above
10 are accepted by ``hexgrid.Area`` and the loader; columns stop at ZZ, so
boards cannot be laid side by side.)

Terrain: each board gets, from its own ``random.Random``, exactly 15 %
woods, 10 % building, 10 % grain, the rest open (default terrain). The
terrain of board k depends only on ``seed`` and k, so the first board is the
same whatever the number of boards.

Units, all on the first board, drawn from a generator that depends only on
``seed`` and ``broken`` (never on ``boards``), so 1, 2 and 4 boards hold the
very same units at the very same hexes:

* ``broken`` Russian 4-4-7 squads, status ``[broken]`` or (one in three)
  ``[broken, dm]``;
* ``broken // 2`` (at least 1) unbroken German 4-6-7 squads, each 3 to 5
  hexes from one of the broken squads.

At most one unit per hex. The Russians are the ATTACKER.

Run as a script to print one position:
``python benchmarks/generate.py BOARDS BROKEN [SEED]``.
"""

from __future__ import annotations

import random
import sys
from typing import NamedTuple

BOARD_COLS = 33  # A..GG
BOARD_ROWS = 10
WOODS, BUILDING, GRAIN = 0.15, 0.10, 0.10

_COL_NAMES = [chr(ord("A") + c) if c < 26 else chr(ord("A") + c - 26) * 2 for c in range(BOARD_COLS)]


def _hex(col: int, row: int) -> str:
    return f"{_COL_NAMES[col]}{row}"


def board_hexes(k: int) -> list[tuple[int, int]]:
    """(col, row) of every hex of board k (0-based), sorted by column then row."""
    if k == 0:
        rows = range(0, BOARD_ROWS + 1)
    else:
        rows = range(BOARD_ROWS * k + 1, BOARD_ROWS * (k + 1) + 1)
    return [(c, r) for c in range(BOARD_COLS) for r in rows if not (r == 0 and c % 2 == 0)]


def _board_terrain(k: int, seed: int) -> dict[tuple[int, int], str]:
    hexes = board_hexes(k)
    rng = random.Random(f"asl-kb-bench:{seed}:terrain:{k}")
    order = hexes[:]
    rng.shuffle(order)
    n = len(order)
    nw, nb, ng = round(WOODS * n), round(BUILDING * n), round(GRAIN * n)
    out = {}
    for i, h in enumerate(order[: nw + nb + ng]):
        out[h] = "woods" if i < nw else "building" if i < nw + nb else "grain"
    return out


def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Cube distance in the odd-q layout of asl_kb.hexgrid."""

    def cube(col, row):
        x = col
        z = row - (col - (col & 1)) // 2
        return x, -x - z, z

    ax, ay, az = cube(*a)
    bx, by, bz = cube(*b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def _place_units(broken: int, seed: int):
    """(russians, germans): lists of ((col, row), dm) and (col, row).

    The broken Russians stand in rows 0..4 of the first board: six hexes of
    rout reach from there stay on that board, so 1, 2 and 4 boards give the
    same units the same work and differ only in the size of the map."""
    first = board_hexes(0)
    top = [h for h in first if h[1] <= 4]
    if broken > len(top) or broken + max(1, broken // 2) > len(first):
        raise ValueError(f"{broken} broken units do not fit on one board")
    rng = random.Random(f"asl-kb-bench:{seed}:units:{broken}")
    taken: set[tuple[int, int]] = set()
    russians = []
    for h in rng.sample(top, broken):
        taken.add(h)
        russians.append((h, rng.random() < 1 / 3))
    germans = []
    for i in range(max(1, broken // 2) if broken else 0):
        # near a broken squad of its own (i-th, wrapping), else any free hex
        for j in range(len(russians)):
            anchor = russians[(i + j) % len(russians)][0]
            near = [h for h in first if h not in taken and 3 <= _distance(h, anchor) <= 5]
            if near:
                h = rng.choice(near)
                break
        else:
            h = rng.choice([h for h in first if h not in taken])
        taken.add(h)
        germans.append(h)
    return russians, germans


def _place_spread(boards: int, per_board: int, seed: int):
    """(russians, germans) spread the way campaign games put units: on every
    board, ``per_board`` broken Russians and half as many Germans (at least
    one), each German 3 to 5 hexes from a broken squad of its own board.
    Board k's units depend only on ``seed``, ``per_board`` and k."""
    russians, germans = [], []
    for k in range(boards):
        hexes = board_hexes(k)
        rng = random.Random(f"asl-kb-bench:{seed}:spread:{per_board}:{k}")
        mine = rng.sample(hexes, per_board)
        taken = set(mine)
        russians += [(h, rng.random() < 1 / 3) for h in mine]
        for i in range(max(1, per_board // 2)):
            anchor = mine[i % len(mine)]
            near = [h for h in hexes if h not in taken and 3 <= _distance(h, anchor) <= 5]
            h = rng.choice(near)
            taken.add(h)
            germans.append(h)
    return russians, germans


def generate_position(boards: int, broken: int, seed: int = 0, spread: bool = False) -> str:
    """YAML text of a synthetic position; see the module docstring."""
    if boards < 1:
        raise ValueError("boards must be >= 1")
    if broken < 0:
        raise ValueError("broken must be >= 0")
    terrain: dict[tuple[int, int], str] = {}
    for k in range(boards):
        terrain.update(_board_terrain(k, seed))
    russians, germans = _place_spread(boards, broken, seed) if spread else _place_units(broken, seed)

    lines = [
        f"name: bench {boards} board(s), {broken} broken{' per board' if spread else ''}, seed {seed}",
        "notes: generated by benchmarks/generate.py",
        "rules: current",
        "phase: rout",
        "attacker: russian",
        "map:",
        "  default_terrain: open",
        f"  area: [A0, GG{BOARD_ROWS * boards}]",
        "  terrain:",
    ]
    for c, r in sorted(terrain):
        lines.append(f"    {_hex(c, r)}: {terrain[(c, r)]}")
    if not terrain:
        lines[-1] = "  terrain: {}"
    lines.append("units:")
    for i, ((c, r), dm) in enumerate(russians, 1):
        status = "[broken, dm]" if dm else "[broken]"
        lines.append(
            f"  - {{id: R{i}, side: russian, type: squad, counter: 4-4-7, at: {_hex(c, r)}, status: {status}}}"
        )
    for i, (c, r) in enumerate(germans, 1):
        lines.append(f"  - {{id: G{i}, side: german, type: squad, counter: 4-6-7, at: {_hex(c, r)}}}")
    if not russians and not germans:
        lines[-1] = "units: []"
    return "\n".join(lines) + "\n"


def generate_stack(squads: int, smc: int = 0, seed: int = 0) -> str:
    """YAML text of one stack in the middle of a seeded board (terrain as
    board 0 of generate_position): ``squads`` broken Russian 4-4-7 squads and
    ``smc`` broken Russian 8-0 leaders in Q5, ADJACENT to one unbroken German
    4-6-7 squad in Q6. Q5 and Q6 are open ground, so the stack may surrender
    to the German (A20.21) and the German may reject it (A20.3): every unit is
    coupled in ``--phase``."""
    terrain = _board_terrain(0, seed)
    stack, enemy = (16, 5), (16, 6)
    for h in (stack, enemy):
        terrain.pop(h, None)
    lines = [
        f"name: bench stack of {squads} broken squad(s) and {smc} SMC, seed {seed}",
        "notes: generated by benchmarks/generate.py",
        "rules: current",
        "phase: rout",
        "attacker: russian",
        "map:",
        "  default_terrain: open",
        f"  area: [A0, GG{BOARD_ROWS}]",
        "  terrain:",
    ]
    lines += [f"    {_hex(c, r)}: {t}" for (c, r), t in sorted(terrain.items())]
    lines.append("units:")
    for i in range(1, squads + 1):
        lines.append(
            f"  - {{id: R{i}, side: russian, type: squad, counter: 4-4-7, at: {_hex(*stack)}, status: [broken]}}"
        )
    for i in range(1, smc + 1):
        lines.append(
            f"  - {{id: L{i}, side: russian, type: leader, counter: 8-0, at: {_hex(*stack)}, status: [broken]}}"
        )
    lines.append(f"  - {{id: G1, side: german, type: squad, counter: 4-6-7, at: {_hex(*enemy)}}}")
    return "\n".join(lines) + "\n"


def generate_open(seed: int = 0) -> str:
    """YAML text of one broken Russian squad on an all-open board (A0..GG10,
    no terrain at all) and one German squad at range 2 from it. ``seed`` picks
    where, away from the board edges."""
    rng = random.Random(f"asl-kb-bench:{seed}:open")
    inner = [h for h in board_hexes(0) if 3 <= h[0] <= BOARD_COLS - 4 and 3 <= h[1] <= BOARD_ROWS - 3]
    r = rng.choice(inner)
    g = rng.choice([h for h in board_hexes(0) if _distance(h, r) == 2])
    return (
        "\n".join(
            [
                f"name: bench one broken squad on open ground, seed {seed}",
                "notes: generated by benchmarks/generate.py",
                "rules: current",
                "phase: rout",
                "attacker: russian",
                "map:",
                "  default_terrain: open",
                f"  area: [A0, GG{BOARD_ROWS}]",
                "units:",
                f"  - {{id: R1, side: russian, type: squad, counter: 4-4-7, at: {_hex(*r)}, status: [broken]}}",
                f"  - {{id: G1, side: german, type: squad, counter: 4-6-7, at: {_hex(*g)}}}",
            ]
        )
        + "\n"
    )


class Stack(NamedTuple):
    """The broken units of a stack: Russian 4-4-7 squads, 8-0 leaders
    (SMC) and 2-4-7 half-squads."""

    squads: int
    smc: int = 0
    hs: int = 0


def generate_open_stack(stack: Stack, seed: int = 0, shuffled: bool = False, enemy_range: int = 1) -> str:
    """YAML text of one stack on an all-open board (A0..GG10, no terrain):
    the ``stack``'s broken Russian 4-4-7 squads, 2-4-7 half-squads
    and 8-0 leaders in one hex ``seed`` picks in the middle of the
    board, one unbroken German 4-6-7 squad ADJACENT to it (``enemy_range``
    1). Every way out is in the German's LOS and Normal Range: the stack
    surrenders (A20.21) or is rejected (A20.3); at range 2 it routs, in
    thousands of ways (Interdiction, Low Crawl). ``shuffled``: the units listed in a seeded order, with
    ids as a player may write them (not in listing order)."""
    squads, smc, hs = stack
    rng = random.Random(f"asl-kb-bench:{seed}:open-stack")
    # the middle of the board: under No Quarter the stack may rout six MF
    # any way, in thousands of ways (A20.3)
    inner = [h for h in board_hexes(0) if 10 <= h[0] <= BOARD_COLS - 11 and 4 <= h[1] <= BOARD_ROWS - 4]
    at = rng.choice(inner)
    enemy = rng.choice([h for h in board_hexes(0) if _distance(h, at) == enemy_range])
    units = [("squad", "4-4-7")] * squads + [("half_squad", "2-4-7")] * hs + [("leader", "8-0")] * smc
    ids = {"squad": "R", "half_squad": "H", "leader": "L"}
    seen: dict[str, int]
    rows, seen = [], {}
    for kind, counter in units:
        seen[kind] = seen.get(kind, 0) + 1
        rows.append(
            f"  - {{id: {ids[kind]}{seen[kind]}, side: russian, type: {kind}, counter: {counter}, "
            f"at: {_hex(*at)}, status: [broken]}}"
        )
    if shuffled:
        rng.shuffle(rows)
    return (
        "\n".join(
            [
                f"name: bench open stack of {squads} squad(s), {hs} HS, {smc} SMC, seed {seed}",
                "notes: generated by benchmarks/generate.py",
                "rules: current",
                "phase: rout",
                "attacker: russian",
                "map:",
                "  default_terrain: open",
                f"  area: [A0, GG{BOARD_ROWS}]",
                "units:",
                *rows,
                f"  - {{id: G1, side: german, type: squad, counter: 4-6-7, at: {_hex(*enemy)}}}",
            ]
        )
        + "\n"
    )


def generate_area_spread(broken: int, rows: int = 200, seed: int = 0) -> str:
    """YAML text of ``broken`` broken Russian squads (one in three also DM)
    spread over the map ``[A1, GG{rows}]`` (boards of 10 rows stacked as in
    generate_position, terrain likewise), the same number on every board, and
    half as many German squads, each 3 to 5 hexes from a broken squad of its
    own board."""
    boards = rows // BOARD_ROWS
    if broken % boards:
        raise ValueError(f"{broken} broken units do not spread evenly over {boards} boards")
    per = broken // boards
    terrain: dict[tuple[int, int], str] = {}
    russians, germans = [], []
    for k in range(boards):
        terrain.update({h: t for h, t in _board_terrain(k, seed).items() if h[1] >= 1})
        hexes = [h for h in board_hexes(k) if h[1] >= 1]
        rng = random.Random(f"asl-kb-bench:{seed}:area:{per}:{k}")
        mine = rng.sample(hexes, per)
        taken = set(mine)
        russians += [(h, rng.random() < 1 / 3) for h in mine]
        for i in range(max(1, per // 2)):
            near = [h for h in hexes if h not in taken and 3 <= _distance(h, mine[i % per]) <= 5]
            h = rng.choice(near)
            taken.add(h)
            germans.append(h)
    lines = [
        f"name: bench {broken} broken over [A1, GG{rows}], seed {seed}",
        "notes: generated by benchmarks/generate.py",
        "rules: current",
        "phase: rout",
        "attacker: russian",
        "map:",
        "  default_terrain: open",
        f"  area: [A1, GG{rows}]",
        "  terrain:",
    ]
    lines += [f"    {_hex(c, r)}: {t}" for (c, r), t in sorted(terrain.items())]
    lines.append("units:")
    for i, ((c, r), dm) in enumerate(russians, 1):
        status = "[broken, dm]" if dm else "[broken]"
        lines.append(
            f"  - {{id: R{i}, side: russian, type: squad, counter: 4-4-7, at: {_hex(c, r)}, status: {status}}}"
        )
    for i, (c, r) in enumerate(germans, 1):
        lines.append(f"  - {{id: G{i}, side: german, type: squad, counter: 4-6-7, at: {_hex(c, r)}}}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    spread = "--spread" in sys.argv
    args = [int(a) for a in sys.argv[1:] if a != "--spread"]
    if len(args) not in (2, 3):
        sys.exit("usage: generate.py [--spread] BOARDS BROKEN [SEED]  (--spread: BROKEN per board)")
    sys.stdout.write(generate_position(*args, spread=spread))  # type: ignore[misc, arg-type]  # 2 or 3 numbers
