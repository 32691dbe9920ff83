"""A request's body, read and checked before anything is answered: JSON
only (a page of another site cannot send it without the browser asking
first), at most MAX_BODY bytes, Unicode text throughout; the position it
carries as the loader's YAML text. A bad one is a BadRequest: its status
and the JSON `error` (the message, the key, the line and the file)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from starlette.requests import Request

from asl_kb.position import loader
from asl_kb.serve import yamltext

#: a request body: the position (at most the loader's 1 MiB), its original
#: text (as much again) and JSON's quoting
MAX_BODY = 3 * loader.MAX_BYTES
_FILENAME = re.compile(r"[^A-Za-z0-9._ -]+")


class BadRequest(Exception):
    """A request refused: its HTTP status and the JSON `error` the page reads
    (the message, and the key, line and file it concerns)."""

    def __init__(
        self, status: int, message: str, key: str | None = None, line: int | None = None, file: str | None = None
    ):
        super().__init__(message)
        self.status = status
        self.body = {"message": message, "key": key, "line": line, "file": file}


def display_name(value) -> str:
    """The display name of a position (never opened: only errors and the
    download carry it)."""
    name = _FILENAME.sub("_", Path(value).name if isinstance(value, str) else "")[:100].strip(" .")
    return name or "position.yaml"


async def json_body(request: Request) -> dict:
    # JSON only: a page of another site cannot send it without the browser
    # asking first (CORS), and this server never says yes
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise BadRequest(415, "expected a JSON body (Content-Type: application/json)")
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise BadRequest(413, f"request body too large (the limit is {MAX_BODY} bytes)")
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise BadRequest(413, f"request body too large (the limit is {MAX_BODY} bytes)")
        chunks.append(chunk)
    try:
        body = json.loads(b"".join(chunks))
    except (ValueError, RecursionError):
        raise BadRequest(400, "the request body is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest(400, "the request body is not a JSON object")
    where = lone_surrogate(body)
    if where is not None:
        raise BadRequest(400, f"{where}: not valid Unicode text (a lone surrogate)", key=where)
    return body


def lone_surrogate(body) -> str | None:
    """Where the JSON body holds a string (a value or a key) that is not
    Unicode text (a lone surrogate, "\\ud800", which JSON allows and UTF-8
    cannot write), its key path in ASCII; None if it holds none."""
    stack = [(body, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                path = f"{where}.{ascii_text(k)}" if where else ascii_text(k)
                if not is_text(k):
                    return path
                stack.append((v, path))
        elif isinstance(node, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(node))
        elif isinstance(node, str) and not is_text(node):
            return where or "body"
    return None


def is_text(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def ascii_text(s: str) -> str:
    return s if is_text(s) else s.encode("ascii", "backslashreplace").decode("ascii")


def string(body: dict, key: str, default: str | None = None) -> str:
    value = body.get(key, default)
    if not isinstance(value, str):
        raise BadRequest(400, f"{key}: expected a string")
    return value


def position_text(body: dict) -> tuple[str, str]:
    """The YAML text of the body's tree (its original text when unchanged)
    and the position's display name."""
    filename = display_name(body.get("filename"))
    tree = body.get("tree")
    if not isinstance(tree, dict):
        raise BadRequest(400, "tree: expected the position as a JSON object")
    try:
        yamltext.check_tree(tree)
    except ValueError as e:
        raise BadRequest(400, str(e)) from None
    original = body.get("original")
    if original is not None and not isinstance(original, str):
        raise BadRequest(400, "original: expected the text the position was opened from")
    text = yamltext.to_text(tree, original, filename)
    if len(text.encode("utf-8")) > loader.MAX_BYTES:
        raise BadRequest(413, f"{filename}: position too large (the limit is {loader.MAX_BYTES} bytes)")
    return text, filename


#: the most destinations `all` may name
MAX_EXPANDED = 1000


def every_route(value) -> bool | frozenset[tuple[str, str]]:
    """The request's `all`: true (every route of every destination drawn),
    false (each destination's best), or the destinations whose every route
    is drawn, `[{"unit": ID, "at": LOCATION}, ...]` (the page's "show its
    other routes")."""
    if isinstance(value, bool):
        return value
    bad = BadRequest(400, 'all: expected true, false or a list of {"unit": ID, "at": LOCATION}', key="all")
    if not isinstance(value, list) or len(value) > MAX_EXPANDED:
        raise bad
    pairs = set()
    for d in value:
        if not isinstance(d, dict) or set(d) != {"unit", "at"} or not all(isinstance(v, str) for v in d.values()):
            raise bad
        pairs.add((d["unit"], d["at"]))
    return frozenset(pairs)
