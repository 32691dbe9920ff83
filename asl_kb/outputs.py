"""Output paths (a file or folder a command writes) checked before any work:
one rule for every option of every command that names one (asl-kb's
report -o/--png, search --out/--stream; the mutation tool's --report,
--history, --out), so that a bad path costs nothing and creates nothing.
"""

from __future__ import annotations

import os
from pathlib import Path


def problem(option: str, text: str | None, suffixes: tuple[str, ...] | None = None, folder: bool = False) -> str | None:
    """What is wrong with the path `text` given to `option` (None: nothing,
    or no path given): a suffix the format does not take, a folder where a
    file is meant (or a file where a folder is), a missing parent folder,
    a file or folder that cannot be written."""
    if text is None:
        return None
    path = Path(text)
    if suffixes is not None and path.suffix.lower() not in suffixes:
        return f"{option}: {text}: the file name must end in {' or '.join(suffixes)}"
    if folder:
        if path.exists() and not path.is_dir():
            return f"{option}: {text}: not a folder"
    elif path.is_dir():
        return f"{option}: {text}: is a folder, not a file"
    where = path if path.exists() else path.parent
    if not where.is_dir() and not path.exists():
        return f"{option}: {text}: no folder {where}"
    if not os.access(where, os.W_OK | (os.X_OK if where.is_dir() else 0)):
        return f"{option}: {text}: cannot write {'it' if where == path else 'there'} (permission denied)"
    # (os.access does not know a file system that refuses new files, /proc,
    # nor answers for root: tried, and nothing is left behind)
    why = _try_writing(path, folder)
    if why:
        return f"{option}: {text}: cannot write {'it' if path.exists() else 'there'} ({why})"
    return None


def _try_writing(path: Path, folder: bool) -> str | None:
    """Why `path` (a file, or a folder) cannot be written, found by writing:
    an existing file opened to append (not changed), a new file or folder
    made and removed, a file made and removed inside an existing folder."""
    try:
        if folder and path.is_dir():
            probe = path / f".asl-kb-{os.getpid()}-probe"
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            os.unlink(probe)
        elif folder:
            os.mkdir(path)
            os.rmdir(path)
        elif path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
        else:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            os.unlink(path)
    except OSError as e:
        return e.strerror or str(e)
    return None
