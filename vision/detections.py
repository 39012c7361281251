"""Tile detections: one small typed structure (arrays, one row per tile) passed through pure functions."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scoring.tiles import TILE_CODES

BACK = "back"
CLASS_NAMES: tuple[str, ...] = TILE_CODES + (BACK,)
"""The 43 tile classes: the 42 faces by tile code, then ``back`` (a face-down tile)."""

DOUBTFUL_CONFIDENCE = 0.5
"""A tile read below this confidence is marked doubtful, for the player to check: by `mjcam read`, in red by
`mjcam detect --annotate`, and on the page (its ``DOUBTFUL``, `webui/static/app.js`)."""

ODD_SHAPE = 3.5
"""A box more than this many times as long one way as the other has no tile's shape (a standing tile is about
0.75 as wide as tall, a lying one seen at a slant rarely twice as wide as tall): in a picture resized without
keeping its aspect ratio, most boxes are such."""

Alternatives = tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class Detections:
    """Tiles found in one image.

    ``xyxy`` boxes are in original-image pixels; ``tiles`` are class names (tile code or ``back``);
    ``score[i]`` is the detector's belief that a tile is there at all, ``confidence[i]`` that it is there and
    is ``tiles[i]`` (score × class probability);
    ``alternatives[i]`` lists the next most likely classes for tile i with their probabilities;
    ``sideways[i]`` is true when the tile's face is turned 90° from the photo's dominant tile axis (a claimed
    tile); ``angle[i]`` is the image direction of the face's top in degrees (0 = up, clockwise; a back's
    angle is only meaningful modulo 180°).
    """

    xyxy: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    tiles: tuple[str, ...] = ()
    confidence: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    alternatives: tuple[Alternatives, ...] = ()
    sideways: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    angle: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    score: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))

    def __post_init__(self) -> None:
        """Arrays of one row per tile; ``sideways``, ``angle`` and ``score`` may be left out (false, 0, confidence)."""
        n = len(self.tiles)

        def column(value, dtype, default):
            value = default if np.size(value) == 0 and n else value
            return np.asarray(value, dtype).reshape(n)

        object.__setattr__(self, "xyxy", np.asarray(self.xyxy, np.float32).reshape(n, 4))
        object.__setattr__(self, "confidence", column(self.confidence, np.float32, np.ones(n)))
        object.__setattr__(self, "sideways", column(self.sideways, bool, np.zeros(n)))
        object.__setattr__(self, "angle", column(self.angle, np.float32, np.zeros(n)))
        object.__setattr__(self, "score", column(self.score, np.float32, self.confidence))
        if not self.alternatives:
            object.__setattr__(self, "alternatives", ((),) * n)
        if len(self.alternatives) != n:
            raise ValueError("alternatives must have one entry per tile")

    def __len__(self) -> int:
        return len(self.tiles)

    def __getitem__(self, index: Any) -> Detections:
        """Select rows by a boolean mask, an index array, a slice or one index."""
        rows = np.arange(len(self))[index]
        rows = np.atleast_1d(rows)
        return Detections(
            xyxy=self.xyxy[rows],
            tiles=tuple(self.tiles[i] for i in rows),
            confidence=self.confidence[rows],
            alternatives=tuple(self.alternatives[i] for i in rows),
            sideways=self.sideways[rows],
            angle=self.angle[rows],
            score=self.score[rows],
        )

    @property
    def centers(self) -> np.ndarray:
        """Box centres, shape (N, 2)."""
        return (self.xyxy[:, :2] + self.xyxy[:, 2:]) / 2

    @property
    def sizes(self) -> np.ndarray:
        """Box widths and heights, shape (N, 2)."""
        return self.xyxy[:, 2:] - self.xyxy[:, :2]

    def to_json(self) -> list[dict[str, Any]]:
        """The ``tiles`` list of `mjcam detect --json`."""
        return [
            {
                "box": [round(float(v), 1) for v in self.xyxy[i]],
                "tile": self.tiles[i],
                "confidence": round(float(self.confidence[i]), 4),
                "alternatives": [[code, round(float(p), 4)] for code, p in self.alternatives[i]],
                "sideways": bool(self.sideways[i]),
                "angle": round(float(self.angle[i]), 1),
                "score": round(float(self.score[i]), 4),
            }
            for i in range(len(self))
        ]

    def rounded(self) -> Detections:
        """The detections as `to_json` gives them (boxes to 0.1 pixel, angles to 0.1°, scores to 4 decimals): what a
        client sends back (`/api/group`) is then what they are, so a hand read again from it is read alike."""
        return Detections.from_json(self.to_json())

    @classmethod
    def from_json(cls, items: list[dict[str, Any]]) -> Detections:
        """Rebuild from `to_json` output (hand-made lists need only ``box`` and ``tile``; angle defaults to 0)."""
        for item in items:
            if item.get("tile") not in CLASS_NAMES:
                raise ValueError(f"unknown tile class {item.get('tile')!r}")
        return cls(
            xyxy=np.array([item["box"] for item in items], np.float32).reshape(-1, 4),
            tiles=tuple(item["tile"] for item in items),
            confidence=np.array([item.get("confidence", 1.0) for item in items], np.float32),
            alternatives=tuple(
                tuple((str(c), float(p)) for c, p in item.get("alternatives", ())) for item in items
            ),
            sideways=np.array([bool(item.get("sideways", False)) for item in items], bool),
            angle=np.array([float(item.get("angle", 0.0)) for item in items], np.float32),
            score=np.array([item.get("score", item.get("confidence", 1.0)) for item in items], np.float32),
        )
