"""The JSON API under ``/api``: health, regions, detect (photo → tiles and hand), score (record → result),
and the mounted webcam (live frame, still captures). Bad input always gets a 4xx ``{"error": "..."}``.
"""
from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from scoring import REGIONS, RecordError, score_table
from vision.images import MAX_BYTES, ImageError, Photo, decode_photo
from webui import ModelError

api = Blueprint("api", __name__, url_prefix="/api")


class ApiError(Exception):
    """Bad input: answered with ``status`` and ``{"error": message}``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@api.errorhandler(ApiError)
def _api_error(error: ApiError) -> tuple[Response, int]:
    return jsonify(error=str(error)), error.status


@api.app_errorhandler(HTTPException)
def _http_error(error: HTTPException) -> Any:
    """JSON errors for every ``/api`` URL (unknown route, wrong method, too large); pages keep Flask's."""
    if not request.path.startswith("/api/"):
        return error
    if isinstance(error, RequestEntityTooLarge):
        message = f"the upload is larger than the {MAX_BYTES // 2**20} MB limit"
    elif error.code == 404:
        message = f"no API endpoint {request.path}"
    elif error.code == 405:
        message = f"{request.method} is not allowed on {request.path}"
    else:
        message = error.description or error.name
    return jsonify(error=message), error.code


def _services() -> Any:
    return current_app.extensions["mjcam"]


@api.get("/health")
def health() -> Any:
    """``{"ok": true, "model": {...}}`` once the tile models are loaded; 503 when they cannot be."""
    try:
        model = _services().detector.model_info
    except ModelError as error:
        return jsonify(ok=False, model=None, error=str(error)), 503
    camera = _services().camera
    return jsonify(ok=True, model=model, rules=list(REGIONS), camera=camera is not None)


@api.get("/regions")
def regions() -> Any:
    """Every implemented region's metadata (names, hand size, options, flags, indicator…), by key."""
    return jsonify({key: info.to_dict() for key, info in REGIONS.items()})


def _rules_and_seat() -> tuple[str | None, int]:
    """The ``rules`` (optional) and ``seat`` (default 0) of a detect request, from the query or the form."""
    rules = request.values.get("rules") or None
    if rules is not None and rules not in REGIONS:
        raise ApiError(400, f"unknown rules {rules!r} (known: {', '.join(REGIONS)})")
    seat_text = request.values.get("seat", "0")
    if seat_text not in ("0", "1", "2", "3"):
        raise ApiError(400, f"seat must be 0, 1, 2 or 3, got {seat_text!r}")
    return rules, int(seat_text)


def read_photo_payload(photo: Photo, rules: str | None, seat: int) -> dict[str, Any]:
    """What `/api/detect` answers for a decoded photo: its size, the tiles as `mjcam detect` gives them and,
    when ``rules`` are given, the grouped hand of ``seat`` with the reader's suggestions and needs.
    """
    services = _services()
    detector = services.detector
    payload: dict[str, Any] = {"width": photo.width, "height": photo.height}
    if rules is None:
        with services.reading_slots:
            tiles = detector.detect(photo).to_json()
        return payload | {"tiles": tiles, "hand": None, "suggestions": [], "needs": []}
    from vision.read import read_hand

    with services.reading_slots:
        reading = dict(read_hand(photo, detector, rules, seat=seat))
    payload["tiles"] = reading.pop("tiles")
    payload["suggestions"] = reading.pop("suggestions", [])
    payload["needs"] = reading.pop("needs", [])
    return payload | {"hand": reading}


@api.post("/detect")
def detect() -> Any:
    """Multipart field ``image`` (a photo) → tiles, and with ``rules`` (and ``seat``) the hand read from them."""
    upload = request.files.get("image")
    if upload is None:
        raise ApiError(400, "send the photo as the multipart form field 'image'")
    rules, seat = _rules_and_seat()
    try:
        photo = decode_photo(upload.read(MAX_BYTES + 1), upload.filename or "image")
    except ImageError as error:
        raise ApiError(400, str(error)) from None
    return jsonify(read_photo_payload(photo, rules, seat))


@api.post("/score")
def score() -> Any:
    """A table record (JSON body) → the result object of `mjcam score --json`."""
    try:
        record = json.loads(request.get_data())
    except RecursionError:
        raise ApiError(400, "malformed JSON: nested too deeply") from None
    except ValueError as error:
        raise ApiError(400, f"malformed JSON: {error}") from None
    try:
        return jsonify(score_table(record))
    except RecordError as error:
        raise ApiError(400, f"invalid table record: {error}") from None


def _camera() -> Any:
    camera = _services().camera
    if camera is None:
        raise ApiError(404, "no camera: start the server with mjcam serve --camera SOURCE")
    return camera


@api.get("/camera")
def camera_status() -> Any:
    """The mounted webcam's state: source, whether it runs, how long the picture has been still, last capture."""
    return jsonify(_camera().status())


@api.get("/camera/frame.jpg")
def camera_frame() -> Response:
    """The latest frame as a JPEG (the page polls it for the live view)."""
    frame = _camera().frame_jpeg()
    if frame is None:
        raise ApiError(404, "the camera has not delivered a frame yet")
    return Response(frame, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@api.post("/camera/capture")
def camera_capture() -> Any:
    """Capture the current frame now (as the auto-capture does after a still second): ``{"id": n}``."""
    capture_id = _camera().capture_now()
    if capture_id is None:
        raise ApiError(404, "the camera has not delivered a frame yet")
    return jsonify(id=capture_id)


@api.get("/camera/captures/<int:capture_id>.jpg")
def camera_capture_image(capture_id: int) -> Response:
    """A captured still as a JPEG (kept for the most recent captures)."""
    return Response(_capture(capture_id)[0], mimetype="image/jpeg", headers={"Cache-Control": "max-age=3600"})


@api.post("/camera/captures/<int:capture_id>/detect")
def camera_capture_detect(capture_id: int) -> Any:
    """A captured still through detection, exactly like an uploaded photo (``rules`` and ``seat`` likewise)."""
    rules, seat = _rules_and_seat()
    return jsonify(read_photo_payload(_capture(capture_id)[1], rules, seat))


def _capture(capture_id: int) -> tuple[bytes, Photo]:
    capture = _camera().capture(capture_id)
    if capture is None:
        raise ApiError(404, f"no capture {capture_id} (only the most recent captures are kept)")
    return capture
