"""The reader's notes in Chinese: `vision.grouping` and `vision.consistency` say why a hand is not legal as
read (``problems``) and which correction is likely (``suggestions[].text``) in English sentences; this
module turns each into Chinese, for the page in Chinese, from an ordered table of (regular expression,
Chinese template). Tiles are named as on the page (tiles.js `tileName`), regions by their Chinese names.

A sentence that matches no row gets no translation (`in_chinese` answers None) and the page shows the English
one, labelled as such. When a reader template changes, tests/test_webui_reader_text.py fails: it translates
sentences made by the real functions.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from scoring import REGIONS

NUMERALS = "一二三四五六七八九"
SUIT_ZH = {"m": "萬", "p": "筒", "s": "條"}
HONOURS_ZH = "東南西北白發中"
FLOWERS_ZH = "春夏秋冬梅蘭菊竹"
"""As in webui/static/tiles.js (a test checks they agree)."""
BACK_ZH = "背面牌"


def tile_name(code: str) -> str:
    """A tile code's Chinese name as the page writes it: 5p → 五筒, 1z → 東, 1f → 春, back → 背面牌."""
    if code == "back":
        return BACK_ZH
    n, suit = int(code[0]), code[1]
    if suit in SUIT_ZH:
        return NUMERALS[n - 1] + SUIT_ZH[suit]
    return (HONOURS_ZH if suit == "z" else FLOWERS_ZH)[n - 1]


TILE = r"(?:[1-9][mps]|[1-7]z|[1-8]f|back)"
TILES = rf"{TILE}(?: {TILE})*"
REGION = "|".join(re.escape(info.name) for info in REGIONS.values())
REGION_ZH = {info.name: info.name_zh for info in REGIONS.values()}
CHANGE = rf"tile (\d+) \(({TILE})\) is (no tile|{TILE})"


def tiles_in_chinese(text: str) -> str:
    """Tile codes, "9p 9p 8p", as their names in corner brackets: 「九筒、九筒、八筒」."""
    return "「" + "、".join(tile_name(code) for code in text.split()) + "」"


def _changes(text: str) -> str:
    """A suggestion's changes, "tile 4 (6p) is 5p, tile 9 (7p) is no tile", in Chinese."""
    return "，".join(f"{i}号牌{tiles_in_chinese(read)}不是牌，是误识别" if to == "no tile"
                    else f"{i}号牌{tiles_in_chinese(read)}应是{tiles_in_chinese(to)}"
                    for i, read, to in re.findall(CHANGE, text))


BAICHENG_NEEDS = {
    "三门全 (all three suits: 萬, 筒 and 條)": "三门全（萬、筒、條三门都有）",
    "幺九 (a terminal or honour)": "幺九（一、九或字牌）",
    "有刻 (a triplet, kong, whirlwind or dragon pair)": "有刻（刻子、杠、旋风杠或箭牌对子）",
    "reading meeting 三门全, 幺九 and 有刻 at once": "同时满足三门全、幺九、有刻的组合",
}
"""What a complete Baicheng hand may lack (`scoring.baicheng`), in Chinese."""


def lacks_in_chinese(text: str) -> str:
    """What a complete hand lacks, "三门全 (…) and no 幺九 (…)" (`scoring.lacking_conditions`), in Chinese."""
    return "，也没有".join(BAICHENG_NEEDS[need] for need in text.split(" and no "))


CONVERT: dict[str, Callable[[str], str]] = {
    "tiles": tiles_in_chinese,
    "lacks": lacks_in_chinese,
    "region": REGION_ZH.__getitem__,
    "it": {"it": "这张牌", "them": "这些牌"}.__getitem__,
    "count": {"one": "一", "four": "四"}.__getitem__,
    "either": lambda text: "或".join(tiles_in_chinese(code) for code in text.split(" or ")),
    "changes": _changes,
}
"""How a named group of a pattern is put into its Chinese template; groups not named here (numbers) go in as
they are."""


def pattern_row(pattern: str, template: str, fields: dict[str, str]) -> tuple[re.Pattern[str], str]:
    """A row of a translation table: ``pattern`` with each ``{NAME}`` of ``fields`` put in, compiled, and its
    Chinese ``template``."""
    for name, value in fields.items():
        pattern = pattern.replace("{" + name + "}", value)
    return re.compile(pattern), template


def _row(pattern: str, template: str) -> tuple[re.Pattern[str], str]:
    return pattern_row(pattern, template, {"TILES": TILES, "TILE": TILE, "REGION": REGION})


TABLE: tuple[tuple[re.Pattern[str], str], ...] = (
    # vision.grouping.read_layout
    _row(r"tiles? (?P<tiles>{TILES}) fits? no group of the hand", "{tiles}凑不成手牌中的任何一组"),
    # vision.grouping._read_meld
    _row(r"meld (?P<n>\d+): a concealed kong is four tiles, two or four of them face down, read (?P<tiles>{TILES})",
         "第{n}组吃碰杠：暗杠是四张牌，其中两张或四张背面朝上，这里识别为{tiles}"),
    _row(r"meld (?P<n>\d+): (?P<tiles>{TILES}) are (?P<k>\d+) tiles, a meld has three or four",
         "第{n}组吃碰杠：{tiles}共 {k} 张，一组吃碰杠只有三张或四张"),
    _row(r"meld (?P<n>\d+): (?P<k>\d+) tiles lie sideways, a claimed meld turns one",
         "第{n}组吃碰杠：有 {k} 张牌横放，吃、碰、杠别人的牌只横放一张"),
    _row(r"meld (?P<n>\d+): (?P<tiles>{TILES}) is no chow or pung", "第{n}组吃碰杠：{tiles}既不成吃也不成碰"),
    _row(r"meld (?P<n>\d+): (?P<tiles>{TILES}) is no pung", "第{n}组吃碰杠：{tiles}不成碰"),
    _row(r"meld (?P<n>\d+): (?P<tiles>{TILES}) is no kong", "第{n}组吃碰杠：{tiles}不成杠"),
    # vision.consistency.check_hand
    _row(r"(?P<tiles>{TILES}) in the hand: (?P<region>{REGION}) lays (?P<it>it|them) aside",
         "{tiles}在手牌中：{region}麻将要把{it}放到花牌一栏"),
    _row(r"(?P<tiles>{TILES}) in the hand: (?P<region>{REGION}) is played without flowers, take (?:it|them) out",
         "{region}麻将不用花牌：{tiles}应拿掉"),
    _row(r"(?P<region>{REGION}) is played without flowers: (?P<tiles>{TILES})", "{region}麻将不用花牌：{tiles}"),
    _row(r"(?P<tiles>{TILES}) among the flowers: (?P<region>{REGION}) does not lay (?P<it>it|them) aside",
         "{tiles}被放在花牌中，但{region}麻将里{it}不算花，应放回手牌"),
    _row(r"(?P<k>\d+) × (?P<tiles>{TILE}): a mahjong set has only (?P<count>one|four)",
         "{tiles}有 {k} 张：一副牌里这种牌只有{count}张"),
    _row(r"no tile is set apart as the winning tile", "没有单独放开的和牌张"),
    _row(r"wrong hand size", "手牌张数不对"),
    # vision.consistency._size_problem (the second form names the tiles that would complete the hand)
    _row(r"the hand holds (?P<k>\d+) tiles? \(a meld counts three\), where a winning (?P<region>{REGION}) hand "
         r"holds (?P<want>\d+)"
         r": a tile may be missing \((?P<either>{TILE}(?: or {TILE})*) would complete it\)",
         "手牌共 {k} 张（每组吃碰杠按三张算），{region}麻将和牌应有 {want} 张：可能少了一张（补上{either}就能和牌）"),
    _row(r"the hand holds (?P<k>\d+) tiles? \(a meld counts three\), where a winning (?P<region>{REGION}) hand "
         r"holds (?P<want>\d+)"
         r": a tile may be missing \(any of (?P<kinds>\d+) kinds would complete it\)",
         "手牌共 {k} 张（每组吃碰杠按三张算），{region}麻将和牌应有 {want} 张：可能少了一张（补上 {kinds} 种牌中的任何一种都能和牌）"),
    _row(r"the hand holds (?P<k>\d+) tiles? \(a meld counts three\), where a winning (?P<region>{REGION}) hand "
         r"holds (?P<want>\d+)",
         "手牌共 {k} 张（每组吃碰杠按三张算），{region}麻将和牌应有 {want} 张"),
    _row(r"the hand holds (?P<k>\d+) tiles? \(a meld counts three\), where a non-winner's (?P<region>{REGION}) "
         r"hand holds (?P<want>\d+)",
         "手牌共 {k} 张（每组吃碰杠按三张算），{region}麻将未和牌者应有 {want} 张"),
    _row(r"a tile is set apart and the hand holds a winner's tiles: did this player win\? \((?P<k>\d+) tiles, a meld "
         r"counting three\)", "有一张牌单独放开，手牌张数是和牌的张数（{k} 张，每组吃碰杠按三张算）：这一家和牌了吗？"),
    _row(r"these tiles are no winning (?P<region>{REGION}) hand: complete, but no (?P<lacks>.+)",
         "这些牌不成{region}麻将的和牌：牌型已成，但没有{lacks}"),
    _row(r"these tiles are no winning (?P<region>{REGION}) hand", "这些牌不成{region}麻将的和牌"),
    # vision.consistency._missing (a suggestion's text)
    _row(r"a tile is missing: (?P<tiles>{TILE})", "少了一张：补上{tiles}"),
    # vision.consistency._describe (a suggestion's text)
    _row(rf"(?P<changes>{CHANGE}(?:, {CHANGE})*)", "{changes}"),
)
"""The reader's English sentences, each whole, and their Chinese; the first row that matches is used."""


def translate(text: str, table: tuple[tuple[re.Pattern[str], str], ...],
              convert: dict[str, Callable[[str], str]]) -> str | None:
    """``text`` in Chinese by the first row of ``table`` that matches it whole, its named groups put in by
    ``convert`` (the others as they are); None when no row matches."""
    for pattern, template in table:
        match = pattern.fullmatch(text)
        if match:
            try:
                values = {name: value if value is None else convert.get(name, str)(value)
                          for name, value in match.groupdict().items()}
            except KeyError:  # a name the conversion does not know: no translation rather than an error
                return None
            return template.format(**values)
    return None


def in_chinese(text: str) -> str | None:
    """The reader's English ``text`` (a problem, or a suggestion's text) in Chinese; None when no row of TABLE
    matches it."""
    return translate(text, TABLE, CONVERT)


PHOTO_REFUSALS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(r"(?P<name>.+?): " + pattern), "{name}：" + template) for pattern, template in (
        # vision.images.decode_photo: why an uploaded photo cannot be read
        (r"the file is empty", "文件是空的"),
        (r"the file is larger than the (?P<mb>\d+) MB limit: send it as a JPEG.*", "文件超过 {mb} MB 的上限：请改用 JPEG，文件会小得多"),
        (r"the file is larger than the (?P<mb>\d+) MB limit: send a copy with fewer pixels.*",
         "文件超过 {mb} MB 的上限：请缩小照片（降低分辨率）后再发"),
        (r"a HEIC/HEIF photo, which cannot be read here: send it as JPEG .*",
         "这是 HEIC/HEIF 格式的照片，这里读不了：请发 JPEG（iPhone 可在 设置 › 相机 › 格式 中选“兼容性最佳”）"),
        (r"not an image \(JPEG, PNG, WebP, AVIF, BMP or TIFF expected\)", "不是图片（请用 JPEG、PNG、WebP、AVIF、BMP 或 TIFF）"),
        (r"the image data is damaged or in an unsupported format", "图片数据损坏，或是不支持的格式"),
        (r"the file is cut short: part of the picture is missing \(send it whole\)", "文件不完整：缺了一部分画面（请发送完整的文件）"),
        (r"(?P<w>\d+)×(?P<h>\d+) pixels is more than the (?P<mp>\d+)-megapixel limit",
         "{w}×{h} 像素，超过 {mp} 百万像素的上限"),
    ))
"""Why an uploaded photo cannot be read, in Chinese (its file name kept)."""


def photo_refusal_in_chinese(text: str) -> str | None:
    """A photo's refusal (`vision.images.ImageError`) in Chinese; None when no row of PHOTO_REFUSALS matches."""
    return translate(text, PHOTO_REFUSALS, {})


def add_chinese(hand: dict[str, Any] | None, suggestions: list[dict[str, Any]]) -> None:
    """Add the Chinese forms beside the English ones of a reading's JSON: ``hand["problems_zh"]`` (one per
    problem, None where there is no translation) and each suggestion's ``text_zh``."""
    if hand is not None:
        hand["problems_zh"] = [in_chinese(text) for text in hand.get("problems", [])]
    for suggestion in suggestions:
        suggestion["text_zh"] = in_chinese(suggestion.get("text", ""))
