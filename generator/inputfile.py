"""Reading an input file the user named: regular files only, and only up to a size limit.

This is the one module that opens the files a user names (lessons, PDN game files, ``--known``
folders' lessons); the rules engine reads no files, it parses the text or stream it is given.

``Path.read_bytes`` on ``/dev/zero`` reads until memory runs out, and on a FIFO it blocks until a
writer appears.  :func:`read_input` opens without blocking, checks with ``fstat`` that the file is a
regular file (a symbolic link to one is fine), and reads at most the limit plus one byte, so a file
over the limit is refused without being read whole.  :func:`open_text` makes the same checks and
hands back a text stream, for callers that read a large file line by line; :func:`read_pieces`
hands back the text in pieces of bounded size, for a reader that must not hold a whole line.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Iterator

from .errors import DamasError
from .limits import limit, raise_hint


class InputFileError(DamasError):
    """The file cannot be used as input: not a regular file, unreadable, too large, or not UTF-8.
    The message does not name the file (callers put it in front, in their own format); ``line`` and
    ``col`` (1-based) say where in the file the problem is, when it is at one place."""

    def __init__(self, message: str, line: int | None = None, col: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.col = col

    def at(self, name: str) -> str:
        """``NAME:LINE:COL: message`` when the problem has a place, else ``NAME: message``."""
        if self.line is None:
            return f"{name}: {self}"
        return f"{name}:{self.line}:{self.col}: {self}"


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


def _not_regular(mode: int) -> InputFileError:
    return InputFileError(f"is {kind_of(mode)}, not a regular file; damas reads regular files only")


def _open_regular(path: str | os.PathLike[str]) -> int:
    """A file descriptor on the regular file at ``path``, opened without blocking on a FIFO."""
    try:  # look before opening: opening a socket fails with a puzzling "No such device or address"
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise InputFileError(f"cannot read the file: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise _not_regular(mode)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputFileError(f"cannot read the file: {exc.strerror or exc}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):  # swapped for something else between the stat and the open
        os.close(fd)
        raise _not_regular(info.st_mode)
    return fd


def read_input(path: str | os.PathLike[str], limit_name: str) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit(limit_name)`` of them.

    Raises:
        InputFileError: for anything but a regular file (device, FIFO, socket, folder), a file
            that cannot be opened or read, or one larger than the limit.
    """
    most = limit(limit_name)
    fd = _open_regular(path)
    try:
        size = os.fstat(fd).st_size
        if size > most:
            raise InputFileError(f"the file has {size} bytes, more than allowed {raise_hint(limit_name)}")
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


def decode_utf8(data: bytes) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped).

    Raises:
        InputFileError: naming the line and column of the first byte that is not UTF-8.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise InputFileError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x}); convert it first, e.g. iconv -f latin1 -t utf-8",
            line,
            col,
        ) from None


def read_text(path: str | os.PathLike[str], limit_name: str) -> str:
    """The UTF-8 text of the regular file at ``path`` (see :func:`read_input`, :func:`decode_utf8`)."""
    return decode_utf8(read_input(path, limit_name))


def open_text(path: str | os.PathLike[str]) -> io.TextIOWrapper:
    """A UTF-8 text stream (byte-order mark dropped, line ends kept) on the regular file at
    ``path``, for reading a file of any size line by line.  The caller closes it (``with``).

    Raises:
        InputFileError: for anything but a regular file, or a file that cannot be opened.
    """
    fd = _open_regular(path)
    try:
        os.set_blocking(fd, True)  # a regular file: blocking reads, as ordinary file objects do
        return open(fd, encoding="utf-8-sig", newline="", closefd=True)
    except OSError as exc:
        os.close(fd)
        raise InputFileError(f"cannot read the file: {exc.strerror or exc}") from None


_PIECE = 1 << 16


def read_pieces(path: str | os.PathLike[str], limit_name: str) -> Iterator[str]:
    """The UTF-8 text of the regular file at ``path`` in pieces of at most 64 KB characters (a
    leading byte-order mark dropped, line ends kept), so a reader such as the PDN parser holds a
    piece at a time, never the file or its longest line.  The file is refused from its size when it
    is over ``limit(limit_name)``, and the pieces stop there if it grows.

    Raises:
        InputFileError: as :func:`read_input`; and, when the pieces reach the first byte that is
            not UTF-8, naming its line and column (the pieces before it were handed on).
    """
    most = limit(limit_name)
    fd = _open_regular(path)
    try:
        size = os.fstat(fd).st_size
        if size > most:
            raise InputFileError(f"the file has {size} bytes, more than allowed {raise_hint(limit_name)}")
        yield from _decoded(fd, most, limit_name)
    except OSError as exc:
        raise InputFileError(f"cannot read the file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _decoded(fd: int, most: int, limit_name: str) -> Iterator[str]:
    pending = b""
    line, col, total, first = 1, 1, 0, True
    while chunk := os.read(fd, _PIECE):
        total += len(chunk)
        if total > most:  # the file grew while being read
            raise InputFileError(f"the file has more than {most} bytes {raise_hint(limit_name)}")
        data, pending = pending + chunk, b""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if exc.end == len(data) and exc.reason == "unexpected end of data":  # a character cut in two
                text, pending = data[: exc.start].decode("utf-8"), data[exc.start :]
            else:
                text = data[: exc.start].decode("utf-8")
                line, col = _advance(text, line, col)
                raise InputFileError(
                    f"not UTF-8 text (byte 0x{data[exc.start]:02x}); convert it first, e.g. iconv -f latin1 -t utf-8",
                    line,
                    col,
                ) from None
        if first and text.startswith("\ufeff"):
            text = text[1:]
        first = first and not text
        line, col = _advance(text, line, col)
        if text:
            yield text
    if pending:
        raise InputFileError(f"not UTF-8 text (byte 0x{pending[0]:02x}); the file ends inside a character", line, col)


def _advance(text: str, line: int, col: int) -> tuple[int, int]:
    """The line and column after ``text``, from those before it."""
    breaks = text.count("\n")
    if breaks:
        return line + breaks, len(text) - text.rfind("\n")
    return line, col + len(text)
