"""Real tile faces turned a quarter: would a claimed tile of a real tile set be flagged sideways?

    python benchmarks/eval_turned_tiles.py [--split valid] [--classifier models/tile_classifier.onnx]

The real photos hold no claimed (sideways) tiles, so the sideways flag is measured on synthetic scenes
(`benchmarks/eval_detector.py`). This measures the classifier's face direction on real faces instead: each
labelled tile of the split's photos (those whose labelled boxes are less than three times as long one way
as the other: the pictures the dataset did not stretch out of shape) is classified from its label box as
the photo is, and again with the photo turned by 90° clockwise. Printed: the share of tiles whose face
axis (the classifier's ``axis`` output) turns by a quarter (within 45°), and the share that would be flagged
sideways (`sideways_flags`: more than 45° from the dominant axis of the photo's faces as they are) if that one
tile lay turned among the others, how many tiles of the complete hands in a row (`complete_hand_row`, as
`eval_read.py` takes them: none lies sideways) are flagged sideways as they lie, the share whose face (its
``up`` direction) points the photo's main way (within 45° of the direction most of the photo's faces point
along their dominant axis: a face read upside down among upright ones does not), and the
share named right both times. Faces alike turned by 90° (1p, 4p, 5p, the blank White) cannot
show it.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from datasets.real import complete_hand_row, load_split  # noqa: E402
from vision.detections import CLASS_NAMES  # noqa: E402
from vision.detector import TileDetector, sideways_flags  # noqa: E402
from vision.images import read_photo  # noqa: E402
from vision.metrics import to_pixel_boxes  # noqa: E402


def direction_degrees(up: np.ndarray) -> np.ndarray:
    return np.degrees(np.arctan2(up[:, 1], up[:, 0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="valid")
    parser.add_argument("--classifier", type=Path, help="another classifier ONNX file (default: the bundled one)")
    args = parser.parse_args()
    detector = TileDetector(classifier=args.classifier) if args.classifier else TileDetector()
    tiles = turned = flagged = main_way = named = row_tiles = misflagged = 0
    for photo in load_split(args.split):
        image = read_photo(photo.image).image
        height, width = image.shape[:2]
        boxes = to_pixel_boxes(photo.boxes, width, height).astype(np.float32)
        if not len(boxes):
            continue
        sides = np.stack([boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]], 1)
        sound = sides.max(1) < 3 * np.maximum(sides.min(1), 1)
        probs, up, axis = detector.classify(image, boxes)
        quarter = np.stack([height - boxes[:, 3], boxes[:, 0], height - boxes[:, 1], boxes[:, 2]], 1)
        probs_turned, _, axis_turned = detector.classify(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), quarter)
        as_is, after = axis[sound], axis_turned[sound]
        row = complete_hand_row(photo.boxes, photo.tiles)
        misflagged += int(sideways_flags(axis, np.ones(len(boxes), bool))[row].sum())
        row_tiles += len(row)
        turned += int((np.sum(as_is * after, 1) < 0).sum())
        dominant = as_is.sum(0)
        flagged += int((after @ dominant < 0).sum())
        along = np.cos(np.radians(direction_degrees(up[sound])) - np.arctan2(dominant[1], dominant[0]) / 2)
        way = 1 if (along > 0).sum() >= (along < 0).sum() else -1
        main_way += int((way * along > np.cos(np.radians(45))).sum())
        truth = np.array(photo.tiles)[sound]
        named += int(((np.array(CLASS_NAMES)[probs.argmax(1)][sound] == truth)
                      & (np.array(CLASS_NAMES)[probs_turned.argmax(1)][sound] == truth)).sum())
        tiles += int(sound.sum())
    print(f"{args.split}: {tiles} labelled tiles; face axis turns by a quarter: {turned / tiles:.4f}; "
          f"would be flagged sideways among the photo's other tiles: {flagged / tiles:.4f}; "
          f"of the {row_tiles} tiles of hands in a row, flagged sideways as they lie: {misflagged}; "
          f"points the photo's main way: {main_way / tiles:.4f}; "
          f"named right both ways: {named / tiles:.4f}")


if __name__ == "__main__":
    main()
