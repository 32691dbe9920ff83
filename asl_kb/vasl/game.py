"""A VASL saved game turned into a position: every unit on the boards with
its board-prefixed hex, identity and status (docs/vasl-games.md).

The save is decoded by asl_kb/vasl/save.py, each piece identified by
asl_kb/vasl/pieces.py, and placed by the boards' layout
(asl_kb/vasl/layout.py). Here the stacks are read as VASL stacks them:

* a stack is the pieces at one pixel of the map, from the bottom up;
* a marker (DM, CX, Pin, ..., a `?`) belongs to the units below it, up to
  the next marker below those units: in (squad, Pin, leader, CX) the squad is
  pinned and the leader CX; consecutive markers (squad, DM, CX) share their
  units. A DM marks only the broken units it covers (A10.62), a `?` only the
  units of its own nationality (VASL's Concealment.canConceal);
* a Building level marker puts the units above it on its level, up to the
  next level marker;
* a Support Weapon belongs to the unit directly beneath it (A4.43), else to
  the nearest unit of its nationality in the stack.

What the import cannot place or identify is a warning naming the piece and
where it is, never dropped silently.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from asl_kb.errors import SaveError
from asl_kb.position import schema as position_schema
from asl_kb.position.loader import STATUSES
from asl_kb.record import FrozenRecord, record
from asl_kb.vasl import pieces as vpieces
from asl_kb.vasl.pieces import NATIONS, Counter
from asl_kb.vasl.save import MAIN_MAPS, Piece, SavedGame, read_save

#: the Phase Track's phases -> the position's `phase`
PHASES = {
    "RPh": "rally",
    "PFPh": "prep_fire",
    "MPh": "movement",
    "DFPh": "defensive_fire",
    "AFPh": "advancing_fire",
    "RtPh": "rout",
    "APh": "advance",
    "CCPh": "close_combat",
}
#: counters of the game's record, not of the position: read by no rule of
#: the Rout Phase, left out without a word, as are the snipers and turn
#: tracks (any other counter that is no unit or marker read is named in a
#: warning: a Foxhole, a Wreck, ...)
INFORMATION = frozenset(
    {
        "User-Labeled",
        "Prep Fire",
        "First Fire",
        "Final Fire",
        "Acq",
        "Residual FP",
        "Reinf.",
        "EC",
        "Wind",
        "North",
        "Game Turn",
    }
)
#: ... and those whose names end so: snipers, turn tracks, the setup areas'
#: perimeters (`Blue perimeter`, `17-hex perimeter`)
RECORD_SUFFIXES = ("sniper", "turn track", "perimeter")
#: the counters of SMOKE (A24; WP is Smoke too, A24.3): `map.smoke`
SMOKE = ("Smoke", "WP")


@functools.cache
def _unit_id() -> re.Pattern:
    """What a unit id may be: the position schema's `unit_id` pattern (one
    definition for the format, the loader and the import)."""
    return re.compile(position_schema.schema()["definitions"]["unit_id"]["pattern"])


@record(frozen=True)
class Placed(FrozenRecord):
    """A unit of the game: its piece, what it is, where (hex, level) and its
    status (its own and its markers'), the SW it holds."""

    piece: Piece
    counter: Counter
    hex: str
    level: int
    status: tuple[str, ...]
    sw: tuple[str, ...] = ()


@record(frozen=True)
class Reading(FrozenRecord):
    """The units of a game read off its stacks, with the warnings."""

    units: tuple[Placed, ...]
    warnings: tuple[str, ...]
    smoke: tuple[str, ...] = ()
    phase_track: tuple[str, str] | None = None  # (player side, phase) the Phase Track shows


#: a map pixel -> (hex, None) on a board, or (None, why not)
Locate = Callable[[int, int], tuple[str | None, str | None]]


def describe(piece: Piece, where: str, counter: Counter | None = None) -> str:
    """A piece as a warning names it: its palette name (else its image), the
    printed values the name does not show (`'ruLDR' (9-1)`), and where."""
    shown = piece.name.strip() or piece.image.strip() or "a piece"
    values = counter.values if counter is not None and counter.is_unit else None
    extra = f" ({values})" if values and values not in shown else ""
    return f"{shown!r}{extra} at {where}"


def stacks_of(game: SavedGame) -> list[tuple[int, int, list[Piece]]]:
    """The stacks on the main map, each (x, y, pieces from the bottom up),
    in the save's order; a piece on the map in no stack is a stack of its
    own. Several stacks at one pixel are one (the later above)."""
    by_id = {p.id: p for p in game.pieces}
    out: dict[tuple[int, int], list[Piece]] = {}
    stacked: set[str | None] = set()
    for s in game.stacks:
        if s.map not in MAIN_MAPS:
            stacked.update(s.pieces)
            continue
        members = [by_id[i] for i in s.pieces if i in by_id]
        stacked.update(s.pieces)
        if members:
            out.setdefault((s.x, s.y), []).extend(members)
    for p in game.pieces:
        if p.id not in stacked and p.map in MAIN_MAPS:
            out.setdefault((p.x, p.y), []).append(p)
    return [(x, y, ps) for (x, y), ps in out.items()]


def read_stacks(game: SavedGame, locate: Locate) -> Reading:
    """Every unit on the boards, placed, identified and with its status."""
    units: list[Placed] = []
    warnings: list[str] = []
    smoke: list[str] = []
    unread: dict[str, list[str]] = {}  # counters neither unit nor marker read, by name: their hexes
    track = None
    for x, y, stack in stacks_of(game):
        counters = [vpieces.identify(p) for p in stack]
        if any(c.kind == "phase" for c in counters):
            track = _phase_track(stack[[c.kind for c in counters].index("phase")])
        if all(_of_the_record(p, c) for p, c in zip(stack, counters)):
            continue
        hex_id, why = locate(x, y)
        if hex_id is None:
            for p, c in zip(stack, counters):
                if c.is_unit or c.kind in ("unknown", "sw"):
                    warnings.append(f"{describe(p, f'({x}, {y})', c)}: {why}: not imported")
            continue
        placed, notes = _read_stack(stack, counters, hex_id)
        units += placed
        warnings += notes
        for p, c in zip(stack, counters):
            name = p.name.strip()
            if c.kind != "other" or _of_the_record(p, c):
                continue
            if name in SMOKE:
                smoke.append(hex_id)
            else:
                unread.setdefault(name or p.image.strip(), []).append(hex_id)
    for name, hexes in unread.items():
        warnings.append(f"{name!r} at {', '.join(dict.fromkeys(hexes))}: a counter the import does not read")
    return Reading(tuple(units), tuple(warnings), tuple(dict.fromkeys(smoke)), track)


def _of_the_record(piece: Piece, c: Counter) -> bool:
    """A counter of the game's record (the Phase Track, a label, a turn
    track, a sniper, ...): left out without a word."""
    name = piece.name.strip()
    return c.kind == "phase" or (c.kind == "other" and (name in INFORMATION or name.lower().endswith(RECORD_SUFFIXES)))


def _phase_track(piece: Piece) -> tuple[str, str] | None:
    """(player side, phase) the Phase Track shows."""
    player = phase = None
    for layer in vpieces.layers(piece):
        shown = layer.level_name()
        if layer.name == "Player":
            player = shown.replace("+", "").strip().lower()
        elif layer.name == "PhaseName":
            phase = shown.replace("+-", "").replace("+", "").strip()
    if player is None or phase is None:
        return None
    return player, phase


@dataclass
class _Unit:
    """A unit of a stack being read: its status and SW grow as markers and
    weapons are met."""

    piece: Piece
    counter: Counter
    level: int
    status: list[str]
    sw: list[str] = field(default_factory=list)


def _read_stack(stack: Sequence[Piece], counters: Sequence[Counter], hex_id: str) -> tuple[list[Placed], list[str]]:
    """The units of one stack (bottom up): each one's level, the markers over
    it, the SW it holds."""
    warnings: list[str] = []
    units: list[_Unit] = []
    group: list[_Unit] = []  # the units the next marker covers
    closed = False  # a marker has been met since the group's last unit
    level = 0
    weapons: list[tuple[int, Piece, Counter]] = []  # (units below it, piece, counter)
    for piece, c in zip(stack, counters):
        if c.is_unit:
            u = _Unit(piece, c, level, list(c.status))
            if closed:
                group, closed = [], False
            group.append(u)
            units.append(u)
        elif c.kind == "level":
            level = _level(piece, c, hex_id, warnings)
        elif c.kind in ("marker", "concealment"):
            _mark(piece, c, group, hex_id, warnings)
            closed = True
        elif c.kind == "sw":
            weapons.append((len(units), piece, c))
        elif c.kind == "unknown":
            warnings.append(f"{describe(piece, hex_id)}: {c.why}: not imported")
    for below, piece, c in weapons:
        holder = _holder(units, below, c)
        if holder is None:
            warnings.append(f"{describe(piece, hex_id)}: a {c.values} with no unit of its own to hold it: not imported")
        else:
            holder.sw.append(str(c.values))
    out = []
    for u in units:
        if u.level < 0:
            warnings.append(f"{describe(u.piece, hex_id, u.counter)}: on a roof or in a cellar: not imported")
            continue
        out.append(Placed(u.piece, u.counter, hex_id, u.level, tuple(dict.fromkeys(u.status)), tuple(u.sw)))
    return out, warnings


def _level(piece: Piece, c: Counter, hex_id: str, warnings: list[str]) -> int:
    """The level a Building level marker puts the units above it on (-1: a
    roof or a cellar, which the position has no Location for)."""
    if c.level is None or c.level < 0:
        where = "a roof" if c.level is None else "a cellar"
        warnings.append(f"{describe(piece, hex_id)}: {where} is not a Location the position has")
        return -1
    return c.level


def _mark(piece: Piece, c: Counter, group: list[_Unit], hex_id: str, warnings: list[str]) -> None:
    """A marker's status on the units it covers."""
    if c.kind == "concealment":
        covered = [u for u in group if u.counter.nation == c.nation or c.nation is None]
        if not covered:
            warnings.append(f"{describe(piece, hex_id)}: a ? over no unit of its nationality (a Dummy): not imported")
        for u in covered:
            if "broken" not in u.status:
                u.status.append("concealed")
        return
    status = c.status[0]
    covered = [u for u in group if _marks(status, u)]
    if not covered:
        warnings.append(f"{describe(piece, hex_id)}: over no unit it can mark: not read")
    for u in covered:
        u.status.append(status)


#: the markers a vehicle or Gun carries (the rest are Personnel's)
_VEHICLE_MARKERS = ("motion", "melee", "encircled")


def _marks(status: str, u: _Unit) -> bool:
    """Whether a marker of this status marks this unit of its group: DM a
    broken unit (A10.62), Motion a vehicle, the others Personnel."""
    if status == "dm":
        return "broken" in u.status
    if u.counter.kind in ("vehicle", "gun"):
        return status in _VEHICLE_MARKERS
    return status != "motion"


def _holder(units: list[_Unit], below: int, weapon: Counter) -> _Unit | None:
    """The unit holding a SW: the one directly beneath it, else the nearest
    of its nationality below it, else above it."""
    own = [u for u in units if u.counter.nation == weapon.nation and u.counter.kind not in ("vehicle", "gun")]
    if below and units[below - 1] in own:
        return units[below - 1]
    under = [u for u in own if units.index(u) < below]
    if under:
        return under[-1]
    over = [u for u in own if units.index(u) >= below]
    return over[0] if over else None


# ---------------------------------------------------------------- sides and ids


def sides(units: Sequence[Placed]) -> dict[str, str]:
    """Each nationality code's side name: a player side (axis, allied) whose
    units are of one nationality (SS counted as German) is named by it,
    one of several by the player side."""
    by_player: dict[str, set[str]] = {}
    for u in units:
        code = u.counter.nation or "??"
        side, _nat, player = NATIONS.get(code, (code, code, "allied"))
        by_player.setdefault(player, set()).add(side)
    out = {}
    for code, (side, _nat, player) in NATIONS.items():
        names = by_player.get(player, set())
        out[code] = side if len(names) <= 1 else player
    return out


def unit_ids(units: Sequence[Placed]) -> list[str]:
    """Each unit's id: the label the player wrote on its counter (made a
    unit id: letters, digits, `_ . -`), else its nationality and a number
    (RU1, GE2, ...); unique in the game."""
    taken: set[str] = set()
    counts: dict[str, int] = {}
    out = []
    for u in units:
        want = None
        if u.counter.label:
            want = re.sub(r"[^A-Za-z0-9_.\-]+", "_", u.counter.label.strip()).strip("_.-")[:36] or None
        if want is None or not _unit_id().fullmatch(want):
            code = (u.counter.nation or "xx").upper()
            n = counts.get(code, 0)
            while True:
                n += 1
                want = f"{code}{n}"
                if want not in taken:
                    break
            counts[code] = n
        base, k = want, 1
        while want in taken:
            k += 1
            want = f"{base}-{k}"
        taken.add(want)
        out.append(want)
    return out


# ---------------------------------------------------------------- the game


@record(frozen=True)
class Imported(FrozenRecord):
    """A game read as a position: its YAML tree (what `asl-kb import`
    writes) and what the import could not read."""

    file: str
    tree: dict
    warnings: tuple[str, ...]

    @property
    def text(self) -> str:
        """The position as the YAML file `asl-kb import` writes."""
        return position_text(self)


def _board_descs(bd: str | None) -> list[str]:
    """The board descriptions of a `bd` command (ASLBoardPicker.decode)."""
    if not bd or bd.strip() == "bd":
        return []
    return [d for d in bd[3:].split("bd\t") if d.strip()]


def _terrain_changes(desc: str) -> tuple[list[str], list[str]]:
    """(overlays, SSRs) a board description names: `OVR NAME HEX1 HEX2`
    (VASL's Overlay.toString) and `SSR ...` (its terrain changes)."""
    tokens = desc.split("\t")
    overlays = []
    for i, t in enumerate(tokens):
        if t == "OVR" and i + 1 < len(tokens):
            overlays.append(" ".join(x for x in tokens[i + 1 : i + 4] if x))
    ssr: list[str] = []
    if "SSR\t" in desc:
        rest = desc.split("SSR\t", 1)[1].split("\tZOOM\t")[0]
        ssr = [s for s in re.split(r"[\t\s]+", rest) if s]
    return overlays, ssr


class AttackerUnknown(SaveError):
    """A save that does not say whose Player Turn it is, read without an
    ATTACKER given: `sides` are the choices (the game's sides, axis,
    allied) -- `serve` asks the player, the CLI says --attacker."""

    def __init__(self, file: str, message: str, sides: tuple[str, ...] = ()):
        super().__init__(file, message)
        self.sides = sides

    def __reduce__(self):
        return (type(self), (self.file, self.message, self.sides))


def read_game(
    source: str | os.PathLike | bytes,
    *,
    name: str | None = None,
    boards: str | os.PathLike | None = None,
    attacker: str | None = None,
) -> Imported:
    """A VASL saved game read as a position (docs/vasl-games.md): `source`
    is the .vsav's path or its bytes (`name` then names it, e.g. an upload's
    file name); its boards come from the VASL boards folder (`boards`:
    --vasl-boards, else the environment or config file); every unit on them
    placed, identified and with its status. `attacker`: the ATTACKER side (a
    side of the position, or axis/allied) where the save's Phase Track does
    not say whose Player Turn it is (AttackerUnknown when neither does).
    The result's `tree` is the position, `text` its YAML, `warnings` what
    the import did not read. SaveError (exit 2) for a save or boards folder
    it cannot read."""
    from asl_kb.vasl.archive import BoardError, boards_folder, open_board
    from asl_kb.vasl.layout import BoardSpec, Layout, edge_buffer

    game = read_save(source, name)
    file = game.file
    descs = _board_descs(game.boards)
    if not descs:
        raise SaveError(file, "the game has no boards (its board picker's bd command names none)")
    warnings: list[str] = []
    pairs = []
    try:
        folder = boards_folder(boards)
        specs = [BoardSpec.from_vasl(desc) for desc in descs]
        archives = [open_board(folder, spec.board) for spec, _ in specs]
    except BoardError as e:
        raise SaveError(file, str(e)) from None
    for desc, (spec, version), archive in zip(descs, specs, archives):
        if version and archive.version and version != archive.version:
            warnings.append(
                f"board {archive.prefix}: the game was saved with version {version}, the folder holds {archive.version}"
            )
        overlays, ssr = _terrain_changes(desc)
        for o in overlays:
            warnings.append(f"board {archive.prefix}: overlay {o} not read: its terrain is the bare board's")
        if ssr:
            warnings.append(f"board {archive.prefix}: scenario rules changing terrain not applied: {', '.join(ssr)}")
        pairs.append((spec, archive))
    if not game.vasl_version:
        warnings.append("the save names no VASL version: its map read as VASL before 6.2 lays it out (edge 200 px)")
    try:
        layout = Layout(pairs, edge_buffer(game.vasl_version))
    except BoardError as e:
        raise SaveError(file, str(e)) from None

    def locate(x: int, y: int) -> tuple[str | None, str | None]:
        spot = layout.locate(x, y)
        if spot is None:
            return None, "off the boards (in the map's margin)"
        return spot.hex, None

    reading = read_stacks(game, locate)
    warnings += reading.warnings
    warnings = _counted(warnings)
    tree = _tree(game, layout, reading, attacker, warnings)
    return Imported(file, tree, tuple(warnings))


def _counted(warnings: list[str]) -> list[str]:
    """The warnings once each, in order, a repeated one counted (three
    squads stacked in the margin: `3 x '4-4-7 sq' at (x, y): ...`)."""
    counts: dict[str, int] = {}
    for w in warnings:
        counts[w] = counts.get(w, 0) + 1
    return [w if n == 1 else f"{n} x {w}" for w, n in counts.items()]


def _attacker(reading: Reading, side_of: dict[str, str], present: set[str], given: str | None, file: str) -> str:
    """The ATTACKER's side: `given` (a side, or axis/allied), else the player
    whose turn the Phase Track shows."""
    players: dict[str, str] = {}
    for code, (_side, _nat, player) in NATIONS.items():
        if side_of.get(code) in present:
            players.setdefault(player, side_of[code])
    if given is not None:
        want = given.strip().lower()
        if want in present:
            return want
        if want in ("axis", "allied"):  # (the ATTACKER need not own a unit)
            return players.get(want, want)
        raise SaveError(
            file,
            f"--attacker {given}: no such side in the game (its sides: {', '.join(sorted(present | {'axis', 'allied'}))})",
        )
    if reading.phase_track is None:
        choices = tuple(sorted(present | set(players)))
        raise AttackerUnknown(
            file,
            "the save does not say whose Player Turn it is (no Phase Track on the map): "
            f"give --attacker SIDE ({', '.join(choices)})",
            choices,
        )
    # (the Korean War's track names UN and Communist: read as allied and axis)
    player = {"un": "allied", "communist": "axis"}.get(reading.phase_track[0], reading.phase_track[0])
    return players.get(player, player)


#: the statuses a unit of the position may carry, per kind (a vehicle's CE/BU
#: and Motion; an SMC's wound)
_VEHICLE_ONLY = ("ce", "bu")
_SMC = ("leader", "hero")


def _unit_entry(u: Placed, uid: str, side_of: dict[str, str]) -> dict:
    c = u.counter
    code = c.nation or "xx"
    side = side_of.get(code, code)
    nationality = NATIONS[code][1] if code in NATIONS else side
    status = {s for s in u.status if (s not in _VEHICLE_ONLY or c.kind == "vehicle")}
    if c.kind not in _SMC:
        status.discard("wounded")
    if "hidden" in status:
        status.add("concealed")  # A12.3: a hidden unit is concealed too
    entry: dict = {"id": uid, "side": side, "type": c.kind, "counter": c.values}
    entry["at"] = u.hex if u.level == 0 else f"{u.hex}@{u.level}"
    if status:
        entry["status"] = [s for s in STATUSES if s in status]
    if u.sw:
        entry["sw"] = list(u.sw)
    if nationality != side:
        entry["nationality"] = nationality
    if c.unit_class:
        entry["class"] = c.unit_class
    return entry


def _elr(info: tuple[str, ...] | None, players: dict[str, str]) -> dict[str, int]:
    """Each side's ELR, where the save's scenario information gives one
    (VASL's ScenInfo: Axis ELR, Axis SAN, Allied ELR, Allied SAN)."""
    out = {}
    if info and len(info) > 5:
        for player, text in (("axis", info[3]), ("allied", info[5])):
            t = text.strip()
            if t.isdigit() and int(t) <= 6 and player in players:
                out[players[player]] = int(t)
    return out


def _tree(game: SavedGame, layout, reading: Reading, attacker: str | None, warnings: list[str]) -> dict:
    """The position's YAML tree."""
    units = list(reading.units)
    side_of = sides(units)
    present = {side_of.get(u.counter.nation or "xx", u.counter.nation or "xx") for u in units}
    players: dict[str, str] = {}
    for code, (_s, _n, player) in NATIONS.items():
        if side_of.get(code) in present:
            players.setdefault(player, side_of[code])
    attacker_side = _attacker(reading, side_of, present, attacker, game.file)
    ids = unit_ids(units)
    tree: dict = {"name": f"VASL game {os.path.basename(game.file)}", "attacker": attacker_side}
    if reading.phase_track is not None and reading.phase_track[1] in PHASES:
        tree["phase"] = PHASES[reading.phase_track[1]]
    elr = _elr(game.info, players)
    if elr:
        tree["elr"] = elr
    if any(u.counter.kind == "vehicle" for u in units):
        warnings.append(
            "vehicles are imported without armament or Covered Arcs (VASL's counter art holds them): "
            "add armament, vca and tca where they may Interdict (A10.532)"
        )
    boards = []
    for b in layout.boards:
        entry: dict = {"board": b.prefix, "col": b.spec.col, "row": b.spec.row}
        if b.spec.reversed:
            entry["reversed"] = "yes"
        if b.spec.crop is not None:
            entry["crop"] = list(b.spec.crop)
        boards.append(entry)
    tree["map"] = {"boards": boards}
    if reading.smoke:
        tree["map"]["smoke"] = list(reading.smoke)
    tree["units"] = [_unit_entry(u, uid, side_of) for u, uid in zip(units, ids)]
    version = f"VASL {game.vasl_version}" if game.vasl_version else "VASL"
    tree["notes"] = f"Imported from {os.path.basename(game.file)} ({version}) by asl-kb import." + (
        "".join(f"\n- {w}" for w in warnings) if warnings else ""
    )
    return tree


# ---------------------------------------------------------------- the YAML

_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+\-/()* ]*")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
#: the order of a unit's keys in the file, as docs/position-format.md writes them
_UNIT_KEYS = ("id", "side", "type", "counter", "at", "status", "sw", "nationality", "class")


def _scalar(value) -> str:
    """A YAML scalar the loader reads back as written: plain where that is
    unambiguous in a flow mapping, else double-quoted."""
    text = _CONTROL.sub("?", str(value))
    if _PLAIN.fullmatch(text) and not text.endswith(" ") and ": " not in text:
        return text
    import json

    return json.dumps(text, ensure_ascii=False)


def _flow(value) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _scalar(value)


def position_text(imported: Imported) -> str:
    """The position as YAML a player reads and edits: the header, the map,
    then one unit a line."""
    t = imported.tree
    out = [f"# {os.path.basename(imported.file)} read by asl-kb import: an ordinary position file, edit it freely"]
    for key in ("name", "attacker", "phase"):
        if key in t:
            out.append(f"{key}: {_scalar(t[key])}")
    if "elr" in t:
        out.append(f"elr: {_flow(t['elr'])}")
    out.append("notes: |")
    out += [f"  {_CONTROL.sub('?', line)}" for line in t["notes"].splitlines()]
    out.append("map:")
    m = t["map"]
    out.append("  boards:")
    out += [f"    - {_flow(b)}" for b in m["boards"]]
    if "smoke" in m:
        out.append(f"  smoke: {_flow(m['smoke'])}")
    out.append("units:" if t["units"] else "units: []")
    for u in t["units"]:
        out.append(f"  - {_flow({k: u[k] for k in _UNIT_KEYS if k in u})}")
    return "\n".join(out) + "\n"


def load_game(path, boards: str | os.PathLike | None = None, attacker: str | None = None):
    """A saved game as a Position (what `outcomes GAME.vsav` and `serve`
    read): read_game, then the loader on its text."""
    from asl_kb.position.loader import load_position_text
    from asl_kb.vasl.archive import use_folder

    if boards is not None:  # the loader reads the boards from the folder too
        use_folder(boards)
    imported = read_game(path, boards=boards, attacker=attacker)
    return load_position_text(imported.text, imported.file), imported
