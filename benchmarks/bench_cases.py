"""Where real games put their units (issue 12): prints figures, asserts nothing.

Cases, every one generated and seeded (benchmarks/generate.py):

* floor   - ``python -c 'import clingo, yaml, jinja2'`` (the import floor)
* cli     - ``asl-kb outcomes`` on a rulebook position (JSON and text) and
            ``asl-kb --help``, measured side by side with the floor
* spread  - 10 broken units per board, spread on every board, 1/2/4/8/16 boards
* stack   - ``--phase``, one stack of N broken squads ADJACENT to one enemy
            squad, N = 2/5/10, and 3 squads + 4 SMC
* open    - one broken squad on an all-open board, one enemy at range 2

Each case runs in a child process of its own (so imports, memory and a crash
stay there). Per case it prints: the child's wall time (start to exit) and
CPU time (user + system, from os.wait4), outcomes() alone inside the child
(wall, CPU), ground atoms, fates, JSON size, peak memory (ru_maxrss of the
child) and the ratio of the child's wall time to the import floor measured in
the same run. Nothing is asserted: the machine may be shared.

Usage (from the repository root):
    .venv/bin/python benchmarks/bench_cases.py             # every case
    .venv/bin/python benchmarks/bench_cases.py --quick     # small cases only
    .venv/bin/python benchmarks/bench_cases.py --only stack
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from generate import generate_open, generate_position, generate_stack  # noqa: E402

RULEBOOK = ROOT / "facts" / "rout" / "A10.5-EX.yaml"
FLOOR = [sys.executable, "-c", "import clingo, yaml, jinja2"]


def _cli() -> list[str]:
    script = Path(sys.executable).parent / "asl-kb"
    return [str(script)] if script.exists() else [sys.executable, "-m", "asl_kb.cli"]


#: starts argv from a process of a few MiB and reports on it (wall, CPU,
#: peak memory, exit code) into the file named first: a child's ru_maxrss
#: counts the memory of the process it was forked from, so a benchmark
#: holding boards or positions would read as every row's peak
LAUNCH = (
    "import os,sys,time;t=time.perf_counter();p=os.posix_spawnp(sys.argv[2],sys.argv[2:],os.environ);"
    "_,s,ru=os.wait4(p,0);w=time.perf_counter()-t;"
    "open(sys.argv[1],'w').write(f'{w} {ru.ru_utime+ru.ru_stime} {ru.ru_maxrss} {os.waitstatus_to_exitcode(s)}')"
)


def run_child(argv: list[str], timeout: float = 600.0, env: dict | None = None) -> dict:
    """Run argv (in `env`, default this process's); its wall time, CPU time
    and peak memory (ru_maxrss, KiB on Linux), and its standard output."""
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r", suffix=".run") as report:
        subprocess.run(
            [sys.executable, "-I", "-S", "-c", LAUNCH, report.name, *argv],
            stdout=out,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
            env=env,
            check=True,
            timeout=timeout,
        )
        wall, cpu, maxrss, rc = report.read().split()
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return {"wall": float(wall), "cpu": float(cpu), "maxrss_mib": int(maxrss) / 1024, "rc": int(rc), "stdout": text}


def child(path: str, phase: bool) -> None:
    """In the child: outcomes() on one position, its own timings as JSON."""
    sys.path.insert(0, str(ROOT))
    from asl_kb.engines.outcomes import outcomes
    from asl_kb.position.loader import load_position
    from asl_kb.report.render import to_json

    pos = load_position(path)
    t0, c0 = time.perf_counter(), time.process_time()
    r = outcomes(pos, phase=phase)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    text = to_json(r)
    st = r.stats
    print(
        json.dumps(
            {
                "wall": wall,
                "cpu": cpu,
                "atoms": st.atoms,
                "ground": st.ground_seconds,
                "fates": sum(len(u.fates) for u in r.units),
                "phase_count": r.phase.count if r.phase is not None else None,
                "complete": r.complete,
                "json_bytes": len(text.encode()),
            }
        )
    )


def _median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


HEADER = (
    "case",
    "wall s",
    "cpu s",
    "x floor",
    "outcomes() s",
    "outcomes() cpu s",
    "ground atoms",
    "fates",
    "phase outcomes",
    "JSON bytes",
    "peak MiB",
    "complete",
)


def _print(rows: list[tuple]) -> None:
    widths = [max(len(HEADER[i]), *(len(r[i]) for r in rows)) for i in range(len(HEADER))]
    print("  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(HEADER, widths))))
    for r in rows:
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))), flush=True)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--child", metavar="POSITION", help=argparse.SUPPRESS)
    ap.add_argument("--phase", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true", help="small cases only (up to 4 boards, stacks up to 5)")
    ap.add_argument(
        "--only", choices=("cli", "spread", "stack", "open"), action="append", help="run only these groups (repeatable)"
    )
    ap.add_argument("--repeat", type=int, default=5, help="runs of each CLI case and of the floor (default 5)")
    ap.add_argument(
        "--case-repeat",
        type=int,
        default=1,
        help="runs of each other case; its row is the run with the median outcomes() CPU time, "
        "peak memory the most of any run (default 1)",
    )
    ap.add_argument("--seed", type=int, default=0)
    return ap


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.child:
        child(args.child, args.phase)
        return 0
    groups = args.only or ["cli", "spread", "stack", "open"]
    boards = (1, 2, 4) if args.quick else (1, 2, 4, 8, 16)
    stacks = [(2, 0), (5, 0), (3, 4)] if args.quick else [(2, 0), (5, 0), (10, 0), (3, 4)]

    # The package's bytecode first, as `pip install` leaves it: without it
    # (PYTHONDONTWRITEBYTECODE is set on some machines, this project's among
    # them) every CLI run would compile asl_kb's sources again, while the
    # floor's packages come compiled.
    compileall.compile_dir(str(ROOT / "asl_kb"), quiet=1)
    # the floor and the CLI cases, interleaved run by run (side by side)
    cli = _cli()
    side = {
        "floor: import clingo, yaml, jinja2": FLOOR,
        "cli: --help": cli + ["--help"],
        f"cli: outcomes {RULEBOOK.name} --format json": cli + ["outcomes", str(RULEBOOK), "--format", "json"],
        f"cli: outcomes {RULEBOOK.name} (text)": cli + ["outcomes", str(RULEBOOK)],
    }
    if "cli" not in groups:
        side = dict(list(side.items())[:1])
    runs: dict[str, list] = {k: [] for k in side}
    for _ in range(max(1, args.repeat)):
        for k, argv_ in side.items():
            runs[k].append(run_child(argv_))
    floor = _median(runs[next(iter(side))], "wall")
    rows: list[tuple] = []
    for k, rs in runs.items():
        rows.append(
            (
                k,
                f"{_median(rs, 'wall'):.3f}",
                f"{_median(rs, 'cpu'):.3f}",
                f"{_median(rs, 'wall') / floor:.2f}",
                "-",
                "-",
                "-",
                "-",
                "-",
                str(len(rs[0]["stdout"].encode())) if "json" in k else "-",
                f"{max(r['maxrss_mib'] for r in rs):.0f}",
                "-",
            )
        )

    cases = []
    if "spread" in groups:
        cases += [
            (f"spread: {b} board(s) x 10 broken", generate_position(b, 10, args.seed, spread=True), False)
            for b in boards
        ]
    if "stack" in groups:
        cases += [
            (f"stack --phase: {n} squads" + (f" + {m} SMC" if m else ""), generate_stack(n, m, args.seed), True)
            for n, m in stacks
        ]
        cases.append(("stack (no --phase): 10 squads", generate_stack(10, 0, args.seed), False))
    if "open" in groups:
        cases.append(("open: 1 broken, enemy at range 2", generate_open(args.seed), False))
    measured: dict[str, tuple[dict, dict]] = {}
    with tempfile.TemporaryDirectory(prefix="asl-kb-bench-") as tmp:
        for i, (name, text, phase) in enumerate(cases):
            path = os.path.join(tmp, f"case{i}.yaml")
            Path(path).write_text(text, encoding="utf-8")
            rows.append(_case_row((name, path, phase), args, floor, measured))
    print()
    other = "one run each" if args.case_repeat <= 1 else f"the run with the median outcomes() CPU of {args.case_repeat}"
    print(
        f"seed {args.seed}; CLI rows and floor: median of {max(1, args.repeat)} interleaved runs; "
        f"other rows: {other}, in a child process; python {sys.version.split()[0]}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPU(s)"
    )
    _print(rows)
    print()
    for line in _targets(runs, floor, measured, boards):
        print(line)
    return 0


def _case_row(case: tuple[str, str, bool], args, floor: float, measured: dict) -> tuple:
    """The row of one case (name, its position's file, --phase): the run
    with the median outcomes() CPU time of --case-repeat runs, its peak
    memory the most of any run (measured[name]: its figures and its run)."""
    name, path, phase = case
    tries = []
    for _ in range(max(1, args.case_repeat)):
        r = run_child([sys.executable, str(Path(__file__).resolve()), "--child", path] + (["--phase"] if phase else []))
        try:
            tries.append((r, json.loads(r["stdout"].strip().splitlines()[-1])))
        except (ValueError, IndexError):
            break
    if len(tries) < max(1, args.case_repeat):
        error = (name, f"{r['wall']:.3f}", f"{r['cpu']:.3f}", "-", f"error (exit {r['rc']})")
        return error + ("-",) * (len(HEADER) - len(error))
    # the run with the median outcomes() CPU time stands for the case
    tries.sort(key=lambda t: t[1]["cpu"])
    r, c = tries[len(tries) // 2]
    r = dict(r, maxrss_mib=max(t[0]["maxrss_mib"] for t in tries))
    measured[name] = (c, r)
    row = (
        name,
        f"{r['wall']:.3f}",
        f"{r['cpu']:.3f}",
        f"{r['wall'] / floor:.2f}",
        f"{c['wall']:.3f}",
        f"{c['cpu']:.3f}",
        str(c["atoms"]),
        str(c["fates"]),
        str(c["phase_count"]) if phase else "-",
        str(c["json_bytes"]),
        f"{r['maxrss_mib']:.0f}",
        "yes" if c["complete"] else "NO",
    )
    print(f"  {name}: {r['wall']:.2f} s", file=sys.stderr, flush=True)
    return row


def _verdict(value: float, limit: float) -> str:
    return "met" if value <= limit else "missed"


def _targets(cli_runs: dict, floor: float, measured: dict, boards) -> list[str]:
    """Issue 12's targets against this run's figures (printed, not asserted:
    the machine's speed moves from run to run)."""
    out = []
    for k, rs in cli_runs.items():
        if k.startswith("cli: outcomes"):
            ratio = _median(rs, "wall") / floor
            out.append(
                f"target: {k[5:]} <= 1.6x the import floor (wall, median): {ratio:.2f}x -> {_verdict(ratio, 1.6)}"
            )
    spread: dict = {b: measured.get(f"spread: {b} board(s) x 10 broken") for b in boards}
    top = max(b for b in boards)
    if spread.get(top) and top == 16:
        c, r = spread[16]
        out.append(
            f"target: spread over 16 boards <= 2 s (outcomes() CPU): {c['cpu']:.2f} s -> {_verdict(c['cpu'], 2.0)}; "
            f"<= 300 MiB: {r['maxrss_mib']:.0f} MiB -> {_verdict(r['maxrss_mib'], 300)}"
        )
    if spread.get(1) and spread.get(top) and top > 1:
        per1, pertop = spread[1][0]["cpu"] / 10, spread[top][0]["cpu"] / (10 * top)
        out.append(
            f"target: time at most linear in the units (outcomes() CPU per unit, {top} boards / 1 board): "
            f"{pertop * 1000:.1f} / {per1 * 1000:.1f} ms = {pertop / per1:.2f} -> {_verdict(pertop / per1, 1.0)}"
        )
    for name, limit in (
        ("stack --phase: 3 squads + 4 SMC", 1.0),
        ("stack --phase: 10 squads", 2.0),
        ("open: 1 broken, enemy at range 2", 0.6),
    ):
        if name in measured:
            cpu = measured[name][0]["cpu"]
            out.append(f"target: {name} <= {limit:g} s (outcomes() CPU): {cpu:.2f} s -> {_verdict(cpu, limit)}")
    return out


if __name__ == "__main__":
    sys.exit(main())
