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


#: A10.4: "Broken units are inverted and henceforth use the Morale Level
#: printed on their reverse side for all MC/TC and Rally attempts". The broken
#: side's Morale Level of a counter, by nationality (the position's
#: `nationality`, its side by default) and the counter as printed on its Good
#: Order side. One table, easy to extend: a counter not in it has no broken
#: side here, and the rules ask for `morale:` instead of guessing
#: (docs/counters.md says where each value comes from).
BROKEN_SIDE_MORALE: dict[tuple[str, str], int] = {
    # German MMC: the same Morale Level on both sides; only the SS have "their
    # increased Morale Level on their broken side" (A25.11, A25.12).
    ("german", "4-6-8"): 8,
    ("german", "5-4-8"): 8,
    ("german", "8-3-8"): 8,
    ("german", "4-6-7"): 7,
    ("german", "4-4-7"): 7,
    ("german", "4-3-6"): 6,
    ("german", "2-4-8"): 8,
    ("german", "2-3-8"): 8,
    ("german", "2-4-7"): 7,
    ("german", "2-3-7"): 7,
    ("german", "2-3-6"): 6,
    # SS: one more on the broken side (A25.11; A10.2 EX: a broken 6-5-8's
    # "current morale (9)").
    ("ss", "6-5-8"): 9,
    ("ss", "4-6-8"): 9,
    ("ss", "8-3-8"): 9,
    ("ss", "3-4-8"): 9,
    ("ss", "2-4-8"): 9,
    # Russian MMC: the same Morale Level on both sides.
    ("russian", "6-2-8"): 8,
    ("russian", "4-5-8"): 8,
    ("russian", "5-2-7"): 7,
    ("russian", "4-4-7"): 7,
    ("russian", "4-2-6"): 6,
    ("russian", "3-2-8"): 8,
    ("russian", "2-4-8"): 8,
    ("russian", "2-2-7"): 7,
    ("russian", "2-3-7"): 7,
    ("russian", "2-2-6"): 6,
    # American MMC: the broken side as VASL's counter images show it (A25 is
    # outside the sources), often above the Good Order side's (6-6-6 -> 8).
    ("american", "7-6-8"): 8,
    ("american", "6-6-8"): 8,
    ("american", "5-5-8"): 8,
    ("american", "4-5-8"): 8,
    ("american", "7-4-7"): 8,
    ("american", "6-6-7"): 8,
    ("american", "6-6-6"): 8,
    ("american", "5-4-6"): 7,
    ("american", "5-3-6"): 7,
    ("american", "4-4-7"): 7,
    ("american", "3-3-6"): 6,
    ("american", "3-4-8"): 7,
    ("american", "3-4-7"): 7,
    ("american", "3-4-6"): 7,
    ("american", "3-3-7"): 7,
    ("american", "2-4-8"): 7,
    ("american", "2-3-8"): 7,
    ("american", "2-3-7"): 6,
    ("american", "2-3-6"): 6,
    ("american", "2-2-6"): 6,
    ("american", "1-2-6"): 5,
    # British MMC: as VASL's counter images show them.
    ("british", "6-4-8"): 8,
    ("british", "4-5-8"): 8,
    ("british", "4-5-7"): 7,
    ("british", "4-4-7"): 7,
    ("british", "4-3-6"): 6,
    ("british", "3-3-8"): 7,
    ("british", "2-4-8"): 7,
    ("british", "2-4-7"): 6,
    ("british", "2-3-7"): 6,
    ("british", "2-2-6"): 5,
    # Italian MMC: the non-Elite one less on the broken side.
    ("italian", "4-4-7"): 7,
    ("italian", "3-4-7"): 6,
    ("italian", "3-4-6"): 5,
    ("italian", "3-3-6"): 5,
}

#: Nationalities whose leaders have the Morale Level of their Good Order side
#: on their broken side too (A25.11: SS SMC "are ... represented by normal
#: German ... SMC counters").
LEADERS_SAME_BROKEN_MORALE: frozenset[str] = frozenset({"german", "ss", "russian"})


def broken_side_morale(nationality: str, unit_type: str, counter: str | None) -> int | None:
    """The Morale Level on the broken side of a counter (A10.4), or None
    where the table does not hold it (then the position gives `morale:`)."""
    if counter is None:
        return None
    text = counter.strip()
    if unit_type == "leader":
        if nationality not in LEADERS_SAME_BROKEN_MORALE:
            return None
        m = _LEADER.fullmatch(text)
        return int(m.group(1)) if m else None
    return BROKEN_SIDE_MORALE.get((nationality, text))


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
