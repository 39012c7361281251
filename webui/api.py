"""The JSON API under ``/api``: health, regions, detect (photo → tiles and hand), group (tiles → hand, for
other rules), score (record → result), and the mounted webcam (live frame, still captures). Bad input
always gets a 4xx ``{"error": "..."}``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from scoring import REGIONS, RecordError, check_setting, score_table
from scoring.region import HandRefusal
from scoring.record import MAX_RECORD_BYTES, load_json, record_too_large
from scoring.tiles import TILE_INDEX, brief
from vision.detections import CLASS_NAMES, Detections
from vision.detector import DetectorSettings, ModelError
from vision.grouping import HandReading, group_hand
from vision.images import MAX_BYTES, MAX_PIXELS, ImageError, Photo, decode_photo
from vision.read import hand_reading
from webui import too_large
from webui.reader_text import add_chinese, photo_refusal_in_chinese
from webui.scorer_text import refusal_in_chinese

api = Blueprint("api", __name__, url_prefix="/api")


class ApiError(Exception):
    """Bad input: answered with ``status`` and ``{"error": message}``, plus ``"error_zh"`` when the message has
    a Chinese form."""

    def __init__(self, status: int, message: str, chinese: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.chinese = chinese
        self.extra = extra


@api.errorhandler(ApiError)
def _api_error(error: ApiError) -> tuple[Response, int]:
    answer = {"error": str(error)} if error.chinese is None else {"error": str(error), "error_zh": error.chinese}
    return jsonify({**answer, **error.extra}), error.status


@api.errorhandler(ModelError)
def _model_error(error: ModelError) -> tuple[Response, int]:
    """The tile models cannot be loaded: a photo cannot be read until the server is set up (503)."""
    return jsonify(error=str(error)), 503


@api.app_errorhandler(HTTPException)
def _http_error(error: HTTPException) -> Any:
    """JSON errors for every ``/api`` URL (unknown route, wrong method, too large); pages keep Flask's."""
    if not request.path.startswith("/api/"):
        return error
    if isinstance(error, RequestEntityTooLarge):
        message = too_large(request.path)
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
    """Every implemented region's metadata (names, hand size, options, flags, indicator…), by key, with
    ``indicator_tiles``: the tiles its rules take as the indicator (`scoring.check_setting`; none without one)."""
    return jsonify({key: {**info.to_dict(), "indicator_tiles": _indicator_tiles(key)} for key, info in REGIONS.items()})


@cache
def _indicator_tiles(rules: str) -> list[str]:
    def allowed(tile: str) -> bool:
        try:
            check_setting(rules, tile)
        except RecordError:
            return False
        return True

    return [tile for tile in TILE_INDEX if allowed(tile)]


@dataclass(frozen=True)
class ReadRequest:
    """How to read a photo: the ``rules`` (None: tiles only), the photographed ``seat``, the ``indicator``
    and ``options`` of the table (wilds and variants change what a legal hand is), and whether the hand is
    the ``winner``'s (False: a hand that did not win, as Wenling scores every hand)."""

    rules: str | None = None
    seat: int = 0
    indicator: str | None = None
    options: dict[str, Any] | None = None
    winner: bool = True


def _read_request(values: Any) -> ReadRequest:
    """The fields of a read request, from a form, a query or a JSON object: ``rules``, ``seat`` (default 0),
    ``indicator`` (a tile code), ``options`` (a JSON object, or its text) and ``winner`` (true or false,
    default true); each of the wrong type is refused, and an indicator or options the rules do not allow
    with the scorer's line (`scoring.check_setting`), before any photo is read."""
    rules = values.get("rules")
    if rules in (None, ""):
        rules = None
    elif not isinstance(rules, str) or rules not in REGIONS:
        raise ApiError(400, f"unknown rules {brief(rules)} (known: {', '.join(REGIONS)})")
    seat_text = str(values.get("seat", "0"))
    if seat_text not in ("0", "1", "2", "3"):
        raise ApiError(400, f"seat must be 0, 1, 2 or 3, got {brief(values.get('seat'))}")
    indicator = values.get("indicator")
    if indicator in (None, ""):
        indicator = None
    elif not isinstance(indicator, str) or indicator not in TILE_INDEX:
        raise ApiError(400, f"indicator must be one tile code such as 5p, got {brief(indicator)}")
    options = values.get("options")
    if isinstance(options, str):
        options = _loads(options, "options") if options else None
    if options is not None and not isinstance(options, dict):
        raise ApiError(400, f"options must be a JSON object, got {brief(options)}")
    if rules is None and options:
        raise ApiError(400, "options need rules: they are the options of one region's rules")
    winner = values.get("winner", True)
    if not (isinstance(winner, bool) or winner in ("true", "false")):
        raise ApiError(400, f"winner must be true or false, got {brief(winner)}")
    if rules is not None:
        try:
            check_setting(rules, indicator, options)
        except RecordError as error:
            raise ApiError(400, str(error), refusal_in_chinese(str(error), rules)) from None
    return ReadRequest(rules, int(seat_text), indicator, options, winner in (True, "true"))


def read_photo_payload(photo: Photo, how: ReadRequest) -> dict[str, Any]:
    """What `/api/detect` answers for a decoded photo: its size, the tiles as `mjcam detect` gives them and,
    when rules are given, the hand of the seat read from the photo (`vision.read.hand_reading`, `_hand_answer`;
    the tiles are then those of the look the hand was read from)."""
    services = _services()
    with services.reading_slots:
        if how.rules:
            reading, detections = hand_reading(photo, services.detector, how.rules, how.seat,
                                               indicator=how.indicator, options=how.options, winner=how.winner)
            answer = _hand_answer(reading)
        else:
            detections, answer = services.detector.detect(photo), {"hand": None, "suggestions": [], "needs": []}
    return {"width": photo.width, "height": photo.height, "tiles": detections.to_json(), **answer}


def _hand_answer(reading: HandReading) -> dict[str, Any]:
    """A reading of the seat's hand as `/api/detect` and `/api/group` answer it: ``hand``, ``suggestions`` and
    ``needs``; the reader's English problems and suggestion texts come with their Chinese
    (``hand.problems_zh``, ``suggestions[].text_zh``, `webui.reader_text.add_chinese`)."""
    reading = reading.to_json()
    suggestions, needs = reading.pop("suggestions"), reading.pop("needs")
    add_chinese(reading, suggestions)
    return {"hand": reading, "suggestions": suggestions, "needs": needs}


MAX_NAME = 60
"""An upload's file name longer than this is shortened in the middle where a message names it."""


def upload_name(filename: str | None) -> str:
    """The name a message gives an upload: its file name (its two ends, when long), else "image"."""
    name = filename or "image"
    half = MAX_NAME // 2
    return name if len(name) <= MAX_NAME else f"{name[:half - 1]}…{name[-half:]}"


@api.post("/detect")
def detect() -> Any:
    """Multipart field ``image`` (a photo) → tiles, and with ``rules`` (``seat``, ``indicator``, ``options``)
    the hand read from them."""
    upload = request.files.get("image")
    if upload is None:
        raise ApiError(400, "send the photo as the multipart form field 'image'")
    how = _read_request(request.values)
    try:
        data = upload.read(MAX_BYTES + 1)
        photo = decode_photo(data, upload_name(upload.filename))
    except ImageError as error:
        status = 413 if len(data) > MAX_BYTES else 400
        raise ApiError(status, str(error), photo_refusal_in_chinese(str(error))) from None
    return jsonify(read_photo_payload(photo, how))


MAX_GROUP_TILES = DetectorSettings.max_tiles
"""The most tiles the detector finds in a photo: a longer list is refused before grouping (whose time grows
about with the cube of the number of tiles)."""
MAX_ALTERNATIVES = 3
"""The detector gives each tile its next 3 likeliest classes; the reader tries each of them in turn, so a tile
with more is refused."""


@api.post("/group")
def group() -> Any:
    """Tiles already detected (``tiles`` as `/api/detect` gives them, with the photo's ``width`` and ``height``)
    read into a hand again, with the fields of `/api/detect` (JSON body): the hand for other rules, or with
    the player's corrections, without sending the photo again. Answers ``hand``, ``suggestions``, ``needs``
    (with ``hand.problems_zh`` and ``suggestions[].text_zh`` as `/api/detect`)."""
    body = _json_body()
    if not isinstance(body, dict):
        raise ApiError(400, "the body must be a JSON object with rules and tiles")
    how = _read_request(body)
    if how.rules is None:
        raise ApiError(400, "rules are needed to read the tiles into a hand")
    detections = _detections(body.get("tiles"))
    size = body.get("width"), body.get("height")
    if not (all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)
            and size[0] * size[1] <= MAX_PIXELS):
        raise ApiError(400, "width and height must be the photo's size in pixels "
                            f"(whole numbers above 0, at most {MAX_PIXELS // 10**6} megapixels together)")
    with _services().reading_slots:
        return jsonify(_hand_answer(group_hand(detections, how.rules, seat=how.seat, indicator=how.indicator,
                                               options=how.options, frame=size, winner=how.winner)))


def _detections(tiles: Any) -> Detections:
    """``tiles`` as /api/detect answers them, each field checked: no more than the detector gives
    (MAX_GROUP_TILES tiles, MAX_ALTERNATIVES alternatives each), known tile codes, numbers in their range."""
    if not isinstance(tiles, list) or len(tiles) > MAX_GROUP_TILES:
        raise ApiError(400, f"tiles must be a list of at most {MAX_GROUP_TILES} detections as /api/detect gives them")
    for i, tile in enumerate(tiles):
        box = tile.get("box") if isinstance(tile, dict) else None
        if not (isinstance(box, list) and len(box) == 4 and all(_in_range(v, -1e9, 1e9) for v in box)
                and box[0] < box[2] and box[1] < box[3]):
            raise ApiError(400, f"tiles[{i}] needs a box [x1, y1, x2, y2] of numbers, x1 < x2 and y1 < y2")
        if tile.get("tile") not in CLASS_NAMES:
            raise ApiError(400, f"tiles[{i}] needs a tile: a tile code such as 5p, or back")
        for name, high in (("confidence", 1), ("score", 1), ("angle", 360)):
            if name in tile and not _in_range(tile[name], 0, high):
                raise _not_detection(i, name, f"a number from 0 to {high}", tile[name])
        if not isinstance(tile.get("sideways", False), bool):
            raise _not_detection(i, "sideways", "true or false", tile["sideways"])
        alternatives = tile.get("alternatives", [])
        if not (isinstance(alternatives, list) and len(alternatives) <= MAX_ALTERNATIVES and all(
                isinstance(pair, list) and len(pair) == 2 and pair[0] in CLASS_NAMES and _in_range(pair[1], 0, 1)
                for pair in alternatives)):
            raise _not_detection(i, "alternatives",
                                 f"at most {MAX_ALTERNATIVES} pairs [tile code, probability from 0 to 1]", alternatives)
    return Detections.from_json(tiles)


def _not_detection(i: int, name: str, expected: str, value: Any) -> ApiError:
    return ApiError(400, f"tiles are not detections as /api/detect gives them: tiles[{i}].{name} must be {expected}, "
                         f"got {brief(value)}")


def _in_range(value: Any, low: float, high: float) -> bool:
    """A JSON number (not a boolean) from ``low`` to ``high``: never NaN, an infinity or an integer too large for
    a float."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high


def _loads(text: str | bytes, source: str) -> Any:
    """``text`` parsed as JSON as `mjcam score` parses a record (UTF-8); anything else refused in one line."""
    try:
        return load_json(text, source)
    except RecordError as error:
        raise ApiError(400, str(error)) from None


def _json_body(max_bytes: int | None = None) -> Any:
    """The request's JSON body; a body over ``max_bytes`` is refused (413) before it is parsed."""
    body = request.get_data()
    if max_bytes is not None and len(body) > max_bytes:
        raise ApiError(413, record_too_large("the body"))
    return _loads(body, "the body")


@api.post("/score")
def score() -> Any:
    """A table record (JSON body) → the result object of `mjcam score --json`; a refusal the page's player can
    meet comes in Chinese too (``error_zh``, `webui.scorer_text`); a winner's hand one tile from a win names
    those changes as ``changes`` too ([{"seat", "tile", "to"}], ``tile`` null for a tile to add to a hand one
    short: the page offers each as one tap); a body over 1 MB is refused as `mjcam score` refuses it (413)."""
    record = _json_body(MAX_RECORD_BYTES)
    try:
        return jsonify(score_table(record))
    except RecordError as error:
        rules = record.get("rules") if isinstance(record, dict) else None
        changes = error.changes() if isinstance(error, HandRefusal) else []
        raise ApiError(400, f"invalid table record: {error}", refusal_in_chinese(str(error), rules),
                       **({"changes": changes} if changes else {})) from None


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
    """A captured still as a JPEG (kept for the most recent captures); kept in the browser's cache only when asked
    for with the server run's token (``?run=``: capture ids start from 1 again in each run)."""
    cache = "max-age=3600" if "run" in request.args else "no-store"
    return Response(_capture(capture_id)[0], mimetype="image/jpeg", headers={"Cache-Control": cache})


@api.post("/camera/captures/<int:capture_id>/detect")
def camera_capture_detect(capture_id: int) -> Any:
    """A captured still through detection, exactly like an uploaded photo (the same fields)."""
    how = _read_request(request.values)
    return jsonify(read_photo_payload(_capture(capture_id)[1], how))


def _capture(capture_id: int) -> tuple[bytes, Photo]:
    """Capture ``capture_id`` of this server run; one asked for with another run's token (``?run=``, a page left
    open over a restart) is refused rather than another picture of the same number given."""
    camera = _camera()
    run = request.args.get("run")
    if run is not None and run != camera.run:
        raise ApiError(404, f"capture {capture_id} was taken before the server restarted: it is no longer kept")
    capture = camera.capture(capture_id)
    if capture is None:
        raise ApiError(404, f"no capture {capture_id} (only the most recent captures are kept)")
    return capture
