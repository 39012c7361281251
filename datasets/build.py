"""Build the training data of the bundled model from ../shared (one command: `python -m datasets.build`).

- `build/detector/`: a one-class ("tile": every face and every back) YOLO dataset. Train: the real
  training photos plus synthetic hand scenes; val: the real `valid` photos (used only to pick a checkpoint).
- `build/classifier/`: tile crops with their class (42 faces + back) and face orientation, from the real
  training photos, the single-tile crops and the synthetic scenes, as compressed numpy arrays.

Nothing from ../shared is copied into the repository: `build/` is ignored by git.
"""
from __future__ import annotations

import argparse
import csv
import os
from pathlib import Path

import cv2
import numpy as np

from datasets.real import SHARED, LabelledPhoto, load_split
from vision.crops import tile_crop
from vision.detections import CLASS_NAMES
from vision.metrics import to_pixel_boxes

BUILD = Path(__file__).resolve().parents[1] / "build"


def _link(src: Path, dst: Path) -> None:
    if dst.is_symlink() or dst.exists():
        dst.unlink()
    os.symlink(src, dst)


def write_real_detector_split(photos: list[LabelledPhoto], images: Path, labels: Path) -> int:
    """Link the photos into a YOLO split with every box as class 0; returns the number of boxes."""
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    total = 0
    for photo in photos:
        _link(photo.image, images / photo.image.name)
        lines = [f"0 {cx:.6f} {cy:.6f} {w:.6f} {h:.6f}" for cx, cy, w, h in photo.boxes]
        (labels / (photo.image.stem + ".txt")).write_text("\n".join(lines) + ("\n" if lines else ""))
        total += len(lines)
    return total


def build_detector_dataset(root: Path) -> Path:
    """The real part of the detector dataset and its data.yaml; returns the yaml path."""
    for split, photos in (("train", load_split("train")), ("val", load_split("valid"))):
        n = write_real_detector_split(photos, root / "images" / split, root / "labels" / split)
        print(f"detector {split}: {len(photos)} real photos, {n} boxes")
    yaml = root / "data.yaml"
    yaml.write_text(f"path: {root}\ntrain: images/train\nval: images/val\nnames:\n  0: tile\n")
    return yaml


def jitter_box(box: np.ndarray, rng: np.random.Generator, amount: float = 0.08) -> np.ndarray:
    """The box moved and resized by up to ``amount`` of its size, as a detector's box would be."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    dx, dy, dw, dh = rng.uniform(-amount, amount, 4)
    cx, cy = (x1 + x2) / 2 + dx * w, (y1 + y2) / 2 + dy * h
    w, h = w * (1 + dw), h * (1 + dh)
    return np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])


def save_crops(path: Path, crops: list[np.ndarray], labels: list[int], up: list[float], group: list[str]) -> None:
    """One crop set: uint8 BGR crops, class indices, up angles in degrees (NaN: unknown), source names."""
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        crops=np.stack(crops) if crops else np.zeros((0, 64, 64, 3), np.uint8),
        labels=np.array(labels, np.int64),
        up=np.array(up, np.float32),
        group=np.array(group),
    )
    print(f"{path.name}: {len(crops)} crops")


def build_real_crops(split: str, path: Path, jittered: int, seed: int = 0) -> None:
    """Crops of every labelled tile of a real split: the box itself and ``jittered`` moved copies."""
    rng = np.random.default_rng(seed)
    crops, labels, up, group = [], [], [], []
    for photo in load_split(split):
        image = cv2.imread(str(photo.image))
        height, width = image.shape[:2]
        for box, tile in zip(to_pixel_boxes(photo.boxes, width, height), photo.tiles):
            for box_variant in [box] + [jitter_box(box, rng) for _ in range(jittered)]:
                crops.append(tile_crop(image, box_variant))
                labels.append(CLASS_NAMES.index(tile))
                up.append(np.nan)  # the training copies are rotated and flipped: orientation unknown
                group.append(photo.source)
    save_crops(path, crops, labels, up, group)


def build_tile_photo_crops(path: Path) -> None:
    """The single-tile photos (upright faces, MIT): each photo is one tile face."""
    root = SHARED / "data" / "tile-crops"
    crops, labels, up, group = [], [], [], []
    with open(root / "labels.csv", newline="") as f:
        for row in csv.DictReader(f):
            image = cv2.imread(str(root / "images" / row["image"]))
            height, width = image.shape[:2]
            crops.append(tile_crop(image, np.array([0, 0, width, height]), pad=0.0))
            labels.append(CLASS_NAMES.index(row["tile_code"]))
            up.append(0.0)
            group.append(row["image"])
    save_crops(path, crops, labels, up, group)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=BUILD)
    args = parser.parse_args()
    build_detector_dataset(args.out / "detector")
    crops = args.out / "classifier"
    build_real_crops("train", crops / "real_train.npz", jittered=1)
    build_real_crops("valid", crops / "real_valid.npz", jittered=0)
    build_tile_photo_crops(crops / "tile_photos.npz")


if __name__ == "__main__":
    main()
