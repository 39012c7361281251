"""The reader's problems and suggestions in Chinese (webui/reader_text.py), on sentences made by the real
reader: `vision.grouping.group_hand` on hand-made detection lists (tests/test_grouping.py's helpers),
`_read_meld` and `vision.consistency.check_hand` where no layout leads there. A sentence of the reader that
is changed or added without its Chinese makes these tests fail.
"""
import ast
import inspect
import re
import textwrap
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.test_grouping import DAISHAN, PUNG, laid, row
from vision import consistency, grouping
from vision.consistency import check_hand
from vision.grouping import HandReading, group_hand
from webui.reader_text import TABLE, add_chinese, in_chinese, tile_name

STATIC = Path(__file__).resolve().parents[1] / "webui" / "static"
SHORT = (0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s", "5z"))
"""A Daishan concealed row a tile short: a meld that reads as no meld is not left out to make it legal."""


def _read(detections, region: str, **how) -> list[str]:
    hand = group_hand(detections, region, **how)
    return [*hand.problems, *(s.text for s in hand.suggestions)]


def _reading(concealed: str = "123m456p789s11z55z", flowers: str = "", region: str = "daishan") -> HandReading:
    return HandReading(region=region, concealed=concealed, melds=(), flowers=flowers, win_tile="5z", groups=())


# (what the reader says, one Chinese line it must give)
CASES = {
    "tiles fit no group": (lambda: _read(laid(SHORT, (1, row("9p* 9p 9p", "3s 7m"))), "daishan"),
                           "「三條、七萬」凑不成手牌中的任何一组"),
    "a tile fits no group": (lambda: _read(laid(SHORT, (1, row("9p* 9p 9p", "3s"))), "daishan"), "「三條」凑不成手牌中的任何一组"),
    "concealed kong of three backs": (lambda: _read(laid(DAISHAN, (1, row("# # # 9p"))), "daishan"),
                                      "第1组吃碰杠：暗杠是四张牌，其中两张或四张背面朝上，这里识别为「背面牌、背面牌、背面牌、九筒」"),
    "meld of five": (lambda: _read(laid(SHORT, (1, row("5m* ^5m* 5m 5m 5m"))), "daishan"),
                     "第1组吃碰杠：「五萬、五萬、五萬、五萬、五萬」共 5 张，一组吃碰杠只有三张或四张"),
    "two tiles sideways": (lambda: [grouping._read_meld((0, 1, 2), (), ("5m", "5m", "5m"), np.array([True, True, False]),
                                                        0, 1)[1]],
                           "第2组吃碰杠：有 2 张牌横放，吃、碰、杠别人的牌只横放一张"),
    "no chow or pung": (lambda: _read(laid(SHORT, (1, row("1m* 5p 9s"))), "daishan"),
                        "第1组吃碰杠：「一萬、五筒、九條」既不成吃也不成碰"),
    "no pung": (lambda: _read(laid(DAISHAN, (1, row("9p* 9p 8p"))), "daishan"), "第1组吃碰杠：「九筒、九筒、八筒」不成碰"),
    "no kong": (lambda: _read(laid(SHORT, (1, row("5m* 5m 5m 6m"))), "daishan"), "第1组吃碰杠：「五萬、五萬、五萬、六萬」不成杠"),
    "laid aside, one": (lambda: _read(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 2m 2m 2m", "1s")), PUNG), "fuzhou"),
                        "「東」在手牌中：福州麻将要把这张牌放到花牌一栏"),
    "laid aside, several": (lambda: _read(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 2z 2m 2m", "1s")), PUNG), "fuzhou"),
                            "「東、南」在手牌中：福州麻将要把这些牌放到花牌一栏"),
    "no flowers": (lambda: _read(laid(DAISHAN, PUNG, (-1, row("1f"))), "baicheng"), "白城麻将不用花牌：「春」"),
    "a flower in a Baicheng hand": (lambda: check_hand(_reading("123m456p789s11z5z2f", region="baicheng")),
                                    "白城麻将不用花牌：「夏」应拿掉"),
    "stray flower, one": (lambda: check_hand(_reading(flowers="5z")), "「白」被放在花牌中，但岱山麻将里这张牌不算花，应放回手牌"),
    "stray flower in Wenling": (lambda: check_hand(_reading(flowers="15z", region="wenling")),
                               "「東」被放在花牌中，但温岭麻将里这张牌不算花，应放回手牌"),
    "stray flowers, them": (lambda: check_hand(_reading(flowers="12z")), "「東、南」被放在花牌中，但岱山麻将里这些牌不算花，应放回手牌"),
    "five of a kind": (lambda: _read(laid(DAISHAN, (1, row("5z* 5z 5z"))), "daishan"), "「白」有 5 张：一副牌里这种牌只有四张"),
    "a flower twice": (lambda: check_hand(_reading(flowers="11f")), "「春」有 2 张：一副牌里这种牌只有一张"),
    "no winning tile": (lambda: _read(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z")), PUNG), "daishan"),
                        "没有单独放开的和牌张"),
    "wrong hand size": (lambda: check_hand(_reading("123m55z"), first=True), "手牌张数不对"),
    "hand size": (lambda: _read(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z 7p", "5z")), PUNG,
                                     reads={10: (0.3, (("6p", 0.02),))}), "daishan"),
                  "手牌共 15 张（每组吃碰杠按三张算），岱山麻将和牌应有 14 张"),
    "a non-winner's hand size": (lambda: check_hand(replace(_reading("123m456p789s11z"), winner=False)),
                                 "手牌共 11 张（每组吃碰杠按三张算），岱山麻将未和牌者应有 13 张"),
    "a tile missing": (lambda: _read(laid((0, row("1m 2m 3m 4p 5p 6p 5z 5z 4m", "5m")), PUNG), "daishan"),
                       "手牌共 13 张（每组吃碰杠按三张算），岱山麻将和牌应有 14 张：可能少了一张（补上「三萬」或「六萬」就能和牌）"),
    "a tile missing, any of many": (
        lambda: _read(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s", "4s")), (1, row("# 1z 1z #"))), "wenling"),
        "手牌共 16 张（每组吃碰杠按三张算），温岭麻将和牌应有 17 张：可能少了一张（补上 32 种牌中的任何一种都能和牌）"),
    "a non-winner's photo of a winning hand": (
        lambda: _read(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s 7z", "7z")), PUNG), "wenling", winner=False),
        "有一张牌单独放开，手牌张数是和牌的张数（17 张，每组吃碰杠按三张算）：这一家和牌了吗？"),
    "a tile to add": (lambda: _read(laid((0, row("1m 2m 3m 4p 5p 6p 5z 5z 4m", "5m")), PUNG), "daishan"),
                      "少了一张：补上「三萬」"),
    "no winning hand, a tile to change": (
        lambda: _read(laid((0, row("1m 2m 3m 4p 6p 6p 7s 8s 9s 5z", "5z")), PUNG, reads={4: (0.55, (("5p", 0.4),))}),
                      "daishan"),
        "4号牌「六筒」应是「五筒」"),
    "no winning hand": (lambda: _read(laid((0, row("1m 2m 3m 4p 6p 6p 7s 8s 9s 5z", "5z")), PUNG), "daishan"),
                        "这些牌不成岱山麻将的和牌"),
    "a complete hand lacking a condition": (  # Baicheng: no bamboo (三门全)
        lambda: _read(laid((0, row("1m 2m 3m 4m 5m 6m 7p 8p 9p 1p 1p 1p 5m", "5m"))), "baicheng"),
        "这些牌不成白城麻将的和牌：牌型已成，但没有三门全（萬、筒、條三门都有）"),
    "a false tile": (lambda: _read(laid((0, row("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z 7p", "5z")), PUNG,
                                        reads={10: (0.3, (("6p", 0.02),))}), "daishan"),
                     "10号牌「七筒」不是牌，是误识别"),
    "two tiles to change": (
        lambda: _read(laid((0, row("1m 2m 3m 4p 6p 6p 7s 8s 8s 5z", "5z")), PUNG,
                           reads={4: (0.5, (("5p", 0.45),)), 8: (0.5, (("9s", 0.45),))}), "daishan"),
        "8号牌「八條」应是「九條」，4号牌「六筒」应是「五筒」"),
}


@pytest.fixture(scope="module")
def said() -> dict[str, list[str]]:
    """Each case's sentences, as the reader says them."""
    return {name: make() for name, (make, _) in CASES.items()}


def _row(text: str) -> int | None:
    return next((k for k, (pattern, _) in enumerate(TABLE) if pattern.fullmatch(text)), None)


@pytest.mark.parametrize("name", list(CASES))
def test_every_sentence_of_the_reader_is_in_chinese(said, name):
    texts = said[name]
    assert texts, f"{name}: the reader said nothing"
    chinese = {}
    for text in texts:
        zh = in_chinese(text)
        assert zh is not None, f"no Chinese for the reader's {text!r}: add a row to webui/reader_text.py TABLE"
        assert not re.search(r"[A-Za-z]", zh), f"English left in {zh!r} (from {text!r})"
        chinese[text] = zh
    assert CASES[name][1] in chinese.values(), f"{name}: {chinese}"


def test_every_row_of_the_table_is_used_by_the_reader(said):
    used = {_row(text) for texts in said.values() for text in texts}
    assert used == set(range(len(TABLE))), f"rows no reader sentence matched: {set(range(len(TABLE))) - used}"


def _sentences(function) -> list[str]:
    """The English sentences a function writes (string and f-string literals of two or more words; the docstring
    and the parts of f-strings left out), with their fields as {}."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function))).body[0]
    parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
    doc = tree.body[0].value if isinstance(tree.body[0], ast.Expr) else None
    out = []
    for node in ast.walk(tree):
        if node is doc or id(node) in parts:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if len(re.findall(r"[A-Za-z]{2,}", text)) >= 2:
            out.append(text)
    return out


@pytest.mark.parametrize("function, count", [
    (grouping.read_layout, 2), (grouping._read_meld, 5), (consistency.check_hand, 8),
    (consistency._size_problem, 5), (consistency._describe, 2), (consistency._missing, 1)])
def test_no_sentence_of_the_reader_is_left_out_of_these_cases(function, count):
    """A sentence added to (or dropped from) the functions that write problems and suggestions: give it its
    Chinese in webui/reader_text.py and a case in CASES that makes the reader say it, then count it here."""
    found = _sentences(function)
    assert len(found) == count, f"{function.__module__}.{function.__name__} writes {found}"


def test_the_readers_sentence_constants_are_in_chinese():
    # check_hand's sentence kept as a constant (the command line matches it) is counted here, not above
    assert in_chinese(consistency.NO_WINNING_TILE) == "没有单独放开的和牌张"
    assert in_chinese(f"{consistency.WON_ELSEWHERE} (17 tiles, a meld counting three)") == \
        "有一张牌单独放开，手牌张数是和牌的张数（17 张，每组吃碰杠按三张算）：这一家和牌了吗？"


def test_a_sentence_not_in_the_table_has_no_translation_and_the_english_stays():
    assert in_chinese("the photo is blurred") is None
    hand = {"problems": ["no tile is set apart as the winning tile", "the photo is blurred"]}
    suggestions = [{"text": "tile 3 (5z) is 6z"}]
    add_chinese(hand, suggestions)
    assert hand == {"problems": ["no tile is set apart as the winning tile", "the photo is blurred"],
                    "problems_zh": ["没有单独放开的和牌张", None]}
    assert suggestions == [{"text": "tile 3 (5z) is 6z", "text_zh": "3号牌「白」应是「發」"}]
    add_chinese(None, [])  # a reading of tiles only: nothing to add


def test_tile_names_are_the_pages():
    text = (STATIC / "tiles.js").read_text(encoding="utf-8")
    table = dict(re.findall(r'const (NUMERALS|HONOURS_ZH|FLOWERS_ZH) = "(\w+)";', text))
    suits = dict(re.findall(r'(\w): "(\w)"', re.search(r"const SUIT_ZH = \{([^}]*)\}", text).group(1)))
    for n in range(1, 10):
        for suit in "mps":
            assert tile_name(f"{n}{suit}") == table["NUMERALS"][n - 1] + suits[suit]
    assert [tile_name(f"{n}z") for n in range(1, 8)] == list(table["HONOURS_ZH"])
    assert [tile_name(f"{n}f") for n in range(1, 9)] == list(table["FLOWERS_ZH"])



def refused_photo(data: bytes) -> str:
    from vision.images import ImageError, decode_photo

    with pytest.raises(ImageError) as caught:
        decode_photo(data, "手牌 1.jpg")
    return str(caught.value)


def png_claiming(width: int, height: int) -> bytes:
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


PHOTOS = {  # (bytes the page may upload, the Chinese line the player must get)
    "empty": (b"", "手牌 1.jpg：文件是空的"),
    "too large": (b"\x89PNG\r\n\x1a\n" + b"\x00" * (20 * 2**20 + 1), "手牌 1.jpg：文件超过 20 MB 的上限：请改用 JPEG，文件会小得多"),
    "too large a JPEG": (b"\xff\xd8\xff" + b"\x00" * (20 * 2**20 + 1), "手牌 1.jpg：文件超过 20 MB 的上限：请缩小照片（降低分辨率）后再发"),
    "HEIC": (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64,
             "手牌 1.jpg：这是 HEIC/HEIF 格式的照片，这里读不了：请发 JPEG（iPhone 可在 设置 › 相机 › 格式 中选“兼容性最佳”）"),
    "not an image": (b"a shopping list", "手牌 1.jpg：不是图片（请用 JPEG、PNG、WebP、AVIF、BMP 或 TIFF）"),
    "damaged": (b"\xff\xd8\xff" + b"\x00" * 100, "手牌 1.jpg：图片数据损坏，或是不支持的格式"),
    "cut short": (cv2.imencode(".jpg", np.random.default_rng(0).integers(0, 255, (300, 400, 3), np.uint8))[1][:-9000]
                  .tobytes(),
                  "手牌 1.jpg：文件不完整：缺了一部分画面（请发送完整的文件）"),
    "too many pixels": (png_claiming(30000, 30000), "手牌 1.jpg：30000×30000 像素，超过 100 百万像素的上限"),
}


@pytest.mark.parametrize("name", list(PHOTOS))
def test_a_photo_refused_is_said_in_chinese(name):
    from webui.reader_text import photo_refusal_in_chinese

    data, chinese = PHOTOS[name]
    assert photo_refusal_in_chinese(refused_photo(data)) == chinese


def test_every_row_of_the_photo_table_is_used():
    from webui.reader_text import PHOTO_REFUSALS

    lines = [refused_photo(data) for data, _ in PHOTOS.values()]
    assert all(any(pattern.fullmatch(line) for line in lines) for pattern, _ in PHOTO_REFUSALS)
