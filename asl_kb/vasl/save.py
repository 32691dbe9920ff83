"""A VASL saved game (.vsav) as VASSAL writes it: the zip, the obfuscated
`savedGame` entry, VASSAL's command encoding and the pieces it adds.

Read from VASSAL's own code (LGPL): `GameState.saveGame` writes the game as
one compound command into the zip entry `savedGame` through an
`ObfuscatingOutputStream` (`!VCSK`, two hex digits of a key, then every byte
XOR the key as two hex digits; a save without the header is plain text);
`GameModule.encode` joins the commands with ESC, nested commands with their
ESCs escaped (`SequenceEncoder`: a backslash before each delimiter, a token
that starts with a backslash or is quoted wrapped in single quotes);
`BasicCommandEncoder` writes a piece as `+/ID/TYPE/STATE`, its TYPE and
STATE each a chain of traits joined by TAB, the outermost trait first and
the BasicPiece (`piece;...`, state `MAP;X;Y;GPID;...`) innermost; a Stack is
`+/ID/stack/MAP;X;Y;ID;ID;...` from the bottom piece up. VASL adds its
board picker's `bd` command (the boards and their layout) and its scenario
information `INFO`.

Nothing here knows ASL: asl_kb/vasl/pieces.py reads what the traits mean.
"""

from __future__ import annotations

import io
import os
import re
import stat
import zipfile
from collections.abc import Iterator

from asl_kb.errors import SaveError
from asl_kb.record import FrozenRecord, record

#: the zip entry of the game (VASSAL's GameState.SAVEFILE_ZIP_ENTRY)
SAVE_ENTRY = "savedGame"
#: the header of an obfuscated entry (VASSAL's ObfuscatingOutputStream.HEADER)
HEADER = b"!VCSK"
#: GameModule's separator between commands
ESC = "\x1b"
#: the largest save read: a whole-scenario save is under a megabyte of text
#: (two hex digits a character, so two of entry); this bounds a zip bomb
MAX_ENTRY_BYTES = 64 * 1024 * 1024
MAX_FILE_BYTES = 64 * 1024 * 1024
#: the main map's identifier in a VASL save: "Main Map" (VASL 6.5 and
#: later) or "Map0" (its id before)
MAIN_MAPS = ("Main Map", "Map0")


# ---------------------------------------------------------------- SequenceEncoder


def split(value: str, delim: str) -> list[str]:
    """Every token of `value` as VASSAL's SequenceEncoder.Decoder reads it:
    a delimiter after a backslash is part of the token (the backslash
    dropped), a token wrapped in single quotes loses them, and an empty
    string is one empty token."""
    out: list[str] = []
    start, stop = 0, len(value)
    while True:
        if start == stop:
            out.append("")
            return out
        parts: list[str] = []
        i = value.find(delim, start)
        while i > 0 and value[i - 1] == "\\":  # escaped: the delimiter is text
            parts.append(value[start : i - 1])
            start = i
            i = value.find(delim, i + 1)
        if i < 0:
            parts.append(value[start:])
            out.append(_unquote("".join(parts)))
            return out
        parts.append(value[start:i])
        out.append(_unquote("".join(parts)))
        start = i + 1


def _unquote(token: str) -> str:
    return token[1:-1] if len(token) > 1 and token[0] == "'" and token[-1] == "'" else token


def join(tokens: list[str], delim: str) -> str:
    """The tokens as VASSAL's SequenceEncoder writes them (split's inverse)."""
    out = []
    for s in tokens:
        escaped = s.replace(delim, "\\" + delim)
        if s and (s[0] == "\\" or (s[0] == "'" and s[-1] == "'")):
            escaped = f"'{escaped}'"
        out.append(escaped)
    return delim.join(out)


def commands(text: str) -> Iterator[str]:
    """The single commands of a compound one, in order (GameModule.decode:
    a command that splits on ESC into anything but itself is compound)."""
    todo = [text]
    while todo:
        command = todo.pop()
        tokens = split(command, ESC)
        if len(tokens) == 1 and tokens[0] == command:
            yield command
        else:
            todo.extend(reversed(tokens))


# ---------------------------------------------------------------- pieces


@record(frozen=True)
class Trait(FrozenRecord):
    """One decorator of a piece: its kind (the type's prefix up to and with
    its first ';', e.g. `emb2;`), its type and its state as written."""

    kind: str
    type: str
    state: str

    def fields(self) -> list[str]:
        """The type's fields after the kind (split on ';')."""
        return split(self.type[len(self.kind) :], ";") if self.kind.endswith(";") else []


@record(frozen=True)
class Piece(FrozenRecord):
    """A piece the save adds: its traits outermost first, then its BasicPiece
    (image, name) and where it is (map, x, y: the pixel of its centre) and its
    palette entry (GPID)."""

    id: str | None
    traits: tuple[Trait, ...]
    image: str
    name: str
    map: str | None
    x: int
    y: int
    gpid: str

    def of_kind(self, kind: str) -> list[Trait]:
        """The traits of one kind (`emb2;`, `hide;`, ...), outermost first."""
        return [t for t in self.traits if t.kind == kind]


@record(frozen=True)
class Stack(FrozenRecord):
    """A VASSAL Stack: the ids of its pieces from the bottom up."""

    id: str | None
    map: str | None
    x: int
    y: int
    pieces: tuple[str, ...]


@record(frozen=True)
class SavedGame(FrozenRecord):
    """What a save holds for the importer: its pieces and stacks in the
    save's order, the board picker's `bd` command, VASL's scenario
    information (`INFO`), and the VASL and VASSAL versions of moduledata."""

    file: str
    pieces: tuple[Piece, ...]
    stacks: tuple[Stack, ...]
    boards: str | None
    info: tuple[str, ...] | None
    vasl_version: str | None
    vassal_version: str | None
    other: tuple[str, ...] = ()  # commands neither pieces, boards nor info (their first word)


def _chain(text: str) -> list[str]:
    """A TAB-joined trait chain, outermost first (BasicCommandEncoder.createPiece
    and Decorator.setState each take the first token and hand the second to
    the inner piece)."""
    out = []
    rest: str | None = text
    while rest is not None:
        tokens = split(rest, "\t")
        out.append(tokens[0])
        rest = tokens[1] if len(tokens) > 1 else None
    return out


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0  # SequenceEncoder.Decoder.nextInt's default, as VASSAL reads it


def _null(text: str) -> str | None:
    return None if text == "null" else text


def _kind(type_text: str) -> str:
    """The trait's kind: its type up to and with the first ';'
    (BasicCommandEncoder.typePrefix)."""
    i = type_text.find(";")
    return type_text if i < 0 else type_text[: i + 1]


def parse_add(command: str, file: str) -> Piece | Stack:
    """A piece or Stack from its `+/ID/TYPE/STATE` command."""
    tokens = split(command[2:], "/")
    if len(tokens) < 3:
        raise SaveError(file, f"a piece without type or state: {command[:60]!r}")
    pid, type_text, state_text = _null(tokens[0]), tokens[1], tokens[2]
    if type_text == "stack":
        s = split(state_text, ";")
        ids = tuple(t for t in s[3:] if t and not t.startswith("@@"))
        if s[0] == "null":
            return Stack(pid, None, 0, 0, ids)
        return Stack(pid, s[0], _int(s[1]) if len(s) > 1 else 0, _int(s[2]) if len(s) > 2 else 0, ids)
    types, states = _chain(type_text), _chain(state_text)
    if len(states) < len(types):  # Decorator.setState: "no state for trait"
        raise SaveError(file, f"piece {pid}: {len(types)} traits but {len(states)} states")
    traits = tuple(Trait(_kind(t), t, s) for t, s in zip(types[:-1], states))
    basic = split(types[-1], ";")
    if basic[0] != "piece":
        raise SaveError(file, f"piece {pid}: its innermost trait is {basic[0]!r}, not a VASSAL piece")
    where = split(states[len(types) - 1], ";")
    where += [""] * (4 - len(where))
    return Piece(
        id=pid,
        traits=traits,
        image=basic[3] if len(basic) > 3 else "",
        name=basic[4] if len(basic) > 4 else "",
        map=_null(where[0]),
        x=_int(where[1]),
        y=_int(where[2]),
        gpid=where[3],
    )


# ---------------------------------------------------------------- the file


def deobfuscate(data: bytes, file: str) -> str:
    """The text of a `savedGame` entry (VASSAL's DeobfuscatingInputStream)."""
    if data.startswith(HEADER):
        body = data[len(HEADER) :]
        try:
            key = int(body[:2].decode("ascii"), 16)
            if len(body) % 2:
                raise ValueError("odd")
            raw = bytes.fromhex(body[2:].decode("ascii"))
        except (ValueError, UnicodeDecodeError):
            raise SaveError(
                file, "its savedGame entry is not VASSAL's obfuscated text (a bad hex digit or a cut entry)"
            ) from None
        data = bytes(b ^ key for b in raw) if key else raw
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(file, "its savedGame entry does not decode to text (a wrong key?)") from None
    if not text.startswith("begin_save"):
        raise SaveError(file, "its savedGame entry is not a VASSAL saved game (it does not begin with begin_save)")
    return text


def read_entries(source: str | os.PathLike | bytes, name: str | None = None) -> tuple[str, dict[str, bytes]]:
    """(file name, {entry: bytes}) of a save's savedGame and moduledata
    entries; SaveError for a file that is not such a zip. `source`: a path,
    or the file's bytes (`name` then names it in errors, e.g. an upload's
    file name)."""
    if isinstance(source, (bytes, bytearray)):
        file = name or "saved game"
        if len(source) > MAX_FILE_BYTES:
            raise SaveError(file, f"file too large: {len(source)} bytes (a saved game is at most {MAX_FILE_BYTES})")
        return file, _entries(io.BytesIO(source), file)
    file = os.fspath(source)
    try:
        st = os.stat(file)
    except OSError as e:
        raise SaveError(file, f"cannot read file: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise SaveError(file, "not a regular file")
    if st.st_size > MAX_FILE_BYTES:
        raise SaveError(file, f"file too large: {st.st_size} bytes (a saved game is at most {MAX_FILE_BYTES})")
    return file, _entries(file, file)


def _entries(zipped: str | io.BytesIO, file: str) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    try:
        with zipfile.ZipFile(zipped) as z:
            names = set(z.namelist())
            if SAVE_ENTRY not in names:
                raise SaveError(file, "not a VASSAL saved game: the zip has no savedGame entry")
            for name in (SAVE_ENTRY, "moduledata"):
                if name not in names:
                    continue
                info = z.getinfo(name)
                if info.file_size > MAX_ENTRY_BYTES:
                    raise SaveError(file, f"its {name} entry is too large ({info.file_size} bytes)")
                with z.open(info) as f:
                    out[name] = f.read(MAX_ENTRY_BYTES + 1)
    except zipfile.BadZipFile as e:
        raise SaveError(file, f"not a VASSAL saved game: not a zip file ({e})") from None
    except (EOFError, zipfile.LargeZipFile, NotImplementedError, RuntimeError, ValueError) as e:
        raise SaveError(file, f"a broken zip: {e}") from None
    except OSError as e:
        raise SaveError(file, f"cannot read file: {e.strerror or e}") from None
    return out


def _moduledata(data: bytes | None) -> tuple[str | None, str | None]:
    """(VASL version, VASSAL version) from the save's moduledata entry."""
    # (two plain elements: read as text, the XML never parsed)
    text = (data or b"")[:4096].decode("utf-8", "replace")
    found = [re.search(rf"<{tag}>([^<]{{1,40}})</{tag}>", text) for tag in ("version", "VassalVersion")]
    return tuple(m.group(1).strip() if m else None for m in found)  # type: ignore[return-value]


def read_save(source: str | os.PathLike | bytes, name: str | None = None) -> SavedGame:
    """A .vsav read (a path, or its bytes named `name`): its pieces, stacks,
    boards and versions; SaveError (exit 2) for anything that is not a
    readable VASSAL saved game."""
    file, entries = read_entries(source, name)
    text = deobfuscate(entries[SAVE_ENTRY], file)
    if not text.rstrip().endswith("end_save"):
        raise SaveError(file, "its savedGame entry is cut short (no end_save at its end)")
    pieces: list[Piece] = []
    stacks: list[Stack] = []
    boards = info = None
    other: list[str] = []
    for command in commands(text):
        if command.startswith("+/"):
            p = parse_add(command, file)
            (stacks if isinstance(p, Stack) else pieces).append(p)  # type: ignore[arg-type]
        elif command.startswith("bd\t") or command == "bd":
            boards = command
        elif command.startswith("INFO\t"):
            info = tuple(split(command[5:], "\t"))
        elif command.strip():
            other.append(command.split("\t", 1)[0][:40])
    vasl, vassal = _moduledata(entries.get("moduledata"))
    return SavedGame(
        file=file,
        pieces=tuple(pieces),
        stacks=tuple(stacks),
        boards=boards,
        info=info,
        vasl_version=vasl,
        vassal_version=vassal,
        other=tuple(other),
    )
