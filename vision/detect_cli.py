"""`mjcam detect PHOTO... [--json] [--annotate DIR]`: find and name every tile in photos."""
from __future__ import annotations

import argparse
import json
import os
import struct
import sys
from pathlib import Path

from vision.images import ImageError, Photo, read_photo  # before cv2 loads: it sets OpenCV's pixel limit

import cv2
import numpy as np

from vision.detections import BACK, DOUBTFUL_CONFIDENCE, Detections

MAX_THREADS = 64
COPY_MARK = b"mjcam detect --annotate"
"""The JPEG comment that marks an annotated copy: only a file that starts with it is ever written over."""
_COPY_START = b"\xff\xd8\xff\xfe" + struct.pack(">H", len(COPY_MARK) + 2) + COPY_MARK


def annotate(photo: Photo, detections: Detections) -> np.ndarray:
    """The photo (as decoded, at most the working size) with every box and tile name drawn: green, red
    below DOUBTFUL_CONFIDENCE, blue for backs; ``*`` after the name of a sideways tile."""
    image = photo.image.copy()
    scale = 1 / photo.scale
    thickness = max(1, round(max(image.shape[:2]) / 600))
    for box, tile, sideways, confidence in zip(detections.xyxy * scale, detections.tiles, detections.sideways,
                                               detections.confidence):
        x1, y1, x2, y2 = (int(round(v)) for v in box)
        colour = (200, 120, 0) if tile == BACK else (0, 0, 230) if confidence < DOUBTFUL_CONFIDENCE else (0, 170, 0)
        cv2.rectangle(image, (x1, y1), (x2, y2), colour, thickness)
        label = tile + ("*" if sideways else "")
        font_scale = max(0.35, (x2 - x1) / 110)
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
        cv2.rectangle(image, (x1, y1 - th - 4), (x1 + tw + 2, y1), colour, -1)
        cv2.putText(image, label, (x1 + 1, y1 - 3), cv2.FONT_HERSHEY_SIMPLEX, font_scale, (255, 255, 255), thickness)
    return image


def thread_count(text: str) -> int:
    """An argparse type: a whole number of threads from 1 to MAX_THREADS."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_THREADS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1 to {MAX_THREADS}")
    return value


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 1:  # NaN too
        raise argparse.ArgumentTypeError(f"{text!r} is not a number above 0 and at most 1")
    return value


def _file_ids(*paths: Path) -> set[tuple[int, int]]:
    """Device and inode numbers of the files among ``paths`` that exist."""
    ids: set[tuple[int, int]] = set()
    for path in paths:
        try:
            status = path.stat()
        except OSError:
            continue
        ids.add((status.st_dev, status.st_ino))
    return ids


def annotated_jpeg(image: np.ndarray) -> bytes:
    """``image`` as a JPEG that starts with the comment `COPY_MARK` (a comment before JFIF's APP0: read as usual)."""
    return _COPY_START + cv2.imencode(".jpg", image)[1].tobytes()[2:]


def _earlier_copy(path: Path) -> bool:
    """Whether ``path`` is a regular file (not a link) that an earlier ``--annotate`` wrote: it starts with the mark."""
    try:
        if not path.is_file() or path.is_symlink():
            return False
        with open(path, "rb") as file:
            return file.read(len(_COPY_START)) == _COPY_START
    except OSError:
        return False


def annotated_path(folder: Path, photo: Path, kept: set[tuple[int, int]]) -> Path:
    """The first of ``folder/STEM.jpg``, ``STEM-2.jpg``, ``STEM-3.jpg``… that does not exist or is a copy an earlier
    run wrote (`annotated_jpeg`) and not one of the files ``kept`` (by device and inode: the photos read and this
    run's copies). Any other file, a photo of yours, is never written over."""
    path, n = folder / f"{photo.stem}.jpg", 1
    while os.path.lexists(path) and not (_earlier_copy(path) and not _file_ids(path) & kept):
        n += 1
        path = folder / f"{photo.stem}-{n}.jpg"
    return path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photos", nargs="+", type=Path, metavar="PHOTO")
    parser.add_argument("--json", action="store_true", help="one JSON object per photo per line")
    parser.add_argument("--annotate", type=Path, metavar="DIR",
                        help="write each photo with boxes and names drawn, as DIR/STEM.jpg (STEM-2.jpg… if taken "
                        "by a file not written by --annotate)")
    from vision.detector import DetectorSettings

    default = DetectorSettings()
    parser.add_argument("--conf", type=_fraction,
                        help=f"minimum tile score, above 0 and at most 1 (default {default.conf:g})")
    parser.add_argument("--iou", type=_fraction,
                        help=f"non-maximum suppression IoU, above 0 and at most 1 (default {default.iou:g})")
    parser.add_argument("--threads", type=thread_count, help=f"ONNX Runtime threads, 1 to {MAX_THREADS}")


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from vision.detector import DetectorSettings, ModelError, load_detector

    if args.annotate:
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(f"mjcam detect: --annotate {args.annotate}: cannot make that folder ({error.strerror})",
                  file=sys.stderr)
            return 2
    settings = DetectorSettings()
    if args.conf is not None:
        settings = replace(settings, conf=args.conf)
    if args.iou is not None:
        settings = replace(settings, iou=args.iou)
    try:
        detector = load_detector(settings=settings, threads=args.threads)
    except ModelError as error:
        print(f"mjcam detect: {error}", file=sys.stderr)
        return 2
    kept = _file_ids(*args.photos)
    failures = 0
    for path in args.photos:
        try:
            photo = read_photo(path)
        except ImageError as error:
            print(f"mjcam detect: {error}", file=sys.stderr)
            failures += 1
            continue
        detections = detector.detect(photo)
        if args.json:
            print(json.dumps({"file": str(path), "width": photo.width, "height": photo.height,
                              "tiles": detections.to_json()}, ensure_ascii=False), flush=True)
        else:
            names = " ".join(t + ("*" if s else "") for t, s in zip(detections.tiles, detections.sideways))
            print(f"{path} ({photo.width}×{photo.height}): {len(detections)} tiles: {names}", flush=True)
        if args.annotate:
            target = annotated_path(args.annotate, path, kept)
            try:
                target.write_bytes(annotated_jpeg(annotate(photo, detections)))
            except OSError as error:
                print(f"mjcam detect: {target}: cannot write the annotated photo ({error.strerror})", file=sys.stderr)
                failures += 1
            kept |= _file_ids(target)
    return 1 if failures else 0
