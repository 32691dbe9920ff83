"""What a VASL piece is: a unit (its nationality, kind and printed values),
a marker that gives the units it covers a status, or neither.

Read from VASL's module (its buildFile's pieces, the traits VASSAL and VASL
define) and its saves:

* A unit carries VASL's Concealable trait (`conceal;KEY;IMAGE;NATION;...`):
  infantry, SMC, SW, Guns and vehicles all do, markers do not. Its state is
  who masked it (`null` when not concealed).
* A counter's sides are the levels of Layer traits (`emb2;`, VASSAL's
  Embellishment): the state is the active level (negative: inactive). The
  piece shows its outermost active layer. A face layer's level names are the
  printed values and class (`4-4-7 1sq`, `2-3-7 1hs`, `2-2-8 Icr`, `9-1`);
  a broken side is a level named `broken +` (the layer VASL names BRK). A
  counter without such names is read from its image (`ru/ru447S`: Russian,
  4-4-7, squad) or its palette name (`2-2-8 Icr`, `LMG`).
* Hidden Initial Placement is VASSAL's Hideable trait (`hide;`), its state
  who hid the unit (`null` when not hidden).
* Markers are pieces of their own, named as the palette names them (`DM`,
  `CX`, `Pin`, ...): MARKERS says what each gives the units it covers.
"""

from __future__ import annotations

import re

from asl_kb.record import FrozenRecord, record
from asl_kb.vasl.save import Piece, split

#: VASL's nationality codes (the image folders and the Concealable trait's
#: NATION): (the side's name in a position, the unit's nationality, the
#: player side VASL's turn track names). A player side with units of one
#: nationality is named by it; one with several is named by the player side.
NATIONS: dict[str, tuple[str, str, str]] = {
    "ge": ("german", "german", "axis"),
    "ss": ("german", "ss", "axis"),
    "it": ("italian", "italian", "axis"),
    "ja": ("japanese", "japanese", "axis"),
    "fi": ("finnish", "finnish", "axis"),
    "ax": ("axis_minor", "axis_minor", "axis"),
    "hu": ("hungarian", "hungarian", "axis"),
    "ru": ("russian", "russian", "allied"),
    "am": ("american", "american", "allied"),
    "us": ("american", "american", "allied"),
    "br": ("british", "british", "allied"),
    "fr": ("french", "french", "allied"),
    "al": ("allied_minor", "allied_minor", "allied"),
    "ch": ("chinese", "chinese", "allied"),
    "pa": ("partisan", "partisan", "allied"),
    # the Korean War's: UN forces on the allied side, Communist on the axis side
    "un": ("un", "un", "allied"),
    "sk": ("south_korean", "south_korean", "allied"),
    "nk": ("north_korean", "north_korean", "axis"),
    "cc": ("chinese_communist", "chinese_communist", "axis"),
}

#: marker pieces by their palette name: the status each gives the units it
#: covers (the units below it in its stack, down to the next marker below)
MARKERS: dict[str, str] = {
    "DM": "dm",
    "CX": "cx",
    "Pin": "pinned",
    "Disrupt": "disrupted",
    "Encircled": "encircled",
    "Melee / H-t-H": "melee",
    "Melee": "melee",
    "Berserk": "berserk",
    "Fanatic": "fanatic",
    "Motion": "motion",
}
#: a Layer's level name on a unit -> the status it shows (VASL's BER, FAN
#: and wound layers; a vehicle's CE/BU layer)
LAYER_STATUS = {"Berserk +": "berserk", "Fanatic +": "fanatic", "Wnd +": "wounded", "+ CE": "ce", "+ BU": "bu"}
#: the Building level marker's levels (VASL's `Building`, `Fort Bldg` and
#: `Strongpoint` counters): cellar -1, ground level 0, Levels 1-3; a roof
#: is None (not a Location the position format has)
BUILDING_LEVELS = {"+ Cellar": -1, "+ Ground Level": 0, "+ Level 1": 1, "+ Level 2": 2, "+ Level 3": 3}
BUILDING_MARKERS = ("Building", "Fort Bldg", "Strongpoint")
#: Support Weapons by palette name (the position's `sw` kinds)
SUPPORT_WEAPONS = {
    "LMG": "lmg",
    "MMG": "mmg",
    "HMG": "hmg",
    ".50-cal": "hmg",
    ".50-cal(a)": "hmg",
    "FT": "ft",
    "DC": "dc",
    "ATR": "atr",
    "PSK": "psk",
    "PIAT": "piat",
    "BAZ": "baz",
    "BAZ 43": "baz",
    "BAZ 44": "baz",
    "BAZ 45": "baz",
}
#: infantry classes by the letters VASL's level names write before sq/hs
CLASSES = {
    "E": "elite",
    "SS": "elite",
    "AE": "elite",
    "1": "first_line",
    "2": "second_line",
    "G": "green",
    "C": "conscript",
}
#: the ASL hero's printed values (every nationality's)
HERO = "1-4-9"

_INFANTRY = re.compile(r"(?:str\s+)?(\(?\d{1,2}\)?-\d{1,2}-\d{1,2})\s+(.*?)(sq|hs|cr)")
_LEADER = re.compile(r"(\d{1,2})([-+])(\d)")
_IMAGE_INFANTRY = re.compile(r"([a-z]{2})/\1(\d)(\d)(\d)([SHC])([a-z]{0,2})(?:\.(?:gif|png))?")
_HERO_IMAGE = re.compile(r"([a-z]{2})/\1Hero(b?)(?:\.(?:gif|png))?")
_NATION_DIR = re.compile(r"([a-z]{2})/")
_KINDS = {"sq": "squad", "hs": "half_squad", "cr": "crew", "S": "squad", "H": "half_squad", "C": "crew"}


@record(frozen=True)
class Layer(FrozenRecord):
    """A Layer trait (`emb2;`): its name (BRK, ...), the active level
    (1-based; 0 or less: inactive), and its levels' images and names."""

    name: str
    value: int
    images: tuple[str, ...]
    names: tuple[str, ...]

    @property
    def active(self) -> bool:
        return self.value > 0

    def level_name(self, value: int | None = None) -> str:
        i = abs(self.value if value is None else value) - 1
        return _clean(self.names[i]) if 0 <= i < len(self.names) else ""

    def image(self) -> str:
        i = abs(self.value) - 1
        return self.images[i].strip() if 0 <= i < len(self.images) else ""


def _clean(name: str) -> str:
    """A level name as the counter shows it: VASSAL's escapes dropped."""
    return name.replace("\\", "").strip()


def layers(piece: Piece) -> list[Layer]:
    """The piece's Layer traits, outermost first (Embellishment's type:
    images at field 15, level names at 16, the layer's name at 18; its state
    the active level)."""
    out = []
    for t in piece.of_kind("emb2;"):
        f = t.fields()
        if len(f) < 17:
            continue
        images = tuple(split(f[15], ","))
        names = tuple(split(f[16], ","))
        try:
            value = int(split(t.state, ";")[0])
        except ValueError:
            value = -1
        out.append(Layer(f[18] if len(f) > 18 else "", max(-len(images), min(len(images), value)), images, names))
    return out


@record(frozen=True)
class Counter(FrozenRecord):
    """What a piece is.

    kind: squad, half_squad, crew, leader, hero, vehicle, gun (units); sw;
    marker (gives `status` to the units it covers), level (a Building level
    marker), concealment (a `?`), phase (the Phase Track), other (no unit, no
    marker read), unknown (a unit the import cannot identify: `why`)."""

    kind: str
    nation: str | None = None
    values: str | None = None  # "4-4-7", "9-1"; a SW's kind; a vehicle's or Gun's name
    unit_class: str | None = None
    status: tuple[str, ...] = ()  # a unit's own: broken, concealed, hidden, ...; a marker's status
    level: int | None = None  # a Building level marker's level (-1 a cellar); None for a roof
    label: str | None = None  # the label the player wrote on it
    why: str = ""

    @property
    def is_unit(self) -> bool:
        return self.kind in ("squad", "half_squad", "crew", "leader", "hero", "vehicle", "gun")


def _trait_owner(piece: Piece, kind: str) -> str | None:
    """Who set a Concealable/Hideable trait (its state's first field; None
    when not set)."""
    for t in piece.of_kind(kind):
        who = split(t.state, ";")[0]
        if who and who != "null":
            return who
    return None


def _nation(piece: Piece, faces: list[str]) -> str | None:
    """The unit's nationality: its Concealable trait's NATION, else its
    images' folder."""
    for t in piece.of_kind("conceal;"):
        f = t.fields()
        if len(f) > 2 and f[2] in NATIONS:
            return f[2]
    for image in faces + [piece.image]:
        m = _NATION_DIR.match(image.strip())
        if m and m.group(1) in NATIONS:
            return m.group(1)
    return None


def _label(piece: Piece) -> str | None:
    """The label the player wrote (VASSAL's Labeler, the one whose menu
    command is Label), unless it only repeats the piece's name."""
    for t in piece.of_kind("label;"):
        f = t.fields()
        text = t.state.strip()
        if text and (len(f) < 2 or f[1] == "Label") and text != piece.name:
            return text
    return None


def _read_values(name: str) -> tuple[str, str, str | None] | None:
    """(kind, printed values, class) from a level or palette name."""
    m = _INFANTRY.fullmatch(name)
    if m:
        cls = m.group(2).strip()
        return _KINDS[m.group(3)], m.group(1), cls.split()[-1] if cls else None
    m = _LEADER.fullmatch(name)
    if m:
        return "leader", name, None
    return None


def _read_image(image: str) -> tuple[str, str, str | None] | None:
    m = _IMAGE_INFANTRY.fullmatch(image)
    if m:
        # VASL's image suffixes: s an SS counter (ge658Ss), ae Assault Engineers
        cls = {"s": "SS", "ae": "AE"}.get(m.group(6))
        return _KINDS[m.group(5)], f"{m.group(2)}-{m.group(3)}-{m.group(4)}", cls
    if _HERO_IMAGE.fullmatch(image):
        return "hero", HERO, None
    return None


def _is_broken_name(name: str) -> bool:
    return name.lower().startswith(("broken", "brk"))


def identify(piece: Piece) -> Counter:
    """What the piece is (see the module's docstring)."""
    name = piece.name.strip()
    if name in MARKERS:
        return Counter("marker", status=(MARKERS[name],))
    ls = layers(piece)
    if name in BUILDING_MARKERS:
        active = [l for l in ls if l.active and (l.level_name() in BUILDING_LEVELS or l.level_name() == "+ Roof Level")]
        lvl = BUILDING_LEVELS.get(active[0].level_name()) if active else 0
        return Counter("level", level=lvl, why="" if lvl is not None else "a roof")
    if piece.of_kind("concealment;"):
        f = piece.of_kind("concealment;")[0].fields()
        return Counter("concealment", nation=f[1] if len(f) > 1 else None)
    if name.startswith("Phase Track"):
        return Counter("phase")
    if not piece.of_kind("conceal;"):
        return Counter("other")
    return _unit(piece, name, ls)


def _unit(piece: Piece, name: str, ls: list[Layer]) -> Counter:
    faces = [l.image() for l in ls if l.active]
    nation = _nation(piece, faces)
    status = _status(piece, ls)
    common = dict(nation=nation, label=_label(piece))
    image = piece.image.strip()
    folders = " ".join([image] + faces)
    if "/veh" in folders or "/gun" in folders:
        kind = "vehicle" if "/veh" in folders else "gun"
        return Counter(kind, values=name, status=tuple(status), **common)  # type: ignore[arg-type]
    if name in SUPPORT_WEAPONS or re.fullmatch(r"\d+\* MTR.*", name):
        return Counter("sw", values=SUPPORT_WEAPONS.get(name, "mtr"), **common)  # type: ignore[arg-type]
    broken, found = _unit_values(name, image, ls)
    if found is None:
        shown = next((f for f in faces if f), image) or "no image"
        return Counter("unknown", status=tuple(status), why=f"a counter the import cannot read ({shown})", **common)  # type: ignore[arg-type]
    kind, values, cls = found
    if cls == "SS" and nation == "ge":  # an SS counter among the German ones (A25.11)
        common["nation"] = "ss"
    if broken:
        status.insert(0, "broken")
        if "concealed" in status:  # a broken unit loses concealment (A12.14): VASL may keep the mask
            status.remove("concealed")
    return Counter(kind, values=values, unit_class=CLASSES.get(cls or ""), status=tuple(status), **common)  # type: ignore[arg-type]


def _status(piece: Piece, ls: list[Layer]) -> list[str]:
    """The unit's status as its traits show it: concealed, hidden, and the
    status of its active layers (LAYER_STATUS)."""
    status: list[str] = []
    if _trait_owner(piece, "conceal;"):
        status.append("concealed")
    if _trait_owner(piece, "hide;"):
        status.append("hidden")
    for l in ls:
        if l.active and l.level_name() in LAYER_STATUS:
            status.append(LAYER_STATUS[l.level_name()])
    return status


def _unit_values(name: str, image: str, ls: list[Layer]) -> tuple[bool, tuple[str, str, str | None] | None]:
    """(broken, (kind, values, class)) of a unit: read from its Layers
    (_face), else from the piece's own image (a broken side over it) or
    its name."""
    broken, found = _face(ls)
    if found is None and image:
        found = _read_image(image) or _read_values(name)
        # a broken side over the piece's own image
        broken = broken or any(l.active and _is_broken_name(l.level_name()) for l in ls)
    if found is None:
        found = _read_values(name)
    return broken, found


def _face(ls: list[Layer]) -> tuple[bool, tuple[str, str, str | None] | None]:
    """(broken, (kind, values, class)) from the Layers: the outermost active
    layer that is a face or a broken side decides whether the unit shows its
    broken side; its values are that face's, or the face's under a broken side
    (the same layer's other levels, or an inner layer's)."""
    broken = False
    for l in ls:
        if not l.active:
            continue
        shown = l.level_name()
        if _is_broken_name(shown):
            broken = True
            for v in range(1, len(l.names) + 1):  # a layer with both sides
                found = _read_values(l.level_name(v))
                if found:
                    return True, found
            continue
        hero = _HERO_IMAGE.fullmatch(l.image())
        if hero:  # a hero's two sides: its image, the broken one ending in b
            return broken or hero.group(2) == "b", ("hero", HERO, None)
        found = _read_values(shown) or _read_image(l.image())
        if found:
            return broken, found
    return broken, None
