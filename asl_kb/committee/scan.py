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
from dataclasses import dataclass
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


@dataclass(frozen=True)
class ScanOptions:
    """How a scan walks: it stops after `witnesses` witnesses, after
    `max_positions` positions, or `timeout` seconds counted from `since` (a
    time.monotonic(), if before now); each judged position is appended to the
    JSON-lines file `stream` as it is taken (`resume`: the file read back
    first, the positions it holds not judged again); `progress(tried, found,
    seconds)` is told after each batch, and once more with `last=True`;
    `positions(deadline)`: the candidates to walk, in order -- the solver's,
    committee/generate.py -- instead of the scope's enumeration; `told(verdict)`
    is told each verdict taken, in order (committee/impact.py); `whole`: the
    walk goes on past the N-th witness, the first N kept (--impact)."""

    witnesses: int = 3
    max_positions: int | None = None
    timeout: float | None = None
    since: float | None = None
    stream: str | None = None
    resume: bool = False
    progress: Callable[..., None] | None = None
    positions: Callable[[float | None], Iterator] | None = None
    told: Callable[[dict], None] | None = None
    whole: bool = False

    def deadline(self) -> float | None:
        """The time.monotonic() past which the walk stops (None: never)."""
        if self.timeout is None:
            return None
        return (time.monotonic() if self.since is None else self.since) + self.timeout


@dataclass
class _Batch:
    """Candidates sent to the evaluator together: the verdicts at hand (the
    stream's, then the evaluator's as they come), its results still to come,
    and how many of the candidates were taken, in enumeration order."""

    candidates: list
    verdicts: dict[int, dict]
    results: Iterator[tuple[int, dict]]
    taken: int = 0

    def take(self, tally: _Tally) -> None:
        """The verdicts at hand, in enumeration order, into the tally (until it stops)."""
        while tally.stopped is None and self.taken < len(self.candidates):
            c = self.candidates[self.taken]
            if c.index not in self.verdicts:
                return
            self.taken += 1
            tally.add(c, self.verdicts[c.index])

    def all_taken(self) -> bool:
        return self.taken == len(self.candidates)


class _Batches:
    """The candidates to walk, in batches of the evaluator's size, up to
    --max-positions; a position the stream already holds is not sent."""

    def __init__(
        self, scope: Scope, evaluate: Evaluator, pending: Iterator, done: dict[int, dict], max_positions: int | None
    ) -> None:
        self.scope, self.evaluate, self.pending, self.done = scope, evaluate, pending, done
        self.max_positions = max_positions
        self.size = getattr(evaluate, "batch", BATCH)
        self.planned, self.limit_hit = 0, False

    def next(self) -> _Batch:
        """The next batch (empty at the end), its evaluation started: a
        cluster starts on it at once, so it works on one batch while this
        one is taken."""
        candidates = []
        for c in [] if self.limit_hit else self.pending:
            if self.max_positions is not None and self.planned >= self.max_positions:
                self.limit_hit = True
                break
            candidates.append(c)
            self.planned += 1
            if len(candidates) == self.size:
                break
        verdicts = {c.index: self.done[c.index] for c in candidates if c.index in self.done}
        jobs = [(c.index, self.name(c), to_yaml(self.scope, c)) for c in candidates if c.index not in self.done]
        return _Batch(candidates, verdicts, self.evaluate(jobs) if jobs else iter(()))

    def name(self, c) -> str:
        return f"{self.scope.name} #{c.index + 1}"

    def end(self) -> str:
        """Why the walk ended when every batch was taken."""
        return f"--max-positions {self.max_positions} reached" if self.limit_hit else "scope exhausted"


class _Tally:
    """What the verdicts taken so far come to: positions tried, untouched and
    on dead ends only, the witnesses, what was cut, and why the walk stopped
    (None while it goes on)."""

    def __init__(self, scope: Scope, options: ScanOptions) -> None:
        self.scope, self.witnesses, self.told, self.whole = scope, options.witnesses, options.told, options.whole
        self.started = time.perf_counter()
        self.found: list[tuple] = []
        self.cut: list[str] = []
        self.tried = self.untouched = self.dead_ends = 0
        self.stopped: str | None = None

    def add(self, c, verdict: dict) -> None:
        self.tried += 1
        self.untouched += bool(verdict.get("untouched"))
        self.dead_ends += bool(verdict.get("dead_ends_only"))
        self.cut.extend(f"{self.scope.name} #{c.index + 1}: {w}" for w in verdict.get("incomplete", ()))
        if self.told is not None:
            self.told(verdict)
        if verdict["witness"]:
            if len(self.found) < self.witnesses:
                self.found.append((c, verdict))
            if len(self.found) >= self.witnesses and not self.whole:
                self.stopped = f"{self.witnesses} witness(es) found"

    def seconds(self) -> float:
        return time.perf_counter() - self.started

    def report(self) -> dict:
        incomplete = list(self.cut)
        if self.stopped not in ("scope exhausted",) and not (self.stopped or "").endswith("witness(es) found"):
            incomplete.append(f"stopped: {self.stopped}")
        return {
            "scope": self.scope,
            "tried": self.tried,
            "untouched": self.untouched,
            "dead_ends_only": self.dead_ends,
            "witnesses": self.found,
            "incomplete": incomplete,
            "stopped": self.stopped,
            "seconds": self.seconds(),
        }


@dataclass(frozen=True)
class _Limits:
    """When the walk stops short: Ctrl-C, or the deadline of --timeout."""

    ctrl_c: threading.Event
    deadline: float | None
    timeout: float | None

    def over(self) -> str | None:
        if self.ctrl_c.is_set():
            return "interrupted"
        if self.deadline is not None and time.monotonic() > self.deadline:
            return self.timed_out()
        return None

    def timed_out(self) -> str:
        return f"--timeout {self.timeout:g} s reached"


def _judge_batch(batch: _Batch, tally: _Tally, limits: _Limits, out) -> None:
    """A batch's results as they come, each appended to the stream `out`
    and taken in enumeration order: the limits are looked at after each, not
    only after the batch (a cluster's batch is long); one judged in this
    process is cut at the deadline itself."""
    batch.take(tally)
    for index, verdict in _within(batch.results, limits.deadline):
        if verdict is None:  # cut by the deadline: not judged
            tally.stopped = limits.over() or limits.timed_out()
            return
        batch.verdicts[index] = verdict
        if out is not None:
            out.write(json.dumps({"index": index, "verdict": verdict}, sort_keys=True) + "\n")
            out.flush()
        batch.take(tally)
        if tally.stopped is None and not batch.all_taken():
            tally.stopped = limits.over()
        if tally.stopped is not None:
            return


def _walk(batches: _Batches, tally: _Tally, limits: _Limits, out, progress: Callable[..., None] | None) -> None:
    """Every batch in turn, the next one sent before this one is taken, until
    the tally or the limits stop the walk."""
    batch = batches.next()
    while batch.candidates:
        ahead = batches.next()
        _judge_batch(batch, tally, limits, out)
        if progress is not None:
            progress(tally.tried, len(tally.found), tally.seconds())
        if tally.stopped is None:
            tally.stopped = limits.over()
        if tally.stopped is not None:
            return
        batch = ahead
    tally.stopped = batches.end()


def _stream_file(options: ScanOptions):
    """The --stream file open for the verdicts (appended to with --resume), else no file."""
    if not options.stream:
        return contextlib.nullcontext()
    return open(options.stream, "a" if options.resume else "w", encoding="utf-8")


def scan(scope: Scope, evaluate: Evaluator, options: ScanOptions) -> dict:
    """{"scope", "tried", "untouched" (verdicts marked so: not run),
    "dead_ends_only" (verdicts marked so: the rule sets act only on dead
    ends), "witnesses": [(candidate, verdict)], "incomplete": [...],
    "stopped", "seconds"}."""
    tally = _Tally(scope, options)
    deadline = options.deadline()
    done = _read_stream(Path(options.stream)) if options.stream and options.resume else {}
    with _stream_file(options) as out:
        pending = iter(options.positions(deadline) if options.positions is not None else candidates(scope))
        batches = _Batches(scope, evaluate, pending, done, options.max_positions)
        try:
            with _ctrl_c() as ctrl_c:
                _walk(batches, tally, _Limits(ctrl_c, deadline, options.timeout), out, options.progress)
        except KeyboardInterrupt:
            tally.stopped = "interrupted"
    if options.progress is not None:
        options.progress(tally.tried, len(tally.found), tally.seconds(), last=True)
    return tally.report()


def witness_entries(s: dict, out: str | None, stem: str, fields, header) -> list[dict]:
    """One entry per witness of a scan: where it stands in its scope, the
    `fields(verdict)` of its search, and the position itself — written to
    `out/STEM-NNN.yaml` under `header(n, file, entry, verdict)` when `out` is
    given, else inline as `yaml`."""
    from asl_kb.committee.enumerate import brief, to_yaml, unit_count

    scope = s["scope"]
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
