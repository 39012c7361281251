"""The scorer's refusals in Chinese: `scoring.score_table` says in one English line why it cannot score a
record (`scoring.RecordError`); this module turns the lines a player of the page can meet (a hand that is no
win, a wrong number of tiles, too many of a tile, a winning tile not in the hand, a flag the facts rule out,
a tile in the wrong place) into Chinese, the same way `webui.reader_text` turns the reader's notes. Seats are
named as on the page ("2号位"), tiles by their Chinese names, rules by the region's Chinese name.

A line that matches no row gets no translation (`refusal_in_chinese` answers None) and the page shows the
English one, labelled as such. tests/test_webui_scorer_text.py makes each line with the real scorer.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from scoring import REGIONS
from webui.reader_text import TILE, lacks_in_chinese, pattern_row, tiles_in_chinese, translate

FLAGS_ZH = {
    "kong_replacement": "杠上开花", "last_tile": "海底捞月", "heaven": "天和", "earth": "地胡", "rob_gold": "抢金",
    "three_golds": "三金倒", "gold_kan": "金坎", "bao_draw": "摸宝", "after_special_kong": "补白板/特殊牌后摸牌和",
}
"""The win flags' Chinese names, as the page's (webui/static/i18n.js FLAG_NAMES; a test checks they agree); a
region may call one otherwise (`RegionInfo.flag_names`, `flag_name`)."""


def flag_name(flag: str, rules: str | None = None) -> str:
    """The Chinese name of win flag ``flag`` under ``rules``: the region's own where it has one (Daishan's 天胡),
    as the page's box names it, without the explanation in brackets."""
    info = REGIONS.get(rules) if isinstance(rules, str) else None  # a record's rules: anything JSON
    own = {name: zh for name, _, zh in info.flag_names} if info else {}
    return own.get(flag, FLAGS_ZH[flag]).split("（")[0]


CONVERT: dict[str, Callable[[str], str]] = {
    "tiles": tiles_in_chinese,
    "rules": lambda key: REGIONS[key].name_zh,
    "want": lambda text: text.replace(" or ", "或"),
    "role": {"the winner": "和牌者", "a non-winner": "未和牌者"}.__getitem__,
    "lazi": lambda text: LAZI_ZH if text else "",
    "by": {"discard": "点炮和", "rob_kong": "抢杠和", "self_draw": "自摸和"}.__getitem__,
    "won": {"on a discard": "点炮和", "by robbing a kong": "抢杠和"}.__getitem__,
    "flag": FLAGS_ZH.__getitem__,
    "lacks": lacks_in_chinese,
    "near": lambda text: "，或".join(f"把{tiles_in_chinese(old)}换成{tiles_in_chinese(new)}"
                                    for old, new in re.findall(rf"({TILE}) (?:changed )?to ({TILE})", text)),
    "run": lambda text: tiles_in_chinese(" ".join(re.findall(TILE, text))) if text else "「」",
    "meld": lambda text: str(int(text) + 1),
    "shape": {"chow": "吃（同一花色三张相连的牌）", "pung": "碰（三张相同的牌）", "kong": "杠（四张相同的牌）",
              "whirlwind": "旋风杠（東南西北）"}.__getitem__,
    "what": {"a 金, which is never melded": "金不能用来吃碰杠", "an honour, which is a flower": "字牌在福州算花",
             "a 得": "得不能用来吃碰杠", "a special tile": "特殊牌不能用来吃碰杠"}.__getitem__,
}
"""How a named group of a pattern is put into its Chinese template; groups not named here (numbers, seats) go
in as they are."""

SEAT = r"players\[(?P<seat>[0-3])\]"
RULES = "(?P<rules>" + "|".join(REGIONS) + ")"
FLAG = r"flag (?P<flag>\w+)(?: \(\w+\))?"


LAZI = (r"(?P<lazi>(?:; a 腊子 wins without a complete hand only when self-drawn \(「可立即和牌」\): won on a discard, "
        r"the hand must be complete)?)")
"""Why a Wenling hand holding a 腊子 is no win on a discard (`scoring.wenling.Wenling.no_win_reason`), or nothing."""
LAZI_ZH = "：腊子只有自摸才能不成和牌型直接和（「可立即和牌」）；点炮和须是完整的和牌"


def _row(pattern: str, template: str) -> tuple[re.Pattern[str], str]:
    return pattern_row(pattern, template, {"SEAT": SEAT, "RULES": RULES, "FLAG": FLAG, "TILE": TILE, "LAZI": LAZI})


REFUSALS: tuple[tuple[re.Pattern[str], str], ...] = (
    # scoring.region: every region
    _row(r"{SEAT}'s hand is not a legal win under {RULES} rules{LAZI}", "{seat}号位的牌不成{rules}麻将的和牌{lazi}"),
    _row(r"{SEAT}'s hand is not a legal win under {RULES} rules{LAZI}; it would be one with (?P<near>{TILE} changed to "
         r"{TILE}(?:, or {TILE} to {TILE})*)", "{seat}号位的牌不成{rules}麻将的和牌{lazi}；{near}就能和"),
    _row(r"{SEAT}'s hand is not a legal win under {RULES} rules with no (?P<ind>得|金) indicator given "
         r"\(no tile is wild\){LAZI}", "未选{ind}牌（按没有{ind}计）：{seat}号位的牌不成{rules}麻将的和牌{lazi}"),
    _row(r"{SEAT}'s hand is not a legal win under {RULES} rules with no (?P<ind>得|金) indicator given "
         r"\(no tile is wild\){LAZI}; it would be one with (?P<near>{TILE} changed to {TILE}"
         r"(?:, or {TILE} to {TILE})*)",
         "未选{ind}牌（按没有{ind}计）：{seat}号位的牌不成{rules}麻将的和牌{lazi}；{near}就能和"),
    _row(r"{SEAT} holds (?P<k>\d+) tiles \(concealed \+ 3 per meld\); {RULES} rules need (?P<want>\d+(?: or \d+)*) "
         r"for (?P<role>the winner|a non-winner)",
         "{seat}号位有 {k} 张牌（手牌加每组吃碰杠按三张算）；{rules}麻将{role}应有 {want} 张"),
    _row(r"{SEAT} holds (?P<k>\d+) tiles \(concealed \+ 3 per meld\); {RULES} rules need (?P<want>\d+) for the winner; "
         r"a 腊子 wins without a complete hand only when self-drawn \(「可立即和牌」\): won on a discard, the hand must "
         r"be complete",
         "{seat}号位有 {k} 张牌（手牌加每组吃碰杠按三张算）；{rules}麻将和牌者应有 {want} 张" + LAZI_ZH),
    _row(r"(?P<k>\d+) copies of (?P<tiles>{TILE}) on the table \(at most (?P<limit>\d+); counting concealed tiles, "
         r"melds, flowers and the indicator\)",
         "桌上有 {k} 张{tiles}（最多 {limit} 张；手牌、吃碰杠、花牌和翻出的牌都算在内）"),
    _row(r"(?P<k>\d+) copies of (?P<tiles>{TILE}) (?:besides the robbed pung|on the table): robbing a kong takes its "
         r"fourth (?P=tiles), so the winner can hold no other",
         "抢杠和抢的是杠的第四张{tiles}（另三张在被抢的碰里），和牌者不能另有{tiles}（这里有 {k} 张）"),
    _row(r"win\.tile (?P<tiles>{TILE}) is not among {SEAT}'s concealed tiles", "和牌张{tiles}不在{seat}号位的手牌中"),
    _row(r"{SEAT}\.concealed is empty: the winner's tiles are required", "{seat}号位没有手牌：请填入和牌者的牌"),
    _row(r"{RULES} rules have no indicator \(got (?P<tiles>{TILE})\)", "{rules}麻将没有得、金、宝这类牌（这里给了{tiles}）"),
    _row(r"{SEAT}\.concealed holds the flower (?P<tiles>{TILE}); flowers go in 'flowers'",
         "{seat}号位的手牌中有花牌{tiles}：花牌应放在花牌一栏"),
    _row(r"{SEAT}\.flowers holds (?P<tiles>{TILE}), which is not a flower", "{seat}号位的花牌中有{tiles}，它不是花牌"),
    _row(r"{FLAG} needs win\.tile to be the (?P<name>金|宝) indicator (?P<tiles>{TILE})",
         "“{flag}”的和牌张须是翻出的{name}{tiles}"),
    # scoring.record: a meld the player built
    _row(r"{SEAT}\.melds\[(?P<meld>\d+)\]: '(?P<run>(?:{TILE})*)' is not a (?P<shape>chow|pung|kong|whirlwind) \(.*\)",
         "{seat}号位的第{meld}组吃碰杠{run}不成{shape}"),
    _row(r"{SEAT}\.melds\[(?P<meld>\d+)\]: {RULES} rules have no whirlwind melds",
         "{rules}麻将没有旋风杠（{seat}号位的第{meld}组吃碰杠）"),
    # scoring.wenling
    _row(r"win\.tile (?P<tiles>{TILE}) is a 得: a discarded 得 cannot be won on", "和牌张{tiles}是得：打出的得不能和"),
    _row(r"{SEAT}\.concealed holds the special tile (?P<tiles>{TILE}); specials are laid aside in 'flowers'",
         "{seat}号位的手牌中有特殊牌{tiles}：特殊牌应放在花牌一栏"),
    _row(r"{SEAT}\.flowers holds (?P<tiles>{TILE}), a 得; 得 stay in the concealed hand",
         "{seat}号位的花牌中有{tiles}，它是得：得留在手牌中"),
    _row(r"{SEAT}\.flowers holds (?P<tiles>{TILE}), which is neither a flower nor a special tile \(\w+\)",
         "{seat}号位的花牌中有{tiles}，它既不是花牌也不是特殊牌"),
    _row(r"{SEAT} has a meld (?:{TILE})+ with (?P<tiles>{TILE}), (?P<what>a 得|a special tile), which cannot be melded",
         "{seat}号位的吃碰杠中有{tiles}：{what}"),
    _row(r"flag after_special_kong needs kong_replacement", "“补白板/特殊牌后摸牌和”须同时勾选“杠上开花”"),
    _row(r"flag kong_replacement needs a kong, flower or special tile of the winner: a replacement tile is drawn only "
         r"after one", "杠上开花须和牌者有杠、花牌或特殊牌：只有杠或补花之后才摸补牌"),
    _row(r"flag after_special_kong needs a special tile laid aside by the winner", "“补白板/特殊牌后摸牌和”须和牌者亮出了特殊牌"),
    # scoring.fuzhou
    _row(r"win\.tile (?P<tiles>{TILE}) is a 金: a 金 is never discarded, so it cannot be won "
         r"(?P<won>on a discard|by robbing a kong)", "和牌张{tiles}是金：金不会被打出，不能{won}"),
    _row(r"the 金 indicator must be a suited tile, got (?P<tiles>{TILE})", "金须是数牌，这里是{tiles}"),
    _row(r"{SEAT}\.concealed holds (?P<tiles>{TILE}); in fuzhou rules honours and flowers are flowers, laid aside in "
         r"'flowers'", "{seat}号位的手牌中有{tiles}：福州麻将的字牌和花牌都算花，应放在花牌一栏"),
    _row(r"{SEAT} has a meld (?:{TILE})+ with (?P<tiles>{TILE}), (?P<what>a 金, which is never melded|an honour, "
         r"which is a flower)", "{seat}号位的吃碰杠中有{tiles}：{what}"),
    _row(r"{SEAT}\.flowers holds (?P<tiles>{TILE}), which is no flower \(Fuzhou flowers are f tiles, winds and "
         r"dragons\)", "{seat}号位的花牌中有{tiles}，它不是花（福州的花是花牌、风牌和箭牌）"),
    _row(r"{SEAT} holds 闲金 \(any tile completes the hand\): a win (?P<won>on a discard|by robbing a kong) needs "
         r"金雀 or 金龙", "{seat}号位是闲金（任何牌都能和）：{won}须是金雀或金龙"),
    _row(r"flag heaven \(天和\) needs the dealer as the winner", "天和须庄家和牌"),
    _row(r"flag heaven \(天和\) allows no claimed meld: the dealer wins before any discard",
         "天和不能有吃、碰或明杠：庄家在打出第一张牌之前就已和牌"),
    _row(r"flags heaven and rob_gold exclude each other: 天和 wins before any tile is taken in",
         "天和与抢金不能同时成立：天和在摸进任何牌之前就已和牌"),
    _row(r"flag three_golds needs three 金 \((?P<tiles>{TILE})\) in {SEAT}'s hand", "三金倒须{seat}号位手中有三张金{tiles}"),
    # scoring.baicheng
    _row(r"{SEAT}'s hand is complete but has no (?P<lacks>.+), so it is no win under baicheng rules",
         "{seat}号位的牌已成和牌型，但没有{lacks}，白城麻将不算和牌"),
    _row(r"baicheng rules have no flowers: the 宝 indicator cannot be (?P<tiles>{TILE})", "白城麻将不用花牌：宝不能是{tiles}"),
    _row(r"{SEAT}\.flowers holds (?:{TILE})+…?: baicheng rules have no flowers", "白城麻将不用花牌：请拿掉{seat}号位的花牌"),
    _row(r"{SEAT}\.concealed holds the flower (?P<tiles>{TILE}): baicheng rules have no flowers, take it out",
         "白城麻将不用花牌：请拿掉{seat}号位手牌中的{tiles}"),
    _row(r"flag kong_replacement \(杠开\) needs a kong or whirlwind of the winner", "杠开须和牌者有杠或旋风杠"),
    # scoring.daishan
    _row(r"flag heaven \(天胡\) needs the dealer as the winner", "天胡须庄家和牌"),
    _row(r"flag earth \(地胡\) needs a win on the dealer's discard by another player", "地胡须是庄家打出的牌、由闲家和牌"),
    _row(r"flag heaven \(天胡\) allows no claimed meld: the dealer wins before any discard \(「庄家可补花可暗杠」\)",
         "天胡不能有吃、碰或明杠：庄家在打出第一张牌之前就已和牌（庄家可补花可暗杠）"),
    _row(r"flag earth \(地胡\) allows no meld: the winner has had no turn before the dealer's first discard",
         "地胡不能有吃碰杠：庄家打出第一张牌之前，和牌者还没有轮到过"),
    _row(r"flag kong_replacement needs a kong or flower of the winner: a replacement tile is drawn only after one",
         "杠上开花须和牌者有杠或花牌：只有杠或补花之后才摸补牌"),
    # several regions
    _row(r"{FLAG} needs a self_draw win", "“{flag}”只能自摸"),
    _row(r"{FLAG} needs a discard win", "“{flag}”只能和别人打出的牌"),
    _row(r"{FLAG} needs the (?P<name>金|宝) indicator", "“{flag}”须先选定{name}牌"),
)
"""The scorer's refusals a player can meet, each whole, and their Chinese; the first row that matches is used."""


def refusal_in_chinese(text: str, rules: str | None = None) -> str | None:
    """The scorer's English refusal ``text`` of a record under ``rules`` (its events named as that region names
    them) in Chinese; None when no row of REFUSALS matches it."""
    return translate(text, REFUSALS, CONVERT | {"flag": lambda flag: flag_name(flag, rules)})
