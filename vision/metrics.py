"""Detection metrics on labelled photos: mAP50, mAP50-95, tile accuracy, per-class recall (pure numpy)."""
from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from dataclasses import dataclass, field

import numpy as np

from vision.detections import CLASS_NAMES, Detections

IOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU matrix between boxes ``a`` (N, 4) and ``b`` (M, 4), xyxy."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)), np.float32)
    top_left = np.maximum(a[:, None, :2], b[None, :, :2])
    bottom_right = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(bottom_right - top_left, 0, None), axis=2)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=1)
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-9)


def match_pairs(iou: np.ndarray, threshold: float) -> list[tuple[int, int]]:
    """One-to-one (truth, prediction) pairs, highest IoU first, each at least ``threshold``."""
    pairs = []
    if iou.size:
        truth_idx, pred_idx = np.nonzero(iou >= threshold)
        order = np.argsort(-iou[truth_idx, pred_idx])
        used_t, used_p = set(), set()
        for t, p in zip(truth_idx[order], pred_idx[order]):
            if t not in used_t and p not in used_p:
                used_t.add(t)
                used_p.add(p)
                pairs.append((int(t), int(p)))
    return pairs


def average_precision(recall: np.ndarray, precision: np.ndarray) -> float:
    """Area under the precision envelope, 101-point interpolation (COCO)."""
    envelope = np.concatenate([[0.0], precision, [0.0]])
    envelope = np.flip(np.maximum.accumulate(np.flip(envelope)))
    points = np.linspace(0, 1, 101)
    r = np.concatenate([[0.0], recall, [1.0]])
    return float(np.mean(envelope[np.searchsorted(r, points, side="left").clip(0, len(envelope) - 1)]))


@dataclass
class DetectionScores:
    """Accumulates photos; `summary()` gives the metrics."""

    _predictions: dict[str, list[tuple[float, np.ndarray, np.ndarray, int]]] = field(default_factory=lambda: defaultdict(list))
    _truth_count: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    _found: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    photos: int = 0

    def add(self, truth_boxes: np.ndarray, truth_tiles: list[str], found: Detections, accept: float = 0.0) -> None:
        """One photo: its labelled boxes and tiles, and what the detector found.

        Average precision counts every detection with its top class and each alternative class at their
        confidences (multi-label, as ultralytics' validator does); tile accuracy counts only detections
        whose score reaches ``accept`` (the operating threshold), with their top class.
        """
        self.photos += 1
        truth_tiles = list(truth_tiles)
        for tile in truth_tiles:
            self._truth_count[tile] += 1
        truth_boxes = np.asarray(truth_boxes, np.float32).reshape(-1, 4)
        iou = box_iou(truth_boxes, found.xyxy)
        # tile accuracy: one-to-one match at IoU ≥ 0.5 regardless of class, right if the codes agree
        accepted = np.nonzero(found.score >= accept)[0]
        for t, p in match_pairs(iou[:, accepted], 0.5):
            if truth_tiles[t] == found.tiles[accepted[p]]:
                self._found[truth_tiles[t]] += 1
        # AP: each (box, class) prediction keeps its overlaps with the same-class truths of this photo
        for p in range(len(found)):
            for tile, confidence in ((found.tiles[p], found.confidence[p]), *found.alternatives[p]):
                truths = np.array([t for t, code in enumerate(truth_tiles) if code == tile], np.int64)
                self._predictions[tile].append((float(confidence), iou[truths, p], truths, self.photos))

    def summary(self) -> dict:
        """mAP50, mAP50-95 (over classes with labels), tile accuracy, per-class recall and AP50."""
        ap = {}
        for tile, count in self._truth_count.items():
            entries = sorted(self._predictions.get(tile, []), key=lambda e: -e[0])
            per_threshold = []
            for threshold in IOU_THRESHOLDS:
                used: set[tuple[int, int]] = set()
                tp = np.zeros(len(entries))
                for i, (_, overlaps, truths, photo) in enumerate(entries):
                    best, best_iou = None, threshold
                    for overlap, truth in zip(overlaps, truths):
                        if overlap >= best_iou and (photo, int(truth)) not in used:
                            best, best_iou = int(truth), overlap
                    if best is not None:
                        used.add((photo, best))
                        tp[i] = 1
                cum_tp = np.cumsum(tp)
                recall = cum_tp / count
                precision = cum_tp / np.arange(1, len(entries) + 1) if len(entries) else np.zeros(0)
                per_threshold.append(average_precision(recall, precision) if len(entries) else 0.0)
            ap[tile] = per_threshold
        total = sum(self._truth_count.values())
        return {
            "photos": self.photos,
            "labelled_tiles": total,
            "mAP50": float(np.mean([v[0] for v in ap.values()])) if ap else 0.0,
            "mAP50-95": float(np.mean([np.mean(v) for v in ap.values()])) if ap else 0.0,
            "tile_accuracy": sum(self._found.values()) / total if total else 0.0,
            "per_class": {
                tile: {"labelled": self._truth_count[tile], "recall": self._found[tile] / self._truth_count[tile],
                       "AP50": ap[tile][0]}
                for tile in sorted(self._truth_count)
            },
        }


def read_lines(path: Path) -> list[str]:
    """The lines of a UTF-8 text file; ValueError naming the file when it is not text."""
    try:
        return path.read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a UTF-8 text file") from None


def read_yolo_labels(path: Path, names: list[str]) -> tuple[np.ndarray, list[str]]:
    """Boxes (normalised cx, cy, w, h) and class names of a YOLO label file; polygons become their min/max box.
    ValueError naming the file and line for a line that is neither, whose class index is not one of ``names``,
    or whose box is empty or outside the image."""
    boxes, tiles = [], []
    for n, line in enumerate(read_lines(path), 1):
        parts = line.split()
        if not parts:
            continue
        if not parts[0].isdecimal() or int(parts[0]) >= len(names):
            raise ValueError(f"{path}:{n}: class index {parts[0]!r} is not a whole number from 0 to {len(names) - 1} "
                             f"(the class list has {len(names)} classes)")
        try:
            values = [float(v) for v in parts[1:]]
        except ValueError:
            values = [math.nan]
        if not all(map(math.isfinite, values)):
            raise ValueError(f"{path}:{n}: the coordinates {' '.join(parts[1:])!r} are not all finite numbers")
        if len(values) == 4:
            box = values
        elif len(values) >= 6 and len(values) % 2 == 0:
            xs, ys = values[0::2], values[1::2]
            box = [(min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs), max(ys) - min(ys)]
        else:
            raise ValueError(f"{path}:{n}: {len(values)} coordinates: expected 4 for a box (cx cy w h) or an even "
                             "number, at least 6, for a polygon (x y of each point)")
        cx, cy, w, h = box
        if not (w > 0 and h > 0 and cx - w / 2 < 1 and cx + w / 2 > 0 and cy - h / 2 < 1 and cy + h / 2 > 0):
            raise ValueError(f"{path}:{n}: the box (cx cy w h) {' '.join(f'{v:g}' for v in box)} is empty or lies "
                             "outside the image (coordinates are shares of its width and height, 0 to 1)")
        boxes.append(box)
        tiles.append(names[int(parts[0])])
    return np.array(boxes, np.float32).reshape(-1, 4), tiles


LabelFixes = dict[int, tuple[str, "str | None"]]
"""One photo's label errors: label index (in `read_yolo_labels` order) → (the tile labelled, the tile the photo
shows, or None for a second box on a tile already labelled)."""


LABEL_FIXES_HEADER = ["image", "label", "labelled", "shown", "note"]


def read_label_fixes(path: Path) -> dict[str, LabelFixes]:
    """The label fixes of a TSV file, per image file name (a header line, then columns image, label, labelled,
    shown — '-' for a second box — and note; lines starting with '#' are comments). ValueError naming the file
    and line for a wrong header, a malformed line, a tile that is not a tile code or 'back', a label fixed
    twice, or no fixes at all."""
    fixes: dict[str, LabelFixes] = {}
    lines = [(n, line) for n, line in enumerate(read_lines(path), 1) if line.strip() and line[0] != "#"]
    if not lines or lines[0][1].split("\t") != LABEL_FIXES_HEADER:
        raise ValueError(f"{path}:{lines[0][0] if lines else 1}: expected the header line "
                         f"{', '.join(LABEL_FIXES_HEADER)}, tab-separated")
    if len(lines) == 1:
        raise ValueError(f"{path}: no label fixes below the header")
    for n, line in lines[1:]:
        cells = line.split("\t")
        if len(cells) != 5 or not cells[1].isdecimal():
            raise ValueError(f"{path}:{n}: expected image, label index, labelled, shown and note, tab-separated")
        image, index, labelled, shown, _note = cells
        if labelled not in CLASS_NAMES or shown not in (*CLASS_NAMES, "-"):
            raise ValueError(f"{path}:{n}: the tiles labelled and shown must be tile codes or 'back' ('-' shown for "
                             "a second box)")
        if int(index) in fixes.get(image, {}):
            raise ValueError(f"{path}:{n}: a second fix for label {index} of {image}")
        fixes.setdefault(image, {})[int(index)] = (labelled, None if shown == "-" else shown)
    return fixes


def mend_labels(boxes: np.ndarray, tiles: list[str], fixes: LabelFixes) -> tuple[np.ndarray, list[str]]:
    """The labels with ``fixes`` made; ValueError when a fix finds another tile labelled than it expects."""
    for index, (labelled, _) in fixes.items():
        if index >= len(tiles) or tiles[index] != labelled:
            raise ValueError(f"label {index} is {tiles[index] if index < len(tiles) else 'missing'}, not {labelled}: "
                             "the label fixes are for other labels")
    keep = [i for i in range(len(tiles)) if i not in fixes or fixes[i][1] is not None]
    return boxes[keep], [fixes[i][1] if i in fixes else tiles[i] for i in keep]


def to_pixel_boxes(boxes: np.ndarray, width: int, height: int) -> np.ndarray:
    """Normalised cx, cy, w, h boxes as x1, y1, x2, y2 pixels."""
    cx, cy, w, h = boxes.T
    return np.stack([(cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height], 1)
