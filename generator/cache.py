"""The proof cache: answers of the expensive, deterministic computations, kept between runs.

Proving a puzzle (key, cook search, themes, difficulty) and growing its interactive tree (with the
step diagrams it shows) cost seconds per puzzle; a course of hundreds of puzzles would spend minutes
proving again what nothing changed.  Each answer is stored under a hash of *everything it depends
on*: the variant and its rule switches, the draw profile, the position, the stipulation, the printed
solution, the cook margin, the proof budget, and an engine fingerprint (the damas version, a format
constant per kind of answer that is bumped when answers could change, and a hash of the source files
that compute the answer, so a changed solver never meets an old answer).

Where: ``$DAMAS_CACHE_DIR``, else ``$XDG_CACHE_HOME/damas``, else ``~/.cache/damas``.  One JSON file
per answer (never pickle: a cache file is data, checked for shape on read, never run as code),
written to a temporary file and renamed into place, so two builds at once never see half a file.  A
file that is not JSON, has another shape, or answers another key is ignored and rewritten.  A cache
folder that cannot be created or written makes the cache a no-op, silently: the cache only ever
saves time, it never fails a build.  ``--no-cache`` (``damas check``, ``damas build``) bypasses it.

The cache is handed down by context (:func:`use`, :func:`active`) rather than through every call:
the verifier and the interactive planner ask for the active cache; library callers that set none
(``damas mine``, tests of single lessons) compute everything as before.
"""

from __future__ import annotations

import base64
import contextlib
import contextvars
import hashlib
import json
import os
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import fields, is_dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from . import __version__

CACHE_ENV = "DAMAS_CACHE_DIR"
"""Environment variable: the cache folder (overrides ``$XDG_CACHE_HOME/damas``)."""
LAYOUT = 1
"""Version of the folder layout and the entry envelope (``v1/KIND/ab/abcdef….json``)."""
MAX_ENTRY_BYTES = 1 << 24
"""A larger file is not read (it cannot be one of ours)."""
MAX_FILE_BYTES = 1 << 28
"""The largest stored file (:meth:`Cache.put_bytes`: a compiled PDF); a larger one is not kept."""
BYTES_SUFFIX = ".bin"
"""The suffix of stored files (:meth:`Cache.put_bytes`), beside the ``.json`` answers."""

SOURCE_SUFFIXES = (".py", ".pyx", ".so", ".pyd", ".mo", ".po", ".j2")
"""Files of a package folder that count in :func:`source_fingerprint` (code, compiled code, catalogs)."""

T = TypeVar("T")

_ACTIVE: contextvars.ContextVar[Cache | None] = contextvars.ContextVar("damas_cache", default=None)


def default_dir() -> Path:
    """``$DAMAS_CACHE_DIR``, else ``$XDG_CACHE_HOME/damas``, else ``~/.cache/damas``."""
    explicit = os.environ.get(CACHE_ENV, "").strip()
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    if xdg and Path(xdg).is_absolute():  # the XDG spec: a relative value is to be ignored
        return Path(xdg) / "damas"
    return Path.home() / ".cache" / "damas"


def plain(value: Any) -> Any:
    """``value`` as plain JSON data, deterministically: dataclasses field by field, enums by value,
    functions by qualified name (their address would change every run), sequences as lists."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Enum):
        return plain(value.value)
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((plain(v) for v in value), key=repr)
    if callable(value):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', type(value).__name__)}"
    return f"{type(value).__name__}:{value!s}"


def rules_key(variant: Any, profile: Any = None) -> dict[str, Any]:
    """What the rules contribute to a key: the variant's name, board and every rule switch, and the
    draw profile with each of its rules (so ``with_rules`` and ``draw_profile`` variants differ)."""
    from .rules.variants import RULE_SWITCHES

    return {
        "variant": variant.name,
        "base": variant.base,
        "geometry": plain(variant.geometry),
        "start_ranks": list(variant.start_ranks),
        "switches": {name: plain(getattr(variant, name)) for name in sorted(RULE_SWITCHES)},
        "profile": plain(profile) if profile is not None and not isinstance(profile, str) else profile,
    }


@cache
def source_fingerprint(*parts: str) -> str:
    """A hash of the files under ``parts`` (package-relative folders or files of ``generator``, or
    ``templates:NAME``): a changed solver or template gives new keys even without a version bump."""
    from importlib import resources

    from .resources import template_path

    found = resources.files("generator")
    package = Path(str(found)) if isinstance(found, Path) else None
    h = hashlib.sha256()
    if package is None:  # not unpacked on a file system (a zip import): the version stands alone
        return "zipped-" + __version__
    for part in parts:
        if part.startswith("templates:"):
            paths = [template_path(*part.split(":", 1)[1].split("/"))]
        else:
            base = package / part
            paths = (
                sorted(p for p in base.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES)
                if base.is_dir()
                else [base]
            )
        for p in paths:
            try:
                data = Path(p).read_bytes()
            except OSError:
                data = b"?"
            h.update(str(Path(p).name).encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()[:20]


@cache
def jinja_version() -> str:
    """The template engine's version: a new Jinja may write the same template differently."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("jinja2")
    except PackageNotFoundError:
        return "?"


def pack_text(texts: dict[str, str]) -> str:
    """Many similar texts (step diagrams of one puzzle) as one compressed JSON string: boards of
    one puzzle compress about thirty to one together."""
    raw = json.dumps(texts, ensure_ascii=False, sort_keys=True).encode()
    return base64.b64encode(zlib.compress(raw, 6)).decode("ascii")


def unpack_text(blob: Any) -> dict[str, str]:
    """The inverse of :func:`pack_text`.

    Raises:
        ValueError: when ``blob`` is not a packed mapping of strings to strings.
    """
    if not isinstance(blob, str):
        raise ValueError("not a packed text")
    try:
        data = json.loads(zlib.decompressobj().decompress(base64.b64decode(blob, validate=True), MAX_ENTRY_BYTES * 4))
    except (zlib.error, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError("not a mapping of texts")
    return data


class Cache:
    """A folder of JSON answers, one file per key (see the module docstring).

    ``hits``, ``misses`` and ``writes`` count this process's use (for benchmarks and tests).
    """

    def __init__(self, root: str | os.PathLike[str] | None = None) -> None:
        self.root = Path(root) if root is not None else default_dir()
        self.writable = True
        """False after a write failed: the cache stops trying (reads still work)."""
        self.hits = 0
        self.misses = 0
        self.writes = 0
        self._folders: set[Path] = set()
        """Folders this process made (or found) already: one mkdir each."""

    # -- keys and files -----------------------------------------------------------------------------

    @staticmethod
    def digest(kind: str, key: Any) -> tuple[str, str]:
        """The canonical key text and its hash (the file name)."""
        text = json.dumps(
            {"kind": kind, "damas": __version__, "key": key}, sort_keys=True, ensure_ascii=False, separators=(",", ":")
        )
        return text, hashlib.sha256(text.encode()).hexdigest()

    def path(self, kind: str, digest: str, suffix: str = ".json") -> Path:
        return self.root / f"v{LAYOUT}" / kind / digest[:2] / f"{digest}{suffix}"

    # -- reading ------------------------------------------------------------------------------------

    def get(self, kind: str, key: Any) -> Any | None:
        """The stored value for ``key`` (plain JSON data), or None: missing, unreadable, not JSON,
        another envelope, or a file that answers another key.  Callers check the value's shape."""
        text, digest = self.digest(kind, key)
        return self._counted(self._read(self.path(kind, digest), text))

    def get_bytes(self, kind: str, key: Any) -> bytes | None:
        """The stored file for ``key`` (a compiled PDF), or None: missing, unreadable, another
        envelope, another key, or bytes that do not match the hash written with them."""
        text, digest = self.digest(kind, key)
        return self._counted(self._read_bytes(self.path(kind, digest, BYTES_SUFFIX), text))

    def _counted(self, found: T) -> T:
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    @staticmethod
    def _raw(path: Path, limit: int) -> bytes | None:
        """The bytes of ``path``, reached through no symbolic link; None when it cannot be read or
        holds more than ``limit`` bytes (it cannot be one of ours)."""
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return None
        try:
            with os.fdopen(fd, "rb") as f:
                raw = f.read(limit + 1)
        except OSError:
            return None
        return raw if len(raw) <= limit else None

    def _read(self, path: Path, key_text: str) -> Any | None:
        raw = self._raw(path, MAX_ENTRY_BYTES)
        try:
            data = json.loads(raw.decode("utf-8")) if raw is not None else None
        except (UnicodeDecodeError, ValueError, RecursionError):
            return None
        if not isinstance(data, dict) or data.get("layout") != LAYOUT or data.get("key") != key_text:
            return None
        return data.get("value")

    def _read_bytes(self, path: Path, key_text: str) -> bytes | None:
        raw = self._raw(path, MAX_FILE_BYTES + MAX_ENTRY_BYTES)
        head, _, body = (raw or b"").partition(b"\n")
        try:
            envelope = json.loads(head.decode("utf-8")) if raw is not None else None
        except (UnicodeDecodeError, ValueError, RecursionError):
            return None
        if (
            not isinstance(envelope, dict)
            or envelope.get("layout") != LAYOUT
            or envelope.get("key") != key_text
            or envelope.get("size") != len(body)
            or envelope.get("sha256") != hashlib.sha256(body).hexdigest()
        ):
            return None
        with contextlib.suppress(OSError):  # last used now: pruning removes the longest unused first
            os.utime(path)
        return body

    def prune(self, kind: str, max_bytes: int) -> int:
        """Delete the stored files of ``kind`` (:meth:`put_bytes`) used longest ago until the rest
        take at most ``max_bytes``; returns how many were deleted.  Why: answers are small and
        kept for good, but a PDF is a few hundred kilobytes, and every edit of a lesson compiles a
        few new ones."""
        found = []
        for path in (self.root / f"v{LAYOUT}" / kind).glob(f"*/*{BYTES_SUFFIX}"):
            with contextlib.suppress(OSError):
                st = path.stat()
                found.append((st.st_mtime, st.st_size, path))
        total = sum(size for _, size, _ in found)
        deleted = 0
        for _, size, path in sorted(found):
            if total <= max_bytes:
                break
            with contextlib.suppress(OSError):
                path.unlink()
                deleted += 1
            total -= size
        return deleted

    # -- writing ------------------------------------------------------------------------------------

    def put(self, kind: str, key: Any, value: Any) -> None:
        """Store ``value`` (plain JSON data) for ``key``: written beside its place and renamed over it,
        so a reader sees the old file or the new one, never a part.  Any failure turns writing off."""
        if not self.writable:
            return
        text, digest = self.digest(kind, key)
        try:
            body = json.dumps(
                {"layout": LAYOUT, "key": text, "value": value}, ensure_ascii=False, separators=(",", ":")
            )
        except (TypeError, ValueError):  # not plain data: nothing to keep (a bug, but never a failed build)
            return
        self._write(self.path(kind, digest), body.encode("utf-8"))

    def put_bytes(self, kind: str, key: Any, data: bytes) -> None:
        """Store a file for ``key`` (a compiled PDF): one line of JSON naming the key, the size and
        the SHA-256 of the bytes that follow it, then the bytes, written as :meth:`put` writes."""
        if not self.writable or len(data) > MAX_FILE_BYTES:
            return
        text, digest = self.digest(kind, key)
        envelope = {"layout": LAYOUT, "key": text, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        head = json.dumps(envelope, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self._write(self.path(kind, digest, BYTES_SUFFIX), head + b"\n" + data)

    def _write(self, target: Path, body: bytes) -> None:
        """``body`` written beside ``target`` and renamed over it; any failure turns writing off."""
        tmp = None
        try:
            if target.parent not in self._folders:
                target.parent.mkdir(parents=True, exist_ok=True)
                self._folders.add(target.parent)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=target.suffix, dir=target.parent)
            with os.fdopen(fd, "wb") as f:
                f.write(body)
            os.replace(tmp, target)
            tmp = None
            self.writes += 1
        except OSError:
            self.writable = False
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


def open_cache(enabled: bool = True, root: str | os.PathLike[str] | None = None) -> Cache | None:
    """The cache for a command: None when ``enabled`` is False (``--no-cache``)."""
    return Cache(root) if enabled else None


def active() -> Cache | None:
    """The cache the current command uses, or None (compute everything)."""
    return _ACTIVE.get()


@contextlib.contextmanager
def use(c: Cache | None) -> Iterator[Cache | None]:
    """Make ``c`` the active cache inside the ``with`` block (None: no cache)."""
    token = _ACTIVE.set(c)
    try:
        yield c
    finally:
        _ACTIVE.reset(token)


SVG_SOURCES = ("render/svg.py", "cache.py", "templates:board.svg.j2", "templates:board-layers.svg.j2")
"""What a drawn diagram depends on besides its view model."""


def remembered_svg(view: Any, draw: Callable[[], str]) -> str:
    """``draw()``, the SVG text of a diagram's view model (generator/render/svg.py), from the active
    cache when the same view was drawn before by the same template and code.  Static diagrams are
    kept one per file; the step diagrams of panels travel inside their panel's entry (no cache is
    active while a panel is computed, see generator/render/interactive.py)."""
    store = active()
    if store is None:
        return draw()
    # The view model's repr is its full content (a dataclass of numbers, texts, lists and dicts built
    # in a fixed order) and five times faster to make than plain(); a repr naming an address is not.
    text = repr(view)
    if " at 0x" in text:
        return draw()
    key = {
        "view": hashlib.sha256(text.encode()).hexdigest(),
        "code": source_fingerprint(*SVG_SOURCES),
        "jinja": jinja_version(),
    }
    hit = store.get("svg", key)
    if hit is not None:
        try:
            return unpack_text(hit)["svg"]
        except (ValueError, KeyError):
            pass
    text = draw()
    store.put("svg", key, pack_text({"svg": text}))
    return text


def texts(items: Iterable[Any]) -> list[str]:
    """Check that every item is a string (for validating cached values).

    Raises:
        ValueError: otherwise.
    """
    out = list(items)
    if not all(isinstance(t, str) for t in out):
        raise ValueError("expected texts")
    return out
