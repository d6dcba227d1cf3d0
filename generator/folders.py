"""Where a folder walk may go: pseudo file systems, links that leave the folder, one file once.

``damas check /proc/self`` followed ``/proc/self/root`` and ``/proc/self/cwd`` into the whole file
system, and the same lesson named 5,000 times on the command line was checked 5,000 times.  The
lesson walk (:func:`generator.lessons.check.lesson_files`) asks this module three questions:

* is a path on a pseudo file system (``/proc``, ``/sys``, ``/dev`` and the kernel's other virtual
  file systems)?  Their "files" are the running system, not lessons: refused;
* does a folder link resolve outside the folder the user gave?  Reported and not followed;
* which paths name the same file (:func:`file_key`: device and inode, so a link, a ``..`` detour
  and a hard link are one file)?  Read once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from functools import cache
from typing import TypeVar

T = TypeVar("T", bound="str | os.PathLike[str]")

PSEUDO_TYPES = frozenset(
    {
        "autofs",
        "binfmt_misc",
        "bpf",
        "cgroup",
        "cgroup2",
        "configfs",
        "debugfs",
        "devpts",
        "devtmpfs",
        "efivarfs",
        "fusectl",
        "hugetlbfs",
        "mqueue",
        "nsfs",
        "proc",
        "pstore",
        "rpc_pipefs",
        "securityfs",
        "selinuxfs",
        "sysfs",
        "tracefs",
    }
)
"""Linux file systems that show the running kernel and its processes rather than stored files."""

PSEUDO_ROOTS = ("/proc", "/sys", "/dev")
"""Refused by name too: a container may mount ``/dev`` as tmpfs, and another system may have no
mount table to read."""


@cache
def _mounts() -> tuple[tuple[str, str], ...]:
    """(mount point, file system type) of every mount, longest mount point first; empty where
    ``/proc/self/mountinfo`` cannot be read."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ()
    mounts = []
    for line in lines:
        fields = line.split(" ")
        if "-" not in fields or len(fields) < 5:
            continue
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])  # \040: a space
        mounts.append((point, fields[fields.index("-") + 1]))
    return tuple(sorted(mounts, key=lambda m: len(m[0]), reverse=True))


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def pseudo_filesystem(path: str | os.PathLike[str]) -> str | None:
    """The name of the pseudo file system ``path`` is named through or really lies on (``proc``,
    ``/dev``...), or None for a file system that stores files.  ``/proc/self/cwd`` is refused by its
    name although it leads to a real folder: what a ``/proc`` path leads to changes with the process."""
    real = os.path.realpath(path)
    for named in (os.path.abspath(path), real):
        for root in PSEUDO_ROOTS:
            if _under(named, root):
                return next((kind for point, kind in _mounts() if _under(named, point)), root)
    for point, kind in _mounts():
        if _under(real, point):
            return kind if kind in PSEUDO_TYPES else None
    return None


def leads_outside(path: str | os.PathLike[str], top_real: str) -> str | None:
    """Where ``path`` really leads when that is outside the real folder ``top_real``, else None."""
    real = os.path.realpath(path)
    return None if _under(real, top_real) else real


def file_key(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """(device, inode) of the file ``path`` names (None when it cannot be reached): two paths with
    one key are one file."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def each_file_once(paths: Iterable[T]) -> list[T]:
    """``paths`` without a second path to a file already named (the first path is kept; a path
    that cannot be reached is kept, for its reader to report)."""
    seen: set[tuple[int, int]] = set()
    out = []
    for p in paths:
        key = file_key(p)
        if key is None or key not in seen:
            out.append(p)
        if key is not None:
            seen.add(key)
    return out
