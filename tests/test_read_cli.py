"""`mjcam read`: the table record built from a reading and the facts given as flags, and the command's
one-line errors (status 2 for bad input or missing facts)."""
from __future__ import annotations

import json
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.real import REAL_DATA
from scoring import score_table
from scoring.tiles import parse_tiles
from tests.test_grouping import laid, row
from vision.grouping import group_hand
from vision.detector import CLASSIFIER_MODEL, DETECTOR_MODEL, TileDetector, load_detector
from vision.images import read_photo
from vision.read import read_hand
from vision.read_cli import ReadError, assumptions, table_record

MJCAM = Path(sys.executable).parent / "mjcam"
HAND = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z", "5z"))
MODELS_PRESENT = DETECTOR_MODEL.exists() and CLASSIFIER_MODEL.exists()


def valid_photo(name: str) -> Path:
    """The real `valid` photo whose file name starts with ``name``."""
    return next((REAL_DATA / "valid" / "images").glob(f"{name}_*.jpg"))


def facts(**given) -> Namespace:
    defaults = dict(seat=0, self_draw=False, source=None, rob_kong=False, dealer=None, streak=None, flag=[], kong=[],
                    concealed_kong=[], win_tile=None, indicator=None)
    return Namespace(**(defaults | given))


def test_record_from_reading_and_flags() -> None:
    reading = group_hand(laid(HAND, (1, row("9p* 9p 9p"))), "daishan", seat=1)
    record = table_record(reading, facts(seat=1, source=3), None, {"di": 3})
    assert record == {
        "rules": "daishan", "options": {"di": 3}, "dealer": 0, "dealer_streak": 0, "indicator": None,
        "players": [{"concealed": "", "melds": [], "flowers": ""},
                    {"concealed": "123m456p789s55z", "melds": [{"type": "pung", "tiles": "999p", "from": 0}],
                     "flowers": ""},
                    {"concealed": "", "melds": [], "flowers": ""}, {"concealed": "", "melds": [], "flowers": ""}],
        "win": {"player": 1, "tile": "5z", "by": "discard", "from": 3, "flags": []},
        "context": {},
    }
    assert score_table(record)["net"] == [0, 3, 0, -3]  # Daishan (0 底 + 1) × di 3, no 花, the discarder pays


def test_face_down_kong_needs_its_tile() -> None:
    reading = group_hand(laid(HAND, (1, row("# # # #"))), "daishan")
    with pytest.raises(ReadError, match=r"cannot score without: --kong TILE \(meld 1 is face down\)"):
        table_record(reading, facts(self_draw=True), None, {})
    record = table_record(reading, facts(self_draw=True, kong=["7s"]), None, {})
    assert record["players"][0]["melds"] == [{"type": "kong", "tiles": "7777s", "concealed": True}]
    with pytest.raises(ReadError, match=r"^--kong names 2 face-down kong\(s\), but the photo shows 1$"):
        table_record(reading, facts(self_draw=True, kong=["7s", "8s"]), None, {})
    two = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 5z", "5z")), (1, row("# # # #", "# # # #"))), "daishan")
    with pytest.raises(ReadError, match=r"--kong TILE \(meld 1 is face down\), --kong TILE \(meld 2 is face down\)$"):
        table_record(two, facts(self_draw=True), None, {})


@pytest.mark.parametrize("region, given, missing", [
    ("daishan", {}, "--self-draw or --from SEAT"),
    ("wenling", {"self_draw": True}, r"--indicator TILE \(or none\), --dealer N"),
    ("baicheng", {"source": 2}, "--dealer N"),
])
def test_missing_facts_are_listed(region: str, given: dict, missing: str) -> None:
    reading = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s", "1s")), (1, row("9p* 9p 9p"))), region)
    with pytest.raises(ReadError, match=f"cannot score without: {missing}$"):
        table_record(reading, facts(**given), None, {})


def test_no_indicator_turned_up_is_said_with_none() -> None:
    reading = group_hand(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s", "1s")), (1, row("9p* 9p 9p"))), "wenling")
    record = table_record(reading, facts(self_draw=True, dealer=0, indicator="none"), None, {})
    assert record["indicator"] is None and record["win"]["by"] == "self_draw"


def test_contradicting_facts_are_refused() -> None:
    reading = group_hand(laid(HAND, (1, row("9p* 9p 9p"))), "daishan")
    with pytest.raises(ReadError, match="either --self-draw or --from SEAT, not both"):
        table_record(reading, facts(self_draw=True, source=2), None, {})
    with pytest.raises(ReadError, match="--from 0 is the winner's own seat"):
        table_record(reading, facts(source=0), None, {})


def test_a_flag_that_turns_on_the_dealer_asks_for_the_dealer() -> None:
    reading = group_hand(laid(HAND, (1, row("9p* 9p 9p"))), "daishan")
    with pytest.raises(ReadError, match="cannot score without: --dealer N$"):
        table_record(reading, facts(self_draw=True, flag=["heaven"]), None, {})


def test_a_face_up_kong_with_no_sideways_tile_is_scored_exposed_unless_said_concealed() -> None:
    reading = group_hand(laid(HAND, (1, row("9p* 9p 9p", "7s 7s 7s 7s"))), "daishan")
    assert [n.key for n in reading.needs if "melds" in n.key] == ["melds.1.concealed"]
    exposed = table_record(reading, facts(self_draw=True), None, {})
    assert exposed["players"][0]["melds"][1] == {"type": "kong", "tiles": "7777s"}
    assert assumptions(reading, exposed) == [
        "meld 2 (7777s) is scored as an exposed kong: give --concealed-kong 2 if it is concealed"]
    concealed = table_record(reading, facts(self_draw=True, concealed_kong=[2]), None, {})
    assert concealed["players"][0]["melds"][1] == {"type": "kong", "tiles": "7777s", "concealed": True}
    assert assumptions(reading, concealed) == []
    claimed = group_hand(laid(HAND, (1, row("9p* 9p 9p", "2m* 2m 2m 2m"))), "daishan")
    for read, n, what in ((reading, 1, "meld 1 is a pung"), (reading, 3, "the photo shows no such meld"),
                          (claimed, 2, "meld 2 shows a claimed tile turned sideways")):
        with pytest.raises(ReadError, match=f"^--concealed-kong {n}: {what}$"):
            table_record(read, facts(self_draw=True, concealed_kong=[n]), None, {})


def test_the_winning_tile_given_overrides_the_tile_set_apart() -> None:
    reading = group_hand(laid(HAND, (1, row("9p* 9p 9p"))), "daishan")
    assert reading.win_tile == "5z"
    assert table_record(reading, facts(self_draw=True, win_tile="1m"), None, {})["win"]["tile"] == "1m"
    with pytest.raises(ReadError, match="--win-tile: bad tile string '5q'"):
        table_record(reading, facts(self_draw=True, win_tile="5q"), None, {})


def mjcam(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(MJCAM), "read", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, message", [
    (["no-such.jpg", "--rules", "daishan"], "mjcam read: no-such.jpg: no such file\n"),
    (["x.jpg", "--rules", "daishan", "--indicator", "5q"], "mjcam read: --indicator: bad tile string '5q'"),
    (["x.jpg", "--rules", "daishan", "--option", "di"], "mjcam read: --option takes KEY=VALUE, e.g. di=2, not 'di'\n"),
    (["x.jpg", "--rules", "fuzhou", "--indicator", "5z"],  # the settings are checked before the photo is read
     "mjcam read: the 金 indicator must be a suited tile, got 5z\n"),
    (["x.jpg", "--rules", "daishan", "--option", "di=0"],
     "mjcam read: option di must be a whole number from 1 to 1000000, got 0\n"),
    (["x.jpg", "--rules", "mars"], "mjcam read: argument --rules: invalid choice: 'mars'"),
    (["x.jpg", "--rules", "daishan", "--option", "di=" + "[" * 5000],
     "mjcam read: --option di: the value is nested too deeply\n"),
    (["x.jpg", "--rules", "fuzhou", "--indicator", ""], "mjcam read: --indicator takes one tile, e.g. 5p, not ''\n"),
    (["x.jpg", "--rules", "wenling", "--flag", "heaven"],  # a Daishan and Fuzhou flag: typed, it must count
     "mjcam read: --flag heaven: not a win flag of wenling rules (theirs: kong_replacement, after_special_kong)\n"),
    (["x.jpg", "--rules", "daishan", "--self-draw", "--dealer", "1"],  # facts only scoring uses, given without it
     "mjcam read: --self-draw, --dealer count only with --score: add --score to score the hand, or leave them out\n"),
    (["x.jpg", "--rules", "fuzhou", "--streak", "0"],
     "mjcam read: --streak counts only with --score: add --score to score the hand, or leave it out\n"),
    (["x.jpg", "--rules", "wenling", "--score", "--non-winner"],
     "mjcam read: --score scores the photographed hand as the winner's: leave out --non-winner\n"),
])
def test_bad_input_is_one_line_with_status_2(args: list[str], message: str) -> None:
    done = mjcam(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1


def test_a_blurred_real_photo_is_read_whole(tmp_path: Path) -> None:
    # blurred, the boxes overlap unevenly and a gap was read in the middle of the concealed row
    photo = tmp_path / "blurred.jpg"
    sharp = valid_photo("hand_004")
    cv2.imwrite(str(photo), cv2.GaussianBlur(cv2.imread(str(sharp)), (0, 0), 4))
    done = mjcam(str(photo), "--rules", "daishan", "--json")
    out = json.loads(done.stdout)
    assert (out["concealed"], out["win_tile"], out["problems"]) == ("234456678p55666z", "6p", [])


@pytest.fixture(scope="module")
def detector() -> TileDetector:
    """The bundled models, loaded once, as README's Python API loads them."""
    return load_detector()


def test_the_python_api_reads_a_photo_as_mjcam_read_does(detector: TileDetector) -> None:
    # README's `read_hand(read_photo(path), load_detector(), "daishan")`: the command's JSON less the file's facts
    photo = valid_photo("hand_004")
    read = read_hand(read_photo(photo), detector, "daishan")
    assert (read["concealed"], read["win_tile"], read["problems"]) == ("234456678p55666z", "6p", [])
    told = json.loads(mjcam(str(photo), "--rules", "daishan", "--json").stdout)
    assert read == {key: value for key, value in told.items() if key not in ("file", "width", "height", "rules")}


def test_suggestions_come_likeliest_first_once_alike_ones_are_summed(detector: TileDetector) -> None:
    # hand_005 read for a seat that did not win: 14 tiles, one too many; dropping any one of three alike tiles makes
    # the same hand, and that suggestion's summed probability must not leave it behind less likely ones
    read = read_hand(read_photo(valid_photo("hand_005")), detector, "daishan", seat=1, winner=False)
    chances = [suggestion["probability"] for suggestion in read["suggestions"]]
    assert len(chances) == 3 and chances == sorted(chances, reverse=True)


def test_a_stretched_real_photo_whose_row_is_read_as_a_scrap_is_read_whole() -> None:
    # a close-up stretched to 640×640 (tiles 11 times taller than wide); the table's edge, boxed as a back, joins
    # the row, which then reads as no group either way up, and a quarter turn reads two tiles of two rows
    photo = valid_photo("393533204")
    out = json.loads(mjcam(str(photo), "--rules", "daishan", "--json").stdout)
    assert len(parse_tiles(out["concealed"])) == 17 and out["melds"] == []  # 16 labelled, a 2m left unlabelled


def test_flowers_laid_in_the_row_of_a_real_photo_are_laid_aside_and_scored() -> None:
    # hand_003 shows 222z, two flowers, then 123456789p 77z in one row, no tile set apart
    photo = valid_photo("hand_003")
    out = json.loads(mjcam(str(photo), "--rules", "daishan", "--json").stdout)
    assert (out["concealed"], out["flowers"], out["win_tile"], out["problems"]) == ("123456789p22277z", "16f", "9p", [])
    done = mjcam(str(photo), "--rules", "daishan", "--score", "--self-draw")
    assert done.returncode == 0 and "花  (flowers: 16f)" in done.stdout
    assert "  doubtful, check: 1f (0.47)\n" in done.stdout  # the page marks it too (app.js DOUBTFUL)
    assert "need" not in done.stdout  # the facts were given: the score follows the hand, no questions


def test_a_real_hand_in_a_row_is_read_its_own_way_up_and_its_right_end_guessed_the_winning_tile() -> None:
    """384331852 shows 23789m 57p 23569s 16z upright, 8m at the right end; ten of its faces look alike upside
    down but for their small index numbers. Before the quarter-turn head was refitted on real faces
    (`datasets.up_head`) 10 of its 14 faces read as pointing down, the hand was read upside down and its left
    end, 2m, guessed as the winning tile."""
    out = json.loads(mjcam(str(valid_photo("384331852")), "--rules", "daishan", "--json").stdout)
    assert (out["concealed"], out["win_tile"], out["win_guessed"]) == ("23789m57p23569s16z", "8m", True)
    left_to_right = [out["tiles"][i]["box"][0] for g in out["groups"] for i in g["tiles"]]
    assert left_to_right == sorted(left_to_right)


def test_a_winning_tile_given_answers_the_problem_of_none_set_apart() -> None:
    photo = valid_photo("hand_003")
    asked = ("--rules", "wenling", "--score", "--self-draw", "--indicator", "1m", "--dealer", "0")
    assert "no tile is set apart as the winning tile" in mjcam(str(photo), "--rules", "wenling").stdout
    done = mjcam(str(photo), *asked, "--win-tile", "9p")
    assert done.returncode == 1 and done.stderr == (
        "mjcam read: the hand as read is no legal win: 1f 6f in the hand: Wenling lays them aside; the hand holds 16 "
        "tiles (a meld counts three), where a winning Wenling hand holds 17\n")


def test_a_hand_read_as_no_legal_win_says_so_before_asking_for_facts() -> None:
    """No fact given would make the hand as read a win: that is said first, not the facts it lacks."""
    done = mjcam(str(valid_photo("hand_003")), "--rules", "wenling", "--score")
    assert done.returncode == 1 and done.stderr.startswith("mjcam read: the hand as read is no legal win: 1f 6f in the "
                                                           "hand: Wenling lays them aside")
    done = mjcam(str(valid_photo("hand_003")), "--rules", "wenling", "--score", "--win-tile", "xx")
    assert done.returncode == 2 and "--win-tile" in done.stderr  # a flag that is wrong is said first


def test_suggestions_name_the_tile_as_read_and_the_hand_they_make(tmp_path: Path) -> None:
    from datasets.synth import generate_scene

    photo = tmp_path / "hand.png"  # development scene 9001126: the winning tile, a 4s set apart, read as 6s
    cv2.imwrite(str(photo), generate_scene(9_001_126, "daishan").image)
    fix = "6s is 4s: concealed 44m234778899s111z, winning tile 4s"
    assert f"  suggestion (100%): {fix}\n" in mjcam(str(photo), "--rules", "daishan").stdout
    done = mjcam(str(photo), "--rules", "daishan", "--score", "--self-draw")
    assert done.returncode == 1 and done.stderr == ("mjcam read: the hand as read is no legal win: these tiles are no "
                                                    f"winning Daishan hand (likeliest fix, 100%: {fix})\n")


def test_a_photo_with_no_tile_says_so(tmp_path: Path) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 90, np.uint8))
    done = mjcam(str(photo), "--rules", "daishan")
    assert done.returncode == 2
    assert done.stderr.startswith(f"mjcam read: no tile was found in {photo}") and done.stderr.count("\n") == 1


@pytest.mark.skipif(not MODELS_PRESENT, reason="no bundled model in models/")
def test_photo_read_as_json_and_scoring_asks_for_the_facts(tmp_path: Path) -> None:
    from datasets.synth import generate_scene

    photo = tmp_path / "hand.jpg"
    cv2.imwrite(str(photo), generate_scene(9_000_000, "daishan").image)
    done = mjcam(str(photo), "--rules", "daishan", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert {"concealed", "melds", "flowers", "win_tile", "groups", "problems", "suggestions", "needs", "tiles"} <= set(out)
    assert out["needs"][0]["key"] == "win.by" and out["width"] > 0
    done = mjcam(str(photo), "--rules", "daishan", "--score")
    assert done.returncode == 2
    assert done.stderr == "mjcam read: cannot score without: --self-draw or --from SEAT\n"
    done = mjcam(str(photo), "--rules", "daishan", "--json", "--non-winner")  # read as a hand that did not win
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["win_tile"] is None and "win.by" not in done.stdout
