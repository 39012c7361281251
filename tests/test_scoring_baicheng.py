"""Baicheng 白城 (spec §6): win conditions, 夹胡, 宝, one hand per 番 item, payers' terms, kongs, options.

Unless a test says otherwise: the dealer is seat 0, the winner is seat 1 and wins on P2's discard, no 宝 is
given, the winner holds pung 555p and chow 234m (not 门清) and 8 concealed tiles; the other hands are blank
(no melds, so 门清). The base hand 678s 123m 88p won on 8s is BC1 (屁和): F = 0, so the dealer and the
discarder pay 2 and P3 pays 1.
"""
import pytest
from hypothesis import HealthCheck, given, settings

from scoring import is_winning_hand, score_table
from tests.records import melds, player, record, rejected, winner_record
from tests.strategies import legal_tables

MELDS = "p555p c234m"


def baicheng(concealed: str, tile: str, by: str = "discard", *, melds_text: str = MELDS, **kw) -> dict:
    return winner_record("baicheng", concealed, tile, by, melds_text=melds_text, **kw)


def net(concealed: str, tile: str, by: str = "discard", **kw) -> list[int]:
    return score_table(baicheng(concealed, tile, by, **kw))["net"]


def fan(concealed: str, tile: str, by: str = "discard", **kw) -> int:
    result = score_table(baicheng(concealed, tile, by, **kw))
    return result["players"][result["winner"]]["fan"]


def rules(concealed: str, tile: str, by: str = "discard", **kw) -> list[str]:
    result = score_table(baicheng(concealed, tile, by, **kw))
    return [i["rule"] for i in result["players"][result["winner"]]["items"]]


# -- win conditions ---------------------------------------------------------------------------------------------
def test_plain_win_pays_by_the_payers_terms():
    assert rules("678s123m88p", "8s") == []
    assert net("678s123m88p", "8s") == [-2, 5, -2, -1]


def test_each_payers_terms_are_items_of_that_payer():
    """Every number in a payment is an item (table-format.md): the base and each payer's own 番."""
    result = score_table(baicheng("678s123m88p555p234m", "8s", melds_text=""))
    payers = {p["seat"]: [(i["rule"], i["value"], i["unit"]) for i in p["items"]] for p in result["players"]}
    assert payers[0] == [("胡牌", 1, "底"), ("庄", 1, "番"), ("背靠背", 1, "番")]
    assert payers[2] == [("胡牌", 1, "底"), ("点炮", 1, "番"), ("背靠背", 1, "番")]
    assert payers[3] == [("胡牌", 1, "底"), ("背靠背", 1, "番")]
    linear = score_table(baicheng("678s123m88p", "8s", options={"model": "linear", "di": 2}))["players"]
    assert [(i["rule"], i["value"]) for i in linear[0]["items"]] == [("庄四角", 0.8)]


def test_the_winners_formula_says_what_f_is():
    assert score_table(baicheng("678s123m88p", "8s"))["players"][1]["formula"] == (
        "the winner's 番 F = 0; each payer pays di × 2^(F + 庄 + 点炮 + 背靠背)")


def test_three_suits_needed():
    assert "三门全" in rejected(baicheng("678p123m88p", "8p"))


def test_a_terminal_or_honour_needed():
    assert "幺九" in rejected(baicheng("678s234m88p", "8s", melds_text="p555p c345m"))


def test_a_triplet_needed():
    assert "有刻" in rejected(baicheng("678s123m88p", "8s", melds_text="c567p c234m"))


@pytest.mark.parametrize("melds_text", ["K5555p c234m", "w1234z c234m", "b555p c234m"])
def test_kongs_whirlwinds_and_bao_pungs_are_triplets(melds_text):
    assert sum(net("678s123m88p", "8s", melds_text=melds_text)) == 0


def test_a_concealed_triplet_counts():
    assert rules("678s123m888p99m", "9m", melds_text="c567p") == ["夹胡"]  # 888p 暗刻; 单吊 on 9m


def test_a_dragon_pair_substitutes_for_a_triplet():
    assert fan("678s123m55z", "8s", melds_text="c567p c234m") == 0


def test_dragon_set_is_a_set_and_no_triplet():
    assert "有刻" in rejected(baicheng("567z678s99m", "5z", melds_text="c567p c234m"))
    assert fan("567z678s99m", "5z", melds_text="p555p c234m") == 1  # 中發白 completed: 夹胡
    assert fan("678s99m", "9m", melds_text="p555p c234m c567z") == 1  # a 567z chow meld


def test_hard_yaojiu_option():
    # 1m, the winning tile, is the only terminal: a win by default (夹胡 by rule 5), none with 硬幺
    assert rules("123m456p678s55s", "1m", melds_text="p444s") == ["夹胡"]
    assert "幺九" in rejected(baicheng("123m456p678s55s", "1m", melds_text="p444s", options={"hard_yaojiu": True}))


# -- 夹胡 -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("concealed, tile, jiahu", [
    ("678s123m88p", "7s", True),    # 坎: 6s8s + 7s
    ("789s123m88p", "7s", True),    # 边: 89s + 7s
    ("123m789s88p", "3m", True),    # 边: 12m + 3m
    ("678s123m88p", "8p", True),    # 单吊
    ("678s123m88p", "6s", False),   # two-sided 78s
    ("678s123m99p", "1m", False),   # two-sided 23m (1m is not the only terminal)
])
def test_one_tile_waits(concealed, tile, jiahu):
    assert ("夹胡" in rules(concealed, tile)) == jiahu


def test_four_tile_run_single_wait_is_no_jiahu():
    # 2345m waiting on 2m or 5m: 22m + 345m or 234m + 55m
    assert "夹胡" not in rules("22345m678s", "2m", melds_text="p555p c789p")
    assert "夹胡" not in rules("23455m678s", "5m", melds_text="p555p c789p")
    assert "夹胡" in rules("22678m678s", "2m", melds_text="p555p c789p")
    assert "夹胡" not in rules("678s123m888p99s", "9s", melds_text="c567p")  # 6789s on 9s


def test_missing_yaojiu_single_terminal_is_jiahu():
    # 23m + 1m is two-sided, but the hand holds no other terminal or honour
    assert rules("123m456p678s55s", "1m", melds_text="p444s") == ["夹胡"]


# -- 番 items ----------------------------------------------------------------------------------------------------
def test_self_draw():
    assert rules("678s123m88p", "8s", "self_draw") == ["自摸"]
    assert net("678s123m88p", "8s", "self_draw") == [-4, 8, -2, -2]


def test_yaoji_holds_1s():
    assert "幺鸡" in rules("123s678s88p", "8s", melds_text="p555p c234m")
    assert fan("123s678s88p", "8s", melds_text="p555p c234m") == 1


def test_kong_replacement():
    kw = {"melds_text": "k5555p c234m", "flags": ("kong_replacement",)}
    assert rules("678s123m88p", "8s", "self_draw", **kw) == ["自摸", "杠开", "明杠"]  # the kong is paid apart


def test_standing_concealed_winner_and_back_to_back():
    # 门清 winner (站立 +1); the blank payers are 门清 too (背靠背 +1 each)
    assert rules("678s123m88p555p234m", "8s", melds_text="") == ["站立"]
    assert net("678s123m88p555p234m", "8s", melds_text="") == [-8, 20, -8, -4]
    # a payer with a claimed meld is not 门清
    hands = {1: player("678s123m88p555p234m"), 3: player("", "p777z")}
    assert score_table(record("baicheng", hands, (1, "8s", "discard", 2)))["net"] == [-8, 18, -8, -2]


def test_concealed_kong_keeps_standing():
    assert "站立" in rules("678s123m88p234m", "8s", melds_text="K5555p")


def test_whirlwind_keeps_standing_unless_the_option():
    assert "站立" in rules("678s123m88p234m", "8s", melds_text="w1234z")
    assert "站立" not in rules("678s123m88p234m", "8s", melds_text="w1234z",
                               options={"whirlwind_keeps_menqing": False})


def test_beikaobei_always_option():
    assert net("678s123m88p", "8s", options={"beikaobei_always": True}) == [-4, 10, -4, -2]


def test_double_float_all_triplets_won_on_a_triplet():
    kw = {"melds_text": "p111m p999p p666z"}
    assert rules("55577s", "5s", **kw) == ["双飘"]
    assert net("55577s", "5s", **kw) == [-8, 20, -8, -4]


def test_single_float_replaces_jiahu():
    kw = {"melds_text": "p111m p999p p555s p666z"}
    assert rules("77s", "7s", **kw) == ["单飘"]
    assert rules("77s", "7s", options={"danpiao_plus_jiahu": True}, **kw) == ["夹胡", "单飘"]
    bc6 = baicheng("77s", "7s", seat=3, source=0, options={"danpiao_plus_jiahu": True}, **kw)
    assert score_table(bc6)["net"] == [-64, -16, -16, 96]


def test_rob_kong_is_paid_by_the_robbed_player_as_discarder():
    assert rules("678s123m88p", "8s", "rob_kong", source=3) == ["抢杠"]
    assert net("678s123m88p", "8s", "rob_kong", source=3) == [-4, 10, -2, -4]
    robbed = score_table(baicheng("678s123m88p", "8s", "rob_kong", source=3))["players"][3]["items"]
    assert "discarded the winning tile, or was robbed of the kong" in [item["name"] for item in robbed]
    assert fan("678s123m88p", "8s", "rob_kong", source=3, options={"rob_kong_fan": 2}) == 2
    assert fan("678s123m88p", "8s", "rob_kong", source=3, options={"rob_kong_fan": 0}) == 0


# -- 宝 ----------------------------------------------------------------------------------------------------------
def test_drawn_bao_is_a_wild():
    # 宝 9m drawn: it stands for 8p (单吊 88p)
    kw = {"indicator": "9m", "flags": ("bao_draw",)}
    assert rules("678s123m8p9m", "9m", "self_draw", **kw) == ["自摸", "夹胡"]
    assert rules("678s123m8p9m", "9m", "self_draw", options={"mobao_fan": 1}, **kw) == ["自摸", "夹胡", "摸宝"]
    assert "not a legal win" in rejected(baicheng("678s123m8p9m", "9m", "self_draw", indicator="9m"))


def test_bao_in_bao():
    # 宝 7s: self-drawn 7s into 68s (夹胡)
    assert rules("678s123m88p", "7s", "self_draw", indicator="7s") == ["自摸", "夹胡", "宝中宝"]
    assert rules("678s123m88p", "7s", "self_draw", indicator="7s", flags=("bao_draw",)) == ["自摸", "夹胡", "宝中宝"]
    assert rules("678s123m88p", "7s", "self_draw", indicator="7s", options={"baozhongbao_fan": 2}) == \
        ["自摸", "夹胡", "宝中宝"]
    assert fan("678s123m88p", "7s", "self_draw", indicator="7s", options={"baozhongbao_fan": 2}) == 4
    assert "宝中宝" not in rules("678s123m88p", "7s", indicator="7s")  # on a discard
    items = score_table(baicheng("678s123m88p", "7s", "self_draw", indicator="7s"))["players"][1]["items"]
    assert "宝 in 宝: the 宝 kind self-drawn into a 夹胡" in [i["name"] for i in items]  # 宝 as the page says it


def test_three_bao_in_hand_pay_as_a_concealed_kong():
    hands = {1: player("678s123m88p", MELDS), 3: player("999m1234567s11z9p")}
    rec = record("baicheng", hands, (1, "8s", "discard", 2), indicator="9m")
    assert score_table(rec)["net"] == [-2 - 10, 5 - 10, -2 - 10, -1 + 30]


# -- payers -------------------------------------------------------------------------------------------------------
def test_dealer_winner_raises_everyone():
    result = score_table(baicheng("678s123m88p", "8s", seat=0, source=2))
    assert result["net"] == [8, -2, -4, -2]
    # a payer who is no dealer is raised because the dealer is involved (和庄有关), not named the dealer
    assert [(i["rule"], i["name_zh"]) for i in result["players"][3]["items"]] == [("胡牌", "胡牌"), ("庄", "和庄有关")]


def test_discarder_alone_pays_with_the_option():
    assert net("678s123m88p", "8s", options={"discard_payer": "discarder"}) == [0, 2, -2, 0]
    assert net("678s123m88p", "8s", "self_draw", options={"discard_payer": "discarder"}) == [-4, 8, -2, -2]


def test_linear_model():
    assert net("678s123m88p", "8s", options={"model": "linear"}) == [-1, 3, -1, -1]
    # F = 3 (自摸 夹胡 幺鸡) for the dealer: ⌈0.4 × 4⌉ = 2 from each; with di 5: ⌈2 × 4⌉ = 8
    kw = {"seat": 0, "melds_text": "p999m", "options": {"model": "linear"}}
    assert score_table(baicheng("123789s456p33m", "5p", "self_draw", **kw))["net"] == [6, -2, -2, -2]
    kw["options"] = {"model": "linear", "di": 5}
    assert score_table(baicheng("123789s456p33m", "5p", "self_draw", **kw))["net"] == [24, -8, -8, -8]
    kw["options"] = {"model": "linear", "di": 999_999}  # the reason's sum digit for digit, not 1.6e+06
    reason = score_table(baicheng("123789s456p33m", "5p", "self_draw", **kw))["payments"][0]["reason"]
    assert reason.startswith("胡牌 ⌈1599998.4 元⌉ = 1599999 元")


def test_stake_doubles_from_di():
    assert net("678s123m88p", "8s", options={"di": 3}) == [-6, 15, -6, -3]


# -- kongs ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("meld, each", [("k1111z", 5), ("a1111z", 5), ("K1111z", 10), ("w1234z", 5), ("b777z", 5),
                                        ("p777z", 0)])
def test_kong_payments_from_each_other_player(meld, each):
    hands = {1: player("678s123m88p", MELDS), 3: player("", meld)}
    result = score_table(record("baicheng", hands, (1, "8s", "discard", 2)))
    assert result["net"] == [-2 - each, 5 - each, -2 - each, -1 + 3 * each]


def test_kongs_are_paid_on_a_drawn_hand_unless_the_option():
    hands = {3: player("", "K1111z"), 1: player("", "k9999m")}
    drawn = record("baicheng", hands, None)
    assert score_table(drawn)["net"] == [-15, 5, -15, 25]
    drawn["options"] = {"kong_pay_on_draw": False}
    assert score_table(drawn)["net"] == [0, 0, 0, 0]


def test_kong_payments_scale_with_di():
    hands = {1: player("678s123m88p", "p555p k4444p"), 3: player("", "K1111z")}
    result = score_table(record("baicheng", hands, (1, "8s", "discard", 2), options={"di": 2}))
    assert result["net"] == [-4 - 10 - 20, 10 + 30 - 20, -4 - 10 - 20, -2 - 10 + 60]


# -- validation -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kw, message", [
    ({"flowers": "1f"}, "no flowers"),
    ({"flowers": "1m" * 60_000}, ".flowers holds 1m1m1m1m1m1m1m1m…: baicheng rules have no flowers"),  # a line
    ({"indicator": "1f"}, "no flowers"),
    ({"concealed": "678s123m8p1f"}, "flower"),
    ({"by": "self_draw", "flags": ("bao_draw",), "indicator": "9m"}, "needs win.tile to be the 宝 indicator 9m"),
    ({"flags": ("bao_draw",), "indicator": "8s"}, "needs a self_draw"),
    ({"by": "self_draw", "flags": ("kong_replacement",)}, "kong or whirlwind"),
    ({"melds_text": "p555p w1123z"}, "not a whirlwind"),
    ({"concealed": "678s123m88p8p"}, "need 14 for the winner"),
    ({"options": {"model": "flat"}}, "model"),
    ({"options": {"rob_kong_fan": 9}}, "rob_kong_fan must be a whole number from 0 to 8"),
])
def test_baicheng_rejections(kw, message):
    args = {"concealed": "678s123m88p", "tile": "8s", "by": "discard"} | kw
    assert message in rejected(baicheng(args.pop("concealed"), args.pop("tile"), args.pop("by"), **args))


def test_only_a_pung_can_be_a_bao_pung():
    rec = baicheng("678s123m88p", "8s")
    rec["players"][1]["melds"][1]["bao"] = True
    assert "only a pung can be marked bao" in rejected(rec)


def test_is_winning_hand_baicheng():
    assert is_winning_hand("baicheng", "678s123m88p555p234m", [])
    assert is_winning_hand("baicheng", "678s123m88p", melds("w1234z c567z"))
    assert not is_winning_hand("baicheng", "678s123m88p567p234m", [])  # no 刻


# -- properties --------------------------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(legal_tables("baicheng"))
def test_generated_baicheng_hand_payments_are_di_times_powers_of_two(rec):
    result = score_table(rec)
    di = rec["options"].get("di", 1)
    hand = [p["amount"] for p in result["payments"] if p["reason"].startswith("胡牌")]
    assert bool(hand) == (rec["win"] is not None)
    if rec["options"].get("model", "doubling") == "doubling":
        assert all(a % di == 0 and (a // di) & (a // di - 1) == 0 for a in hand)


# -- audit tables: whole hands computed by hand from spec §6, one per assertion ------------------------------------
def _net(hands, win, **kw) -> list[int]:
    return score_table(record("baicheng", hands, win, **kw))["net"]


def test_table_dealer_double_float_self_drawn():
    # pungs 111m 999p 777z, 333s completed by the self-drawn 3s: F = 自摸 1 + 双飘 2 = 3; the dealer wins, so each
    # pays 2^(3 + 1) = 16 (no 站立, so no 背靠背)
    hands = {0: player("333s55s", "p111m p999p p777z")}
    assert _net(hands, (0, "3s", "self_draw")) == [48, -16, -16, -16]


def test_table_standing_self_draw_with_concealed_kongs_and_mixed_payers():
    # P2 门清 with 暗杠 8888m self-draws 5s (two-sided 67s): F = 自摸 + 站立 = 2. Dealer P0 (blank, 门清) pays
    # 2^(2+1+1) = 16; P1 (a chow) 2^2 = 4; P3 (only a 暗杠, 门清) 2^3 = 8. Kongs apart: P2's and P3's 暗杠, 10 from each
    # other. Net: P0 -16-20, P1 -4-20, P2 28+30-10, P3 -8+30-10
    hands = {2: player("123p456p567s99s", "K8888m"), 1: player("", "c789p"), 3: player("", "K1111z")}
    assert _net(hands, (2, "5s", "self_draw")) == [-36, -24, 48, 12]


def test_table_drawn_bao_completes_the_dragon_set():
    # 宝 3z drawn (摸宝) stands for 7z: 中發白 completed, 夹胡; F = 自摸 + 夹胡 = 2 (no 宝中宝: it is not its own
    # kind). P0 (dealer) 2^3 = 8, P2 P3 2^2 = 4; mobao_fan 1 makes F = 3: 16 and 8
    hands = {1: player("56z3z123p456s88s", "p999m")}
    kw = {"indicator": "3z", "flags": ("bao_draw",)}
    assert _net(hands, (1, "3z", "self_draw"), **kw) == [-8, 16, -4, -4]
    assert _net(hands, (1, "3z", "self_draw"), options={"mobao_fan": 1}, **kw) == [-16, 32, -8, -8]


def test_table_bao_in_bao_on_an_edge_wait():
    # 宝 3m; P3 self-draws 3m into 12m (边): F = 自摸 + 夹胡 + 宝中宝 = 3. Dealer P1 2^4 = 16, P0 P2 2^3 = 8
    hands = {3: player("123m456s789s99s", "p777p")}
    assert _net(hands, (3, "3m", "self_draw"), indicator="3m", dealer=1) == [-8, -16, -8, 32]


def test_table_bao_in_bao_on_a_dragon():
    # 宝 5z; 67z + self-drawn 5z: F = 自摸 + 夹胡 + 宝中宝 = 3. Dealer P2 16, P0 P3 8
    hands = {1: player("567z123m456p11m", "p999s")}
    assert _net(hands, (1, "5z", "self_draw"), indicator="5z", dealer=2) == [-8, 32, -16, -8]


def test_table_standing_discard_win_doubling_and_linear():
    # P1 门清 (白 pair is the 刻) wins on the dealer P0's 5p (坎): F = 夹胡 + 站立 = 2. P0: dealer, discarder,
    # 背靠背 -> 2^5 = 32; P2 (blank, 门清) 2^3 = 8; P3 (a pung) 2^2 = 4.
    # Linear: P0 ⌈0.4 × (1 + 4)⌉ = 2, P2 ⌈0.2 × (1 + 3)⌉ = 1, P3 ⌈0.2 × (1 + 2)⌉ = 1
    hands = {1: player("123m789m456p678s55z"), 3: player("", "p777z")}
    assert _net(hands, (1, "5p", "discard", 0)) == [-32, 44, -8, -4]
    assert _net(hands, (1, "5p", "discard", 0), options={"model": "linear"}) == [-2, 4, -1, -1]


def test_table_robbed_kong_of_the_dealer():
    # P2 robs the dealer P0's 补杠 of 7s (recorded as pung 777s) into 89s (边): F = 抢杠 2 (option) + 夹胡 + 幺鸡
    # (1s in chow 123s) = 4. P0: dealer + discarder -> 2^6 = 64; P1 P3 2^4 = 16
    hands = {2: player("456p789s66s", "c123s p999m"), 0: player("", "p777s")}
    assert _net(hands, (2, "7s", "rob_kong", 0), options={"rob_kong_fan": 2}) == [-64, -16, 96, -16]


def test_table_drawn_hand_settles_every_kind_of_kong():
    # 宝 2m: P0 叉宝 pung 5 from each, P1 旋风杠 5, P2 three 宝 in hand (暗杠) 10, P3 明杠 5.
    # P0 +15-5-10-5, P1 +15-5-10-5, P2 +30-15, P3 +15-5-5-10; 黄庄黄杠: nothing
    hands = {0: player("", "b555p"), 1: player("", "w1234z"), 2: player("222m345p678s99p11z"), 3: player("", "k9999s")}
    assert _net(hands, None, indicator="2m") == [-5, -5, 15, -5]
    assert _net(hands, None, indicator="2m", options={"kong_pay_on_draw": False}) == [0, 0, 0, 0]


def test_table_dealer_single_float_with_three_kongs():
    # 明杠 1111m, 暗杠 9999p, pung 222s, 旋风杠, 单吊 on a self-drawn 白: F = 自摸 + 单飘 3 = 4 -> 2^5 = 32 each;
    # kongs 5 + 10 + 5 = 20 from each. With danpiao_plus_jiahu F = 5: 64 each
    hands = {0: player("55z", "k1111m K9999p p222s w1234z")}
    assert _net(hands, (0, "5z", "self_draw")) == [96 + 60, -52, -52, -52]
    assert _net(hands, (0, "5z", "self_draw"), options={"danpiao_plus_jiahu": True}) == [192 + 60, -84, -84, -84]


def test_table_three_bao_in_the_winners_hand():
    # 宝 9m; P1 门清 holds 999m, wins on P3's 8s (单吊 88s, 夹胡): F = 夹胡 + 站立 = 2, every payer blank (门清):
    # P0 2^(2+1+1) = 16, P3 2^(2+1+1) = 16, P2 2^3 = 8; the three 宝 are an 暗杠: 10 from each
    hands = {1: player("999m123p456p678s88s")}
    assert _net(hands, (1, "8s", "discard", 3), indicator="9m") == [-26, 70, -18, -26]


def test_table_double_float_on_the_dealers_discard_at_five_di():
    # 555s completed by P0's 5s: F = 双飘 2; P0 (dealer, discarder) 5 × 2^4 = 80, P2 P3 5 × 2^2 = 20
    hands = {1: player("55577s", "p111m p999p p666z")}
    assert _net(hands, (1, "5s", "discard", 0), options={"di": 5}) == [-80, 120, -20, -20]


def test_table_standing_self_draw_with_every_payer_concealed():
    # P3 门清 self-draws 6s into 57s (坎): F = 自摸 + 夹胡 + 站立 = 3; 發 pair is the 刻. P0 (dealer, 门清)
    # 2^5 = 32, P1 P2 (门清) 2^4 = 16
    hands = {3: player("123m456m789p567s66z")}
    assert _net(hands, (3, "6s", "self_draw")) == [-32, -16, -16, 64]


def test_table_linear_model_at_three_di():
    # P2 (pung 777m) wins on P3's 5p (坎): F = 1. P0 (dealer) ⌈0.4 × 3 × 2⌉ = 3, P1 ⌈0.2 × 3 × 2⌉ = 2,
    # P3 (discarder, k = 2) ⌈0.2 × 3 × 3⌉ = 2
    hands = {2: player("456p123m789s99s", "p777m")}
    assert _net(hands, (2, "5p", "discard", 3), options={"model": "linear", "di": 3}) == [-3, -2, 7, -2]
    # each payer's unit item reads exactly (0.4 × 3 = 1.2 元, not 1.2000000000000002)
    table = score_table(record("baicheng", hands, (2, "5p", "discard", 3), options={"model": "linear", "di": 3}))
    assert [table["players"][p]["items"][0]["value"] for p in (0, 1, 3)] == [1.2, 0.6, 0.6]


def test_table_kong_replacement_after_a_whirlwind():
    # 旋风杠 keeps P1 门清: F = 自摸 + 杠开 + 站立 = 3 (9s on 78s is two-sided). P0 (dealer, 门清) 2^5 = 32,
    # P2 P3 2^4 = 16; whirlwind 5 from each. Without whirlwind_keeps_menqing: F = 2, P0 2^3 = 8, P2 P3 4
    hands = {1: player("123m456p789s55z", "w1234z")}
    kw = {"flags": ("kong_replacement",)}
    assert _net(hands, (1, "9s", "self_draw"), **kw) == [-37, 79, -21, -21]
    assert _net(hands, (1, "9s", "self_draw"), options={"whirlwind_keeps_menqing": False}, **kw) == [-13, 31, -9, -9]


def test_table_four_tile_run_with_hard_yaojiu():
    # 2345m single wait on 5m (234m + 55m) is no 夹胡; 999p and 123p hold terminals (硬幺 met): F = 0.
    # P0 (dealer) 2, P1 (discarder) 2, P3 1
    hands = {2: player("23455m678s", "p999p c123p")}
    assert _net(hands, (2, "5m", "discard", 1), options={"hard_yaojiu": True}) == [-2, -2, 5, -1]


def test_table_discarder_alone_pays_at_two_di():
    # P1 门清 wins on the dealer P3's 9p (78p two-sided): F = 站立 1; P3: + dealer + discarder + 背靠背 -> 2 × 2^4 = 32
    hands = {1: player("123m789p456s777s66z")}
    assert _net(hands, (1, "9p", "discard", 3), dealer=3, options={"discard_payer": "discarder", "di": 2}) == \
        [0, 32, 0, -32]


def test_seven_pairs_is_no_win():
    assert "not a legal win" in rejected(record("baicheng", {1: player("1199m2288p3377s55z")}, (1, "5z", "discard", 2)))


def test_table_drawn_bao_makes_a_single_float():
    # 宝 2p drawn (摸宝) as 6s: 555s + 单吊 66s beside pungs 111m 999p 777z, 单飘 3 + 自摸 1 = 4 (as 4s or 7s it would
    # be a plain sequence). P0 (dealer) 2^5 = 32, P2 P3 2^4 = 16
    hands = {1: player("555s6s2p", "p111m p999p p777z")}
    assert _net(hands, (1, "2p", "self_draw"), indicator="2p", flags=("bao_draw",)) == [-32, 64, -16, -16]


def test_table_drawn_bao_after_a_bao_change_beside_a_bao_pung():
    # 宝 now 6p (换宝; P1's 西 pung is the old 宝, 叉宝). Drawn 6p (摸宝) as 5s: 单吊 55s, 夹胡; the 叉宝 pung breaks
    # 站立: F = 自摸 + 夹胡 = 2. P0 (dealer) 2^3 = 8, P2 P3 2^2 = 4; 叉宝 (明杠) 5 from each
    hands = {1: player("123m456p789s5s6p", "b333z")}
    assert _net(hands, (1, "6p", "self_draw"), indicator="6p", flags=("bao_draw",)) == [-13, 31, -9, -9]
    result = score_table(record("baicheng", hands, (1, "6p", "self_draw"), indicator="6p", flags=("bao_draw",)))
    assert {p["reason"] for p in result["payments"] if p["amount"] == 5} == {"叉宝（明杠）333z"}  # Chinese brackets


def test_table_three_bao_inside_sequences_of_the_winner():
    # 宝 5p; P2 门清 345p 456p 567p 111m, wins on P3's 9s (单吊 99s): F = 夹胡 + 站立 = 2. P0 dealer + 背靠背
    # 2^4 = 16, P1 背靠背 2^3 = 8, P3 discarder + 背靠背 16; three 宝 in hand pay as an 暗杠: 10 from each
    hands, win = {2: player("345p456p567p111m99s")}, (2, "9s", "discard", 3)
    assert _net(hands, win, indicator="5p") == [-26, -18, 70, -26]
    table = score_table(record("baicheng", hands, win, indicator="5p"))
    assert "三张宝 (暗杠)" in [item["rule"] for item in table["players"][2]["items"]]


def test_table_bao_in_bao_on_a_single_wait():
    # 宝 8p; P1 (中 pung) self-draws 8p into 单吊 88p at face value: 夹胡, so 宝中宝.
    # F = 自摸 + 夹胡 + 宝中宝 = 3. P0 (dealer) 2^4 = 16, P2 P3 2^3 = 8
    hands = {1: player("123m456s789s88p", "p777z")}
    assert _net(hands, (1, "8p", "self_draw"), indicator="8p") == [-16, 32, -8, -8]


def test_table_robbed_kong_with_the_discarder_alone_paying():
    # discard_payer "discarder": P3 (pung 999m) robs P1's 补杠 of 7s (P1 keeps pung 777s) into 89s (边):
    # F = 抢杠 1 + 夹胡 1 = 2; the robbed P1 is the discarder and alone pays 2^(2 + 1) = 8
    hands = {3: player("123m456p89s7s55z", "p999m"), 1: player("", "p777s")}
    assert _net(hands, (3, "7s", "rob_kong", 1), options={"discard_payer": "discarder"}) == [0, -8, 0, 8]


def test_table_linear_standing_self_draw_dealer_2_at_two_di():
    # linear, di 2, dealer P2 (chow 789m): P1 门清 self-draws 5s into 46s (坎): F = 自摸 + 夹胡 + 站立 = 3.
    # P0 门清 k 4, u 0.4 → 2; P2 k 3, u 0.8 → ⌈3.2⌉ = 4; P3 (暗杠 only, 门清) k 4 → 2; P3's 暗杠 10 × 2 from each
    hands = {1: player("123m666p789p456s22z"), 2: player("", "c789m"), 3: player("", "K1111z")}
    options = {"model": "linear", "di": 2}
    assert _net(hands, (1, "5s", "self_draw"), dealer=2, options=options) == [-22, -12, -24, 58]


def test_table_back_to_back_always_on_a_self_draw():
    # beikaobei_always: P3 (pung 999s) self-draws 6s on 78s (two-sided): F = 自摸 1, no 站立.
    # P0 dealer + 门清 2^3 = 8, P1 门清 2^2 = 4, P2 (pung 555m) 2^1 = 2
    hands = {3: player("123m456p678s11z", "p999s"), 2: player("", "p555m")}
    assert _net(hands, (3, "6s", "self_draw"), options={"beikaobei_always": True}) == [-8, -4, -2, 14]


def test_table_double_float_from_concealed_triplets_on_a_discard():
    # P1 门清 111m 999p 555s 777z 22z, wins on P2's 5s completing 555s: F = 双飘 2 + 站立 1 = 3.
    # P0 dealer + 背靠背 2^5 = 32, P2 discarder + 背靠背 2^5 = 32, P3 背靠背 2^4 = 16
    hands = {1: player("111m999p555s777z22z")}
    assert _net(hands, (1, "5s", "discard", 2)) == [-32, 80, -32, -16]


def test_table_single_wait_beside_a_claimed_four_tile_run_is_jiahu():
    # P2 55m + chow 234m, pungs 777p 111z, chow 789s, wins on P1's 5m (单吊): the four-tile-run exception needs a
    # concealed sequence (§6.3 rule 4), so 夹胡: F = 1. P0 dealer 2^2 = 4, P1 discarder 4, P3 2
    hands, win = {2: player("55m", "c234m p777p c789s p111z")}, (2, "5m", "discard", 1)
    assert _net(hands, win) == [-4, -4, 10, -2]
    table = score_table(record("baicheng", hands, win))
    assert "夹胡" in [item["rule"] for item in table["players"][2]["items"]]


def test_table_kong_replacement_with_a_concealed_kong_and_dealer_3():
    # P1 门清 (暗杠 9999m) wins on the replacement 7s (边 89s): F = 自摸 + 杠开 + 站立 + 夹胡 = 4. P0 门清 2^5 = 32,
    # P2 (pung 222z) 2^4 = 16, P3 dealer + 门清 2^6 = 64; P1's 暗杠 10 from each
    hands = {1: player("123p456s789s55z", "K9999m"), 2: player("", "p222z")}
    assert _net(hands, (1, "7s", "self_draw"), dealer=3, flags=("kong_replacement",)) == [-42, 142, -26, -74]


def test_table_only_terminal_is_the_self_drawn_bao_in_bao():
    # 宝 9p; dealer P0 (pung 555m) self-draws 9p, its only 幺九: 夹胡 (§6.3 rule 5), and at face value 宝中宝.
    # F = 自摸 + 夹胡 + 宝中宝 = 3; the dealer wins, so each pays 2^4 = 16
    hands = {0: player("234m456s789p66s", "p555m")}
    assert _net(hands, (0, "9p", "self_draw"), indicator="9p") == [48, -16, -16, -16]


def test_table_drawn_hand_settles_kongs_linearly_at_two_di():
    # 流局, linear, di 2: kongs still settle. P0 补杠 5 × 2 = 10, P1 暗杠 10 × 2 = 20, P2 旋风杠 5 × 2 = 10,
    # each from the other three. P0 30-20-10, P1 60-10-10, P2 30-10-20, P3 -40
    hands = {0: player("", "a1111m"), 1: player("", "K7777z"), 2: player("", "w1234z")}
    assert _net(hands, None, options={"model": "linear", "di": 2}) == [0, 40, 0, -40]


def test_table_linear_at_three_di_whole_products_are_not_rounded_up():
    # linear, di 3: P2 门清 self-draws 8m into 79m (坎): F = 自摸 + 夹胡 + 站立 = 3. P0 dealer 门清 k 4, u 1.2 →
    # 1.2 × 5 = 6 exactly (not 7); P1 门清 u 0.6 → 3 exactly (not 4); P3 (pung 666z) k 3 → ⌈0.6 × 4⌉ = 3
    hands = {2: player("234m789m456p333s55z"), 3: player("", "p666z")}
    assert _net(hands, (2, "8m", "self_draw"), options={"model": "linear", "di": 3}) == [-6, -3, 12, -3]


def test_table_linear_dealer_wins_on_a_discard_paid_by_the_discarder_alone():
    # linear, di 3, discarder pays: dealer P2 门清 wins on P1's 2m (坎): F = 夹胡 + 站立 + 幺鸡 = 3.
    # P1 k = 3 + discarder 1 + 背靠背 1 = 5, u = 0.4 × 3 = 1.2 (W is dealer) → ⌈7.2⌉ = 8
    hands = {2: player("123m789m456p333s11s")}
    options = {"model": "linear", "di": 3, "discard_payer": "discarder"}
    assert _net(hands, (2, "2m", "discard", 1), dealer=2, options=options) == [0, -8, 8, 0]


def test_table_drawn_bao_completes_a_triplet_for_double_float_with_mobao_fan_2():
    # 宝 4p, mobao_fan 2: P3 (pungs 111m 999p 333z) draws 4p (摸宝) as 5s or 7z, completing a triplet:
    # F = 双飘 2 + 自摸 1 + 摸宝 2 = 5. P0 dealer 2^6 = 64, P1 P2 2^5 = 32
    hands = {3: player("55s77z4p", "p111m p999p p333z")}
    kw = {"indicator": "4p", "flags": ("bao_draw",), "options": {"mobao_fan": 2}}
    assert _net(hands, (3, "4p", "self_draw"), **kw) == [-64, -32, -32, 128]


def test_table_double_float_counts_a_whirlwind_as_a_kong():
    # P1 (旋风杠, pungs 111m 999p) wins on P2's 5s completing 555s: the 旋风杠 counts as a kong, so 双飘 2 (no 站立:
    # claimed pungs). P0 dealer 2^3 = 8, P2 discarder 8, P3 2^2 = 4; 旋风杠 5 from each
    hands = {1: player("555s77z", "w1234z p111m p999p")}
    assert _net(hands, (1, "5s", "discard", 2)) == [-13, 35, -13, -9]


def test_table_payer_with_a_dragon_chow_is_not_concealed():
    # P1 门清 wins on P3's 9m (单吊): F = 夹胡 + 站立 + 幺鸡 = 3. P0 (dealer, claimed 567z chow: not 门清) 2^4 = 16,
    # P2 门清 2^4 = 16, P3 (discarder, 暗杠 only: 门清) 2^5 = 32; P3's 暗杠 10 from each
    hands = {1: player("123m456p789s111s99m"), 0: player("", "c567z"), 3: player("", "K2222p")}
    assert _net(hands, (1, "9m", "discard", 3)) == [-26, 54, -26, -2]
