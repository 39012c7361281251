"""`mjcam detect PHOTO... [--json] [--annotate DIR]`: find and name every tile in photos."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.detections import BACK, Detections
from vision.images import ImageError, Photo, read_photo


def annotate(photo: Photo, detections: Detections) -> np.ndarray:
    """The photo (as decoded, at most the working size) with every box and tile name drawn: green, red
    below 0.5 confidence, blue for backs; ``*`` after the name of a sideways tile."""
    image = photo.image.copy()
    scale = 1 / photo.scale
    thickness = max(1, round(max(image.shape[:2]) / 600))
    for box, tile, sideways, confidence in zip(detections.xyxy * scale, detections.tiles, detections.sideways,
                                               detections.confidence):
        x1, y1, x2, y2 = (int(round(v)) for v in box)
        colour = (200, 120, 0) if tile == BACK else (0, 0, 230) if confidence < 0.5 else (0, 170, 0)
        cv2.rectangle(image, (x1, y1), (x2, y2), colour, thickness)
        label = tile + ("*" if sideways else "")
        font_scale = max(0.35, (x2 - x1) / 110)
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
        cv2.rectangle(image, (x1, y1 - th - 4), (x1 + tw + 2, y1), colour, -1)
        cv2.putText(image, label, (x1 + 1, y1 - 3), cv2.FONT_HERSHEY_SIMPLEX, font_scale, (255, 255, 255), thickness)
    return image


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photos", nargs="+", type=Path, metavar="PHOTO")
    parser.add_argument("--json", action="store_true", help="one JSON object per photo per line")
    parser.add_argument("--annotate", type=Path, metavar="DIR", help="write each photo with boxes and names drawn")
    parser.add_argument("--conf", type=float, help="minimum tile score (default 0.35)")
    parser.add_argument("--iou", type=float, help="non-maximum suppression IoU (default 0.6)")
    parser.add_argument("--threads", type=int, help="ONNX Runtime threads")


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from vision.detector import DetectorSettings, TileDetector

    settings = DetectorSettings()
    if args.conf is not None:
        settings = replace(settings, conf=args.conf)
    if args.iou is not None:
        settings = replace(settings, iou=args.iou)
    detector = TileDetector(settings=settings, threads=args.threads)
    if args.annotate:
        args.annotate.mkdir(parents=True, exist_ok=True)
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
            print(json.dumps({"file": path.name, "width": photo.width, "height": photo.height,
                              "tiles": detections.to_json()}, ensure_ascii=False), flush=True)
        else:
            names = " ".join(t + ("*" if s else "") for t, s in zip(detections.tiles, detections.sideways))
            print(f"{path.name} ({photo.width}×{photo.height}): {len(detections)} tiles: {names}", flush=True)
        if args.annotate:
            cv2.imwrite(str(args.annotate / (path.stem + ".jpg")), annotate(photo, detections))
    return 1 if failures else 0
