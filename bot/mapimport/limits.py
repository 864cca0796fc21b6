"""Limits on uploaded map files, and readers that refuse image, compression and archive bombs.

Nothing here trusts a size a file declares: decompression stops one byte past the limit, and an
image's pixel count is checked from its header before any pixel is decoded.
"""

from __future__ import annotations

import io
import logging
import zipfile
import zlib
from dataclasses import dataclass

from rules.errors import GameError
from rules.filelimits import Limits

log = logging.getLogger(__name__)

MAX_UPLOAD = 4 * 1024 * 1024  # bytes of any one uploaded file
MAX_UNPACKED = 8 * 1024 * 1024  # bytes unpacked from an archive or a compressed layer, all together
MAX_ENTRIES = 32  # files in an archive
MAX_RATIO = 200  # an entry may unpack to at most this many times its packed size
MAX_PIXELS = 16_000_000  # a picture of 4000 x 4000 pixels
CHUNK = 64 * 1024
# Mapping files and legends are a few flat tables; Tiled maps nest group layers, a few levels in practice.
MAP_FILE_LIMITS = Limits("a mapping or legend file", max_bytes=MAX_UPLOAD, max_depth=6, max_containers=10_000,
                         max_values=100_000, max_string=2_000)
TILED_LIMITS = Limits("a Tiled map or tileset", max_bytes=MAX_UNPACKED, max_depth=64, max_containers=200_000,
                      max_values=4_000_000, max_string=MAX_UNPACKED)


class MapImportError(GameError):
    """A map file that cannot be imported; the message says what is wrong and how to fix it."""


def check_upload(name: str, size: int) -> None:
    """Refuse a file bigger than an import may be, before downloading it."""
    if size > MAX_UPLOAD:
        raise MapImportError(
            f"`{name}` is {size // 1024} KiB; a map file may be at most {MAX_UPLOAD // 1024 // 1024} MiB."
        )


def inflate(data: bytes, *, limit: int, what: str, gzip_wrapped: bool = False) -> bytes:
    """Decompress zlib or gzip data, refusing anything that would unpack past `limit` bytes."""
    engine = zlib.decompressobj(16 + zlib.MAX_WBITS if gzip_wrapped else zlib.MAX_WBITS)
    try:
        out = engine.decompress(data, limit + 1)
    except zlib.error as exc:
        raise MapImportError(f"{what} is not valid {'gzip' if gzip_wrapped else 'zlib'} data ({exc}).") from None
    if len(out) > limit or engine.unconsumed_tail:
        raise MapImportError(
            f"{what} unpacks to more than {limit} bytes, far more than a map of that size holds; it was refused."
        )
    return out


@dataclass(frozen=True)
class Archive:
    """The files of an uploaded .zip, by base name (folders are ignored)."""

    files: dict[str, bytes]


def read_archive(data: bytes, name: str) -> Archive:
    """Unpack a .zip upload within the limits: few entries, bounded sizes, no extreme compression."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise MapImportError(f"`{name}` is not a .zip archive that can be read.") from None
    entries = [e for e in archive.infolist() if not e.is_dir()]
    if len(entries) > MAX_ENTRIES:
        raise MapImportError(f"`{name}` holds {len(entries)} files; a map archive may hold at most {MAX_ENTRIES}.")
    files: dict[str, bytes] = {}
    total = 0
    for entry in entries:
        base = entry.filename.replace("\\", "/").rsplit("/", 1)[-1]
        if not base or base.startswith("."):
            continue
        if entry.flag_bits & 0x1:
            raise MapImportError(f"`{entry.filename}` in `{name}` is encrypted; zip it again without a password.")
        budget = min(MAX_UNPACKED - total, max(CHUNK, entry.compress_size * MAX_RATIO))
        # Read in chunks and stop one past the budget: the sizes in the archive's header are not trusted.
        out = bytearray()
        try:
            with archive.open(entry) as handle:
                while len(out) <= budget:
                    piece = handle.read(CHUNK)
                    if not piece:
                        break
                    out += piece
        except (zipfile.BadZipFile, NotImplementedError, zlib.error, EOFError) as exc:
            raise MapImportError(f"`{entry.filename}` in `{name}` cannot be unpacked ({exc}).") from None
        if len(out) > budget:
            raise MapImportError(
                f"`{entry.filename}` in `{name}` unpacks to far more than a map needs (over {budget // 1024} KiB); "
                "the archive was refused."
            )
        total += len(out)
        files[base] = bytes(out)
    return Archive(files)
