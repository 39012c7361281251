"""The scorer's refusals in Chinese (webui/scorer_text.py), on lines made by the real scorer from records a
player of the page could send. A refusal changed without its Chinese makes these tests fail."""
import re
from pathlib import Path

import pytest

from tests.records import player, record, rejected, winner_record
from scoring.wenling import BAO_FACTS_EN, BAO_FACTS_ZH
from webui.scorer_text import FLAGS_ZH, REFUSALS, refusal_in_chinese

STATIC = Path(__file__).resolve().parents[1] / "webui" / "static"
CHOWS = "c123m c456m c789m"


def fuzhou(concealed: str = "234p567s11s", tile: str = "2p", by: str = "discard", **kw) -> dict:
    kw = {"melds_text": CHOWS, "flowers": "12z", "indicator": "9p"} | kw
    return winner_record("fuzhou", concealed, tile, by, **kw)


def wenling(concealed: str = "234p567s11s", tile: str = "2p", by: str = "discard", **kw) -> dict:
    return winner_record("wenling", concealed, tile, by, **({"melds_text": CHOWS, "indicator": "9p"} | kw))


def baicheng(concealed: str = "678s123m88p", tile: str = "8s", by: str = "discard", **kw) -> dict:
    return winner_record("baicheng", concealed, tile, by, **({"melds_text": "p555p c234m"} | kw))


def daishan(concealed: str = "123456789m123p55s", tile: str = "5s", by: str = "discard", **kw) -> dict:
    return winner_record("daishan", concealed, tile, by, **kw)


# (a record the scorer refuses, one Chinese line it must give)
CASES = {
    "no win": (daishan("13579m13579p1357s", "7s"), "1号位的牌不成岱山麻将的和牌"),
    "a tile from a win": (daishan("123456789m124p55s"), "1号位的牌不成岱山麻将的和牌；把「四筒」换成「三筒」，或把「一筒」换成「三筒」就能和"),
    "no win with no wilds given": (fuzhou("1357p2468s", "1p", by="self_draw", indicator=None),
                                   "未选金牌（按没有金计）：1号位的牌不成福州麻将的和牌"),
    "a tile from a win with no wilds given": (wenling("234p567s1s9p", by="self_draw", indicator=None),
                                              "未选得牌（按没有得计）：1号位的牌不成温岭麻将的和牌；"
                                              "把「一條」换成「九筒」，或把「九筒」换成「一條」就能和"),
    "winner's size": (daishan("123m", "1m"), "1号位有 3 张牌（手牌加每组吃碰杠按三张算）；岱山麻将和牌者应有 14 张"),
    "non-winner's size": (record("wenling", {1: player("234p567s11s", CHOWS), 2: player("123m")},
                                 (1, "2p", "discard", 3), indicator="9p"),
                          "2号位有 3 张牌（手牌加每组吃碰杠按三张算）；温岭麻将未和牌者应有 16 张"),
    "five copies": (record("daishan", {1: player("123456789m123p55s"), 3: player("", "p555s")},
                           (1, "5s", "rob_kong", 3)),
                    "桌上有 5 张「五條」（最多 4 张；手牌、吃碰杠、花牌和翻出的牌都算在内）"),
    "a robbed kong's tile held twice": (daishan("123456789m123p55s", "5s", "rob_kong"),
                                        "抢杠和抢的是杠的第四张「五條」（另三张在被抢的碰里），和牌者不能另有「五條」（这里有 2 张）"),
    "winning tile not in the hand": (fuzhou(tile="9s"), "和牌张「九條」不在1号位的手牌中"),
    "no concealed tiles": (daishan("", "5s"), "1号位没有手牌：请填入和牌者的牌"),
    "no indicator in the rules": (daishan(indicator="5p"), "岱山麻将没有得、金、宝这类牌（这里给了「五筒」）"),
    "a meld of one tile": (daishan("123456789m55s", melds_text="p5m"), "1号位的第1组吃碰杠「五萬」不成碰（三张相同的牌）"),
    "a meld that is no chow": (daishan("123456789m55s", melds_text="c346m"),
                               "1号位的第1组吃碰杠「三萬、四萬、六萬」不成吃（同一花色三张相连的牌）"),
    "no whirlwinds": (daishan("123456789m55s", melds_text="w1234z"), "岱山麻将没有旋风杠（1号位的第1组吃碰杠）"),
    "a flower in the hand": (daishan("123456789m123p5s1f"), "1号位的手牌中有花牌「春」：花牌应放在花牌一栏"),
    "no flower among the flowers": (daishan(flowers="1m"), "1号位的花牌中有「一萬」，它不是花牌"),
    "a 腊子 in no winning shape on a discard": (wenling("1357p2468s134677z", "1p", melds_text="c123m", flowers="1234f"),
                                                "1号位的牌不成温岭麻将的和牌：腊子只有自摸才能不成和牌型直接和（「可立即和牌」）；"
                                                "点炮和须是完整的和牌"),
    "an incomplete 腊子 on a discard": (wenling("1357p2468s13467z", "1p", melds_text="c123m", flowers="1234f"),
                                        "1号位有 16 张牌（手牌加每组吃碰杠按三张算）；温岭麻将和牌者应有 17 张：腊子只有自摸才能不成和牌型直接和"
                                        "（「可立即和牌」）；点炮和须是完整的和牌"),
    "a 得 won on a discard": (wenling("234p567s1s9p", "9p"), "和牌张「九筒」是得：打出的得不能和"),
    "a special tile in the hand": (wenling("234p567s1s5z"), "1号位的手牌中有特殊牌「白」：特殊牌应放在花牌一栏"),
    "a 得 among the flowers": (wenling(flowers="9p"), "1号位的花牌中有「九筒」，它是得：得留在手牌中"),
    "neither flower nor special": (wenling(flowers="1m"), "1号位的花牌中有「一萬」，它既不是花牌也不是特殊牌"),
    "a 得 melded": (wenling(melds_text="c123m c456m p999p"), "1号位的吃碰杠中有「九筒」：得不能用来吃碰杠"),
    "a special tile melded": (wenling(melds_text="c123m c456m p555z"), "1号位的吃碰杠中有「白」：特殊牌不能用来吃碰杠"),
    "after a special kong": (wenling(by="self_draw", flags=("after_special_kong",)),
                             "“补白板/特殊牌后摸牌和”须同时勾选“杠上开花”"),
    "a 金 won on a discard": (fuzhou("234p567s1s5s", "5s", indicator="5s"), "和牌张「五條」是金：金不会被打出，不能点炮和"),
    "a 金 robbed from a kong": (fuzhou("234p567s1s5s", "5s", "rob_kong", indicator="5s"),
                               "和牌张「五條」是金：金不会被打出，不能抢杠和"),
    "杠上开花 with nothing laid aside": (wenling(by="self_draw", flags=("kong_replacement",)),
                                      "杠上开花须和牌者有杠、花牌或特殊牌：只有杠或补花之后才摸补牌"),
    "after a special kong with no special": (wenling(by="self_draw", flags=("kong_replacement", "after_special_kong"),
                                                     flowers="1f"), "“补白板/特殊牌后摸牌和”须和牌者亮出了特殊牌"),
    "an honour as the 金": (fuzhou(indicator="1z"), "金须是数牌，这里是「東」"),
    "an honour in a Fuzhou hand": (fuzhou("234p567s11z"), "1号位的手牌中有「東」：福州麻将的字牌和花牌都算花，应放在花牌一栏"),
    "an honour melded": (fuzhou(melds_text="c123m c456m p111z"), "1号位的吃碰杠中有「東」：字牌在福州算花"),
    "a 金 melded": (fuzhou(melds_text="c123m c456m c789p", indicator="8p"), "1号位的吃碰杠中有「八筒」：金不能用来吃碰杠"),
    "a suited tile among Fuzhou's flowers": (fuzhou(flowers="1s"), "1号位的花牌中有「一條」，它不是花（福州的花是花牌、风牌和箭牌）"),
    "闲金": (fuzhou("234p678s999s1m5s", "1m", melds_text="c123m c456m", indicator="5s"),
            "1号位是闲金（任何牌都能和）：点炮和须是金雀或金龙"),
    "a gold flag without the 金": (fuzhou(by="self_draw", flags=("three_golds",), indicator=None), "“三金倒”须先选定金牌"),
    "天和 not the dealer": (fuzhou(by="self_draw", flags=("heaven",)), "天和须庄家和牌"),
    "天和 with a chow": (fuzhou(by="self_draw", flags=("heaven",), seat=0), "天和不能有吃、碰或明杠：庄家在打出第一张牌之前就已和牌"),
    "天和 and 抢金": (fuzhou(tile="2p", by="self_draw", flags=("rob_gold", "heaven"), seat=0, indicator="2p"),
                    "天和与抢金不能同时成立：天和在摸进任何牌之前就已和牌"),
    "抢金 of another tile": (fuzhou(by="self_draw", flags=("rob_gold",), indicator="5s"), "“抢金”的和牌张须是翻出的金「五條」"),
    "三金倒 without three": (fuzhou(by="self_draw", flags=("three_golds",)), "三金倒须1号位手中有三张金「九筒」"),
    "a flag needing a self-draw": (fuzhou(flags=("gold_kan",)), "“金坎”只能自摸"),
    "Baicheng lacks a condition": (baicheng("678p123m88p", "8p"), "1号位的牌已成和牌型，但没有三门全（萬、筒、條三门都有），白城麻将不算和牌"),
    "Baicheng lacks two": (baicheng("678p123m99p", "9p", melds_text="c567p c234m"),
                           "1号位的牌已成和牌型，但没有三门全（萬、筒、條三门都有），也没有有刻（刻子、杠、旋风杠或箭牌对子），"
                           "白城麻将不算和牌"),
    "Baicheng lacks 幺九": (baicheng("678s234m88p", melds_text="p555p c345m"),
                           "1号位的牌已成和牌型，但没有幺九（一、九或字牌），白城麻将不算和牌"),
    "a flower as the 宝": (baicheng(indicator="1f"), "白城麻将不用花牌：宝不能是「春」"),
    "flowers in Baicheng": (baicheng(flowers="1f"), "白城麻将不用花牌：请拿掉1号位的花牌"),
    "a great many flowers in Baicheng": (baicheng(flowers="1m" * 9), "白城麻将不用花牌：请拿掉1号位的花牌"),
    "a flower in a Baicheng hand": (baicheng("678s123m8p2f", melds_text="p555p c234m", tile="8s"),
                                   "白城麻将不用花牌：请拿掉1号位手牌中的「夏」"),
    "杠开 with no kong": (baicheng(by="self_draw", flags=("kong_replacement",)), "杠开须和牌者有杠或旋风杠"),
    "摸宝 of another tile": (baicheng(by="self_draw", flags=("bao_draw",), indicator="9m"), "“摸宝”的和牌张须是翻出的宝「九萬」"),
    "摸宝 with no 宝": (baicheng(by="self_draw", flags=("bao_draw",)), "“摸宝”须先选定宝牌"),
    "摸宝 on a discard": (baicheng(flags=("bao_draw",), indicator="8s"), "“摸宝”只能自摸"),
    "天胡 not the dealer": (daishan(by="self_draw", flags=("heaven",)), "天胡须庄家和牌"),
    "地胡 not on the dealer's discard": (daishan(flags=("earth",), source=2), "地胡须是庄家打出的牌、由闲家和牌"),
    "地胡 by self-draw": (daishan(by="self_draw", flags=("earth",)), "“地胡”只能和别人打出的牌"),
    "金坎 with no 金": (fuzhou(by="self_draw", flags=("gold_kan",), indicator=None), "“金坎”须先选定金牌"),
    "天胡 with a pung": (daishan("123456789m55s", by="self_draw", melds_text="p111p", flags=("heaven",), seat=0),
                       "天胡不能有吃、碰或明杠：庄家在打出第一张牌之前就已和牌（庄家可补花可暗杠）"),
    "地胡 with a meld": (daishan("123456789m55s", melds_text="K1111p", flags=("earth",), source=0),
                       "地胡不能有吃碰杠：庄家打出第一张牌之前，和牌者还没有轮到过"),
    "杠上开花 with no kong or flower": (daishan(by="self_draw", flags=("kong_replacement",)),
                                     "杠上开花须和牌者有杠或花牌：只有杠或补花之后才摸补牌"),
    "海底捞月 on a discard": (daishan(flags=("last_tile",)), "“海底捞月”只能自摸"),
    # an event named as the region names it: Daishan's 天胡, Fuzhou's 天和, Baicheng's 杠开 (no flowers to 开花)
    "天胡 on a discard": (daishan(flags=("heaven",)), "“天胡”只能自摸"),
    "天和 on a discard": (fuzhou(flags=("heaven",)), "“天和”只能自摸"),
    "杠开 on a discard": (baicheng(flags=("kong_replacement",)), "“杠开”只能自摸"),
    "杠上开花 on a discard": (wenling(flags=("kong_replacement",)), "“杠上开花”只能自摸"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_every_refusal_a_player_can_meet_is_in_chinese(name):
    line = rejected(CASES[name][0])
    chinese = refusal_in_chinese(line, CASES[name][0]["rules"])
    assert chinese == CASES[name][1], f"{name}: {line!r} -> {chinese!r}"
    assert not re.search(r"[A-Za-z]", chinese)


def test_every_row_of_the_table_is_used():
    lines = [rejected(rec) for rec, _ in CASES.values()]
    used = {next(k for k, (pattern, _) in enumerate(REFUSALS) if pattern.fullmatch(line)) for line in lines}
    assert used == set(range(len(REFUSALS))), f"rows no refusal matched: {set(range(len(REFUSALS))) - used}"


def test_a_refusal_not_in_the_table_has_no_translation():
    line = rejected(daishan(options={"di": -1}))
    assert "di" in line and refusal_in_chinese(line) is None


def test_flag_names_are_the_pages():
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    block = text.split("export const FLAG_NAMES = {")[1].split("};")[0]
    page = dict(re.findall(r'^  (\w+): \{ en: "[^"]*", zh: "([^"（]*)', block, re.M))
    assert page == FLAGS_ZH


def test_bao_fact_names_are_the_pages():
    """A 包三家 note naming a fact left out names it as the page's box does."""
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    block = text.split("export const CONTEXT_FIELDS = {")[1].split("};")[0]
    assert dict(re.findall(r'\["(\w+)", \{ en: "[^"]*", zh: "([^"]*)" \}\]', block)) == BAO_FACTS_ZH
    assert dict(re.findall(r'\["(\w+)", \{ en: "([^"]*)", zh: "[^"]*" \}\]', block)) == BAO_FACTS_EN
