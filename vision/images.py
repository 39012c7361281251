"""Reading photos safely: size and type checks before decoding, EXIF orientation, fast reduced decoding."""
from __future__ import annotations

import logging
import math
import os
import stat
import struct
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(200_000_000))  # OpenCV's own decompression-bomb guard
import cv2  # noqa: E402
import numpy as np  # noqa: E402

if "OPENCV_LOG_LEVEL" not in os.environ:  # a bad photo gets the project's one-line error, not OpenCV's log
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)

MAX_BYTES = 20 * 1024 * 1024
MAX_PIXELS = 100_000_000
WORK_SIDE = 1280
"""Photos are shrunk to at most this longer side: plenty for tiles (the detector looks at 480 px)."""
REDUCED_DECODE_SHARE = 0.75
"""A large JPEG is decoded at 1/2, 1/4 or 1/8 scale (much faster) while its longer side stays at least
this share of the working side: a 12-megapixel photo decodes at 1/4, about 1000 px."""

_SIGNATURES = {
    b"\xff\xd8\xff": "JPEG",
    b"\x89PNG\r\n\x1a\n": "PNG",
    b"RIFF": "WebP",
    b"BM": "BMP",
    b"II*\x00": "TIFF",
    b"MM\x00*": "TIFF",
}


class ImageError(ValueError):
    """A photo that cannot be used, with one line saying why."""


@dataclass(frozen=True)
class Photo:
    """A decoded photo: ``image`` (BGR) may be reduced; ``width``/``height`` are the original's, upright."""

    image: np.ndarray
    width: int
    height: int

    @property
    def scale(self) -> float:
        """Original pixels per pixel of ``image``."""
        return self.width / self.image.shape[1]


def image_format(data: bytes) -> str | None:
    for signature, name in _SIGNATURES.items():
        if data.startswith(signature) and (name != "WebP" or data[8:12] == b"WEBP"):
            return name
    if data[4:8] != b"ftyp":
        return None
    size = int.from_bytes(data[:4], "big")  # the ftyp box: major brand, minor version, compatible brands
    brands = {data[8:12]} | {data[k : k + 4] for k in range(16, min(size, 64), 4)}
    return "AVIF" if brands & {b"avif", b"avis"} else None


def _jpeg_segments(data: bytes) -> Iterator[tuple[int, int, int]]:
    """(marker, position, length) of each segment of a JPEG, in order, stepping over fill bytes and the
    markers that stand alone."""
    pos = 2
    while pos + 9 < len(data):
        if data[pos] != 0xFF:
            pos += 1
            continue
        marker = data[pos + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            pos += 1 if marker == 0xFF else 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        yield marker, pos, length
        pos += 2 + length


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    for marker, pos, _ in _jpeg_segments(data):
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[pos + 5 : pos + 9])
            return width, height
    return None


def _jpeg_orientation(data: bytes) -> int:
    """The EXIF orientation (1–8) of a JPEG, from its APP1 Exif segment; 1 when it has none."""
    try:
        for marker, pos, length in _jpeg_segments(data):
            if marker == 0xDA:  # the scan: no EXIF after it
                break
            if marker == 0xE1 and data[pos + 4 : pos + 10] == b"Exif\0\0":
                return _first_ifd(data[pos + 10 : pos + 2 + length], {0x0112}).get(0x0112, 1)
    except struct.error:
        pass
    return 1


def _avif_rotation(data: bytes) -> int:
    """The quarter turns anticlockwise (0–3) of an AVIF's image rotation property (``irot``: a 9-byte box whose
    last byte's two low bits give them), which OpenCV does not apply; 0 when it has none."""
    start = data.find(b"irot", 0, 1 << 16)
    if start < 4 or data[start - 4 : start] != b"\0\0\0\x09" or len(data) <= start + 4:
        return 0
    return data[start + 4] & 3


def _first_ifd(tiff: bytes, tags: set[int]) -> dict[int, int]:
    """The values of ``tags`` (each a SHORT or a LONG) in the first image directory of TIFF data."""
    order = "<" if tiff.startswith(b"II") else ">"
    (ifd,) = struct.unpack_from(order + "I", tiff, 4)
    (count,) = struct.unpack_from(order + "H", tiff, ifd)
    values: dict[int, int] = {}
    for pos in range(ifd + 2, ifd + 2 + 12 * count, 12):
        tag, kind = struct.unpack_from(order + "HH", tiff, pos)
        if tag in tags:
            values[tag] = struct.unpack_from(order + ("H" if kind == 3 else "I"), tiff, pos + 8)[0]
    return values


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    size = _first_ifd(data, {256, 257})  # ImageWidth, ImageLength
    return (size[256], size[257]) if len(size) == 2 else None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 ":  # lossy: 14-bit sizes after the frame tag and start code
        width, height = struct.unpack_from("<HH", data, 26)
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":  # lossless: 14-bit sizes less one, after the signature byte
        (bits,) = struct.unpack_from("<I", data, 21)
        return (bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:  # extended: 24-bit canvas sizes less one
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


HEIF_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1"}
"""The major brands of a HEIC/HEIF image file (its bytes 8–11, after ``ftyp``), as iPhones take photos by
default: OpenCV's wheels do not decode them (AVIF, the same container, they do)."""


def header_size(data: bytes, kind: str) -> tuple[int, int] | None:
    """Width and height from the file header, without decoding; None if not readable there."""
    try:
        if kind == "PNG":
            return struct.unpack_from(">II", data, 16)
        if kind == "JPEG":
            return _jpeg_size(data)
        if kind == "BMP":  # a 12-byte core header holds 16-bit sizes, later headers signed 32-bit ones
            core = struct.unpack_from("<I", data, 14)[0] == 12
            width, height = struct.unpack_from("<HH" if core else "<ii", data, 18)
            return width, abs(height)
        if kind == "TIFF":
            return _tiff_size(data)
        if kind == "AVIF":  # the image's spatial extents property: version and flags, then width and height
            start = data.find(b"ispe", 0, 1 << 16)
            return struct.unpack_from(">II", data, start + 8) if start >= 0 else None
        return _webp_size(data)
    except struct.error:
        return None


SMALLER = ": send it as a JPEG, a fraction of the size (a 12-megapixel PNG can be over 20 MB)"
"""What a player can do about a file over the limit."""
SMALLER_JPEG = f": send a copy with fewer pixels (the reader shrinks a photo to {WORK_SIDE:,} pixels a side)"
"""What a player can do about a JPEG over the limit."""


def _smaller(head: bytes) -> str:
    """What to do about a file over the limit that starts with ``head``."""
    return SMALLER_JPEG if image_format(head) == "JPEG" else SMALLER


def decode_photo(data: bytes, name: str = "image", work_side: int = WORK_SIDE) -> Photo:
    """Check and decode image bytes; EXIF orientation (an AVIF's rotation) applied; large JPEGs decoded at 1/2, 1/4
    or 1/8."""
    if not data:
        raise ImageError(f"{name}: the file is empty")
    if len(data) > MAX_BYTES:
        raise ImageError(f"{name}: the file is larger than the {MAX_BYTES // 2**20} MB limit{_smaller(data[:16])}")
    kind = image_format(data)
    if kind is None and data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS:
        raise ImageError(f"{name}: a HEIC/HEIF photo, which cannot be read here: send it as JPEG (an iPhone takes "
                         "JPEGs with Settings › Camera › Formats › Most Compatible)")
    if kind is None:
        raise ImageError(f"{name}: not an image (JPEG, PNG, WebP, AVIF, BMP or TIFF expected)")
    size = header_size(data, kind)
    if size is None:
        raise ImageError(f"{name}: the image data is damaged or in an unsupported format")
    if size[0] * size[1] > MAX_PIXELS:
        raise ImageError(f"{name}: {size[0]}×{size[1]} pixels is more than the {MAX_PIXELS // 10**6}-megapixel limit")
    buffer = np.frombuffer(data, np.uint8)
    flags = cv2.IMREAD_COLOR
    if kind == "JPEG":
        for factor, reduced in ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4), (2, cv2.IMREAD_REDUCED_COLOR_2)):
            if max(size) / factor >= work_side * REDUCED_DECODE_SHARE:
                flags = reduced
                break
    image = _imdecode(buffer, flags)
    if image is None and kind == "JPEG" and not data.endswith(JPEG_END):
        # no end marker: all the picture may still be there (OpenCV refuses the file), or it was cut short
        image = _imdecode(np.frombuffer(data + JPEG_END, np.uint8), flags)
        if image is not None and _blank_edge(image) > CUT_SHORT_SHARE * min(image.shape[:2]):
            raise ImageError(f"{name}: the file is cut short: part of the picture is missing (send it whole)")
    if image is None:
        raise ImageError(f"{name}: the image data is damaged or in an unsupported format")
    if kind == "AVIF":
        image = np.rot90(image, _avif_rotation(data))
    # IMREAD_COLOR and its reduced forms give 8-bit BGR whatever the file holds (grey, alpha, 16 bits)
    full_height, full_width = image.shape[:2]
    if flags != cv2.IMREAD_COLOR:
        # a reduced decode: the original size is the header's, with axes swapped if EXIF turned the photo
        full_width, full_height = size[::-1] if _jpeg_orientation(data) in (5, 6, 7, 8) else size
    image = np.ascontiguousarray(fit_within(image, work_side))
    return Photo(image=image, width=int(full_width), height=int(full_height))


JPEG_END = b"\xff\xd9"
"""The marker that ends a JPEG."""
CUT_SHORT_SHARE = 0.01
"""A JPEG without its end marker is read when no more than this share of the picture's side is blank at an edge
(what the decoder fills in for data missing); more is a file cut short."""


def _imdecode(buffer: np.ndarray, flags: int) -> np.ndarray | None:
    """OpenCV's decoding of ``buffer``; None when it gives no picture (an error, nothing, or an empty image)."""
    try:
        with _decoder_messages_logged():
            image = cv2.imdecode(buffer, flags)
    except cv2.error:
        return None
    return image if image is not None and image.size else None


_STDERR_LOCK = threading.Lock()


@contextmanager
def _decoder_messages_logged() -> Iterator[None]:
    """Standard error (file descriptor 2) taken aside while the block runs, what was written to it logged at debug
    level: libjpeg writes its warnings there itself ("Corrupt JPEG data: premature end of data segment"), and the
    project's own line says what is wrong with a photo. Nothing is taken aside where there is no descriptor 2."""
    with _STDERR_LOCK:
        try:
            saved = os.dup(2)
        except OSError:
            yield
            return
        with tempfile.TemporaryFile() as aside:
            sys.stderr.flush()
            os.dup2(aside.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
                os.close(saved)
                aside.seek(0)
                written = aside.read().decode(errors="replace").strip()
        if written:
            logging.getLogger(__name__).debug("image decoder: %s", written)


def _blank_edge(image: np.ndarray) -> int:
    """The most rows or columns of one colour each at any edge of the image (the EXIF orientation may have
    turned the picture's missing end to any side)."""
    def run(lines: np.ndarray) -> int:
        flat = lines.reshape(len(lines), -1)
        varied = np.flatnonzero(flat.max(axis=1) != flat.min(axis=1))
        return len(lines) if not len(varied) else int(varied[0])

    return max(run(image[::-1]), run(image), run(image.transpose(1, 0, 2)[::-1]), run(image.transpose(1, 0, 2)))


def fit_within(image: np.ndarray, side: int) -> np.ndarray:
    """The image shrunk, aspect kept, so that its longer side is at most ``side``; a side that would shrink
    under a pixel keeps one. An image already small enough is returned as it is."""
    if max(image.shape[:2]) <= side:
        return image
    scale = side / max(image.shape[:2])
    size = (max(round(image.shape[1] * scale), 1), max(round(image.shape[0] * scale), 1))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def read_photo(path: str | Path) -> Photo:
    """Read and decode a photo file, with a one-line ImageError when it cannot be used."""
    path = Path(path)
    try:
        status = path.stat()
        if stat.S_ISDIR(status.st_mode):
            raise ImageError(f"{path}: is a directory, not an image")
        if not stat.S_ISREG(status.st_mode):  # a pipe or a device could block or never end
            raise ImageError(f"{path}: not a regular file")
        if status.st_size > MAX_BYTES:
            size_mb = math.ceil(status.st_size / 2**20 * 10) / 10  # rounded up: never "20.0 MB, larger than 20 MB"
            with open(path, "rb") as f:
                head = f.read(16)
            raise ImageError(f"{path}: the file is {size_mb:.1f} MB, larger than the {MAX_BYTES // 2**20} MB limit"
                             f"{_smaller(head)}")
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ImageError(f"{path}: no such file") from None
    except OSError as error:
        raise ImageError(f"{path}: cannot be read ({error.strerror})") from None
    return decode_photo(data, str(path))
