"""Tiles small in the frame: real photos set into a larger picture, read with and without the zoomed look.

    python benchmarks/eval_small_tiles.py [--split valid] [--shares 0.5 0.33 0.2] [--limit N]

A phone held over the whole table leaves the hand a small part of the picture. Each photo of the split
(../shared/data/chinese-mahjong-detection, CC BY 4.0) is scaled to ``share`` of a 1920×1440 frame (its
longer side to that share of the frame's matching side), centred on a blurred, enlarged copy of itself
(a table-like surround: `datasets.real.set_small`), saved as a JPEG (quality 92) and read as the product reads a photo
(`vision.images.decode_photo`, `TileDetector.detect`), once with `DetectorSettings.zoom` off and once on.
Prints, per share: the labelled tiles, the tile accuracy (found at IoU ≥ 0.5 with the right code) both
ways, how many photos were looked at zoomed, the median detection time both ways, and of the photos that
show a complete hand in a row (`eval_read.py`'s criterion, read with its rules) how many are read with
every tile right both ways (grouped from that one look, `group_hand`, without the second looks `mjcam read` takes
at a hand not legal as read: the zoom's own effect).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from datasets.real import complete_hand_row, load_split, set_small  # noqa: E402
from eval_read import REAL_RULES  # noqa: E402
from vision.grouping import group_hand  # noqa: E402
from vision.detector import DetectorSettings, TileDetector, view_to_image, zoom_region  # noqa: E402
from vision.images import decode_photo  # noqa: E402
from vision.metrics import box_iou, match_pairs, to_pixel_boxes  # noqa: E402

def named_right(truth: np.ndarray, tiles: tuple[str, ...], found) -> int:
    pairs = match_pairs(box_iou(truth.astype(np.float32), found.xyxy), 0.5)
    return sum(found.tiles[j] == tiles[t] for t, j in pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="valid")
    parser.add_argument("--shares", type=float, nargs="+", default=[0.5, 0.33, 0.2])
    parser.add_argument("--limit", type=int)
    args = parser.parse_args()
    plain, zoomed = TileDetector(settings=DetectorSettings(zoom=False)), TileDetector()
    photos = load_split(args.split)[: args.limit]
    rows = [complete_hand_row(p.boxes, p.tiles) for p in photos]
    hand_photos = sum(bool(row) for row in rows)
    for share in args.shares:
        tiles = looked = 0
        right: dict[str, int] = {"plain": 0, "zoom": 0}
        hands: dict[str, int] = {"plain": 0, "zoom": 0}
        times: dict[str, list[float]] = {"plain": [], "zoom": []}
        for labelled, row in zip(photos, rows):
            image = cv2.imread(str(labelled.image))
            picture, scale, (left, top) = set_small(image, share)
            photo = decode_photo(cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes())
            truth = to_pixel_boxes(labelled.boxes, image.shape[1], image.shape[0]) * scale + [left, top, left, top]
            tiles += len(labelled.tiles)
            for name, detector in (("plain", plain), ("zoom", zoomed)):
                start = time.perf_counter()
                found = detector.detect(photo)
                times[name].append(time.perf_counter() - start)
                right[name] += named_right(truth, labelled.tiles, found)
                if row:
                    reading = group_hand(found, REAL_RULES, frame=(photo.width, photo.height))
                    held = Counter(found.tiles[i] for group in reading.groups for i in group.tiles)
                    hands[name] += held == Counter(labelled.tiles[i] for i in row)
            _, scale, boxes, scores = plain.find_tiles_unstretched(photo.image)
            looked += zoom_region(view_to_image(boxes, scale), scores, photo.image.shape[:2]) is not None
        print(f"share {share}: {len(photos)} photos, {tiles} tiles: tile accuracy {right['plain'] / tiles:.4f} without "
              f"the zoom, {right['zoom'] / tiles:.4f} with it ({looked} photos zoomed); median detection "
              f"{1000 * statistics.median(times['plain']):.1f} ms / {1000 * statistics.median(times['zoom']):.1f} ms; "
              f"of {hand_photos} hands in a row, {hands['plain']} / {hands['zoom']} read with every tile right")


if __name__ == "__main__":
    main()
