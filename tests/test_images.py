"""Reading photos: formats, EXIF orientation, reduced decoding, and every kind of bad input."""
import struct
import zlib

import cv2
import numpy as np
import pytest

from datasets.real import REAL_DATA
from vision.images import MAX_BYTES, ImageError, decode_photo, read_photo


def jpeg_bytes(image: np.ndarray, quality: int = 90) -> bytes:
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()


def with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """Insert an EXIF APP1 segment holding only the Orientation tag right after the SOI marker."""
    tiff = b"MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 1)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    payload = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def marked_image(width: int = 400, height: int = 300) -> np.ndarray:
    image = np.full((height, width, 3), 255, np.uint8)
    cv2.rectangle(image, (0, 0), (width // 4, height // 4), (0, 0, 255), -1)  # red top-left corner
    return image


def test_jpeg_decodes_at_full_size():
    photo = decode_photo(jpeg_bytes(marked_image()), "a.jpg")
    assert (photo.width, photo.height) == (400, 300)
    assert photo.image.shape == (300, 400, 3)


def test_exif_orientation_is_applied():
    rotated = decode_photo(with_exif_orientation(jpeg_bytes(marked_image()), 6), "r.jpg")
    assert (rotated.width, rotated.height) == (300, 400)
    # orientation 6 turns the picture 90° clockwise: the red corner moves to the top-right
    top_right = rotated.image[10, -10]
    assert top_right[2] > 200 and top_right[0] < 80


def test_large_jpeg_is_decoded_reduced_but_reports_original_size():
    big = np.full((3000, 4000, 3), 200, np.uint8)
    photo = decode_photo(jpeg_bytes(big, 70), "big.jpg", work_side=1600)
    assert (photo.width, photo.height) == (4000, 3000)
    assert max(photo.image.shape[:2]) <= 1600
    assert photo.scale == pytest.approx(4000 / photo.image.shape[1])


def test_large_rotated_jpeg_reports_upright_original_size():
    big = np.full((3000, 4000, 3), 200, np.uint8)
    photo = decode_photo(with_exif_orientation(jpeg_bytes(big, 70), 8), "big.jpg", work_side=1600)
    assert (photo.width, photo.height) == (3000, 4000)
    assert photo.image.shape[0] > photo.image.shape[1]


def test_png_with_alpha_and_grey_png_are_read_as_colour():
    rgba = np.zeros((50, 60, 4), np.uint8)
    grey = np.zeros((50, 60), np.uint8)
    deep = np.full((50, 60, 3), 40000, np.uint16)
    for image in (rgba, grey, deep):
        photo = decode_photo(cv2.imencode(".png", image)[1].tobytes(), "x.png")
        assert (photo.image.shape, photo.image.dtype) == ((50, 60, 3), np.uint8)
    big_grey = decode_photo(cv2.imencode(".jpg", np.zeros((3000, 4000), np.uint8))[1].tobytes(), "x.jpg")
    assert big_grey.image.ndim == 3 and big_grey.image.shape[2] == 3  # a reduced decode is colour too


def test_avif_is_read() -> None:
    data = cv2.imencode(".avif", marked_image(200, 120))[1].tobytes()
    photo = decode_photo(data, "x.avif")
    assert (photo.width, photo.height, photo.image.shape) == (200, 120, (120, 200, 3))
    general = data[:8] + b"mif1" + data[12:]  # the HEIF brand first, AVIF among the compatible ones: AVIF still
    assert decode_photo(general, "x.avif").image.shape == (120, 200, 3)


def avif_turned(image: np.ndarray, turns: int) -> bytes:
    """``image`` as an AVIF whose rotation property (``irot``) says ``turns`` quarter turns anticlockwise: OpenCV's
    colour property (``colr``, 19 bytes) replaced by an ``irot`` box and padding, marked essential (as HEIF asks)."""
    data = cv2.imencode(".avif", image)[1].tobytes()
    colr = data.find(b"colr") - 4
    size = struct.unpack_from(">I", data, colr)[0]
    boxes = struct.pack(">I4sB", 9, b"irot", turns) + struct.pack(">I4s", size - 9, b"free") + bytes(size - 17)
    data = data[:colr] + boxes + data[colr + size:]
    ipma = data.find(b"ipma")  # version and flags, one entry: item 1, four properties, the fourth the colr's
    assert data[ipma + 12 : ipma + 19] == b"\x00\x01\x04\x01\x02\x83\x04"
    return data[: ipma + 18] + b"\x84" + data[ipma + 19 :]


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_an_avif_is_turned_as_its_rotation_property_says(turns):
    image = np.zeros((120, 200, 3), np.uint8)
    image[:20, :40] = 255  # a mark at the top left
    photo = decode_photo(avif_turned(image, turns), "x.avif")
    turned = np.rot90(image, turns)  # numpy turns anticlockwise, as irot does
    assert (photo.width, photo.height) == (turned.shape[1], turned.shape[0])
    assert np.abs(photo.image.astype(int) - turned).mean() < 3


@pytest.mark.parametrize("orientation, size", [(1, (1999, 2000)), (6, (2000, 1999)), (8, (2000, 1999))])
def test_near_square_large_jpeg_reports_its_size_the_way_exif_turns_it(orientation, size):
    # decoded reduced, the photo is square: only the EXIF orientation says whether its axes swap
    jpeg = with_exif_orientation(jpeg_bytes(marked_image(1999, 2000), quality=30), orientation)
    photo = decode_photo(jpeg, "near-square.jpg")
    assert (photo.width, photo.height) == size


def png_header_claiming(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return b"\x89PNG\r\n\x1a\n" + chunk


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "empty"),
        (b"hello, this is text", "not an image"),
        (png_header_claiming(30000, 30000), "megapixel limit"),
        (jpeg_bytes(marked_image())[:200], "damaged"),
        (b"\xff\xd8\xff" + b"\x00" * 100, "damaged"),
        (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 100, "a HEIC/HEIF photo"),
        (b"\x00\x00\x00\x18ftypmif1\x00\x00\x00\x00mif1heic" + b"\x00" * 100, "send it as JPEG"),
    ],
)
def test_bad_images_are_rejected_with_one_line(data, message):
    with pytest.raises(ImageError) as error:
        decode_photo(data, "upload")
    text = str(error.value)
    assert message in text and "\n" not in text and text.startswith("upload")


def test_a_jpeg_without_its_end_marker_is_read_whole_and_one_cut_short_is_refused():
    photo = cv2.imread(str(sorted((REAL_DATA / "valid" / "images").glob("*.jpg"))[0]))
    data = jpeg_bytes(photo)
    assert data.endswith(b"\xff\xd9")
    whole = decode_photo(data, "a.jpg").image
    assert np.array_equal(decode_photo(data[:-2], "a.jpg").image, whole)  # only the end marker lost
    for cut in (data[: len(data) // 2], with_exif_orientation(data, 6)[: len(data) * 9 // 10]):  # the end at a side
        with pytest.raises(ImageError, match="^a.jpg: the file is cut short: part of the picture is missing"):
            decode_photo(cut, "a.jpg")


def test_decompression_bomb_png_is_rejected_before_decoding():
    # a real 12000×12000 PNG compresses to well under a megabyte but would need 432 MB decoded as colour
    bomb = cv2.imencode(".png", np.zeros((12000, 12000), np.uint8), [cv2.IMWRITE_PNG_COMPRESSION, 1])[1].tobytes()
    assert len(bomb) < 2 * 1024 * 1024
    with pytest.raises(ImageError, match="megapixel limit"):
        decode_photo(bomb, "bomb.png")


def test_oversized_file_is_rejected():
    with pytest.raises(ImageError, match="MB limit"):
        decode_photo(b"\xff\xd8\xff" + b"\x00" * MAX_BYTES, "huge.jpg")


def test_read_photo_reports_missing_file_and_directory(tmp_path):
    with pytest.raises(ImageError, match="no such file"):
        read_photo(tmp_path / "missing.jpg")
    with pytest.raises(ImageError, match="directory"):
        read_photo(tmp_path)
