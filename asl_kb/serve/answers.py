"""What one answer of `asl-kb serve` does, in its child process: the loader
reads the position's text, the engine answers it, the report draws it.
Each function returns a plain dict (sent back through a pipe); a bad
position is {"error": {...}} with the loader's FILE:LINE: KEY: message.
Nothing here decides a rules question: it calls what the CLI calls."""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from asl_kb.engines.outcomes import DEFAULT_PHASE_LISTING
from asl_kb.errors import AslKbError, PositionError
from asl_kb.position.loader import load_position_text
from asl_kb.serve.progress import Progress

#: whole-phase outcomes listed: the engine's own default, as the CLI's
PHASE_LIMIT = DEFAULT_PHASE_LISTING
#: the most hexes the editor draws (every hex of the area, to paint on);
#: past it the map is drawn as the report draws it, around what is named
MAX_DRAWN_HEXES = 4000
#: where the server serves a VASL board's art (app.py's route): an answer
#: links it, the browser fetches it once and keeps it (not inlined again in
#: every answer, as the self-contained `report` page has it)
ART_ROUTE = "/board-art/"


def art_href(archive) -> str:
    """The address of a board archive's art: its name, and its file's size
    and time (a board replaced in the folder is a new address)."""
    from urllib.parse import quote

    size, mtime = archive.stamp
    return f"{ART_ROUTE}{quote(archive.name, safe='')}?v={size}-{mtime}"


def error(e: AslKbError) -> dict:
    """A loader or engine error as the page shows it: the one line the CLI
    prints, and its parts (the key names the element it concerns)."""
    if isinstance(e, PositionError):
        return {"message": str(e), "file": e.file, "line": e.line, "key": e.key}
    return {"message": str(e), "file": None, "line": None, "key": None}


@contextlib.contextmanager
def _under(rules):
    """Inside the block, answers are made under --rules (and --switch):
    a version names it (`rules` a string); a rule set (a rules folder, a
    switch flipped: checked and made once by serve/server.py) is in force.
    Yields the function that puts a position under it."""
    from asl_kb.record import replace

    if rules is None or isinstance(rules, str):
        yield lambda p: replace(p, rules=rules) if rules else p
        return
    if rules.complete is not None and rules.folder is not None:
        from asl_kb.asp import control

        control.made_from(rules.complete, rules.folder)  # (its files named as the command line named them)
    with rules.active():
        yield rules.apply


def _load(text: str, filename: str, put):
    """The position, put under the rules in force (`put`, from _under)."""
    return put(load_position_text(text, filename))


@dataclass(frozen=True)
class Ask:
    """What an answer of the outcomes is asked (a request of /api/answer):
    the position's text and display name; `phase` lists the whole-phase
    outcomes too (`outcomes --phase`); `timeout` and `max_memory` are the
    CLI's caps; `rules` the rule set in force (_under); `page` draws the
    report page; `every_route` draws every route to a destination (True),
    or those of the destinations named, as (unit id, Location) pairs, not
    only each destination's best; `with_json` adds the CLI's JSON text."""

    text: str
    filename: str
    phase: bool
    timeout: float
    max_memory: int
    rules: Any = None
    page: bool = True
    every_route: bool | frozenset[tuple[str, str]] = False
    with_json: bool = False


def outcomes(  # noqa: PLR0913 (Ask's fields, and whom to tell how far it has gone)
    text: str, filename: str, phase: bool, timeout: float, max_memory: int, progress: Progress | None = None, **more
) -> dict:
    """Every outcome of the position (as `asl-kb outcomes --format json`
    writes it, --phase on request) and, with `page`, the report page that
    draws them; how far it has gone told to `progress` (run()'s: the
    server's). The arguments are Ask's fields (`more`: the others)."""
    from asl_kb.engines import outcomes as engine

    a = Ask(text, filename, phase, timeout, max_memory, **more)
    try:
        with _under(a.rules) as put:
            position = _load(a.text, a.filename, put)
            result = engine.outcomes(
                position,
                phase=a.phase,
                limit=PHASE_LIMIT,
                timeout=a.timeout,
                max_memory=a.max_memory,
                on_progress=None if progress is None else progress.units,
            )
    except AslKbError as e:
        return {"error": error(e)}
    if progress is not None and a.page:
        progress.drawing()
    return _page(result, position, a)


def cut(where: str = "figuring the outcomes", **ask) -> dict:
    """The answer of a run stopped past --timeout (asl_kb/serve/work.py), as
    `outcomes --timeout` prints it then: complete: false, what was cut, every
    broken unit without fates. `ask`: the request outcomes() was given (the
    fields of Ask, one list for both: an argument added there cannot be
    missed here)."""
    from asl_kb.engines.outcomes import cut_by_timeout

    a = Ask(**ask)
    try:
        with _under(a.rules) as put:
            position = _load(a.text, a.filename, put)
    except AslKbError as e:
        return {"error": error(e)}
    return _page(cut_by_timeout(position, a.timeout, where), position, a)


def _page(result, position, a: Ask) -> dict:
    """The answer as the page reads it: the result (the CLI's JSON, read
    back: one reader, one result model), the CLI's JSON text when asked,
    what the map's board is (board_label) and, with `page`, the report page
    that draws it."""
    from asl_kb.board import hexgrid
    from asl_kb.report.html import to_html
    from asl_kb.report.render import to_json

    text = to_json(result)
    out: dict[str, Any] = {"result": json.loads(text), "complete": result.complete}
    if a.with_json:
        out["json"] = text
    label = board_label(position)
    if label is not None:
        out["board_label"] = label
    if not a.page:
        return out
    if position.real is not None:  # VASL boards
        whole = len(position.real.layout.hexes()) <= MAX_DRAWN_HEXES
    else:
        area = hexgrid.Area(*position.area)
        whole = (area.hi_col - area.lo_col + 1) * (area.hi_row - area.lo_row + 1) <= MAX_DRAWN_HEXES
    out["html"] = to_html(result, position, whole_area=whole, art_href=art_href, every_route=a.every_route)
    return out


def board_label(position) -> dict | None:
    """On a painted map, `map.board` only names the hexes' prefix (`5M2`,
    docs/position-format.md): the terrain is the map's own, whatever board
    it names. What the page tells the player: the board named and whether
    the VASL boards folder holds it (the page then offers to put the map on
    it, `map.boards`). None where the position names no such board."""
    if position.real is not None or not position.board:
        return None
    from asl_kb.errors import AslKbError
    from asl_kb.vasl.archive import archive_path, boards_folder

    try:
        archive_path(boards_folder(), position.board)
    except AslKbError:  # no folder set, or no such board in it
        return {"board": position.board, "vasl_board": False}
    return {"board": position.board, "vasl_board": True}


def why_not(text: str, filename: str, unit: str, words: list[str], rules=None) -> dict:
    """Is the fate `words` of `unit` legal (rout AT, stay, surrender CAPTOR,
    eliminated), and if not, which rules forbid it (as `asl-kb why-not
    --format json POSITION UNIT WORDS...`)."""
    from asl_kb.engines.why_not import parse_proposal, to_text, why_not as ask

    try:
        with _under(rules) as put:
            position = _load(text, filename, put)
            r = ask(position, parse_proposal(position, unit, list(words)))
    except AslKbError as e:
        return {"error": error(e)}
    return {"why_not": r, "text": to_text(r)}


def game(data: bytes, filename: str, attacker: str | None = None) -> dict:
    """A VASL saved game read as a position (asl_kb/vasl/game.py, as `asl-kb
    import` reads it): its YAML, its tree and what the import could not
    read; a game that does not say whose Player Turn it is asks for the
    ATTACKER (`sides`: the choices)."""
    from asl_kb.serve import yamltext
    from asl_kb.vasl.game import AttackerUnknown, read_game

    try:
        imported = read_game(data, name=filename, attacker=attacker)
    except AttackerUnknown as e:
        return {"error": {**error(e), "key": "attacker"}, "sides": list(e.sides)}
    except AslKbError as e:
        return {"error": error(e)}
    text = imported.text
    return {"text": text, "tree": yamltext.to_tree(text, filename), "warnings": list(imported.warnings)}


def run(name: str, kwargs: dict, max_memory: int, progress: Progress | None = None) -> dict:
    """The child process's body: cap the memory as the CLI does, at
    --max-memory MiB beyond the server's data it was forked with (what an
    answer takes of its own), answer (outcomes telling `progress` how far
    it has gone); the answer (a plain dict) goes back to the server
    (asl_kb/children.py)."""
    from asl_kb import budget, process

    budget.cap_memory(max_memory, beyond=budget.data_used() or 0)
    try:
        with process.paused():
            by_name: dict[str, Callable[..., dict]] = {
                "outcomes": functools.partial(outcomes, progress=progress),
                "why_not": why_not,
                "cut": cut,
                "game": game,
            }
            out = by_name[name](**kwargs)
    except MemoryError:
        out = {"cut": f"the memory cap (--max-memory {max_memory} MiB) was reached"}
    except Exception as e:  # a bug: one line, as the CLI's exit 70
        first = (str(e).strip().splitlines() or [""])[0]
        out = {"internal": f"internal error: {type(e).__name__}: {first}"}
    return out
