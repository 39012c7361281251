"""Detection metrics on labelled photos: mAP50, mAP50-95, tile accuracy, per-class recall (pure numpy)."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from dataclasses import dataclass, field

import numpy as np

from vision.detections import Detections

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


def read_yolo_labels(path: Path, names: list[str]) -> tuple[np.ndarray, list[str]]:
    """Boxes (normalised cx, cy, w, h) and class names of a YOLO label file; polygons become their min/max box."""
    boxes, tiles = [], []
    for line in path.read_text().splitlines():
        parts = line.split()
        if not parts:
            continue
        values = [float(v) for v in parts[1:]]
        if len(values) == 4:
            boxes.append(values)
        else:
            xs, ys = values[0::2], values[1::2]
            boxes.append([(min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs), max(ys) - min(ys)])
        tiles.append(names[int(parts[0])])
    return np.array(boxes, np.float32).reshape(-1, 4), tiles


LabelFixes = dict[int, tuple[str, "str | None"]]
"""One photo's label errors: label index (in `read_yolo_labels` order) → (the tile labelled, the tile the photo
shows, or None for a second box on a tile already labelled)."""


def read_label_fixes(path: Path) -> dict[str, LabelFixes]:
    """The label fixes of a TSV file, per image file name (columns: image, label, labelled, shown — '-' for a
    second box — and note; lines starting with '#' are comments)."""
    fixes: dict[str, LabelFixes] = {}
    lines = [(n, line) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if line.strip() and line[0] != "#"]
    for n, line in lines[1:]:
        cells = line.split("\t")
        if len(cells) != 5 or not cells[1].isdigit():
            raise ValueError(f"{path}:{n}: expected image, label index, labelled, shown and note, tab-separated")
        image, index, labelled, shown, _note = cells
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
