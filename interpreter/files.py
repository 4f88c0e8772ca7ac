"""Reading files a user (or a stranger) names: rulesets, records, saves.

Only regular files are read (a FIFO would hang, /dev/zero never ends, /proc files lie
about their size), at most a documented number of bytes, without trusting the size
the file system reports: the file is opened without blocking, checked, and read up to
the limit.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, Any


def is_file(path: Path | str) -> bool:
    """Whether ``path`` names a regular file (False, not an error, for a name too long
    or otherwise impossible)."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def load_json(text: str) -> object:
    """JSON from a stranger: ValueError (with a reason a person reads) for what is not
    JSON, nested too deep, or holds a number too long to read."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{exc.msg} at column {exc.colno}") from None
    except ValueError:  # an integer of more digits than Python reads
        raise ValueError("a number too long") from None


class FileRefused(Exception):
    """A file that is not read or written, with the reason; ``exists``: refused because
    a file of that name exists (the caller may offer to replace it)."""

    def __init__(self, message: str, *, exists: bool = False):
        super().__init__(message)
        self.exists = exists


def read_bounded(path: Path, limit: int, what: str) -> bytes:
    """The bytes of the regular file ``path``, which must not exceed ``limit``; ``what``
    names the kind of file in messages ("a ruleset", "a game record", ...)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise FileRefused(f"cannot read it: {exc.strerror or exc}") from None
    except ValueError:  # a NUL or a lone surrogate in a name from a save or a record
        raise FileRefused("cannot read it: not a usable file name") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileRefused(f"not a regular file, so it cannot be {what}")
        chunks = []
        size = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise FileRefused(f"larger than {limit:,} bytes, too large to be {what}")
        return b"".join(chunks)
    except OSError as exc:
        raise FileRefused(f"cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _temporary(path: Path) -> tuple[int, str]:
    """A new temporary file beside ``path`` (its name bounded: the file system refuses a
    name of more than 255 bytes, and ``path``'s own name may be that long)."""
    return tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:100]}.", suffix=".tmp")


def write_atomic(path: Path, text: str | bytes, *, replace: bool = False) -> None:
    """Write ``text`` to ``path`` so that no reader ever sees half of it: into a new
    temporary file beside it (a unique name: a user's own ``path.tmp`` is never touched),
    flushed to disk, then moved into place.  Unless ``replace``, an existing ``path`` is
    never overwritten (FileExistsError, even if it appeared while writing)."""
    fd, tmp = _temporary(path)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # the permissions any new file gets (mkstemp's are private)
        out: IO[Any] = os.fdopen(fd, "wb") if isinstance(text, bytes) else os.fdopen(fd, "w", encoding="utf-8")
        with out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)  # fails if path exists: an atomic create-if-absent
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def check_writable(path: Path, what: str, replace: bool = False) -> None:
    """Refuse (FileRefused, with a reason of one line) a file to be created that exists
    already (unless ``replace``: then only one that is not a regular file, such as a
    folder or a device), whose folder does not exist or cannot be written, or whose name
    the file system refuses: checked before a game starts, not after.  ``what`` names the
    file in the reason (``--csv file``).  The folder is tried for real, by making (and
    removing) a file in it as :func:`write_atomic` will: permissions alone do not tell a
    read-only file system (/proc, /sys, a read-only mount) or a process running as root."""
    try:
        if path.is_dir():
            raise FileRefused(f"{path} is a folder; choose another {what}")
        exists = path.exists() or path.is_symlink()
        if exists and not replace:
            raise FileRefused(f"{path} already exists; choose another {what}", exists=path.is_file())
        if exists and not path.is_file():  # a device (/dev/full), a FIFO, a socket, a dangling link
            raise FileRefused(f"{path} is not a regular file; choose another {what}")
        folder = path.parent
        if not folder.is_dir():
            there = folder.exists() or folder.is_symlink()
            raise FileRefused(f"{folder} is not a folder" if there else f"the folder of {path} does not exist")
        try:
            longest = os.pathconf(folder, "PC_NAME_MAX")
        except (OSError, ValueError):
            longest = 255
        if len(os.fsencode(path.name)) > longest:
            raise FileRefused(f"the name of {path} is longer than the file system takes; choose another {what}")
        check_folder(folder, f"the folder of {path}")
    except OSError as exc:  # a path too long, a loop of links, a folder that cannot be searched...
        raise FileRefused(f"cannot write {path}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL in the name
        raise FileRefused(f"{path!r} is not a usable file name; choose another {what}") from None


def check_folder(folder: Path, shown: str | None = None) -> None:
    """Refuse (FileRefused) a folder in which no file can be made, found by making one
    there (then removing it); ``shown`` names the folder in the reason."""
    try:
        fd, tmp = _temporary(folder / "check")
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not a usable name"
        raise FileRefused(f"cannot write in {shown or folder}: {reason}") from None
    os.close(fd)
    os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
