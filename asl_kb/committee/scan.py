"""Walk a scope's positions smallest first, judge each, keep the witnesses.

One loop serves every search (diff, gaps): positions go out in batches to an
evaluator -- in this process (`serial`), in child processes on this
machine (`forked`: asl_kb/children.py), or a Dask cluster of other
machines (dask_run.py) -- and come back in any order; they are taken in enumeration order, so the
report is the same whatever the number of workers or their order. Each judged
position may be appended to a JSON-lines file as it is taken (`stream`);
`resume` reads that file back and skips what it holds. `timeout` (seconds)
and Ctrl-C stop the walk; the report then says it is incomplete.
"""

from __future__ import annotations

import contextlib
import json
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from asl_kb import budget
from asl_kb.committee.enumerate import candidates, to_yaml
from asl_kb.committee.scope import Scope
from asl_kb.errors import PositionError

#: positions sent to a cluster at a time (an evaluator may set its own
#: `batch`; in-process it is 1, so --timeout and Ctrl-C stop at once)
BATCH = 16

#: evaluate(job) -> verdict: job is (index, name, yaml text); the verdict a
#: JSON-able dict with "witness": bool, "incomplete": [...], and the details
Evaluator = Callable[[Iterable[tuple]], Iterator[tuple[int, dict]]]


def serial(judge: Callable[[str, str], dict]) -> Evaluator:
    def evaluate(jobs):
        for index, name, text in jobs:
            yield index, judge(name, text)

    evaluate.batch = 1  # type: ignore[attr-defined]  # a function attribute, read by getattr
    return evaluate


#: positions a child judges (its fork and answer cost some milliseconds)
PER_CHILD = 8


@contextlib.contextmanager
def forked(workers: int):
    """A context yielding `make(judge) -> evaluator` that judges positions
    `workers` at a time in child processes (asl_kb/children.py), PER_CHILD
    each. Each batch's first position is judged in this process, so that
    every child is forked warm (the rules read, the slices built); a child
    still judging when the walk stops (a witness, --timeout, Ctrl-C) is
    killed."""

    def make(judge: Callable[[str, str], dict]) -> Evaluator:
        def evaluate(jobs):
            from asl_kb import children

            jobs = list(jobs)
            if jobs:
                index, name, text = jobs.pop(0)
                yield index, judge(name, text)
            chunks = iter([jobs[i : i + PER_CHILD] for i in range(0, len(jobs), PER_CHILD)])
            running: list = []
            try:
                while True:
                    while len(running) < workers:
                        chunk = next(chunks, None)
                        if chunk is None:
                            break
                        running.append(children.start(_judged, judge, chunk))
                    if not running:
                        return
                    # (the children keep the walk's deadline, forked with it:
                    # one inside a ground call past it is not waited for)
                    end = budget.deadline()
                    ready = children.ready(running, None if end is None else max(0.0, end - time.monotonic()))
                    if not ready:
                        raise budget.TimedOut("judging positions in child processes")
                    for child in ready:
                        running.remove(child)
                        yield from child.result()
            finally:
                for child in running:
                    child.kill()

        evaluate.batch = BATCH * workers  # type: ignore[attr-defined]  # a function attribute, read by getattr
        return evaluate

    yield make


def _judged(judge: Callable[[str, str], dict], jobs: list[tuple]) -> list[tuple[int, dict]]:
    return [(index, judge(name, text)) for index, name, text in jobs]


@contextlib.contextmanager
def _ctrl_c():
    """Ctrl-C (SIGINT) inside the block sets the yielded event instead of
    raising inside the engine (clingo would take it for its own and the
    position's answer could be cut): the walk stops after the position at
    hand. A second Ctrl-C raises KeyboardInterrupt as usual."""
    hit = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield hit
        return

    def handler(_signum, _frame):
        if hit.is_set():
            raise KeyboardInterrupt
        hit.set()

    old = signal.signal(signal.SIGINT, handler)
    try:
        yield hit
    finally:
        signal.signal(signal.SIGINT, old)


def _read_stream(path: Path) -> dict[int, dict]:
    """The verdicts a --stream file holds (--resume): each line as a search
    writes it; the last may be cut by an interruption. Anything else is not
    such a file: PositionError naming its line."""
    done: dict[int, dict] = {}
    if not path.is_file():
        return done
    try:
        lines = path.read_bytes().decode("utf-8").splitlines()
    except OSError as e:
        raise PositionError(str(path), None, "--stream", f"cannot read file: {e.strerror}") from None
    except UnicodeDecodeError as e:
        line = path.read_bytes().count(b"\n", 0, e.start) + 1
        raise PositionError(str(path), line, "--stream", "file is not UTF-8 text") from None
    for n, line in enumerate(lines, 1):
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            if n == len(lines):
                continue  # the last line, cut by an interruption
            entry = None
        if not (
            isinstance(entry, dict) and isinstance(entry.get("index"), int) and isinstance(entry.get("verdict"), dict)
        ):
            raise PositionError(
                str(path), n, "--stream", 'not a line a search writes ({"index": N, "verdict": {...}, ...})'
            )
        done[entry["index"]] = entry["verdict"]
    return done


def _within(results: Iterator[tuple[int, dict]], deadline: float | None) -> Iterator[tuple[int, dict | None]]:
    """The evaluator's results, each one judged in this process (the serial
    evaluator judges a position when its result is asked for) under the
    time left (asl_kb/budget.py: the engines check it between ground calls,
    while solving and reading): a position cut there -- TimedOut, or a
    verdict marked incomplete once the deadline is past -- ends the results
    with (index, None) rather than a verdict of half a position."""
    while True:
        left = None if deadline is None else deadline - time.monotonic()
        try:
            with budget.deadline_in(None if left is None else max(left, 0.0)):
                index, verdict = next(results)
        except StopIteration:
            return
        except budget.TimedOut:
            yield -1, None
            return
        if verdict.get("incomplete") and deadline is not None and time.monotonic() > deadline:
            yield index, None
            return
        yield index, verdict


def scan(
    scope: Scope,
    evaluate: Evaluator,
    witnesses: int = 3,
    max_positions: int | None = None,
    timeout: float | None = None,
    since: float | None = None,
    stream: str | None = None,
    resume: bool = False,
    progress: Callable[..., None] | None = None,
    positions: Callable[[float | None], Iterator] | None = None,
) -> dict:
    """(`positions(deadline)`: the candidates to walk, in order -- the
    solver's, committee/generate.py -- instead of the scope's enumeration)
    {"tried", "untouched" (verdicts marked so: not run), "dead_ends_only"
    (verdicts marked so: the rule sets act only on dead ends), "witnesses":
    [(candidate, verdict)], "incomplete": [...], "stopped", "seconds"}."""
    started = time.perf_counter()
    # (`since`: the time.monotonic() the timeout counts from, if before now)
    deadline = None if timeout is None else (time.monotonic() if since is None else since) + timeout
    done = _read_stream(Path(stream)) if stream and resume else {}
    out = open(stream, "a" if resume else "w", encoding="utf-8") if stream else None
    cut: list[str]
    found, cut, tried, untouched, dead_ends = [], [], 0, 0, 0
    stopped = None
    pending = iter(positions(deadline) if positions is not None else candidates(scope))
    batch_size = getattr(evaluate, "batch", BATCH)
    planned, limit_hit = 0, False

    def submit():
        """The next batch: its candidates, the verdicts the stream already
        holds, and the evaluator's results for the rest (a cluster starts on
        them at once, so it works on one batch while this one is taken)."""
        nonlocal planned, limit_hit
        batch = []
        for c in [] if limit_hit else pending:
            if max_positions is not None and planned >= max_positions:
                limit_hit = True
                break
            batch.append(c)
            planned += 1
            if len(batch) == batch_size:
                break
        verdicts = {c.index: done[c.index] for c in batch if c.index in done}
        jobs = [(c.index, f"{scope.name} #{c.index + 1}", to_yaml(scope, c)) for c in batch if c.index not in done]
        return batch, verdicts, evaluate(jobs) if jobs else iter(())

    try:
        with _ctrl_c() as ctrl_c:
            batch, verdicts, results = submit()
            while batch:
                ahead = submit()
                taken = 0

                def take() -> None:
                    """The batch's verdicts at hand, in enumeration order."""
                    nonlocal taken, tried, untouched, dead_ends, stopped
                    while stopped is None and taken < len(batch) and batch[taken].index in verdicts:
                        c = batch[taken]
                        verdict = verdicts[c.index]
                        taken += 1
                        tried += 1
                        untouched += bool(verdict.get("untouched"))
                        dead_ends += bool(verdict.get("dead_ends_only"))
                        cut.extend(f"{scope.name} #{c.index + 1}: {w}" for w in verdict.get("incomplete", ()))
                        if verdict["witness"]:
                            found.append((c, verdict))
                            if len(found) >= witnesses:
                                stopped = f"{witnesses} witness(es) found"

                def over() -> str | None:
                    if ctrl_c.is_set():
                        return "interrupted"
                    if deadline is not None and time.monotonic() > deadline:
                        return f"--timeout {timeout:g} s reached"
                    return None

                take()
                # results as they come: the deadline is looked at after each,
                # not only after the batch (a cluster's batch is long); one
                # judged in this process is cut at the deadline itself
                for index, verdict in _within(results, deadline):
                    if verdict is None:  # cut by the deadline: not judged
                        stopped = over() or f"--timeout {timeout:g} s reached"
                        break
                    verdicts[index] = verdict
                    if out is not None:
                        out.write(json.dumps({"index": index, "verdict": verdict}, sort_keys=True) + "\n")
                        out.flush()
                    take()
                    if stopped is None and taken < len(batch):
                        stopped = over()
                    if stopped is not None:
                        break
                if progress is not None:
                    progress(tried, len(found), time.perf_counter() - started)
                if stopped is None:
                    stopped = over()
                if stopped is not None:
                    break
                batch, verdicts, results = ahead
            if stopped is None:
                stopped = f"--max-positions {max_positions} reached" if limit_hit else "scope exhausted"
    except KeyboardInterrupt:
        stopped = "interrupted"
    finally:
        if out is not None:
            out.close()
    if progress is not None:
        progress(tried, len(found), time.perf_counter() - started, last=True)
    incomplete = list(cut)
    if stopped not in ("scope exhausted",) and not (stopped or "").endswith("witness(es) found"):
        incomplete.append(f"stopped: {stopped}")
    return {
        "tried": tried,
        "untouched": untouched,
        "dead_ends_only": dead_ends,
        "witnesses": found,
        "incomplete": incomplete,
        "stopped": stopped,
        "seconds": time.perf_counter() - started,
    }


def witness_entries(scope: Scope, s: dict, out: str | None, stem: str, fields, header) -> list[dict]:
    """One entry per witness of a scan: where it stands in the scope, the
    `fields(verdict)` of its search, and the position itself — written to
    `out/STEM-NNN.yaml` under `header(n, file, entry, verdict)` when `out` is
    given, else inline as `yaml`."""
    from asl_kb.committee.enumerate import brief, to_yaml, unit_count

    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
    found = []
    for n, (c, v) in enumerate(s["witnesses"], 1):
        w = {
            "index": c.index + 1,
            "units": unit_count(scope, c),
            "non_open": c.size[1],
            "position": f"{scope.name} #{c.index + 1}",
            "brief": brief(scope, c),
            **fields(v),
        }
        if out:
            file = Path(out) / f"{stem}-{n:03d}.yaml"
            w["file"] = file.as_posix()
            file.write_text(to_yaml(scope, c, header(n, file.as_posix(), w, v)), encoding="utf-8")
        else:
            w["yaml"] = to_yaml(scope, c)
        found.append(w)
    return found


def scanned(s: dict) -> dict:
    """What every search report says of its walk: positions tried, whether it
    ended, and where it stopped."""
    return {"tried": s["tried"], "complete": not s["incomplete"], "stopped": s["stopped"]}


def finish_report(report: dict, s: dict) -> dict:
    """The report's last keys: why it is incomplete (if so), and its time."""
    if s["incomplete"]:
        report["incomplete_because"] = s["incomplete"]
    report["_seconds"] = s["seconds"]
    return report
