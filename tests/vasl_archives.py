"""Synthetic VASL board archives for tests (the real ones hold MMP's art and
are never committed): the same format as VASL's -- a zip with
BoardMetadata.xml, LOSData (gzip of a Java ObjectOutputStream's block data:
ints width, height, grid width, grid height, then elevation and terrain code
per pixel column by column, then a stairway byte per hex) and an image --
and a SharedBoardMetadata.xml naming the terrain codes.

    painter = Painter()                          # an all-Open Ground geomorphic board
    painter.hex("E5", "Woods")                   # the whole hex
    painter.disk("H4", 20, "Stone Building, 2 Level")
    painter.hexside("K3", 4, "Wall")             # along K3's south hexside
    painter.ground("M5", 1)                      # a hill: ground level 1
    folder = boards_folder(tmp_path, {"99": painter})

The terrain table here is this test helper's own: the names and LOS
properties VASL gives these kinds of terrain (the format of VASL's
SharedBoardMetadata.xml), with codes of its own.
"""

from __future__ import annotations

import gzip
import io
import struct
import zipfile
import zlib
from pathlib import Path

import numpy as np

from asl_kb.vasl.archive import GEO, HexGeometry

# name, code, obstacle, hindrance, half level, inherent, split, lower obstacle,
# lower hindrance, height, LOS category, colour (r, g, b)
TERRAIN_TYPES = [
    ("Open Ground", 0, False, False, False, False, 0.0, False, False, 0, "OPEN", (175, 188, 106)),
    ("Woods", 1, True, False, False, False, 0.0, True, False, 1, "WOODS", (80, 130, 40)),
    ("Grain", 2, False, True, True, False, 0.0, False, True, 0, "OTHER", (230, 200, 80)),
    ("Brush", 3, False, True, True, False, 0.0, False, True, 0, "OTHER", (150, 170, 80)),
    ("Orchard", 4, True, False, False, True, 0.5, False, True, 1, "OTHER", (120, 160, 60)),
    ("Stone Building", 5, True, False, False, False, 0.0, True, False, 1, "BUILDING", (150, 150, 160)),
    ("Stone Building, 2 Level", 6, True, False, True, False, 0.0, True, False, 2, "BUILDING", (130, 130, 140)),
    ("Wooden Building", 7, True, False, False, False, 0.0, True, False, 1, "BUILDING", (170, 110, 60)),
    ("Wall", 8, True, False, True, False, 0.0, True, False, 0, "HEXSIDE", (120, 90, 60)),
    ("Hedge", 9, True, False, True, False, 0.0, True, False, 0, "HEXSIDE", (40, 90, 30)),
    ("Bocage", 10, True, False, False, False, 0.0, True, False, 1, "HEXSIDE", (30, 80, 20)),
    ("Cliff", 11, False, False, False, False, 0.0, False, False, 0, "HEXSIDE", (90, 70, 50)),
    ("Dirt Road", 12, False, False, False, False, 0.0, False, False, 0, "ROAD", (200, 170, 120)),
    ("Marsh", 13, False, True, True, False, 0.0, False, True, 0, "OTHER", (120, 160, 150)),
    ("Water", 14, False, False, False, False, 0.0, False, False, 0, "WATER", (80, 120, 220)),
    ("Shellholes", 15, False, False, False, False, 0.0, False, False, 0, "OPEN", (160, 150, 100)),
    ("Stone Rubble", 16, True, False, True, True, 0.0, True, False, 0, "OTHER", (110, 110, 110)),
    ("Gully", 17, False, False, False, False, 0.0, False, False, 0, "DEPRESSION", (140, 110, 70)),
    ("Lumberyard", 18, True, False, False, False, 0.0, True, False, 1, "OTHER", (100, 80, 50)),
]
CODE = {t[0]: t[1] for t in TERRAIN_TYPES}


def shared_metadata_xml(types=TERRAIN_TYPES) -> str:
    def flag(b: bool) -> str:
        return "TRUE" if b else "FALSE"

    lines = ['<?xml version="1.0"?>', "<sharedBoardMetadata>", "  <terrainTypes>"]
    for name, code, obs, hind, half, inh, split, lobs, lhind, height, cat, (r, g, b) in types:
        lines.append(
            f'    <terrainType name="{name}" typeCode="{code}" isLOSObstacle="{flag(obs)}" '
            f'isLOSHindrance="{flag(hind)}" isHalfLevelHeight="{flag(half)}" isInherentTerrain="{flag(inh)}" '
            f'split="{split}" isLowerLOSObstacle="{flag(lobs)}" isLowerLOSHindrance="{flag(lhind)}" '
            f'height="{height}" mapColorRed="{r}" mapColorGreen="{g}" mapColorBlue="{b}" LOSCategory="{cat}" />'
        )
    lines += ["  </terrainTypes>", "</sharedBoardMetadata>", ""]
    return "\n".join(lines)


def _col_row(hex_name: str) -> tuple[int, int]:
    letters = hex_name.rstrip("0123456789")
    return ord(letters[0]) - ord("A") + 26 * (len(letters) - 1), int(hex_name[len(letters) :])


class Painter:
    """A board's pixels, painted hex by hex: terrain codes and ground levels
    in arrays (x, y) as LOSData holds them."""

    def __init__(self, geometry: HexGeometry = GEO, size: tuple[int, int] = (1800, 645), base: str = "Open Ground"):
        self.geometry = geometry
        self.size = size
        self.terrain = np.full(size, CODE[base], dtype=np.uint8)
        self.elevation = np.zeros(size, dtype=np.int8)
        self.stairways: set[tuple[int, int]] = set()

    def centre(self, hex_name: str) -> tuple[float, float]:
        col, row = _col_row(hex_name)
        g = self.geometry
        x = g.a1[0] + g.hex_width * col
        y = g.a1[1] + g.hex_height * ((row - 1) if col % 2 == 0 else (row - 0.5))
        return x, y

    def _window(self, cx: float, cy: float, reach: float):
        """The slices of the pixels within `reach` of a point, and their x, y."""
        x0, x1 = max(0, int(cx - reach) - 1), min(self.size[0], int(cx + reach) + 2)
        y0, y1 = max(0, int(cy - reach) - 1), min(self.size[1], int(cy + reach) + 2)
        xs, ys = np.meshgrid(np.arange(x0, x1), np.arange(y0, y1), indexing="ij")
        return (slice(x0, x1), slice(y0, y1)), xs, ys

    def _paint(self, where, mask, terrain: str | None, ground: int | None):
        if terrain is not None:
            self.terrain[where][mask] = CODE[terrain]
        if ground is not None:
            self.elevation[where][mask] = ground
        return self

    def hex(self, hex_name: str, terrain: str | None = None, ground: int | None = None, scale: float = 1.0):
        """The pixels inside the hex (VASL's hex: side 2/3 of the column
        spacing, half the row height up and down), shrunk by `scale`."""
        cx, cy = self.centre(hex_name)
        side = self.geometry.hex_width * 2 / 3 * scale
        half = self.geometry.hex_height / 2 * scale
        where, xs, ys = self._window(cx, cy, side + 1)
        dx, dy = np.abs(xs - cx), np.abs(ys - cy)
        return self._paint(where, (dy <= half) & (dx <= side - dy * (side / 2) / half), terrain, ground)

    def ground(self, hex_name: str, level: int, scale: float = 1.0):
        return self.hex(hex_name, None, level, scale)

    def disk(self, hex_name: str, radius: float, terrain: str | None = None, ground: int | None = None):
        cx, cy = self.centre(hex_name)
        where, xs, ys = self._window(cx, cy, radius)
        return self._paint(where, (xs - cx) ** 2 + (ys - cy) ** 2 <= radius**2, terrain, ground)

    def hexside(self, hex_name: str, direction: int, terrain: str, width: float = 3.0, trim: float = 0.15):
        """A band of terrain along the hexside of direction 1..6 (N, NE, SE,
        S, SW, NW) of the hex, `width` pixels wide, short of its vertices
        by `trim` of its length (as drawn walls and hedges are)."""
        cx, cy = self.centre(hex_name)
        side = self.geometry.hex_width * 2 / 3
        half = self.geometry.hex_height / 2
        corners = [  # VASL's Hex vertices: top-left, clockwise
            (cx - side / 2, cy - half),
            (cx + side / 2, cy - half),
            (cx + side, cy),
            (cx + side / 2, cy + half),
            (cx - side / 2, cy + half),
            (cx - side, cy),
        ]
        a, b = corners[(direction - 1) % 6], corners[direction % 6]
        ax, ay = a[0] + (b[0] - a[0]) * trim, a[1] + (b[1] - a[1]) * trim
        bx, by = b[0] + (a[0] - b[0]) * trim, b[1] + (a[1] - b[1]) * trim
        vx, vy = bx - ax, by - ay
        where, xs, ys = self._window((ax + bx) / 2, (ay + by) / 2, side)
        t = np.clip(((xs - ax) * vx + (ys - ay) * vy) / (vx * vx + vy * vy), 0.0, 1.0)
        d2 = (xs - ax - t * vx) ** 2 + (ys - ay - t * vy) ** 2
        return self._paint(where, d2 <= (width / 2) ** 2, terrain, None)

    def stairway(self, hex_name: str):
        col, row = _col_row(hex_name)
        self.stairways.add((col, row - (1 if col % 2 == 0 else 0)))
        return self


def java_block_stream(payload: bytes) -> bytes:
    """What java.io.ObjectOutputStream writes for primitives only: the stream
    header, then block data records of at most 1024 bytes."""
    out = io.BytesIO()
    out.write(b"\xac\xed\x00\x05")
    for i in range(0, len(payload), 1024):
        chunk = payload[i : i + 1024]
        if len(chunk) <= 0xFF:
            out.write(bytes([0x77, len(chunk)]))
        else:
            out.write(b"\x7a" + struct.pack(">i", len(chunk)))
        out.write(chunk)
    return out.getvalue()


def los_data(painter: Painter) -> bytes:
    g = painter.geometry
    gw, gh = painter.size
    head = struct.pack(">4i", g.columns, g.rows, gw, gh)
    pixels = np.empty((gw, gh, 2), dtype=np.uint8)
    pixels[:, :, 0] = painter.elevation.view(np.uint8)
    pixels[:, :, 1] = painter.terrain
    stairs = bytearray()
    for col in range(g.columns):
        for row in range(g.rows + col % 2):
            stairs.append(1 if (col, row) in painter.stairways else 0)
    return gzip.compress(java_block_stream(head + pixels.tobytes() + bytes(stairs)), compresslevel=1)


def png(painter: Painter) -> bytes:
    """The board's image: a palette PNG coloured by terrain, darker uphill."""
    w, h = painter.size
    palette = bytearray(256 * 3)
    for _name, code, *_rest, (r, g, b) in TERRAIN_TYPES:
        palette[3 * code : 3 * code + 3] = bytes((r, g, b))
    index = painter.terrain.T.astype(np.uint8)  # rows of pixels
    raw = np.zeros((h, w + 1), dtype=np.uint8)
    raw[:, 1:] = index

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0))
        + chunk(b"PLTE", bytes(palette))
        + chunk(b"IDAT", zlib.compress(raw.tobytes(), 1))
        + chunk(b"IEND", b"")
    )


def board_metadata(name: str, image: str, geometry: HexGeometry = GEO, version: str = "1.0") -> str:
    extra = ""
    if geometry != GEO:
        extra = (
            f' hexWidth="{geometry.hex_width}" hexHeight="{geometry.hex_height}" '
            f'A1CenterX="{geometry.a1[0]}" A1CenterY="{geometry.a1[1]}"'
        )
    return (
        '<?xml version="1.0"?>\n'
        f'<boardMetadata name="{name}" version="{version}" versionDate="" author="tests" '
        f'boardImageFileName="{image}" hasHills="TRUE" width="{geometry.columns}" height="{geometry.rows}"{extra}>\n'
        "  <buildingTypes/>\n"
        "</boardMetadata>\n"
    )


def write_archive(folder: Path, name: str, painter: Painter, version: str = "1.0") -> Path:
    """The archive bdNAME of the painted board in `folder`."""
    path = folder / f"bd{name}"
    image = f"bd{name}.png"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("BoardMetadata.xml", board_metadata(name, image, painter.geometry, version))
        z.writestr("LOSData", los_data(painter))
        z.writestr(image, png(painter))
    return path


def boards_folder(folder: Path, boards: dict[str, Painter]) -> Path:
    """A VASL boards folder: the shared metadata and an archive per board."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SharedBoardMetadata.xml").write_text(shared_metadata_xml(), encoding="utf-8")
    for name, painter in boards.items():
        write_archive(folder, name, painter)
    return folder


def sample_board() -> Painter:
    """The tests' board: a hill with a crest (a level-2 summit C5, a level-1
    ridge down column H), woods (E2, F2), a two-hex stone building of two
    levels (K8-L8), grain (N2), a wall (S5's south hexside) and a hedge
    (U3's south hexside)."""
    p = Painter()
    p.ground("C5", 2)
    for h in ("H3", "H4", "H5", "H6", "H7"):
        p.ground(h, 1)
    p.hex("E2", "Woods").hex("F2", "Woods")
    p.disk("K8", 24, "Stone Building, 2 Level").disk("L8", 24, "Stone Building, 2 Level")
    p.hexside("K8", 3, "Stone Building, 2 Level", width=14, trim=0.0)  # K8's SE side: the building across it
    p.hex("N2", "Grain")
    p.hexside("S5", 4, "Wall")
    p.hexside("U3", 4, "Hedge")
    return p
