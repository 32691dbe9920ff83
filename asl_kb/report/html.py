"""The board picture: one self-contained HTML page (inline SVG, CSS and a few
lines of script; nothing fetched) showing a position's map and every outcome
of the result drawn on it, read from the result's JSON form
(model.Outcomes.to_json(): what the JSON renderer writes, as plain dicts).

Every point comes from `hexgrid.hex_shape` (a hex id -> its centre and
corners), or on VASL boards from `asl_kb.vasl.picture` (the boards' own
images under their hex grid). Nothing here decides a rules question: it draws what the result
says. The Prisoners section is read by `_prisoners_view` and `_term` only.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Collection
from functools import cache
from pathlib import Path

import jinja2
from markupsafe import Markup

from asl_kb.board import hexgrid, terrain as terrain_table
from asl_kb.model import Outcomes
from asl_kb.record import FrozenRecord, record
from asl_kb.resources import docs_dir

_TEMPLATES = Path(__file__).resolve().parent / "templates"

#: hex side in SVG pixels
SIZE = 38
#: hexes drawn around everything the position and its outcomes name
MARGIN_COLS, MARGIN_ROWS = 2, 1
#: SVG pixels above the map for the caption
CAPTION_BAND = 48
#: a unit's fate groups start open when it has at most this many fates
OPEN_UP_TO = 12

SIDE_COLOURS = {  # counter colours as printed (ASL: German blue-grey, Russian brown, ...)
    "german": "#9fb7cc",
    "ss": "#7f93a8",
    "russian": "#c49a6c",
    "american": "#8ea05a",
    "british": "#d7c08f",
    "japanese": "#e6cf4a",
    "italian": "#b9b3a3",
    "french": "#7fa6d6",
    "finnish": "#ffffff",
    "partisan": "#a7b37a",
    "chinese": "#d8d39a",
    "gurkha": "#d7c08f",
}
_FALLBACK_COLOURS = ("#c7a3d6", "#9fd0c0", "#e0a8a8", "#b0c4de", "#d6c79f")
TERRAIN_FILL = {
    "open": "#e4e7bf",
    "road": "#d8cfa8",
    "woods": "url(#woods)",
    "forest": "url(#woods)",
    "building": "#b48a5c",
    "wooden_building": "#b48a5c",
    "stone_building": "#9c9c9c",
    "rubble": "url(#rubble)",
    "grain": "url(#grain)",
    "brush": "url(#brush)",
    "orchard": "url(#orchard)",
    "marsh": "url(#marsh)",
    "water": "#6ea6d6",
    "stream": "#93c3e6",
    "cliff": "#8b7d6b",
}
TYPE_LABEL = {
    "squad": "Squad",
    "half_squad": "HS",
    "crew": "Crew",
    "leader": "Leader",
    "hero": "Hero",
    "vehicle": "AFV",
    "gun": "Gun",
    "unarmed": "Unarmed",
}
STATUS_LABEL = {
    "broken": "BRK",
    "dm": "DM",
    "disrupted": "DISR",
    "pinned": "PIN",
    "cx": "CX",
    "encircled": "ENC",
    "concealed": "?",
    "hidden": "HIP",
    "berserk": "BERSERK",
    "melee": "MELEE",
    "fanatic": "FAN",
    "wounded": "WND",
    "ce": "CE",
    "bu": "BU",
    "stunned": "STUN",
    "motion": "MOT",
    "spotted_fire": "SPOT",
    "unarmed": "UNARM",
    "inexperienced": "INEXP",
    "abandoned": "ABAND",
    "escaped": "ESC",
}
_RULE_ID = re.compile(r"[A-Z]\d+(?:\.\d+)*")


# --------------------------------------------------------------------------
# geometry helpers (all through hexgrid.hex_shape)
# --------------------------------------------------------------------------


def centre(h: str) -> tuple[float, float]:
    return hexgrid.hex_shape(h, SIZE).centre


def _pt(p) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


def _points(ps) -> str:
    return " ".join(_pt(p) for p in ps)


def hex_of(loc: str) -> str:
    return loc.split("@", 1)[0]


@cache
def _inset(h: str, k: float) -> str:
    (cx, cy), corners = hexgrid.hex_shape(h, SIZE)
    return _points([(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in corners])


# --------------------------------------------------------------------------
# the page
# --------------------------------------------------------------------------


def to_html(  # noqa: PLR0913 (what the page draws, by keyword: report's flags, serve's and pair's asks)
    result: Outcomes | dict,
    position,
    all_paths: bool = False,
    fate: tuple[str, int] | None = None,
    select_first: bool = False,
    whole_area: bool = False,
    marks: dict | None = None,
    art_href=None,
    every_route: bool | Collection[tuple[str, str]] = False,
) -> str:
    """The report page of `result` (from engines.outcomes, or its JSON form)
    for `position`.

    `fate` = (unit id, n) opens the page with that unit's n-th fate drawn
    (numbered from 1 as in the text output; ValueError if there is none);
    `select_first` draws the first broken unit's first fate instead;
    `whole_area` draws every hex of the position's area (`asl-kb serve`
    paints on them), not only those around what the position names;
    `marks` = {"units": [...], "hexes": [...]} outlines those counters and
    hexes as changed (the two boards of asl_kb/report/pair.py); `art_href`
    (a board archive -> an address) links the VASL boards' art where the
    page would inline it (`asl-kb serve` serves it once, cached);
    `every_route` draws every route to a destination, not only its best
    (the first `outcomes` lists: a board of thousands of routes is read at
    a glance, the others counted); a collection of (unit id, destination)
    pairs draws every route to those (`asl-kb serve` expands one)."""
    r = result.to_json() if isinstance(result, Outcomes) else result  # the JSON renderer's data
    view = _View(r, position, _Drawn(all_paths, whole_area, art_href, every_route, fate))
    selected = None
    if fate is not None:
        selected = view.overlay_of(*fate)
        if selected is None:
            raise ValueError(f"unit {fate[0]!r} has no fate {fate[1]}")
    elif select_first:
        selected = view.overlays[0]["id"] if view.overlays else None
    marked = {
        "units": set(marks["units"]) if marks else set(),
        "hexes": [
            {"hex": h, "points": view.inset(h, 0.96)} for h in (marks or {}).get("hexes", ()) if h in set(view.hexes)
        ],
    }
    return (
        environment()
        .get_template("report.html.j2")
        .render(r=r, v=view, all_paths=all_paths, selected=selected, marks=marked)
    )


@cache
def template_cache():
    """jinja2's cache of compiled templates (a directory of this user's under
    the system's temporary directory, keyed by each template's checksum):
    compiling a template costs more than rendering it. None when it cannot
    be made; templates are then compiled as before."""
    try:
        return jinja2.FileSystemBytecodeCache()
    except (OSError, RuntimeError):
        return None


class _Environment(jinja2.Environment):
    """jinja2's environment, reading `x.name` of a dict as its item first:
    jinja2 tries the attribute first, and the AttributeError each dict
    raised was a fifth of rendering a page of a few thousand fates. Where
    the dict has no such key, as before (its method, e.g. `.get`)."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@cache
def environment() -> jinja2.Environment:
    env = _Environment(
        loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        bytecode_cache=template_cache(),
    )
    env.filters["rules"] = _link_rules
    env.filters["merged"] = _merged
    env.filters["odds_words"] = odds_words
    return env


@record(frozen=True)
class _Drawn(FrozenRecord):
    """What to_html() was asked to draw (its arguments of the same names)."""

    all_paths: bool
    whole_area: bool
    art_href: Callable | None
    every_route: bool | Collection[tuple[str, str]]
    fate: tuple[str, int] | None


class _View:
    """What the template draws: map hexes, counters, fate overlays, lists."""

    def __init__(self, r: dict, position, drawn: _Drawn):
        self.r, self.position, self.all_paths, self.whole_area = r, position, drawn.all_paths, drawn.whole_area
        #: every route to a destination drawn, or only its best (the first
        #: listed, as `outcomes` lists them) and the fate asked for
        self.every_route, self.fate = drawn.every_route, drawn.fate
        #: on VASL boards, their picture (asl_kb/vasl/picture.py): the boards'
        #: art under the hex grid, drawn in the boards' own pixels
        self.picture = None
        if position.real is not None:
            from asl_kb.vasl.picture import BoardPicture

            self.picture = BoardPicture(position.real.layout, SIZE)
        self.grid = position.grid
        self.unit_loc = {u.id: (u.hex if not u.level else f"{u.hex}@{u.level}") for u in position.units}
        self.overlays: list[dict] = []
        self.fate_lists = [self._unit_entry(u, "rout", i) for i, u in enumerate(r["units"])]
        self.immediate: list[dict] = []
        for key, title in (
            ("heat_of_battle", "Heat of Battle (A15.5)"),
            ("disrupted", "Disrupted units entered by the enemy (A19.12)"),
        ):
            if key in r:
                self.immediate.append(
                    {"title": title, "units": [self._unit_entry(u, key, i) for i, u in enumerate(r[key])]}
                )
        self.phase = self._phase(r.get("phase"))
        self.prisoners = self._prisoners(r.get("prisoners"))
        self.hexes = self._map_hexes()
        self.viewbox, self.width, self.height = self._viewbox()
        self.cells = [self._cell(h) for h in self.hexes]
        self.art = self.picture.images(self.box, drawn.art_href) if self.picture is not None else []
        self.buildings = self._building_outlines() if self.picture is None else []
        self.hexsides = self._hexside_lines()
        self.counters = self._counters()
        #: every terrain drawn, for the legend (in the order of the terrain table)
        drawn = {c["terrain"] for c in self.cells} if self.picture is None else set()
        self.terrains = [
            {"terrain": t.replace("_", " "), "fill": TERRAIN_FILL.get(t, "#e4e7bf")}
            for t in sorted(
                drawn, key=lambda t: (list(TERRAIN_FILL).index(t) if t in TERRAIN_FILL else len(TERRAIN_FILL), t)
            )
        ]
        self.captions = self._captions()
        self.los = self._los()
        cited = _because_items(r)
        self.rules = _catalogue_entries(sorted(_cited(cited), key=_rule_sort_key))
        words = _cited_words(cited)
        for e in self.rules:
            e["says"] = words.get(e["rule"], [])
        self.sides = sorted({u.side for u in position.units})
        self.side_colour = {s: side_colour(s) for s in self.sides}

    # ---- geometry (a hex id -> its centre and corners)
    def shape(self, h: str) -> hexgrid.HexShape:
        return self.picture.shape(h) if self.picture is not None else hexgrid.hex_shape(h, SIZE)

    def centre(self, h: str) -> tuple[float, float]:
        return self.shape(h).centre

    def inset(self, h: str, k: float) -> str:
        if self.picture is None:
            return _inset(h, k)
        (cx, cy), corners = self.shape(h)
        return _points([(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in corners])

    def _direction(self, a: str, b: str) -> int:
        """The direction (1..6) from hex a to its neighbour b."""
        if self.picture is None:
            return hexgrid.direction(a, b)
        a, b = self.grid.canonical(a), self.grid.canonical(b)
        return next(d for d in range(1, 7) if self.grid.neighbor(a, d) == b)

    def _captions(self) -> dict[str, dict]:
        """Each fate's caption, drawn on the map with it (so a PNG says what it
        shows): the position, the unit (its stack), the fate in words and its odds."""
        out = {}
        for e in self.fate_lists + [e for sec in self.immediate for e in sec["units"]]:
            u = e["u"]
            who = ", ".join(u["stack"]) if u.get("stack") else u["id"]
            for g in e["groups"]:
                for x in g["fates"]:
                    text = f"{who} ({u['side']}) in {u['at']}, fate {x['index'] + 1}: {x['summary']}"
                    odds = x["f"].get("odds")
                    odds = "odds: " + odds_words(odds) if odds and odds["nmcs"] else ""
                    out[x["overlay"]] = {
                        "text": text,
                        "fit": self._fit(text, 11.5),
                        "odds": odds,
                        "odds_fit": self._fit(odds, 11.5),
                    }
        return out

    def _fit(self, text: str, font: float) -> str:
        """A caption line's textLength when it would overflow the map (a PNG
        clips it): "" when it fits. Glyphs are ~0.58 of the font size wide."""
        width = len(text) * font * 0.58
        return f"{self.caption_room:.0f}" if width > float(self.caption_room) else ""

    def overlay_of(self, unit: str, n: int) -> str | None:
        """The overlay of a unit's n-th fate (from 1), rout fates first."""
        for e in self.fate_lists + [e for sec in self.immediate for e in sec["units"]]:
            if e["u"]["id"] == unit:
                for g in e["groups"]:
                    for x in g["fates"]:
                        if x["index"] == n - 1:
                            return x["overlay"]
        return None

    # ---- which hexes to draw
    def _named_hexes(self) -> set[str]:
        p = self.position
        named = {u.hex for u in p.units} | set(p.terrain) | set(p.levels) | set(p.smoke)
        for pair in p.los_blocked + p.los_clear:
            named |= {hex_of(x) for x in pair}
        for a, b, _ in p.los_hindrance:
            named |= {hex_of(a), hex_of(b)}
        for o in self.overlays:
            named |= o["hexes"]
        return named

    def _map_hexes(self) -> list[str]:
        # the hexes around the ones a unit, fate or override names, not the
        # whole area: the page's size follows the units, not the map's
        if self.picture is not None:  # VASL boards
            if self.whole_area:
                return list(self.grid.hexes())
            return self.picture.hexes_around(self._named_hexes(), MARGIN_COLS, MARGIN_ROWS)
        area = hexgrid.Area(*self.position.area)
        if self.whole_area:  # the editor (asl-kb serve) paints any hex of the area
            return list(area.hexes())
        named = [h for h in self._named_hexes() if area.contains(h)]
        if not named:  # no unit: the area's first board
            named = [
                hexgrid.hex_id(area.lo_col, area.lo_row),
                hexgrid.hex_id(
                    min(area.hi_col, area.lo_col + hexgrid.BOARD_MAX_COL),
                    min(area.hi_row, area.lo_row + hexgrid.BOARD_MAX_ROW),
                ),
            ]
        cols = [hexgrid.hex_coords(h)[0] for h in named]
        rows = [hexgrid.hex_coords(h)[1] for h in named]
        lo_c, hi_c = max(area.lo_col, min(cols) - MARGIN_COLS), min(area.hi_col, max(cols) + MARGIN_COLS)
        lo_r, hi_r = max(area.lo_row, min(rows) - MARGIN_ROWS), min(area.hi_row, max(rows) + MARGIN_ROWS)
        return [
            hexgrid.hex_id(c, r)
            for c in range(lo_c, hi_c + 1)
            for r in range(lo_r, hi_r + 1)
            if area.contains_coords(c, r)
        ]

    def _viewbox(self):
        xs = [x for h in self.hexes for x, _ in self.shape(h).corners]
        ys = [y for h in self.hexes for _, y in self.shape(h).corners]
        pad = 6
        x0, y0, x1, y1 = min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
        #: the map's part drawn (the boards' art is clipped to it)
        self.box = (x0, y0, x1, y1)
        # a band above the map for the caption (two lines: what is drawn, its odds)
        self.caption_x = f"{x0 + 4:.1f}"
        self.caption_y = [f"{y0 - CAPTION_BAND + 14 + 14 * i:.1f}" for i in range(3)]
        self.caption_room = x1 - x0 - 8
        y0 -= CAPTION_BAND
        return f"{x0:.1f} {y0:.1f} {x1 - x0:.1f} {y1 - y0:.1f}", round(x1 - x0), round(y1 - y0)

    # ---- terrain
    def _cell(self, h: str) -> dict:
        t = self.position.terrain_of(h)
        (cx, cy), corners = self.shape(h)
        levels = self.position.levels_of(h)
        feats = [f for f in t.features if f != "smoke"]
        return {
            "hex": h,
            "points": _points(corners),
            "cx": f"{cx:.1f}",
            "cy": f"{cy:.1f}",
            "terrain": t.terrain,
            "fill": TERRAIN_FILL.get(t.terrain, "#e4e7bf"),
            # on VASL boards the boards' art shows the terrain: the hex is an outline
            "art": self.picture is not None,
            "building": terrain_table.terrain_type(t.terrain).rout_cover == "building",
            "inner": self.inset(h, 0.72),
            "elevation": t.elevation,
            "levels": levels,
            "features": feats,
            "smoke": "smoke" in t.features,
            "label_y": f"{cy - SIZE * 0.62:.1f}",
            "foot_y": f"{cy + SIZE * 0.74:.1f}",
            "note_y": f"{cy + SIZE * 0.52:.1f}",
            "title": h
            + ": "
            + t.terrain.replace("_", " ")
            + (f", level {t.elevation} hill" if t.elevation else "")
            + (f", building levels 0-{levels}" if levels else "")
            + "".join(", " + f for f in t.features),
        }

    def _building_outlines(self) -> list[str]:
        """The hexsides where a building meets anything else: its outline."""
        from asl_kb.board.geometry import buildings

        group = buildings(self.position, set(self.hexes))
        out = []
        for h, b in sorted(group.items(), key=lambda x: hexgrid.hex_coords(x[0])):
            corners = self.shape(h).corners
            for d in range(1, 7):
                n = hexgrid.neighbor(h, d)
                if n is None or group.get(n) != b:
                    out.append(_points((corners[(d + 3) % 6], corners[(d + 4) % 6])))
        return out

    def _hexside_lines(self) -> list[dict]:
        """The walls, hedges and bocage along hexsides of the drawn hexes."""
        drawn = set(self.hexes)
        out = []
        for (a, b), kind in sorted(
            self.position.hexsides.items(), key=lambda x: (self.grid.order(x[0][0]), self.grid.order(x[0][1]))
        ):
            if a not in drawn and b not in drawn:
                continue
            corners = self.shape(a).corners
            d = self._direction(a, b)
            t = terrain_table.hexside_type(kind)
            out.append(
                {
                    "kind": kind,
                    "points": _points((corners[(d + 3) % 6], corners[(d + 4) % 6])),
                    "title": f"{a}-{b}: {kind} (TEM +{t.tem}, "
                    + (f"+{t.crossing_mf} MF to cross" if t.crossing_mf is not None else "not crossed")
                    + f"; {t.rule})",
                }
            )
        return out

    # ---- units
    def _counters(self) -> list[dict]:
        by_hex: dict[str, list] = {}
        for u in self.position.units:
            by_hex.setdefault(u.hex, []).append(u)
        out = []
        for h, units in by_hex.items():
            n = len(units)
            # the counters fit the band between the hex id (above) and the
            # level/feature labels (below), which are drawn over them anyway
            size, ncols = (
                (28, 1) if n == 1 else (24, 2) if n == 2 else (16, 2) if n <= 4 else (16, 3) if n <= 6 else (10, 4)
            )
            nrows = -(-n // ncols)
            cx, cy = self.centre(h)
            cy -= SIZE * 0.12
            gap = 2
            w = ncols * size + (ncols - 1) * gap
            hgt = nrows * size + (nrows - 1) * gap
            for i, u in enumerate(units):
                x = cx - w / 2 + (i % ncols) * (size + gap)
                y = cy - hgt / 2 + (i // ncols) * (size + gap)
                out.append(self._counter(u, x, y, size, n))
        return out

    def _counter(self, u, x, y, size, stack) -> dict:
        values = u.counter or _values(u)
        guard = f"prisoner of {u.guard}" if u.guard else ""
        title = (
            f"{u.id}: {u.side} {u.type.replace('_', ' ')} {values or ''}".strip()
            + (f" at {self.unit_loc[u.id]}")
            + "".join(f", {s}" for s in u.status)
            + "".join(f", {w.kind.upper()}" for w in u.sw)
            + (f", {guard}" if guard else "")
            + (f", guarding {', '.join(u.guarding)}" if u.guarding else "")
            + (f" (stack of {stack})" if stack > 1 else "")
        )
        concealed = "concealed" in u.status
        if concealed:  # as the opponent sees it: a "?" counter; the real values in the tooltip only
            title = "concealed (seen by the opponent as ?): " + title
        return {
            "id": u.id,
            "hex": u.hex,
            "x": f"{x:.1f}",
            "y": f"{y:.1f}",
            "size": size,
            "mx": f"{x + size / 2:.1f}",
            "fill": side_colour(u.side),
            "type": "?" if concealed else TYPE_LABEL.get(u.type, u.type),
            "printed": "?" if concealed else values or "",
            "status": []
            if concealed
            else [STATUS_LABEL.get(s, s) for s in u.status if s not in ("broken", "concealed")],
            "broken": "broken" in u.status,
            "concealed": "concealed" in u.status,
            "sw": [] if concealed else [w.kind.upper() for w in u.sw],
            "level": u.level,
            "prisoner": bool(u.guard),
            "scale": size / 34,
            "title": title,
            "alone": stack == 1,
        }

    # ---- LOS overrides
    def _los(self) -> list[dict]:
        p, out = self.position, []
        for kind, pairs in (
            ("blocked", [(a, b, None) for a, b in p.los_blocked]),
            ("clear", [(a, b, None) for a, b in p.los_clear]),
            ("hindrance", list(p.los_hindrance)),
        ):
            for a, b, drm in pairs:
                (x0, y0), (x1, y1) = self.centre(hex_of(a)), self.centre(hex_of(b))
                label = {"blocked": "blocked", "clear": "clear"}.get(kind, f"+{drm} hindrance")
                out.append(
                    {
                        "kind": kind,
                        "a": a,
                        "b": b,
                        "x0": f"{x0:.1f}",
                        "y0": f"{y0:.1f}",
                        "x1": f"{x1:.1f}",
                        "y1": f"{y1:.1f}",
                        "mx": f"{(x0 + x1) / 2:.1f}",
                        "my": f"{(y0 + y1) / 2:.1f}",
                        "label": label,
                    }
                )
        return out

    # ---- fates
    def _unit_entry(self, u: dict, section: str, index: int) -> dict:
        # a destination's routes: its best (listed first) drawn, the others
        # counted (all drawn with every_route; the fate asked for drawn too)
        # (a stay, surrender or elimination is never hidden: only routes)
        groups: dict[str, list] = {}
        counts: dict[str, int] = {}
        kinds: dict[str, set] = {}
        routed: set[str] = set()
        for j, f in enumerate(u["fates"]):
            at = f.get("at", u["at"])
            counts[at] = counts.get(at, 0) + 1
            kinds.setdefault(at, set()).add(f["fate"])
            hidden = f["fate"] == "rout" and at in routed
            if f["fate"] == "rout":
                routed.add(at)
            if hidden and not self._every_route(u["id"], at) and self.fate != (u["id"], j + 1):
                groups.setdefault(at, [])
                continue
            ov = self._overlay(u, f, f"ov-{section}-{index}-{j}")
            groups.setdefault(at, []).append({"f": f, "overlay": ov["id"], "summary": _summary(f, u), "index": j})
        group_list: list[dict] = [
            {
                "at": at,
                "fates": fs,
                "count": counts[at],
                "more": counts[at] - len(fs),
                "kinds": sorted(kinds[at]),
            }
            for at, fs in groups.items()
        ]
        # (a surrender or an elimination is where the unit is: no destination)
        routs = sum(1 for g in group_list if "rout" in g["kinds"])
        return {
            "u": u,
            "groups": group_list,
            "open": len(u["fates"]) <= OPEN_UP_TO,
            "n": len(u["fates"]),
            "routs": routs,
            "section": section,
        }

    def _every_route(self, unit: str, at: str) -> bool:
        """Every route of the unit to `at` drawn (every_route)."""
        e = self.every_route
        return e if isinstance(e, bool) else (unit, at) in e

    def _overlay(self, u: dict, f: dict, oid: str) -> dict:
        start = hex_of(u["at"])
        at = hex_of(f.get("at", u["at"]))
        paths = f["paths"] if self.all_paths and f.get("paths") else []
        path = f.get("path") or [u["at"]]
        elements: list[dict] = []
        hexes = {start, at}
        used: dict[str, int] = {}

        def below(h: str) -> str:
            """y of the next label under hex h's counters (one line each)."""
            used[h] = used.get(h, 0) + 1
            return f"{self.centre(h)[1] + SIZE * 0.7 + 11 * (used[h] - 1):.1f}"

        for p in paths:
            if p != path and len(p) > 1:
                elements.append({"kind": "alt", "points": _points(self.centre(hex_of(h)) for h in p)})
                hexes |= {hex_of(h) for h in p}
        if len(path) > 1:
            elements.append(
                {
                    "kind": "route",
                    "low_crawl": bool(f.get("low_crawl")),
                    "hexes": " ".join(path),
                    "points": _points(self.centre(hex_of(h)) for h in path),
                }
            )
            hexes |= {hex_of(h) for h in path}
        elements.append({"kind": "start", "points": self.inset(start, 0.92)})
        elements += self._interdictions(f, hexes, below)
        kind = f["fate"]
        elements += self._captor(f, at, hexes)
        cx, cy = self.centre(at)
        label = _end_label(f)
        elements.append(
            {
                "kind": "end",
                "fate": kind,
                "points": self.inset(at, 0.8),
                "x": f"{cx:.1f}",
                "y": below(at) if label else "0",
                "label": label,
                "cross": kind == "eliminated",
                "x0": f"{cx - SIZE * 0.45:.1f}",
                "y0": f"{cy - SIZE * 0.45:.1f}",
                "x1": f"{cx + SIZE * 0.45:.1f}",
                "y1": f"{cy + SIZE * 0.45:.1f}",
            }
        )
        for a in f.get("abandons", ()):
            ah = hex_of(a["at"])
            hexes.add(ah)
            x, y = self.centre(ah)
            elements.append(
                {"kind": "abandons", "x": f"{x:.1f}", "y": f"{y - SIZE * 0.45:.1f}", "label": f"{a['sw'].upper()} left"}
            )
        for other in f.get("llmc", ()):
            if other in self.unit_loc:
                x, y = self.centre(hex_of(self.unit_loc[other]))
                hexes.add(hex_of(self.unit_loc[other]))
                elements.append(
                    {"kind": "llmc", "x": f"{x:.1f}", "y": f"{y - SIZE * 0.45:.1f}", "label": f"LLMC {other}"}
                )
        ov = {"id": oid, "unit": u["id"], "elements": elements, "hexes": hexes}
        self.overlays.append(ov)
        return ov

    def _interdictions(self, f: dict, hexes: set, below) -> list[dict]:
        """A fate's Interdiction Locations (both kinds), each labelled below
        its hex's counters (`below`), and the lines from their Interdictors."""
        elements: list[dict] = []
        for key, optional in (("interdiction", False), ("optional_interdiction", True)):
            for i in f.get(key, ()):
                ih = hex_of(i["at"])
                hexes.add(ih)
                cx, cy = self.centre(ih)
                elements.append(
                    {
                        "kind": "interdiction",
                        "optional": optional,
                        "hex": i["at"],
                        "points": self.inset(ih, 0.86),
                        "x": f"{cx:.1f}",
                        "y": below(ih),
                        "by": i["by"],
                    }
                )
                for by in i["by"]:
                    if by in self.unit_loc:
                        bh = hex_of(self.unit_loc[by])
                        hexes.add(bh)
                        elements.append(
                            {
                                "kind": "interdictor",
                                "optional": optional,
                                "by": by,
                                "points": _points((self.centre(bh), (cx, cy))),
                            }
                        )
        return elements

    def _captor(self, f: dict, at: str, hexes: set) -> list[dict]:
        """The captor a surrender (or a rejected one) in `at` goes to: a
        loop in the same Location, else an arrow."""
        elements: list[dict] = []
        kind = f["fate"]
        captor = f.get("captor")
        if captor in self.unit_loc:
            ch = hex_of(self.unit_loc[captor])
            hexes.add(ch)
            a, b = self.centre(at), self.centre(ch)
            if a == b:  # the captor is in the same Location: a loop
                elements.append(
                    {
                        "kind": "captor_here",
                        "x": f"{a[0]:.1f}",
                        "y": f"{a[1] + SIZE * 0.55:.1f}",
                        "captor": captor,
                        "fate": kind,
                    }
                )
            else:
                elements.append(
                    {
                        "kind": "surrender" if kind != "eliminated" else "rejected",
                        "points": _points((_towards(b, a, SIZE * 0.3), _towards(a, b, SIZE * 0.5))),
                        "captor": captor,
                        "guard": f.get("guard"),
                        "x": f"{(a[0] + b[0]) / 2:.1f}",
                        "y": f"{(a[1] + b[1]) / 2 - 4:.1f}",
                    }
                )
        return elements

    # ---- whole phase
    def _phase(self, ph):
        if not ph:
            return None
        lists = {e["u"]["id"]: e for e in self.fate_lists}
        own: dict[tuple, str] = {}
        outcomes = []
        for o in ph["outcomes"]:
            ids = []
            for t in o["turns"]:
                e = lists.get(t["unit"])
                match = None
                if e:
                    for g in e["groups"]:
                        for x in g["fates"]:
                            if match is None and _same_fate(x["f"], t):
                                match = x["overlay"]
                if match is None and e:
                    match = self._turn_overlay(e["u"], t, own)
                if match:
                    ids.append(match)
            outcomes.append({"o": o, "overlays": " ".join(ids)})
        return {"ph": ph, "outcomes": outcomes}

    def _turn_overlay(self, u: dict, t: dict, own: dict) -> str:
        """The overlay of a turn no fate of the unit's list is (a unit that
        routs only once No Quarter is invoked, A20.3): drawn from the turn,
        which names the end, not the path (a Low Crawl's is its one step)."""
        key = (
            t["unit"],
            t["fate"],
            t.get("at"),
            t.get("captor"),
            t.get("cause"),
            bool(t.get("low_crawl")),
            tuple(sorted(t.get("interdiction", ()))),
        )
        if key not in own:
            f = {k: v for k, v in t.items() if k not in ("unit", "interdiction")}
            f["interdiction"] = [{"at": h, "by": []} for h in sorted(t.get("interdiction", ()))]
            if t.get("low_crawl") and t.get("at"):
                f["path"] = [u["at"], t["at"]]
            own[key] = self._overlay(u, f, f"ov-phase-{len(own)}")["id"]
        return own[key]

    # ---- prisoners
    def _prisoners(self, p):
        return _prisoners_view(p) if p else None


def _towards(a, b, stop):
    """The point `stop` short of b on the segment a-b."""
    (x0, y0), (x1, y1) = a, b
    d = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    k = max(0.0, (d - stop) / d) if d else 0.0
    return x0 + (x1 - x0) * k, y0 + (y1 - y0) * k


def _values(u) -> str:
    if u.type == "leader" and u.morale is not None and u.leadership is not None:
        lead = u.leadership
        return f"{u.morale}-{-lead}" if lead <= 0 else f"{u.morale}+{lead}"
    if u.fp is not None and u.normal_range is not None and u.morale is not None:
        return f"{u.fp}-{u.normal_range}-{u.morale}"
    return ""


def side_colour(side: str) -> str:
    if side in SIDE_COLOURS:
        return SIDE_COLOURS[side]
    return _FALLBACK_COLOURS[sum(map(ord, side)) % len(_FALLBACK_COLOURS)]


def _same_fate(f: dict, t: dict) -> bool:
    """Whether the whole-phase turn t is the unit's fate f (same kind, end,
    captor, Low Crawl and Interdiction Locations)."""
    if f["fate"] != t["fate"] or f.get("at") != t.get("at") or f.get("captor") != t.get("captor"):
        return False
    if f.get("cause") != t.get("cause") or bool(f.get("low_crawl")) != bool(t.get("low_crawl")):
        return False
    return sorted(i["at"] for i in f.get("interdiction", ())) == sorted(t.get("interdiction", ()))


def _end_label(f: dict) -> str:
    kind = f["fate"]
    if kind == "rout":
        return "Low Crawl" if f.get("low_crawl") else "rout ends"
    if kind == "eliminated":
        return "eliminated: " + f.get("cause", "").replace("_", " ")
    if kind == "freed":
        return "freed as Unarmed"
    if f.get("captor"):
        return ""  # the arrow to the captor says it
    return kind.replace("_", " ")


def _summary(f: dict, u: dict) -> str:
    """One line naming a fate (the list entry); the because lines follow it."""
    kind, at = f["fate"], f.get("at", u["at"])
    if kind == "rout":
        s = f"rout to {at}" + (" by Low Crawl" if f.get("low_crawl") else "")
        if f.get("interdiction"):
            s += "; Interdiction in " + ", ".join(f"{i['at']} ({', '.join(i['by'])})" for i in f["interdiction"])
        if f.get("optional_interdiction"):
            s += "; concealed may Interdict in " + ", ".join(
                f"{i['at']} ({', '.join(i['by'])})" for i in f["optional_interdiction"]
            )
        return s
    if kind == "surrender":
        s = f"surrender to {f.get('captor')} in {at}"
        if f.get("guard"):
            s += f"; {f['guard']} becomes its Guard"
        s += "".join(f"; leaves its {a['sw'].upper()} in {a['at']}" for a in f.get("abandons", ()))
        return s
    if kind == "freed":
        return f"surrender to {f.get('captor')} in {at}, freed as Unarmed (Guard full)"
    if kind == "eliminated":
        s = f"eliminated in {at}: {f.get('cause', '').replace('_', ' ')}"
        if "invokes_no_quarter" in f:
            s += f" ({f.get('captor')} rejects the surrender: No Quarter for the {f['invokes_no_quarter']} side)"
        if f.get("llmc"):
            s += "; LLMC for " + ", ".join(f["llmc"])
        return s
    if kind == "stay":
        return f"stays in {at}"
    return kind.replace("_", " ") + (f" ({f['captor']})" if f.get("captor") else "")


def _bars(rolls: list[dict]) -> list[dict]:
    """Each dice band as a bar: its chance in percent of the widest scale."""
    out = []
    for b in rolls:
        if "label" in b:
            label = b["label"]
        elif b.get("roll") == "random_selection":
            label = f"{b['selected']} selected"
        else:
            label = ("DR " if b.get("roll") == "dr2" else "dr ") + (
                f"{b['from']}" if b["from"] == b["to"] else f"{b['from']}–{b['to']}"
            )
        says = b.get("says") or [_term(e) for e in b.get("effects", ())]
        out.append(
            {
                "label": label,
                "chance": b["chance"],
                "percent": b["percent"],
                "width": f"{1.4 * float(b['percent']):.1f}",
                "effects": ", ".join(says),
            }
        )
    return out


# --------------------------------------------------------------------------
# the prisoners result: the only lines that read its options and states
# --------------------------------------------------------------------------


def _prisoners_view(p: dict) -> dict:
    """Words and bars for the Prisoners section. Options, states, effects,
    events and broken clauses are objects with a kind, named arguments and
    `says` (the rules' wording, docs/contract.md)."""
    options = []
    for group, items in (("must", p.get("required", [])), ("may", p.get("options", []))):
        for o in items:
            options.append(
                {
                    "group": group,
                    "label": _term(o),
                    "because": o.get("because", []),
                    "roll_for": _term(o["roll_for"]) if o.get("roll_for") else None,
                    "effects": [_term(e) for e in o.get("effects", [])],
                    "bars": _bars(o.get("rolls", [])),
                }
            )
    return {
        "phase": p["phase"].replace("_", " "),
        "states": [{"unit": u, "facts": [_term(t) for t in facts]} for u, facts in p.get("states", {}).items()],
        "violated": [{"rule": v["rule"], "says": _term(v)} for v in p.get("violated", [])],
        "options": options,
        "events": [
            {"label": _term(e), "effects": [_term(x) for x in e.get("effects", [])], "because": e.get("because", [])}
            for e in p.get("events", [])
        ],
        "simultaneous": [
            {"label": _term(j), "bars": _bars([{**x, "label": _term(x)} for x in j["results"]])}
            for j in p.get("simultaneous", [])
        ],
        "notes": list(p.get("notes", {}).items()),
    }


def _term(t) -> str:
    """An option, state, effect or event in words: its `says`, else its kind
    and named arguments."""
    if isinstance(t, dict):
        if t.get("says"):
            return str(t["says"])
        args = [f"{k.replace('_', ' ')} {_term(v)}" for k, v in t.items() if k != "kind"]
        return str(t.get("kind", "")).replace("_", " ") + (" (" + ", ".join(args) + ")" if args else "")
    if isinstance(t, list):
        return ", ".join(_term(x) for x in t)
    return str(t).replace("_", " ")


# --------------------------------------------------------------------------
# rule ids -> the rules catalogue
# --------------------------------------------------------------------------


def _because_items(r) -> list[dict]:
    """Every `because` line ({rule, says, ...}) anywhere in the result, in
    document order: walked with a stack of iterators (a generator a level,
    `yield from` down each, was a third of the view of a page of a few
    thousand fates)."""
    out: list[dict] = []
    stack = [iter((r,))]
    while stack:
        for x in stack[-1]:
            if isinstance(x, dict):
                if "rule" in x and "says" in x and isinstance(x["rule"], str):
                    out.append(x)
                stack.append(iter(x.values()))
                break
            if isinstance(x, list):
                stack.append(iter(x))
                break
        else:
            stack.pop()
    return out


def _cited(items: list[dict]) -> set[str]:
    """Every rule id of the `because` lines (_because_items)."""
    return {x["rule"] for x in items}


#: sentences shown per rule in "Rules cited"
RULE_WORDS = 4


def _cited_words(items: list[dict]) -> dict[str, list[str]]:
    """Per rule id, the distinct sentences of the `because` lines that cite it (merged
    as the text merges them): the rule in words, not file names or predicates."""
    from asl_kb.model import Because
    from asl_kb.report.glance import merge_because

    lines: dict[str, list] = {}
    for x in items:
        if isinstance(x["says"], str):
            lines.setdefault(x["rule"], []).append(Because(x["rule"], x["says"], x.get("reason", "")))
    return {rule: [b.says for b in merge_because(bs)] for rule, bs in lines.items()}


def odds_words(o: dict) -> str:
    """A fate's odds (its JSON) in the words of the text listing
    (glance.odds_text): exact chances in 36^n, the pins summed with their
    Locations named."""

    def ways(c: dict) -> tuple[int, int]:
        k, n = c["chance"].split("/")
        return int(k), int(n)

    intact, of = ways(o["intact"])
    parts = [f"intact {intact}/{of} ({round(100 * intact / of)}%)"]
    reduced = ways(o["reduced"])[0]
    if reduced:
        parts.append(f"reduced {reduced}/{of}")
    for word in ("pinned", "stopped"):
        n = sum(ways(p)[0] for p in o.get(word, ()))
        if n:
            parts.append(f"{word} {n}/{of} in {', '.join(p['at'] for p in o[word])}")
    eliminated = ways(o["eliminated"])[0]
    if eliminated:
        parts.append(f"eliminated {eliminated}/{of}")
    from asl_kb.report.glance import morale_words

    return ", ".join(parts) + morale_words(o)


def _merged(lines: list[dict]) -> list[dict]:
    """because lines (JSON) said once (glance.merge_because)."""
    from asl_kb.model import Because
    from asl_kb.report.glance import merge_because

    return [
        {"rule": b.rule, "says": b.says}
        for b in merge_because([Because(x["rule"], x["says"], x.get("reason", "")) for x in lines])
    ]


def _rule_sort_key(rule: str):
    m = re.fullmatch(r"([A-Z])(\d+)((?:\.\d+)*)", rule)
    if not m:
        return ("~", 0, rule)
    return (m.group(1), int(m.group(2)), m.group(3))


def _within(rule: str, lo: str, hi: str) -> bool:
    return _rule_sort_key(lo) <= _rule_sort_key(rule) <= _rule_sort_key(hi)


@cache
def _catalogue() -> tuple[tuple, ...]:
    """The rules catalogue's table rows: (rule ids, id ranges, rule cell, file, what)."""
    path = docs_dir() / "rules-catalogue.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return ()
    rows = []
    for line in text.splitlines():
        if line.startswith("## "):
            break  # the switches table after the files' is no rule's entry
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) < 3 or cells[0] in ("rule", "---"):
            continue
        ranges = tuple(re.findall(r"([A-Z]\d+(?:\.\d+)*)\s*[–-]\s*([A-Z]\d+(?:\.\d+)*)", cells[0]))
        rows.append((tuple(_RULE_ID.findall(cells[0])), ranges, cells[0], cells[1], " | ".join(cells[2:])))
    return tuple(rows)


def _catalogue_entries(rules: list[str]) -> list[dict]:
    """Each cited rule with its catalogue rows: the rows naming it, else the
    rows whose range holds it, else those naming its nearest parent rule."""
    rows = _catalogue()
    out = []
    for rule in rules:
        hits = [x for x in rows if rule in x[0]]
        if not hits:
            hits = [x for x in rows if any(_within(rule, lo, hi) for lo, hi in x[1])]
        parent = rule
        while not hits and "." in parent:
            parent = parent[:-1].rstrip(".")
            hits = [x for x in rows if parent in x[0]]
        out.append(
            {
                "rule": rule,
                "anchor": anchor(rule),
                "rows": [{"rules": _md(x[2]), "file": _md(x[3]), "what": _md(x[4])} for x in hits],
            }
        )
    return out


def anchor(rule: str) -> str:
    """The page anchor of a rule id's catalogue entry."""
    return "rule-" + re.sub(r"[^A-Za-z0-9.]", "_", rule)


def _md(text: str) -> str:
    """Markdown inline code/emphasis/links as HTML (escaped)."""
    s = html.escape(text, quote=False)
    s = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", s)
    s = re.sub(r"`([^`]+)`", r"<code>\1</code>", s)
    s = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", s)
    s = re.sub(r"\*([^*]+)\*", r"<i>\1</i>", s)
    return s


@cache
def _link_rules(rule: str):
    """A rule id as a link to its entry in the page's rules catalogue."""
    e = html.escape(rule)
    return Markup(f'<a class="rule" href="#{html.escape(anchor(rule))}">{e}</a>')
