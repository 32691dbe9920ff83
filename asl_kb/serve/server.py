"""`asl-kb serve [POSITION] [--host 127.0.0.1] [--port 8000]`: the app under
uvicorn until Ctrl-C. Starlette and uvicorn are imported here only (the
`serve` extra), so that no other subcommand pays for them.

Everything the command line names is checked before the address is printed
(exit 2, as `outcomes` refuses it): the position file, the rule set, the
host, and the port, which is bound here and handed to uvicorn."""

from __future__ import annotations

import errno
import os
import socket
import stat
import sys

from asl_kb.errors import PositionError
from asl_kb.position.loader import MAX_BYTES
from asl_kb.serve.hosts import allowed_hosts

MISSING = "asl-kb serve needs Starlette and uvicorn: pip install 'asl-kb[serve]'"
#: seconds a stopping server waits for the answers in flight before it
#: cancels them (their processes are killed: asl_kb/serve/work.py)
STOP_GRACE = 1


def serve(args) -> int:
    try:
        import uvicorn
        from asl_kb.serve.app import create_app
    except ImportError:
        print(f"error: {MISSING}", file=sys.stderr)
        return 2
    if args.port > 65535:
        print(f"error: --port: not a port number (1-65535): {args.port}", file=sys.stderr)
        return 2
    if args.position is not None:
        _readable(args.position)
    rules = _rule_set(args)  # RuleSetError: exit 2
    hosts, problem, warning = allowed_hosts(args.host)
    if problem:
        print(f"error: --host {args.host}: {problem}", file=sys.stderr)
        return 2
    try:
        sock = bind(args.host, args.port)
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    app = create_app(
        args.position,
        timeout=args.timeout,
        max_memory=args.max_memory,
        workers=args.workers,
        rules=rules,
        hosts=hosts,
    )
    if warning:
        print(f"warning: --host {args.host}: {warning}", file=sys.stderr)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"asl-kb serve: http://{host}:{args.port}/ (Ctrl-C stops)", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=STOP_GRACE)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        from asl_kb.committee.rulesets import discard_materialized

        discard_materialized()
    return 0


def _rule_set(args):
    """--rules and --switch: a version's name, or a rule set checked here,
    before the server starts (a broken rules folder is the command line's
    error), its folder made once for every answer's child process."""
    import dataclasses
    from asl_kb.committee.rulesets import VERSIONS, materialize, parse_ruleset

    if args.switch is None and (args.rules is None or args.rules in VERSIONS):
        return args.rules
    rs = parse_ruleset(args.rules or "current", switch=args.switch, key="--rules")
    if rs.folder is not None:
        rs = dataclasses.replace(rs, complete=materialize(rs.folder))
    return rs


def bind(host: str, port: int) -> socket.socket:
    """A socket listening on host:port (OSError with the option to blame)."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise OSError(f"--host {host}: not an address of this machine ({getattr(e, 'strerror', None) or e})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
        sock.set_inheritable(True)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise OSError(f"--port {port}: already in use on {host} (another server?)") from None
        if e.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
            raise OSError(f"--host {host}: not an address of this machine") from None
        if e.errno == errno.EACCES:
            raise OSError(f"--port {port}: not allowed (a port below 1024 needs privileges)") from None
        raise OSError(f"--host {host} --port {port}: cannot listen: {e.strerror}") from None
    return sock


def _readable(path: str) -> None:
    """The command line's position: a regular file of at most the loader's
    size that reads as YAML (its schema errors are shown in the page, to be
    mended there); PositionError if not (a FIFO is refused, not waited on)."""
    from asl_kb.serve import yamltext

    try:
        st = os.stat(path)
    except OSError as e:
        raise PositionError(path, None, None, f"cannot read file: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise PositionError(path, None, None, "not a regular file")
    if st.st_size > MAX_BYTES:
        raise PositionError(path, None, None, f"file too large (the limit is {MAX_BYTES} bytes)")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_BYTES + 1)
    except (OSError, UnicodeDecodeError) as e:
        raise PositionError(path, None, None, f"cannot read file: {getattr(e, 'strerror', None) or e}") from None
    if len(text) > MAX_BYTES:
        raise PositionError(path, None, None, f"file too large (the limit is {MAX_BYTES} bytes)")
    yamltext.to_tree(text, path)
