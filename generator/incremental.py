"""What a build takes over from the previous build in its folder, or from the proof cache, instead
of making it again.

Three things: a PDF whose inputs (template, data, the diagrams it shows, the damas and Typst versions)
hash the same as in the previous build's manifest (:data:`generator.output.MANIFEST`); else a PDF
compiled from the same inputs by any earlier build, kept in the proof cache (:func:`cached_pdf`);
and any file whose bytes are exactly those the build would write (:class:`Unchanged`, by a hard
link).  Everything else is made again.  ``damas build --clean`` takes nothing over.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path

from . import __version__
from .cache import Cache, source_fingerprint
from .output import MANIFEST, read_previous
from .render import pdf as pdf_stage


def previous_manifest(dest: Path) -> dict[str, str]:
    """The content hash of every PDF of the previous build in ``dest`` (MANIFEST), for reuse; empty
    when there is none, it is unreadable, or another damas version wrote it."""
    try:
        data = json.loads(read_previous(dest / MANIFEST) or "")
    except ValueError:
        return {}
    if not isinstance(data, dict) or data.get("damas") != __version__:
        return {}
    files = data.get("pdf", {})
    return files if isinstance(files, dict) else {}


def manifest_text(keys: dict[str, str]) -> str:
    """The manifest of this build: each PDF's path -> :func:`job_key`."""
    return json.dumps({"damas": __version__, "pdf": keys}, indent=1)


def job_key(job: pdf_stage.PdfJob, svgs: Mapping[str, str]) -> str:
    """Everything a PDF depends on, hashed: template, data, the diagrams it shows, the versions."""
    h = hashlib.sha256()
    h.update(f"damas {__version__} typst {pdf_stage.TYPST_VERSION}\n".encode())
    h.update(job.template.read_bytes())
    for typ in sorted(job.template.parent.glob("*.typ")):  # what the template imports (print.typ)
        h.update(typ.read_bytes())
    data = json.dumps(job.data, sort_keys=True, ensure_ascii=False)
    h.update(data.encode())
    for path in sorted(set(re.findall(r'"/(html/svg/[^"]+)"', data))):
        h.update(path.encode())
        h.update(svgs.get(path, "").encode())
    return h.hexdigest()


PDF_KIND = "pdf"
"""The proof cache's kind for compiled PDFs (generator/cache.py)."""
PDF_SOURCES = ("render/pdf.py",)
"""The code that compiles a job (the relayout of a near-empty last page) besides its inputs."""
PDF_CACHE_BYTES = 256 << 20
"""The compiled PDFs kept in the cache, at most (the bundled course's take 9.6 MB): beyond it, those
used longest ago are deleted (:meth:`generator.cache.Cache.prune`)."""


def _pdf_key(key: str) -> dict[str, str]:
    return {"job": key, "code": source_fingerprint(*PDF_SOURCES)}


def cached_pdf(store: Cache | None, key: str, target: Path) -> bool:
    """Write the PDF an earlier build compiled from the inputs hashed as ``key`` (:func:`job_key`)
    to ``target``; False when the cache has none (then it is compiled).

    Why: a build into another folder (a preview, a clean checkout, a course switched back to an
    earlier version) would otherwise compile every PDF again, which is most of a build whose
    proofs are all in the cache; the stored PDF is the one Typst made from the same template, data,
    diagrams and versions."""
    data = store.get_bytes(PDF_KIND, _pdf_key(key)) if store is not None else None
    if data is None:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return True


def keep_pdfs(store: Cache | None, made: Mapping[str, Path]) -> None:
    """Keep the PDFs just compiled (job hash -> file) for later builds, then bring the PDFs kept
    within :data:`PDF_CACHE_BYTES` (nothing without a cache; a file that cannot be read is not kept)."""
    if store is None or not made:
        return
    for key, path in made.items():
        try:
            data = path.read_bytes()
        except OSError:
            continue
        store.put_bytes(PDF_KIND, _pdf_key(key), data)
    store.prune(PDF_KIND, PDF_CACHE_BYTES)


class Unchanged:
    """Files of the previous build that the new one takes over by a hard link when their bytes are
    the same, instead of writing a copy.

    Why: the old output is deleted once the new one is in place, and deleting a file whose blocks are
    freed is slow on some disks (ext4 mounted with ``discard`` trims every freed extent: about 4 ms per
    file here, half a minute for the step diagrams of a 600-puzzle course).  A file linked into the new
    output frees nothing when the old name goes, and is not written again either.  Only a regular file
    reached through no symbolic link and held by no other link is taken, and only with exactly the
    bytes the build would write (PDFs: when the manifest says their inputs are unchanged, as before);
    anything else is written as usual.  ``previous=None`` (``--clean``) takes nothing.
    """

    def __init__(self, previous: Path | None) -> None:
        self.previous = previous if previous is not None and os.name == "posix" and hasattr(os, "link") else None
        self.folders: dict[str, bool] = {}
        self.made: set[Path] = set()
        self.linked = 0

    def write(self, root: Path, path: str, text: str) -> None:
        """Put ``text`` at ``root/path``: linked from the previous output when unchanged, else written."""
        target = root / path
        if target.parent not in self.made:
            target.parent.mkdir(parents=True, exist_ok=True)
            self.made.add(target.parent)
        if self.previous is None or not self.link(path, target, text.encode("utf-8")):
            target.write_text(text, encoding="utf-8")

    def link(self, path: str, target: Path, data: bytes | None = None) -> bool:
        """Hard-link the previous output's ``path`` to ``target`` (True), if it may be taken over."""
        if self.previous is None or not self._plain_folder(os.path.dirname(path)):
            return False
        source = self.previous / path
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(source, flags)
        except OSError:
            return False
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
                return False
            if data is not None and (info.st_size != len(data) or os.read(fd, len(data) + 1) != data):
                return False
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(source, target, follow_symlinks=False)
        except OSError:
            return False
        finally:
            os.close(fd)
        try:  # the very file that was read, not something put in its place meanwhile
            same = os.lstat(target).st_ino == info.st_ino
        except OSError:
            same = False
        if not same:
            with contextlib.suppress(OSError):
                os.unlink(target)
            return False
        self.linked += 1
        return True

    def _plain_folder(self, folder: str) -> bool:
        """Is the previous output's ``folder`` reached through no symbolic link?"""
        ok = self.folders.get(folder)
        if ok is None and self.previous is not None:
            here = self.previous / folder
            ok = self.folders[folder] = os.path.realpath(here) == os.path.abspath(here)
        return bool(ok)
