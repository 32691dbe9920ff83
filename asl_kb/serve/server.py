"""`asl-kb serve [POSITION] [--host 127.0.0.1] [--port 8000]`: the app under
uvicorn until Ctrl-C. Starlette and uvicorn are imported here only (the
`serve` extra), so that no other subcommand pays for them."""

from __future__ import annotations

import sys

from asl_kb.errors import PositionError
from asl_kb.position.loader import MAX_BYTES

MISSING = "asl-kb serve needs Starlette and uvicorn: pip install 'asl-kb[serve]'"


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
    rules = _rule_set(args)
    from asl_kb.serve.app import LOCAL_HOSTS

    # bound to this machine: only its own names; else any (the user chose to open it)
    hosts = LOCAL_HOSTS if args.host in LOCAL_HOSTS else ("*",)
    app = create_app(
        args.position,
        timeout=args.timeout,
        max_memory=args.max_memory,
        workers=args.workers,
        rules=rules,
        hosts=hosts,
    )
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"asl-kb serve: http://{host}:{args.port}/ (Ctrl-C stops)", file=sys.stderr, flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
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


def _readable(path: str) -> None:
    """The command line's position: a file of at most the loader's size that
    reads as YAML (its schema errors are shown in the page, to be mended
    there); PositionError if not."""
    import os
    from asl_kb.serve import yamltext

    try:
        size = os.stat(path).st_size
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_BYTES + 1)
    except (OSError, UnicodeDecodeError) as e:
        raise PositionError(path, None, None, f"cannot read file: {getattr(e, 'strerror', None) or e}") from None
    if size > MAX_BYTES or len(text) > MAX_BYTES:
        raise PositionError(path, None, None, f"file too large (the limit is {MAX_BYTES} bytes)")
    yamltext.to_tree(text, path)
