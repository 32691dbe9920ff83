"""Worker processes that run cases against mutants (asl_kb/children.py:
talking children, each killed with whatever it started when stopped).

Each worker keeps its own copy of the shipped rules folder (the overlay),
puts one mutant's file in place, runs the cases it is sent in order under
`using_rules(copy)` until one fails, and puts the original back. The parent
sends the cases in the order that killed most so far, sets a deadline per
mutant (a mutant whose grounding explodes is stopped: killed, by timeout)
and restarts a worker it had to stop.
"""

from __future__ import annotations

import shutil
import tempfile
import time
import traceback
from collections.abc import Iterator
from pathlib import Path

from asl_kb import children


def _run_cases(suite, cases, probes: bool = False, prefer=None) -> Iterator[dict]:
    """Run `cases` in order, yielding each one's result as it ends (the
    caller stops at the first that fails, for a mutant). With `probes` (the
    rules in force carry the probes of tools.mutate.reach) each result also
    says which probe parts the case's programs grounded."""
    import contextlib
    from asl_kb.asp import control
    from tools.mutate.reach import grounded

    for case in cases:
        before = len(control.warnings())
        t0, c0 = time.perf_counter(), time.process_time()
        status, detail = "pass", ""
        keep: contextlib.AbstractContextManager = control.keeping_controls() if probes else contextlib.nullcontext([])
        with control.tracing_entries() as entries, keep as controls:
            try:
                failures = (
                    suite.run_case(case, prefer=prefer[case]) if prefer and prefer.get(case) else suite.run_case(case)
                )
            except BaseException as e:  # a mutant may break anything
                if isinstance(e, KeyboardInterrupt):
                    raise
                status, detail = "error", f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
                failures = None
        errors = [m for code, m in control.warnings()[before:] if code == "RuntimeError"]
        del control.warnings()[before:]
        if errors:
            status, detail = "error", errors[0].splitlines()[0]
        elif status == "pass" and failures:
            status, detail = "fail", str(failures[0])
        run = getattr(failures[0], "run", None) if status == "fail" and failures else None
        result = {
            "case": str(case),
            "status": status,
            "detail": detail,
            "run": run,
            "seconds": time.perf_counter() - t0,
            "cpu": time.process_time() - c0,
            "entries": sorted(entries),
        }
        if probes:
            result["grounded"] = sorted(grounded(controls))
            del controls[:]
        yield result


def _until_one_fails(results: Iterator[dict], done) -> list[dict]:
    """The results up to the first that does not pass; `done(n)` after each
    of the n before it."""
    out = []
    for result in results:
        out.append(result)
        if result["status"] != "pass":
            break
        done(len(out))
    return out


def _worker(conn, suite_name: str, rules: str):
    from asl_kb.asp.control import using_rules
    from asl_kb.asp.facts import remember_facts
    from tools.mutate.suites import make_suite

    remember_facts()  # a position's facts are the same under every mutant
    suite = make_suite(suite_name)
    tmp = Path(tempfile.mkdtemp(prefix="asl-kb-mutant-"))
    overlay = tmp / "rules"
    shutil.copytree(rules, overlay)
    try:
        while True:
            task = conn.recv()
            if task is None:
                break
            key, rel, text, cases, prefer = task
            try:
                if rel is None and text:  # the baseline, on the rules with probes
                    with using_rules(text):
                        res = list(_run_cases(suite, cases, probes=True))
                elif rel is None:  # the baseline: shipped rules, every case
                    res = list(_run_cases(suite, cases))
                else:
                    original = (overlay / rel).read_bytes()
                    (overlay / rel).write_bytes(text)
                    try:
                        with using_rules(overlay):
                            res = _until_one_fails(
                                _run_cases(suite, cases, prefer=prefer), lambda n: conn.send(("progress", key, n))
                            )
                    finally:
                        (overlay / rel).write_bytes(original)
                conn.send((key, res, None))
            except BaseException:
                conn.send((key, [], traceback.format_exc(limit=3)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class Pool:
    """`jobs` worker processes; `run(tasks)` yields (key, results, crash) as
    tasks finish. A task is (key, rel, text, cases, seconds allowed[, {case:
    the run labels to try first}]). Seconds allowed: one figure for the whole
    task, or one per case (the clock restarts as each case ends, so a mutant
    whose grounding explodes is stopped soon whatever the cases after it)."""

    def __init__(self, jobs: int, suite_name: str, rules: Path):
        self._args = (suite_name, str(rules))
        self._workers = [self._start() for _ in range(max(1, jobs))]

    def _start(self):
        child = children.start(_worker, *self._args, talk=True)
        return {"proc": child, "conn": child, "task": None, "deadline": 0.0}

    def _stop(self, w):
        w["proc"].kill()  # our own worker and what it started

    def close(self):
        for w in self._workers:
            try:
                w["conn"].send(None)
            except (BrokenPipeError, OSError):
                pass
        for w in self._workers:
            try:
                w["proc"].result()  # (its end: the worker returns once told to stop)
            except Exception:
                pass
            self._stop(w)

    @staticmethod
    def _allowed(task, case: int) -> float | None:
        """Seconds allowed from now for case number `case` of a task (None:
        the task's one deadline stands)."""
        allowed = task[4]
        if isinstance(allowed, (int, float)):
            return float(allowed) if case == 0 else None
        if not allowed:  # no case to run: the answer is at once
            return 20.0
        return float(allowed[min(case, len(allowed) - 1)])

    def run(self, tasks):
        """`tasks`: an iterable, read only when a worker is free (so a task
        may be built from what the earlier ones found)."""
        tasks = iter(tasks)
        more = True
        busy = 0
        while more or busy:
            if more:
                more, given = self._hand_out(tasks)
                busy += given
            if not busy:
                continue
            conns = [w["conn"] for w in self._workers if w["task"] is not None]
            nearest = min(w["deadline"] for w in self._workers if w["task"] is not None)
            ready = children.ready(conns, timeout=max(0.0, nearest - time.monotonic()))
            for i, w in enumerate(self._workers):
                if w["task"] is None:
                    continue
                key = w["task"][0]
                if w["conn"] in ready:
                    try:
                        msg = w["conn"].recv()
                        if msg[0] == "progress" and len(msg) == 3:
                            extra = self._allowed(w["task"], msg[2])
                            if extra is not None:
                                w["deadline"] = time.monotonic() + extra
                            w["at"] = msg[2]
                            continue
                        k, res, crash = msg
                    except (EOFError, OSError):
                        k, res, crash = key, [], "the worker died"
                        self._stop(w)
                        self._workers[i] = w = self._start()
                    w["task"] = None
                    busy -= 1
                    yield k, res, crash
                elif time.monotonic() >= w["deadline"]:
                    ended = self._timed_out(i, w)
                    busy -= 1
                    yield ended

    def _hand_out(self, tasks) -> tuple[bool, int]:
        """The next tasks to the free workers: (whether tasks remain, how
        many were handed out)."""
        given = 0
        for w in self._workers:
            if w["task"] is None:
                t = next(tasks, None)
                if t is None:
                    return False, given
                w["task"] = t
                w["deadline"] = time.monotonic() + self._allowed(t, 0)  # type: ignore[operator]  # case 0: seconds
                w["started"], w["at"] = time.monotonic(), 0
                w["conn"].send((*t[:4], t[5] if len(t) > 5 else None))
                given += 1
        return True, given

    def _timed_out(self, i: int, w: dict) -> tuple:
        """Worker `i` (`w`) past its deadline, ended and replaced: its task's
        answer, the case it was on timed out."""
        key = w["task"][0]
        limit = w["task"][4]  # one figure for the task, or one per case
        allowed = float(limit) if isinstance(limit, (int, float)) else self._allowed(w["task"], w["at"])
        spent = time.monotonic() - w["started"]
        cases = w["task"][3]
        case = str(cases[w["at"]]) if w["at"] < len(cases) else ""
        self._stop(w)
        self._workers[i] = self._start()
        return (
            key,
            [
                {
                    "case": case,
                    "status": "timeout",
                    "detail": f"no answer within {allowed:.0f} s",
                    "seconds": spent,
                    "cpu": spent,
                    "entries": [],
                }
            ],
            None,
        )
