"""No process outlives the request that asked for it, nor the server: a real
`asl-kb serve` process, its processes counted by their command line (a
forked answer and its rout groups' workers carry the server's own; an
orphan is re-parented to init, so a count of the server's children would
miss it). A large answer is cancelled by its client, superseded by a newer
edit of the same page, and cut by stopping the server (SIGTERM)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from asl_kb.serve import yamltext  # noqa: E402
from serve_helpers import free_port, wait_until  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from generate import generate_area_spread  # noqa: E402

#: a position whose answer takes seconds and runs its rout groups in workers
BIG = yamltext.to_tree(generate_area_spread(300, 60))


def processes(marker: str) -> list[int]:
    """The pids whose command line holds `marker` (the server's port)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                words = f.read().split(b"\0")
            with open(f"/proc/{entry}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if state != b"Z" and marker.encode() in words and b"serve" in words:
            found.append(int(entry))
    return found


def ask(port: int, tree: dict, **extra) -> http.client.HTTPConnection:
    """An answer asked, not read: the connection, to read or close."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    c.request(
        "POST", "/api/answer", json.dumps({"tree": tree, "page": False, **extra}), {"Content-Type": "application/json"}
    )
    return c


def small(name: str) -> dict:
    return {
        "name": name,
        "attacker": "russian",
        "map": {"area": ["A1", "C3"]},
        "units": [
            {"id": "R1", "side": "russian", "type": "squad", "counter": "4-4-7", "at": "B2", "status": ["broken"]}
        ],
    }


def test_no_process_outlives_its_request_or_the_server():
    port = free_port()
    marker = str(port)
    server = subprocess.Popen(
        [sys.executable, "-m", "asl_kb", "serve", "--port", marker, "--timeout", "120"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "asl-kb serve: http://" in server.stderr.readline()
        wait_until(lambda: _listening(port))
        assert processes(marker) == [server.pid]
        # a client that hangs up: its answer and the answer's workers end
        c = ask(port, BIG)
        assert wait_until(lambda: len(processes(marker)) >= 3), processes(marker)  # the answer and its workers
        c.close()
        assert wait_until(lambda: processes(marker) == [server.pid]), processes(marker)
        # a newer edit of the same page: the older answer's processes end
        old = ask(port, BIG, tab="t", seq=1)
        assert wait_until(lambda: len(processes(marker)) >= 3), processes(marker)
        new = ask(port, small("newer"), tab="t", seq=2)
        r = new.getresponse()
        assert r.status == 200 and json.load(r)["result"]["position"] == "newer"
        assert old.getresponse().status == 409
        assert wait_until(lambda: processes(marker) == [server.pid]), processes(marker)
        # the server stopped while it answers: nothing is left
        c = ask(port, BIG)
        assert wait_until(lambda: len(processes(marker)) >= 3), processes(marker)
        t0 = time.monotonic()
        server.send_signal(signal.SIGTERM)
        server.wait(30)
        assert time.monotonic() - t0 < 10
        assert wait_until(lambda: processes(marker) == []), processes(marker)
        c.close()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        for pid in processes(marker):  # (a failed run leaves none behind either)
            os.kill(pid, signal.SIGKILL)


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0
