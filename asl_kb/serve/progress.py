"""How far an answer has gone, for the page that waits for it: the broken
units whose fates are read, of how many, and whether the report page is
being drawn. The answer's child process writes it, the server reads it
(GET /api/progress): a few bytes of memory shared by the two (an anonymous
shared mapping, which a forked child keeps), no pipe, no thread."""

from __future__ import annotations

import mmap
import struct

_LAYOUT = struct.Struct("qqq")  # units read, broken units, drawing (0/1)


class Progress:
    def __init__(self) -> None:
        self._shared = mmap.mmap(-1, _LAYOUT.size)  # (MAP_SHARED | MAP_ANONYMOUS)

    def units(self, done: int, of: int) -> None:
        """The child: `done` of the `of` broken units have their fates read."""
        _, _, drawing = _LAYOUT.unpack_from(self._shared)
        _LAYOUT.pack_into(self._shared, 0, done, of, drawing)

    def drawing(self) -> None:
        """The child: the answer is figured, its page is being drawn."""
        done, of, _ = _LAYOUT.unpack_from(self._shared)
        _LAYOUT.pack_into(self._shared, 0, done, of, 1)

    def read(self) -> dict:
        """The server: what the child said so far (`of` 0: nothing yet)."""
        done, of, drawing = _LAYOUT.unpack_from(self._shared)
        return {"done": done, "of": of, "drawing": bool(drawing)}

    def close(self) -> None:
        self._shared.close()
