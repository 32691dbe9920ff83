"""The routes of `asl-kb serve` (Starlette).

    GET  /                 the page (static/index.html; its script and style beside it)
    GET  /api/meta         the names the page offers: terrain table, features, hexsides, statuses, ...
    GET  /api/start        the position named on the command line (or a new one)
    GET  /api/progress?tab=TAB
                           how far the answer the tab waits for has gone: its seq,
                           the broken units read (done of of), drawing its page
    POST /api/open         {text, filename?}             -> its tree (an uploaded file)
                           {vsav (base64), filename?, attacker?}
                                                         -> a VASL saved game's tree
    POST /api/answer       {tree, original?, filename?, phase?, page?, all?, json?, tab?, seq?}
                           -> the YAML, the outcomes result and (unless page is false)
                              the report page drawing them (each destination's
                              best route; every route with all: true, or those
                              of the destinations all lists); the CLI's JSON
                              text only with json: true
    POST /api/why-not      {tree, original?, filename?, unit, fate?, at?, captor?}
                           -> why-not's answer (fate: rout to `at`, the default;
                              stay; surrender to `captor`; eliminated)
    POST /api/save         {tree, original?, filename?}  -> the YAML file
    GET  /board-art/NAME   a VASL board's art (the image in its archive in the
                           boards folder), which answers link, not inline
                           (ETag, Cache-Control: the browser fetches it once)

A request names no path of the machine: the position travels in the body,
`filename` is only the name errors and the download carry. Bodies are
size-limited; a bad one is a 4xx whose JSON `error` has the loader's
FILE:LINE: KEY: message and its key; an answer past --timeout is the
answer cut (complete: false), one that does not come even so a 504 that
says so (asl_kb/serve/work.py).

Another site's page gets nothing: a request must name the server by one of
its own names (Host), a request a browser sends from another origin
(Origin) is refused, no response may be framed by another page
(frame-ancestors, X-Frame-Options), and a body that is not JSON is refused
(so a form of another site cannot post one without the browser asking
first, CORS, which this server never grants).
"""

from __future__ import annotations

import contextlib
import json
import re
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from asl_kb.errors import PositionError
from asl_kb.position import loader
from asl_kb.serve import yamltext
from asl_kb.serve.answers import ART_ROUTE
from asl_kb.serve.hosts import LOCAL_NAMES
from asl_kb.serve.work import Cut, Runner

#: a request body: the position (at most the loader's 1 MiB), its original
#: text (as much again) and JSON's quoting
MAX_BODY = 3 * loader.MAX_BYTES
#: the name a new position starts with
NEW = {"name": "new position", "attacker": "german", "units": []}
_STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/static/app.css": ("app.css", "text/css; charset=utf-8"),
}
#: the Host a request to a server bound to this machine may name
LOCAL_HOSTS = LOCAL_NAMES
#: headers of every response: no page of another site may frame this one
#: (a click on a framed, hidden app would edit or save for that site)
FRAME_HEADERS = {"Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY"}
#: a board's art is kept by the browser (an answer names it with its
#: archive's size and time: a board replaced is another address)
ART_CACHE = "private, max-age=86400"
_FILENAME = re.compile(r"[^A-Za-z0-9._ -]+")


class BadRequest(Exception):
    def __init__(
        self, status: int, message: str, key: str | None = None, line: int | None = None, file: str | None = None
    ):
        super().__init__(message)
        self.status = status
        self.body = {"message": message, "key": key, "line": line, "file": file}


def _filename(value) -> str:
    """The display name of a position (never opened: only errors and the
    download carry it)."""
    name = _FILENAME.sub("_", Path(value).name if isinstance(value, str) else "")[:100].strip(" .")
    return name or "position.yaml"


async def _json_body(request: Request) -> dict:
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
    where = _lone_surrogate(body)
    if where is not None:
        raise BadRequest(400, f"{where}: not valid Unicode text (a lone surrogate)", key=where)
    return body


def _lone_surrogate(body) -> str | None:
    """Where the JSON body holds a string (a value or a key) that is not
    Unicode text (a lone surrogate, "\\ud800", which JSON allows and UTF-8
    cannot write), its key path in ASCII; None if it holds none."""
    stack = [(body, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                path = f"{where}.{_ascii(k)}" if where else _ascii(k)
                if not _text(k):
                    return path
                stack.append((v, path))
        elif isinstance(node, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(node))
        elif isinstance(node, str) and not _text(node):
            return where or "body"
    return None


def _text(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _ascii(s: str) -> str:
    return s if _text(s) else s.encode("ascii", "backslashreplace").decode("ascii")


def _string(body: dict, key: str, default: str | None = None) -> str:
    value = body.get(key, default)
    if not isinstance(value, str):
        raise BadRequest(400, f"{key}: expected a string")
    return value


def _position_text(body: dict) -> tuple[str, str]:
    """The YAML text of the body's tree (its original text when unchanged)
    and the position's display name."""
    filename = _filename(body.get("filename"))
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


def _every_route(value) -> bool | frozenset[tuple[str, str]]:
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


class FrameHeaders:
    """Every response (an error too) carries FRAME_HEADERS."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_framed(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.lower().encode(), v.encode()) for k, v in FRAME_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_framed)


class SameOrigin:
    """A request that names its Origin (a browser's, on a POST or a fetch)
    comes from this server's own page: the Origin is http://HOST as the
    request's Host names it. Another is refused (403) before it is read."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            headers = dict(scope.get("headers", []))
            origin = headers.get(b"origin")
            if origin is not None and origin != b"http://" + headers.get(b"host", b""):
                response = JSONResponse(
                    {
                        "error": {
                            "message": "another site's page may not use this server (Origin refused)",
                            "key": None,
                            "line": None,
                            "file": None,
                        }
                    },
                    status_code=403,
                )
                return await response(scope, receive, send)
        await self.app(scope, receive, send)


def create_app(
    position: str | None = None,
    timeout: float = 60.0,
    max_memory: int = 1024,
    workers: int = 2,
    grace: float = 5.0,
    rules=None,
    hosts: tuple[str, ...] = LOCAL_HOSTS,
) -> Starlette:
    """The app; `position` is the file named on the command line (read once,
    here: no request names a file); `rules` the version --rules names, or the rule set
    of --rules and --switch (a rules folder, a switch flipped: serve/server.py);
    `hosts` the names a request may give the server (its Host header: a
    page of another site that has its name point at 127.0.0.1 is refused)."""
    runner = Runner(timeout, max_memory, workers=workers, grace=grace)
    if position is None:
        start = {"filename": "new-position.yaml", "text": None, "tree": dict(NEW)}
    else:
        text = Path(position).read_text(encoding="utf-8")
        start = {"filename": _filename(position), "text": text, "tree": yamltext.to_tree(text, position)}
    static = resources.files("asl_kb.serve") / "static"
    pages = {path: ((static / name).read_bytes(), kind) for path, (name, kind) in _STATIC.items()}

    async def page(request: Request) -> Response:
        body, kind = pages[request.url.path]
        return Response(body, media_type=kind, headers={"Cache-Control": "no-store"})

    async def meta(request: Request) -> JSONResponse:
        from asl_kb.board import terrain
        from asl_kb.report.html import SIDE_COLOURS

        return JSONResponse(
            {
                "terrains": list(terrain.TERRAIN),
                "features": list(terrain.FEATURES),
                "hexsides": list(terrain.HEXSIDES),
                "statuses": list(loader.STATUSES),
                "types": list(loader.UNIT_TYPES),
                "phases": list(loader.PHASES),
                "versions": list(loader.DEFAULT_VERSIONS),
                "errata": sorted(loader.switch_rules()),
                "readings": sorted(loader.switch_names()),
                "sides": list(SIDE_COLOURS),
                "classes": list(loader.UNIT_CLASSES),
                "rules": rules if rules is None or isinstance(rules, str) else rules.label,
                "colours": SIDE_COLOURS,
                "limits": {
                    "body": MAX_BODY,
                    "position": loader.MAX_BYTES,
                    "timeout": timeout,
                    "max_memory": max_memory,
                },
            }
        )

    async def start_(request: Request) -> JSONResponse:
        return JSONResponse(start)

    async def open_(request: Request) -> JSONResponse:
        body = await _json_body(request)
        if "vsav" in body:
            return await open_game(request, body)
        text, filename = _string(body, "text"), _filename(body.get("filename"))
        if len(text.encode("utf-8")) > loader.MAX_BYTES:
            raise BadRequest(413, f"{filename}: position too large (the limit is {loader.MAX_BYTES} bytes)")
        try:
            tree = yamltext.to_tree(text, filename)
        except PositionError as e:
            raise BadRequest(400, str(e), e.key, e.line, e.file) from None
        return JSONResponse({"filename": filename, "text": text, "tree": tree})

    async def open_game(request: Request, body: dict) -> JSONResponse:
        """A VASL saved game, read in a child as an answer is (its boards'
        archives are large): the position it is, named NAME.yaml."""
        import base64
        import binascii

        filename = _filename(body.get("filename"))
        attacker = body.get("attacker")
        if attacker is not None and not isinstance(attacker, str):
            raise BadRequest(400, "attacker: expected a side's name")
        try:
            data = base64.b64decode(_string(body, "vsav"), validate=True)
        except (binascii.Error, ValueError):
            raise BadRequest(400, "vsav: expected the saved game's bytes in base64") from None
        try:
            out = await runner.run("game", {"data": data, "filename": filename, "attacker": attacker})
        except Cut as e:
            raise BadRequest(e.status, e.message) from None
        if "error" in out:
            return JSONResponse({"error": out["error"], "sides": out.get("sides")}, status_code=400)
        if "text" not in out:
            raise BadRequest(500, out.get("internal") or out.get("cut") or "no answer")
        stem = filename[:-5] if filename.lower().endswith(".vsav") else filename
        return JSONResponse(
            {"filename": f"{stem}.yaml", "text": None, "tree": out["tree"], "warnings": out["warnings"]}
        )

    async def _answer(request: Request, name: str, kwargs: dict, body: dict) -> dict:
        tab = body.get("tab")
        seq = body.get("seq", 0)
        if tab is not None and (not isinstance(tab, str) or len(tab) > 64):
            raise BadRequest(400, "tab: expected a string of at most 64 characters")
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise BadRequest(400, "seq: expected a whole number")
        try:
            out = await runner.run(name, kwargs, tab=tab, seq=seq, gone=request.is_disconnected)
        except Cut as e:
            raise BadRequest(e.status, e.message) from None
        if "error" in out:
            raise BadRequest(400, **out["error"])
        if "internal" in out:
            raise BadRequest(500, out["internal"])
        if "cut" in out:
            raise BadRequest(503, out["cut"])
        return out

    async def progress(request: Request) -> JSONResponse:
        tab = request.query_params.get("tab", "")
        return JSONResponse(runner.progress(tab))

    async def answer(request: Request) -> JSONResponse:
        body = await _json_body(request)
        text, filename = _position_text(body)
        phase, page_, with_json = body.get("phase", False), body.get("page", True), body.get("json", False)
        if not isinstance(phase, bool) or not isinstance(page_, bool) or not isinstance(with_json, bool):
            raise BadRequest(400, "phase, page, json: expected true or false")
        out = await _answer(
            request,
            "outcomes",
            {
                "text": text,
                "filename": filename,
                "phase": phase,
                "timeout": timeout,
                "max_memory": max_memory,
                "rules": rules,
                "page": page_,
                "every_route": _every_route(body.get("all", False)),
                "with_json": with_json,
            },
            body,
        )
        return JSONResponse({"text": text, "changed": text != body.get("original"), **out})

    async def why_not(request: Request) -> JSONResponse:
        body = await _json_body(request)
        text, filename = _position_text(body)
        unit, fate = _string(body, "unit"), _string(body, "fate", "rout")
        # the words of `asl-kb why-not POSITION UNIT FATE [LOCATION | CAPTOR]`
        words = [fate] + (
            [_string(body, "at")] if fate == "rout" else [_string(body, "captor")] if fate == "surrender" else []
        )
        out = await _answer(
            request, "why_not", {"text": text, "filename": filename, "unit": unit, "words": words, "rules": rules}, body
        )
        return JSONResponse(out)

    async def save(request: Request) -> Response:
        body = await _json_body(request)
        text, filename = _position_text(body)
        return Response(
            text.encode("utf-8"),
            media_type="application/yaml; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    async def board_art(request: Request) -> Response:
        """A board's art, from the boards folder the answers read (the
        archive named as the board is: archive.archive_path checks the name)."""
        import hashlib

        from asl_kb.errors import AslKbError
        from asl_kb.vasl.archive import boards_folder, open_board
        from asl_kb.vasl.picture import mime

        try:
            data = open_board(boards_folder(), request.path_params["board"]).image()
        except AslKbError as e:
            raise BadRequest(404, str(e)) from None
        headers = {"ETag": '"' + hashlib.sha256(data).hexdigest()[:32] + '"', "Cache-Control": ART_CACHE}
        if headers["ETag"] in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers=headers)
        return Response(data, media_type=mime(data), headers=headers)

    async def bad_request(request: Request, e: BadRequest) -> JSONResponse:
        return JSONResponse({"error": e.body}, status_code=e.status)

    async def internal(request: Request, e: Exception) -> JSONResponse:
        first = _ascii((str(e).strip().splitlines() or [""])[0])
        return JSONResponse(
            {
                "error": {
                    "message": f"internal error: {type(e).__name__}: {first}",
                    "key": None,
                    "line": None,
                    "file": None,
                }
            },
            status_code=500,
        )

    routes = [Route(path, page, methods=["GET"]) for path in _STATIC] + [
        Route("/api/meta", meta, methods=["GET"]),
        Route("/api/start", start_, methods=["GET"]),
        Route("/api/progress", progress, methods=["GET"]),
        Route("/api/open", open_, methods=["POST"]),
        Route("/api/answer", answer, methods=["POST"]),
        Route("/api/why-not", why_not, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]),
        Route(ART_ROUTE + "{board}", board_art, methods=["GET"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        runner.preload(rules)
        try:
            yield
        finally:
            runner.close()

    # (starlette types a handler's exception as Exception, not the class it is registered for)
    handlers: dict = {BadRequest: bad_request, Exception: internal}
    app = Starlette(
        routes=routes,
        exception_handlers=handlers,
        middleware=[
            Middleware(FrameHeaders),
            Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts)),
            Middleware(SameOrigin),
        ],
        lifespan=lifespan,
    )
    app.state.runner = runner
    return app
