"""Solved slices on disk, in the user's cache folder (``generator/cache.py`` says where).

One folder per set of rules (the variant's name and a hash of its board and rule switches, so a
profile made with ``Variant.with_rules`` never reads another's tables), three files per slice:

* ``NAME.wdl``: the results, 2 bits a position (0 draw, 1 win, 2 loss for the side to move; four
  positions a byte, lowest bits first, White to move first), zlib-compressed;
* ``NAME.dtw``: the distances in plies, one byte a position (two, little-endian, when a distance
  exceeds 255), zlib-compressed; 0 for draws;
* ``NAME.json``: what the slice is, its size, counts, longest distance, build time, and a CRC of
  each file's content.  It is written last: a slice without it was not finished.

Every file is written beside its place and renamed over it, so a build that is killed keeps every
slice it finished and leaves no half file under a final name.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import zlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..cache import default_dir, rules_key
from ..rules.variants import Variant
from .material import Material

FORMAT = 1
"""Version of the files' layout; bumped when the meaning of a stored byte changes."""


def bundled_root() -> Path | None:
    """The slices that ship with damas, in this module's layout (None: not installed as files):
    those the bundled course's ending claims read (about 2 MB; tests/endgame/bundled.py makes them,
    and a test holds them to what the solver builds today).  A cold cache copies them instead of
    solving them (``Tables(bundled=True)``)."""
    folder = resources.files(__package__ or "generator.endgame").joinpath("bundled")
    return folder if isinstance(folder, Path) and folder.is_dir() else None


def rules_folder(variant: Variant, root: Path | None = None) -> Path:
    """The folder of one set of rules' tables."""
    digest = hashlib.sha256(json.dumps(rules_key(variant), sort_keys=True).encode()).hexdigest()[:12]
    return (root or default_dir()) / "endgame" / f"v{FORMAT}" / f"{variant.name}-{digest}"


@dataclass
class Slice:
    """One solved slice in memory: ``results`` (2-bit) and ``dist`` (``width`` bytes a position)."""

    material: Material
    size: int
    results: bytes
    dist: bytes
    width: int
    meta: dict[str, Any]

    def entry(self, turn: int, index: int) -> tuple[int, int]:
        """(result, distance) of position ``index`` with ``turn`` to move."""
        i = turn * self.size + index
        result = (self.results[i >> 2] >> ((i & 3) * 2)) & 3
        if self.width == 1:
            return result, self.dist[i]
        return result, self.dist[2 * i] | (self.dist[2 * i + 1] << 8)

    @property
    def nbytes(self) -> int:
        return len(self.results) + len(self.dist)


def narrow(dist16: bytes | bytearray) -> tuple[bytes, int]:
    """16-bit distances as 8-bit ones when every distance fits, with the width kept."""
    view = memoryview(dist16)
    if not any(view[1::2]):
        return bytes(view[0::2]), 1
    return bytes(dist16), 2


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def save(folder: Path, sl: Slice) -> None:
    """Write a solved slice (the meta file last)."""
    folder.mkdir(parents=True, exist_ok=True)
    name = sl.material.name
    _write_atomic(folder / f"{name}.wdl", zlib.compress(sl.results, 6))
    _write_atomic(folder / f"{name}.dtw", zlib.compress(sl.dist, 6))
    meta = dict(sl.meta)
    meta.update(
        format=FORMAT,
        material=list(sl.material),
        name=name,
        size=sl.size,
        width=sl.width,
        crc_wdl=zlib.crc32(sl.results),
        crc_dtw=zlib.crc32(sl.dist),
        bytes_on_disk=(folder / f"{name}.wdl").stat().st_size + (folder / f"{name}.dtw").stat().st_size,
    )
    _write_atomic(folder / f"{name}.json", json.dumps(meta, indent=1, sort_keys=True).encode())
    sl.meta = meta


def read_meta(folder: Path, material: Material) -> dict[str, Any] | None:
    """The meta data of a finished slice, or None (missing, unreadable, another format)."""
    try:
        meta = json.loads((folder / f"{material.name}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("material") != list(material):
        return None
    return meta


def load(folder: Path, material: Material, size: int) -> Slice | None:
    """A finished slice, checked (sizes and CRCs), or None when it is missing or damaged."""
    meta = read_meta(folder, material)
    if meta is None or meta.get("size") != size or meta.get("width") not in (1, 2):
        return None
    try:
        results = zlib.decompress((folder / f"{material.name}.wdl").read_bytes())
        dist = zlib.decompress((folder / f"{material.name}.dtw").read_bytes())
    except (OSError, zlib.error):
        return None
    width = meta["width"]
    if (
        len(results) != (2 * size + 3) // 4
        or len(dist) != 2 * size * width
        or zlib.crc32(results) != meta.get("crc_wdl")
        or zlib.crc32(dist) != meta.get("crc_dtw")
    ):
        return None
    return Slice(material, size, results, dist, width, meta)


def copy_slice(source: Path, folder: Path, material: Material, size: int) -> Slice | None:
    """The finished, intact slice ``material`` of folder ``source`` copied into ``folder`` byte for
    byte (the meta file last, as :func:`save` writes), then read back; None when ``source`` has none,
    or when ``folder`` cannot be written (the slice is then solved as if none shipped)."""
    if load(source, material, size) is None:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for suffix in (".wdl", ".dtw", ".json"):
            _write_atomic(folder / f"{material.name}{suffix}", (source / f"{material.name}{suffix}").read_bytes())
    except OSError:
        return None
    return load(folder, material, size)
