"""The output folder of ``damas build``: what a build may replace, and how it is replaced so that no
instant of the swap (not even ``kill -9``) leaves the user without a complete output.

What may be replaced.  Like Sphinx and MkDocs, damas refuses an output folder that is, holds or
contains what the build reads.  It replaces only a folder that is missing, empty, or that damas built
itself: such a folder carries the marker file ``.damas-build`` (``damas-build <format>`` on its first
line).  Outputs of damas versions from before the marker are recognised by their exact layout (only
``html/``, ``pdf/`` and the PDF manifest, with damas' generator signature, no links or special files).
Everything else (a file, a device, a symbolic link, the course or lessons or any folder above them or
above the current folder, ``/``, the home folder, a folder with foreign content) is refused with one
line and exit status 2 before anything is written.

How it is replaced.  The build writes into a sibling ``.NAME-building-PID-TOKEN`` that carries the
marker from its first instant.  On Linux ``renameat2(RENAME_EXCHANGE)`` then swaps it with the old
output in one atomic step; the old output, now under the sibling's name, is deleted marker last.
Where the exchange is unsupported, the old output is first renamed to ``.NAME-old-PID-TOKEN`` and the
new one renamed into place (both under blocked SIGINT/SIGTERM); a process killed between those two
renames leaves the old output complete beside its place, and the next build renames it back.  The
next build also deletes every such sibling whose process is dead and that carries the marker (or is
empty): nothing without the marker is ever deleted.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import re
import secrets
import shutil
import signal
import stat
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from . import __version__
from .errors import DamasError

MARKER = ".damas-build"
"""The file that says "damas built this folder"; a build replaces only folders that carry it."""

MARKER_FORMAT = 1
MANIFEST = ".damas-build.json"
"""The PDF manifest of incremental builds (also the signature of pre-marker outputs)."""

LEGACY_ENTRIES = frozenset({"html", "pdf", MANIFEST})
"""Everything the top level of a pre-marker damas output can hold."""

_SUFFIX_ROOM = 40
"""Bytes the sibling names add to the folder name: ``.`` + ``-building-`` + PID + ``-`` + token."""


class OutputRefused(DamasError):
    """``--out`` names something a build must not replace; nothing was touched."""

    exit_code = 2


class OutputError(DamasError):
    """The operating system refused a write (full disk, read-only, too long a name...)."""

    exit_code = 1

    @classmethod
    def from_os(cls, exc: OSError) -> OutputError:
        where = f" ({exc.filename})" if exc.filename else ""
        return cls(f"cannot write output: {exc.strerror or exc}{where}")


def _reached(step: str) -> None:
    """A named instant of the swap.  Does nothing; the kill tests replace it to SIGKILL the process
    exactly there ("building", "exchanged", "moved-old", "moved-new", "deleting")."""


# ---------------------------------------------------------------------------------------------------
# What may be replaced
# ---------------------------------------------------------------------------------------------------


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a folder"


def _with_parents(path: Path) -> set[Path]:
    return {path, *path.parents}


def _guarded(protect: Iterable[str | os.PathLike[str]]) -> dict[Path, str]:
    """Folders the output may never be, with the reason: /, home, the current folder, the sources and
    every folder above the current folder and the sources."""
    guarded: dict[Path, str] = {}
    for p in _with_parents(Path.cwd().resolve()):
        guarded[p] = "the current folder" if p == Path.cwd().resolve() else "a folder above the current folder"
    for src in protect:
        real = Path(src).resolve()
        for p in real.parents:
            guarded.setdefault(p, f"a folder above '{src}'")
        guarded[real] = f"'{src}', which the build reads"
    with contextlib.suppress(RuntimeError, KeyError):
        guarded[Path.home().resolve()] = "the home folder"
    guarded[Path("/")] = "the root folder"
    return guarded


def _legacy_output(folder: Path, names: list[str]) -> bool:
    """A damas output from before the marker: only html/, pdf/ and the manifest, damas' signature in
    html/index.html or the manifest, and nothing but folders and regular files inside."""
    if not names or not set(names) <= LEGACY_ENTRIES:
        return False
    signed = False
    with contextlib.suppress(OSError, ValueError):
        signed = '<meta name="generator" content="damas ' in _read_regular(folder / "html" / "index.html", 1 << 20)
    if not signed:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            signed = "damas" in json.loads(_read_regular(folder / MANIFEST, 1 << 24))
    if not signed:
        return False
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            mode = os.lstat(os.path.join(dirpath, name)).st_mode
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                return False
    return True


def has_marker(folder: Path) -> bool:
    """True when ``folder/.damas-build`` is a regular file that starts with ``damas-build``."""
    try:
        return _read_regular(folder / MARKER, 4096).startswith("damas-build ")
    except (OSError, ValueError):
        return False


def _check_contents(dest: Path) -> None:
    """Refuse unless ``dest`` is missing, an empty folder, or a folder damas built."""
    try:
        mode = os.lstat(dest).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(mode):
        hint = " (give the folder it points to)" if stat.S_ISLNK(mode) else ""
        raise OutputRefused(f"--out '{dest}' is {_kind(mode)}{hint}; a build replaces only a folder")
    names = sorted(os.listdir(dest))
    if not names or has_marker(dest) or _legacy_output(dest, names):
        return
    foreign = next((n for n in names if n not in LEGACY_ENTRIES), names[0])
    raise OutputRefused(
        f"--out '{dest}' holds files damas did not build (such as '{foreign}'); "
        f"choose a new or empty folder, or delete it first"
    )


def destination(out: str | os.PathLike[str], protect: Iterable[str | os.PathLike[str]] = ()) -> Path:
    """The absolute output path (its parent resolved, its own name taken literally), or OutputRefused.

    ``protect`` lists what the build reads (lessons, course): the output may not be one of them, lie
    inside one, or be any folder above one (nor above the current folder)."""
    raw = os.fspath(out)
    if not raw.strip():
        raise OutputRefused("--out is empty")
    literal = Path(os.path.abspath(raw))
    if not literal.name:
        raise OutputRefused("--out '/' is the root folder; a build never replaces it")
    dest = literal.parent.resolve() / literal.name
    guarded = _guarded(protect)
    if dest in guarded:
        raise OutputRefused(f"--out '{raw}' is {guarded[dest]}; a build never replaces it")
    for src in protect:
        real = Path(src).resolve()
        if dest.is_relative_to(real):
            raise OutputRefused(f"--out '{raw}' is inside '{src}', which the build reads")
    room = _name_max(dest.parent) - _SUFFIX_ROOM
    if len(os.fsencode(dest.name)) > room:
        raise OutputRefused(f"--out folder name is {len(os.fsencode(dest.name))} bytes long; at most {room}")
    for above in dest.parents:
        try:
            mode = os.stat(above).st_mode
        except (FileNotFoundError, NotADirectoryError):
            continue  # look further up for what is in the way
        except OSError as exc:
            raise OutputError.from_os(exc) from None
        if not stat.S_ISDIR(mode):
            raise OutputRefused(f"--out '{raw}': '{above}' is {_kind(mode)}, not a folder")
        break
    _check_contents(dest)
    return dest


def _name_max(folder: Path) -> int:
    for p in (folder, *folder.parents):
        with contextlib.suppress(OSError, ValueError):
            return os.pathconf(p, "PC_NAME_MAX")
    return 255


# ---------------------------------------------------------------------------------------------------
# Reading the previous output without following links
# ---------------------------------------------------------------------------------------------------


def _open_regular(path: Path) -> int:
    """A read descriptor on ``path`` if it is a regular file reached through no symbolic link."""
    if os.path.realpath(path) != os.path.abspath(path):
        raise OSError(errno.ELOOP, "a symbolic link on the way", str(path))
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    return fd


def _read_regular(path: Path, limit: int) -> str:
    with os.fdopen(_open_regular(path), "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{path} is larger than {limit} bytes")
    return data.decode("utf-8")


def read_previous(path: Path, limit: int = 1 << 24) -> str | None:
    """The text of a regular file of the previous output, or None (missing, a link, a device, too big)."""
    try:
        return _read_regular(path, limit)
    except (OSError, ValueError):
        return None


def copy_previous(src: Path, dst: Path) -> bool:
    """Copy a file of the previous output into the new one; only a regular file reached through no
    symbolic link is copied (a link planted in the old output is never followed)."""
    try:
        fd = _open_regular(src)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as f:
        dst.parent.mkdir(parents=True, exist_ok=True)
        with open(dst, "xb") as g:
            shutil.copyfileobj(f, g)
    return True


# ---------------------------------------------------------------------------------------------------
# The swap and the recovery
# ---------------------------------------------------------------------------------------------------

_LEFTOVER = r"\.{name}-(building|old)-(\d+)-[0-9a-f]+"


def _sibling(dest: Path, role: str) -> Path:
    return dest.with_name(f".{dest.name}-{role}-{os.getpid()}-{secrets.token_hex(4)}")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _empty(path: Path) -> bool:
    try:
        return not os.listdir(path)
    except OSError:
        return False


def remove_tree(path: Path) -> None:
    """Delete a build folder, its marker last, so that a deletion killed half-way still leaves a folder
    the next build recognises as its own (or an empty one) and finishes deleting."""
    with os.scandir(path) as entries:
        for entry in entries:
            if entry.name == MARKER:
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            _reached("deleting")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path / MARKER)
    os.rmdir(path)


def recover(dest: Path) -> list[str]:
    """Clean up after builds that were killed: restore an old output that was moved aside and never
    replaced, delete dead builds' temporary folders.  Returns what was done, for the tests."""
    done: list[str] = []
    try:
        entries = list(os.scandir(dest.parent))
    except OSError:
        return done
    pattern = re.compile(_LEFTOVER.format(name=re.escape(dest.name)))
    for entry in sorted(entries, key=lambda e: e.name):
        m = pattern.fullmatch(entry.name)
        if m is None or not entry.is_dir(follow_symlinks=False) or _alive(int(m[2])):
            continue
        path = Path(entry.path)
        marked = has_marker(path)
        if not (marked or _empty(path)):
            continue  # not ours to delete
        try:  # a leftover that cannot be cleaned must not stop the build
            if m[1] == "old" and marked and not os.path.lexists(dest):
                os.rename(path, dest)
                done.append(f"restored {entry.name}")
            else:
                remove_tree(path)
                done.append(f"removed {entry.name}")
        except OSError:
            continue
    return done


_libc_renameat2: Any = None  # the C function, False where there is none, None before the first look


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux ``renameat2(RENAME_EXCHANGE)``); False where the
    system or the file system cannot."""
    global _libc_renameat2
    if not sys.platform.startswith("linux"):
        return False
    if _libc_renameat2 is None:
        try:
            _libc_renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
        except (OSError, AttributeError):
            _libc_renameat2 = False
    if _libc_renameat2 is False:
        return False
    at_fdcwd, rename_exchange = -100, 2
    if _libc_renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EPERM):
        return False
    raise OSError(err, os.strerror(err), str(b))


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM for the few system calls that must not be separated, then deliver them.

    Python runs signal handlers in the main thread only, so swapping the handlers there defers the
    signal whichever thread the kernel picked."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    held = (signal.SIGINT, signal.SIGTERM)
    previous = {s: signal.signal(s, lambda signum, frame: caught.append(signum)) for s in held}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)
        for number in caught:
            signal.raise_signal(number)


class OutputFolder:
    """The destination of one build: checked on creation, written through :meth:`staging`."""

    def __init__(self, out: str | os.PathLike[str], protect: Iterable[str | os.PathLike[str]] = ()) -> None:
        self.path = destination(out, protect)
        self._leftovers: list[Path] = []

    @contextlib.contextmanager
    def staging(self) -> Iterator[Path]:
        """A fresh marked folder beside the destination; removed if the block fails or is interrupted
        (call :meth:`publish` at the end of the block)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        recover(self.path)
        tmp = _sibling(self.path, "building")
        os.mkdir(tmp, 0o777)  # the umask decides the mode, as for any folder the user makes
        self._leftovers = [tmp]
        try:
            (tmp / MARKER).write_text(f"damas-build {MARKER_FORMAT}\ndamas {__version__}\n", encoding="utf-8")
            _reached("building")
            yield tmp
        finally:
            for path in self._leftovers:
                if os.path.lexists(path):
                    with contextlib.suppress(OSError):
                        remove_tree(path)

    def publish(self, tmp: Path) -> None:
        """Put the finished build in place of the old one; the destination always holds a complete
        output, old or new."""
        dest = self.path
        _check_contents(dest)  # it may have changed during the build
        with _signals_held():
            if not os.path.lexists(dest):
                os.rename(tmp, dest)
                return
            if _exchange(tmp, dest):
                _reached("exchanged")
                old = tmp
            else:
                old = _sibling(dest, "old")
                self._leftovers.append(old)
                os.rename(dest, old)
                _reached("moved-old")
                try:
                    os.rename(tmp, dest)
                except BaseException:
                    os.rename(old, dest)
                    raise
                _reached("moved-new")
        remove_tree(old)
