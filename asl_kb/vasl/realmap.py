"""A position's map made of VASL boards: its hexes' terrain for the rules,
their building levels and hexsides, read off the boards' pixels (vmap.py),
and LOS as VASL traces it (los.py).

A hex's terrain for the rules is the VASL terrain at its centre dot, named
onto the terrain table (docs/terrain-table.md) by `TERRAIN_OF` below: the
VASL terrain types are the module's SharedBoardMetadata.xml's, read from the
user's VASL install, and each is named here by its name and LOS category. A
type the table has no row for is not modelled: a position whose rules need
such a hex is refused, naming the hex and the terrain.
"""

from __future__ import annotations

import os
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Iterable

from asl_kb.vasl.archive import GEO, BoardError, los_data_at, open_board, shared_metadata
from asl_kb.vasl.layout import BoardSpec, Layout

__all__ = ["RealMap", "rules_terrain", "NotModelled"]


class NotModelled(BoardError):
    """A hex whose terrain the terrain table has no row for."""


#: VASL terrain type -> (terrain table name, features); by name first
_BY_NAME = {
    "Open Ground": ("open", ()),
    "Plowed Field": ("open", ()),
    "Snow": ("open", ()),
    "Deep Snow": ("open", ()),
    "Ice": ("open", ()),
    "Mud": ("open", ()),
    "Mudflats": ("open", ()),
    "Scrub": ("open", ()),
    "Hammada": ("open", ()),
    "Broken Ground": ("open", ()),
    "Sand": ("open", ()),
    "Track": ("road", ()),
    "Path": ("road", ()),
    "Runway": ("road", ()),
    "Dirt Road": ("road", ()),
    "Paved Road": ("road", ()),
    "Elevated Road": ("road", ()),
    "Sunken Road": ("road", ()),
    "Railroad, Ground Level": ("open", ()),
    "Shellholes": ("open", ("shellhole",)),
    "Foxholes": ("open", ("foxhole",)),
    "Trench": ("open", ("trench",)),
    "Pillbox": ("open", ("pillbox",)),
    "Woods": ("woods", ()),
    "Pine Woods": ("woods", ()),
    "Forest": ("forest", ()),
    "Grain": ("grain", ()),
    "Brush": ("brush", ()),
    "Orchard": ("orchard", ()),
    "Orchard, Out of Season": ("orchard", ()),
    "Marsh": ("marsh", ()),
    "Water": ("water", ()),
    "Shallow Water": ("water", ()),
    "River": ("water", ()),
    "Shallow River": ("water", ()),
    "Canal": ("water", ()),
    "Ocean": ("water", ()),
    "Shallow Ocean": ("water", ()),
    "Dry Stream": ("stream", ()),
    "Shallow Stream": ("stream", ()),
    "Deep Stream": ("stream", ()),
    "Flooded Stream": ("stream", ()),
    "Gully": ("open", ()),  # a depression (B19): the hex's ground is a level below, the archive's elevation -1
    "Wadi": ("open", ()),
    "Stone Rubble": ("rubble", ()),
    "Wooden Rubble": ("rubble", ()),
    "Stone Building": ("stone_building", ()),
    "Wooden Building": ("wooden_building", ()),
    "Single Hex Stone Bridge": ("road", ()),
    "Single Hex Wooden Bridge": ("road", ()),
    "Stone Bridge": ("road", ()),
    "Wooden Bridge": ("road", ()),
}

#: VASL hexside terrain -> the terrain table's hexside
HEXSIDE_OF = {"Wall": "wall", "Hedge": "hedge", "Bocage": "bocage", "Cactus Hedge": "hedge"}


def rules_terrain(t) -> tuple[str, tuple[str, ...]] | None:
    """The terrain table's name (and features) of a VASL terrain type, None
    when the table has no row for it."""
    got = _BY_NAME.get(t.name)
    if got is not None:
        return got
    if t.name.startswith("Stone Building"):
        return "stone_building", ()
    if t.name.startswith("Wooden Building"):
        return "wooden_building", ()
    return None


def _board_hexes(archive, meta):
    """A board's hexes read on the board alone (vmap.BoardHexes)."""
    return _hexes_at(archive.path, archive.stamp, meta)


@cache
def _hexes_at(path: str, stamp: tuple[int, int], meta):
    """The hexes of the board archive at `path` (as it is at `stamp`) read
    with the shared metadata `meta`, kept per archive file and metadata."""
    from asl_kb.vasl.vmap import BoardHexes

    d = los_data_at(path, stamp)
    return BoardHexes(d.terrain, d.elevation, d.width, d.height, meta, d.stairways)


class RealMap:
    """The boards of a position (`map.boards`) read from a VASL boards folder."""

    def __init__(self, specs: Iterable[BoardSpec], folder: Path):
        self.folder = folder
        self.meta = shared_metadata(folder)
        specs = list(specs)
        self.archives = [open_board(folder, s.board) for s in specs]
        self.layout = Layout(list(zip(specs, self.archives)))
        self._vmap: Any = None
        self._tracer: Any = None
        self._terrain: dict = {}
        self._made: dict = {}
        self._buildings: dict[str, str] = {}
        self._cells: dict[str, tuple[int, int]] = {}
        self._locations: dict = {}

    # ------------------------------------------------------------ VASL's map

    @property
    def vmap(self):
        """The boards' pixels and VASL's hexes over them (read on first use)."""
        if self._vmap is None:
            from asl_kb.vasl.vmap import VaslMap

            from asl_kb.vasl.insert import Piece

            pieces = []
            for b in self.layout.boards:
                g = b.geometry
                if (g.columns, g.rows, b.image_size, g.a1, g.alternate) != (33, 10, (1800, 645), GEO.a1, False):
                    raise BoardError(
                        f"board {b.prefix} is not a standard geomorphic board ({g.columns} x {g.rows} hexes of "
                        f"{g.hex_width:g} x {g.hex_height:g} pixels, A1's centre dot at {g.a1[0]:g}, {g.a1[1]:g}; "
                        "VASL's geomorphic boards: 33 x 10 of 56.25 x 64.5, at 0, 32.25): asl-kb reads neither its "
                        "terrain nor its LOS"
                    )
                x0, y0 = b.origin[0] - self.layout.edge[0], b.origin[1] - self.layout.edge[1]
                crop = None if b.spec.crop is None else (*b.crop[:2], *b.size)
                hexes = _board_hexes(b.archive, self.meta)
                pieces.append(Piece(hexes, b.prefix, (x0, y0), b.spec.reversed, crop))
            vmap = VaslMap(pieces, self.layout.size, self.meta)
            self._vmap = vmap
            self._check_names()
        return self._vmap

    def _check_names(self) -> None:
        """Each hex the layout names on a board is that hex on VASL's map (a
        crop VASL puts elsewhere is refused: its LOS would be another hex's)."""
        vmap = self._vmap
        for name in self.layout.hexes():
            b, col, row = self.layout.local_of[name]
            copies = vmap._sources.get(self.cell(name))
            if not copies:
                continue
            hexes, c, r, _rev = copies[-1]
            if hexes is _board_hexes(b.archive, self.meta) and (c, r + (1 - c % 2)) != (col, row):
                self._vmap = None
                raise BoardError(
                    f"board {b.prefix}: VASL's map of the boards has another hex where the board has {name}: "
                    "VASL's LOS is off for this layout"
                )

    @property
    def tracer(self):
        if self._tracer is None:
            from asl_kb.vasl.los import Tracer

            self._tracer = Tracer(self.vmap)
        return self._tracer

    def cell(self, name: str) -> tuple[int, int]:
        """The hex's column and row index on VASL's map of the boards."""
        got = self._cells.get(name)
        if got is None:
            got = self._cells[name] = self._cell(name)
        return got

    def _cell(self, name: str) -> tuple[int, int]:
        x, y = self.layout.centre(name)
        x -= self.layout.edge[0]
        y -= self.layout.edge[1]
        hw, hh = self.layout.hex_width, self.layout.hex_height
        col = round(x / hw)
        return col, round((y - hh / 2 + (hh / 2) * self.vmap.grid.half(col)) / hh)

    def hex_data(self, name: str):
        return self.vmap.hex(*self.cell(name))

    # ------------------------------------------------------------ the rules' terrain

    def terrain_of(self, name: str, make=None):
        """The hex's terrain for the rules, made by `make(terrain, features,
        elevation, building)` (the position's HexTerrain; without it that
        tuple): the table's
        terrain of its centre-dot terrain, its ground level, its building
        (the building hexes joined by building terrain across their
        hexside). NotModelled when the table has no row for it."""
        got = self._terrain.get(name)
        if got is None:
            d = self.hex_data(name)
            mapped = rules_terrain(d.center)
            if mapped is None:
                raise NotModelled(
                    f"hex {name}: its terrain, VASL's {d.center.name!r}, is not modelled in the terrain table "
                    "(docs/terrain-table.md): paint the hex's terrain in the position's map.terrain"
                )
            kind, features = mapped
            building = self.building_of(name) if kind in ("stone_building", "wooden_building") else None
            got = self._terrain[name] = (kind, features, d.base, building)
        if make is None:
            return got
        made = self._made.get((name, make))
        if made is None:
            made = self._made[(name, make)] = make(*got)
        return made

    def levels_of(self, name: str) -> int:
        """Building levels above the ground level (the building's Locations
        above it, its rooftop left out)."""
        d = self.hex_data(name)
        return sum(1 for lv, t in d.levels if lv > 0 and not t.is_rooftop)

    def hexside(self, a: str, b: str) -> str | None:
        """The table's hexside terrain between two ADJACENT hexes (wall,
        hedge, bocage, cliff), None for none: the terrain at the middle of
        the hexside, seen from either hex (on a seam, each board's hexes are
        read on their own board: the hexside may be drawn on the other)."""
        side = self._side(a, b)
        if side is None:
            return None
        t = self.hex_data(a).hexside[side] or self.hex_data(b).hexside[(side + 3) % 6]
        if t is None:
            return None
        if t.is_cliff:
            return "cliff"
        if t.is_rowhouse_wall:
            return "rowhouse_wall"
        return HEXSIDE_OF.get(t.name)

    def _side(self, a: str, b: str) -> int | None:
        """VASL's side (0..5: N, NE, SE, S, SW, NW) of hex a that b is across."""
        ax, ay = self.cell(a)
        bcell = self.cell(b)
        g = self.vmap.grid
        for s in range(6):
            if g.adjacent(ax, ay, s) == bcell:
                return s
        return None

    def building_of(self, name: str) -> str:
        """A building's id: its hexes joined where the hexside between them
        shows building terrain (a multi-hex building's artwork), named after
        its first hex in listing order."""
        got = self._buildings.get(name)
        if got is not None:
            return got
        layout = self.layout
        group, todo, seen = [], [name], {name}
        while todo:
            h = todo.pop()
            group.append(h)
            d = self.hex_data(h)
            for n in layout.neighbors(h):
                if n in seen:
                    continue
                side = self._side(h, n)
                if side is None or not d.side_terrain[side].is_building:
                    continue
                if not self.hex_data(n).center.is_building:
                    continue
                seen.add(n)
                todo.append(n)
        bid = "b_" + min(group, key=layout.order)
        for h in group:
            self._buildings[h] = bid
        return bid

    # ------------------------------------------------------------ LOS

    def location(self, name: str, level: int):
        """VASL's Location of the hex at `level` (0 its ground level, N the
        N-th building level), None when the hex has none."""
        key = (name, level)
        got = self._locations.get(key, self)
        if got is self:
            got = self._locations[key] = self.vmap.location(*self.cell(name), level)
        return got

    def los(self, a: str, la: int, b: str, lb: int):
        """VASL's LOS from Location (a, la) to (b, lb): los.LosResult."""
        src, tgt = self.location(a, la), self.location(b, lb)
        if src is None or tgt is None:
            raise BoardError(f"no level {la if src is None else lb} in {a if src is None else b}")
        from asl_kb.vasl.batch import los_many

        return los_many(self.tracer, [(src, tgt)])[0]

    def hex_at(self, at: tuple[int, int] | None) -> str | None:
        """The hex a pixel of VASL's map of the boards is in (its name on the
        layout), None for none."""
        if at is None:
            return None
        cell = self.vmap.grid.grid_to_hex(*at)
        if cell is None:
            return None
        x, y = self.vmap.grid.center_dot(*cell)
        layout = self.layout
        q, z = layout._lattice(x + layout.edge[0], y + layout.edge[1], layout.boards[0])
        return layout.name_at(q, z)


def real_map(specs: tuple[BoardSpec, ...], folder: Path) -> RealMap:
    """The RealMap of these boards in this folder, kept while the archives
    do not change (a process asks the same boards again: serve, the suite)."""
    stamps: list[tuple] = []
    for s in specs:
        try:
            st = os.stat(folder / f"bd{s.board}")
            stamps.append((s.board, st.st_size, st.st_mtime_ns))
        except OSError:
            stamps.append((s.board, None, None))
    return _real_map_at(specs, str(folder), tuple(stamps))


@lru_cache(maxsize=9)
def _real_map_at(specs: tuple[BoardSpec, ...], folder: str, _stamps: tuple) -> RealMap:
    """The RealMap of these boards in `folder` while their archives have
    these stamps (size and time each)."""
    return RealMap(specs, Path(folder))
