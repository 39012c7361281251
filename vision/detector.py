"""`TileDetector`: find and name every tile in a photo with ONNX Runtime (no torch at run time).

Two bundled models: a one-class YOLO detector (every tile, face up or down) and a classifier run on each
crop (42 faces + back, with the face's up direction and its axis). `sideways` marks tiles whose face axis is turned 90°
from the photo's dominant tile axis (a claimed tile in a meld). A photo the detector is unsure of is also
looked at squeezed along either axis, in case its pixels were stretched (`TileDetector.find_tiles_unstretched`),
one whose tiles lie in a small part of it is looked at again in that part, enlarged
(`TileDetector.find_tiles_zoomed`), and one showing a far wall of face-down tiles too small for the detector's
input is looked at again in enlarged slices (`TileDetector.find_small_tiles`). Asked to (`TileDetector.detect`'s
``mirror`` and ``region``: a hand that does not add up, `vision.read.hand_reading`), it also looks at the view
mirrored, or at a region of it alone, and pools the boxes of both looks (`TileDetector.find_tiles_mirrored`,
`TileDetector.find_tiles_within`).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.images import Photo  # before cv2 loads: it sets OpenCV's pixel limit

import cv2
import numpy as np
import onnxruntime as ort

from vision.crops import box_aspects, crops_batch
from vision.detections import BACK, CLASS_NAMES, ODD_SHAPE, Detections
from vision.metrics import box_iou

MODELS = Path(__file__).resolve().parents[1] / "models"
DETECTOR_MODEL = MODELS / "tile_detector.onnx"
CLASSIFIER_MODEL = MODELS / "tile_classifier.onnx"
CLASSIFIER_BATCH = 64
"""Crops per classifier run: a photo of a whole table (hundreds of tiles) needs no more memory than a hand."""
CLASSIFIER_OUTPUTS = ["probs", "up", "axis"]
"""The classifier's outputs: class probabilities, the face's up direction, its axis (`datasets.axis_head`)."""
OPERATING_SCORE = 0.35
"""The detector's default score threshold: the tiles at or above it are the ones a reading uses."""
UNSURE_SCORE = 0.65
"""A photo whose tiles reach a median score below this, or that has fewer than `MIN_SURE_TILES` tiles, may be
stretched (resized without keeping its aspect ratio, as some datasets and apps do): tiles many times taller or
wider than a tile is. The median is at least 0.71 in 95 % of 150 real training photos, below 0.61 in 95 % of
120 strips of training photos stretched to a square."""
MIN_SURE_TILES = 3
SQUEEZES = {4.5: (3.0, 6.5), 9.0: (6.5, 13.0)}
"""The factors by which such a photo is squeezed along either axis to undo a stretch: first each key, then,
along the axis of the key that won, its two neighbours."""
MIRRORS = ("x", "y")
"""The axes a view can be mirrored along (`TileDetector.find_tiles_mirrored`): left to right, top to bottom."""
SQUEEZE_GAIN = 2.0
"""A squeezed view replaces the photo as it is when its tile-shaped boxes amount to more than this many times
the photo's in sure tiles (`_sure_mass`), and the median score of its tiles is no lower."""
ZOOM_SHARE = 0.75
"""When the region holding a photo's tiles spans at most this share of its width and of its height (the phone
held far from the hand), the detector looks again at that region alone, enlarged: small tiles are found and
named far better (`benchmarks/eval_small_tiles.py`)."""
ZOOM_MARGIN = 2.0
"""The region reaches this many median tile sizes beyond the tiles found, to take in tiles missed at first."""
SMALL_TILE = 14.0
"""A tile whose short side is under this many pixels in the detector's input is at the edge of what the detector
finds: a view showing face-down ones that small (a far wall, `far_wall`) is looked at again in slices
(`TileDetector.find_small_tiles`)."""
SLICE_SHARE = 0.6
"""Each of the four overlapping slices spans this share of the view's width and of its height."""
EDGE_MARGIN = 2.0
"""A box from a slice within this many pixels of the slice's or the view's edge may be a piece of a tile cut
off there: it is not taken."""
NEW_TILE_IOU = 0.3
"""A box from a slice overlapping a tile already found by more than this is that tile."""
SECOND_LOOK_SHIFTS = ((0.06, 0.0), (-0.06, 0.0), (0.0, 0.06), (0.0, -0.06))
"""How far the further crops of a tile the classifier stays unsure of are moved (`DetectorSettings.second_look`):
shares of the box's width and height, along x and y."""


@dataclass(frozen=True)
class DetectorSettings:
    """Thresholds of the detector; `conf` applies to the tile score, `iou` to non-maximum suppression.

    ``half_turn``: a crop whose top class has at most this probability is also classified turned by
    180° and the two class readings are averaged (tiles lie either way up; the classifier's errors on
    the two turns are partly independent); 1 turns every crop, 0 none. The face's up direction comes
    from the crop as it lies: many faces look alike both ways up, so the turned crop's direction says
    little. ``second_look``: a crop whose top class, so averaged, still has at most this probability is cut
    again four times, moved a little left, right, up and down (`SECOND_LOOK_SHIFTS`), and each of those is
    classified as it lies and turned: the class readings of all ten are averaged (the classifier's errors on
    crops a few pixels apart are partly independent too); 0 never looks again. ``zoom``: look again,
    enlarged, at the region holding the tiles when it is a small part of the photo (`zoom_region`).
    ``slices``: look again, in four enlarged slices, at a view showing face-down tiles too small to be
    found reliably (`far_wall`, `TileDetector.find_small_tiles`).
    """

    conf: float = OPERATING_SCORE
    iou: float = 0.6
    max_tiles: int = 300
    half_turn: float = 0.9
    second_look: float = 0.7
    zoom: bool = True
    slices: bool = True


def letterbox(image: np.ndarray, size: int) -> tuple[np.ndarray, float, tuple[int, int]]:
    """The image scaled to fit ``size``×``size`` (aspect kept, grey padding): (NCHW float RGB, scale, pad)."""
    height, width = image.shape[:2]
    scale = min(size / height, size / width)
    # a sliver of a picture keeps a pixel across (its boxes along that side are then off: it holds no tile)
    new_w, new_h = max(round(width * scale), 1), max(round(height * scale), 1)
    resized = cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    pad_x, pad_y = (size - new_w) // 2, (size - new_h) // 2
    canvas = np.full((size, size, 3), 114, np.uint8)
    canvas[pad_y : pad_y + new_h, pad_x : pad_x + new_w] = resized
    tensor = canvas[..., ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255.0
    return np.ascontiguousarray(tensor), scale, (pad_x, pad_y)


def non_max_suppression(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices of the boxes kept, best first: each drops the later boxes overlapping it by more than ``iou``."""
    order = np.argsort(-scores)
    areas = np.prod(boxes[:, 2:] - boxes[:, :2], axis=1)
    keep = []
    while order.size:
        best, rest = order[0], order[1:]
        keep.append(best)
        top_left = np.maximum(boxes[best, :2], boxes[rest, :2])
        bottom_right = np.minimum(boxes[best, 2:], boxes[rest, 2:])
        inter = np.prod(np.clip(bottom_right - top_left, 0, None), axis=1)
        overlap = inter / (areas[best] + areas[rest] - inter + 1e-9)
        order = rest[overlap <= iou]
    return np.array(keep, np.int64)


def sideways_flags(axis: np.ndarray, face_up: np.ndarray) -> np.ndarray:
    """Face-up tiles whose face axis differs by more than 45° from the dominant axis of the photo's face-up
    tiles. A face-down tile (``face_up`` False) shows no face whose axis could tell (and a claimed tile is
    never face down): it is never sideways and has no say in the dominant axis.

    ``axis`` holds each face's axis as the doubled-angle vector (cos 2θ, sin 2θ) of its up angle θ, shorter
    where the classifier is less sure (the classifier's ``axis`` output): the dominant axis is their sum, so
    a sure face counts for more.
    """
    if not face_up.any():
        return np.zeros(len(axis), bool)
    dominant = axis[face_up].sum(0)
    return face_up & (axis @ dominant < 0)


def _session(path: Path, threads: int | None) -> ort.InferenceSession:
    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # Two sessions run one after the other: a pool left spinning after its run would take the cores from the other.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


class ModelError(RuntimeError):
    """The tile models cannot be loaded, with one line saying why."""


def load_detector(detector: Path | None = None, classifier: Path | None = None, **settings: Any) -> TileDetector:
    """A `TileDetector` on these model files (default: the bundled ones; ``settings``: its other arguments);
    ModelError when they cannot be loaded (a file missing, unreadable, or not a model of the project's classes)."""
    detector, classifier = detector or DETECTOR_MODEL, classifier or CLASSIFIER_MODEL
    for path in (detector, classifier):
        if not Path(path).is_file():
            raise ModelError(f"the tile models cannot be loaded: {path} is missing")
    try:
        found = TileDetector(Path(detector), Path(classifier), **settings)
    except Exception as error:  # ONNX Runtime's errors share no public base class
        raise ModelError(f"the tile models cannot be loaded: {str(error).splitlines()[0]}") from None
    outputs = found.classifier_outputs
    if outputs != CLASSIFIER_OUTPUTS:  # an export not finished: `datasets.axis_head` adds ``axis``
        raise ModelError(f"the tile models cannot be loaded: {classifier} gives {', '.join(outputs)}, "
                         f"not {', '.join(CLASSIFIER_OUTPUTS)}")
    return found


class TileDetector:
    """Find every tile in a photo and name it; thread-safe (ONNX Runtime sessions are)."""

    def __init__(
        self,
        detector: Path = DETECTOR_MODEL,
        classifier: Path = CLASSIFIER_MODEL,
        settings: DetectorSettings = DetectorSettings(),
        threads: int | None = None,
    ) -> None:
        self.settings = settings
        self._detector = _session(detector, threads)
        self._classifier = _session(classifier, threads)
        det_meta = self._detector.get_modelmeta().custom_metadata_map
        cls_meta = self._classifier.get_modelmeta().custom_metadata_map
        self.imgsz = int(json.loads(det_meta.get("imgsz", "[480]"))[0])
        self.crop_size = int(cls_meta.get("crop_size", 64))
        names = tuple(json.loads(cls_meta["names"]))
        if names != CLASS_NAMES:
            raise ValueError(f"{classifier}: its classes are not the project's 43 tile classes")
        self.model_info = {"detector": detector.name, "classifier": classifier.name, "imgsz": self.imgsz,
                           "version": cls_meta.get("version", "")}
        self._last_slices: tuple[np.ndarray, tuple[np.ndarray, np.ndarray]] | None = None
        """The last view looked at in slices and what its slices found (`_slice_tiles`): the looks again at a photo
        share its view, so they share its slices."""

    @property
    def classifier_outputs(self) -> list[str]:
        """The classifier's output names: ``probs``, ``up`` and, once `datasets.axis_head` has added it, ``axis``."""
        return [output.name for output in self._classifier.get_outputs()]

    def find_tiles(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Tile boxes (x1, y1, x2, y2 in ``image`` pixels) and scores, after thresholds and NMS."""
        tensor, scale, (pad_x, pad_y) = letterbox(image, self.imgsz)
        output = self._detector.run(None, {self._detector.get_inputs()[0].name: tensor})[0][0]  # (5, anchors)
        scores = output[4]
        mask = scores >= self.settings.conf
        cx, cy, w, h = output[:4, mask]
        boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
        boxes = (boxes - [pad_x, pad_y, pad_x, pad_y]) / scale
        boxes[:, 0::2] = boxes[:, 0::2].clip(0, image.shape[1])
        boxes[:, 1::2] = boxes[:, 1::2].clip(0, image.shape[0])
        keep = non_max_suppression(boxes, scores[mask], self.settings.iou)[: self.settings.max_tiles]
        return boxes[keep].astype(np.float32), scores[mask][keep].astype(np.float32)

    def find_tiles_unstretched(self, image: np.ndarray) -> tuple[np.ndarray, tuple[float, float], np.ndarray, np.ndarray]:
        """`find_tiles` in the view of ``image`` where its tiles look most like tiles: (the view, its scale
        along x and y against ``image``, boxes in the view's pixels, scores).

        The view is ``image`` itself unless the detector is unsure of it (`UNSURE_SCORE`) or most of its
        boxes have no tile's shape (`ODD_SHAPE`), and a squeezed copy (`SQUEEZES`: the coarse factors, then
        the winner's neighbours) finds clearly more, and surer, tile-shaped tiles (`SQUEEZE_GAIN`).
        """
        boxes, scores = self.find_tiles(image)
        best = (image, (1.0, 1.0), boxes, scores)
        if looks_sure(boxes, scores):
            return best
        sure, shapely = _sure_scores(boxes, scores)
        best_total, least_median = SQUEEZE_GAIN * _sure_mass(sure[shapely]), np.median(sure) if len(sure) else 0.0
        won = None
        for axis, factor in [(axis, factor) for factor in SQUEEZES for axis in (0, 1)]:
            view, total, median = self._squeezed(image, axis, factor)
            if total > best_total and median >= least_median:
                best, best_total, won = view, total, (axis, factor)
        for axis, factor in [(won[0], near) for near in SQUEEZES[won[1]]] if won else []:
            view, total, median = self._squeezed(image, axis, factor)
            if total > best_total and median >= least_median:
                best, best_total = view, total
        return best

    def find_tiles_zoomed(self, image: np.ndarray) -> tuple[np.ndarray, tuple[float, float], tuple[int, int],
                                                            np.ndarray, np.ndarray]:
        """`find_tiles_unstretched` in ``image``, or in the region around its tiles when they lie in a small part
        of it (`zoom_region`): (the view, its scale along x and y against the region, the region's top-left
        corner in ``image`` pixels, boxes in the view's pixels, scores)."""
        view, scale, boxes, scores = self.find_tiles_unstretched(image)
        region = zoom_region(view_to_image(boxes, scale), scores, image.shape[:2]) if self.settings.zoom else None
        if region is None:
            return view, scale, (0, 0), boxes, scores
        left, top, right, bottom = region
        view, scale, boxes, scores = self.find_tiles_unstretched(image[top:bottom, left:right])
        return view, scale, (left, top), boxes, scores

    def find_small_tiles(self, view: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Small tiles missed in ``view``, where ``boxes`` were found, looked for in four overlapping slices of it
        (`SLICE_SHARE`), each enlarged to the detector's input: (boxes, scores). A slice's box is taken when it is
        small in the view's detector input too (`SMALL_TILE`), is not cut by the slice's or the view's edge
        (`EDGE_MARGIN`) and is no tile already found (`NEW_TILE_IOU`)."""
        new, new_scores = self._slice_tiles(view)
        unseen = box_iou(new, boxes).max(1, initial=0.0) <= NEW_TILE_IOU
        return new[unseen].astype(np.float32), new_scores[unseen].astype(np.float32)

    def _slice_tiles(self, view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The small tiles found in the four slices of ``view`` (see `find_small_tiles`), before those found in the
        view itself are set apart; found once per view (the same array) however many looks ask."""
        last = self._last_slices  # one read: another thread may set it meanwhile
        if last is not None and last[0] is view:
            return last[1]
        height, width = view.shape[:2]
        input_scale = self.imgsz / max(height, width)
        slice_w, slice_h = round(width * SLICE_SHARE), round(height * SLICE_SHARE)
        found, found_scores = [], []
        for left in (0, width - slice_w):
            for top in (0, height - slice_h):
                cut, cut_scores = self.find_tiles(view[top : top + slice_h, left : left + slice_w])
                inside = _well_inside(cut, slice_w, slice_h)
                cut = cut + [left, top, left, top]
                taken = inside & _well_inside(cut, width, height) & _small(cut, input_scale)
                found.append(cut[taken])
                found_scores.append(cut_scores[taken])
        new, new_scores = np.concatenate(found), np.concatenate(found_scores)
        keep = non_max_suppression(new, new_scores, self.settings.iou)
        self._last_slices = (view, (new[keep], new_scores[keep]))
        return new[keep], new_scores[keep]

    def find_tiles_mirrored(self, view: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                            mirror: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The tiles ``boxes`` (with ``scores``) found in ``view`` pooled with those `find_tiles` finds in ``view``
        mirrored left to right (``mirror`` "x") or top to bottom ("y") (`_pooled`): the detector's errors on a
        picture and its mirror image are partly independent, so a tile missed or boxed astray in one look may be
        boxed well in the other."""
        if mirror not in MIRRORS:
            raise ValueError(f"mirror must be one of {', '.join(MIRRORS)}, not {mirror!r}")
        height, width = view.shape[:2]
        axis = MIRRORS.index(mirror)
        seen, seen_scores = self.find_tiles(np.ascontiguousarray(view[:, ::-1] if axis == 0 else view[::-1]))
        edge = (width, height)[axis]
        seen[:, [axis, axis + 2]] = edge - seen[:, [axis + 2, axis]]
        return self._pooled(boxes, scores, seen, seen_scores)

    def find_tiles_within(self, view: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                          region: tuple[int, int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The tiles ``boxes`` (with ``scores``) found in ``view`` pooled with those `find_tiles` finds in its
        ``region`` (x1, y1, x2, y2 in ``view`` pixels) alone, enlarged to the detector's input (`_pooled`): a
        hand's tiles are larger there than in the whole picture."""
        left, top, right, bottom = region
        seen, seen_scores = self.find_tiles(view[top:bottom, left:right])
        return self._pooled(boxes, scores, seen + np.array([left, top, left, top], np.float32), seen_scores)

    def _pooled(self, boxes: np.ndarray, scores: np.ndarray, seen: np.ndarray,
                seen_scores: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Two looks' boxes pooled by non-maximum suppression: the boxes kept, their scores, and the boxes set
        aside (a tile's box in the look that boxed it less surely: `classify_pooled` reads it too)."""
        pooled, pooled_scores = np.concatenate([boxes, seen]), np.concatenate([scores, seen_scores])
        keep = non_max_suppression(pooled, pooled_scores, self.settings.iou)[: self.settings.max_tiles]
        aside = np.ones(len(pooled), bool)
        aside[keep] = False
        return pooled[keep].astype(np.float32), pooled_scores[keep].astype(np.float32), pooled[aside].astype(np.float32)

    def _squeezed(self, image: np.ndarray, axis: int, factor: float) -> tuple[tuple, float, float]:
        """`find_tiles` in ``image`` squeezed ``factor`` times along ``axis`` (0: x, 1: y): (the view as
        `find_tiles_unstretched` gives it, the sure tiles its tile-shaped boxes amount to (`_sure_mass`), the
        median score of its tiles); a view with fewer than MIN_SURE_TILES tiles scores 0."""
        height, width = image.shape[:2]
        size = (max(round(width / factor), 1), height) if axis == 0 else (width, max(round(height / factor), 1))
        view = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        boxes, scores = self.find_tiles(view)
        sure, shapely = _sure_scores(boxes, scores)
        if len(sure) < MIN_SURE_TILES:
            return (), 0.0, 0.0
        return (view, (size[0] / width, size[1] / height), boxes, scores), _sure_mass(sure[shapely]), float(np.median(sure))

    def classify(self, image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Class probabilities (N, 43), face up vectors (N, 2) and face axes (N, 2: `sideways_flags`) of the
        tiles in ``boxes``."""
        if len(boxes) == 0:
            return np.zeros((0, len(CLASS_NAMES)), np.float32), np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32)
        batch, aspect = crops_batch(image, boxes, self.crop_size), box_aspects(boxes)
        probs, up, axis = self._run_classifier(batch, aspect)
        doubtful = probs.max(1) <= self.settings.half_turn
        if doubtful.any():
            turned, _, _ = self._run_classifier(batch[doubtful][:, :, ::-1, ::-1], aspect[doubtful])
            probs[doubtful] = (probs[doubtful] + turned) / 2
        unsure = np.flatnonzero(doubtful & (probs.max(1) <= self.settings.second_look))
        if len(unsure):
            sizes = np.tile(boxes[unsure, 2:] - boxes[unsure, :2], 2)
            moved = crops_batch(image, np.concatenate([boxes[unsure] + sizes * np.tile(shift, 2)
                                                       for shift in SECOND_LOOK_SHIFTS]), self.crop_size)
            views = np.concatenate([moved, moved[:, :, ::-1, ::-1]])
            more = 2 * len(SECOND_LOOK_SHIFTS)  # readings per tile, on top of the two averaged above
            readings = self._run_classifier(views, np.tile(aspect[unsure], (more, 1)))[0]
            probs[unsure] = (2 * probs[unsure] + readings.reshape(more, len(unsure), -1).sum(0)) / (2 + more)
        return probs, up, axis

    def classify_pooled(self, image: np.ndarray, boxes: np.ndarray,
                        aside: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`classify`, each tile's class probabilities averaged with those of the boxes ``aside`` that overlap its
        box by IoU ``settings.iou`` or more (another look's boxes on the same tile, `find_tiles_mirrored`,
        `find_tiles_within`): crops a few pixels apart are read partly independently."""
        probs, up, axis = self.classify(image, boxes)
        overlap = box_iou(boxes, aside) >= self.settings.iou
        if overlap.any():
            aside_probs = self.classify(image, aside[overlap.any(0)])[0]
            overlap = overlap[:, overlap.any(0)]
            probs = (probs + overlap @ aside_probs) / (1 + overlap.sum(1, keepdims=True))
        return probs, up, axis

    def _run_classifier(self, batch: np.ndarray, aspect: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        runs = [self._classifier.run(CLASSIFIER_OUTPUTS, {"crops": np.ascontiguousarray(batch[i : i + CLASSIFIER_BATCH]),
                                                          "aspect": aspect[i : i + CLASSIFIER_BATCH]})
                for i in range(0, len(batch), CLASSIFIER_BATCH)]
        probs, up, axis = zip(*runs)
        return np.concatenate(probs), np.concatenate(up), np.concatenate(axis)

    def detect(self, photo: Photo | np.ndarray, mirror: str | None = None,
               region: tuple[float, float, float, float] | None = None, first: tuple | None = None) -> Detections:
        """Every tile of the photo: box in original-image pixels, code, confidence, top-3 alternatives, as JSON
        gives them (`Detections.rounded`).
        A second look, at about the detector's time again, pooled with the first (`classify_pooled`): ``mirror``
        ("x" or "y"), the view also mirrored along that axis (`find_tiles_mirrored`); ``region`` (x1, y1, x2, y2
        in original-image pixels), that part of the view also looked at alone (`find_tiles_within`). ``first``:
        what `find_tiles_zoomed` found in the photo's image, when the caller has it already (looking again at
        the same photo), so that it is not found again."""
        if mirror is not None and region is not None:
            raise ValueError("one second look at a time: a mirror or a region, not both")
        if isinstance(photo, np.ndarray):
            photo = Photo(photo, photo.shape[1], photo.shape[0])
        view, scale, offset, boxes, scores = first or self.find_tiles_zoomed(photo.image)
        within = _view_region(region, photo.scale, scale, offset, view.shape) if region is not None else None
        aside = np.zeros((0, 4), np.float32)
        if mirror is not None:
            boxes, scores, aside = self.find_tiles_mirrored(view, boxes, scores, mirror)
        elif within is not None:
            boxes, scores, aside = self.find_tiles_within(view, boxes, scores, within)
        probs, up, axis = self.classify_pooled(view, boxes, aside)
        if self.settings.slices and far_wall(boxes, scores, probs, self.imgsz / max(view.shape[:2])):
            new, new_scores = self.find_small_tiles(view, boxes)
            room = self.settings.max_tiles - len(boxes)
            new, new_scores = new[:room], new_scores[:room]
            new_probs, new_up, new_axis = self.classify(view, new)
            boxes, scores = np.concatenate([boxes, new]), np.concatenate([scores, new_scores])
            probs, up, axis = np.concatenate([probs, new_probs]), np.concatenate([up, new_up]), np.concatenate([axis, new_axis])
        ranked = np.argsort(-probs, axis=1)[:, :4]
        tiles = tuple(CLASS_NAMES[row[0]] for row in ranked)
        confidence = scores * probs[np.arange(len(boxes)), ranked[:, 0]] if len(boxes) else scores
        alternatives = tuple(
            tuple((CLASS_NAMES[c], float(scores[i] * probs[i, c])) for c in ranked[i, 1:]) for i in range(len(boxes))
        )
        order = np.lexsort((boxes[:, 0], boxes[:, 1])) if len(boxes) else np.zeros(0, np.int64)
        detections = Detections(
            xyxy=view_to_image(boxes, scale, offset) * photo.scale, tiles=tiles,
            confidence=confidence,
            alternatives=alternatives,
            sideways=sideways_flags(axis, np.array([t != BACK for t in tiles], bool)),
            angle=_degrees(up),
            score=scores,
        )
        return detections[order].rounded()


def _view_region(region: tuple[float, float, float, float], photo_scale: float, scale: tuple[float, float],
                 offset: tuple[int, int], shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """A region in original-image pixels in the pixels of a view (`view_to_image` undone), clipped to the view;
    None when less than two pixels of it lie in the view."""
    x1, y1, x2, y2 = (np.asarray(region, np.float64) / photo_scale - [*offset, *offset]) * [*scale, *scale]
    left, top = max(int(x1), 0), max(int(y1), 0)
    right, bottom = min(math.ceil(x2), shape[1]), min(math.ceil(y2), shape[0])
    return (left, top, right, bottom) if right - left >= 2 and bottom - top >= 2 else None


def view_to_image(boxes: np.ndarray, scale: tuple[float, float], offset: tuple[int, int] = (0, 0)) -> np.ndarray:
    """Boxes in a view's pixels in the pixels of the image it was made from: the view is the image, or the region
    whose top-left corner is ``offset``, resized by ``scale`` (x, y) (`find_tiles_zoomed`)."""
    return boxes / [*scale, *scale] + [*offset, *offset]


def far_wall(boxes: np.ndarray, scores: np.ndarray, probs: np.ndarray, input_scale: float) -> bool:
    """Whether a view shows face-down tiles small in the detector's input (a far wall: `SMALL_TILE` at the view's
    ``input_scale``), where the detector misses many, and is sure of its tiles (`looks_sure`; in a picture
    stretched beyond repair, slices would find more of the same doubtful boxes). ``probs`` are the boxes'
    class probabilities."""
    if not looks_sure(boxes, scores):
        return False
    backs = probs.argmax(1) == CLASS_NAMES.index(BACK)
    return bool((_small(boxes, input_scale) & backs & (scores >= OPERATING_SCORE)).any())


def around(boxes: np.ndarray, margin: float, width: int, height: int) -> tuple[float, float, float, float]:
    """The region (left, top, right, bottom pixels) holding the boxes, ``margin`` median tile sizes (square roots
    of box area) wider on every side, within a ``width`` × ``height`` frame."""
    size = float(np.median(np.sqrt(np.prod(boxes[:, 2:] - boxes[:, :2], axis=1))))
    left, top = np.maximum(boxes[:, :2].min(0) - margin * size, 0)
    right, bottom = np.minimum(boxes[:, 2:].max(0) + margin * size, (width, height))
    return float(left), float(top), float(right), float(bottom)


def zoom_region(boxes: np.ndarray, scores: np.ndarray, shape: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The region (left, top, right, bottom pixels) of an image of ``shape`` (height, width) around the boxes at
    the operating score, ZOOM_MARGIN median tile sizes wide, when it spans at most ZOOM_SHARE of the image's
    width and of its height; None when it spans more, or fewer than MIN_SURE_TILES tiles are sure."""
    sure = boxes[scores >= OPERATING_SCORE]
    if len(sure) < MIN_SURE_TILES:
        return None
    height, width = shape
    left, top, right, bottom = around(sure, ZOOM_MARGIN, width, height)
    if right - left > ZOOM_SHARE * width or bottom - top > ZOOM_SHARE * height:
        return None
    return int(left), int(top), int(math.ceil(right)), int(math.ceil(bottom))


def _small(boxes: np.ndarray, input_scale: float) -> np.ndarray:
    """Whether each box's short side is under SMALL_TILE pixels in the detector's input (``input_scale``: input
    pixels per view pixel)."""
    return np.min(boxes[:, 2:] - boxes[:, :2], axis=1) * input_scale < SMALL_TILE


def _well_inside(boxes: np.ndarray, width: int, height: int) -> np.ndarray:
    """Whether each box lies more than EDGE_MARGIN pixels inside a ``width`` × ``height`` frame."""
    return (boxes[:, :2] > EDGE_MARGIN).all(1) & (boxes[:, 2:] < [width - EDGE_MARGIN, height - EDGE_MARGIN]).all(1)


def looks_sure(boxes: np.ndarray, scores: np.ndarray) -> bool:
    """Whether the detector is sure of a view's tiles: at least MIN_SURE_TILES at the operating score, their median
    score at least UNSURE_SCORE, most of them shaped like a tile (`ODD_SHAPE`)."""
    sure, shapely = _sure_scores(boxes, scores)
    return len(sure) >= MIN_SURE_TILES and np.median(sure) >= UNSURE_SCORE and shapely.mean() > 0.5


def _sure_mass(scores: np.ndarray) -> float:
    """How many sure tiles boxes of these scores (at least the operating score) amount to: a box counts by how
    far its score rises from the operating score to 1, so that many doubtful boxes (pieces of tiles a stretched
    picture shows) do not outweigh fewer sure ones."""
    return float(((scores - OPERATING_SCORE) / (1 - OPERATING_SCORE)).sum())


def _sure_scores(boxes: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The scores of the tiles at the operating score, and whether each box has a tile's shape (at most
    ODD_SHAPE times as long one way as the other)."""
    sure = scores >= OPERATING_SCORE
    return scores[sure], np.abs(box_aspects(boxes[sure])[:, 0]) <= np.log(ODD_SHAPE)


def _degrees(up: np.ndarray) -> np.ndarray:
    """Each (x, y) up vector's direction in degrees clockwise from up, in [0, 360) (a float32 remainder of a
    tiny negative angle rounds to 360: that is 0)."""
    angle = np.degrees(np.arctan2(up[:, 1], up[:, 0])).astype(np.float32) % 360 if len(up) else np.zeros(0, np.float32)
    return np.where(angle >= 360, np.float32(0), angle)
