"""Stretched pictures made from the real *training* photos, to develop the detector's un-stretching on
(`vision.detector.TileDetector.find_tiles_unstretched`) without looking at `valid`.

Some pictures of `valid` are strips of a photo (one row of tiles) stretched to 640×640: each tile many times
taller than wide, or wider than tall. This cuts such strips from training photos, a band around one tile's
row (horizontal: the tiles come out tall; vertical: wide) holding every tile it touches whole, and stretches
them to a square, with the labels of the tiles inside:

    python -m datasets.stretched_strips OUT [--count 120] [--seed 5]

writes ``OUT/images``, ``OUT/labels`` (YOLO, the dataset's class indices) and ``OUT/classes.tsv``, so that
``mjcam eval OUT`` scores the model on them. One strip per original photo (augmented copies skipped).
"""
from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

import cv2
import numpy as np

from datasets.real import REAL_DATA, dataset_tile_codes, load_split

BAND_SHARE = 0.3
"""A band is kept only when it spans at most this share of the photo (so it is stretched at least 3.3 times)."""
MIN_TILES = 4
SIDE = 640


def _band(xyxy: np.ndarray, seed_tile: int, axis: int) -> tuple[float, float]:
    """The band (low, high along ``axis``: 1 rows, 0 columns) around one tile, widened until every box it
    touches lies inside it."""
    lo_i, hi_i = (axis, axis + 2)
    low, high = xyxy[seed_tile, lo_i], xyxy[seed_tile, hi_i]
    while True:
        touched = (xyxy[:, hi_i] > low) & (xyxy[:, lo_i] < high)
        new_low, new_high = min(low, xyxy[touched, lo_i].min()), max(high, xyxy[touched, hi_i].max())
        if (new_low, new_high) == (low, high):
            return low, high
        low, high = new_low, new_high


def build_strips(out: Path, count: int, seed: int, root: Path = REAL_DATA) -> int:
    """Write up to ``count`` stretched strips, half horizontal and half vertical; the number written."""
    codes = dataset_tile_codes(root)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(exist_ok=True)
    shutil.copy(root / "classes.tsv", out / "classes.tsv")
    rng = random.Random(seed)
    photos = load_split("train", root)
    rng.shuffle(photos)
    seen: set[str] = set()
    written = 0
    for photo in photos:
        if written >= count or photo.source in seen or len(photo.tiles) < MIN_TILES + 1:
            continue
        image = cv2.imread(str(photo.image))
        height, width = image.shape[:2]
        cx, cy, w, h = photo.boxes.T
        xyxy = np.stack([(cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height], 1)
        axis = 1 if written % 2 == 0 else 0
        low, high = _band(xyxy, rng.randrange(len(xyxy)), axis)
        inside = (xyxy[:, axis] >= low) & (xyxy[:, axis + 2] <= high)
        size = (width, height)[axis]
        margin = 0.1 * (high - low)
        low, high = int(max(0.0, low - margin)), int(np.ceil(min(size, high + margin)))
        if inside.sum() < MIN_TILES or high - low > BAND_SHARE * size:
            continue
        seen.add(photo.source)
        band = image[low:high] if axis == 1 else image[:, low:high]
        boxes = xyxy[inside].copy()
        boxes[:, [axis, axis + 2]] -= low
        band_w, band_h = band.shape[1], band.shape[0]
        name = f"{'row' if axis == 1 else 'column'}_{photo.source[:40]}"
        cv2.imwrite(str(out / "images" / f"{name}.jpg"), cv2.resize(band, (SIDE, SIDE)), [cv2.IMWRITE_JPEG_QUALITY, 90])
        lines = [f"{codes.index(photo.tiles[i])} {(b[0] + b[2]) / 2 / band_w:.6f} {(b[1] + b[3]) / 2 / band_h:.6f} "
                 f"{(b[2] - b[0]) / band_w:.6f} {(b[3] - b[1]) / band_h:.6f}"
                 for i, b in zip(np.flatnonzero(inside), boxes)]
        (out / "labels" / f"{name}.txt").write_text("\n".join(lines) + "\n")
        written += 1
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=120)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    print(f"{build_strips(args.out, args.count, args.seed)} strips in {args.out}")


if __name__ == "__main__":
    main()
