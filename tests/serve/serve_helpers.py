"""Helpers of the serve tests: a free port, a wait for a condition."""

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
