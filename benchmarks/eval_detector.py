"""Accuracy of the bundled model: real `valid` photos and a held-out synthetic hand set.

    python benchmarks/eval_detector.py [--synthetic 200] [--confusion models/confusion_valid.png] [--json FILE]

- Real photos (../shared/data/chinese-mahjong-detection/valid, CC BY 4.0): mAP50, mAP50-95, tile accuracy,
  per-class recall and AP50 (as `mjcam eval`) against the labels as given (what the targets are judged on),
  then the same three against the labels with the errors found by eye mended
  (`datasets/valid_label_fixes.tsv`).
- Synthetic hands (seeds 8,000,000 onwards, never used for training, which uses seeds below 60,000): `back`
  recall and how often the `sideways` flag is right on the tiles found, for hands alone and for hands
  with other tiles behind them.
- A confusion matrix picture of the real photos: labelled tile (row) against the detector's top class
  (column) for every labelled tile found at IoU ≥ 0.5, plus a "missed" column.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from datasets.real import REAL_DATA, VALID_LABEL_FIXES, dataset_tile_codes  # noqa: E402
from vision.detections import BACK, CLASS_NAMES  # noqa: E402
from vision.detector import DetectorSettings, TileDetector  # noqa: E402
from vision.eval_cli import evaluate_folder  # noqa: E402
from vision.images import read_photo  # noqa: E402
from vision.metrics import box_iou, match_pairs, read_label_fixes, read_yolo_labels, to_pixel_boxes  # noqa: E402

SYNTH_EVAL_SEED = 8_000_000


def confusion_on_valid(detector: TileDetector) -> np.ndarray:
    """Counts[labelled class, predicted class or 43 = missed] over the real valid photos."""
    names = dataset_tile_codes()
    counts = np.zeros((len(CLASS_NAMES), len(CLASS_NAMES) + 1), np.int64)
    for image in sorted((REAL_DATA / "valid" / "images").iterdir()):
        photo = read_photo(image)
        boxes, tiles = read_yolo_labels(REAL_DATA / "valid" / "labels" / (image.stem + ".txt"), names)
        found = detector.detect(photo)
        pairs = dict(match_pairs(box_iou(to_pixel_boxes(boxes, photo.width, photo.height), found.xyxy), 0.5))
        for t, tile in enumerate(tiles):
            column = CLASS_NAMES.index(found.tiles[pairs[t]]) if t in pairs else len(CLASS_NAMES)
            counts[CLASS_NAMES.index(tile), column] += 1
    return counts


def draw_confusion(counts: np.ndarray, path: Path) -> None:
    """A row-normalised confusion matrix as a PNG (dark = most of the row)."""
    labels = list(CLASS_NAMES[:-1])  # no `back` in the real photos
    rows = counts[: len(labels)]
    columns = list(range(len(labels))) + [len(CLASS_NAMES)]
    cell, margin = 16, 44
    size_x, size_y = margin + cell * len(columns), margin + cell * len(labels)
    image = np.full((size_y + 6, size_x + 6, 3), 255, np.uint8)
    shares = rows[:, columns] / np.maximum(rows.sum(1, keepdims=True), 1)
    for r in range(len(labels)):
        for c in range(len(columns)):
            value = shares[r, c]
            if value > 0:
                shade = int(255 * (1 - value) ** 0.6)
                colour = (shade, shade, 255) if r != c and c < len(labels) else (255, shade, shade)
                cv2.rectangle(image, (margin + c * cell, margin + r * cell),
                              (margin + (c + 1) * cell - 1, margin + (r + 1) * cell - 1), colour, -1)
    for i, label in enumerate(labels + ["miss"]):
        cv2.putText(image, label, (margin + i * cell + 1, margin - 4 - 10 * (i % 2)), cv2.FONT_HERSHEY_PLAIN, 0.7,
                    (0, 0, 0), 1)
    for i, label in enumerate(labels):
        cv2.putText(image, label, (4, margin + i * cell + 12), cv2.FONT_HERSHEY_PLAIN, 0.8, (0, 0, 0), 1)
    cv2.line(image, (margin, margin), (margin + cell * len(columns), margin), (0, 0, 0), 1)
    cv2.line(image, (margin, margin), (margin, margin + cell * len(labels)), (0, 0, 0), 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image)


def synthetic_scores(detector: TileDetector, count: int, kind: str) -> dict:
    """`back` recall and sideways-flag accuracy on held-out synthetic scenes of a kind: `hand_only` (a hand
    alone) or `hand` (often with walls, other hands and discards behind it, every tile counted); the `back`
    recall also over the photographed hand's own backs (its concealed kongs), which the reader uses."""
    from datasets.synth import generate_scene

    backs = backs_found = hand_backs = hand_backs_found = matched = sideways_right = sideways_tiles = sideways_found = 0
    for seed in range(SYNTH_EVAL_SEED, SYNTH_EVAL_SEED + count):
        scene = generate_scene(seed, kind=kind)
        found = detector.detect(scene.image)
        truth = np.array([t.box for t in scene.tiles], np.float32)
        pairs = dict(match_pairs(box_iou(truth, found.xyxy), 0.5))
        in_hand = {t for group in scene.groups for t in group["tiles"]}
        for t, tile in enumerate(scene.tiles):
            if tile.tile == BACK:
                right = t in pairs and found.tiles[pairs[t]] == BACK
                backs += 1
                backs_found += right
                hand_backs += t in in_hand
                hand_backs_found += right and t in in_hand
            sideways_tiles += tile.sideways
            if t in pairs:
                matched += 1
                right = bool(found.sideways[pairs[t]]) == tile.sideways
                sideways_right += right
                sideways_found += tile.sideways and right
    return {
        "kind": kind,
        "scenes": count,
        "back_labels": backs,
        "back_recall": backs_found / max(backs, 1),
        "hand_back_labels": hand_backs,
        "hand_back_recall": hand_backs_found / max(hand_backs, 1),
        "tiles_found": matched,
        "sideways_accuracy": sideways_right / max(matched, 1),
        "sideways_tiles": sideways_tiles,
        "sideways_recall": sideways_found / max(sideways_tiles, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", type=int, default=200)
    parser.add_argument("--confusion", type=Path, default=ROOT / "models" / "confusion_valid.png")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    detector = TileDetector()
    low = TileDetector(settings=DetectorSettings(conf=0.01))
    real = evaluate_folder(REAL_DATA / "valid", low, dataset_tile_codes(), DetectorSettings().conf)
    print(f"real valid: {real['photos']} photos, {real['labelled_tiles']} tiles: mAP50 {real['mAP50']:.4f}, "
          f"mAP50-95 {real['mAP50-95']:.4f}, tile accuracy {real['tile_accuracy']:.4f}")
    print("| tile | labelled | recall | AP50 |\n| --- | --- | --- | --- |")
    for tile, row in real["per_class"].items():
        print(f"| {tile} | {row['labelled']} | {row['recall']:.3f} | {row['AP50']:.3f} |")
    fixes = read_label_fixes(VALID_LABEL_FIXES)
    mended = evaluate_folder(REAL_DATA / "valid", low, dataset_tile_codes(), DetectorSettings().conf, fixes=fixes)
    print(f"real valid, {sum(map(len, fixes.values()))} label errors mended ({VALID_LABEL_FIXES.name}): "
          f"{mended['labelled_tiles']} tiles: mAP50 {mended['mAP50']:.4f}, mAP50-95 {mended['mAP50-95']:.4f}, "
          f"tile accuracy {mended['tile_accuracy']:.4f}")
    synthetic = [synthetic_scores(detector, args.synthetic, kind) for kind in ("hand_only", "hand")]
    for scores in synthetic:
        print(f"synthetic held-out scenes: {scores}")
    draw_confusion(confusion_on_valid(detector), args.confusion)
    print(f"wrote {args.confusion}")
    if args.json:
        args.json.write_text(json.dumps({"real_valid": real, "real_valid_mended": mended, "synthetic": synthetic}, indent=1))


if __name__ == "__main__":
    main()
