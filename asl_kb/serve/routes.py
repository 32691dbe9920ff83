"""What each route of `asl-kb serve` answers (asl_kb/serve/app.py lists the
routes and wires them): the page and its files, the names it offers, the
position of the command line, a file or a saved game opened, an answer, a
Why not?, a save, a board's art. The answers themselves are figured in
child processes (asl_kb/serve/work.py, answers.py); a bad request is a
BadRequest (asl_kb/serve/bodies.py)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from asl_kb.errors import PositionError
from asl_kb.position import loader
from asl_kb.serve import yamltext
from asl_kb.serve.bodies import MAX_BODY, BadRequest, display_name, every_route, json_body, position_text, string
from asl_kb.serve.hosts import LOCAL_NAMES
from asl_kb.serve.work import Cut, Runner

#: the name a new position starts with
NEW = {"name": "new position", "attacker": "german", "units": []}
#: the page and its files: address -> (file in static/, its type)
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/static/app.css": ("app.css", "text/css; charset=utf-8"),
}
#: a board's art is kept by the browser (an answer names it with its
#: archive's size and time: a board replaced is another address)
ART_CACHE = "private, max-age=86400"


@dataclass(frozen=True)
class Settings:
    """What the command line sets (serve/server.py): the caps of an answer
    (--timeout, --max-memory), the answers figured at once (--workers), the
    time a cut answer is given past the timeout, the rule set (the version
    --rules names, or the rule set of --rules and --switch: a rules folder,
    a switch flipped) and the names a request may give the server (its Host
    header: a page of another site that has its name point at 127.0.0.1 is
    refused)."""

    timeout: float = 60.0
    max_memory: int = 1024
    workers: int = 2
    grace: float = 5.0
    rules: Any = None
    hosts: tuple[str, ...] = LOCAL_NAMES


class Routes:
    """The handlers, sharing the settings, the runner of the answers'
    children and the position of the command line (`position`: read once,
    here; no request names a file)."""

    def __init__(self, position: str | None, settings: Settings):
        self.settings = settings
        self.runner = Runner(settings.timeout, settings.max_memory, workers=settings.workers, grace=settings.grace)
        if position is None:
            self.start = {"filename": "new-position.yaml", "text": None, "tree": dict(NEW)}
        else:
            text = Path(position).read_text(encoding="utf-8")
            self.start = {"filename": display_name(position), "text": text, "tree": yamltext.to_tree(text, position)}
        static = resources.files("asl_kb.serve") / "static"
        self.pages = {path: ((static / name).read_bytes(), kind) for path, (name, kind) in STATIC.items()}

    async def page(self, request: Request) -> Response:
        body, kind = self.pages[request.url.path]
        return Response(body, media_type=kind, headers={"Cache-Control": "no-store"})

    async def meta(self, request: Request) -> JSONResponse:
        from asl_kb.board import terrain
        from asl_kb.report.html import SIDE_COLOURS

        s = self.settings
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
                "rules": s.rules if s.rules is None or isinstance(s.rules, str) else s.rules.label,
                "colours": SIDE_COLOURS,
                "limits": {
                    "body": MAX_BODY,
                    "position": loader.MAX_BYTES,
                    "timeout": s.timeout,
                    "max_memory": s.max_memory,
                },
            }
        )

    async def start_(self, request: Request) -> JSONResponse:
        return JSONResponse(self.start)

    async def open_(self, request: Request) -> JSONResponse:
        body = await json_body(request)
        if "vsav" in body:
            return await self.open_game(body)
        text, filename = string(body, "text"), display_name(body.get("filename"))
        if len(text.encode("utf-8")) > loader.MAX_BYTES:
            raise BadRequest(413, f"{filename}: position too large (the limit is {loader.MAX_BYTES} bytes)")
        try:
            tree = yamltext.to_tree(text, filename)
        except PositionError as e:
            raise BadRequest(400, str(e), e.key, e.line, e.file) from None
        return JSONResponse({"filename": filename, "text": text, "tree": tree})

    async def open_game(self, body: dict) -> JSONResponse:
        """A VASL saved game, read in a child as an answer is (its boards'
        archives are large): the position it is, named NAME.yaml."""
        import base64
        import binascii

        filename = display_name(body.get("filename"))
        attacker = body.get("attacker")
        if attacker is not None and not isinstance(attacker, str):
            raise BadRequest(400, "attacker: expected a side's name")
        try:
            data = base64.b64decode(string(body, "vsav"), validate=True)
        except (binascii.Error, ValueError):
            raise BadRequest(400, "vsav: expected the saved game's bytes in base64") from None
        try:
            out = await self.runner.run("game", {"data": data, "filename": filename, "attacker": attacker})
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

    async def _answer(self, request: Request, name: str, kwargs: dict, body: dict) -> dict:
        """The child's answers.<name>(**kwargs) for the tab and seq the body
        names (a newer edit of the tab supersedes it); its error a BadRequest."""
        tab = body.get("tab")
        seq = body.get("seq", 0)
        if tab is not None and (not isinstance(tab, str) or len(tab) > 64):
            raise BadRequest(400, "tab: expected a string of at most 64 characters")
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise BadRequest(400, "seq: expected a whole number")
        try:
            out = await self.runner.run(name, kwargs, tab=tab, seq=seq, gone=request.is_disconnected)
        except Cut as e:
            raise BadRequest(e.status, e.message) from None
        if "error" in out:
            raise BadRequest(400, **out["error"])
        if "internal" in out:
            raise BadRequest(500, out["internal"])
        if "cut" in out:
            raise BadRequest(503, out["cut"])
        return out

    async def progress(self, request: Request) -> JSONResponse:
        tab = request.query_params.get("tab", "")
        return JSONResponse(self.runner.progress(tab))

    async def answer(self, request: Request) -> JSONResponse:
        body = await json_body(request)
        text, filename = position_text(body)
        phase, page_, with_json = body.get("phase", False), body.get("page", True), body.get("json", False)
        if not isinstance(phase, bool) or not isinstance(page_, bool) or not isinstance(with_json, bool):
            raise BadRequest(400, "phase, page, json: expected true or false")
        s = self.settings
        ask = {
            "text": text,
            "filename": filename,
            "phase": phase,
            "timeout": s.timeout,
            "max_memory": s.max_memory,
            "rules": s.rules,
            "page": page_,
            "every_route": every_route(body.get("all", False)),
            "with_json": with_json,
        }
        out = await self._answer(request, "outcomes", ask, body)
        return JSONResponse({"text": text, "changed": text != body.get("original"), **out})

    async def why_not(self, request: Request) -> JSONResponse:
        body = await json_body(request)
        text, filename = position_text(body)
        unit, fate = string(body, "unit"), string(body, "fate", "rout")
        # the words of `asl-kb why-not POSITION UNIT FATE [LOCATION | CAPTOR]`
        words = [fate] + (
            [string(body, "at")] if fate == "rout" else [string(body, "captor")] if fate == "surrender" else []
        )
        ask = {"text": text, "filename": filename, "unit": unit, "words": words, "rules": self.settings.rules}
        return JSONResponse(await self._answer(request, "why_not", ask, body))

    async def save(self, request: Request) -> Response:
        body = await json_body(request)
        text, filename = position_text(body)
        return Response(
            text.encode("utf-8"),
            media_type="application/yaml; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    async def board_art(self, request: Request) -> Response:
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
