"""PNG files written the quick way: every row stored unfiltered, deflated at the fastest level in bands of rows.

Pillow's writer tries five filters on every row and keeps the best; on a map that search costs about
as much as the compression itself, for a file only a few percent smaller. The pixels are the same either
way: PNG filters are lossless, so a decoder gives back exactly the image that went in.

The rows are deflated in bands of BAND_ROWS rows, each band on its own (a fresh compressor, flushed to a
byte boundary), and the bands are joined into one zlib stream. A band's compressed bytes depend on that
band's pixels alone, so a map drawn again after an order can take the bands whose pixels did not change
from the battle's last frame (`Frame`) instead of deflating them again, and the file is the same, byte for
byte, as when every band is deflated afresh. A caller that knows which rows it drew on (a map repainted in
place, see render.api) names the bands that may have changed, and only those are read and deflated.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Collection
from dataclasses import dataclass

from PIL import Image, ImageChops

SIGNATURE = b"\x89PNG\r\n\x1a\n"
COMPRESS_LEVEL = 1  # zlib's fastest level that still compresses
COLOUR_TYPES = {"RGB": (2, 3), "L": (0, 1)}  # PNG colour type and bytes per pixel
BAND_ROWS = 32  # rows deflated together: small enough to reuse, large enough to compress as well as whole
# The zlib header of a stream deflated at level 1 with a 32 KiB window (RFC 1950: CMF 0x78, FLEVEL 0).
ZLIB_HEADER = b"\x78\x01"


@dataclass(frozen=True)
class Frame:
    """Keep an encoded image: its size and mode, its pixels, and each band's deflated bytes.

    The image is the one encoded; whoever takes a kept frame out of its store owns it, and may draw on the
    image to make the next frame (render.api does), so a frame is never shared while it is in use.
    """

    size: tuple[int, int]
    mode: str
    image: Image.Image
    bands: tuple[bytes, ...]
    checksums: tuple[int, ...]  # each band's Adler-32, joined into the stream's own

    @property
    def stride(self) -> int:
        """Return the bytes of one row of pixels, without its filter byte."""
        return self.size[0] * COLOUR_TYPES[self.mode][1]

    @property
    def nbytes(self) -> int:
        """Return the bytes the frame holds: its pixels as Pillow stores them (four a pixel for RGB) and its bands."""
        per_pixel = 4 if self.mode == "RGB" else 1
        return self.size[0] * self.size[1] * per_pixel + sum(len(b) for b in self.bands)


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


def band_count(height: int) -> int:
    """Return how many bands of rows an image of this height is deflated in."""
    return max(1, -(-height // BAND_ROWS))


def _raw(pixels: bytes, stride: int) -> bytes:
    """Return rows of pixels as PNG stores them: each row preceded by its filter byte (0: none)."""
    rows = len(pixels) // stride
    raw = bytearray((stride + 1) * rows)  # the filter bytes are zeros from the start
    for y in range(rows):
        start = y * (stride + 1) + 1
        raw[start : start + stride] = pixels[y * stride : (y + 1) * stride]
    return bytes(raw)


def encode_frame(image: Image.Image, kept: Frame | None = None, changed: Collection[int] | None = None) -> Frame:
    """Encode an RGB or L image's rows, taking the deflated bands whose rows equal the kept frame's.

    With `changed`, the caller vouches that only those bands' rows may differ from the kept frame's (it drew
    on the kept image itself): the other bands are taken as they are, without reading their rows.
    """
    if image.mode not in COLOUR_TYPES:
        raise ValueError(f"write_png takes RGB or L images, not {image.mode}")
    _, depth = COLOUR_TYPES[image.mode]
    width, height = image.size
    stride = width * depth
    count = band_count(height)
    if kept is None or kept.size != image.size or kept.mode != image.mode:
        pixels = image.tobytes()
        band_bytes = stride * BAND_ROWS
        raws = [_raw(pixels[i * band_bytes:(i + 1) * band_bytes], stride) for i in range(count)]
        bands = tuple(_deflate(memoryview(raw), last=i == count - 1) for i, raw in enumerate(raws))
        return Frame(image.size, image.mode, image, bands, tuple(zlib.adler32(raw) for raw in raws))
    if changed is None:
        # The rows where any pixel differs from the kept image's, found in C without copying either image's bytes.
        _, rows = ImageChops.difference(image, kept.image).getprojection()
        changed = {y // BAND_ROWS for y, differs in enumerate(rows) if differs}
    out: list[bytes] = []
    checksums: list[int] = []
    for i in range(count):
        if i not in changed:
            out.append(kept.bands[i])
            checksums.append(kept.checksums[i])
            continue
        raw = _raw(image.crop((0, i * BAND_ROWS, width, min(height, (i + 1) * BAND_ROWS))).tobytes(), stride)
        out.append(_deflate(memoryview(raw), last=i == count - 1))
        checksums.append(zlib.adler32(raw))
    return Frame(image.size, image.mode, image, tuple(out), tuple(checksums))


def frame_png(frame: Frame) -> bytes:
    """Return the PNG file of an encoded frame."""
    colour_type, _ = COLOUR_TYPES[frame.mode]
    width, height = frame.size
    checksum = 1  # the Adler-32 of nothing
    row_bytes = frame.stride + 1
    for i, band in enumerate(frame.checksums):
        rows = min(BAND_ROWS, height - i * BAND_ROWS)
        checksum = adler32_combine(checksum, band, rows * row_bytes)
    data = b"".join((ZLIB_HEADER, *frame.bands, struct.pack(">I", checksum)))
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def write_png(image: Image.Image) -> bytes:
    """Encode an RGB or L image as an 8-bit PNG with unfiltered rows."""
    return frame_png(encode_frame(image))
