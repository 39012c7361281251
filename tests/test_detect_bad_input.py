"""`mjcam detect` and `vision.images` on bad input: one clear line, a non-zero exit, and nothing lost."""
from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.real import REAL_DATA
from mjcam.cli import main
from vision.images import SMALLER, SMALLER_JPEG, ImageError, decode_photo, fit_within

PHOTO = sorted((REAL_DATA / "valid" / "images").glob("*.jpg"))[0]


def detect(capsys, *args: str | Path) -> tuple[int, list[str], list[str]]:
    """Exit status, stdout lines and stderr lines of `mjcam detect ARGS`, run in this process."""
    try:
        status = main(["detect", *map(str, args)])
    except SystemExit as exit_:  # argparse refusing an argument
        status = exit_.code
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


def test_annotating_into_the_photos_folder_keeps_the_photos(tmp_path, capsys):
    shutil.copy(PHOTO, tmp_path / "hand.jpg")
    shutil.copy(PHOTO, tmp_path / "hand-2.jpg")
    status, out, err = detect(capsys, tmp_path / "hand.jpg", tmp_path / "hand-2.jpg", "--annotate", tmp_path)
    assert (status, len(out), err) == (0, 2, [])
    assert (tmp_path / "hand.jpg").read_bytes() == (tmp_path / "hand-2.jpg").read_bytes() == PHOTO.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand-2-2.jpg", "hand-2.jpg", "hand-3.jpg", "hand.jpg"]


def test_photos_of_the_same_stem_get_one_annotated_copy_each(tmp_path, capsys):
    for name in ("a/hand.jpg", "b/hand.jpg", "a/hand.webp"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        shutil.copy(PHOTO, tmp_path / name)
    out_dir = tmp_path / "out"
    status, out, err = detect(capsys, tmp_path / "a/hand.jpg", tmp_path / "b/hand.jpg", tmp_path / "a/hand.webp",
                              "--annotate", out_dir)
    assert (status, len(out), err) == (0, 3, [])
    assert sorted(p.name for p in out_dir.iterdir()) == ["hand-2.jpg", "hand-3.jpg", "hand.jpg"]


def test_a_failed_annotated_write_is_one_line_and_exit_1_after_the_others(tmp_path, capsys):
    stem = "h" * 251  # STEM.jpg fits a file name (255 bytes at most) but STEM-2.jpg does not
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / f"{stem}.jpg").write_bytes(b"a photo of yours")
    shutil.copy(PHOTO, tmp_path / f"{stem}.png")
    shutil.copy(PHOTO, tmp_path / "other.jpg")
    status, out, err = detect(capsys, tmp_path / f"{stem}.png", tmp_path / "other.jpg", "--annotate", tmp_path / "out")
    assert (status, len(out)) == (1, 2)
    failed = tmp_path / "out" / f"{stem}-2.jpg"
    assert err == [f"mjcam detect: {failed}: cannot write the annotated photo (File name too long)"]
    assert (tmp_path / "out" / f"{stem}.jpg").read_bytes() == b"a photo of yours"
    assert (tmp_path / "out" / "other.jpg").is_file()


@pytest.mark.parametrize("folder, reason", [("afile", "File exists"), ("afile/x", "Not a directory")])
def test_an_unusable_annotate_folder_is_one_line(tmp_path, capsys, folder, reason):
    (tmp_path / "afile").write_text("keep me")
    status, out, err = detect(capsys, PHOTO, "--annotate", tmp_path / folder)
    assert (status, out) == (2, [])
    assert err == [f"mjcam detect: --annotate {tmp_path / folder}: cannot make that folder ({reason})"]
    assert (tmp_path / "afile").read_text() == "keep me"


def webp_header(chunk: bytes, width: int, height: int) -> bytes:
    """The first bytes of a WebP of each kind claiming ``width``×``height`` (lossy, lossless, extended)."""
    if chunk == b"VP8 ":
        data = b"\x00" * 3 + b"\x9d\x01\x2a" + struct.pack("<HH", width, height)
    elif chunk == b"VP8L":
        data = b"\x2f" + struct.pack("<I", (width - 1) | (height - 1) << 14)
    else:
        data = b"\x00" * 4 + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    body = b"WEBP" + chunk + struct.pack("<I", len(data)) + data + b"\x00" * 64
    return b"RIFF" + struct.pack("<I", len(body)) + body


def bmp_header(width: int, height: int) -> bytes:
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, 0, 0, 0, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + len(info), 0, 0, 14 + len(info)) + info + b"\x00" * 64


@pytest.mark.parametrize("data, size", [
    (webp_header(b"VP8 ", 10400, 10400), "10400×10400"),
    (webp_header(b"VP8L", 16384, 7000), "16384×7000"),
    (webp_header(b"VP8X", 15000, 14000), "15000×14000"),
    (bmp_header(12000, -9000), "12000×9000"),
    (cv2.imencode(".tif", np.zeros((10100, 10100), np.uint8))[1].tobytes(), "10100×10100"),
], ids=["webp-lossy", "webp-lossless", "webp-extended", "bmp", "tiff"])
def test_too_many_pixels_in_webp_bmp_and_tiff_is_refused_before_decoding(data, size):
    with pytest.raises(ImageError) as error:
        decode_photo(data, "bomb")
    assert str(error.value) == f"bomb: {size} pixels is more than the 100-megapixel limit"


@pytest.mark.parametrize("ext, params", [(".webp", [cv2.IMWRITE_WEBP_QUALITY, 80]), (".webp", [cv2.IMWRITE_WEBP_QUALITY, 101]),
                                         (".tif", []), (".bmp", [])])
@pytest.mark.parametrize("channels", [3, 4])
def test_webp_bmp_and_tiff_sizes_are_read_from_the_header(ext, params, channels):
    image = np.full((123, 457, channels), 90, np.uint8)
    photo = decode_photo(cv2.imencode(ext, image, params)[1].tobytes(), "ok")
    assert (photo.width, photo.height) == (457, 123)


@pytest.mark.parametrize("module", ["vision.detect_cli", "vision.detector"])
def test_opencv_pixel_limit_is_set_before_cv2_loads(module):
    probe = f"""
import os, sys
class Probe:
    def find_spec(self, name, path=None, target=None):
        if name == "cv2":
            print(os.environ.get("OPENCV_IO_MAX_IMAGE_PIXELS"))
sys.meta_path.insert(0, Probe())
import {module}
"""
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_IO_MAX_IMAGE_PIXELS"}
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60,
                            cwd=Path(__file__).parents[1])
    assert set(result.stdout.split()) == {"200000000"}  # cv2's loader looks itself up twice


def test_opencv_logs_nothing_of_its_own_on_damaged_images(tmp_path, capfd):
    bmp = bytearray(cv2.imencode(".bmp", np.zeros((20, 30, 3), np.uint8))[1].tobytes())
    bmp[30:34] = struct.pack("<I", 99)  # no such compression
    ihdr = struct.pack(">IIBBBBB", 30, 20, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IDAT" + ihdr + struct.pack(">I", zlib.crc32(b"IDAT" + ihdr))
    ifd = struct.pack("<H", 2) + struct.pack("<HHIHH", 256, 3, 1, 30, 0) + struct.pack("<HHIHH", 257, 3, 1, 20, 0)
    tiff = b"II*\x00" + struct.pack("<I", 8) + ifd + b"\x00" * 4 + b"junk" * 10  # no strips
    paths = []
    for name, data in (("d.bmp", bytes(bmp)), ("d.png", png), ("d.tif", tiff)):
        (tmp_path / name).write_bytes(data)
        paths.append(tmp_path / name)
    status, out, err = detect(capfd, *paths)
    assert (status, out) == (1, [])
    assert err == [f"mjcam detect: {p}: the image data is damaged or in an unsupported format" for p in paths]


def test_libjpeg_warnings_on_damaged_jpegs_stay_off_the_terminal(tmp_path, capfd):
    data = PHOTO.read_bytes()
    middle = len(data) * 2 // 3
    (tmp_path / "cut.jpg").write_bytes(data[: len(data) // 2])  # refused: the project's line alone
    (tmp_path / "marker.jpg").write_bytes(data[:middle] + b"\xff\xd3" + data[middle + 2:])  # a stray marker: read
    status, out, err = detect(capfd, tmp_path / "cut.jpg", tmp_path / "marker.jpg")
    assert (status, len(out)) == (1, 1) and "marker.jpg" in out[0]
    assert err == [f"mjcam detect: {tmp_path / 'cut.jpg'}: the file is cut short: part of the picture is missing "
                   "(send it whole)"]


@pytest.mark.parametrize("args, message", [
    (["--threads", "100000"], "argument --threads: '100000' is not a whole number from 1 to 64"),
    (["--threads", "0"], "argument --threads: '0' is not a whole number from 1 to 64"),
    (["--threads", "-1"], "argument --threads: '-1' is not a whole number from 1 to 64"),
    (["--conf", "-1"], "argument --conf: '-1' is not a number above 0 and at most 1"),
    (["--conf", "nan"], "argument --conf: 'nan' is not a number above 0 and at most 1"),
    (["--iou", "2"], "argument --iou: '2' is not a number above 0 and at most 1"),
    (["--iou", "nan"], "argument --iou: 'nan' is not a number above 0 and at most 1"),
])
def test_out_of_range_settings_are_refused(capsys, args, message):
    status, out, err = detect(capsys, PHOTO, *args)
    assert (status, out) == (2, [])
    assert len(err) == 1 and err[0].startswith(f"mjcam detect: {message}")


def test_an_oversized_file_says_its_real_size(tmp_path, capsys):
    big = tmp_path / "big.jpg"
    with open(big, "wb") as f:
        f.write(b"\xff\xd8\xff")
        f.truncate(57 * 2**20)  # sparse: nothing of it is written to disk
    status, out, err = detect(capsys, big)
    assert (status, out) == (1, [])
    assert err == [f"mjcam detect: {big}: the file is 57.0 MB, larger than the 20 MB limit" + SMALLER_JPEG]
    with open(big, "r+b") as f:
        f.truncate(20 * 2**20 + 1)  # one byte over: its size rounded up, never "20.0 MB, larger than 20 MB"
    assert detect(capsys, big)[2] == [f"mjcam detect: {big}: the file is 20.1 MB, larger than the 20 MB limit"
                                      + SMALLER_JPEG]
    with pytest.raises(ImageError, match="^upload: the file is larger than the 20 MB limit: send a copy with fewer"):
        decode_photo(b"\xff\xd8\xff" + bytes(30 * 2**20), "upload")
    big_png = tmp_path / "big.png"
    with open(big_png, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.truncate(21 * 2**20)
    assert detect(capsys, big_png)[2] == [f"mjcam detect: {big_png}: the file is 21.0 MB, larger than the 20 MB limit"
                                          + SMALLER]
    png = b"\x89PNG\r\n\x1a\n" + bytes(30 * 2**20)  # a PNG is sent as a JPEG, a fraction of its size
    with pytest.raises(ImageError, match="^upload: the file is larger than the 20 MB limit: send it as a JPEG"):
        decode_photo(png, "upload")


def test_a_fifo_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "f.jpg"
    os.mkfifo(fifo)
    result = subprocess.run([sys.executable, "-m", "mjcam.cli", "detect", str(fifo)], capture_output=True, text=True,
                            timeout=30, cwd=Path(__file__).parents[1])
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [f"mjcam detect: {fifo}: not a regular file"]


def test_an_annotated_copy_never_writes_over_a_photo_of_a_fallback_name(tmp_path, capsys):
    """`detect c/hand.jpg --annotate c`: the copy cannot be hand.jpg (the photo read), and hand-2.jpg is someone's
    photo: it goes to hand-3.jpg."""
    shutil.copy(PHOTO, tmp_path / "hand.jpg")
    (tmp_path / "hand-2.jpg").write_bytes(b"a photo of the cat")
    (tmp_path / "hand-3.jpg").symlink_to(tmp_path / "nowhere.jpg")  # a link pointing nowhere is taken too
    status, out, err = detect(capsys, tmp_path / "hand.jpg", "--annotate", tmp_path)
    assert (status, len(out), err) == (0, 1, [])
    assert (tmp_path / "hand.jpg").read_bytes() == PHOTO.read_bytes()
    assert (tmp_path / "hand-2.jpg").read_bytes() == b"a photo of the cat"
    assert not (tmp_path / "nowhere.jpg").exists()
    assert cv2.imread(str(tmp_path / "hand-4.jpg")).shape == cv2.imread(str(PHOTO)).shape


def test_a_re_run_replaces_its_own_copies_but_not_a_photo_of_the_same_name(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    (tmp_path / "out").mkdir()
    shutil.copy(PHOTO, tmp_path / "a" / "hand.jpg")
    shutil.copy(PHOTO, tmp_path / "a" / "hand.webp")
    shutil.copy(PHOTO, tmp_path / "out" / "hand.jpg")  # a photo of yours, not a copy --annotate wrote
    for _ in range(2):
        status, out, err = detect(capsys, tmp_path / "a" / "hand.jpg", tmp_path / "a" / "hand.webp",
                                  "--annotate", tmp_path / "out")
        assert (status, len(out), err) == (0, 2, [])
        assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["hand-2.jpg", "hand-3.jpg", "hand.jpg"]
    assert (tmp_path / "out" / "hand.jpg").read_bytes() == PHOTO.read_bytes()


@pytest.mark.parametrize("shape", [(3, 20000), (20000, 3), (1, 10000), (8000, 20)])
def test_a_sliver_of_a_picture_is_read_as_no_tiles(tmp_path, capsys, shape):
    # shrunk to the working size or the detector's input, a side of 3 pixels rounded to none (an OpenCV error)
    path = tmp_path / "sliver.png"
    cv2.imwrite(str(path), np.random.default_rng(0).integers(0, 256, (*shape, 3), np.uint8))
    assert min(decode_photo(path.read_bytes()).image.shape[:2]) >= 1
    status, out, err = detect(capsys, path)
    assert (status, out, err) == (0, [f"{path} ({shape[1]}×{shape[0]}): 0 tiles: "], [])


def test_fit_within_shrinks_to_the_side_keeping_the_aspect_and_a_pixel_each_way():
    image = np.zeros((300, 4000, 3), np.uint8)
    assert fit_within(image, 1000).shape == (75, 1000, 3)
    assert fit_within(image, 4000) is image  # small enough: the same picture, not enlarged
    assert fit_within(np.zeros((3, 20000, 3), np.uint8), 1280).shape == (1, 1280, 3)


@pytest.mark.parametrize("damage", ["missing", "not a model"])
def test_a_model_that_cannot_be_loaded_is_one_line_for_detect_and_eval(tmp_path, capsys, monkeypatch, damage):
    import vision.detector

    broken = tmp_path / "tile_detector.onnx"
    if damage == "not a model":
        broken.write_bytes(b"these bytes are no ONNX model")
    monkeypatch.setattr(vision.detector, "DETECTOR_MODEL", broken)
    status, out, err = detect(capsys, PHOTO)
    assert (status, out, len(err)) == (2, [], 1)
    assert err[0].startswith("mjcam detect: the tile models cannot be loaded: ")
    assert main(["eval", str(REAL_DATA / "valid")]) == 2
    assert capsys.readouterr().err.startswith("mjcam eval: the tile models cannot be loaded: ")


def test_a_classifier_exported_without_its_axis_head_is_refused_in_one_line(tmp_path):
    import onnx

    from datasets.axis_head import without_head
    from vision.detector import CLASSIFIER_MODEL, ModelError, load_detector

    headless = tmp_path / "tile_classifier.onnx"
    onnx.save(without_head(onnx.load(str(CLASSIFIER_MODEL))), str(headless))
    with pytest.raises(ModelError, match=r"^the tile models cannot be loaded: .* gives probs, up, not probs, up, axis$"):
        load_detector(classifier=headless)
