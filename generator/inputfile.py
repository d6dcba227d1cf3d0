"""Reading an input file the user named: regular files only, and only up to a size limit.

``Path.read_bytes`` on ``/dev/zero`` reads until memory runs out, and on a FIFO it blocks until a
writer appears.  :func:`read_input` opens without blocking, checks with ``fstat`` that the file is a
regular file (a symbolic link to one is fine), and reads at most the limit plus one byte, so a file
over the limit is refused without being read whole.
"""

from __future__ import annotations

import os
import stat

from .limits import limit, raise_hint
from .rules.errors import DamasError


class InputFileError(DamasError):
    """The file cannot be used as input: not a regular file, unreadable, or too large.  The message
    does not name the file (callers put it in front, in their own format)."""


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def kind_of(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def read_input(path: str | os.PathLike[str], limit_name: str) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit(limit_name)`` of them.

    Raises:
        InputFileError: for anything but a regular file (device, FIFO, socket, folder), a file
            that cannot be opened or read, or one larger than the limit.
    """
    most = limit(limit_name)
    try:  # look before opening: opening a socket fails with a puzzling "No such device or address"
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise InputFileError(f"cannot read the file: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise InputFileError(f"is {kind_of(mode)}, not a regular file; damas reads regular files only")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputFileError(f"cannot read the file: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(f"is {kind_of(info.st_mode)}, not a regular file; damas reads regular files only")
        if info.st_size > most:
            raise InputFileError(f"the file has {info.st_size} bytes, more than allowed {raise_hint(limit_name)}")
        chunks = []
        total = 0
        while total <= most:
            chunk = os.read(fd, min(1 << 20, most + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > most:  # the file grew while being read
            raise InputFileError(f"the file has more than {most} bytes {raise_hint(limit_name)}")
        return b"".join(chunks)
    except OSError as exc:
        raise InputFileError(f"cannot read the file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
