"""Each answer in its own child process, so that a runaway answer cannot
take the server down: the engine gets the CLI's --timeout (it answers
`complete: false` past it) and the child the CLI's --max-memory cap; a child
still running `grace` seconds past the timeout is killed. At most `workers`
children run at once, the other requests wait their turn (at most `queue`
of them). A newer request of the same tab (`tab`, a larger `seq`) ends the
answer its older one is still waiting for, and so does a client that hung up.

Children are forked from a fork server that has imported the engine once
(multiprocessing's "forkserver" start method): a child starts in
milliseconds and shares nothing with the server's threads.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Awaitable, Callable

from asl_kb.serve import answers

#: the name of every answering child process
CHILD_NAME = "asl-kb-serve-answer"
#: how often a waiting answer asks whether its client is still there (s)
POLL = 0.25


class Cut(Exception):
    """An answer that did not come: timed out, superseded, or the client left.
    `status` is the HTTP status the page gets."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def _context():
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["asl_kb.serve.warm", "asl_kb.cli"])
    return ctx


class Runner:
    def __init__(self, timeout: float, max_memory: int, workers: int = 2, grace: float = 5.0, queue: int = 64):
        self.timeout, self.max_memory, self.grace = timeout, max_memory, grace
        self.workers, self.queue = workers, queue
        self._ctx = _context()
        self._slots: asyncio.Semaphore | None = None
        self._waiting = 0
        self._latest: dict[str, tuple[int, asyncio.Future]] = {}

    def warm(self) -> None:
        """Start the fork server (it imports the engine) before the first answer."""
        from multiprocessing import forkserver

        forkserver.ensure_running()

    async def run(
        self,
        name: str,
        kwargs: dict,
        tab: str | None = None,
        seq: int = 0,
        gone: Callable[[], Awaitable[bool]] | None = None,
    ) -> dict:
        """The child's answer to answers.<name>(**kwargs); Cut if none came."""
        loop = asyncio.get_running_loop()
        superseded = loop.create_future()
        if self._waiting >= self.queue:
            raise Cut(503, f"busy: {self._waiting} answers are waiting; try again")
        if tab is not None:
            old = self._latest.get(tab)
            if old is not None and old[0] > seq:
                raise Cut(409, "superseded: a newer edit of this page is being answered")
            if old is not None and not old[1].done():
                old[1].set_result(None)
            self._latest[tab] = (seq, superseded)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        try:
            if superseded.done():
                raise Cut(409, "superseded: a newer edit of this page is being answered")
            return await self._child(name, kwargs, superseded, gone)
        finally:
            self._slots.release()
            if tab is not None and self._latest.get(tab, (None, None))[1] is superseded:
                del self._latest[tab]

    async def _child(self, name, kwargs, superseded, gone) -> dict:
        loop = asyncio.get_running_loop()
        receiver, sender = self._ctx.Pipe(duplex=False)
        proc = self._ctx.Process(
            target=answers.run, args=(sender, name, kwargs, self.max_memory), daemon=True, name=CHILD_NAME
        )
        ready = loop.create_future()
        try:
            proc.start()
            sender.close()
            loop.add_reader(receiver.fileno(), lambda: None if ready.done() else ready.set_result(None))
            deadline = loop.time() + self.timeout + self.grace
            while not ready.done():
                left = deadline - loop.time()
                if left <= 0:
                    raise Cut(504, f"no answer within the cap (--timeout {self.timeout:g} s): the answer was stopped")
                await asyncio.wait({ready, superseded}, timeout=min(POLL, left), return_when=asyncio.FIRST_COMPLETED)
                if superseded.done() and not ready.done():
                    raise Cut(409, "superseded: a newer edit of this page is being answered")
                if gone is not None and not ready.done() and await gone():
                    raise Cut(499, "the client went away")
            try:
                return receiver.recv()
            except (EOFError, OSError):
                return {
                    "cut": f"the answer's process ended without answering "
                    f"(the memory cap, --max-memory {self.max_memory} MiB?)"
                }
        finally:
            if not receiver.closed:
                try:
                    loop.remove_reader(receiver.fileno())
                except (ValueError, OSError):
                    pass
                receiver.close()
            if proc.is_alive():
                proc.kill()
            if proc.pid is not None:
                await loop.run_in_executor(None, proc.join)
                proc.close()
