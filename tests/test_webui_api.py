"""The JSON API and the page through Flask's test client: every endpoint, every kind of bad input."""
import io
import json
import re
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import REGIONS, score_table
from datasets.synth import generate_scene
from scoring.record import MAX_RECORD_BYTES
from tests.records import winner_record
from tests.table_video import VALID_IMAGES, write_table_video
from tests.test_grouping import PUNG, laid, row
from vision.detector import DetectorSettings, TileDetector
from vision.images import MAX_BYTES, decode_photo
from webui import create_app
from webui.camera import Camera

EXAMPLES = Path(__file__).resolve().parents[1].parent / "shared" / "rules" / "examples"
HAND_PHOTO = next(VALID_IMAGES.glob("hand_004_*.jpg"))
STATIC = Path(__file__).resolve().parents[1] / "webui" / "static"


@pytest.fixture(scope="module")
def detector():
    return TileDetector()


@pytest.fixture(scope="module")
def client(detector):
    return create_app(detector).test_client()


def one_line_error(response, status):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    message = response.get_json()["error"]
    assert message and "\n" not in message and "Traceback" not in message
    return message


def post_image(client, data: bytes, name="photo.jpg", **fields):
    return client.post("/api/detect", data={"image": (io.BytesIO(data), name), **fields},
                       content_type="multipart/form-data")


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width``×``height`` (a decompression bomb as far as the header goes)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))


# -- health and regions ------------------------------------------------------------------------------

def test_health_names_the_model(client):
    body = client.get("/api/health").get_json()
    assert body["ok"] is True
    assert body["model"]["detector"] == "tile_detector.onnx"
    assert body["model"]["classifier"] == "tile_classifier.onnx"
    assert body["rules"] == list(REGIONS)
    assert body["camera"] is False


def test_health_without_models_is_503(tmp_path):
    app = create_app(config={"DETECTOR_MODEL": tmp_path / "none.onnx", "CLASSIFIER_MODEL": tmp_path / "none.onnx"})
    response = app.test_client().get("/api/health")
    assert response.status_code == 503
    assert response.get_json()["ok"] is False
    assert "cannot be loaded" in one_line_error(response, 503)
    photo = post_image(app.test_client(), HAND_PHOTO.read_bytes(), rules="daishan")  # not a 500
    assert "cannot be loaded" in one_line_error(photo, 503)


def test_regions_are_the_scorers(client):
    body = client.get("/api/regions").get_json()
    assert list(body) == list(REGIONS)
    for key, info in body.items():
        assert {k: v for k, v in info.items() if k != "indicator_tiles"} == REGIONS[key].to_dict()
    # the tiles each region's rules take as the indicator: any in Wenling, a suited one in Fuzhou, no flower in
    # Baicheng, none in Daishan (which has no indicator)
    assert {key: len(info["indicator_tiles"]) for key, info in body.items()} == {
        "wenling": 42, "fuzhou": 27, "daishan": 0, "baicheng": 34}
    # what a score cannot go without, for a hand entered without a photo as for one read from a photo
    assert {key: info["asks"] for key, info in body.items()} == {
        "wenling": ["dealer", "indicator"], "daishan": [], "fuzhou": ["dealer", "indicator"], "baicheng": ["dealer"]}
    # what the page checks its events by, as the scorer checks them (scoring.record.FLAG_WIN_BY, indicator_flags)
    assert body["daishan"]["flag_win_by"] == {"kong_replacement": "self_draw", "last_tile": "self_draw",
                                              "heaven": "self_draw", "earth": "discard"}
    assert {key: info["indicator_flags"] for key, info in body.items()} == {
        "wenling": [], "fuzhou": ["rob_gold", "three_golds", "gold_kan"], "daishan": [], "baicheng": ["bao_draw"]}
    assert [key for key, info in body.items() if info["reads_streak"]] == ["fuzhou"]
    assert [key for key, info in body.items() if info["reads_payers_melds"]] == ["baicheng"]
    assert [key for key, info in body.items() if not info["has_flowers"]] == ["baicheng"]


# -- detect ------------------------------------------------------------------------------------------

def test_detect_without_rules_gives_the_tiles_of_mjcam_detect(client, detector):
    data = HAND_PHOTO.read_bytes()
    body = post_image(client, data).get_json()
    expected = detector.detect(decode_photo(data)).to_json()
    assert (body["width"], body["height"]) == (640, 640)
    assert body["tiles"] == expected
    assert len(body["tiles"]) >= 10
    assert body["hand"] is None and body["suggestions"] == [] and body["needs"] == []


@pytest.mark.parametrize("rules", list(REGIONS))
def test_detect_with_rules_reads_the_hand(client, rules):
    response = post_image(client, HAND_PHOTO.read_bytes(), rules=rules, seat="2")
    assert response.status_code == 200
    body = response.get_json()
    hand = body["hand"]
    assert {"concealed", "melds", "flowers", "win_tile", "groups"} <= set(hand)
    indices = sorted(i for group in hand["groups"] for i in group["tiles"])
    assert indices and all(0 <= i < len(body["tiles"]) for i in indices)
    assert isinstance(body["suggestions"], list) and isinstance(body["needs"], list)
    assert all({"key", "question"} <= set(need) for need in body["needs"])
    assert len(hand["problems_zh"]) == len(hand["problems"])  # the reader's notes in Chinese too
    assert all("text" in s and "text_zh" in s for s in body["suggestions"])


def test_detect_reads_rules_and_seat_from_the_query_too(client):
    response = client.post("/api/detect?rules=daishan&seat=1", data={"image": (io.BytesIO(HAND_PHOTO.read_bytes()), "h.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 200 and response.get_json()["hand"] is not None


def test_detect_missing_field(client):
    assert "'image'" in one_line_error(client.post("/api/detect", data={"photo": (io.BytesIO(b"x"), "a.jpg")},
                                                   content_type="multipart/form-data"), 400)
    assert "'image'" in one_line_error(client.post("/api/detect", data=b"raw", content_type="image/jpeg"), 400)


def test_detect_not_an_image(client):
    assert "not an image" in one_line_error(post_image(client, b"hello, these are words", "notes.txt"), 400)


def test_detect_empty_file(client):
    assert "empty" in one_line_error(post_image(client, b""), 400)


def test_detect_damaged_jpeg(client):
    data = cv2.imencode(".jpg", np.zeros((200, 300, 3), np.uint8))[1].tobytes()
    assert "damaged" in one_line_error(post_image(client, data[:40]), 400)


def test_detect_pixel_bomb_refused_before_decoding(client):
    assert "megapixel" in one_line_error(post_image(client, png_header(20000, 20000), "bomb.png"), 400)


@pytest.mark.parametrize("extra", [1, 100_000], ids=["within the form's allowance", "past it"])
def test_detect_too_large(client, extra):
    big = b"\xff\xd8\xff" + bytes(MAX_BYTES + extra)
    assert "20 MB" in one_line_error(post_image(client, big), 413)


def test_detect_unknown_rules_and_bad_seat(client):
    data = HAND_PHOTO.read_bytes()
    assert "unknown rules 'riichi'" in one_line_error(post_image(client, data, rules="riichi"), 400)
    assert "seat must be" in one_line_error(post_image(client, data, rules="daishan", seat="4"), 400)
    assert "seat must be" in one_line_error(post_image(client, data, rules="daishan", seat="east"), 400)


def test_detect_indicator_and_options(client):
    data = HAND_PHOTO.read_bytes()
    without = post_image(client, data, rules="wenling").get_json()
    given = post_image(client, data, rules="wenling", indicator="5p", options='{"white_always_de": true}').get_json()
    assert "indicator" in [need["key"] for need in without["needs"]]
    assert "indicator" not in [need["key"] for need in given["needs"]]
    assert "indicator must be one tile" in one_line_error(post_image(client, data, rules="wenling", indicator="5x"), 400)
    assert "options is not valid JSON" in one_line_error(post_image(client, data, rules="daishan", options="{di"), 400)
    assert "options must be a JSON object" in one_line_error(post_image(client, data, rules="daishan", options="[2]"), 400)
    assert "unknown option 'nope' for daishan" in one_line_error(post_image(client, data, rules="daishan", options='{"nope": 1}'), 400)
    assert "option di must be" in one_line_error(post_image(client, data, rules="daishan", options='{"di": "x"}'), 400)


def test_detect_options_need_rules_and_an_indicator_rules_that_have_one(client):
    data = HAND_PHOTO.read_bytes()
    assert "options need rules" in one_line_error(post_image(client, data, options='{"di": 2}'), 400)
    assert "daishan rules have no indicator" in one_line_error(post_image(client, data, rules="daishan", indicator="5p"), 400)


# -- group -------------------------------------------------------------------------------------------

def lost_hand_photo() -> bytes:
    """A Wenling hand that did not win (a synthetic scene, its winning tile painted out) with a tile boxed twice
    where the reader's choice of box turned on a tenth of a pixel: boxes sent back rounded read otherwise."""
    scene = generate_scene(9000217, "wenling", size=(1280, 960), seat=1)
    winning = [i for g in scene.groups if g["kind"] == "winning" for i in g["tiles"]]
    mask = cv2.dilate(np.isin(scene.mask, winning).astype(np.uint8) * 255, np.ones((9, 9), np.uint8), iterations=2)
    return cv2.imencode(".jpg", cv2.inpaint(scene.image, mask, 9, cv2.INPAINT_TELEA), [cv2.IMWRITE_JPEG_QUALITY, 92])[1]


@pytest.mark.parametrize("photo, rules, winner", [
    ("hand", "daishan", True), ("hand", "fuzhou", True), ("lost", "wenling", False),
])
def test_group_reads_the_tiles_of_a_photo_again_as_detect_does(client, photo, rules, winner):
    data = HAND_PHOTO.read_bytes() if photo == "hand" else lost_hand_photo().tobytes()
    detect = post_image(client, data, rules=rules, seat="1", winner=str(winner).lower()).get_json()
    again = client.post("/api/group", json={"rules": rules, "seat": 1, "width": detect["width"],
                                            "height": detect["height"], "tiles": detect["tiles"], "winner": winner})
    assert again.status_code == 200
    assert again.get_json() == {"hand": detect["hand"], "suggestions": detect["suggestions"], "needs": detect["needs"]}


def test_group_gives_the_readers_problems_and_suggestions_in_chinese_too(client):
    doubtful = {4: (0.55, (("5p", 0.4),))}
    tiles = laid((0, row("1m 2m 3m 4p 6p 6p 7s 8s 9s 5z", "5z")), PUNG, reads=doubtful).to_json()
    body = client.post("/api/group", json={"rules": "daishan", "width": 3000, "height": 3000, "tiles": tiles}).get_json()
    assert body["hand"]["problems"] == ["these tiles are no winning Daishan hand"]  # the English stays
    assert body["hand"]["problems_zh"] == ["这些牌不成岱山麻将的和牌"]
    assert [(s["text"], s["text_zh"]) for s in body["suggestions"]] == [("tile 4 (6p) is 5p", "4号牌「六筒」应是「五筒」")]


def test_a_hand_that_did_not_win_is_read_at_the_hand_size_with_no_win_asked(client):
    rest = laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s", "7z")), PUNG).to_json()  # a tile apart, 16 in all
    body = {"rules": "wenling", "width": 3000, "height": 3000, "tiles": rest}
    winner = client.post("/api/group", json=body).get_json()
    assert winner["hand"]["win_tile"] == "7z" and winner["hand"]["problems"]  # as a winner's: a tile short
    other = client.post("/api/group", json={**body, "winner": False}).get_json()
    assert (other["hand"]["concealed"], other["hand"]["win_tile"], other["hand"]["problems"]) == ("123m456p123789s7z", None, [])
    assert not {"win.by", "win.from", "win.tile"} & {need["key"] for need in other["needs"]}
    form = post_image(client, HAND_PHOTO.read_bytes(), rules="wenling", seat="1", winner="false").get_json()
    assert form["hand"]["win_tile"] is None


def test_group_under_other_rules_regroups(client):
    photo = next(VALID_IMAGES.glob("hand_006_*.jpg"))
    fuzhou = post_image(client, photo.read_bytes(), rules="fuzhou").get_json()
    assert "z" in fuzhou["hand"]["flowers"]  # Fuzhou lays winds and dragons aside like flowers
    daishan = client.post("/api/group", json={"rules": "daishan", "width": fuzhou["width"], "height": fuzhou["height"],
                                              "tiles": fuzhou["tiles"]}).get_json()
    assert "z" not in daishan["hand"]["flowers"] and "z" in daishan["hand"]["concealed"]


def test_group_bad_input(client):
    tile = {"box": [0, 0, 10, 14], "tile": "5p"}
    good = {"rules": "daishan", "width": 100, "height": 100, "tiles": [tile]}
    cases = {
        "the body is not valid JSON": b"{",
        "must be a JSON object": [1],
        "rules are needed": {**good, "rules": None},
        "unknown rules": {**good, "rules": "riichi"},
        "seat must be": {**good, "seat": 7},
        "no indicator": {**good, "indicator": "5p"},
        "unknown option": {**good, "options": {"nope": 1}},
        "tiles must be a list": {**good, "tiles": "5p"},
        "tiles[0] needs a box": {**good, "tiles": [{"tile": "5p"}]},
        "tiles[1] needs a box": {**good, "tiles": [tile, {**tile, "box": [0, 0, "x", 1]}]},
        "tiles[0] needs a tile": {**good, "tiles": [{**tile, "tile": "9z"}]},
        "not detections": {**good, "tiles": [{**tile, "alternatives": 5}]},
        "width and height": {**good, "width": 0},
    }
    for expected, body in cases.items():
        data = body if isinstance(body, bytes) else json.dumps(body)
        assert expected in one_line_error(client.post("/api/group", data=data), 400), expected
    too_many = {**good, "tiles": [tile] * (DetectorSettings.max_tiles + 1)}  # grouping time grows with their cube
    assert f"at most {DetectorSettings.max_tiles}" in one_line_error(client.post("/api/group", json=too_many), 400)


def test_group_refuses_fields_of_the_wrong_type_in_one_line(client):
    good = {"rules": "fuzhou", "width": 100, "height": 100, "tiles": [{"box": [0, 0, 10, 14], "tile": "5p"}]}
    cases = {
        "unknown rules ['daishan']": {"rules": ["daishan"]},
        "unknown rules {'key': 'daishan'}": {"rules": {"key": "daishan"}},
        "unknown rules 0": {"rules": 0},
        "indicator must be one tile code such as 5p, got ['5p']": {"indicator": ["5p"]},
        "indicator must be one tile code such as 5p, got {'tile': '5p'}": {"indicator": {"tile": "5p"}},
        "indicator must be one tile code such as 5p, got false": {"indicator": False},
        "seat must be 0, 1, 2 or 3, got [0]": {"seat": [0]},
        "seat must be 0, 1, 2 or 3, got true": {"seat": True},
        "options must be a JSON object, got []": {"options": []},
        "options must be a JSON object, got 5": {"options": 5},
        "winner must be true or false, got 'no'": {"winner": "no"},
        "winner must be true or false, got 0": {"winner": 0},
    }
    for expected, fields in cases.items():
        assert one_line_error(client.post("/api/group", json={**good, **fields}), 400).startswith(expected), expected


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(["rules", "seat", "indicator", "options", "width", "height"]), value=st.deferred(lambda: JSON_VALUES))
def test_group_never_answers_a_field_of_any_json_type_with_a_500(client, field, value):
    body = {"rules": "fuzhou", "width": 100, "height": 100, "tiles": [{"box": [0, 0, 10, 14], "tile": "5p"}], field: value}
    response = client.post("/api/group", json=body)
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        one_line_error(response, 400)


def test_wrong_method_and_unknown_endpoint_are_json(client):
    assert "GET is not allowed" in one_line_error(client.get("/api/detect"), 405)
    assert "no API endpoint" in one_line_error(client.get("/api/nothing"), 404)


# -- score -------------------------------------------------------------------------------------------

EXAMPLE_FILES = [p for p in sorted(EXAMPLES.glob("*.json")) if json.loads(p.read_text())["rules"] in REGIONS]


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_score_gives_mjcam_score_json(client, path):
    record = json.loads(path.read_text(encoding="utf-8"))
    response = client.post("/api/score", json=record)
    assert response.status_code == 200
    body = response.get_json()
    assert body == json.loads(json.dumps(score_table(record)))
    assert body["net"] == record["expected_net"]


def test_score_accepts_a_body_without_content_type(client):
    record = json.loads(EXAMPLE_FILES[0].read_text(encoding="utf-8"))
    response = client.post("/api/score", data=json.dumps(record), content_type="text/plain")
    assert response.get_json()["net"] == record["expected_net"]


def test_score_refuses_a_body_larger_than_mjcam_score_reads(client):
    record = json.loads(EXAMPLE_FILES[0].read_text(encoding="utf-8"))
    for size in (MAX_RECORD_BYTES, MAX_BYTES + 2**20):  # over 1 MB; over the server's own (photo) limit too
        padded = json.dumps({**record, "note": " " * size})  # an extra field: valid, but too large
        message = one_line_error(client.post("/api/score", data=padded), 413)
        assert message == "the body is larger than a table record can be (1 MB at most)"


@pytest.mark.parametrize("body, expected", [
    ("{", "the body is not valid JSON"), ("", "the body is empty: no JSON in it"),
    ("{'rules': 'daishan'}", "the body is not valid JSON"), ("\xff\xfe", "the body is not UTF-8 text"),
    ("[" * 100_000, "the body is not valid JSON: nested too deeply"),
    ('{"rules": "daishan"}'.encode("utf-16").decode("latin-1"), "the body is not UTF-8 text"),  # as `mjcam score`
    ('{"rules": "daishan", "rules": "fuzhou"}', 'the body gives the key "rules" twice in one object'),
])
def test_score_malformed_json(client, body, expected):
    assert one_line_error(client.post("/api/score", data=body.encode("latin-1")), 400).startswith(expected)


def test_score_invalid_tables(client):
    record = json.loads(EXAMPLE_FILES[0].read_text(encoding="utf-8"))
    bad_tile = json.loads(json.dumps(record))
    bad_tile["players"][record["win"]["player"]]["concealed"] += "0z"
    five = json.loads(json.dumps(record))
    five["players"][(record["win"]["player"] + 1) % 4]["melds"] = [{"type": "kong", "tiles": "5555m"}, {"type": "pung", "tiles": "555m"}]
    cases = {
        "the record must be a JSON object": [1, 2],
        "missing field rules": {"players": []},
        "unknown rules 'mahjong'": {**record, "rules": "mahjong"},
        "missing field players": {k: v for k, v in record.items() if k != "players"},
        "unknown tile": bad_tile,
        "copies of 5m": five,
    }
    for expected, table in cases.items():
        message = one_line_error(client.post("/api/score", json=table), 400)
        assert message.startswith("invalid table record: ") and expected in message


def test_score_refusals_come_in_chinese_too(client):
    record = json.loads(EXAMPLE_FILES[0].read_text(encoding="utf-8"))
    five = json.loads(json.dumps(record))
    five["players"][(record["win"]["player"] + 1) % 4]["melds"] = [{"type": "kong", "tiles": "5555m"}, {"type": "pung", "tiles": "555m"}]
    answer = client.post("/api/score", json=five).get_json()
    assert "copies of 5m" in answer["error"] and answer["error_zh"].startswith("桌上有 ")
    unknown = client.post("/api/score", json={**record, "rules": "mahjong"}).get_json()
    assert "error_zh" not in unknown  # no Chinese for it: the page shows the English, labelled


def test_a_hand_one_tile_from_a_win_is_refused_with_the_changes_as_data(client):
    # Daishan, seat 2 holds 123m 456m 789m 123p 1z 5p + 5p: a 1z misread for a 5p's pair mate, or for 4p / 6p
    record = winner_record("daishan", "123m456m789m123p1z5p", "5p", "discard", seat=2, source=0)
    answer = client.post("/api/score", json=record).get_json()
    assert "it would be one with 1z changed to" in answer["error"]
    assert answer["changes"][0] == {"seat": 2, "tile": "1z", "to": "5p"}
    assert all(change["seat"] == 2 for change in answer["changes"])
    assert "changes" not in client.post("/api/score", json={**record, "rules": "mahjong"}).get_json()


def test_a_tile_the_rules_lay_aside_held_in_a_hand_is_refused_with_the_move_that_mends_it(client):
    fuzhou = winner_record("fuzhou", "123m456m789m123p456p1z5p", "5p", "self_draw", seat=1, indicator="9s")
    answer = client.post("/api/score", json=fuzhou).get_json()
    assert answer["changes"] == [{"seat": 1, "tile": "1z", "to": "flowers"}]  # East is a flower in Fuzhou
    baicheng = winner_record("baicheng", "678s123m8p2f", "8s", melds_text="p555p c234m")
    answer = client.post("/api/score", json=baicheng).get_json()
    assert "take it out" in answer["error"] and "changes" not in answer  # no flowers to lay it aside with


def test_a_winners_hand_a_tile_short_is_refused_with_the_tiles_that_complete_it(client):
    short = winner_record("daishan", "123m456m789m12p55z", "5z", "self_draw", seat=1)  # 12p waits on 3p
    answer = client.post("/api/score", json=short).get_json()
    assert "holds 13 tiles" in answer["error"] and answer["changes"] == [{"seat": 1, "tile": None, "to": "3p"}]
    other = winner_record("daishan", "123m456m789m123p55z", "5z", "self_draw", seat=1)
    other["players"][2] = {"concealed": "123m", "melds": [], "flowers": ""}  # a non-winner's hand of 3: no tile offered
    assert "changes" not in client.post("/api/score", json=other).get_json()


@pytest.mark.parametrize("rules, hand, name", [
    ("daishan", "123m456m789m123p55p", "天胡"), ("fuzhou", "123m456m789m123p456p55p", "天和")])
def test_a_chinese_refusal_names_an_event_as_the_records_rules_do(client, rules, hand, name):
    record = winner_record(rules, hand, "5p", "discard", flags=("heaven",))
    assert client.post("/api/score", json=record).get_json()["error_zh"] == f"“{name}”只能自摸"


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
                           | st.sampled_from(["123m", "5z", "1f", "self_draw", "kong", "rob_kong"]),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                           max_leaves=6)


def _paths(value, prefix=()):
    yield prefix
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from _paths(child, prefix + (key,))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_score_never_answers_bad_records_with_a_500(client, data):
    record = json.loads(data.draw(st.sampled_from(EXAMPLE_FILES)).read_text(encoding="utf-8"))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(_paths(record))[1:]))
        parent = record
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict) and data.draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(JSON_VALUES)
    response = client.post("/api/score", json=record)
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        one_line_error(response, 400)
    else:
        assert sum(response.get_json()["net"]) == 0


# -- the page ----------------------------------------------------------------------------------------

def test_page_has_capture_and_sections(client):
    html = client.get("/").get_data(as_text=True)
    assert 'type="file" accept="image/*" capture="environment"' in html
    for section in ("capture", "hand", "context", "score"):
        assert f'id="{section}"' in html
    assert 'data-camera="off"' in html
    assert f'data-max-bytes="{MAX_BYTES}"' in html  # the page refuses a photo over the limit before sending it


def test_static_files_are_served_and_nothing_comes_from_the_internet(client):
    html = client.get("/").get_data(as_text=True)
    assert not re.search(r"(src|href)=\"(https?:)?//", html)
    for name in ("app.js", "tiles.js", "i18n.js", "style.css"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200
        text = response.get_data(as_text=True)
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), name
        response.close()


def test_every_page_string_exists_in_both_languages():
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    en, zh = text.split("\n  zh: {")[0], text.split("\n  zh: {")[1].split("\n  },")[0]
    keys = lambda block: set(re.findall(r"^    (\w+):", block, re.M))  # noqa: E731
    assert keys(en) == keys(zh) and len(keys(en)) > 80
    used = set(re.findall(r"\bt\(\"(\w+)\"", (STATIC / "app.js").read_text(encoding="utf-8")))
    used |= set(re.findall(r'data-i18n="(\w+)"', (Path(STATIC).parent / "templates" / "index.html").read_text(encoding="utf-8")))
    assert used <= keys(en), used - keys(en)


# -- the mounted webcam ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def camera_client(detector, tmp_path_factory):
    path = tmp_path_factory.mktemp("camera") / "table.avi"
    write_table_video(path, [HAND_PHOTO], fps=10, still_seconds=1.5, sweep_seconds=0.3)
    camera = Camera(str(path))
    frames = cv2.VideoCapture(str(path))
    now = 0.0
    while True:  # play the file through the stillness logic at its own pace, without a thread
        ok, frame = frames.read()
        if not ok:
            break
        camera.process(frame, now)
        now += 0.1
    app = create_app(detector, {"CAMERA": camera})
    return app.test_client()


def test_camera_endpoints_without_camera(client):
    for method, url in (("get", "/api/camera"), ("get", "/api/camera/frame.jpg"), ("post", "/api/camera/capture"),
                        ("get", "/api/camera/captures/1.jpg"), ("post", "/api/camera/captures/1/detect")):
        assert "--camera" in one_line_error(getattr(client, method)(url), 404)


def test_camera_status_frame_and_capture(camera_client):
    status = camera_client.get("/api/camera").get_json()
    assert status["capture"] == 1 and status["frames"] == 18 and status["size"] == [640, 480]
    frame = camera_client.get("/api/camera/frame.jpg")
    assert frame.mimetype == "image/jpeg" and frame.data[:3] == b"\xff\xd8\xff"
    image = camera_client.get("/api/camera/captures/1.jpg")
    assert cv2.imdecode(np.frombuffer(image.data, np.uint8), cv2.IMREAD_COLOR).shape == (480, 640, 3)
    assert camera_client.post("/api/camera/capture").get_json() == {"id": 2}
    assert 'data-camera="on"' in camera_client.get("/").get_data(as_text=True)
    assert camera_client.get("/api/health").get_json()["camera"] is True


def test_camera_capture_goes_through_detection_like_an_upload(camera_client):
    body = camera_client.post("/api/camera/captures/1/detect", data={"rules": "daishan", "seat": "0"}).get_json()
    upload = post_image(camera_client, camera_client.get("/api/camera/captures/1.jpg").data, rules="daishan").get_json()
    assert body["tiles"] == upload["tiles"] and len(body["tiles"]) >= 10
    assert body["hand"] == upload["hand"] and "problems_zh" in body["hand"]


def test_a_capture_is_cached_only_under_its_server_runs_token(camera_client):
    run = camera_client.get("/api/camera").get_json()["run"]
    assert camera_client.get("/api/camera/captures/1.jpg").headers["Cache-Control"] == "no-store"
    assert camera_client.get(f"/api/camera/captures/1.jpg?run={run}").headers["Cache-Control"] == "max-age=3600"
    earlier = "0" * 8 if run != "0" * 8 else "1" * 8  # a page left open while the server restarted
    for method, url in (("get", f"/api/camera/captures/1.jpg?run={earlier}"),
                        ("post", f"/api/camera/captures/1/detect?run={earlier}")):
        message = one_line_error(getattr(camera_client, method)(url), 404)
        assert message == "capture 1 was taken before the server restarted: it is no longer kept"
    assert camera_client.post(f"/api/camera/captures/1/detect?run={run}", data={"rules": "daishan"}).status_code == 200


def test_camera_unknown_capture(camera_client):
    assert "no capture 99" in one_line_error(camera_client.get("/api/camera/captures/99.jpg"), 404)
    assert "unknown rules" in one_line_error(camera_client.post("/api/camera/captures/1/detect?rules=x"), 400)
