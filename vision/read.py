"""Read a player's hand from a photo: detect the tiles, group them, check the hand (`vision.grouping`)."""
from __future__ import annotations

from typing import Any

from vision.detections import Detections
from vision.detector import MIRRORS
from vision.grouping import HandReading, group_hand
from vision.images import Photo

DOUBTFUL_CONFIDENCE = 0.5
"""A tile read below this confidence is marked doubtful, for the player to check (the page's ``DOUBTFUL``,
`webui/static/app.js`)."""


def hand_reading(photo: Photo, detector: Any, region: str, seat: int = 0, *, indicator: str | None = None,
                 options: dict[str, Any] | None = None, winner: bool = True) -> tuple[HandReading, Detections]:
    """The checked reading of the hand of the player at ``seat`` in the photo (slivers of tiles the photo's
    edge cuts off left out; ``winner`` False: a hand that did not win), and the detections it was read
    from. A hand that is not legal as read (from one tile found or more) is looked at again, the photo also
    mirrored left to right, then top to bottom (`TileDetector.find_tiles_mirrored`: a tile missed or boxed
    astray may be boxed well there); the first of those readings that is legal is taken, else the first
    reading. ``detector`` is a `vision.detector.TileDetector` (anything with its ``detect(photo, mirror=None)``)."""
    def read(mirror: str | None) -> tuple[HandReading, Detections]:
        detections = detector.detect(photo, mirror=mirror)
        return group_hand(detections, region, seat=seat, indicator=indicator, options=options,
                          frame=(photo.width, photo.height), winner=winner), detections

    first = read(None)
    if first[0].problems and len(first[1]):
        for mirror in MIRRORS:
            again = read(mirror)
            if not again[0].problems:
                return again
    return first


def doubtful_tiles(reading: HandReading, detections: Detections) -> list[int]:
    """The detections of the hand read below DOUBTFUL_CONFIDENCE, least sure first."""
    return sorted((i for i in reading.held if detections.confidence[i] < DOUBTFUL_CONFIDENCE),
                  key=lambda i: float(detections.confidence[i]))


def reading_json(reading: HandReading, detections: Detections) -> dict[str, Any]:
    """A reading as JSON with ``tiles``: every detection it was read from, in `mjcam detect --json`'s form."""
    return {**reading.to_json(), "tiles": detections.to_json()}


def read_hand(photo: Photo, detector: Any, region: str, seat: int = 0, *, indicator: str | None = None,
              options: dict[str, Any] | None = None, winner: bool = True) -> dict[str, Any]:
    """The hand of the player at ``seat`` in the photo: the player's part of a table record (``concealed``,
    ``melds``, ``flowers``) with ``win_tile``, ``groups`` (detection indices per group), ``away``,
    ``problems``, ``suggestions``, ``needs``, and ``tiles`` (every detection of the look it was read from, in
    `mjcam detect --json`'s form) (`hand_reading`, `reading_json`).
    """
    return reading_json(*hand_reading(photo, detector, region, seat, indicator=indicator, options=options,
                                      winner=winner))
