"""Reading files a user (or a stranger) names: rulesets, records, saves.

Only regular files are read (a FIFO would hang, /dev/zero never ends, /proc files lie
about their size), at most a documented number of bytes, without trusting the size
the file system reports: the file is opened without blocking, checked, and read up to
the limit.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class FileRefused(Exception):
    """A file that is not read, with the reason (the caller names the file)."""


def read_bounded(path: Path, limit: int, what: str) -> bytes:
    """The bytes of the regular file ``path``, which must not exceed ``limit``; ``what``
    names the kind of file in messages ("a ruleset", "a game record", ...)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise FileRefused(f"cannot read it: {exc.strerror or exc}") from None
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
