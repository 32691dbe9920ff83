"""The routes of `asl-kb serve` (Starlette): what each answers is in
asl_kb/serve/routes.py, how a body is read and checked in bodies.py.

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

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from asl_kb.serve.answers import ART_ROUTE
from asl_kb.serve.bodies import MAX_BODY, BadRequest, ascii_text
from asl_kb.serve.hosts import LOCAL_NAMES
from asl_kb.serve.routes import NEW, STATIC, Routes, Settings

__all__ = ["MAX_BODY", "NEW", "BadRequest", "LOCAL_HOSTS", "FRAME_HEADERS", "create_app"]

#: the Host a request to a server bound to this machine may name
LOCAL_HOSTS = LOCAL_NAMES
#: headers of every response: no page of another site may frame this one
#: (a click on a framed, hidden app would edit or save for that site)
FRAME_HEADERS = {"Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY"}


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


async def _bad_request(request: Request, e: BadRequest) -> JSONResponse:
    return JSONResponse({"error": e.body}, status_code=e.status)


async def _internal(request: Request, e: Exception) -> JSONResponse:
    """A bug: one line, never a traceback (as the CLI's exit 70)."""
    first = ascii_text((str(e).strip().splitlines() or [""])[0])
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


def create_app(position: str | None = None, **settings) -> Starlette:
    """The app; `position` is the file named on the command line (read once,
    here: no request names a file); `settings` those of the command line
    (routes.Settings: timeout, max_memory, workers, grace, rules, hosts)."""
    s = Settings(**settings)
    r = Routes(position, s)
    routes = [Route(path, r.page, methods=["GET"]) for path in STATIC] + [
        Route("/api/meta", r.meta, methods=["GET"]),
        Route("/api/start", r.start_, methods=["GET"]),
        Route("/api/progress", r.progress, methods=["GET"]),
        Route("/api/open", r.open_, methods=["POST"]),
        Route("/api/answer", r.answer, methods=["POST"]),
        Route("/api/why-not", r.why_not, methods=["POST"]),
        Route("/api/save", r.save, methods=["POST"]),
        Route(ART_ROUTE + "{board}", r.board_art, methods=["GET"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        r.runner.preload(s.rules)
        try:
            yield
        finally:
            r.runner.close()

    # (starlette types a handler's exception as Exception, not the class it is registered for)
    handlers: dict = {BadRequest: _bad_request, Exception: _internal}
    app = Starlette(
        routes=routes,
        exception_handlers=handlers,
        middleware=[
            Middleware(FrameHeaders),
            Middleware(TrustedHostMiddleware, allowed_hosts=list(s.hosts)),
            Middleware(SameOrigin),
        ],
        lifespan=lifespan,
    )
    app.state.runner = r.runner
    return app
