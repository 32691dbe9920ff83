"""Counter strings -> numbers.  Pure data: no rules are applied here.

Infantry (squad, half-squad, crew, hero):  "FP-RANGE-MORALE", e.g. "4-6-7".
A parenthesised FP, "(1)-0-6", is the Unarmed counter (A20.5): it has no
real firepower, so `unarmed` is set.

Leader: "MORALE-N" or "MORALE+N", e.g. "9-1".  The second number is the
leadership DRM as printed: "9-1" is -1 (it improves die rolls), "8+1" is +1.

Counter markings that only typography shows (underlined FP for Assault Fire,
underlined range for Spraying Fire, ELR/class colours) are not encoded.
"""

from __future__ import annotations

import re

from asl_kb.record import FrozenRecord, record

_INFANTRY = re.compile(r"(\()?(\d{1,2})(?(1)\))-(\d{1,2})-(\d{1,2})")
_LEADER = re.compile(r"(\d{1,2})([-+])(\d)")


@record(frozen=True)
class InfantryCounter(FrozenRecord):
    """A squad's, HS's or crew's counter values ("4-6-7")."""

    fp: int
    normal_range: int
    morale: int
    unarmed: bool = False


@record(frozen=True)
class LeaderCounter(FrozenRecord):
    """A leader's counter values ("8-1")."""

    morale: int
    leadership: int


def parse_infantry(text: str) -> InfantryCounter:
    """Parse "4-6-7" or "(1)-0-6"; ValueError if it is neither."""
    m = _INFANTRY.fullmatch(text.strip())
    if not m:
        raise ValueError(f"counter {text!r} is not of the form FP-RANGE-MORALE (e.g. 4-6-7 or (1)-0-6)")
    return InfantryCounter(
        fp=int(m.group(2)),
        normal_range=int(m.group(3)),
        morale=int(m.group(4)),
        unarmed=m.group(1) is not None,
    )


def parse_leader(text: str) -> LeaderCounter:
    """Parse "9-1", "10-2", "8-0", "8+1"; ValueError otherwise."""
    m = _LEADER.fullmatch(text.strip())
    if not m:
        raise ValueError(f"leader counter {text!r} is not of the form MORALE-N or MORALE+N (e.g. 9-1, 8+1)")
    drm = int(m.group(3))
    return LeaderCounter(morale=int(m.group(1)), leadership=-drm if m.group(2) == "-" else drm)


# Support Weapons: kind -> (IFT FP, normal range).
# These are generic defaults: the printed values differ by nationality and
# model (a German LMG is 3-8, a Russian one 2-6), so a position that needs
# the exact counter gives {kind, fp, range} explicitly.
# FP 0 means "no Infantry Fire Table attack of its own" for our purposes.
SW_TABLE: dict[str, tuple[int, int]] = {
    "lmg": (2, 6),  # Light Machine Gun, A9
    "mmg": (4, 10),  # Medium Machine Gun, A9
    "hmg": (5, 12),  # Heavy Machine Gun, A9
    "ft": (24, 1),  # Flame Thrower: 24 FP, normal range 1 (A22.1)
    "dc": (30, 0),  # Demolition Charge: 30 FP, placed in the adjacent Location (A23)
    "atr": (0, 12),  # Anti-Tank Rifle, C13 (LATW): anti-vehicle, no IFT FP here
    "baz": (0, 4),  # Bazooka, C13 (LATW)
    "psk": (0, 5),  # Panzerschreck, C13 (LATW)
    "piat": (0, 3),  # PIAT, C13 (LATW)
    "mtr": (2, 12),  # light mortar (Ordnance, chapter C): rough placeholder, give fp/range
}


def sw_stats(kind: str) -> tuple[int, int]:
    """(fp, normal_range) of a Support Weapon kind; KeyError if unknown."""
    return SW_TABLE[kind]
