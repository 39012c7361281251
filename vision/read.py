"""Read a player's hand from a photo: detect the tiles, group them, check the hand (`vision.grouping`)."""
from __future__ import annotations

from typing import Any

from vision.detections import DOUBTFUL_CONFIDENCE, Detections
from vision.detector import MIRRORS, around
from vision.grouping import HandReading, group_hand
from vision.images import Photo

HAND_MARGIN = 1.5
"""The region a hand not legal as read is looked at again in reaches this many median tile sizes beyond the
tiles read into the hand (`hand_region`), to take in a tile missed beside them."""


def hand_reading(photo: Photo, detector: Any, region: str, seat: int = 0, *, indicator: str | None = None,
                 options: dict[str, Any] | None = None, winner: bool = True) -> tuple[HandReading, Detections]:
    """The checked reading of the hand of the player at ``seat`` in the photo (slivers of tiles the photo's
    edge cuts off left out; ``winner`` False: a hand that did not win), and the detections it was read
    from. A hand that is not legal as read (from one tile found or more) is looked at again: the photo also
    mirrored left to right, then top to bottom (`TileDetector.find_tiles_mirrored`), then the region of the
    hand as first read alone, enlarged (`hand_region`, `TileDetector.find_tiles_within`), each second look's
    boxes pooled with the first's (a tile missed or boxed astray in one look may be boxed well in the other;
    a tile boxed in both is read from both boxes); the first of those readings that is legal is taken, else
    the first reading. The first look's view and boxes are found once and shared by every look.
    ``detector`` is a `vision.detector.TileDetector` (anything with its ``find_tiles_zoomed(image)`` and
    ``detect(photo, mirror=None, region=None, first=None)``)."""
    found = detector.find_tiles_zoomed(photo.image)

    def read(**again: Any) -> tuple[HandReading, Detections]:
        detections = detector.detect(photo, first=found, **again)
        return group_hand(detections, region, seat=seat, indicator=indicator, options=options,
                          frame=(photo.width, photo.height), winner=winner), detections

    first = read()
    if first[0].problems and len(first[1]):
        around = hand_region(*first, (photo.width, photo.height))
        for again in [{"mirror": m} for m in MIRRORS] + ([{"region": around}] if around else []):
            trial = read(**again)
            if not trial[0].problems:
                return trial
    return first


def hand_region(reading: HandReading, detections: Detections,
                frame: tuple[int, int]) -> tuple[float, float, float, float] | None:
    """The region (x1, y1, x2, y2, photo pixels) of the tiles read into the hand, HAND_MARGIN median tile sizes
    wider on every side, within the photo of size ``frame``; None when the hand holds no tile or the region
    is the whole photo."""
    if not reading.held:
        return None
    region = around(detections.xyxy[list(reading.held)], HAND_MARGIN, *frame)
    return None if region == (0, 0, *frame) else region


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
    ``melds``, ``flowers``) with ``win_tile``, ``win_guessed``, ``apart``, ``groups`` (detection indices per
    group), ``away``, ``problems``, ``suggestions``, ``needs``, and ``tiles`` (every detection of the look it was
    read from, in `mjcam detect --json`'s form) (`hand_reading`, `reading_json`).
    """
    return reading_json(*hand_reading(photo, detector, region, seat, indicator=indicator, options=options,
                                      winner=winner))
