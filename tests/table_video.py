"""A webcam stand-in for the tests: an MJPG .avi of real photos held still, with a hand sweeping between them."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

VALID_IMAGES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "chinese-mahjong-detection" / "valid" / "images"
FRAME_SIZE = (640, 480)


def write_table_video(path: Path, photos: list[Path], fps: int = 10, still_seconds: float = 2.0,
                      sweep_seconds: float = 0.8) -> int:
    """Write ``photos`` one after another, each held still for ``still_seconds``, a skin-coloured hand sweeping
    across the picture before each one; returns the number of frames written."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, FRAME_SIZE)
    if not writer.isOpened():
        raise RuntimeError("OpenCV cannot write an MJPG .avi here")
    frames = 0
    for photo in photos:
        picture = cv2.resize(cv2.imread(str(photo)), FRAME_SIZE, interpolation=cv2.INTER_AREA)
        sweep = max(2, round(sweep_seconds * fps))
        for step in range(sweep):
            frame = picture.copy()
            x = round(-200 + step * (FRAME_SIZE[0] + 400) / sweep)
            cv2.ellipse(frame, (x, FRAME_SIZE[1] // 2), (160, 110), 20, 0, 360, (120, 160, 215), -1)
            writer.write(frame)
            frames += 1
        for _ in range(round(still_seconds * fps)):
            noisy = cv2.add(picture, np.random.default_rng(frames).integers(0, 3, picture.shape, np.uint8))
            writer.write(noisy)
            frames += 1
    writer.release()
    return frames
