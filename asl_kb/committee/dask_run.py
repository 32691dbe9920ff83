"""Judge a scope's positions on a Dask cluster (`--scheduler ADDRESS`,
started with `dask scheduler` and `dask worker ADDRESS`): other machines'
cores, which no child process of this one reaches (on this machine,
`--workers N` forks children: scan.py `forked`, asl_kb/children.py).
The workers need asl-kb installed, and a rules folder given as a rule set
at the same path. (`workers`: a local cluster of that many processes, the
tests' and benchmarks' stand-in for a cluster.)

The evaluator hands each batch to the cluster and yields results as they
finish; scan.py takes them in enumeration order, so the report does not
depend on the workers.
"""

from __future__ import annotations

import contextlib
import os


#: positions handed to the cluster at a time, and per task: a task costs a
#: round trip of some milliseconds, more than a position its switch's clauses
#: cannot touch (judged without running it)
BATCH = 128
PER_TASK = 8


#: seconds to reach a --scheduler before saying it cannot be reached
CONNECT_TIMEOUT = 10.0


def _reachable(address: str) -> None:
    """A PositionError (--scheduler) unless a Dask scheduler's address is
    well formed and something listens there: asked with a plain TCP
    connection first, as a Client that cannot connect waits distributed's
    own timeout and then prints a traceback as it is collected."""
    import re
    import socket

    from asl_kb.errors import PositionError

    if re.match(r"\w+://", address) and not address.startswith(("tcp://", "tls://")):
        return  # (another transport: the Client says)
    m = re.fullmatch(r"(?:tcp://|tls://)?(?:\[([^\]]*)\]|([^:/\[\]]*)):(\d{1,5})/?", address)
    if m is None:
        raise PositionError(address, None, "--scheduler", "not a scheduler address (HOST:PORT or tcp://HOST:PORT)")
    host, port = m[1] or m[2] or "127.0.0.1", int(m[3])
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
    except (OSError, OverflowError) as e:  # (OverflowError: a port past 65535)
        why = "timed out" if isinstance(e, TimeoutError) else (getattr(e, "strerror", None) or str(e))
        raise PositionError(address, None, "--scheduler", f"the Dask scheduler could not be reached ({why})") from None


def _judge_jobs(judge, jobs):
    return [(index, judge(name, text)) for index, name, text in jobs]


@contextlib.contextmanager
def cluster_evaluator(workers: int | None = None, scheduler: str | None = None):
    """A context yielding `make(judge) -> evaluator` bound to a Dask client."""
    if scheduler:
        _reachable(scheduler)
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - dask is a declared dependency
        from asl_kb.errors import PositionError

        raise PositionError(
            "--workers", None, None, "needs dask[distributed] (pip install 'dask[distributed]')"
        ) from None
    with contextlib.ExitStack() as stack:
        if scheduler:
            try:
                client = stack.enter_context(Client(scheduler, timeout=CONNECT_TIMEOUT))
            except (OSError, ValueError) as e:  # (it went away, or is not a scheduler)
                from asl_kb.errors import PositionError

                raise PositionError(
                    scheduler, None, "--scheduler", f"the Dask scheduler could not be reached ({e})"
                ) from None
        else:
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=workers or os.cpu_count() or 1,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                )
            )
            client = stack.enter_context(Client(cluster))

        def make(judge):
            def evaluate(jobs):
                # submitted at once (scan.py asks for the next batch before
                # it takes this one: the workers never wait between batches)
                jobs = list(jobs)
                chunks = [jobs[i : i + PER_TASK] for i in range(0, len(jobs), PER_TASK)]
                futures = client.map(_judge_jobs, [judge] * len(chunks), chunks, pure=False) if chunks else []

                def results():
                    for future in as_completed(futures):
                        yield from future.result()

                return results()

            evaluate.batch = BATCH  # type: ignore[attr-defined]  # function attributes, read by getattr
            # judge one position on every worker now (each reads the rules
            # and builds its slices on its first position): a benchmark
            # times the workers warm
            evaluate.warm = lambda name, text: client.run(judge, name, text)  # type: ignore[attr-defined]
            return evaluate

        yield make
