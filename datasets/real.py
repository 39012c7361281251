"""The real photos of ../shared/data/chinese-mahjong-detection, read as (image path, boxes, tile codes).

Labels are YOLO text lines (a few are polygons, read as the min/max box of their points); class indices are
mapped to the project's tile codes through the dataset's `classes.tsv`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.metrics import mend_labels, read_label_fixes, read_yolo_labels

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
REAL_DATA = SHARED / "data" / "chinese-mahjong-detection"
VALID_LABEL_FIXES = Path(__file__).with_name("valid_label_fixes.tsv")
"""The `valid` labels found wrong by eye (the photo shows another tile, or a tile is labelled twice)."""
ROW_UP = Path(__file__).with_name("train_row_up.tsv")
"""Which way the faces of the largest row (`hand_row`) of 168 `train` photos point, seen by eye (the classifier's
heads)."""


@dataclass(frozen=True)
class LabelledPhoto:
    """One photo with its tile boxes in normalised ``cx, cy, w, h`` and their tile codes."""

    image: Path
    boxes: np.ndarray  # (N, 4) normalised cx, cy, w, h
    tiles: tuple[str, ...]

    @property
    def source(self) -> str:
        """The original photo's name: the part before ``.rf.`` shared by its augmented copies."""
        return self.image.name.split(".rf.")[0]


def dataset_tile_codes(root: Path = REAL_DATA) -> list[str]:
    """The tile code of each class index of the dataset, from its classes.tsv."""
    rows = (root / "classes.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [row.split("\t")[2] for row in rows if row.strip()]


def load_split(split: str, root: Path = REAL_DATA, fixes: Path | None = None) -> list[LabelledPhoto]:
    """Every labelled photo of ``train`` or ``valid``, sorted by file name; with the label errors of the
    ``fixes`` file mended when one is given (`read_label_fixes`)."""
    codes = dataset_tile_codes(root)
    mended = read_label_fixes(fixes) if fixes else {}
    photos = []
    for image in sorted((root / split / "images").iterdir()):
        label = root / split / "labels" / (image.stem + ".txt")
        boxes, tiles = read_yolo_labels(label, codes) if label.exists() else (np.zeros((0, 4), np.float32), [])
        if image.name in mended:
            boxes, tiles = mend_labels(boxes, tiles, mended[image.name])
        photos.append(LabelledPhoto(image, boxes, tuple(tiles)))
    return photos


def hand_row(boxes: np.ndarray) -> list[int]:
    """The labels of the photo's largest row: labels sorted by height, a tile joining the row while its centre is
    within half the median tile height of the row's mean (``boxes`` normalised cx, cy, w, h)."""
    if len(boxes) == 0:
        return []
    height = float(np.median(boxes[:, 3]))
    rows: list[list[int]] = []
    for i in np.argsort(boxes[:, 1]):
        if rows and abs(boxes[i, 1] - boxes[rows[-1], 1].mean()) < 0.5 * height:
            rows[-1].append(int(i))
        else:
            rows.append([int(i)])
    return max(rows, key=len)


def complete_hand_row(boxes: np.ndarray, tiles: tuple[str, ...]) -> list[int]:
    """The labels of the photo's largest row when it shows a complete hand (14–18 tiles, at least 90 % of the
    photo's labels), else none."""
    row = hand_row(boxes)
    return row if 14 <= len(row) <= 18 and len(row) >= 0.9 * len(tiles) else []


def read_row_up(path: Path = ROW_UP) -> dict[str, float]:
    """Photo name → the angle its row's faces point to: 0 (``up``, the picture's top) or 180 (``down``); ValueError
    for a file without its header or with another direction."""
    out = {}
    rows = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    if not rows or rows[0] != "photo\tfaces":
        raise ValueError(f"{path.name}: its first line (after the comments) must be the header photo<TAB>faces")
    for line in rows[1:]:
        name, faces = line.split("\t")
        if faces not in ("up", "down"):
            raise ValueError(f"{path.name}: {name}: faces must be up or down, not {faces!r}")
        out[name] = 0.0 if faces == "up" else 180.0
    return out


def row_up_angles(boxes: np.ndarray, turn: float) -> np.ndarray:
    """The up angle (degrees clockwise from the picture's up) of each tile of a row (``boxes`` in pixels): square
    to the row's line through the tiles' centres, towards the picture's top, plus ``turn`` (180: its bottom)."""
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    along = np.linalg.svd(centres - centres.mean(0), full_matrices=False)[2][0]
    if along[0] < 0:
        along = -along
    top = np.degrees(np.arctan2(along[1], along[0]))  # the normal (dy, -dx), clockwise from the picture's up
    return np.full(len(boxes), (top + turn) % 360, np.float64)


SMALL_FRAME = (1920, 1440)
"""The picture a photo is set into to make its tiles small (`set_small`)."""


def set_small(image: np.ndarray, share: float) -> tuple[np.ndarray, float, tuple[int, int]]:
    """``image`` scaled to ``share`` of SMALL_FRAME (its longer side, against the frame's matching side) and
    centred on a blurred, enlarged copy of itself, as a phone held far from the hand sees it: (the picture, the
    scale, the photo's top-left corner in the picture)."""
    import cv2

    height, width = image.shape[:2]
    scale = share * min(SMALL_FRAME[0] / width, SMALL_FRAME[1] / height)
    small = cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    picture = cv2.resize(cv2.GaussianBlur(image, (0, 0), 15), SMALL_FRAME)
    left, top = (SMALL_FRAME[0] - small.shape[1]) // 2, (SMALL_FRAME[1] - small.shape[0]) // 2
    picture[top : top + small.shape[0], left : left + small.shape[1]] = small
    return picture, scale, (left, top)
