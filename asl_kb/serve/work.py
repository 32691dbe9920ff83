"""Each answer in its own child process (asl_kb/children.py), so that a
runaway answer cannot take the server down: the engine gets the CLI's
--timeout (it answers `complete: false` past it) and the child the CLI's
--max-memory cap. A child still running half its slack past the timeout
(inside a call no check reaches: the CLI's watchdog fires then,
asl_kb/budget.py) is killed and the page gets what `outcomes --timeout`
prints then: the answer cut, complete: false (figured in a new child,
allowed `grace` seconds; past them, a 504). At most `workers` children run
at once, the other requests wait their turn (at most `queue` of them). A
newer request of the same tab (`tab`, a larger `seq`) ends the answer its
older one is still waiting for, and so does a client that hung up: the
child and every process it started (its rout groups' workers) are killed.
No child outlives the server: a request cancelled as the server stops kills
its child, and every child dies with the server (PR_SET_PDEATHSIG).

Children are forked from the server, which has answered a small position
itself before the first request (preload(): the rules parsed, the report's
template compiled), from the event loop's thread -- the server runs no
other: a child starts in milliseconds, with all that loaded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from asl_kb import budget, children
from asl_kb.serve import answers
from asl_kb.serve.progress import Progress

#: how often a waiting answer asks whether its client is still there (s)
POLL = 0.25


class Cut(Exception):
    """An answer that did not come: timed out, superseded, or the client left.
    `status` is the HTTP status the page gets."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class Runner:
    def __init__(self, timeout: float, max_memory: int, workers: int = 2, grace: float = 5.0, queue: int = 64):
        self.timeout, self.max_memory, self.grace = timeout, max_memory, grace
        self.workers, self.queue = workers, queue
        self._slots: asyncio.Semaphore | None = None
        self._waiting = 0
        self._latest: dict[str, tuple[int, asyncio.Future]] = {}
        #: each tab's answer being figured: its seq and how far it has gone
        self._progress: dict[str, tuple[int, Progress]] = {}

    def preload(self, ruleset=None) -> None:
        """Answer a small position in the server before the first answer
        (asl_kb/serve/preload.py): every child is forked with the rules and
        the report's template loaded."""
        from asl_kb.serve import preload

        preload.rules_and_page(ruleset)

    def close(self) -> None:
        """End every answer still running (the server stops)."""
        for child in children.alive():
            child.kill()

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
            progress = Progress()
            if tab is not None:
                self._progress[tab] = (seq, progress)
            return await self._child(name, kwargs, superseded, gone, progress)
        finally:
            self._slots.release()
            if tab is not None and self._latest.get(tab, (None, None))[1] is superseded:
                del self._latest[tab]
                mine = self._progress.pop(tab, None)
                if mine is not None:
                    mine[1].close()

    def progress(self, tab: str) -> dict:
        """How far the answer the tab waits for has gone (its `seq`, the
        broken units read `done` of `of`, `drawing` its page); {} if none is
        being figured."""
        got = self._progress.get(tab)
        return {"seq": got[0], **got[1].read()} if got is not None else {}

    async def _child(self, name, kwargs, superseded, gone, progress: Progress | None = None) -> dict:
        """The answer of a child; past the timeout and half its slack, the
        answer cut (answers.cut) for `outcomes`, a 504 for the others."""
        over = self.timeout + budget.slack(self.timeout) / 2
        with children.start(answers.run, name, kwargs, self.max_memory, progress) as child:
            if await self._wait(child, over, superseded, gone):
                return self._result(child)
        if name != "outcomes":
            raise Cut(504, f"no answer within the cap (--timeout {self.timeout:g} s): the answer was stopped")
        with children.start(answers.run, "cut", {**kwargs, "where": "figuring the outcomes"}, self.max_memory) as child:
            if await self._wait(child, self.grace, superseded, gone):
                return self._result(child)
        raise Cut(504, f"no answer within the cap (--timeout {self.timeout:g} s): the answer was stopped")

    async def _wait(self, child, within: float, superseded, gone) -> bool:
        """Whether the child answered within `within` seconds; Cut if the
        request was superseded or its client left."""
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        loop.add_reader(child.fileno(), lambda: None if ready.done() else ready.set_result(None))
        try:
            deadline = loop.time() + within
            while not ready.done():
                left = deadline - loop.time()
                if left <= 0:
                    return False
                await asyncio.wait({ready, superseded}, timeout=min(POLL, left), return_when=asyncio.FIRST_COMPLETED)
                if superseded.done() and not ready.done():
                    raise Cut(409, "superseded: a newer edit of this page is being answered")
                if gone is not None and not ready.done() and await gone():
                    raise Cut(499, "the client went away")
            return True
        finally:
            loop.remove_reader(child.fileno())

    def _result(self, child) -> dict:
        try:
            return child.result()
        except (children.ChildFailed, MemoryError):
            return {
                "cut": f"the answer's process ended without answering "
                f"(the memory cap, --max-memory {self.max_memory} MiB?)"
            }
