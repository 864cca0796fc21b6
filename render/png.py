"""PNG files written the quick way: every row stored unfiltered, deflated at the fastest level in bands of rows.

Pillow's writer tries five filters on every row and keeps the best; on a map that search costs about
as much as the compression itself, for a file only a few percent smaller. The pixels are the same either
way: PNG filters are lossless, so a decoder gives back exactly the image that went in.

The rows are deflated in bands of BAND_ROWS rows, each band on its own (a fresh compressor, flushed to a
byte boundary), and the bands are joined into one zlib stream. A band's compressed bytes depend on that
band's pixels alone, so a map drawn again after an order can take the bands whose pixels did not change
from the battle's last frame (`Frame`) instead of deflating them again, and the file is the same, byte for
byte, as when every band is deflated afresh.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
COMPRESS_LEVEL = 1  # zlib's fastest level that still compresses
COLOUR_TYPES = {"RGB": (2, 3), "L": (0, 1)}  # PNG colour type and bytes per pixel
BAND_ROWS = 32  # rows deflated together: small enough to reuse, large enough to compress as well as whole
# The zlib header of a stream deflated at level 1 with a 32 KiB window (RFC 1950: CMF 0x78, FLEVEL 0).
ZLIB_HEADER = b"\x78\x01"


@dataclass(frozen=True)
class Frame:
    """Keep an encoded image: its size and mode, its raw rows, and each band's deflated bytes (read-only)."""

    size: tuple[int, int]
    mode: str
    rows: bytes
    bands: tuple[bytes, ...]
    checksums: tuple[int, ...]  # each band's Adler-32, joined into the stream's own


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _deflate(band: memoryview, last: bool) -> bytes:
    """Deflate one band with a compressor of its own, ending the stream if it is the last band."""
    compressor = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    # A sync flush ends the band on a byte boundary without ending the stream: the next band follows it.
    return compressor.compress(band) + compressor.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """Return the Adler-32 of two pieces of data joined, from each piece's own and the second's length."""
    # The arithmetic of zlib's adler32_combine (RFC 1950 defines the sums modulo 65521).
    base = 65521
    rem = second_length % base
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % base
    sum1 = (sum1 + (second & 0xFFFF) + base - 1) % base
    sum2 = (sum2 + ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + base - rem) % base
    return sum1 | (sum2 << 16)


def encode_frame(image: Image.Image, kept: Frame | None = None) -> Frame:
    """Encode an RGB or L image's rows, taking the deflated bands whose rows equal the kept frame's."""
    if image.mode not in COLOUR_TYPES:
        raise ValueError(f"write_png takes RGB or L images, not {image.mode}")
    _, depth = COLOUR_TYPES[image.mode]
    width, height = image.size
    pixels = image.tobytes()
    stride = width * depth
    # Each row is preceded by its filter byte (0: none); the zeros are there from the start.
    raw = bytearray((stride + 1) * height)
    for y in range(height):
        start = y * (stride + 1) + 1
        raw[start : start + stride] = pixels[y * stride : (y + 1) * stride]
    rows = bytes(raw)
    same_shape = kept is not None and kept.size == image.size and kept.mode == image.mode
    old = kept.rows if kept is not None and same_shape else None
    view = memoryview(rows)
    band_bytes = (stride + 1) * BAND_ROWS
    count = max(1, -(-height // BAND_ROWS))
    bands: list[bytes] = []
    checksums: list[int] = []
    for i in range(count):
        lo, hi = i * band_bytes, min(len(rows), (i + 1) * band_bytes)
        # Slices of bytes compare with memcmp; a memoryview would compare item by item.
        if old is not None and kept is not None and old[lo:hi] == rows[lo:hi]:
            bands.append(kept.bands[i])
            checksums.append(kept.checksums[i])
        else:
            bands.append(_deflate(view[lo:hi], last=i == count - 1))
            checksums.append(zlib.adler32(view[lo:hi]))
    return Frame(size=image.size, mode=image.mode, rows=rows, bands=tuple(bands), checksums=tuple(checksums))


def frame_png(frame: Frame) -> bytes:
    """Return the PNG file of an encoded frame."""
    colour_type, _ = COLOUR_TYPES[frame.mode]
    width, height = frame.size
    checksum = 1  # the Adler-32 of nothing
    band_bytes = (width * COLOUR_TYPES[frame.mode][1] + 1) * BAND_ROWS
    for i, band in enumerate(frame.checksums):
        checksum = adler32_combine(checksum, band, min(band_bytes, len(frame.rows) - i * band_bytes))
    data = b"".join((ZLIB_HEADER, *frame.bands, struct.pack(">I", checksum)))
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def write_png(image: Image.Image) -> bytes:
    """Encode an RGB or L image as an 8-bit PNG with unfiltered rows."""
    return frame_png(encode_frame(image))
