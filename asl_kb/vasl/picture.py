"""The picture of a position on VASL boards: each board's own image under
the hex grid, placed as the layout places it (reversed, cropped), and the
hexes' outlines in the same coordinates.

What a page needs and nothing more (the HTML report uses it, `asl-kb serve`
may too): `BoardPicture(layout, size)` gives

* `shape(name)`: a hex's centre and six corners (as
  `asl_kb.board.hexgrid.hex_shape`: E, SE, SW, W, NW, NE), in the map's
  pixels scaled so a hexside is `size` long;
* `images(box, href)`: the boards under a box of those coordinates, each with its
  image as a data URI (or the address `href(archive)` gives it: `asl-kb serve`
  serves the art once, cached, at an address), the SVG transform that places it and the rectangle
  that clips it (a cropped board shows only its crop);
* `hexes_around(names, cols, rows)`: the map's hexes in the box around some
  hexes, margins included (what a page draws: its size follows the units,
  not the map's).

The board art is MMP's, read from the user's own boards folder at run time;
nothing of it is part of asl-kb.
"""

from __future__ import annotations

import base64
from typing import Callable, Iterable

from asl_kb.board.hexgrid import HexShape
from asl_kb.vasl.layout import Layout

#: a board's hexside in its image's pixels (ASLHexGrid: 56.25 px a column = 1.5 sides)
_SIDE_PX = 37.5


def mime(data: bytes) -> str:
    """The media type of a board image's bytes."""
    if data[:4] == b"\x89PNG":
        return "image/png"
    if data[:3] == b"GIF":
        return "image/gif"
    return "image/jpeg" if data[:2] == b"\xff\xd8" else "application/octet-stream"


def _data_uri(archive) -> str:
    data = archive.image()
    return f"data:{mime(data)};base64," + base64.b64encode(data).decode("ascii")


class BoardPicture:
    """The picture geometry of a layout (see the module's docstring)."""

    def __init__(self, layout: Layout, size: float):
        self.layout = layout
        self.k = size / _SIDE_PX
        self._shapes: dict[str, HexShape] = {}

    def shape(self, name: str) -> HexShape:
        """A hex's centre dot and corners: the board's own (a little squashed)
        hex, 56.25 px a column and 64.5 px a row at 1:1."""
        name = self.layout.canonical(name)
        got = self._shapes.get(name)
        if got is None:
            got = self._shapes[name] = self._shape(name)
        return got

    def _shape(self, name: str) -> HexShape:
        b = self.layout.local_of[name][0]
        mx, my = self.layout.centre(name)
        k = self.k
        cx, cy = mx * k, my * k
        w, h = b.geometry.hex_width * k, b.geometry.hex_height * k
        dx, half, dy = 2 * w / 3, w / 3, h / 2
        corners = (
            (cx + dx, cy),
            (cx + half, cy + dy),
            (cx - half, cy + dy),
            (cx - dx, cy),
            (cx - half, cy - dy),
            (cx + half, cy - dy),
        )
        return HexShape((cx, cy), corners)

    def hexes_around(self, names: Iterable[str], cols: int, rows: int) -> list[str]:
        """The map's hexes whose centre lies in the box around `names`'
        hexes widened by `cols` columns and `rows` rows, in listing order
        (none named: the first board's hexes)."""
        lay = self.layout
        named = [lay.canonical(n) for n in names if lay.contains(n)]
        if not named:
            first = lay.boards[0]
            return sorted((lay.canonical(first.name(c, r)) for c, r in first.hexes()), key=lay.order)
        cubes = [lay.cube(n) for n in named]
        xs = [x for x, _, _ in cubes]
        # a column's "row" on the regular lattice: z + x/2 (odd columns half a hex down)
        ys = [z + x / 2 for x, _, z in cubes]
        x0, x1 = min(xs) - cols, max(xs) + cols
        y0, y1 = min(ys) - rows, max(ys) + rows
        out = []
        for x in range(x0, x1 + 1):
            lo = int(-(-(y0 - x / 2) // 1))  # ceil
            for z in range(lo, int((y1 - x / 2) // 1) + 1):
                n = lay.name_at(x, z)
                if n is not None:
                    out.append(n)
        return sorted(out, key=lay.order)

    def images(self, box: tuple[float, float, float, float], href: Callable | None = None) -> list[dict]:
        """The boards under `box` (x0, y0, x1, y1 in the picture's
        coordinates): their image (`href`, a data URI, or `href(archive)`
        where given), its size in its own
        pixels (`width`, `height`), the `transform` placing it and the `clip`
        rectangle (x, y, width, height): the board's part of the box."""
        k = self.k
        out = []
        for b in self.layout.boards:
            ox, oy = b.origin
            sw, sh = b.size
            if ox * k > box[2] or (ox + sw) * k < box[0] or oy * k > box[3] or (oy + sh) * k < box[1]:
                continue
            # (the art clipped to the board and to the part of the map drawn)
            x0, y0 = max(ox * k, box[0]), max(oy * k, box[1])
            x1, y1 = min((ox + sw) * k, box[2]), min((oy + sh) * k, box[3])
            cx, cy = b.crop[0], b.crop[1]
            if b.reversed:  # map = (origin + size + crop) - image point
                t = f"matrix({-k:.6f} 0 0 {-k:.6f} {(ox + sw + cx) * k:.2f} {(oy + sh + cy) * k:.2f})"
            else:  # map = origin - crop + image point
                t = f"matrix({k:.6f} 0 0 {k:.6f} {(ox - cx) * k:.2f} {(oy - cy) * k:.2f})"
            out.append(
                {
                    "board": b.prefix,
                    "href": href(b.archive) if href is not None else _data_uri(b.archive),
                    "width": b.image_size[0],
                    "height": b.image_size[1],
                    "transform": t,
                    "clip": tuple(f"{v:.2f}" for v in (x0, y0, x1 - x0, y1 - y0)),
                    "reversed": b.reversed,
                }
            )
        return out
