"""Build the training data of the bundled model from ../shared (one command: `python -m datasets.build`).

- `build/detector/`: a YOLO dataset labelled with the 43 tile classes, trained as one class ("tile": every
  face and every back, `single_cls`). Train: the real training photos plus synthetic scenes (seeds from
  0); val: the real `valid` photos (used only to pick a checkpoint).
- `build/classifier/`: tile crops with their class (42 faces + back) and face orientation, from the real
  training photos, the single-tile crops, the synthetic scenes and 12,000 more (crops only, seeds
  1,500–13,499) and every white dragon of 4,000 more (seeds 13,500–17,499: a blank one looks much like a
  face-down tile), as compressed numpy arrays.

Nothing from ../shared is copied into the repository: `build/` is ignored by git.
"""
from __future__ import annotations

import argparse
import os
from pathlib import Path

import cv2
import numpy as np

from datasets.real import SHARED, LabelledPhoto, load_split
from vision.crops import box_aspects, tile_crop
from vision.detections import BACK, CLASS_NAMES
from vision.metrics import to_pixel_boxes

BUILD = Path(__file__).resolve().parents[1] / "build"


def _link(src: Path, dst: Path) -> None:
    if dst.is_symlink() or dst.exists():
        dst.unlink()
    os.symlink(src, dst)


def write_real_detector_split(photos: list[LabelledPhoto], images: Path, labels: Path) -> int:
    """Link the photos into a YOLO split labelled with the 43 classes; returns the number of boxes."""
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    total = 0
    for photo in photos:
        _link(photo.image, images / photo.image.name)
        lines = [
            f"{CLASS_NAMES.index(tile)} {cx:.6f} {cy:.6f} {w:.6f} {h:.6f}"
            for (cx, cy, w, h), tile in zip(photo.boxes, photo.tiles)
        ]
        (labels / (photo.image.stem + ".txt")).write_text("\n".join(lines) + ("\n" if lines else ""))
        total += len(lines)
    return total


def write_data_yaml(path: Path, root: Path, train: str, val: str) -> Path:
    """A YOLO data.yaml at ``path``: images under ``root``, ``train`` and ``val`` relative to it, the 43 classes."""
    names = "".join(f"  {i}: {name}\n" for i, name in enumerate(CLASS_NAMES))
    path.write_text(f"path: {root}\ntrain: {train}\nval: {val}\nnames:\n{names}")
    return path


def build_detector_dataset(root: Path) -> Path:
    """The real part of the detector dataset and its data.yaml; returns the yaml path."""
    for split, photos in (("train", load_split("train")), ("val", load_split("valid"))):
        n = write_real_detector_split(photos, root / "images" / split, root / "labels" / split)
        print(f"detector {split}: {len(photos)} real photos, {n} boxes")
    # the real photos alone (the detector's first stage)
    real = sorted(str(p) for p in (root / "images" / "train").glob("*.jpg") if not p.name.startswith("synth_"))
    (root / "train_real.txt").write_text("\n".join(real) + "\n")
    write_data_yaml(root / "data_real.yaml", root, "train_real.txt", "images/val")
    return write_data_yaml(root / "data.yaml", root, "images/train", "images/val")


JITTER = 0.08
"""A training crop's box is moved and resized by up to this share of its size, as a detector's box would be."""


def jitter_box(box: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The box moved and resized by up to JITTER of its size."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    dx, dy, dw, dh = rng.uniform(-JITTER, JITTER, 4)
    cx, cy = (x1 + x2) / 2 + dx * w, (y1 + y2) / 2 + dy * h
    w, h = w * (1 + dw), h * (1 + dh)
    return np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])


def save_crops(path: Path, crops: list[np.ndarray], boxes: list[np.ndarray], labels: list[int], up: list[float],
               group: list[str]) -> None:
    """One crop set: uint8 BGR crops, their boxes' log aspect ratios, class indices, up angles in degrees
    (NaN: unknown), source names."""
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        crops=np.stack(crops) if crops else np.zeros((0, 64, 64, 3), np.uint8),
        aspect=box_aspects(np.array(boxes)),
        labels=np.array(labels, np.int64),
        up=np.array(up, np.float32),
        group=np.array(group),
    )
    print(f"{path.name}: {len(crops)} crops")


def build_real_crops(split: str, path: Path, jittered: int) -> None:
    """Crops of every labelled tile of a real split: the box itself and ``jittered`` moved copies (seed 0)."""
    rng = np.random.default_rng(0)
    crops, boxes, labels, up, group = [], [], [], [], []
    for photo in load_split(split):
        image = cv2.imread(str(photo.image))
        height, width = image.shape[:2]
        for box, tile in zip(to_pixel_boxes(photo.boxes, width, height), photo.tiles):
            for box_variant in [box] + [jitter_box(box, rng) for _ in range(jittered)]:
                crops.append(tile_crop(image, box_variant))
                boxes.append(box_variant)
                labels.append(CLASS_NAMES.index(tile))
                up.append(np.nan)  # the training copies are rotated and flipped: orientation unknown
                group.append(photo.source)
    save_crops(path, crops, boxes, labels, up, group)


def build_tile_photo_crops(path: Path) -> None:
    """The single-tile photos (upright faces, MIT): each photo is one tile face (labels mended, `tile_photo_labels`)."""
    from datasets.synth import tile_photo_labels

    root = SHARED / "data" / "tile-crops"
    crops, boxes, labels, up, group = [], [], [], [], []
    for name, code in tile_photo_labels():
        image = cv2.imread(str(root / "images" / name))
        height, width = image.shape[:2]
        boxes.append(np.array([0, 0, width, height]))
        crops.append(tile_crop(image, boxes[-1], pad=0.0))
        labels.append(CLASS_NAMES.index(code))
        up.append(0.0)
        group.append(name)
    save_crops(path, crops, boxes, labels, up, group)


SYNTH_KINDS = ("hand",) * 6 + ("hand_only",) * 2 + ("tiles",) * 2
"""Share of scene kinds in the synthetic training data (by seed)."""


def build_synthetic(detector_root: Path | None, crops_path: Path, count: int, first_seed: int = 0,
                    faces_per_scene: int = 12, only: frozenset[str] = frozenset()) -> None:
    """Synthetic scenes (seeds first_seed…): images into the detector's train split (unless ``detector_root``
    is None), crops for the classifier.

    Every back and up to ``faces_per_scene`` faces of each scene become crops, with their up angle; with
    ``only``, every tile of those classes and nothing else.
    """
    from datasets.synth import generate_scene, write_yolo

    rng = np.random.default_rng(first_seed)
    crops, boxes, labels, up, group = [], [], [], [], []
    for seed in range(first_seed, first_seed + count):
        scene = generate_scene(seed, kind=SYNTH_KINDS[seed % len(SYNTH_KINDS)])
        if detector_root is not None:
            write_yolo(scene, detector_root / "images" / "train", detector_root / "labels" / "train",
                       f"synth_{seed:07d}")
        if only:
            chosen = [i for i, t in enumerate(scene.tiles) if t.tile in only]
        else:
            faces = [i for i, t in enumerate(scene.tiles) if t.tile != BACK]
            backs = [i for i, t in enumerate(scene.tiles) if t.tile == BACK]
            chosen = backs + list(rng.permutation(faces)[:faces_per_scene])
        for i in chosen:
            tile = scene.tiles[i]
            boxes.append(jitter_box(np.array(tile.box), rng))
            crops.append(tile_crop(scene.image, boxes[-1]))
            labels.append(CLASS_NAMES.index(tile.tile))
            up.append(tile.up_angle)
            group.append(f"synth_{seed}")
        if (seed - first_seed + 1) % 100 == 0:
            print(f"synthetic: {seed - first_seed + 1}/{count} scenes", flush=True)
    save_crops(crops_path, crops, boxes, labels, up, group)


MENDED_FACES = frozenset({"8m", "8p", "9p"})
"""The faces two mislabelled single-tile photos had taught wrong (`datasets.synth.TILE_PHOTO_FIXES`)."""


def build_mended_crops(out: Path, base: Path) -> None:
    """The crop sets of the classifier's last fine-tune (`datasets.train`, stage 4): ``base``'s real and
    single-tile crops linked, every back and 20 faces of 3,000 more scenes (seeds 24,000–26,999, in two
    halves), and every 8m, 8p and 9p of 1,000 more (27,000–27,999), all rendered with the mended photos."""
    out.mkdir(parents=True, exist_ok=True)
    for name in ("real_train", "real_valid", "tile_photos"):
        _link(base / f"{name}.npz", out / f"{name}.npz")
    build_synthetic(None, out / "synth_a.npz", 1500, first_seed=24_000, faces_per_scene=20)
    build_synthetic(None, out / "synth_b.npz", 1500, first_seed=25_500, faces_per_scene=20)
    build_synthetic(None, out / "synth_89.npz", 1000, first_seed=27_000, only=MENDED_FACES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=BUILD)
    parser.add_argument("--synthetic", type=int, default=1500, help="synthetic training scenes")
    parser.add_argument("--synthetic-crops", type=int, default=12000,
                        help="more synthetic scenes (seeds after the detector's) for classifier crops only")
    parser.add_argument("--white-dragon-scenes", type=int, default=4000,
                        help="scenes after those whose every 5z becomes a crop (blank white dragons against backs)")
    args = parser.parse_args()
    from datasets.axis_head import FIRST_SEED as AXIS_HEAD_SEEDS

    if args.synthetic + args.synthetic_crops + args.white_dragon_scenes > AXIS_HEAD_SEEDS:
        parser.error(f"the scenes would reach seed {AXIS_HEAD_SEEDS:,}, where the axis head's own scenes begin")
    build_detector_dataset(args.out / "detector")
    crops = args.out / "classifier"
    build_real_crops("train", crops / "real_train.npz", jittered=1)
    build_real_crops("valid", crops / "real_valid.npz", jittered=0)
    build_tile_photo_crops(crops / "tile_photos.npz")
    build_synthetic(args.out / "detector", crops / "synth.npz", args.synthetic)
    build_synthetic(None, crops / "synth_more.npz", args.synthetic_crops, first_seed=args.synthetic, faces_per_scene=20)
    build_synthetic(None, crops / "synth_5z.npz", args.white_dragon_scenes,
                    first_seed=args.synthetic + args.synthetic_crops, only=frozenset({"5z"}))


if __name__ == "__main__":
    main()
