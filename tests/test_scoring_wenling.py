"""Wenling 温岭 (spec §3): one small hand per scoring item, 腊子, non-winners, settlement, options.

Unless a test says otherwise: the dealer is seat 0, the winner is seat 1 (South: seat wind 2z, seat
flowers 2f 6f), the indicator is 9p (so 9p is 得 and White 5z is the special tile), the other hands
are blank, and the winner holds the three chows 123m 456m 789m (which score nothing) plus 8 tiles.
"""
import json
from pathlib import Path

import pytest

from scoring import RecordError, is_winning_hand, score_table
from tests.records import player, record, winner_record

CHOWS = "c123m c456m c789m"
EXAMPLES = Path(__file__).resolve().parents[1].parent / "shared" / "rules" / "examples"


def wenling(concealed: str, tile: str, by: str = "discard", *, melds_text: str = CHOWS, indicator: str | None = "9p",
            **kw) -> dict:
    return winner_record("wenling", concealed, tile, by, melds_text=melds_text, indicator=indicator, **kw)


def hand(concealed: str, tile: str, by: str = "discard", **kw) -> dict:
    """The winner's seat result: total, base, fan, items."""
    result = score_table(wenling(concealed, tile, by, **kw))
    return result["players"][result["winner"]]


def rules(seat: dict) -> list[str]:
    return [i["rule"] for i in seat["items"]]


def base_fan(concealed: str, tile: str, by: str = "discard", **kw) -> tuple[int, int]:
    seat = hand(concealed, tile, by, **kw)
    return seat["base"], seat["fan"]


# -- the baseline: 5 sequences + 11s pair, won on a two-sided wait: 旁和 + 无得 ------------------------------
def test_baseline_all_sequences_no_de():
    seat = hand("234p567s11s", "2p")
    assert rules(seat) == ["基础20和", "旁和", "无得"]
    assert (seat["base"], seat["fan"], seat["total"]) == (0, 2, 80)


# -- 和 of sets and pairs -------------------------------------------------------------------------------
def test_pair_of_seat_wind_or_dragon():
    assert base_fan("234p567s22z", "2p") == (2, 2)  # South pair, seat 1
    assert base_fan("234p567s66z", "2p") == (2, 2)  # 發 is a 字牌 while White is the special tile
    assert base_fan("234p567s11z", "2p") == (0, 2)  # East is not South's seat wind
    assert base_fan("234p567s99s", "2p") == (0, 2)  # a terminal pair scores nothing


def test_pung_heavy_and_plain():
    assert "刻子 (幺九)" in rules(hand("234p567s11s", "2p", melds_text="c123m c456m p999s"))
    assert base_fan("234p567s11s", "2p", melds_text="c123m c456m p999s") == (4, 1)
    assert base_fan("234p567s11s", "2p", melds_text="c123m c456m p555m") == (2, 1)


def test_concealed_triplet_heavy_and_plain():
    assert base_fan("234p111s55s", "2p") == (8, 1)  # 111s 暗刻 (幺九) 8; 无得
    assert base_fan("234p555s11s", "2p") == (4, 1)


def test_triplet_completed_by_a_discard_is_concealed_by_default():
    # 234p 678s 555s 11s + 123m 456m: the discarded 5s completes 555s (55s and 11s waiting)
    kw = {"melds_text": "c123m c456m"}
    assert "暗刻" in rules(hand("234p678s555s11s", "5s", **kw))
    assert base_fan("234p678s555s11s", "5s", **kw) == (4, 1)
    assert base_fan("234p678s555s11s", "5s", options={"discard_triplet_concealed": False}, **kw) == (2, 1)
    assert base_fan("234p678s555s11s", "5s", "self_draw", **kw) == (4 + 2, 1)


@pytest.mark.parametrize("meld, base", [("k1111z", 16), ("k3333s", 8), ("a3333s", 8), ("K9999s", 32), ("K3333s", 16)])
def test_kongs(meld, base):
    assert base_fan("234p567s11s", "2p", melds_text=f"c123m c456m {meld}") == (base, 1)


def test_special_tiles_laid_aside():
    seat = hand("234p567s11s", "2p", flowers="5z")
    assert ("翻白板", 4, "和") in [(i["rule"], i["value"], i["unit"]) for i in seat["items"]]
    assert (seat["base"], seat["fan"]) == (4, 3)


@pytest.mark.parametrize("indicator, flowers, name", [
    ("9p", "5z", "翻白板"), ("5z", "6z", "翻发财"), ("5z", "67z", "翻发财、翻红中"), ("1f", "5z7z", "翻白板、翻红中")])
def test_an_exposed_special_tile_is_named_by_the_tile(indicator, flowers, name):
    """The 翻白板 rule's items name the tile that is special in this hand (「翻红中、翻发财以白板和数计算」)."""
    seat = hand("234p567s11s", "2p", indicator=indicator, flowers=flowers)
    assert [i["name_zh"] for i in seat["items"] if i["rule"] == "翻白板"] == [name, name]


def test_seat_flower():
    assert base_fan("234p567s11s", "2p", flowers="2f") == (0, 3)
    assert base_fan("234p567s11s", "2p", flowers="26f") == (0, 4)
    assert base_fan("234p567s11s", "2p", flowers="1f") == (0, 2)
    assert "the seat's own flower: 2f" in [item["name"] for item in hand("234p567s11s", "2p", flowers="2f")["items"]]


# -- the wait and the win --------------------------------------------------------------------------------
def test_single_wait():
    seat = hand("234p567s11s", "1s")
    assert rules(seat) == ["基础20和", "单吊", "无得"]  # the wait bonus voids 旁和
    assert (seat["base"], seat["fan"]) == (2, 1)


def test_middle_wait():
    assert rules(hand("234p567s11s", "3p")) == ["基础20和", "嵌档", "无得"]


def test_edge_wait():
    assert rules(hand("123p567s11s", "3p")) == ["基础20和", "靠柄", "无得"]
    assert rules(hand("234p789s11s", "7s")) == ["基础20和", "靠柄", "无得"]
    assert rules(hand("234p789s11s", "9s")) == ["基础20和", "旁和", "无得"]  # 78s + 9s is an edge shape but no 靠柄


def test_self_draw():
    assert base_fan("234p567s11s", "2p", "self_draw") == (2, 2)


def test_the_best_role_of_the_winning_tile_is_chosen():
    # 45666p: the 6p completes 66p (单吊 +2 和, no 旁和) or 456p (two-sided, 旁和 +1 番): 80 beats 50
    seat = hand("45666p567s", "6p")
    assert rules(seat) == ["基础20和", "旁和", "无得"] and seat["total"] == 80
    # with a pung there is no 旁和, so 单吊 pays more: (4 + 2 + 20) × 2 = 52 → 60
    seat = hand("45666p789s", "6p", melds_text="c123m c456m p999s")
    assert "单吊" in rules(seat) and seat["total"] == 60


# -- 番 of the hand -------------------------------------------------------------------------------------
def test_seat_wind_set():
    seat = hand("234p567s11s", "2p", melds_text="c123m c456m p222z")
    assert "门风刻、杠" in rules(seat) and (seat["base"], seat["fan"]) == (4, 2)


def test_dragon_set():
    assert base_fan("234p567s11s", "2p", melds_text="c123m c456m p777z") == (4, 2)
    assert base_fan("234p567s11s", "2p", melds_text="c123m c456m k7777z") == (16, 2)


def test_one_suit():
    seat = hand("234m567m11m", "2m")
    assert "清一色" in rules(seat) and seat["fan"] == 4 + 1 + 1


def test_one_suit_and_honours():
    assert "混一色" in rules(hand("234m567m11z", "2m"))
    assert base_fan("234m567m11z", "2m") == (0, 2 + 1 + 1)


def test_all_honours_counts_as_one_suit_and_honours():
    seat = hand("66z", "6z", melds_text="p111z p222z p333z p777z c234m")
    assert seat["total"] == 500  # 四风会齐 (腊子) anyway
    seat = hand("66z", "6z", melds_text="p111z p222z p777z p444s c234s")
    assert "混一色" in rules(seat)


def test_all_triplets():
    seat = hand("222p555s11s", "2p", melds_text="p111m p444m p777m")
    assert "对对和" in rules(seat)
    assert (seat["base"], seat["fan"]) == (4 + 2 + 2 + 4 + 4, 2 + 1)


def test_no_de_and_two_de():
    assert "无得" in rules(hand("234p567s11s", "2p"))
    seat = hand("234p567s9p9p", "2p")  # two 得 as the pair
    assert "2 张得" in rules(seat) and "无得" not in rules(seat)


def test_one_de_gets_neither():
    seat = hand("234p567s1s9p", "2p")
    assert "无得" not in rules(seat) and "2 张得" not in rules(seat)


def test_kong_bloom():
    kw = {"melds_text": "c123m c456m k3333s", "flags": ("kong_replacement",)}
    assert "杠上开花" in rules(hand("234p567s11s", "2p", "self_draw", **kw))
    kw_special = {"melds_text": "c123m c456m k3333s", "flags": ("kong_replacement", "after_special_kong"),
                  "flowers": "5z"}
    assert "杠上开花" not in rules(hand("234p567s11s", "2p", "self_draw", **kw_special))


@pytest.mark.parametrize("flags, laid", [(("kong_replacement",), ""),
                                         (("kong_replacement", "after_special_kong"), "1f")])
def test_a_replacement_draw_needs_a_tile_laid_down_before_it(flags, laid):
    """A replacement tile is drawn after a kong, a flower or a special tile; after_special_kong after a special."""
    with pytest.raises(RecordError, match="needs a"):
        hand("234p567s11s", "2p", "self_draw", flags=flags, flowers=laid)
    assert "杠上开花" in rules(hand("234p567s11s", "2p", "self_draw", flags=("kong_replacement",), flowers="1f"))


def test_robbing_a_kong():
    assert "抢杠和" in rules(hand("234p567s11s", "2p", "rob_kong", source=3))


def test_self_drawn_de():
    seat = hand("234p567s1s9p", "9p", "self_draw")
    assert "自摸得" in rules(seat)


def test_self_drawn_de_takes_the_best_wait():
    # 24p + a self-drawn 得: the 得 is the 3p in the middle (嵌档 +2) — or anything else worth as much
    seat = hand("24p9p567s11s", "9p", "self_draw")
    assert seat["base"] == 2 + 2 and {"嵌档", "自摸", "自摸得"} <= set(rules(seat))


# -- 腊子 -------------------------------------------------------------------------------------------------
LOOSE = "1357p2468s13467z"  # 13 unrelated tiles


def test_lazi_three_de_needs_no_complete_hand():
    seat = hand("1357p2468s136z9p9p9p", "9p", "self_draw", melds_text="c123m")
    assert seat["total"] == 500 and rules(seat) == ["腊子: 3 张得"]


def test_lazi_four_flowers_of_one_colour():
    # the fourth flower completes it: it names the winning tile and stands among the flowers (16 tiles left)
    assert hand(LOOSE, "4f", "self_draw", melds_text="c123m", flowers="1234f")["total"] == 500
    assert rules(hand(LOOSE, "8f", "self_draw", melds_text="c123m", flowers="5678f")) == ["腊子: 4 张同色花"]


@pytest.mark.parametrize("concealed", [LOOSE, LOOSE + "9m"])
def test_lazi_by_a_laid_tile_holds_16_or_17(concealed):
    """Spec §1 says 17 for the winner; with no replacement drawn for the completing flower the hand holds 16."""
    assert rules(hand(concealed, "4f", "self_draw", melds_text="c123m", flowers="1234f")) == ["腊子: 4 张同色花"]
    with pytest.raises(RecordError, match="need 16 or 17 for the winner"):
        hand(concealed + "9s", "4f", "self_draw", melds_text="c123m c789m", flowers="1234f")


def test_lazi_with_the_winning_tile_in_the_hand_holds_17():
    """Only a 腊子 completed by a tile laid aside may hold 16: the third 得 drawn into the hand makes 17."""
    assert rules(hand("1357p2468s136z9p9p9p", "9p", "self_draw", melds_text="c123m")) == ["腊子: 3 张得"]
    with pytest.raises(RecordError, match="17 for the winner"):
        hand("1357p2468s13z9p9p9p", "9p", "self_draw", melds_text="c123m")


def test_lazi_four_white():
    assert rules(hand(LOOSE, "5z", "self_draw", melds_text="c123m", flowers="5555z")) == ["腊子: 4 张白板"]


@pytest.mark.parametrize("kong, rule", [("K2222z", "腊子: 暗杠门风"), ("K7777z", "腊子: 暗杠字牌")])
def test_lazi_concealed_kong_of_seat_wind_or_dragon(kong, rule):
    assert rules(hand("1357p2468s13z", kong[1] + "z", "self_draw", melds_text=f"c123m {kong}")) == [rule]


def test_lazi_on_a_discard_needs_a_complete_hand():
    with pytest.raises(RecordError, match="not a legal win under wenling rules; a 腊子 wins without a complete hand "
                                          "only when self-drawn"):
        hand("1357p2468s136z9p9p9p", "1p", melds_text="c123m")
    with pytest.raises(RecordError, match="not a legal win under wenling rules$"):  # no 腊子: the plain line
        hand("1357p2468s136z9p9p5p", "1p", melds_text="c123m")


def test_lazi_by_a_laid_tile_must_be_self_drawn():
    with pytest.raises(RecordError):
        hand(LOOSE, "4f", melds_text="c123m", flowers="1234f")


def test_an_incomplete_lazi_won_on_a_discard_is_refused_naming_the_rule():
    with pytest.raises(RecordError, match="need 17 for the winner; a 腊子 wins without a complete hand only when "
                                          "self-drawn"):
        hand(LOOSE, "1p", melds_text="c123m", flowers="1234f")
    with pytest.raises(RecordError, match="need 17 for the winner$"):  # no 腊子: the plain line
        hand(LOOSE, "1p", melds_text="c123m", flowers="123f")


def test_lazi_four_winds_in_a_reading():
    # 111z 222z 333z 44z + 123m 456m: all four winds, 得 not needed
    seat = hand("111z222z333z44z", "4z", melds_text="c123m c456m")
    assert rules(seat) == ["腊子: 四风会齐"] and seat["total"] == 500


def test_lazi_four_winds_with_a_de_filling():
    assert hand("111z222z333z4z9p", "4z", melds_text="c123m c456m")["total"] == 500


def test_lazi_four_winds_is_named_even_when_another_reading_reaches_the_cap():
    # two 得 fill a 44z pair (四风会齐) or a pair of anything: the plain readings reach 500 too (spec §3.3 Step 1)
    assert rules(hand("111z222z333z9p9p123m456m", "3m", melds_text="")) == ["腊子: 四风会齐"]


# -- non-winners --------------------------------------------------------------------------------------------
def non_winner(concealed: str, melds_text: str = "", flowers: str = "", seat: int = 2, **kw) -> dict:
    hands = {1: player("234p567s11s", CHOWS), seat: player(concealed, melds_text, flowers)}
    result = score_table(record("wenling", hands, (1, "2p", "discard", 3 if seat != 3 else 0), indicator="9p", **kw))
    return result["players"][seat]


def test_non_winner_counts_by_kind_ignoring_de():
    # seat 2 is West (3z): 33z pair 2; 999s 暗刻 (幺九) 8; 555s 暗刻 4; the two 9p are 得 and count nothing
    seat = non_winner("33z999s555s9p9p2468m13p")
    assert (seat["base"], seat["fan"], seat["total"]) == (2 + 8 + 4, 0, 40)


def test_non_winner_de_make_no_triplet_of_the_seat_wind():
    seat = non_winner("33z9p999s2468m1357p36s")
    assert (seat["base"], seat["fan"]) == (2 + 8, 0)


def test_non_winner_sets_and_specials():
    seat = non_winner("33z2468m1357p369s", "p777z", "5z3f")
    # 中 pung 4 + West pair 2 + White 4; 番: 中 pung 1 + White 1 + seat flower 秋 (West) 1
    assert (seat["base"], seat["fan"], seat["total"]) == (10, 3, 240)


def test_non_winner_lazi():
    assert non_winner("9p9p9p2468m1357p24689s")["total"] == 500
    # four winds: West (own) as a pair, the others as triplets
    assert non_winner("111z222z33z444z13579p")["total"] == 500
    # a 得 fills the missing North
    assert non_winner("111z222z33z44z9p2468m3s")["total"] == 500
    # without it, single winds are nothing
    assert non_winner("111z222z33z44z1p2468m3s")["total"] < 500



def test_non_winner_four_winds_counts_a_wind_de_once():
    # indicator 1z: the three other East tiles are 得. P2 (West) holds 11z (two 得) 222z 33z 444z: East is still
    # missing 3 tiles and only 2 得 can fill (the 得 do not count as natural East as well): no 四风会齐.
    # Base, 得 ignored: 222z 暗刻 8 + 33z own-wind pair 2 + 444z 暗刻 8 = 18 → 38 → 40
    hands = {1: player("234p567s11s", CHOWS), 2: player("11z222z33z444z2468m13p")}
    result = score_table(record("wenling", hands, (1, "2p", "discard", 3), indicator="1z"))
    assert result["players"][2]["total"] == 40
    # the dealer (East) needs only an East pair: two 得 make it, beside 南 西 北 triplets → 腊子 500
    hands = {1: player("234p567s11s", CHOWS), 0: player("11z222z333z444z2468m1p")}
    result = score_table(record("wenling", hands, (1, "2p", "discard", 3), indicator="1z"))
    assert result["players"][0]["total"] == 500

def test_blank_non_winner_is_scored_from_melds_and_flowers():
    seat = non_winner("", "p999s", "5z")
    assert (seat["base"], seat["fan"], seat["total"]) == (8, 1, 60)


# -- settlement -------------------------------------------------------------------------------------------------
def test_mutual_settlement_between_non_winners():
    hands = {1: player("234p567s11s", CHOWS), 0: player("", "p999s"), 2: player("", "p777z")}
    result = score_table(record("wenling", hands, (1, "2p", "discard", 3), indicator="9p"))
    totals = [p["total"] for p in result["players"]]
    assert totals == [30, 80, 50, 20]  # 999s pung 4 → 24 → 30; 中 pung 4, 1 番 → 48 → 50
    # each pays 8 to the winner; P0 pays P2 2, P3 pays P0 1 and P2 3
    assert result["net"] == [-8 - 2 + 1, 24, -8 + 2 + 3, -8 - 1 - 3]


BAO = {"sheng_phase": True, "tile_was_sheng": True, "discarder_all_sheng": False, "discarder_tenpai": True}


def bao_result(bao: dict, **kw) -> dict:
    hands = {1: player("234p567s11s", CHOWS), 0: player("", "p999s"), 2: player("", "p777z")}
    return score_table(record("wenling", hands, (1, "2p", "discard", 3), indicator="9p", context={"bao": bao}, **kw))


def test_bao_the_discarder_pays_for_everyone():
    result = bao_result(BAO)
    assert result["players"][3]["total"] == 0
    assert result["players"][3]["formula"].endswith(" → 0 (包三家)")  # its own sum shown, then why it counts 0
    bao = result["players"][3]["items"][-1]
    assert (bao["name"], bao["detail_zh"]) == ("paying for all (包三家): hand total 20 counts 0", "本家牌点 20 和按 0 计")
    # P3 pays the winner 3 × 8, P0 3 and P2 5, and P2 (the higher) their difference 2
    assert result["net"] == [3, 24, 5 + 2, -(24 + 3 + 5 + 2)]
    assert [pay["reason"] for pay in result["payments"]] == [  # in Chinese punctuation, 被包方 throughout
        "包三家：被包方代付三家和牌支付", "包三家：被包方牌点归零，按闲家结算支付", "包三家：被包方牌点归零，按闲家结算支付",
        "包三家：另二闲家之间的结算额由被包方支付"]


def test_the_chinese_payment_reasons_use_chinese_brackets():
    hands = {1: player("234p567s11s", CHOWS), 0: player("", "p999s"), 2: player("", "p777z")}
    result = score_table(record("wenling", hands, (1, "2p", "discard", 3), indicator="9p"))
    assert {pay["reason"] for pay in result["payments"]} == {"和牌支付（牌点汇总/10）", "闲家互付（差额/10）"}


@pytest.mark.parametrize("change, why", [
    ({}, None),
    ({"sheng_phase": False}, "sheng_phase"),
    ({"tile_was_sheng": False}, "tile_was_sheng"),
    ({"sheng_phase": False, "tile_was_sheng": False}, "sheng_phase"),
    ({"discarder_all_sheng": True, "discarder_tenpai": False}, "exempt"),
    ({"discarder_all_sheng": True, "discarder_tenpai": True}, None),
])
def test_bao_conditions(change, why):
    result = bao_result(BAO | change)
    assert (result["players"][3]["total"] == 0) == (why is None)
    assert result["bao"]["why"] == why and result["bao"]["payer"] == (3 if why is None else None)


def test_the_result_says_why_bao_does_not_apply():
    result = bao_result(BAO | {"tile_was_sheng": False})
    assert result["bao"]["note"] == "no 包三家: the winning discard was not a 生牌"
    assert result["bao"]["note_zh"] == "不包三家：所放的牌不是生牌"
    assert bao_result(BAO)["bao"]["note"] == "包三家 applies: the discarder pays for everyone"
    assert bao_result(BAO)["bao"]["note_zh"] == "包三家：放炮者为被包方，代付三家"
    assert "bao" not in score_table(wenling("234p567s11s", "2p", "discard"))


def test_the_result_says_when_the_bao_fact_that_decided_it_was_not_given():
    left_out = {key: value for key, value in BAO.items() if key != "tile_was_sheng"}
    assert bao_result(left_out)["bao"]["note"] == (
        "no 包三家: the winning discard was not a 生牌 (“the winning discard was a 生牌” not given: taken as no)")
    assert bao_result({"sheng_phase": True, "tile_was_sheng": True, "discarder_all_sheng": True})["bao"]["note_zh"] == (
        "不包三家：放炮者手中全是生牌且未听牌（未填“放炮者已听牌”，按否计）")


def test_a_note_beside_the_four_bao_facts_is_ignored():
    assert bao_result(BAO | {"note": "agreed at the table"}) == bao_result(BAO)


def test_bao_exempt_all_sheng_option():
    facts = BAO | {"discarder_all_sheng": True, "discarder_tenpai": True}
    result = bao_result(facts, options={"bao_exempt_all_sheng": True})
    assert result["players"][3]["total"] == 20 and result["bao"]["why"] == "exempt_option"
    assert result["bao"]["note_zh"] == "不包三家：放炮者手中全是生牌（本桌选项：全是生牌即不包）"  # no option key in Chinese
    assert result["bao"]["note"] == ("no 包三家: the discarder held only 生牌 (table option: a discarder holding only 生牌 "
                                     "is never 包)")  # nor in English


def test_bao_needs_a_discard():
    rec = wenling("234p567s11s", "2p", "self_draw", context={"bao": BAO})
    result = score_table(rec)
    assert result["net"] == [-9, 27, -9, -9]  # (2 + 20) × 4 = 88 → 90
    assert result["bao"]["why"] == "by"


def test_drawn_hand_settles_nothing():
    rec = record("wenling", {1: player("234p567s1s", CHOWS)}, None, indicator="9p")
    assert score_table(rec)["net"] == [0, 0, 0, 0]


# -- options ---------------------------------------------------------------------------------------------------
def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def test_seat_flower_fan_winner_only_on_w1_and_w6():
    w1 = example("W1") | {"options": {"seat_flower_fan_winner_only": True}}
    result = score_table(w1)
    assert result["players"][3]["total"] == 30 and result["net"] == [-13, 48, -13, -22]
    w6 = example("W6") | {"options": {"seat_flower_fan_winner_only": True}}
    result = score_table(w6)
    assert result["players"][0]["total"] == 120 and result["net"] == [-10, 78, -40, -28]


def test_white_always_de():
    # indicator 9p: 9p and every White are 得; 發 and 中 are the specials
    opts = {"white_always_de": True}
    seat = hand("234p567s1s5z", "2p", options=opts)
    assert "无得" not in rules(seat)
    with pytest.raises(RecordError, match="5z, a 得"):
        hand("234p567s11s", "2p", flowers="5z", options=opts)
    assert "翻白板" in rules(hand("234p567s11s", "2p", flowers="6z", options=opts))


def test_patterns_exclude_de():
    melds = "p111m p444m p777m"
    assert "对对和" in rules(hand("222p555s1s9p", "2p", melds_text=melds))
    assert "对对和" not in rules(hand("222p55s9p11s", "2p", melds_text=melds, options={"patterns_exclude_de": True}))


def test_flower_groups_option():
    groups = {"flower_groups": ["1256f", "3478f"]}
    assert hand(LOOSE, "6f", "self_draw", melds_text="c123m", flowers="1256f", options=groups)["total"] == 500
    with pytest.raises(RecordError):  # 1234f is no group now: no 腊子, and the 4f is not in the hand
        hand(LOOSE, "4f", "self_draw", melds_text="c123m", flowers="1234f", options=groups)


def test_flower_indicator_makes_its_group_de_and_dragons_special():
    # indicator 1f: 2f 3f 4f are 得 (in the hand); 5z 6z 7z are specials
    seat = hand("234p567s1s2f", "2p", indicator="1f", flowers="6z")
    assert "无得" not in rules(seat) and "翻白板" in rules(seat)
    with pytest.raises(RecordError, match="special tile 6z"):
        hand("234p567s66z", "2p", indicator="1f")


def test_white_indicator_makes_white_de():
    seat = hand("234p567s1s5z", "2p", indicator="5z")
    assert "无得" not in rules(seat)


# -- Wenling record checks ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("kw, message", [
    ({"concealed": "234p567s1s5z"}, "special tile 5z"),
    ({"concealed": "234p567s1s1f"}, "flower 1f"),
    ({"flowers": "9p"}, "9p, a 得"),
    ({"flowers": "1m"}, "neither a flower nor a special tile"),
    ({"melds_text": "c123m c456m p999p"}, "cannot be melded"),
    ({"melds_text": "c123m c456m p555z"}, "cannot be melded"),
    ({"tile": "9p", "concealed": "234p567s1s9p"}, "a discarded 得 cannot be won on"),
    ({"flags": ("kong_replacement",)}, "needs a self_draw win"),
    ({"by": "self_draw", "flags": ("after_special_kong",)}, "needs kong_replacement"),
    ({"context": {"bao": {"sheng": True}}}, "unknown context.bao field"),
    ({"context": {"bao": {"sheng_phase": 1}}}, "must be true or false"),
    ({"context": {"bao": True}}, "context.bao must be an object"),
])
def test_wenling_rejections(kw, message):
    args = {"concealed": "234p567s11s", "tile": "2p", "by": "discard"} | kw
    with pytest.raises(RecordError, match=message):
        hand(args.pop("concealed"), args.pop("tile"), args.pop("by"), **args)


def test_is_winning_hand_wenling():
    chows = [{"type": "chow", "tiles": t} for t in ("123m", "456m", "789m")]
    assert is_winning_hand("wenling", "234p567s11s", chows, indicator="9p")
    assert is_winning_hand("wenling", "234p567s1s9p", chows, indicator="9p")
    assert not is_winning_hand("wenling", "234p567s12s", chows, indicator="9p")
    assert is_winning_hand("wenling", "1357p2468s136z9p9p9p", chows[:1], indicator="9p")  # 腊子: 3 得


@pytest.mark.parametrize("concealed, tile, by", [
    ("111222333444567m9p9p", "9p", "self_draw"),
    ("111222333444m9p9p678s", "6s", "discard"),
    ("123456789m1234p9p9p67s", "9p", "self_draw"),
    ("112233445566778m9p9p", "9p", "self_draw"),
])
def test_merged_search_finds_the_exhaustive_best_on_flexible_hands(concealed, tile, by):
    from scoring import validate_table
    from scoring.wenling import REGION

    table = validate_table(wenling(concealed, tile, by, melds_text=""))
    merged, _ = REGION.winner_result(table)
    exhaustive, _ = REGION.winner_result(table, exhaustive=True)
    assert merged.total == exhaustive.total and merged.items == exhaustive.items


def test_the_indicator_counts_as_a_physical_tile():
    hands = {1: player("234p567s9p9p", CHOWS), 2: player("9p9p1234567m1234567s")}
    with pytest.raises(RecordError, match="5 copies of 9p"):  # four 9p in hands and the indicator
        score_table(record("wenling", hands, (1, "2p", "discard", 2), indicator="9p"))
    hands[2] = player("9p1234567m1234567s1z")
    assert score_table(record("wenling", hands, (1, "2p", "discard", 2), indicator="9p"))


# -- full tables (audit): every hand given; each seat's total and the net worked out by hand from spec §3 --------
# Totals are (base + 20) × 2^番, 500 at most, rounded up to 10; coins = total / 10. Settlement (§3.5): every
# non-winner pays the winner T_W/10 and, between two non-winners, the lower total pays the difference / 10.
def table(hands: dict, win: tuple, **kw) -> tuple[list[int], list[int]]:
    result = score_table(record("wenling", hands, win, **kw))
    return [p["total"] for p in result["players"]], result["net"]


def test_table_dealer_self_draws_all_triplets_with_a_de():
    # indicator 3s (得 3s; White special; 發 中 字牌). P0 (dealer, East) self-draws 9m.
    # P0: 111p 暗刻 (幺九) 8 + 999m 暗刻 8 + 222p 暗刻 4 + 44m+得 = 444m 暗刻 4 + 中 pung 4 + 55s pair 0 + 自摸 2
    #     = 30 → 50; 番: 中 pung 1 + 对对和 2 (one 得: neither 无得 nor 2 得) = 3 → 400
    # P1 (South): 22z own-wind pair 2 + 666m 暗刻 4 = 6 → 26; 夏/蘭 flower 6f 1 番 → 52 → 60 (its 3s is a 得)
    # P2 (West): 8888s 明杠 8 + 66z 字牌 pair 2 = 10 → 30; 44z (North) pair 0, its 3s a 得 → 30
    # P3 (North): 999p pung 4 + 111m 暗刻 8 + 999s 暗刻 8 + White 4 = 24 → 44; White 1 + 冬 1 = 2 番 → 176 → 180
    # coins 40 | 6, 3, 18: P0 +120; P1 −40 +3 −12; P2 −40 −3 −15; P3 −40 +12 +15
    totals, net = table({0: player("111p999m222p44m3s55s", "p777z"), 1: player("22z666m13579s2468p78m", "", "6f"),
                         2: player("44z1z2357m46p13s66z", "k8888s"), 3: player("111m6z55m8p999s", "p999p c456p", "5z4f")},
                        (0, "9m", "self_draw"), indicator="3s")
    assert totals == [400, 60, 30, 180]
    assert net == [120, -49, -58, -13]


WB_HANDS = {3: player("12233445556s789m", "c678s", "6f8f"), 2: player("11z567m99p777z", "K2222p p111m", "5f"),
            0: player("33z444z1357p248m99s66m", "", "3f"), 1: player("", "p888p", "5z")}


def test_table_edge_or_middle_wait_on_a_discard_dealer_two():
    # dealer 2: P2 East, P3 South, P0 West, P1 North; indicator 1z (得 1z). P3 wins on P2's 3s.
    # P3: the only partition is 123s 234s 456s + 678s chow + 55s; the 3s completes 123s (靠柄) or 234s (嵌档):
    #     2 → 22; no 旁和 (every reading has the wait bonus); 无得 1 + own flower 6f 1 (8f is West's) → 88 → 90
    # P2: 2222p 暗杠 16 + 111m pung (幺九) 4 + 777z 暗刻 (字牌) 8 = 28 → 48; 中 1 + 梅 5f 1 → 192 → 200 (11z: 得)
    # P0: 444z 暗刻 8 + 33z own-wind pair 2 = 10 → 30; 秋 1 番 → 60.  P1 (blank): 888p pung 2 + White 4 → 26 × 2 → 60
    # coins 9 | 6, 6, 20: P0 −9 −14; P1 −9 −14; P2 −9 +28; P3 +27
    totals, net = table(WB_HANDS, (3, "3s", "discard", 2), indicator="1z", dealer=2)
    assert totals == [60, 60, 200, 90]
    assert net == [-23, -23, 19, 27]


BAO = {"sheng_phase": True, "tile_was_sheng": True, "discarder_all_sheng": False, "discarder_tenpai": True}


def test_table_bao_with_equal_non_winners():
    # the same table, P2's 3s a 生牌 in the 生牌 phase: P2 (被包, total 0) pays 3 × 9 to P3, 6 to P0 and 6 to P1,
    # and nothing for the difference between P0 and P1 (both 60)
    totals, net = table(WB_HANDS, (3, "3s", "discard", 2), indicator="1z", dealer=2, context={"bao": BAO})
    assert totals == [60, 60, 0, 90]
    assert net == [6, 6, -39, 27]


def test_table_robbing_a_kong_with_two_de_and_a_flower_lazi():
    # dealer 1: P1 East, P2 South, P3 West, P0 North; indicator 8p (得 8p). P2 robs P1's 补杠 of 7s (P1 keeps 777s).
    # P2: best reading 111m 暗刻 8 + 9m+2 得 = 999m 暗刻 8 + South 222z 暗刻 8 + 567s + 234m chow + 44m pair = 24 → 44;
    #     番: seat-wind triplet 1 + 2 得 1 + 抢杠和 1 = 3 → 352 → 360 (not 自摸; 3f is West's flower).
    #     (2 得 as 8m 9m for a 靠柄 789s-style wait scores less: 18.)
    # P1 (East): 11z own-wind pair 2 + 777s pung 2 = 4 → 24; 春 1 番 → 48 → 50
    # P3 (West): 梅蘭菊竹 laid aside: 腊子 500.  P0 (North, blank): 9999p 明杠 16 → 36; 冬 1 番 → 72 → 80
    # coins 36 | 8, 5, 50: P0 −36 +3 −42; P1 −36 −3 −45; P3 −36 +45 +42; P2 +108
    totals, net = table({2: player("111m44m9m567s222z88p", "c234m", "3f"), 1: player("11z12345678p33s9s", "p777s", "1f"),
                         3: player("13579m2468s1357p2z6z4z", "", "5678f"), 0: player("", "k9999p", "4f")},
                        (2, "7s", "rob_kong", 1), indicator="8p", dealer=1)
    assert totals == [80, 50, 360, 500]
    assert net == [-75, -84, 108, 51]


WE_HANDS = {0: player("999s123p789p66z567m", "p888m", "2f"), 2: player("33z44z4s1357m2p", "p111z p222z"),
            1: player("777z5555p22s1z99m35s2m8s", "", "8f"), 3: player("234567m13p46p578s", "K6666s", "1f")}
WE_OPTIONS = {"discard_triplet_concealed": False, "seat_flower_fan_winner_only": True}


def test_table_discard_triplet_exposed_and_winner_only_seat_flowers():
    # dealer 3: P3 East, P0 South, P1 West, P2 North; indicator 4s (得 4s). P0 wins on P3's 9s (99s + 9s).
    # P0: 999s counts as a 刻子 (幺九) 4 under discard_triplet_concealed false + 888m pung 2 + 66z 字牌 pair 2 = 8
    #     → 28; 无得 1 + own flower 夏 1 (the winner keeps it) → 112 → 120
    # P2 (North): 東 and 南 pungs, 33z + a 得 for West, 44z own-wind pair: 四风会齐, 腊子 500
    # P1 (West): 777z 暗刻 8 + 5555p 暗刻 4 = 12 → 32; 中 1 番 (its own flower 竹 scores nothing here) → 64 → 70
    # P3 (East): 6666s 暗杠 16 → 36 → 40 (its 春 scores nothing here)
    # coins 12 | 7, 50, 4: P0 +36; P1 −12 −43 +3; P2 −12 +43 +46; P3 −12 −3 −46
    totals, net = table(WE_HANDS, (0, "9s", "discard", 3), indicator="4s", dealer=3, options=WE_OPTIONS)
    assert totals == [120, 70, 500, 40]
    assert net == [36, -52, 77, -61]
    # with the defaults: P0's 999s is a 暗刻 8 → 32 × 4 = 128 → 130; P1 gets 竹 → 128 → 130; P3 gets 春 → 80;
    # coins 13 | 13, 50, 8: P0 +39; P1 −13 −37 +5; P2 −13 +37 +42; P3 −13 −5 −42
    totals, net = table(WE_HANDS, (0, "9s", "discard", 3), indicator="4s", dealer=3)
    assert totals == [130, 130, 500, 80]
    assert net == [39, -45, 66, -60]


def test_table_bao_with_unequal_non_winners():
    # the table above with 包: P3 (total 0) pays 3 × 12 to P0, 7 to P1, 50 to P2, and P2 the difference 43
    totals, net = table(WE_HANDS, (0, "9s", "discard", 3), indicator="4s", dealer=3, options=WE_OPTIONS,
                        context={"bao": BAO})
    assert totals == [120, 70, 500, 0]
    assert net == [36, 7, 93, -136]


def test_table_flower_indicator_self_drawn_de():
    # indicator 5f: 6f 7f 8f are 得, 5z 6z 7z are specials, there is no 字牌. P1 (South) self-draws the 得 6f.
    # P1: 123m 456m 789p 234s + 45s+得 (3s or 6s: a two-sided wait) + 22p: 自摸 2 + White 4 = 6 → 26;
    #     番: 旁和 1 + 自摸得 1 + White 1 + own flower 夏 1 = 4 → 416 → 420
    # P0 (East): 111z own-wind 暗刻 8 → 28; seat wind 1 + 春 1 → 112 → 120 (its 7f is a 得)
    # P2 (West): 8888m 暗刻 4 + 33z own-wind pair 2 + 發 中 laid aside 8 = 14 → 34; 2 番 → 136 → 140 (8f: 得)
    # P3 (North): 444z own-wind pung (幺九) 4 → 24; seat wind 1 → 48 → 50
    # coins 42 | 12, 14, 5: P0 −42 −2 +7; P2 −42 +2 +9; P3 −42 −7 −9; P1 +126
    totals, net = table({1: player("123m456m789p234s45s22p6f", "", "2f5z"), 0: player("111z99m7f13579p2468s3z", "", "1f"),
                         2: player("8f8888m33z4z66p179s357m", "", "6z7z"), 3: player("3456p66m33s12p", "p444z c789s")},
                        (1, "6f", "self_draw"), indicator="5f")
    assert totals == [120, 420, 140, 50]
    assert net == [-37, 126, -31, -58]


def test_table_four_winds_winner_and_a_concealed_dragon_kong():
    # indicator 2m (得 2m). P3 (North) wins on P1's 4z: 111z 22z+得 333z 44z 567s + 123p chow: 四风会齐, 500.
    # P0 (East, blank): 暗杠 of 中 (a 字牌): 腊子 500.  P1 (South): 999m 暗刻 8 + 66z 字牌 pair 2 = 10 → 30 (22m: 得)
    # P2 (West, blank): 555m pung 2 + White 4 → 26 × 2 → 60
    # coins 50 | 50, 3, 6: P0 −50 +47 +44; P1 −50 −47 −3; P2 −50 −44 +3; P3 +150
    totals, net = table({3: player("111z22z333z44z567s2m", "c123p"), 0: player("", "K7777z"),
                         1: player("22m999m11s345p678p9p66z"), 2: player("", "p555m", "5z")},
                        (3, "4z", "discard", 1), indicator="2m")
    assert totals == [500, 30, 60, 500]
    assert net == [41, -100, -91, 150]


def test_table_kong_bloom_with_two_de():
    # dealer 2: P2 East, P3 South, P0 West, P1 North; indicator 9s (得 9s). P2 self-draws 7z on a kong replacement.
    # P2: 77z + 得 = 777z 暗刻 (字牌) 8, 4p + 得 = 44p pair, 678m; melds 3333p 暗杠 16, 111m pung 4, 555s pung 2;
    #     自摸 2 = 32 → 52; 番: 中 triplet 1 + 2 得 1 + 杠上开花 1 = 3 → 416 → 420
    #     (44p+2 得 as 444p with 77z 单吊 gives 4 + 2 + 2 = 8 和 but no 中 番: less)
    # P3 (South): 22z own-wind pair 2 → 22; 夏 6f 1 → 44 → 50.  P0 (West): 4444z 明杠 16 + 33z 2 + 888p 4 + 999p 8
    #     = 30 → 50.  P1 (North, blank): 234s chow 0 + two White 8 → 28; 2 番 → 112 → 120
    # coins 42 | 5, 12, 5: P0 −42 −7; P1 −42 +14; P3 −42 −7; P2 +126
    totals, net = table({2: player("678m4p9s9s77z", "K3333p p111m p555s", "3f"), 3: player("22z9s11s456s2345m78m1p2p", "", "6f"),
                         0: player("33z888p999p67p56m2s", "k4444z"), 1: player("", "c234s", "55z")},
                        (2, "7z", "self_draw"), indicator="9s", dealer=2, flags=("kong_replacement",))
    assert totals == [50, 120, 420, 50]
    assert net == [-49, -28, 126, -49]


def test_table_white_always_de():
    # option white_always_de, indicator 3p: 得 = 3p and every White; 發 中 are specials; no 字牌 is left.
    # P0 wins on P2's 2p with 5z + 3p: best reading 2p+得+得 = 234p (two-sided, the 2p at the low end) beside
    #     123s 456s 789s + 678m chow + 11m: 0 + 發 4 = 4 → 24; 旁和 1 + 2 得 1 + 發 1 → 192 → 200
    #     (11m+得 = 111m 8 with 22p 单吊 2: (14 + 20) × 4 = 136 → 140 only)
    # P1 (South): 222z own-wind 暗刻 8 + 999p 暗刻 8 = 16 → 36; seat wind 1 → 72 → 80 (its 55z are 得: nothing)
    # P2 (West): 444z 暗刻 8 + 33z 2 + 88m 0 + 中 中 8 = 18 → 38; 2 番 → 152 → 160.  P3 (blank): 111z pung 4 → 30
    # coins 20 | 8, 16, 3: P1 −20 −8 +5; P2 −20 +8 +13; P3 −20 −5 −13; P0 +60
    totals, net = table({0: player("123456789s11m2p5z3p", "c678m", "6z"), 1: player("55z222z999p459m147p28s"),
                         2: player("33z444z1239m567p56s88m", "", "77z"), 3: player("", "p111z")},
                        (0, "2p", "discard", 2), indicator="3p", options={"white_always_de": True})
    assert totals == [200, 80, 160, 30]
    assert net == [60, -23, 1, -38]


@pytest.mark.parametrize("hands, win, message", [
    ({1: player("234p567s11s", CHOWS, "2f")}, (1, "2f", "self_draw"), "not among"),  # a flower that makes no 腊子
    ({1: player("234p567s11s", CHOWS), 2: player("", "k2222p")}, (1, "2p", "discard", 3), "5 copies of 2p"),
    ({1: player("234p567s11s", CHOWS), 2: player("123m")}, (1, "2p", "discard", 3), "16 for a non-winner"),
    ({1: player("234p567s11s", CHOWS)}, (1, "2p", "discard", 1), "cannot be the winner"),
    ({1: player("234p567s1s9p", CHOWS)}, (1, "9p", "rob_kong", 2), "得"),
])
def test_table_rejections(hands, win, message):
    with pytest.raises(RecordError, match=message):
        score_table(record("wenling", hands, win, indicator="9p"))



# -- audit tables (audit 14): every hand given; totals and net worked out by hand from spec §3 ------------------
def test_table_two_de_for_different_tiles_and_a_single_wait_self_drawn():
    # 得 9s; dealer P0 on a 2-streak (no Wenling item). P1 (South) self-draws 5s: 66z+得 = 發 暗刻 8, 13m+得 = 123m,
    # 456p 789p 234s + 55s 单吊 2 + 自摸 2 → 32; 發 1 + 2 得 1 → 130. P0: 1111z quad = own-wind 暗刻 8 + 中 pair 2;
    # seat wind + 梅 → 120. P2: 1111s 暗杠 32 + 2222p 加杠 8 + 33z own pair 2 → 70. P3: 北 own pung 4 + 555p 暗刻 4
    # + White 4 → 32; 北 + White + 菊 → 256 → 260
    hands = {0: player("1111z9s77z2468m13p678s", "", "5f"), 1: player("66z13m456p789p234s55s9s9s"),
             2: player("33z2z579m46s3p8p", "K1111s a2222p", "2f"), 3: player("88p555p14679m258s", "p444z", "5z7f")}
    totals, net = table(hands, (1, "5s", "self_draw"), indicator="9s", streak=2)
    assert totals == [120, 130, 70, 260]
    assert net == [-22, 39, -37, 20]


def test_table_de_makes_the_seat_wind_triplet_beside_an_exposed_discard_triplet():
    # dealer 1 (P1 East, P2 South, P3 West, P0 North); 得 2p. P2 wins on P3's 中: 22z+得 = South 暗刻 8 (seat wind 1),
    # 777z completed by the discard a 刻子 4 under discard_triplet_concealed false (中 1), 99m → 32 × 4 → 130.
    # P1: 東 own pung 4 + 發 pair 2; seat wind + 春 → 110. P3: 西 own 暗刻 8 + 竹 → 28 × 4 → 120 (2p2p: 得).
    # P0: 5555m 明杠 8 + 冬 → 56 → 60
    hands = {0: player("", "k5555m", "4f"), 1: player("66z247m34689p147s", "p111z", "1f3f"),
             2: player("22z2p777z123s456s99m", "c678m"), 3: player("2p2p333z4z147m159p369s8s", "", "8f")}
    totals, net = table(hands, (2, "7z", "discard", 3), indicator="2p", dealer=1,
                        options={"discard_triplet_concealed": False})
    assert totals == [60, 110, 130, 120]
    assert net == [-24, -9, 39, -6]


def test_table_undeclared_quads_and_a_de_used_as_itself():
    # 得 3m. P0 (East) wins on P3's 6s: 555s 暗刻 4, 567s (the 6s in the middle: 嵌档 2), 123m (得 as itself), 789p,
    # 999m pung 4, 11z own pair 2 = 12 → 32; 梅 1 (a 得 held: no 无得) → 70. P1: 7777z quad = 中 暗刻 8; 中 + 夏 → 120.
    # P2 (West): 暗杠 of its own wind: 腊子 500. P3: 1111p 暗杠 32 + White 4; White → 112 → 120
    hands = {0: player("5555s67s12m3m789p11z", "p999m", "5f2f"), 1: player("7777z3m3m2568p147s29s4z", "", "6f"),
             2: player("", "K3333z"), 3: player("22z468m3469p1348s", "K1111p", "5z")}
    totals, net = table(hands, (0, "6s", "discard", 3), indicator="3m")
    assert totals == [70, 120, 500, 120]
    assert net == [21, -45, 69, -45]


def test_table_honour_de_stands_as_a_character_for_qingyise():
    # dealer 2 (P2 East, P3 South, P0 West, P1 North); 得 1z, an honour. P0 wins on P3's 5m: 123m 234m 456m (5m in the
    # middle: 嵌档 2), 78m+得 = 789m, 99m, 555m pung 2 = 4 → 24; 清一色 4 (the 得 stands as a 萬) → 384 → 390.
    # P1: 44z own pair 2 + 中 暗刻 8; 中 + 菊 → 120 (11z: 得). P2: 南 pung 4; 梅 → 50. P3: 發 明杠 16; 發 → 80
    hands = {0: player("1223344678m5m99m1z", "p555m"), 1: player("11z44z777z258p134679s", "", "7f"),
             2: player("369m134679p258s3z", "p222z", "5f"), 3: player("127m258p35679s34z", "k6666z")}
    totals, net = table(hands, (0, "5m", "discard", 3), indicator="1z", dealer=2)
    assert totals == [390, 120, 50, 80]
    assert net == [117, -28, -49, -40]


def test_table_kong_bloom_on_a_flower_replacement():
    # 得 9s. P3 (North) self-draws 5s on a flower replacement (kong_replacement without a kong): 123p 456p 789m 234s
    # 567s + 88m, two-sided: 自摸 2 → 22; 旁和 + 无得 + 冬 + 杠上开花 → 352 → 360. P0: 999p 暗刻 8 + 11z own pair 2;
    # 春 + 梅 → 120. P1: 7777p 加杠 8 + White 4; White + 夏 → 128 → 130. P2: 33z own pair 2 + 發 暗刻 8; 發 + 竹 → 120
    hands = {0: player("112234z999p8p135m246s", "", "1f5f"), 1: player("469m13p137899s24z", "a7777p", "6f5z"),
             2: player("33z666z258m248p13569s", "", "8f"), 3: player("123p456p789m234s567s88m", "", "4f3f")}
    totals, net = table(hands, (3, "5s", "self_draw"), indicator="9s", flags=("kong_replacement",))
    assert totals == [120, 130, 120, 360]
    assert net == [-37, -34, -37, 108]


def test_table_robbed_kong_paired_with_a_de_as_a_fifth_copy():
    # 得 4p. P1 (South) robs P2's 补杠 of 7s (P2 keeps 777s): 7s + 得 as a fifth 7s, 单吊 2, + 999m pung 4 → 26;
    # 抢杠和 + 夏 → 104 → 110. P0: 南 暗杠 32 (not its own wind: no 腊子) + two White 8; 2 番 → 240.
    # P2 (West): 777s pung 2 + 3333z quad = own-wind 暗刻 8; seat wind → 60. P3: a chow; 菊 → 40
    hands = {0: player("369m1357p1468s16z", "K2222z", "55z"), 1: player("4p7s123m456m789p234s", "p999m", "6f"),
             2: player("4p4p3333z258m16p59s", "p777s"), 3: player("", "c678p", "7f")}
    totals, net = table(hands, (1, "7s", "rob_kong", 2), indicator="4p")
    assert totals == [240, 110, 60, 40]
    assert net == [27, 33, -27, -33]


def test_table_de_makes_a_middle_wait_on_a_discard():
    # 得 8s. P2 (West) wins on P1's 5p: 4p + 得 as 6p + 5p = 456p 嵌档 2, 234m 567m 123s, 99s, 111p pung 4 → 26;
    # 竹 → 52 → 60. P0 (East): 中 pung 4 + 11z own pair 2 + 999p 暗刻 8 + White 4 → 38; 中 + White → 160 (8s8s: 得).
    # P1: 666m 暗刻 4; 夏 → 48 → 50. P3 (North): 北 own 暗刻 8 + 發 pair 2; seat wind → 60
    hands = {0: player("8s8s11z3z999p7p35m46s", "p777z", "5z"), 1: player("666m148m2568p35679s2z", "", "2f5f"),
             2: player("4p8s5p234m567m123s99s", "p111p", "8f"), 3: player("444z66z3579m1346p247s")}
    totals, net = table(hands, (2, "5p", "discard", 1), indicator="8s")
    assert totals == [160, 50, 60, 60]
    assert net == [15, -18, 18, -15]


def test_table_hunyise_with_a_de_seat_wind_triplet_and_a_single_wait():
    # dealer 3 (P3 East, P0 South, P1 West, P2 North); 得 3s. P1 wins on P0's 發: 33z+得 = West 暗刻 8, 66z 發 pair 2
    # + 单吊 2, 234p 456p 789p + 123p chow → 32; seat wind + 混一色 2 → 256 → 260 (666z + 33z pair: 240). P0: 22z own
    # pair 2 → 30 (3s: 得). P2: 北 pung 4 + 中 pung 4; 北 + 中 + 冬 → 224 → 230. P3: 東 明杠 16; 東 + 春 + 梅 → 290
    hands = {0: player("22z1467m13589p1369s3s"), 1: player("33z3s234p456p789p66z", "c123p"),
             2: player("1358m2467p59s", "p444z p777z", "4f"), 3: player("2589m6p124578s47z", "k1111z", "1f5f")}
    totals, net = table(hands, (1, "6z", "discard", 0), indicator="3s", dealer=3)
    assert totals == [30, 260, 230, 290]
    assert net == [-72, 78, -12, 6]


def test_table_two_de_pair_as_the_own_seat_wind_beside_two_non_winner_lazi():
    # 得 9m. P0 (East) self-draws 5p: 123s 456s 789s 567p (two-sided) + 234m chow, and the 得 pair stands for 東, its
    # own seat wind (§1 Wilds: not limited by the copies in play), 2 + 自摸 2 → 24; 旁和 + 2 得 + 春 → 192 → 200.
    # P1 (South): 東 pung, 西 明杠, 北 暗刻, 南 + 得 as the own-wind pair: 四风会齐, 腊子 500. P2: 4 White: 腊子 500.
    # P3 (North): 7777z quad = 中 暗刻 8; 中 + 冬 + 菊 → 224 → 230
    hands = {0: player("123s456s789s567p9m9m", "c234m", "1f"), 1: player("2444z69m138p7s", "p111z k3333z"),
             2: player("1578m24689p23589s16z", "", "5555z"), 3: player("47777z6z135m239p1469s", "", "4f7f")}
    totals, net = table(hands, (0, "5p", "self_draw"), indicator="9m")
    assert totals == [200, 500, 500, 230]
    assert net == [60, 7, 7, -74]


def test_table_flower_groups_indicator_with_winner_only_seat_flowers():
    # indicator 3f, flower_groups 1357f/2468f: 得 1f 5f 7f; 5z 6z 7z special, so no 字牌. P2 (West) wins on P0's 6s:
    # 24p+得 = 234p, 11m+得 = 111m 暗刻 8, 678s 345m + 789m chow, 99s; 發 4 → 32; 發 + 竹 + 2 得 → 256 → 260.
    # P0: 東 own 暗刻 8 + White 4; 2 番 → 130 (7f: 得). P1: 999p pung 4 → 30 (winner-only seat flowers: 夏 蘭 nothing).
    # P3 (North): 44z own pair 2 + 中 4; 中 → 52 → 60 (冬 nothing)
    hands = {0: player("111234z7f258m369p147s", "", "5z"), 1: player("469m1357p123458s", "p999p", "2f6f"),
             2: player("24p1f678s345m11m5f99s", "c789m", "6z8f"), 3: player("144z3578m12468p3679s", "", "4f7z")}
    options = {"flower_groups": ["1357f", "2468f"], "seat_flower_fan_winner_only": True}
    totals, net = table(hands, (2, "6s", "discard", 0), indicator="3f", options=options)
    assert totals == [130, 30, 260, 60]
    assert net == [-9, -39, 78, -30]


def test_table_bao_payer_holding_a_concealed_kong():
    # 得 6m; 包 applies. P3 (North) wins on P1's 3m: 123p 789s 345m 789m + 567p chow, 11s, two-sided:
    # 旁和 + 无得 + 菊 → 160. P0: 555p 暗刻 4; 春 → 50. P2: 中 pung 4 + White 4; 中 + White + 秋 → 224 → 230.
    # P1 (被包; its 9999p 暗杠 does not matter: T = 0) pays P3 3 × 16, P0 5, P2 23, and P2 the difference 18
    hands = {0: player("145558p248m369s2347z", "", "1f"), 1: player("66m127m2368p245s1z", "K9999p"),
             2: player("3459m78p13468s24z", "p777z", "5z3f"), 3: player("123p789s11s45m3m789m", "c567p", "7f")}
    totals, net = table(hands, (3, "3m", "discard", 1), indicator="6m", context={"bao": BAO})
    assert totals == [50, 0, 230, 160]
    assert net == [5, -94, 41, 48]


PE_HANDS = {0: player("2s2s1111m38m456p9s1347z"), 1: player("234m567m789p4s5s6s6s2s", "c123p", "2f5z"),
            2: player("1379s469m2358p26z", "k8888s", "3f"), 3: player("", "p777z")}


def test_table_patterns_exclude_de_voids_panghu_for_a_middle_wait():
    # 得 2s. P1 (South) wins on P3's 5s with 4s5s6s6s+得: 345s (得 as 3s) + 66s is 旁和 (White 4 → 24 × 8 → 200), but
    # patterns_exclude_de voids 旁和 with a 得 in a set (→ 100); best 456s (嵌档 2) + 6s+得 pair: 26; 夏 + White → 110.
    # P0: 1111m quad = 暗刻 8 → 30. P2: 8888s 明杠 8; 秋 → 60. P3: 中 pung 4; 中 → 50
    totals, net = table(PE_HANDS, (1, "5s", "discard", 3), indicator="2s", options={"patterns_exclude_de": True})
    assert totals == [30, 110, 60, 50]
    assert net == [-16, 33, -7, -10]


def test_table_panghu_with_a_de_in_a_set_by_default():
    # the same table with default options: the 345s (得 as 3s) + 66s reading keeps 旁和: White 4 → 24;
    # 旁和 + 夏 + White → 192 → 200
    totals, net = table(PE_HANDS, (1, "5s", "discard", 3), indicator="2s")
    assert totals == [30, 200, 60, 50]
    assert net == [-25, 60, -16, -19]


def test_table_winner_with_two_heavy_kongs_on_the_last_tile():
    # 得 5m; dealer P0 on a 3-streak; last_tile has no Wenling item. P2 (West) self-draws 4p: 北 暗杠 32 (not its own
    # wind: no 腊子) + 9999p 加杠 16 + 678m 234p (two-sided) 123s 77s + 自摸 2 = 50 → 70; 无得 + 秋 → 280. P0: 5555p
    # 暗杠 16 + White 4; White → 80. P1: 南 加杠 16; seat wind + 夏 → 150. P3: 發 pair 2 + 中 暗刻 8; 中 → 60
    hands = {0: player("13558m678p249s13z", "K5555p", "5z"), 1: player("24679m138p1568s3z", "a2222z", "6f"),
             2: player("678m23p4p77s", "K4444z a9999p c123s", "3f"), 3: player("166z777z3m2467p23579s")}
    totals, net = table(hands, (2, "4p", "self_draw"), indicator="5m", streak=3, flags=("last_tile",))
    assert totals == [80, 150, 280, 60]
    assert net == [-33, -12, 84, -39]


def test_table_three_de_lazi_with_the_win_tile_in_a_meld():
    # 得 9p. P1 holds three 得: 腊子 500 with no complete hand (§3.3 Step 1), self-drawn with win.tile the 5m of its
    # 555m pung. P0 (East): own-wind pung 4; 1 番 → 50. P2: White 4; 1 番 → 50. P3 (blank) → 20.
    # coins 50 | 5, 5, 2: P0 −50 +3, P2 −50 +3, P3 −50 −3 −3
    hands = {0: player("", "p111z"), 1: player("9p9p9p1357m2468s137z", "p555m"), 2: player("", "", "5z")}
    totals, net = table(hands, (1, "5m", "self_draw"), indicator="9p")
    assert totals == [50, 500, 50, 20]
    assert net == [-47, 150, -47, -56]


SD_HANDS = {0: player("111s888p12p33m66z4m4m", "p999m"), 1: player("1257m2469p3579s2223z", "", "2f"),
            2: player("", "p333z", "5z"), 3: player("4m368m1357p2468s1477z")}


def test_table_self_drawn_de_on_an_edge_wait_and_a_de_dragon_triplet():
    # 得 4m. P0 (East) self-draws a 得: the drawn 得 as 3p beside 12p (靠柄 2), 66z+得 = 發 暗刻 8, 111s 暗刻 8,
    # 888p 暗刻 4, 999m pung 4, 33m, 自摸 2 = 28 → 48; 發 + 2 得 + 自摸得 → 384 → 390. P1 (South): own-wind 暗刻 8;
    # seat wind + 夏 → 120. P2 (West): 西 pung 4 + White 4; 2 番 → 120. P3: 中 pair 2 → 30 (its 4m: 得)
    totals, net = table(SD_HANDS, (0, "4m", "self_draw"), indicator="4m")
    assert totals == [390, 120, 120, 30]
    assert net == [117, -30, -30, -57]


def test_table_heaven_flag_changes_nothing_in_wenling():
    # the previous table (dealer P0 self-draws a 得) with the heaven flag: Wenling has no 天和 item, so the totals
    # and the net are unchanged
    totals, net = table(SD_HANDS, (0, "4m", "self_draw"), indicator="4m", flags=("heaven",))
    assert totals == [390, 120, 120, 30]
    assert net == [117, -30, -30, -57]
