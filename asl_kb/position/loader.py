"""Load a position file (YAML) into frozen, hashable records (asl_kb/record.py).

The file is untrusted input, so it is never handed to a YAML constructor:
we only read the parser's *events* (with line marks) and build our own tree
of strings, lists and mappings, refusing tags, anchors, aliases, deep
nesting and duplicate keys as they appear.  Every scalar is kept as the
exact string the user wrote ("E10", "010", "no", "on" stay strings).

The tree is then checked against the one schema, docs/position.schema.json
(position/schema.py: keys, types, ranges, names), and read into records:
the reading turns strings into numbers where the schema says numbers are,
and checks only what a schema cannot say (hexes on the map, levels that
exist, units named that exist, a counter's printed values, the switches
rules/core/versions.lp declares).

Every problem raises exactly one PositionError naming the file, the 1-based
line of the offending node and its dotted key.  docs/position-format.md
describes the format.
"""

from __future__ import annotations

import functools

import os
import re
import stat
from collections.abc import Iterator, Mapping
from typing import Any, NoReturn

import yaml

from asl_kb.position import counters
from asl_kb.position import schema as position_schema
from asl_kb.board import hexgrid, terrain
from asl_kb.errors import AslKbError, PositionError
from asl_kb.record import FrozenRecord, field, record, replace

MAX_BYTES = 1024 * 1024  # 1 MiB: positions are a few KiB
MAX_DEPTH = 32  # the schema nests 5 deep; stops recursion bombs
DEFAULT_VERSIONS = ("current", "prior")
WHOLE_BOARD = ("A0", "GG10")  # one geomorphic board
#: the largest map a position may describe: geomorphic boards stacked north
#: to south (columns stop at GG, the last column of a board; rows at the
#: last row of the 20th board) -- a scenario's map is a few boards
MAX_BOARDS = 20
MAX_ROW = hexgrid.BOARD_MAX_ROW * MAX_BOARDS
#: the longest unit id or side name (a player writes a few characters; an
#: id is echoed in every listing and sorted by its digit runs)
MAX_ID = 40

PHASES = ("rally", "prep_fire", "movement", "defensive_fire", "advancing_fire", "rout", "advance", "close_combat")
#: the terrain and hexside names are the terrain table's (one list to keep)
TERRAINS = tuple(terrain.TERRAIN)
BUILDINGS = ("building", "stone_building", "wooden_building")
FEATURES = (
    "foxhole",
    "trench",
    "shellhole",
    "entrenchment",
    "pillbox",
    "wreck",
    "smoke",
    "blaze",
    "wire",
    "minefield",
    "ffe",
)
HEXSIDES = tuple(terrain.HEXSIDES)
UNIT_TYPES = ("squad", "half_squad", "crew", "leader", "hero", "vehicle", "gun", "unarmed")
TYPE_ALIASES = {"half-squad": "half_squad"}
#: the sizes of a white unarmed counter (A20.5), `size:` of a `type: unarmed`
UNARMED_SIZES = ("squad", "half_squad")
INFANTRY_TYPES = ("squad", "half_squad", "crew", "hero", "unarmed")
#: who may be placed beneath a foxhole counter (B27.1: "only Infantry/SW")
PERSONNEL_TYPES = ("squad", "half_squad", "crew", "leader", "hero", "unarmed")
STATUSES = (
    "broken",
    "dm",
    "disrupted",
    "pinned",
    "cx",
    "encircled",
    "concealed",
    "hidden",
    "berserk",
    "melee",
    "fanatic",
    "wounded",
    "ce",
    "bu",
    "stunned",
    "motion",
    "spotted_fire",
    "unarmed",
    "inexperienced",
    "abandoned",
    "escaped",
    "in_own_country",
    "crew_broken",
)
# Vehicle armament defaults (fp, normal range): main armament, then MGs.
ARMAMENT = {"ma": (4, 16), "bmg": (2, 8), "cmg": (2, 8), "aamg": (2, 8)}
TRUE_WORDS = ("on", "yes", "true")
FALSE_WORDS = ("off", "no", "false")

# The keys each mapping allows and requires, the types, ranges and names of
# the values: docs/position.schema.json (position/schema.py checks a file
# against it before anything here reads the file).
FIRE_RESULTS = ("kia", "k")
UNIT_CLASSES = ("elite", "first_line", "second_line", "green", "conscript")

_IDENT = re.compile(r"[a-z][a-z0-9_]{0,%d}" % (MAX_ID - 1))
#: control characters (NUL, ESC, ...) have no place in a position's text;
#: tab and line breaks do (notes)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_INT = re.compile(r"[+-]?\d{1,9}")
_LEVEL = re.compile(r"\d{1,2}")
# Explicit core-schema tags are harmless (we keep strings anyway); all
# others (!!python/..., !custom, !) could mean code execution elsewhere.
_PLAIN_TAGS = frozenset("tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "seq", "map"))


# ---------------------------------------------------------------- data


class FrozenMap(Mapping):
    """A read-only, hashable dict (keeps insertion order)."""

    __slots__ = ("_d",)

    def __init__(self, pairs: Any = ()):
        self._d = dict(pairs)

    def __getitem__(self, key):
        return self._d[key]

    # the dict's own (Mapping's get and `in` go through __getitem__ and a
    # KeyError: a spread of 16 boards asks the terrain 100,000 times)
    def get(self, key, default=None):
        return self._d.get(key, default)

    def __contains__(self, key) -> bool:
        return key in self._d

    def __iter__(self) -> Iterator:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        return hash(tuple(self._d.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({self._d!r})"


def _side_key(a: str, b: str, grid=None) -> tuple[str, str]:
    """A hexside's key: its two hexes in hex order."""
    order = hexgrid.hex_coords if grid is None else grid.order
    return (a, b) if order(a) <= order(b) else (b, a)


def _plain_grid():
    from asl_kb.board.grid import PLAIN

    return PLAIN


#: the kinds of switch rules/core/versions.lp declares: an erratum, a reading of
#: the current text (both switched by rule with `errata:` too), a Q&A reading,
#: a narrower reading of a rule's own words than the other sources take (by
#: name only)
SWITCH_KINDS = ("erratum", "reading", "qa_reading", "text_reading")
BY_RULE_KINDS = ("erratum", "reading")
_SWITCH = re.compile(r"^(?:%s)\((\w+)," % "|".join(SWITCH_KINDS), re.M)
_SWITCH_RULE = re.compile(r'^(?:%s)\(\w+,\s*"([^"]+)"\)' % "|".join(BY_RULE_KINDS), re.M)


def declared_switches() -> list[str]:
    """The named switches rules/core/versions.lp declares, in the file's order
    (read from the rules, so the names live in one place)."""
    from asl_kb.asp.control import active_rules

    return list(dict.fromkeys(_SWITCH.findall((active_rules() / "core" / "versions.lp").read_text())))


def switch_names() -> frozenset[str]:
    """The named switches rules/core/versions.lp declares."""
    return frozenset(declared_switches())


def switch_rules() -> frozenset[str]:
    """The rule ids that have an erratum or current-text reading in
    rules/core/versions.lp (what `errata:` may name: a Q&A or own-words
    reading is switched by name only), read from the rules like the names."""
    from asl_kb.asp.control import active_rules

    return frozenset(_SWITCH_RULE.findall((active_rules() / "core" / "versions.lp").read_text()))


@record(frozen=True)
class HexTerrain(FrozenRecord):
    """A hex's terrain as the file gives it (or the map's default)."""

    terrain: str
    features: tuple[str, ...] = ()
    elevation: int = 0
    building: str | None = None


@functools.lru_cache(maxsize=64)
def _default_hex(terrain: str) -> HexTerrain:
    """The terrain of a hex the file does not list (one object per kind:
    asked for every move figured)."""
    return HexTerrain(terrain)


@record(frozen=True)
class Weapon(FrozenRecord):
    """A unit's weapon: a SW or a vehicle's armament, with its FP and range."""

    kind: str
    fp: int
    normal_range: int


@record(frozen=True)
class Unit(FrozenRecord):
    """One unit (or SMC, vehicle, Gun) as the file gives it, numbers parsed
    from its counter."""

    id: str
    side: str
    type: str
    counter: str | None
    hex: str
    level: int
    status: tuple[str, ...]
    sw: tuple[Weapon, ...]
    armament: tuple[Weapon, ...]
    fp: int | None
    normal_range: int | None
    morale: int | None
    leadership: int | None
    unarmed: bool
    ca: int | None
    vca: int | None
    tca: int | None
    nationality: str
    line: int
    unit_class: str | None = None
    heat_of_battle: int | None = None
    # A20.5: the Guard this unit is a prisoner of (it is Unarmed)
    guard: str | None = None
    # the same, written on the Guard: the ids of its prisoners
    guarding: tuple[str, ...] = ()
    # Surrender Check note 5 (D6.1, D6.23-.24): the vehicle this unit is a
    # Passenger in / a Rider on (same Location)
    passenger_of: str | None = None
    rider_of: str | None = None
    # A20.5: the size of the white unarmed counter a `type: unarmed` unit is
    # (squad, half_squad), as written; None: not given (the rules read it)
    size: str | None = None
    # A10.531 EX: the unit is in its hex's entrenchment (foxhole, trench: B27),
    # Entrenched
    entrenched: bool = False
    # `morale` is the position's own `morale:` (the unit's Morale Level as it
    # stands), not the counter's printed one (A10.4: rules/core/A10_4_morale.lp)
    morale_given: bool = False

    @property
    def location(self) -> str:
        """ "M2" at ground level, "M2@1" above it."""
        return self.hex if self.level == 0 else f"{self.hex}@{self.level}"


@record(frozen=True)
class CloseCombat(FrozenRecord):
    """One declared CC attack (A11; A20.22 capture attempt; J2.31 Hand-to-Hand)."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    capture: bool
    hand_to_hand: bool
    line: int
    ambush: bool = False  # A11.4: the attackers ambushed


@record(frozen=True)
class FireEffects(FrozenRecord):
    """What an attack has just done (A20.54): units eliminated, units that
    failed a MC, and the side that attacked."""

    by: str
    eliminated: tuple[str, ...]
    failed_mc: tuple[str, ...]
    line: int
    # A20.54: a 1KIA or K/# result on a Location holding a Guard and its
    # prisoners: (hex, result) — who suffers it is Random Selection
    random_selection: tuple[str, str] | None = None


@record(frozen=True)
class Position(FrozenRecord):
    """A whole position file: the rules, phase, sides, map and units
    (docs/position-format.md)."""

    file: str
    name: str
    rules: str
    errata: tuple[tuple[str, bool], ...]
    phase: str
    attacker: str
    no_quarter: tuple[str, ...]
    notes: str | None
    board: str | None
    area: tuple[str, str]
    default_terrain: str
    terrain: FrozenMap  # hex -> HexTerrain, only the hexes listed in the file
    levels: FrozenMap  # hex -> number of levels above ground
    smoke: tuple[str, ...]
    los_blocked: tuple[tuple[str, str], ...]
    los_clear: tuple[tuple[str, str], ...]
    los_hindrance: tuple[tuple[str, str, int], ...]
    units: tuple[Unit, ...]
    # A12.153: hexes of the buildings the ATTACKER has Mopped Up this turn
    mopping_up: tuple[str, ...] = ()
    readings: tuple[tuple[str, bool], ...] = ()
    # hexside terrain (wall, hedge, bocage): (hex, hex) in hex order -> name
    hexsides: FrozenMap = FrozenMap()
    # Prisoners (A20): each side's ELR, sides that have massacred (A20.4),
    # the Close Combat declared this CCPh, what an attack just did.
    elr: tuple[tuple[str, int], ...] = ()
    massacred: tuple[str, ...] = ()
    close_combat: tuple["CloseCombat", ...] = ()
    fire_effects: "FireEffects | None" = None
    # Free-form test data (plain dicts/lists/strings): not hashable, so it
    # takes no part in == or hash().
    expect: Any = field(default=None, compare=False)
    # VASL boards (`map.boards`, asl_kb/vasl/): each board's BoardSpec, and
    # the boards read from the VASL boards folder (asl_kb/vasl/realmap.py)
    boards: tuple = ()
    real: Any = field(default=None, compare=False, repr=False)

    def terrain_of(self, hex_id: str) -> HexTerrain:
        """Terrain of a hex, the map default for hexes the file does not list
        (on VASL boards, the boards' terrain); a hex in `map.smoke` holds the
        SMOKE feature (A24: +1 MF, Hindrance)."""
        t = self.terrain.get(hex_id)
        if t is None:
            t = (
                self.real.terrain_of(hex_id, HexTerrain)
                if self.real is not None
                else _default_hex(self.default_terrain)
            )
        if hex_id in self.smoke and "smoke" not in t.features:
            t = replace(t, features=t.features + ("smoke",))
        return t

    def hexside(self, a: str, b: str) -> str | None:
        """The terrain of the hexside between ADJACENT hexes a and b, if any
        (on VASL boards, the boards' unless the file states one)."""
        if self.hexsides:
            got = self.hexsides.get(_side_key(a, b, self.grid))
            if got is not None:
                return got
        if self.real is not None:
            return self.real.hexside(a, b)
        return None

    def has_hexsides(self) -> bool:
        """Whether any hexside may hold terrain (the file's, or VASL boards')."""
        return bool(self.hexsides) or self.real is not None

    def levels_of(self, hex_id: str) -> int:
        """Number of building levels above ground (0 when none)."""
        if self.real is not None and hex_id not in self.terrain:
            return self.real.levels_of(hex_id)
        return self.levels.get(hex_id, 0)

    @property
    def grid(self):
        """The map's hex grid (asl_kb/board/grid.py): the painted map's, or
        the layout of the VASL boards."""
        return self.real.layout if self.real is not None else _plain_grid()

    def map_area(self):
        """What holds the map's hexes (`contains`): the painted map's area,
        or the VASL boards' layout."""
        return self.real.layout if self.real is not None else hexgrid.Area(*self.area)

    def erratum(self, rule: str, default: bool = False) -> bool:
        """Whether the erratum for `rule` is switched on."""
        return dict(self.errata).get(rule, default)

    def involves_prisoners(self) -> bool:
        """Whether the position has anything for the prisoners program
        (rules/prisoners.lp): Close Combat, fire effects, a Guard or an
        Unarmed unit."""
        return bool(self.close_combat or self.fire_effects or any(u.guard or u.unarmed for u in self.units))


# ---------------------------------------------------------------- entry points


def load_position(path: str | os.PathLike, versions: tuple[str, ...] = DEFAULT_VERSIONS) -> Position:
    """Read and validate a position file; PositionError on any problem."""
    file = os.fspath(path)
    if file == "-":
        return _load_stdin(versions)
    return load_position_text(read_input(file), file, versions)


def read_input(file: str) -> str:
    """An input file's text (a position, a scope): a regular file of at most
    MAX_BYTES, UTF-8; PositionError naming it otherwise."""
    try:
        st = os.stat(file)
    except OSError as e:
        raise PositionError(file, None, None, f"cannot read file: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise PositionError(file, None, None, "not a regular file")
    if st.st_size > MAX_BYTES:
        raise PositionError(file, None, None, _too_large(st.st_size))
    try:
        with open(file, "rb") as f:
            data = f.read(MAX_BYTES + 1)  # bounded even if the file grew since stat
    except OSError as e:
        raise PositionError(file, None, None, f"cannot read file: {e.strerror}") from None
    return _text(data, file)


STDIN = "<stdin>"


def _load_stdin(versions) -> Position:
    """The position `-`: standard input, read up to the size limit; its
    errors name it <stdin>."""
    import sys

    try:
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
    except (OSError, ValueError, AttributeError) as e:
        raise PositionError(STDIN, None, None, f"cannot read standard input: {e}") from None
    return load_position_text(_text(data, STDIN), STDIN, versions)


def _text(data: bytes, name: str) -> str:
    """The bytes read of a position (up to one past the limit) as text."""
    if len(data) > MAX_BYTES:
        raise PositionError(name, None, None, _too_large(len(data)))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PositionError(name, data.count(b"\n", 0, e.start) + 1, None, "file is not UTF-8 text") from None


def load_position_text(text: str, filename: str, versions: tuple[str, ...] = DEFAULT_VERSIONS) -> Position:
    """Validate position YAML given as a string; `filename` is used in errors."""
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as e:  # lone surrogates: the YAML parser would crash on them
        line = text.count("\n", 0, e.start) + 1
        raise PositionError(filename, line, None, "text is not valid Unicode") from None
    if size > MAX_BYTES:
        raise PositionError(filename, None, None, _too_large(size))
    tree = _parse(text, filename)
    if not _given(tree):
        raise PositionError(filename, None, None, "file is empty: expected a mapping with name, attacker, units, ...")
    return _Schema(filename, tuple(versions)).position(tree)


def read_tree(text: str, filename: str):
    """The YAML of a position as it is written, the schema not applied:
    mappings, lists and strings (every scalar exactly as written), None for
    an empty text. The same parse as load_position_text's (no constructor,
    no alias, bounded depth and size); PositionError if it is not YAML.
    `asl-kb serve` edits this tree."""
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as e:
        raise PositionError(filename, text.count("\n", 0, e.start) + 1, None, "text is not valid Unicode") from None
    if size > MAX_BYTES:
        raise PositionError(filename, None, None, _too_large(size))
    return _parse(text, filename)


def parse_tree(text: str, filename: str):
    """The YAML text as the loader reads it: strings, lists and mappings that
    know their lines (the case runner merges its runs' overrides into it)."""
    return _parse(text, filename)


def position_from_tree(tree, filename: str, versions: tuple[str, ...] = DEFAULT_VERSIONS) -> Position:
    """A parsed tree (parse_tree) checked against docs/position.schema.json
    and read into a Position; PositionError on any problem."""
    return _Schema(filename, tuple(versions)).position(tree)


def _too_large(size: int) -> str:
    return f"file too large: {size} bytes (the limit is 1 MiB = {MAX_BYTES} bytes)"


# ---------------------------------------------------------------- YAML layer

# libyaml's parser is ~15x faster than the pure-Python one, which matters for
# a 1 MiB file; both produce the same events with line marks.
_Parser = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_PARSER_IS_C = _Parser is not yaml.SafeLoader


class _Str(str):
    """A scalar exactly as written, with its 1-based line."""

    line: int


class _Seq(list):
    line: int | None  # None: made of a node without a line (committee/scope.py)


class _Map(dict):
    line: int
    key_lines: dict[str, int]


def _str_at(text: str, line: int) -> _Str:
    out = _Str(text)
    out.line = line
    return out


def _join(base: str, key: str) -> str:
    return f"{base}.{key}" if base else key


def _parse(text: str, file: str):
    """YAML text -> tree of _Str/_Seq/_Map (None or "" for an empty file).

    Only parser events are used, never a constructor, so no tag can run
    code; anchors, aliases and foreign tags are refused on their event, so
    an alias bomb stops at its first anchor.
    """
    parser = _Parser(text)
    try:
        return _TreeBuilder(file).build(_events(parser))
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else None
        if "maximum nesting depth" in (e.problem or ""):
            # libyaml (PyYAML >= 6.0.4) stops at 1000 levels while scanning
            # ahead, before the tree builder's own check sees the events
            raise PositionError(file, line, None, f"nested more than {MAX_DEPTH} levels deep") from None
        what = "; ".join(p for p in (e.context, e.problem) if p)
        raise PositionError(file, line, None, f"malformed YAML: {what}") from None
    except yaml.reader.ReaderError as e:
        raise PositionError(
            file, _offset_line(text, e.position), None, f"malformed YAML: {e.reason} (character {e.character!r})"
        ) from None
    except yaml.YAMLError as e:
        raise PositionError(file, None, None, f"malformed YAML: {e}") from None
    finally:
        parser.dispose()


def _events(parser):
    while parser.check_event():
        yield parser.get_event()


def _offset_line(text: str, offset: int) -> int:
    # libyaml reports byte offsets, the Python reader character offsets.
    if _PARSER_IS_C:
        return text.encode("utf-8").count(b"\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1


class _TreeBuilder:
    """Builds the tree from events without recursion, checking as it goes."""

    def __init__(self, file: str):
        self.file = file
        self.stack: list[tuple[_Seq | _Map, str]] = []  # open collections and their paths
        self.pending_key: list[str | None] = []  # per open mapping: key awaiting its value
        self.root = None
        self.documents = 0

    def fail(self, event, path: str | None, message: str) -> NoReturn:
        raise PositionError(self.file, event.start_mark.line + 1, path or None, message)

    def build(self, events):
        for event in events:
            if isinstance(event, yaml.DocumentStartEvent):
                self.documents += 1
                if self.documents > 1:
                    self.fail(event, None, "only one YAML document is allowed (found a second '---')")
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                self.stack.pop()
                self.pending_key.pop()
            elif isinstance(event, yaml.NodeEvent):
                self.node(event)
        return self.root

    def node(self, event) -> None:
        path, is_key = self.position()
        if event.anchor is not None:  # an AliasEvent carries its name here too
            self.fail(event, path, "anchors and aliases are not allowed")
        if event.tag is not None and event.tag not in _PLAIN_TAGS:
            self.fail(event, path, f"tags are not allowed (found {_short_tag(event.tag)}): write plain YAML")
        if isinstance(event, yaml.ScalarEvent):
            value = _Str(event.value)
        elif is_key:
            self.fail(event, path, "mapping keys must be plain strings")
        elif len(self.stack) >= MAX_DEPTH:
            self.fail(event, None, f"nested more than {MAX_DEPTH} levels deep")
        elif isinstance(event, yaml.SequenceStartEvent):
            value = _Seq()
        else:
            value = _Map()
            value.key_lines = {}
        value.line = event.start_mark.line + 1
        self.attach(value, event, path, is_key)
        if isinstance(value, (_Seq, _Map)):
            self.stack.append((value, path))
            self.pending_key.append(None)

    def position(self) -> tuple[str, bool]:
        """Dotted path of the next node, and whether it is a mapping key."""
        if not self.stack:
            return "", False
        parent, path = self.stack[-1]
        if isinstance(parent, _Seq):
            return f"{path}[{len(parent)}]", False
        key = self.pending_key[-1]
        return (path, True) if key is None else (_join(path, key), False)

    def attach(self, value, event, path: str, is_key: bool) -> None:
        if not self.stack:
            self.root = value
            return
        parent = self.stack[-1][0]
        if isinstance(parent, _Seq):
            parent.append(value)
        elif is_key:
            if value in parent:
                self.fail(
                    event,
                    _join(path, value),
                    f"duplicate key {str(value)!r} (lines {parent.key_lines[value]} and {value.line})",
                )
            parent.key_lines[str(value)] = value.line
            self.pending_key[-1] = str(value)
        else:
            parent[self.pending_key[-1]] = value
            self.pending_key[-1] = None


def _short_tag(tag: str) -> str:
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix) :] if tag.startswith(prefix) else tag


def _plain(value):
    """Strip line info: plain dicts, lists and strings."""
    if isinstance(value, _Map):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, _Seq):
        return [_plain(v) for v in value]
    return str(value)


def _given(value) -> bool:
    """False for a missing key or an empty value (`key:` with nothing after it)."""
    return value is not None and not (isinstance(value, _Str) and value == "")


def _describe(value) -> str:
    if isinstance(value, _Map):
        return "a mapping"
    if isinstance(value, _Seq):
        return f"a list of {len(value)}"
    return f"{str(value)!r}"


#: the parsed tree's names for its users (the case runner merges a run's
#: overrides into the tree before position_from_tree reads it; a committee
#: scope is read with the same tree, asl_kb/committee/scope.py)
Str, Seq, Map, given, str_at, plain = _Str, _Seq, _Map, _given, _str_at, _plain


# ---------------------------------------------------------------- schema layer


#: a unit's number keys (docs/position.schema.json) -> its field
_NUMBER_KEYS = {"fp": "fp", "range": "normal_range", "morale": "morale", "leadership": "leadership"}


@functools.cache
def _unit_range(key: str) -> tuple[int, int]:
    """The range docs/position.schema.json gives a unit's number key."""
    spec = position_schema.schema()["definitions"]["unit"]["properties"][key]
    return spec["minimum"], spec["maximum"]


def _strings(node) -> tuple[str, ...]:
    """A list the schema has checked, as strings (none: not given)."""
    return tuple(str(n) for n in node) if _given(node) else ()


def _flag(node) -> bool:
    """An on/off word the schema has checked (not given: off)."""
    return _given(node) and str(node).lower() in TRUE_WORDS


class _Schema:
    """Checks the parsed tree and builds the Position, one section at a time."""

    def __init__(self, file: str, versions: tuple[str, ...]):
        self.file = file
        self.versions = versions
        self.board: str | None = None
        self.area = hexgrid.Area.whole_board()
        self.area_corners = WHOLE_BOARD
        self.levels: dict[str, int] = {}
        #: the VASL boards of `map.boards` (asl_kb/vasl/realmap.py), and their specs
        self.real: Any = None
        self.boards: tuple = ()

    # -- generic helpers

    def fail(self, node, path: str, message: str) -> NoReturn:
        line = getattr(node, "line", None)
        raise PositionError(self.file, line, path or None, message)

    def mapping(self, node, path: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> _Map:
        if not isinstance(node, _Map):
            self.fail(node, path, f"expected a mapping, got {_describe(node)}")
        for key in node:
            if key not in allowed:
                raise PositionError(
                    self.file,
                    node.key_lines[key],
                    _join(path, key),
                    f"unknown key {key!r}; allowed keys: {', '.join(allowed)}",
                )
        for key in required:
            if not _given(node.get(key)):
                line = node.key_lines.get(key, node.line)
                raise PositionError(self.file, line, _join(path, key), f"required key {key!r} is missing or empty")
        return node

    def seq(self, node, path: str, example: str) -> _Seq:
        if not isinstance(node, _Seq):
            self.fail(node, path, f"expected a list, e.g. {example}, got {_describe(node)}")
        return node

    def string(self, node, path: str) -> str:
        if not isinstance(node, _Str):
            self.fail(node, path, f"expected a string, got {_describe(node)}")
        if node == "":
            self.fail(node, path, "must not be empty")
        bad = _CONTROL.search(node)
        if bad:
            self.fail(node, path, f"control character {bad.group()!r} in a string: write plain text")
        return str(node)

    def matching(self, node, path: str, pattern: re.Pattern, what: str) -> str:
        text = self.string(node, path)
        if not pattern.fullmatch(text):
            shown = text if len(text) <= 2 * MAX_ID else text[:MAX_ID] + "..."
            self.fail(node, path, f"{shown!r} is not {what}")
        return text

    def ident(self, node, path: str) -> str:
        return self.matching(node, path, _IDENT, f"a lower-case name (letters, digits, _; at most {MAX_ID})")

    def choice(self, node, path: str, allowed: tuple[str, ...], aliases: dict | None = None) -> str:
        text = self.string(node, path)
        text = (aliases or {}).get(text, text)
        if text not in allowed:
            self.fail(node, path, f"{text!r} is not one of: {', '.join(allowed)}")
        return text

    def integer(self, node, path: str, lo: int, hi: int) -> int:
        text = self.string(node, path)
        if not _INT.fullmatch(text):
            if re.fullmatch(r"[+-]?\d+", text):  # a whole number, too long to be in range
                self.fail(node, path, f"{text[:20]}{'...' if len(text) > 20 else ''} is out of range {lo}..{hi}")
            self.fail(node, path, f"expected a whole number, got {text!r}")
        value = int(text)
        if not lo <= value <= hi:
            self.fail(node, path, f"{value} is out of range {lo}..{hi}")
        return value

    def flag(self, node, path: str) -> bool:
        word = self.string(node, path).lower()
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        self.fail(node, path, f"expected on or off, got {str(node)!r}")

    def unique(self, items: list, nodes, path: str) -> tuple:
        seen = set()
        for i, item in enumerate(items):
            if item in seen:
                self.fail(nodes[i], f"{path}[{i}]", f"{item!r} is listed twice")
            seen.add(item)
        return tuple(items)

    def hex(self, node, path: str, check_area: bool = True) -> str:
        text = self.string(node, path)
        if self.real is not None:
            try:
                return self.real.layout.parse(text)
            except ValueError as e:
                self.fail(node, path, str(e))
        try:
            hex_id = hexgrid.parse_hex(text, self.board)
        except ValueError as e:
            self.fail(node, path, str(e))
        col, row = hexgrid.hex_coords(hex_id)
        if col > hexgrid.BOARD_MAX_COL:
            self.fail(node, path, f"no column {hex_id.rstrip('0123456789')} on a map: a board's columns are A..GG")
        if row > MAX_ROW:
            self.fail(node, path, f"no row {row} on a map: at most {MAX_BOARDS} boards stacked, rows 0..{MAX_ROW}")
        if check_area and not self.area.contains(hex_id):
            self.fail(node, path, self.area.why_not_in(hex_id, self.area_corners))
        return hex_id

    def location(self, node, path: str) -> tuple[str, int]:
        """ "HEX" or "HEX@LEVEL" -> (hex, level); the level must exist."""
        text = self.string(node, path)
        hex_text, sep, level_text = text.partition("@")
        if sep and not _LEVEL.fullmatch(level_text):
            self.fail(node, path, f"bad level {level_text!r} in {text!r}: expected HEX@N with N >= 0")
        hex_id = self.hex(_str_at(hex_text, node.line), path)
        level = int(level_text) if sep else 0
        if level > self.levels_of(hex_id):
            self.fail(node, path, f"no level {level} in {hex_id}")
        return hex_id, level

    def levels_of(self, hex_id: str) -> int:
        if self.real is not None and hex_id not in self.painted:
            try:
                return self.real.levels_of(hex_id)
            except AslKbError as e:
                raise PositionError(self.file, None, "map.boards", str(e)) from None
        return self.levels.get(hex_id, 0)

    painted: dict = {}

    def hex_keys(self, node: _Map, path: str) -> Iterator[tuple[str, Any, str]]:
        """(hex, value, path) for a mapping keyed by hexes; "5M2" and "M2" collide."""
        first_line: dict[str, int] = {}
        for key, value in node.items():
            key_node = _str_at(key, node.key_lines[key])
            hex_id = self.hex(key_node, _join(path, key))
            if hex_id in first_line:
                self.fail(
                    key_node,
                    _join(path, key),
                    f"hex {hex_id} is listed twice (lines {first_line[hex_id]} and {key_node.line})",
                )
            first_line[hex_id] = key_node.line
            yield hex_id, value, _join(path, key)

    # -- sections

    def position(self, root) -> Position:
        if not isinstance(root, _Map):
            self.fail(
                root, "", f"the top level must be a mapping (name:, attacker:, units:, ...), got {_describe(root)}"
            )
        position_schema.check(root, self.file)
        top = root
        terrain, default_terrain, smoke = self.map_section(top.get("map"))
        blocked, clear, hindrance = self.los_section(top.get("los"))
        return self.sides_known(
            top,
            self.cross_check(
                Position(
                    file=self.file,
                    name=self.string(top["name"], "name"),
                    rules=self.optional(top, "rules", "current", lambda n, p: self.choice(n, p, self.versions)),
                    errata=self.errata(top.get("errata")),
                    readings=self.readings(top.get("readings")),
                    phase=str(top["phase"]) if _given(top.get("phase")) else "rout",
                    attacker=str(top["attacker"]),
                    no_quarter=_strings(top.get("no_quarter")),
                    notes=self.optional(top, "notes", None, self.string),
                    board=self.board,
                    area=self.area_corners,
                    boards=self.boards,
                    real=self.real,
                    default_terrain=default_terrain,
                    terrain=FrozenMap(terrain),
                    levels=FrozenMap(self.levels),
                    smoke=smoke,
                    los_blocked=blocked,
                    los_clear=clear,
                    los_hindrance=hindrance,
                    units=self.units(top.get("units")),
                    mopping_up=self.mopping_up(top.get("mopping_up")),
                    hexsides=FrozenMap(self.hexsides),
                    elr=self.elr(top.get("elr")),
                    massacred=_strings(top.get("massacred")),
                    close_combat=self.close_combat(top.get("close_combat")),
                    fire_effects=self.fire_effects(top.get("fire_effects")),
                    expect=_plain(top["expect"]) if _given(top.get("expect")) else None,
                )
            ),
        )

    def sides_known(self, top: _Map, pos: "Position") -> "Position":
        """A side named in no_quarter or massacred is the side of some unit
        (a misspelt side would silently change nothing)."""
        sides = {u.side for u in pos.units} | {pos.attacker}
        for key in ("no_quarter", "massacred"):
            for i, side in enumerate(getattr(pos, key)):
                if side not in sides:
                    self.fail(
                        top[key][i], f"{key}[{i}]", f"no unit is of side {side!r} (sides: {', '.join(sorted(sides))})"
                    )
        return pos

    def cross_check(self, pos: "Position") -> "Position":
        """References between units: a prisoner's Guard, CC participants, must
        exist. (Whether they are legal is a rules question: position_checks.lp.)"""
        pos = self.guarded(pos)
        by_id = {u.id: u for u in pos.units}
        for i, u in enumerate(pos.units):
            if u.guard is None:
                continue
            path = f"units[{i}].guard"
            g = by_id.get(u.guard)
            if g is None:
                raise PositionError(self.file, u.line, path, f"no unit {u.guard!r} to guard {u.id}")
            # a Guard on the prisoner's own side, elsewhere, or itself a prisoner
            # breaks A20.5: rules/core/position_checks.lp (asl_kb/engines/legality.py)
        for i, u in enumerate(pos.units):
            self.aboard(u, i, by_id)
        self.named(pos, by_id)
        return pos

    def guarded(self, pos: "Position") -> "Position":
        """`guarding: [P]` on a Guard is `guard: G` on each prisoner."""
        units = list(pos.units)
        for i, g in enumerate(pos.units):
            for j, pid in enumerate(g.guarding):
                k = next((k for k, u in enumerate(units) if u.id == pid), None)
                if k is None:
                    raise PositionError(self.file, g.line, f"units[{i}].guarding[{j}]", f"no unit {pid!r}")
                if units[k].guard not in (None, g.id):
                    raise PositionError(
                        self.file,
                        g.line,
                        f"units[{i}].guarding[{j}]",
                        f"{pid} already names {units[k].guard} as its Guard",
                    )
                units[k] = replace(units[k], guard=g.id)
        return replace(pos, units=tuple(units))

    def named(self, pos: "Position", by_id: dict) -> None:
        """The units a Close Combat and the fire effects name exist."""
        for i, cc in enumerate(pos.close_combat):
            for key in ("attackers", "defenders"):
                for j, uid in enumerate(getattr(cc, key)):
                    if uid not in by_id:
                        raise PositionError(self.file, cc.line, f"close_combat[{i}].{key}[{j}]", f"no unit {uid!r}")
            # CC across Locations or sides breaks A11.1: rules/core/position_checks.lp
        if pos.fire_effects is not None:
            for key in ("eliminated", "failed_mc"):
                for j, uid in enumerate(getattr(pos.fire_effects, key)):
                    if uid not in by_id:
                        raise PositionError(
                            self.file, pos.fire_effects.line, f"fire_effects.{key}[{j}]", f"no unit {uid!r}"
                        )

    def elr(self, node) -> tuple[tuple[str, int], ...]:
        return tuple((str(k), int(v)) for k, v in node.items()) if _given(node) else ()

    def close_combat(self, node) -> tuple[CloseCombat, ...]:
        if not _given(node):
            return ()
        out = []
        for m in node:
            out.append(
                CloseCombat(
                    attackers=_strings(m["attackers"]),
                    defenders=_strings(m["defenders"]),
                    capture=_flag(m.get("capture")),
                    hand_to_hand=_flag(m.get("hand_to_hand")),
                    line=m.line,
                    ambush=_flag(m.get("ambush")),
                )
            )
        return tuple(out)

    def fire_effects(self, node) -> FireEffects | None:
        if not _given(node):
            return None
        m = node
        return FireEffects(
            by=str(m["by"]),
            eliminated=_strings(m.get("eliminated")),
            failed_mc=_strings(m.get("failed_mc")),
            line=m.line,
            random_selection=self.random_selection(m.get("random_selection")),
        )

    def random_selection(self, node):
        if not _given(node):
            return None
        path = "fire_effects.random_selection"
        m = node
        return (self.hex(m["at"], _join(path, "at")), str(m["result"]))

    def mopping_up(self, node) -> tuple[str, ...]:
        if not _given(node):
            return ()
        return self.unique([self.hex(n, f"mopping_up[{i}]") for i, n in enumerate(node)], node, "mopping_up")

    def optional(self, mapping: _Map, key: str, default, convert, path: str = ""):
        node = mapping.get(key)
        return convert(node, _join(path, key)) if _given(node) else default

    def errata(self, node) -> tuple[tuple[str, bool], ...]:
        if not _given(node):
            return ()
        out = []
        for rule, value in node.items():
            known = switch_rules()
            if rule not in known:
                raise PositionError(
                    self.file,
                    node.key_lines[rule],
                    _join("errata", rule),
                    f"no erratum or reading switch for rule {rule!r} (rules with switches: {', '.join(sorted(known))})",
                )
            out.append((str(rule), _flag(value)))
        return tuple(out)

    def readings(self, node) -> tuple[tuple[str, bool], ...]:
        """Named switches of rules/core/versions.lp (SWITCH_KINDS), each on or off."""
        if not _given(node):
            return ()
        known = switch_names()
        out = []
        for name, value in node.items():
            if name not in known:
                raise PositionError(
                    self.file,
                    node.key_lines[name],
                    _join("readings", name),
                    f"unknown reading {name!r} (known: {', '.join(sorted(known))})",
                )
            out.append((str(name), _flag(value)))
        return tuple(out)

    def map_section(self, node):
        """Sets board, area, levels and hexsides; returns (terrain pairs, default terrain, smoke)."""
        self.hexsides = {}
        if not _given(node):
            return [], "open", ()
        m = node
        if _given(m.get("boards")):
            self.boards_section(m)
        if _given(m.get("board")):
            self.board = str(m["board"])
        default = str(m["default_terrain"]) if _given(m.get("default_terrain")) else "open"
        if _given(m.get("area")):
            self.set_area(m["area"], "map.area")
        terrain = []
        if _given(m.get("terrain")):
            terrain = [(h, self.hex_terrain(v, p, default)) for h, v, p in self.hex_keys(m["terrain"], "map.terrain")]
            self.painted = dict(terrain)
        if _given(m.get("levels")):
            self.set_levels(m["levels"], "map.levels", dict(terrain), default)
        smoke = ()
        if _given(m.get("smoke")):
            items = m["smoke"]
            smoke = self.unique([self.hex(n, f"map.smoke[{i}]") for i, n in enumerate(items)], items, "map.smoke")
        self.hexsides = self.hexsides_section(m.get("hexsides")) if _given(m.get("hexsides")) else {}
        return terrain, default, smoke

    def boards_section(self, m: _Map) -> None:
        """`map.boards`: the VASL boards that are the map (docs/real-boards.md),
        read from the VASL boards folder."""
        from asl_kb.vasl import archive
        from asl_kb.vasl.layout import BoardSpec
        from asl_kb.vasl.realmap import real_map

        for key in ("board", "area", "default_terrain", "levels"):
            if _given(m.get(key)):
                self.fail(
                    m[key],
                    f"map.{key}",
                    f"map.{key} and map.boards together: the boards are the map, their terrain and building "
                    "levels read from the board archives (crop a board, paint a hex in map.terrain)",
                )
        node = m["boards"]
        specs = []
        for i, item in enumerate(node):  # the schema checked the keys and values
            if isinstance(item, _Str):
                specs.append(BoardSpec(board=str(item), col=i, row=0))
                continue
            crop = None
            if _given(item.get("crop")):
                x, y, w, h = (int(v) for v in item["crop"])
                crop = (x, y, w, h)
            specs.append(
                BoardSpec(
                    board=str(item["board"]),
                    # (neither col nor row: the next column of row 0, as a name)
                    col=int(item.get("col") or (0 if _given(item.get("row")) else i)),
                    row=int(item.get("row") or 0),
                    reversed=_flag(item["reversed"]) if _given(item.get("reversed")) else False,
                    crop=crop,
                )
            )
        try:
            folder = archive.boards_folder()
            self.real = real_map(tuple(specs), folder)
        except AslKbError as e:
            self.fail(node, "map.boards", str(e))
        self.boards = tuple(specs)
        hexes = self.real.layout.hexes()
        self.area_corners = (hexes[0], hexes[-1])

    def hexsides_section(self, node) -> dict:
        """`map.hexsides`: {HEX-HEX: wall|hedge|bocage}, two ADJACENT hexes."""
        out: dict = {}
        for key, value in node.items():
            path = _join("map.hexsides", key)
            key_node = _str_at(key, node.key_lines[key])
            ends = str(key).split("-")
            if len(ends) != 2:
                self.fail(key_node, path, f"expected two hexes joined by '-', e.g. E5-E6, got {key!r}")
            a, b = (self.hex(_str_at(e.strip(), key_node.line), path) for e in ends)
            grid = self.real.layout if self.real is not None else hexgrid
            if not grid.adjacent(a, b):
                self.fail(key_node, path, f"{a} and {b} are not ADJACENT: no hexside between them")
            side = _side_key(a, b, self.real.layout if self.real is not None else None)
            if side in out:
                self.fail(key_node, path, f"the hexside {a}-{b} is listed twice")
            out[side] = str(value)
        return out

    def set_area(self, node, path: str) -> None:
        lo, hi = (self.hex(n, f"{path}[{i}]", check_area=False) for i, n in enumerate(node))
        try:
            self.area = hexgrid.Area(lo, hi)
        except ValueError as e:
            self.fail(node, path, f"bad area {lo}..{hi}: {e}")
        # Area accepts the corners in any order; keep them as (low, high).
        self.area_corners = (
            hexgrid.hex_id(self.area.lo_col, self.area.lo_row),
            hexgrid.hex_id(self.area.hi_col, self.area.hi_row),
        )

    def hex_terrain(self, node, path: str, default: str) -> HexTerrain:
        """A terrain name, [terrain, feature...], or {terrain, features, elevation, building}."""
        if isinstance(node, _Str):
            return HexTerrain(str(node))
        if isinstance(node, _Seq):
            return HexTerrain(str(node[0]), _strings(node[1:]))
        m = node
        name = str(m["terrain"]) if _given(m.get("terrain")) else default
        features = _strings(m.get("features"))
        building = self.optional(m, "building", None, self.string, path)
        if building is not None and name not in BUILDINGS:
            self.fail(
                m["building"],
                _join(path, "building"),
                f"a building id needs building terrain ({', '.join(BUILDINGS)}), not {name}",
            )
        elevation = int(m["elevation"]) if _given(m.get("elevation")) else 0
        return HexTerrain(name, features, elevation, building)

    def set_levels(self, node, path: str, terrain: dict[str, HexTerrain], default: str) -> None:
        for hex_id, value, vpath in self.hex_keys(node, path):
            name = terrain[hex_id].terrain if hex_id in terrain else default
            if name not in BUILDINGS:
                self.fail(value, vpath, f"{hex_id} has levels but its terrain is {name}, not a building")
            self.levels[hex_id] = int(value)

    def los_section(self, node):
        if not _given(node):
            return (), (), ()
        m = node
        blocked = self.los_pairs(m.get("blocked"), "los.blocked", 2)
        clear = self.los_pairs(m.get("clear"), "los.clear", 2)
        hindrance = self.los_pairs(m.get("hindrance"), "los.hindrance", 3)
        self.check_los_conflicts(m, [("blocked", blocked), ("clear", clear), ("hindrance", hindrance)])
        return blocked, clear, hindrance

    def los_pairs(self, node, path: str, width: int) -> tuple:
        if not _given(node):
            return ()
        out = []
        for i, item in enumerate(node):
            ipath = f"{path}[{i}]"
            a, b = (self.location_text(item[j], f"{ipath}[{j}]") for j in (0, 1))
            if a == b:
                self.fail(item, ipath, f"a LOS pair needs two different locations, got {a} twice")
            drm = (int(item[2]),) if width == 3 else ()
            out.append((a, b) + drm)
        return tuple(out)

    def location_text(self, node, path: str) -> str:
        # "M2" (every level of M2) and "M2@0" (ground level only) differ in
        # an override, so the "@N" is kept exactly when it was written.
        hex_id, level = self.location(node, path)
        return f"{hex_id}@{level}" if "@" in node else hex_id

    def check_los_conflicts(self, m: _Map, groups) -> None:
        """The same pair may not be both blocked and clear (or hindered)."""
        seen: dict[frozenset, str] = {}
        for name, pairs in groups:
            for i, pair in enumerate(pairs):
                key = frozenset(pair[:2])
                if key in seen and seen[key] != name:
                    self.fail(
                        m[name][i], f"los.{name}[{i}]", f"LOS {pair[0]}-{pair[1]} is also listed under los.{seen[key]}"
                    )
                seen.setdefault(key, name)

    # -- units

    def units(self, node) -> tuple[Unit, ...]:
        if not _given(node):
            return ()
        first_line: dict[str, int] = {}
        out = []
        for i, item in enumerate(node):
            unit = self.unit(item, f"units[{i}]")
            if unit.id in first_line:
                self.fail(
                    item["id"],
                    f"units[{i}].id",
                    f"duplicate unit id {unit.id!r} (lines {first_line[unit.id]} and {item['id'].line})",
                )
            first_line[unit.id] = item["id"].line
            out.append(unit)
        return tuple(out)

    def unit(self, node, path: str) -> Unit:
        u = node
        p = lambda key: _join(path, key)  # noqa: E731 - tiny path helper
        utype = TYPE_ALIASES.get(str(u["type"]), str(u["type"]))
        side = str(u["side"])
        hex_id, level = self.location(u["at"], p("at"))
        status = self.statuses(u, path, utype)
        numbers = self.unit_numbers(u, path, utype)
        unarmed = numbers.pop("unarmed") or utype == "unarmed" or "unarmed" in status
        self.only_for(u, path, "armament", utype, ("vehicle",))
        self.only_for(u, path, "vca", utype, ("vehicle",))
        self.only_for(u, path, "tca", utype, ("vehicle",))
        self.only_for(u, path, "ca", utype, ("gun",))
        self.only_for(u, path, "size", utype, ("unarmed",))
        self.only_for(u, path, "entrenched", utype, PERSONNEL_TYPES)
        number = lambda key: int(u[key]) if _given(u.get(key)) else None  # noqa: E731
        text = lambda key: str(u[key]) if _given(u.get(key)) else None  # noqa: E731
        return Unit(
            id=str(u["id"]),
            side=side,
            type=utype,
            counter=self.optional(u, "counter", None, self.string, path),
            hex=hex_id,
            level=level,
            status=status,
            sw=self.weapons(u.get("sw"), p("sw"), counters.SW_TABLE),
            armament=self.weapons(u.get("armament"), p("armament"), ARMAMENT),
            unarmed=unarmed,
            ca=number("ca"),
            vca=number("vca"),
            tca=number("tca"),
            nationality=text("nationality") or side,
            line=u.line,
            unit_class=text("class"),
            heat_of_battle=number("heat_of_battle"),
            guard=text("guard"),
            guarding=_strings(u.get("guarding")),
            passenger_of=text("passenger_of"),
            rider_of=text("rider_of"),
            size=TYPE_ALIASES.get(text("size") or "", text("size")),
            entrenched=_flag(u.get("entrenched")),
            **numbers,
        )

    def aboard(self, u: Unit, i: int, by_id: dict) -> None:
        """`passenger_of` / `rider_of` (Surrender Check note 5) name a vehicle:
        one of them, a vehicle that exists, ridden by Personnel. (In its
        Location, of its side or a prisoner with its Guard: rules the position
        may break, D6.1 and A20.51 in rules/core/position_checks.lp.)"""
        keys = [k for k in ("passenger_of", "rider_of") if getattr(u, k) is not None]
        if not keys:
            return
        if len(keys) > 1:
            raise PositionError(
                self.file,
                u.line,
                f"units[{i}].rider_of",
                f"{u.id} is either a Passenger (passenger_of) or a Rider (rider_of), not both",
            )
        key = keys[0]
        path, vid = f"units[{i}].{key}", getattr(u, key)
        if u.type in ("vehicle", "gun"):
            raise PositionError(self.file, u.line, path, f"only Personnel ride in or on a vehicle, not a {u.type}")
        v = by_id.get(vid)
        if v is None:
            raise PositionError(self.file, u.line, path, f"no unit {vid!r}")
        if v.type != "vehicle":
            raise PositionError(self.file, u.line, path, f"{vid} is a {v.type}, not a vehicle")

    def only_for(self, u: _Map, path: str, key: str, utype: str, types: tuple[str, ...]) -> None:
        if _given(u.get(key)) and utype not in types:
            self.fail(u[key], _join(path, key), f"{key} is only for {' or '.join(types)} units, not {utype}")

    def statuses(self, u: _Map, path: str, utype: str) -> tuple[str, ...]:
        if not _given(u.get("status")):
            return ()
        spath = _join(path, "status")
        status = _strings(u["status"])
        node = u["status"]
        # a wounded squad, an unbroken unit under DM or Disrupted break rules
        # (A17.11, A10.62, A19.12): rules/core/position_checks.lp
        if "crew_broken" in status and utype != "vehicle":
            self.fail(node, spath, f"crew_broken is the state of a vehicle's Inherent Crew, not of a {utype}")
        if "ce" in status and "bu" in status:
            self.fail(node, spath, "a vehicle is either ce or bu, not both")
        return status

    def unit_numbers(self, u: _Map, path: str, utype: str) -> dict:
        """fp, normal_range, morale, leadership, unarmed: counter first, explicit keys win."""
        nums: dict = {
            "fp": None,
            "normal_range": None,
            "morale": None,
            "leadership": None,
            "unarmed": False,
            "morale_given": _given(u.get("morale")),
        }
        counter = u.get("counter")
        cpath = _join(path, "counter")
        if _given(counter) and utype in INFANTRY_TYPES + ("leader",):
            text = self.string(counter, cpath)
            try:
                if utype == "leader":
                    parsed = counters.parse_leader(text)
                    nums.update(morale=parsed.morale, leadership=parsed.leadership)
                else:
                    parsed = counters.parse_infantry(text)
                    nums.update(
                        fp=parsed.fp, normal_range=parsed.normal_range, morale=parsed.morale, unarmed=parsed.unarmed
                    )
            except ValueError as e:
                self.fail(counter, cpath, str(e))
            # (a printed value is in the range of the key that would give it)
            for key, name in _NUMBER_KEYS.items():
                lo, hi = _unit_range(key)
                if nums[name] is not None and not lo <= nums[name] <= hi:
                    self.fail(counter, cpath, f"{key} {nums[name]} of counter {text!r} is out of range {lo}..{hi}")
        for key, name in _NUMBER_KEYS.items():
            if _given(u.get(key)):
                nums[name] = int(u[key])
        self.require_numbers(u, path, utype, nums)
        return nums

    def require_numbers(self, u: _Map, path: str, utype: str, nums: dict) -> None:
        if utype == "leader":
            needed, keys = ("morale", "leadership"), "morale and leadership"
        elif utype in INFANTRY_TYPES:
            needed, keys = ("fp", "normal_range", "morale"), "fp, range and morale"
        else:
            return
        if any(nums[n] is None for n in needed):
            self.fail(u, _join(path, "counter"), f"counter is required for a {utype} (or give {keys})")

    def weapons(self, node, path: str, table: Mapping[str, tuple[int, int]]) -> tuple[Weapon, ...]:
        """A list of kinds or of {kind, fp, range}; fp/range default from `table`."""
        if not _given(node):
            return ()
        out = []
        for i, item in enumerate(node):
            ipath = f"{path}[{i}]"
            m = None
            if isinstance(item, _Map):
                m = item
                item, ipath_kind = m["kind"], _join(ipath, "kind")
            else:
                ipath_kind = ipath
            kind = self.string(item, ipath_kind).lower()
            if kind not in table:
                self.fail(item, ipath_kind, f"unknown weapon {kind!r}; known: {', '.join(table)}")
            fp, rng = table[kind]
            if m is not None:
                fp = int(m["fp"]) if _given(m.get("fp")) else fp
                rng = int(m["range"]) if _given(m.get("range")) else rng
            out.append(Weapon(kind, fp, rng))
        return tuple(out)


#: the loader's checks, the base of another format read from the same tree
#: (a committee scope: asl_kb/committee/scope.py)
Schema = _Schema
