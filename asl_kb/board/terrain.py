"""Standard ASL terrain values: one documented data table.

These values are not in the project's rule sources; they are standard ASL
Terrain Chart values, each with its rule number.  docs/terrain-table.md shows
the same table.  This module is data plus two small cost helpers; the rout
decisions themselves are made by the ASP rules.

Hex terrain objects are duck-typed: anything with the attributes
``terrain`` (a TERRAIN key), ``features`` (FEATURES keys), ``elevation``
(hill level of the ground) and ``building`` (building id or None) works,
e.g. :class:`asl_kb.position.HexTerrain`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Optional, Protocol

from asl_kb.record import FrozenRecord, record

__all__ = [
    "TerrainType",
    "FeatureType",
    "TERRAIN",
    "FEATURES",
    "HexsideType",
    "HEXSIDES",
    "hexside_type",
    "LEVEL_CHANGE_MF",
    "HILL_CLIMB_FACTOR",
    "SMOKE_HINDRANCE",
    "VEHICLE_HINDRANCE",
    "HINDRANCE_BLOCKS_AT",
    "HexTerrainLike",
    "terrain_type",
    "feature_type",
    "enter_cost",
    "fortification_extra",
    "is_open_ground",
    "rout_cover",
    "hindrance_of",
]

LOS_CLASSES = ("clear", "hinder", "block")
ROUT_COVER = ("building", "woods")


@record(frozen=True)
class TerrainType(FrozenRecord):
    """One kind of hex terrain.

    mf            MF for Infantry to enter (None: "ALL" MF / no fixed cost).
    tem           Terrain Effects Modifier vs direct fire.
    los           "clear", "hinder" (a LOS Hindrance) or "block" (a LOS obstacle).
    hindrance     Hindrance DRM when ``los == "hinder"`` (0 otherwise).
    og_possible   Can be Open Ground, i.e. -1 FFMO / Interdiction can apply.
                  Grain, brush, orchard and marsh are not Open Ground.
    rout_cover    A10.51 rout-destination class: "building", "woods" or None
                  (data only; the ASP decides).
    passable_rout False where a routing unit cannot go ("not traversable").
    rule          The ASL rule section.
    """

    name: str
    mf: Optional[Fraction]
    tem: int
    los: str
    hindrance: int
    og_possible: bool
    rout_cover: Optional[str]
    passable_rout: bool
    rule: str
    note: str = ""

    def __post_init__(self) -> None:
        if self.los not in LOS_CLASSES:
            raise ValueError(f"{self.name}: los must be one of {LOS_CLASSES}")
        if self.rout_cover is not None and self.rout_cover not in ROUT_COVER:
            raise ValueError(f"{self.name}: rout_cover must be one of {ROUT_COVER} or None")


@record(frozen=True)
class FeatureType(FrozenRecord):
    """A counter/feature in a hex (fortification, SMOKE, wreck, ...).

    extra_mf      Extra MF.  For fortifications it is the optional cost of
                  getting into the fortification (never part of
                  :func:`enter_cost`); for SMOKE it is part of the COT.
    tem           TEM it gives (0 if none).
    hindrance     LOS Hindrance DRM of the hex it is in (0 if none).
    fortification True for foxholes/trenches/pillboxes/shellholes: entering
                  them is left out of the nearest-building MF count (A10.531).
    rout_cover    "building" if it counts as a building for rout (pillbox).
    passable_rout False where a routing unit cannot go (Blaze).
    entrenchment  True for the entrenchments of B27 (foxholes, trenches): a
                  unit may be in it, Entrenched (A10.531 EX), and leaves it
                  for as many MF as getting in.
    """

    name: str
    extra_mf: Fraction
    tem: int
    hindrance: int
    fortification: bool
    rout_cover: Optional[str]
    passable_rout: bool
    rule: str
    note: str = ""
    entrenchment: bool = False


F = Fraction


# ---------------------------------------------------------------- terrain

TERRAIN: dict[str, TerrainType] = {
    row[0]: TerrainType(*row)
    for row in (
        # B1: Open Ground. 1 MF, no TEM; -1 FFMO applies.
        ("open", F(1), 0, "clear", 0, True, None, True, "B1", "Open Ground: -1 FFMO/Interdiction can apply"),
        # B3: roads are Open Ground for Infantry (road bonus / half-MP vehicle rate not modelled).
        ("road", F(1), 0, "clear", 0, True, None, True, "B3", "Open Ground; road bonus not modelled"),
        # B13: woods, a one-level LOS obstacle; TEM +1; 2 MF.
        ("woods", F(2), 1, "block", 0, False, "woods", True, "B13", "one-level LOS obstacle"),
        ("forest", F(2), 1, "block", 0, False, "woods", True, "B13", "same as woods"),
        # B23: buildings, LOS obstacle (height = levels); TEM +3 stone, +2 wooden; 2 MF.
        ("building", F(2), 3, "block", 0, False, "building", True, "B23", "construction unknown: stone values (+3)"),
        ("stone_building", F(2), 3, "block", 0, False, "building", True, "B23", "stone TEM +3"),
        ("wooden_building", F(2), 2, "block", 0, False, "building", True, "B23", "wooden TEM +2"),
        # B24: rubble. 3 MF. Stone rubble TEM +3, wooden +2: the position does not say the
        # material, so the lower value +2 is used. Rubbled building Locations are not
        # building Locations for rout purposes (rout_cover None).
        (
            "rubble",
            F(3),
            2,
            "block",
            0,
            False,
            None,
            True,
            "B24",
            "TEM +2 used (stone rubble is +3); not a building Location for rout",
        ),
        # B15: grain (in season): +1 Hindrance, TEM 0, 1.5 MF, not Open Ground.
        (
            "grain",
            F(3, 2),
            0,
            "hinder",
            1,
            False,
            None,
            True,
            "B15",
            "in season; in-hex Hindrance negates FFMO (A10.531 EX)",
        ),
        # B12: brush: +1 Hindrance, no TEM (B12.3), 2 MF, not Open Ground.
        ("brush", F(2), 0, "hinder", 1, False, None, True, "B12", "no TEM but not Open Ground (B12.3)"),
        # B14: orchard: +1 Hindrance (obstacle to higher LOS in season: not modelled), TEM 0, 1 MF.
        ("orchard", F(1), 0, "hinder", 1, False, None, True, "B14", "not Open Ground"),
        # B16: marsh: +1 Hindrance (B16.2), no TEM, entry costs ALL MF (B16.4).
        ("marsh", None, 0, "hinder", 1, False, None, False, "B16", "entry costs ALL MF (B16.4)"),
        # B21: water obstacle: not enterable by Infantry on foot.
        ("water", None, 0, "clear", 0, False, None, False, "B21", "not enterable on foot"),
        # B20: stream: cost depends on depth (B20.4); treated as not traversable for rout.
        ("stream", None, 0, "clear", 0, False, None, False, "B20", "depth-dependent cost; not traversable here"),
        # B11: cliff (really a hexside): needs Climbing; not traversable for rout.
        ("cliff", None, 0, "clear", 0, False, None, False, "B11", "Climbing only"),
    )
}


# ---------------------------------------------------------------- features


FEATURES: dict[str, FeatureType] = {
    row[0]: FeatureType(*row)
    for row in (
        # B27: foxhole: TEM +2; 1 MF to get in or out (B27.4); the hex is Open
        # Ground for a unit that pays only the minimum MF (A10.531).
        ("foxhole", F(1), 2, 0, True, None, True, "B27", "1 MF to enter or exit; TEM +2 (+4 vs indirect fire)", True),
        ("entrenchment", F(1), 2, 0, True, None, True, "B27", "same as foxhole", True),
        # B27.5: trench: TEM +2 like a foxhole; 1 MF to enter or exit.
        ("trench", F(1), 2, 0, True, None, True, "B27.5", "1 MF to enter or exit; TEM +2", True),
        # B2: shellholes: +1 TEM only to a unit that spends 1 extra MF; otherwise Open Ground.
        ("shellhole", F(1), 1, 0, True, None, True, "B2", "Open Ground if entered for 1 MF"),
        # B30: pillbox: counts as a building for rout (A10.531, flowchart note 12).
        ("pillbox", F(1), 3, 0, True, "building", True, "B30", "1 MF to enter; TEM +3 and up"),
        # D10: wreck: +1 LOS Hindrance.
        ("wreck", F(0), 0, 1, False, None, True, "D10", "+1 LOS Hindrance"),
        # A24: SMOKE: +2 Hindrance (grenade/Dispersed value); +1 MF to enter in MPh/RtPh
        # (A24.7, part of the COT, B.2). SMOKE negates Interdiction.
        ("smoke", F(1), 0, 2, False, None, True, "A24", "+1 MF to enter (A24.7); +2 Hindrance"),
        # B25: Blaze: cannot be entered; its smoke hinders LOS like +3 SMOKE.
        ("blaze", F(0), 0, 3, False, None, False, "B25", "not enterable; +3 smoke Hindrance"),
        # Data flags only.
        ("wire", F(0), 0, 0, False, None, True, "B26", "data flag"),
        ("minefield", F(0), 0, 0, False, None, True, "B28", "data flag"),
        ("ffe", F(0), 0, 0, False, None, True, "C1", "OBA Fire For Effect: data flag"),
    )
}

# ---------------------------------------------------------------- hexsides


@record(frozen=True)
class HexsideType(FrozenRecord):
    """Terrain along a hexside (wall, hedge, bocage): it lies between two
    hexes and belongs to both.

    tem           TEM it gives a unit in either hex against fire whose LOS
                  crosses it into that hex (the -1 FFMO DRM then does not
                  apply: no Open Ground for that firer, A10.531).
    crossing_mf   MF an Infantry unit pays, on top of the COT of the hex
                  entered, to cross it (None: a rout does not cross it).
    obstacle      LOS obstacle height in levels above the ground: 0.5 a
                  half-level obstacle (blocks LOS between two Locations at
                  its own level), 1 a one-level obstacle.
    """

    name: str
    tem: int
    crossing_mf: Optional[Fraction]
    obstacle: Fraction
    rule: str
    note: str = ""


HEXSIDES: dict[str, HexsideType] = {
    h.name: h
    for h in (
        # The Chapter B Terrain Chart, row by row: LOS obstacle, TEM (direct
        # fire / vs Indirect Fire), Infantry MF to cross.
        # "9. Wall | Half Level | +2/+1 | 1 & COT"
        HexsideType("wall", 2, F(1), F(1, 2), "B9", "half-level obstacle; TEM +2 (+1 vs Indirect Fire); 1 MF & COT"),
        # "9. Hedge | Half Level | +1/0 | 1 & COT"
        HexsideType("hedge", 1, F(1), F(1, 2), "B9", "half-level obstacle; TEM +1 (0 vs Indirect Fire); 1 MF & COT"),
        # "9.5 Bocage | Level 1 | +2/+1 | 2 & COT": a one-level obstacle, the
        # TEM of a wall, two MF and the COT to cross.
        HexsideType("bocage", 2, F(2), F(1), "B9.5", "one-level obstacle; TEM +2 (+1 vs Indirect Fire); 2 MF & COT"),
        # B11.2: a cliff hexside is crossed only by Climbing (B11.4): no rout
        # crosses it. Read off VASL boards; its LOS is the boards'.
        HexsideType("cliff", 0, None, F(0), "B11", "crossed only by Climbing (B11.4): not by a rout"),
        # B23.71: a rowhouse's inner wall (the dark bar between two of its
        # hexes) cannot be crossed. Read off VASL boards.
        HexsideType("rowhouse_wall", 0, None, F(0), "B23.71", "a rowhouse's inner wall: not crossed"),
    )
}


def hexside_type(name: str) -> HexsideType:
    try:
        return HEXSIDES[name]
    except KeyError:
        raise ValueError(f"unknown hexside terrain {name!r}; known: {', '.join(HEXSIDES)}") from None


#: MF to move up or down one building level in the same hex (B23.22).
LEVEL_CHANGE_MF = F(1)
#: Infantry pay double the COT to enter a higher-elevation hex (B10.4).
HILL_CLIMB_FACTOR = 2
#: Hindrance DRM of a SMOKE hex given in the position's ``map.smoke`` list (A24).
SMOKE_HINDRANCE = FEATURES["smoke"].hindrance
#: Hindrance DRM of a hex holding a vehicle (D9/D10: vehicles and wrecks hinder +1).
VEHICLE_HINDRANCE = 1
#: A total Hindrance DRM >= this blocks the LOS (B.10).
HINDRANCE_BLOCKS_AT = 6


class HexTerrainLike(Protocol):
    terrain: str
    features: tuple[str, ...]
    elevation: int
    building: Optional[str]


# ---------------------------------------------------------------- helpers


def terrain_type(name: str) -> TerrainType:
    try:
        return TERRAIN[name]
    except KeyError:
        raise ValueError(f"unknown terrain {name!r}; known: {', '.join(TERRAIN)}") from None


def feature_type(name: str) -> FeatureType:
    try:
        return FEATURES[name]
    except KeyError:
        raise ValueError(f"unknown feature {name!r}; known: {', '.join(FEATURES)}") from None


def _features(hex_terrain) -> tuple[str, ...]:
    return tuple(getattr(hex_terrain, "features", ()) or ())


def _elevation(hex_terrain) -> int:
    return int(getattr(hex_terrain, "elevation", 0) or 0)


def enter_cost(
    from_terrain: HexTerrainLike, from_level: int, to_terrain: HexTerrainLike, to_level: int, same_hex: bool
) -> Optional[Fraction]:
    """MF for Infantry to move between two ADJACENT Locations, or None when
    the move is not traversable for rout purposes.

    * Same hex: ``LEVEL_CHANGE_MF`` per level changed (0 when the level is
      the same).
    * Different hex: the COT of the entered hex (terrain MF, +1 for SMOKE,
      A24.7 / B.2), doubled when its elevation is higher than the one left
      (B10.4).  Levels must match: a unit changes building level only inside
      a hex.  None when the entered terrain or a feature in it is not
      traversable (water, stream, marsh, cliff, Blaze) or has no fixed cost.

    Fortification costs (foxhole, trench, shellhole, pillbox) are not
    included: they are not part of the nearest-building calculation
    (A10.531); see :func:`fortification_extra`.
    """
    to_t = terrain_type(to_terrain.terrain)
    if same_hex:
        if not to_t.passable_rout:
            return None
        return LEVEL_CHANGE_MF * abs(int(to_level) - int(from_level))
    if int(from_level) != int(to_level):
        return None
    if not to_t.passable_rout or to_t.mf is None:
        return None
    cost = to_t.mf
    for name in _features(to_terrain):
        feat = feature_type(name)
        if not feat.passable_rout:
            return None
        if not feat.fortification:
            cost += feat.extra_mf
    if _elevation(to_terrain) > _elevation(from_terrain):
        cost *= HILL_CLIMB_FACTOR
    return cost


def fortification_extra(features: Iterable[str]) -> Fraction:
    """Extra MF to get into the fortifications among ``features`` (foxhole,
    trench, shellhole, pillbox), which :func:`enter_cost` leaves out."""
    total = F(0)
    for name in features:
        feat = feature_type(name)
        if feat.fortification:
            total += feat.extra_mf
    return total


def is_open_ground(hex_terrain: HexTerrainLike) -> bool:
    """Whether the hex terrain can be Open Ground (ignores fortifications:
    a unit in a foxhole/shellhole that paid only the minimum MF is still in
    Open Ground, A10.531; the ASP decides that)."""
    return terrain_type(hex_terrain.terrain).og_possible


def rout_cover(hex_terrain: HexTerrainLike) -> Optional[str]:
    """A10.51 rout-destination class of a hex's terrain: "building", "woods",
    or None. A pillbox counting as a building (Surrender Check note 12) is
    the rules' to say (rules/rout/A10_51_direction.lp, cover/1)."""
    return terrain_type(hex_terrain.terrain).rout_cover


def hindrance_of(hex_terrain: HexTerrainLike) -> int:
    """Hindrance DRM of a hex for a LOS traced through it (terrain plus
    wreck/SMOKE/Blaze features; cumulative)."""
    total = terrain_type(hex_terrain.terrain).hindrance
    for name in _features(hex_terrain):
        total += feature_type(name).hindrance
    return total
