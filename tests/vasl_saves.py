"""Synthetic VASL saved games for the tests: the format VASSAL writes (a zip
whose savedGame entry is obfuscated, VASSAL's command encoding, pieces as
chains of traits) with pieces built as VASL's module builds its counters
(a Concealable trait, Layer traits for a counter's sides, a Hideable trait,
a Labeler) -- made here, never copied from a real save or module.

    save = Save(boards="bd\\t0\\t0\\t02\\tVER\\t6.4\\t")
    s = save.stack(500, 600, [squad("ru", "4-4-7", Shown(broken=True)), marker("DM")])
    save.write(tmp_path / "game.vsav")
"""

from __future__ import annotations

import itertools
import zipfile
from dataclasses import dataclass
from pathlib import Path

from asl_kb.vasl.save import ESC, HEADER, join

_ids = itertools.count(1000)


def obfuscate(text: str, key: int) -> bytes:
    """VASSAL's ObfuscatingOutputStream: the header, the key, then each byte
    XOR the key, all as hex digits."""
    return HEADER + b"%02x" % key + "".join("%02x" % (b ^ key) for b in text.encode("utf-8")).encode("ascii")


def layer(images: list[str], names: list[str], value: int, name: str = "") -> tuple[str, str]:
    """A Layer trait (Embellishment, `emb2;`) and its state: the active level
    (negative: inactive)."""
    fields = ["", "2", "", "", "2", "", "", "2", "", "", "", "0", "false", "0", "0"]
    fields += [join(images, ","), join(names, ","), "false", name, "", "", "false", "", "1", "1", "true"]
    return "emb2;" + join(fields, ";"), str(value)


def conceal(nation: str, concealed: bool = False) -> tuple[str, str]:
    return f"conceal;C;{nation}/{nation}qmark58;{nation};;", ("player1" if concealed else "null") + ";"


def hide(hidden: bool = False) -> tuple[str, str]:
    return "hide;72,130;HIP;;player:;0.3", "player1" if hidden else "null"


def label(text: str | None) -> tuple[str, str]:
    return "label;76,130;Label;10;;0,0,0;t;0;c;0;b;c;$pieceName$ ($label$);Dialog;0;0;TextLabel;", text or ""


class P:
    """A piece to be added: its traits (type, state) outermost first, and its
    BasicPiece's image and name."""

    def __init__(self, traits: list[tuple[str, str]], image: str, name: str, gpid: str = "1"):
        self.id = str(next(_ids))
        self.traits = traits
        self.image = image
        self.name = name
        self.gpid = gpid

    def command(self, map_name: str, x: int, y: int) -> str:
        types = [t for t, _ in self.traits] + [join(["piece", "", "", self.image, self.name], ";")]
        states = [s for _, s in self.traits] + [join([map_name, str(x), str(y), self.gpid], ";")]
        return "+/" + join([self.id, _nest(types), _nest(states)], "/")


def _nest(chain: list[str]) -> str:
    """A trait chain as Decorator.getType/getState write it: each trait's
    text then its inner piece's, joined by TAB (escaped one level deeper at
    each step inward)."""
    out = chain[-1]
    for text in reversed(chain[:-1]):
        out = join([text, out], "\t")
    return out


@dataclass(frozen=True)
class Shown:
    """How a counter shows on the map: broken side up, under its `?`
    (concealed), hidden (HIP), and its label."""

    broken: bool = False
    concealed: bool = False
    hidden: bool = False
    label_text: str | None = None


def squad(nation: str, values: str, shown: Shown = Shown(), cls: str = "1", half: bool = False) -> P:
    """An MMC as VASL's module makes it: the squad face layer under its
    broken side (BRK), the HS face layer and its broken side over them."""
    fp, rng, ml = values.split("-")
    kind = "hs" if half else "sq"
    face = layer([f"{nation}/{nation}{fp}{rng}{ml}{kind[0].upper()}"], [f"{values} {cls}{kind}"], 1)
    brk = layer([f"{nation}/{nation}{kind[0]}{int(ml) + 1}b"], ["broken +"], 1 if shown.broken else -1, "BRK")
    traits = [conceal(nation, shown.concealed), hide(shown.hidden), label(shown.label_text), brk, face]
    return P(traits, " ", f"{values} {cls}{kind}")


def leader(nation: str, values: str, broken: bool = False, label_text: str | None = None) -> P:
    sides = ["10-2", "9-2", "9-1", "8-1", "8-0", "7-0", "6\\+1"]
    i = [s.replace("\\", "") for s in sides].index(values) + 1
    digits = [s.replace("-", "").replace("\\+", "") for s in sides]
    images = [f"{nation}/{nation}L{d}" for d in digits]
    brk = layer([i + "b" for i in images], ["broken +"] * len(sides), i if broken else -i, "BRK")
    face = layer(images, sides, i)
    return P([conceal(nation), hide(), label(label_text), brk, face], " ", f"{nation}LDR")


def support_weapon(nation: str, name: str) -> P:
    brk = layer([f"{nation}/{nation}{name}b"], ["malf +"], -1, "BRK")
    return P([conceal(nation), brk], f"{nation}/{nation}{name}", name)


def vehicle(nation: str, name: str, image: str) -> P:
    return P([conceal(nation), hide(), label(None)], f"{nation}/veh/{image}", name)


def marker(name: str) -> P:
    """A status marker (DM, CX, Pin, ...): no Concealable trait."""
    return P([], f"MS/{name.lower()}", name)


def building_level(level: int) -> P:
    names = ["+ Cellar", "+ Ground Level", "+ Level 1", "+ Level 2", "+ Level 3", "+ Roof Level"]
    images = ["ML/Lev-1", "ML/Lev0", "ML/Lev1", "ML/Lev2", "ML/Lev3", "ML/LevRoof"]
    return P([layer(images, names, level + 2)], "ML/_white58", "Building")


def concealment(nation: str) -> P:
    """A `?` counter (VASL's Concealment trait)."""
    return P([(f"concealment;player1;{nation}", "")], f"{nation}/{nation}qmark58", "?")


def phase_track(player: str, phase: str) -> P:
    phases = ["RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh"]
    players = ["Axis", "Allied"]
    return P(
        [
            layer(["tables/a", "tables/b"], [f"{p} +" for p in players], players.index(player) + 1, "Player"),
            layer([" "] * len(phases), [f"+- {p}" for p in phases], phases.index(phase) + 1, "PhaseName"),
        ],
        "tables/turn_phase",
        "Phase Track Axis 1st",
    )


def unknown(nation: str) -> P:
    """A unit-like piece (it has a Concealable trait) the import cannot read."""
    return P([conceal(nation)], f"{nation}/{nation}Mystery", "Mystery")


class Save:
    """A saved game being built: stacks of pieces on the main map, the board
    picker's `bd` command, VASL's version."""

    def __init__(self, boards: str = "bd\t", vasl_version: str = "6.6.2", map_name: str = "Main Map"):
        self.boards = boards
        self.vasl_version = vasl_version
        self.map_name = map_name
        self.adds: list[str] = []

    def stack(self, x: int, y: int, pieces: list[P], map_name: str | None = None) -> list[P]:
        """Pieces stacked bottom first at pixel (x, y) of the map."""
        where = map_name or self.map_name
        for p in pieces:
            self.adds.append(p.command(where, x, y))
        sid = str(next(_ids))
        self.adds.append("+/" + join([sid, "stack", join([where, str(x), str(y)] + [p.id for p in pieces], ";")], "/"))
        return pieces

    def text(self) -> str:
        """The savedGame text as GameState.getRestoreCommand encodes: begin_save,
        the pieces (one compound command), the boards, end_save."""
        info = join(["Axis", "Axis", "1", " ? ", " ? ", " ? ", " ? ", " ? ", " ? ", ""], "\t")
        pieces = join([""] + self.adds, ESC)
        return join(["begin_save", "", pieces, "INFO\t" + info, self.boards, "end_save"], ESC)

    def write(self, path: Path, key: int = 0x5A) -> Path:
        moduledata = (
            '<?xml version="1.0" encoding="UTF-8"?>\n<data version="1">\n'
            f"  <version>{self.vasl_version}</version>\n  <VassalVersion>3.6.7</VassalVersion>\n"
            "  <name>VASL</name>\n</data>\n"
        )
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("savedGame", obfuscate(self.text(), key))
            z.writestr("moduledata", moduledata)
        return path
