"""Read a player's hand from a photo: detect the tiles, group them, check the hand (`vision.grouping`)."""
from __future__ import annotations

from typing import Any

from vision.grouping import group_hand
from vision.images import Photo


def read_hand(photo: Photo, detector: Any, region: str, seat: int = 0, *, indicator: str | None = None,
              options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The hand of the player at ``seat`` in the photo: the player's part of a table record (``concealed``,
    ``melds``, ``flowers``) with ``win_tile``, ``groups`` (detection indices per group), ``away``,
    ``problems``, ``suggestions``, ``needs``, and ``tiles`` (every detection as `mjcam detect --json` gives
    it). ``detector`` is a `vision.detector.TileDetector` (anything with its ``detect(photo)``).
    """
    detections = detector.detect(photo)
    reading = group_hand(detections, region, seat=seat, indicator=indicator, options=options,
                         frame=(photo.width, photo.height))
    return {**reading.to_json(), "tiles": detections.to_json()}
