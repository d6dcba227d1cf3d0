"""Single-diagram files: SVG as is, PNG and PDF through cairosvg (never in its unsafe mode).

Files are written atomically: a temporary file in the same folder, then ``os.replace``, so a
failed export never leaves half a file behind.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import DamasError

FORMATS = (".svg", ".png", ".pdf")
PNG_WIDTH = 800
"""Default PNG width in pixels (the height follows the diagram's aspect ratio)."""


class ExportError(DamasError):
    """A diagram file that cannot be written (unsupported suffix, unwritable folder)."""


def export_format(path: str | os.PathLike[str]) -> str:
    """The format ``path`` asks for: ``"svg"``, ``"png"`` or ``"pdf"`` (suffix, any case).

    Raises:
        ExportError: (a ValueError) for any other suffix.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        shown = suffix or "no suffix"
        raise ExportError(f"cannot export a diagram to '{os.fspath(path)}' ({shown}): use .svg, .png or .pdf")
    return suffix[1:]


def to_bytes(svg_text: str, fmt: str, *, width: int | None = None) -> bytes:
    """The diagram as file content in ``fmt`` (``svg``, ``png`` or ``pdf``).

    ``width`` is the PNG width in pixels (default :data:`PNG_WIDTH`); PDFs keep the SVG's own size.
    """
    data = svg_text.encode("utf-8")
    if fmt == "svg":
        return data
    import cairosvg  # imported late: it loads the cairo C library

    if fmt == "png":
        return cairosvg.svg2png(bytestring=data, output_width=width or PNG_WIDTH, unsafe=False)
    if fmt == "pdf":
        return cairosvg.svg2pdf(bytestring=data, unsafe=False)
    raise ExportError(f"unknown export format '{fmt}' (formats: svg, png, pdf)")


def export(svg_text: str, path: str | os.PathLike[str], *, width: int | None = None) -> Path:
    """Write ``svg_text`` to ``path`` as SVG, PNG or PDF, chosen by the suffix.

    Raises:
        ExportError: (a ValueError and DamasError) for an unsupported suffix or a file that cannot
            be written.
    """
    target = Path(path)
    fmt = export_format(target)
    data = to_bytes(svg_text, fmt, width=width)
    write_atomic(target, data)
    return target


def write_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` through a temporary file in the same folder and ``os.replace``.

    Raises:
        ExportError: when the folder is missing or not writable.
    """
    folder = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise ExportError(f"cannot write '{target}': {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ExportError(f"cannot write '{target}': {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
