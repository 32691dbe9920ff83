"""Helpers of the serve tests: a free port, a wait for a condition, a drag
of the mouse in a page."""

from __future__ import annotations

import socket
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(ok, timeout: float = 30.0, step: float = 0.05) -> bool:
    """Whether ok() became true within `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if ok():
            return True
        time.sleep(step)
    return bool(ok())


def drag(page, src: dict, dst: dict, steps: int = 8) -> None:
    """The mouse pressed in the middle of one bounding box (a locator's
    bounding_box(), in the page's pixels), moved to the other's, released."""
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=steps)
    page.mouse.up()
