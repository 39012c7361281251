"""Tile crops for the classifier: the same preprocessing at training and at run time."""
from __future__ import annotations

import cv2
import numpy as np

CROP_SIZE = 64
CROP_PAD = 0.08
"""Each side of a box is widened by this share of the box's size along that axis before cropping."""


def tile_crop(image: np.ndarray, box: np.ndarray, size: int = CROP_SIZE, pad: float = CROP_PAD) -> np.ndarray:
    """The box's pixels (widened by ``pad``) resized to a ``size``×``size`` square.

    The aspect ratio is not kept: every tile fills the square, so a tile in a photo that was stretched
    (or seen at a grazing angle) looks like any other; which way its face points still shows. Parts of the
    widened box outside the image are filled by replicating the image border; a box wholly outside it gives a
    black crop.
    """
    x1, y1, x2, y2 = (float(v) for v in box)
    margin_x, margin_y = pad * (x2 - x1), pad * (y2 - y1)
    left, top = int(np.floor(x1 - margin_x)), int(np.floor(y1 - margin_y))
    right, bottom = int(np.ceil(x2 + margin_x)), int(np.ceil(y2 + margin_y))
    right, bottom = max(right, left + 1), max(bottom, top + 1)
    height, width = image.shape[:2]
    # each end within 0…size: a negative end would slice from the far side of the image
    region = image[max(top, 0) : max(min(bottom, height), 0), max(left, 0) : max(min(right, width), 0)]
    if region.size == 0:
        return np.zeros((size, size, 3), np.uint8)
    if left < 0 or top < 0 or right > width or bottom > height:
        region = cv2.copyMakeBorder(
            region, max(-top, 0), max(bottom - height, 0), max(-left, 0), max(right - width, 0), cv2.BORDER_REPLICATE
        )
    h, w = region.shape[:2]
    shrinking = w > size and h > size
    return cv2.resize(region, (size, size), interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR)


def crops_batch(image: np.ndarray, boxes: np.ndarray, size: int = CROP_SIZE) -> np.ndarray:
    """Crops of every box as a float32 NCHW batch in [0, 1], RGB, ready for the classifier."""
    if len(boxes) == 0:
        return np.zeros((0, 3, size, size), np.float32)
    crops = np.stack([tile_crop(image, box, size) for box in boxes])
    return crops[..., ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255.0


def box_aspects(boxes: np.ndarray) -> np.ndarray:
    """log(width / height) of each box, shape (N, 1): the shape the square crop no longer shows."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    sizes = np.maximum(boxes[:, 2:] - boxes[:, :2], 1e-3)
    return np.log(sizes[:, :1] / sizes[:, 1:])
