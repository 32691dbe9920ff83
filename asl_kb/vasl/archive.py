"""A VASL board archive read from the user's VASL boards folder.

A board archive (`bdNN`, a zip; VASL's BoardArchive.java) holds

* `BoardMetadata.xml`: the board's name, version, image file, size in hexes
  and, on boards that are not standard geomorphic ones, the hex geometry
  (hexWidth, hexHeight, A1CenterX/Y, altHexGrain);
* `LOSData`: the elevation and terrain code of every pixel -- gzip of a Java
  ObjectOutputStream whose block data are big-endian ints width, height (in
  hexes), grid width, grid height, then two signed bytes (elevation, terrain
  code) per pixel, column-major (x outer, y inner), then one stairway byte
  per hex (BoardArchive.getLOSData);
* the board image.

The terrain codes are named in the module's `SharedBoardMetadata.xml`
(`terrainType` elements with each type's LOS properties; VASL's
SharedBoardMetadata.java). It is read from the boards folder or a VASL module
(`*.vmod`) beside or above it.

What an archive gives is read once per archive file (its path, size and
modification time) and kept: a position's boards, `asl-kb los` and the report
all ask the same archives.
"""

from __future__ import annotations

import gzip
import os
import re
import struct
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from asl_kb import process
from asl_kb.errors import AslKbError
from asl_kb.record import FrozenRecord, record

__all__ = [
    "BoardError",
    "ENV_BOARDS",
    "boards_folder",
    "archive_path",
    "canonical_board",
    "HexGeometry",
    "GEO",
    "TerrainType",
    "SharedMetadata",
    "shared_metadata",
    "BoardArchive",
    "open_board",
    "read_los_data",
    "los_data_at",
    "LosData",
]

#: the environment variable naming the VASL boards folder
ENV_BOARDS = "ASL_KB_VASL_BOARDS"
#: the config file's key for it (`$XDG_CONFIG_HOME/asl-kb/config.toml`)
CONFIG_KEY = "vasl_boards"


class BoardError(AslKbError):
    """A board archive that cannot be found or read (exit 2)."""


# ---------------------------------------------------------------- the folder


def config_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "asl-kb" / "config.toml"


def use_folder(folder: str | os.PathLike | None) -> None:
    """The command line's `--vasl-boards DIR`: the folder from now on in this
    process (the process's state, process.STATE.boards_option: it is named
    as the option in messages) and its children (through the environment)."""
    option = process.STATE.boards_option = None if folder is None else os.fspath(folder)
    if option is not None:
        os.environ[ENV_BOARDS] = option


def boards_folder(explicit: str | os.PathLike | None = None) -> Path:
    """The VASL boards folder: `--vasl-boards DIR`, else $ASL_KB_VASL_BOARDS,
    else `vasl_boards = "DIR"` in the config file. BoardError when none is
    set or it is not a folder."""
    where = ""
    folder: Path | None = None
    explicit = explicit or process.STATE.boards_option
    if explicit:
        folder, where = Path(explicit), "--vasl-boards"
    elif os.environ.get(ENV_BOARDS):
        folder, where = Path(os.environ[ENV_BOARDS]), f"${ENV_BOARDS}"
    else:
        cfg = config_file()
        if cfg.is_file():
            import tomllib

            try:
                value = tomllib.loads(cfg.read_text(encoding="utf-8")).get(CONFIG_KEY)
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
                raise BoardError(f"{cfg}: cannot read the config file: {e}") from None
            if isinstance(value, str) and value:
                folder, where = Path(os.path.expanduser(value)), f"{cfg} ({CONFIG_KEY})"
        if folder is None:
            raise BoardError(
                "the position is on VASL boards but no VASL boards folder is set: give --vasl-boards DIR, "
                f'set ${ENV_BOARDS}, or write {CONFIG_KEY} = "DIR" in {cfg}'
            )
    if not folder.is_dir():
        raise BoardError(f"VASL boards folder {folder} (from {where}) is not a folder")
    return folder


_BOARD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-]{0,39}")


def canonical_board(name: str) -> str:
    """A board's name as a hex prefix: VASL's name, leading zeros of a
    numbered board left out (`02` -> `2`), as players write `2O5`."""
    return (name.lstrip("0") or "0") if name.isdigit() else name


def archive_path(folder: Path, board: str) -> Path:
    """The archive of `board` in the folder: `bdNAME`, or for a board numbered
    with one digit `bd0N` (VASL's ASLBoardPicker pads it). BoardError naming
    the board and the folder when there is none."""
    if not _BOARD_NAME.fullmatch(board):
        raise BoardError(f"{board!r} is not a VASL board name (e.g. 2, 02, 10a)")
    names = [f"bd{board}"]
    if board.isdigit():
        names += [f"bd{board.lstrip('0').zfill(2)}", f"bd{board.lstrip('0') or '0'}"]
    tried = list(dict.fromkeys(names))
    for n in tried:
        p = folder / n
        if p.is_file():
            return p
    raise BoardError(f"board {board}: no archive {' or '.join(tried)} in the VASL boards folder {folder}")


# ---------------------------------------------------------------- geometry


@record(frozen=True)
class HexGeometry(FrozenRecord):
    """A board's hex grid in its own image's pixels (BoardArchive: a standard
    geomorphic board when the metadata gives none of it).

    hex_width   column spacing (1800 / 32 = 56.25 on a geomorphic board)
    hex_height  row height (645 / 10 = 64.5)
    a1          the centre dot of A1 (0, 32.25)
    columns     hexes across (33: A..GG); rows: hexes down a full column (10)
    alternate   odd columns sit half a hex higher (VASL's altHexGrain)
    """

    hex_width: float = 1800 / 32
    hex_height: float = 645 / 10
    a1: tuple[float, float] = (0.0, 645 / 20)
    columns: int = 33
    rows: int = 10
    alternate: bool = False


#: a standard geomorphic board
GEO = HexGeometry()


# ---------------------------------------------------------------- shared metadata


@record(frozen=True)
class TerrainType(FrozenRecord):
    """One `terrainType` of SharedBoardMetadata.xml (VASL's Terrain.java)."""

    code: int
    name: str
    obstacle: bool
    hindrance: bool
    half_level: bool
    inherent: bool
    split: float
    lower_obstacle: bool
    lower_hindrance: bool
    height: int
    category: str  # LOSCategory: OPEN, HEXSIDE, BUILDING, WOODS, ...

    # Terrain.java's derived properties
    @property
    def is_building(self) -> bool:
        return self.category in ("BUILDING", "FACTORY", "MARKETPLACE")

    @property
    def is_building_terrain(self) -> bool:
        return self.category in ("BUILDING", "MARKETPLACE")

    @property
    def is_factory(self) -> bool:
        return self.category == "FACTORY"

    @property
    def is_rowhouse_wall(self) -> bool:
        return self.name.startswith("Rowhouse Wall") or self.name.startswith("Interior Factory Wall")

    @property
    def is_hexside(self) -> bool:
        return self.category == "HEXSIDE" or self.is_rowhouse_wall

    @property
    def is_open(self) -> bool:
        return self.category in ("OPEN", "ROAD", "WATER")

    @property
    def is_water(self) -> bool:
        return self.category == "WATER"

    @property
    def is_depression(self) -> bool:
        return self.category == "DEPRESSION"

    @property
    def is_cliff(self) -> bool:
        return "Cliff" in self.name

    @property
    def is_rooftop(self) -> bool:
        return "Rooftop" in self.name

    @property
    def is_roofless(self) -> bool:
        return "Roofless" in self.name or "Gutted" in self.name

    @property
    def is_bridge(self) -> bool:
        return self.category == "BRIDGE"


_TRUE = ("TRUE", "true", "True")


class SharedMetadata:
    """The terrain types of SharedBoardMetadata.xml, by code and by name."""

    def __init__(self, types: list[TerrainType], source: str):
        self.source = source
        self.by_code: dict[int, TerrainType] = {}
        self.by_name: dict[str, TerrainType] = {}
        for t in types:
            self.by_code[t.code] = t
            self.by_name[t.name] = t

    @classmethod
    def parse(cls, text: bytes | str, source: str) -> SharedMetadata:
        try:
            root = ElementTree.fromstring(text)
        except ElementTree.ParseError as e:
            raise BoardError(f"{source}: not the XML of VASL's shared board metadata: {e}") from None
        types = []
        for el in root.iter("terrainType"):
            a = el.attrib
            try:
                types.append(
                    TerrainType(
                        code=int(a["typeCode"]),
                        name=a["name"],
                        obstacle=a.get("isLOSObstacle") in _TRUE,
                        hindrance=a.get("isLOSHindrance") in _TRUE,
                        half_level=a.get("isHalfLevelHeight") in _TRUE,
                        inherent=a.get("isInherentTerrain") in _TRUE,
                        split=float(a.get("split", "0")),
                        lower_obstacle=a.get("isLowerLOSObstacle") in _TRUE,
                        lower_hindrance=a.get("isLowerLOSHindrance") in _TRUE,
                        height=int(a.get("height", "0")),
                        category=a.get("LOSCategory", "OPEN"),
                    )
                )
            except (KeyError, ValueError) as e:
                raise BoardError(f"{source}: a terrainType without a good {e}") from None
        if not types:
            raise BoardError(f"{source}: no terrainType elements (not VASL's SharedBoardMetadata.xml?)")
        return cls(types, source)

    def terrain(self, code: int) -> TerrainType:
        t = self.by_code.get(int(code))
        if t is None:
            raise BoardError(f"{self.source}: no terrain type with code {code}")
        return t


SHARED_NAME = "SharedBoardMetadata.xml"
_IN_MODULE = "boardData/SharedBoardMetadata.xml"


def shared_metadata(folder: Path) -> SharedMetadata:
    """The shared board metadata for the boards of `folder`: the folder's own
    SharedBoardMetadata.xml (or boardData/SharedBoardMetadata.xml), else a
    VASL module (*.vmod) in the folder or the one above it (a VASL install
    keeps its boards folder beside the module)."""
    for p in (folder / SHARED_NAME, folder / "boardData" / SHARED_NAME):
        if p.is_file():
            return _shared_file(str(p), *_stamp(p))
    for d in (folder, folder.parent):
        try:
            modules = sorted(d.glob("*.vmod"))
        except OSError:
            modules = []
        for m in modules:
            got = _shared_module(str(m), *_stamp(m))
            if got is not None:
                return got
    raise BoardError(
        f"no {SHARED_NAME} for the boards in {folder}: put VASL's {SHARED_NAME} (from the VASL module's "
        f"boardData folder) in it, or keep the VASL module (*.vmod) beside or above it"
    )


def _stamp(p: Path) -> tuple[int, int]:
    st = p.stat()
    return st.st_size, st.st_mtime_ns


@lru_cache(maxsize=8)
def _shared_file(path: str, _size: int, _mtime: int) -> SharedMetadata:
    try:
        return SharedMetadata.parse(Path(path).read_bytes(), path)
    except OSError as e:
        raise BoardError(f"{path}: cannot read: {e.strerror}") from None


@lru_cache(maxsize=8)
def _shared_module(path: str, _size: int, _mtime: int) -> SharedMetadata | None:
    try:
        with zipfile.ZipFile(path) as z:
            try:
                data = z.read(_IN_MODULE)
            except KeyError:
                return None
    except (OSError, zipfile.BadZipFile):
        return None
    return SharedMetadata.parse(data, f"{path}!{_IN_MODULE}")


# ---------------------------------------------------------------- the archive


@record(frozen=True)
class BoardArchive(FrozenRecord):
    """What a board archive says of itself (BoardMetadata.xml, the image's
    size); its pixels are read apart, on demand (read_los_data)."""

    path: str
    stamp: tuple[int, int]
    name: str  # VASL's name of the board (`02`)
    version: str
    image_name: str
    size: tuple[int, int]  # the image's width and height in pixels
    geometry: HexGeometry

    @property
    def prefix(self) -> str:
        """The board's hex prefix (`2` for `02`)."""
        return canonical_board(self.name)

    def image(self) -> bytes:
        """The board image's bytes (GIF or PNG, as the archive has it)."""
        return _image_bytes(self.path, self.stamp, self.image_name)

    def los_data(self) -> LosData:
        return read_los_data(self)


def open_board(folder: Path, board: str) -> BoardArchive:
    """The archive of `board` in the boards folder (BoardError naming the
    board and the folder when it is missing or unreadable)."""
    p = archive_path(folder, board)
    return _open(str(p), *_stamp(p))


@lru_cache(maxsize=64)
def _open(path: str, size: int, mtime: int) -> BoardArchive:
    try:
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            meta = z.read("BoardMetadata.xml") if "BoardMetadata.xml" in names else None
            if meta is None:
                raise BoardError(
                    f"{path}: no BoardMetadata.xml: a board archive of VASL 5 or older, which has no LOS data"
                )
            if "LOSData" not in names:
                raise BoardError(f"{path}: no LOSData in the board archive")
            root = _xml(meta, f"{path}!BoardMetadata.xml")
            a = root.attrib
            image = a.get("boardImageFileName", "")
            if image not in names:
                raise BoardError(f"{path}: the board image {image!r} BoardMetadata.xml names is not in the archive")
            head = z.open(image).read(64)
    except (OSError, zipfile.BadZipFile) as e:
        raise BoardError(f"{path}: not a readable board archive: {e}") from None
    archive_name = os.path.basename(path)
    name = a.get("name") or archive_name[2:]
    geometry = _geometry(a, path)
    size_px = _image_size(head) or (
        round(geometry.hex_width * (geometry.columns - 1)),
        round(geometry.hex_height * geometry.rows),
    )
    return BoardArchive(
        path=path,
        stamp=(size, mtime),
        name=name,
        version=a.get("version", ""),
        image_name=image,
        size=size_px,
        geometry=geometry,
    )


def _xml(data: bytes, source: str):
    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError as e:
        raise BoardError(f"{source}: not XML: {e}") from None


_MISSING = -999.0  # BoardMetadata.MISSING: the attribute is not given


def _geometry(a: dict, path: str) -> HexGeometry:
    def num(key: str) -> float:
        try:
            return float(a.get(key, _MISSING))
        except ValueError:
            raise BoardError(f"{path}: BoardMetadata.xml: {key}={a.get(key)!r} is not a number") from None

    def whole(key: str, default: int) -> int:
        try:
            return int(a.get(key, default))
        except ValueError:
            raise BoardError(f"{path}: BoardMetadata.xml: {key}={a.get(key)!r} is not a whole number") from None

    hw, hh, ax, ay = num("hexWidth"), num("hexHeight"), num("A1CenterX"), num("A1CenterY")
    return HexGeometry(
        hex_width=GEO.hex_width if hw == _MISSING else hw,
        hex_height=GEO.hex_height if hh == _MISSING else hh,
        a1=(GEO.a1[0] if ax == _MISSING else ax, GEO.a1[1] if ay == _MISSING else ay),
        columns=whole("width", GEO.columns),
        rows=whole("height", GEO.rows),
        alternate=a.get("altHexGrain", "FALSE") in _TRUE,
    )


def _image_size(head: bytes) -> tuple[int, int] | None:
    """Width and height from a GIF or PNG header."""
    if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
        w, h = struct.unpack("<HH", head[6:10])
        return w, h
    if head[:8] == b"\x89PNG\r\n\x1a\n" and len(head) >= 24:
        w, h = struct.unpack(">II", head[16:24])
        return w, h
    return None


@lru_cache(maxsize=8)
def _image_bytes(path: str, _stamp: tuple[int, int], image: str) -> bytes:
    try:
        with zipfile.ZipFile(path) as z:
            return z.read(image)
    except (OSError, zipfile.BadZipFile, KeyError) as e:
        raise BoardError(f"{path}: cannot read the board image {image}: {e}") from None


# ---------------------------------------------------------------- LOSData


class LosData:
    """A board's pixels as its LOSData gives them.

    elevation   int8 array (grid width, grid height): ground level per pixel
    terrain     uint8 array (grid width, grid height): terrain code per pixel
    stairways   per hex (column, row index in the column): a stairway
    width, height  the board in hexes
    """

    __slots__ = ("width", "height", "elevation", "terrain", "stairways")

    def __init__(self, width: int, height: int, elevation: Any, terrain: Any, stairways: frozenset):
        self.width, self.height = width, height
        self.elevation, self.terrain, self.stairways = elevation, terrain, stairways


_STREAM_MAGIC = b"\xac\xed\x00\x05"
_TC_BLOCKDATA, _TC_BLOCKDATALONG = 0x77, 0x7A


def read_los_data(board: BoardArchive) -> LosData:
    """The board's LOSData (kept per archive file)."""
    return los_data_at(board.path, board.stamp)


def java_block_data(raw: bytes, source: str) -> bytes:
    """The block data of a Java ObjectOutputStream that wrote only primitives
    (writeInt/writeByte): the stream header and the block headers left out."""
    if raw[:4] != _STREAM_MAGIC:
        raise BoardError(f"{source}: not a Java object stream")
    parts = []
    i, n = 4, len(raw)
    view = memoryview(raw)
    while i < n:
        tag = raw[i]
        if tag == _TC_BLOCKDATA and i + 2 <= n:
            size = raw[i + 1]
            i += 2
        elif tag == _TC_BLOCKDATALONG and i + 5 <= n:
            (size,) = struct.unpack_from(">i", raw, i + 1)
            i += 5
        else:
            raise BoardError(f"{source}: unexpected record 0x{tag:02x} in the LOS data (offset {i})")
        if size < 0 or i + size > n:
            raise BoardError(f"{source}: the LOS data ends inside a block")
        parts.append(view[i : i + size])
        i += size
    return b"".join(parts)


@lru_cache(maxsize=16)
def los_data_at(path: str, _stamp: tuple[int, int]) -> LosData:
    """The LOSData of the archive at `path` as it is at `_stamp` (its size
    and time: a board replaced is read again), kept per archive file."""
    import numpy as np

    source = f"{path}!LOSData"
    try:
        with zipfile.ZipFile(path) as z:
            packed = z.read("LOSData")
        raw = gzip.decompress(packed)
    except (OSError, zipfile.BadZipFile, KeyError, EOFError) as e:
        raise BoardError(f"{source}: cannot read: {e}") from None
    data = java_block_data(raw, source)
    if len(data) < 16:
        raise BoardError(f"{source}: too short")
    width, height, gw, gh = struct.unpack_from(">4i", data, 0)
    if not (0 < width <= 200 and 0 < height <= 200 and 0 < gw <= 20000 and 0 < gh <= 20000):
        raise BoardError(f"{source}: implausible sizes {width}x{height} hexes, {gw}x{gh} pixels")
    pixels = gw * gh * 2
    hexes = sum(height + (c % 2) for c in range(width))
    if len(data) < 16 + pixels + hexes:
        raise BoardError(f"{source}: {len(data)} bytes, fewer than its sizes need ({16 + pixels + hexes})")
    grid = np.frombuffer(data, dtype=np.uint8, count=pixels, offset=16).reshape(gw, gh, 2)
    elevation = grid[:, :, 0].view(np.int8).copy()
    terrain = grid[:, :, 1].copy()
    stairs = data[16 + pixels : 16 + pixels + hexes]
    stairways = set()
    k = 0
    for col in range(width):
        for row in range(height + (col % 2)):
            if stairs[k] == 1:
                stairways.add((col, row))
            k += 1
    return LosData(width=width, height=height, elevation=elevation, terrain=terrain, stairways=frozenset(stairways))
