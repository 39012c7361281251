"""Bad input to the web API and `mjcam serve`: one clear line (a 4xx `{"error"}`, or stderr and exit 2), never
a 500 or a traceback, and nothing that keeps a reading slot busy."""
import json

import cv2
import numpy as np
import pytest

from tests.table_video import write_table_video
from tests.test_webui_api import HAND_PHOTO, one_line_error, post_image
from tests.test_webui_cli import run_failing
from webui import create_app
from webui.camera import Camera, CameraError, parse_source

TILE = {"box": [0, 0, 10, 14], "tile": "5p", "confidence": 0.5, "alternatives": [["5s", 0.2]], "sideways": False,
        "angle": 0.0, "score": 0.7}
GOOD = {"rules": "wenling", "indicator": "5p", "width": 100, "height": 100, "tiles": [TILE]}
HUGE = int("9" * 400)
"""A JSON integer too large for a float."""


def short(value) -> str | None:
    """A test id for HUGE (pytest's default otherwise)."""
    return "400 digits" if value == HUGE else None


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()  # no photo is read: the models are never loaded


def group_error(client, body: dict | str) -> str:
    data = body if isinstance(body, str) else json.dumps(body)
    return one_line_error(client.post("/api/group", data=data), 400)


def with_tile(**fields) -> dict:
    return {**GOOD, "tiles": [{**TILE, **fields}]}


def test_group_accepts_the_detectors_own_tiles(client):
    alternatives = [["5s", 0.2], ["back", 0.1], ["6p", 0.0]]
    assert client.post("/api/group", json=with_tile(alternatives=alternatives, angle=360.0)).status_code == 200


def test_group_refuses_more_alternatives_than_the_detector_gives(client):
    """Each alternative is a reading tried again: 1000 of them on each of 300 tiles kept a slot busy 5 minutes."""
    alternatives = [["5s", 0.2], ["5m", 0.1], ["6p", 0.05], ["4p", 0.01]]
    message = group_error(client, with_tile(alternatives=alternatives))
    assert message.startswith("tiles are not detections as /api/detect gives them: tiles[0].alternatives must be "
                              "at most 3 pairs [tile code, probability from 0 to 1], got [")


@pytest.mark.parametrize("alternatives", [[["zz", 0.5]], [["5p", 1.5]], [["5p", -0.1]], [["5p"]], [[5, 0.5]], ["5p"]])
def test_group_refuses_an_alternative_that_is_no_tile_and_probability(client, alternatives):
    assert "tiles[0].alternatives must be at most 3 pairs [tile code, probability from 0 to 1]" in \
        group_error(client, with_tile(alternatives=alternatives))


@pytest.mark.parametrize("field, value, expected", [
    ("confidence", HUGE, "tiles[0].confidence must be a number from 0 to 1, got 9999"),
    ("score", HUGE, "tiles[0].score must be a number from 0 to 1, got 9999"),
    ("angle", HUGE, "tiles[0].angle must be a number from 0 to 360, got 9999"),
    ("alternatives", [["5s", HUGE]], "tiles[0].alternatives must be at most 3 pairs"),
    ("confidence", 1.5, "tiles[0].confidence must be a number from 0 to 1, got 1.5"),
    ("angle", -10, "tiles[0].angle must be a number from 0 to 360, got -10"),
    ("sideways", "false", "tiles[0].sideways must be true or false, got 'false'"),
    ("sideways", 0, "tiles[0].sideways must be true or false, got 0"),
], ids=short)
def test_group_refuses_numbers_out_of_range_and_booleans_of_another_type(client, field, value, expected):
    assert expected in group_error(client, with_tile(**{field: value}))


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_group_refuses_numbers_that_are_not_finite(client, text):
    body = json.dumps(with_tile(confidence=0.5)).replace('"confidence": 0.5', f'"confidence": {text}')
    assert "tiles[0].confidence must be a number from 0 to 1" in group_error(client, body)
    box = json.dumps(with_tile(box=[0, 0, 10, 14])).replace("[0, 0, 10, 14]", f"[0, 0, {text}, 14]")
    assert "tiles[0] needs a box [x1, y1, x2, y2] of numbers" in group_error(client, box)


def test_group_refuses_an_empty_box(client):
    assert "x1 < x2 and y1 < y2" in group_error(client, with_tile(box=[10, 0, 0, 14]))


@pytest.mark.parametrize("size", [{"width": HUGE}, {"height": HUGE}, {"width": 20000, "height": 20000}],
                         ids=["width", "height", "400 megapixels"])
def test_group_refuses_a_photo_size_out_of_range(client, size):
    assert group_error(client, {**GOOD, **size}) == \
        "width and height must be the photo's size in pixels (whole numbers above 0, at most 100 megapixels together)"


def test_detect_refuses_options_nested_too_deeply_as_score_and_group_do(client):
    response = post_image(client, b"not read", rules="daishan", options="[" * 100_000)
    assert one_line_error(response, 400) == "options is not valid JSON: nested too deeply"
    assert group_error(client, "[" * 100_000) == "the body is not valid JSON: nested too deeply"


SETTINGS = [("fuzhou", "5z", None, "the 金 indicator must be a suited tile, got 5z"),
            ("daishan", None, {"di": -1}, "option di must be a whole number from 1 to")]


@pytest.mark.parametrize("rules, indicator, options, expected", SETTINGS)
def test_detect_refuses_a_setting_the_rules_do_not_allow_before_reading_the_photo(client, rules, indicator,
                                                                                     options, expected):
    fields = {"rules": rules, **({"indicator": indicator} if indicator else {}),
              **({"options": json.dumps(options)} if options else {})}
    assert one_line_error(post_image(client, b"not an image", **fields), 400).startswith(expected)


@pytest.mark.parametrize("rules, indicator, options, expected", SETTINGS)
def test_group_refuses_a_setting_the_rules_do_not_allow(client, rules, indicator, options, expected):
    body = {**GOOD, "rules": rules, "indicator": indicator, "options": options}
    assert group_error(client, body).startswith(expected)


def test_a_camera_capture_is_read_only_with_a_setting_the_rules_allow(tmp_path):
    path = tmp_path / "table.avi"
    write_table_video(path, [HAND_PHOTO], fps=10, still_seconds=0.2, sweep_seconds=0.1)
    camera = Camera(str(path))
    try:
        response = create_app(config={"CAMERA": camera}).test_client().post(
            "/api/camera/captures/1/detect", data={"rules": "fuzhou", "indicator": "5z"})
    finally:
        camera.stop()
    assert one_line_error(response, 400) == "the 金 indicator must be a suited tile, got 5z"


# -- mjcam serve and its camera ----------------------------------------------------------------------

def test_an_empty_camera_source_is_refused():
    with pytest.raises(CameraError, match=r"^camera source is empty \(give a device index"):
        parse_source("")
    assert "camera source is empty" in run_failing("--camera", "")


def test_a_still_image_is_no_camera(tmp_path):
    still = tmp_path / "table.png"
    cv2.imwrite(str(still), np.zeros((48, 64, 3), np.uint8))
    with pytest.raises(CameraError, match=r"^camera source .*table\.png: a still PNG image, not a video"):
        Camera(str(still))
    assert "a still JPEG image, not a video" in run_failing("--camera", str(HAND_PHOTO))


def test_a_source_that_gives_no_frame_is_refused_in_one_line(tmp_path):
    """FFmpeg opens a .jpg that is no photo as an image sequence and reads nothing (logging its own lines unless
    silenced)."""
    bogus = tmp_path / "table.jpg"
    bogus.write_text("not a photo")
    with pytest.raises(CameraError, match="OpenCV opens it but reads no frame from it"):
        Camera(str(bogus))
    assert "OpenCV opens it but reads no frame from it" in run_failing("--camera", str(bogus))


def test_a_device_that_cannot_be_opened_is_one_line_without_opencvs_warnings():
    assert run_failing("--camera", "99") == "mjcam serve: camera source 99: OpenCV cannot open it"


def test_a_host_waitress_cannot_use_is_one_line():
    assert run_failing("--host", "bad host!!", "--port", "0") == \
        "mjcam serve: cannot listen on bad host!!:0 (Invalid host/port specified.)"



def test_a_setting_refused_comes_in_chinese_too(client):
    response = post_image(client, b"not an image", rules="fuzhou", indicator="5z")
    assert response.status_code == 400 and response.get_json()["error_zh"] == "金须是数牌，这里是「白」"


def test_a_photo_refused_comes_in_chinese_too(client):
    response = post_image(client, b"a shopping list", rules="daishan")
    assert response.status_code == 400
    assert response.get_json()["error_zh"] == "photo.jpg：不是图片（请用 JPEG、PNG、WebP、AVIF、BMP 或 TIFF）"


def test_a_long_upload_name_is_shortened_in_the_middle_of_its_error(client):
    name = "IMG_" + "x" * 5000 + "_hand.jpg"
    message = one_line_error(post_image(client, b"hello", name=name), 400)
    assert message == f"{name[:29]}…{name[-30:]}: not an image (JPEG, PNG, WebP, AVIF, BMP or TIFF expected)"
    assert one_line_error(post_image(client, b"hello", name="hand.jpg"), 400).startswith("hand.jpg: not an image")
