"""Daishan 岱山 (spec §5): one small hand per scoring item, 2底1花 unless stated."""
import pytest

from scoring import RecordError, score_table
from tests.records import player, record, winner_record


def winner(record: dict) -> dict:
    result = score_table(record)
    return result["players"][result["winner"]]


def total(concealed: str, tile: str, by: str = "discard", **kw) -> int:
    return winner(winner_record("daishan", concealed, tile, by, **kw))["total"]


def rules(concealed: str, tile: str, by: str = "discard", **kw) -> list[str]:
    return [item["rule"] for item in winner(winner_record("daishan", concealed, tile, by, **kw))["items"]]


def net(concealed: str, tile: str, by: str = "discard", **kw) -> list[int]:
    return score_table(winner_record("daishan", concealed, tile, by, **kw))["net"]


# -- 底 ---------------------------------------------------------------------------------------------------
def test_plain_discard_win_is_base_only():
    assert total("123456789m123p55s", "5s") == (0 + 1) * 2


def test_all_triplets():
    assert "对对胡" in rules("111m222p333s777p99m", "9m")
    assert total("111m222p333s777p99m", "9m") == (2 + 1) * 2


def test_all_triplets_counts_melds():
    assert total("777p99m", "9m", melds_text="p111m k2222p p333s") == (2 + 1) * 2 + 1


def test_thirteen_unrelated_five_or_six_stars():
    assert "十三不搭 5/6 星" in rules("147m258p369s12345z", "5z")
    assert total("147m258p369s12345z", "5z") == (1 + 1) * 2
    assert total("147m258p36s123456z", "6z") == (1 + 1) * 2


def test_thirteen_unrelated_seven_stars():
    assert total("147m258p3s1234567z", "7z") == (2 + 1) * 2


def test_one_suit():
    assert "清一色" in rules("11122345678999m", "3m")
    assert total("11122345678999m", "3m") == (4 + 1) * 2


def test_one_suit_and_honours():
    assert total("123456789m111z22z", "2z") == (2 + 1) * 2 + 0


def test_seven_pairs():
    assert rules("1133557799m1122p", "2p") == ["基数", "七小对"]
    assert total("1133557799m1122p", "2p") == (4 + 1) * 2


def test_seven_pairs_beats_sets():
    # 11223344556677m is 123m 123m 456m 456m 77m (清一色) or seven pairs (七小对 + 清一色)
    assert total("11223344556677m", "7m") == (4 + 4 + 1) * 2


def test_seven_pairs_distinct_option():
    with pytest.raises(RecordError, match="not a legal win"):
        total("1111335577m1122p", "2p")
    assert total("1111335577m1122p", "2p", options={"qixiaodui_distinct_pairs": False}) == (4 + 1) * 2


def test_all_honours_all_triplets():
    assert rules("111z222z333z444z55z", "5z") == ["基数", "字一色+对对胡"]
    assert total("111z222z333z444z55z", "5z") == (12 + 1) * 2
    assert total("111z222z333z444z55z", "5z", options={"ziyise_adds_pattern": True}) == (12 + 2 + 1) * 2


def test_all_honours_seven_pairs():
    assert total("11223344556677z", "7z") == (16 + 1) * 2
    assert total("11223344556677z", "7z", options={"ziyise_adds_pattern": True}) == (16 + 4 + 1) * 2


def test_heavenly_hand():
    record = winner_record("daishan", "123456789m123p55s", "5s", "self_draw", seat=0, flags=("heaven",))
    assert winner(record)["total"] == (4 + 1) * 2 + 1
    assert score_table(record)["net"] == [33, -11, -11, -11]


@pytest.mark.parametrize("flag, concealed, by, kw", [
    ("heaven", "123456789m55s", "self_draw", {"seat": 0, "melds_text": "p111p"}),  # 「庄家可补花可暗杠」: no claim
    ("earth", "123456789m55s", "discard", {"source": 0, "melds_text": "K1111p"}),  # the winner has had no turn
    ("kong_replacement", "123456789m123p55s", "self_draw", {}),  # a replacement follows a kong or a flower
])
def test_a_flag_the_laid_down_tiles_make_impossible_is_refused(flag, concealed, by, kw):
    with pytest.raises(RecordError, match=flag):
        score_table(winner_record("daishan", concealed, "5s", by, flags=(flag,), **kw))


def test_a_heavenly_hand_may_hold_a_concealed_kong():
    hand = winner_record("daishan", "123456789m55s", "5s", "self_draw", seat=0, melds_text="K1111p", flags=("heaven",))
    assert "天胡" in [i["rule"] for i in score_table(hand)["players"][0]["items"]]


def test_earthly_hand():
    assert total("123456789m123p55s", "5s", source=0, flags=("earth",)) == (2 + 1) * 2


def test_last_tile():
    assert total("123456789m123p55s", "5s", "self_draw", flags=("last_tile",)) == (2 + 1) * 2 + 1


def test_golden_rooster_single_wait_after_four_melds():
    assert total("55s", "5s", melds_text="c123m c456m c789p c234s") == (1 + 1) * 2


def test_kong_bloom_adds_no_self_draw_hua():
    kw = {"melds_text": "k2222p", "flags": ("kong_replacement",)}
    assert rules("123456789m55s", "5s", "self_draw", **kw) == ["基数", "杠上开花", "明杠"]
    assert total("123456789m55s", "5s", "self_draw", **kw) == (1 + 1) * 2 + 1
    assert total("123456789m55s", "5s", "self_draw", options={"kaihua_adds_zimo_hua": True}, **kw) == 4 + 2


# -- 花 ---------------------------------------------------------------------------------------------------
def test_self_draw_hua():
    assert total("123456789m123p55s", "5s", "self_draw") == 2 + 1


def test_each_flower():
    assert total("123456789m123p55s", "5s", flowers="15f") == 2 + 2


@pytest.mark.parametrize("flowers, hua", [("1234f", 8), ("5678f", 8), ("12346f", 9), ("12345678f", 32)])
def test_full_flower_sets_count_in_total(flowers, hua):
    assert total("123456789m123p55s", "5s", flowers=flowers) == 2 + hua


@pytest.mark.parametrize("meld, hua", [("K1111z", 3), ("K2222p", 2), ("k7777z", 2), ("a7777z", 2), ("k9999p", 1),
                                       ("p444z", 1), ("p444s", 0)])
def test_kongs_and_honour_pungs(meld, hua):
    assert total("123456789m55s", "5s", melds_text=meld) == 2 + hua


def test_concealed_honour_triplet_option():
    assert total("123456m789p111z55s", "5s") == 2
    assert total("123456m789p111z55s", "5s", options={"concealed_honour_triplet_hua": True}) == 2 + 1


# -- settlement ----------------------------------------------------------------------------------------------
def test_self_draw_is_paid_by_all_three():
    assert net("123456789m123p55s", "5s", "self_draw") == [-3, 9, -3, -3]


def test_discard_is_paid_by_the_discarder_alone():
    assert net("123456789m123p55s", "5s", source=3) == [0, 2, 0, -2]


def test_robbed_kong_scores_as_self_draw_and_the_robbed_player_pays_three_times():
    assert net("123456789m123p55s", "3p", "rob_kong", source=0) == [-9, 9, 0, 0]
    items = winner(winner_record("daishan", "123456789m123p55s", "3p", "rob_kong", source=0))["items"]
    assert [(i["name"], i["detail_zh"]) for i in items if i["rule"] == "自摸"] == [
        ("self-drawn: robbing a kong (拉杠胡) counts as one", "拉杠胡")]
    paid = score_table(winner_record("daishan", "123456789m123p55s", "3p", "rob_kong", source=0))["payments"]
    assert [(p["reason"], p["reason_en"]) for p in paid] == [("拉杠胡 ×3", "robbing a kong: the robbed player pays 3 times")]


def test_stakes():
    assert total("123456789m123p55s", "5s", flowers="1f", options={"di": 5, "hua": 3}) == 5 + 3


def test_the_winners_counts_are_named_apart_from_the_stakes():
    """The winner's 底 and 花 counts are ``di_count`` and ``hua_count``, not the stakes' option names."""
    seat = winner(winner_record("daishan", "123456789m123p55s", "5s", "discard", flowers="1f",
                                options={"di": 5, "hua": 3}))
    assert (seat["di_count"], seat["hua_count"]) == (1, 1) and "di" not in seat and "hua" not in seat


def test_formula_of_the_source_example_3():
    # 拉杠胡 七小对 with 春夏秋冬 (the source's example 3): [(4 + 1) × 2 + (8 + 1) × 1] × 3 = 57. The hand is
    # physically impossible (the robbed pung and the winner's pair make five 2p): refused; self-drawn, each of
    # the three pays the 19 that the robbed player would pay three times
    with pytest.raises(RecordError, match="robbing a kong takes its fourth 2p"):
        net("1133557799m1122p", "2p", "rob_kong", source=0, flowers="1234f")
    assert net("1133557799m1122p", "2p", "self_draw", flowers="1234f") == [-19, 57, -19, -19]


@pytest.mark.parametrize("by, paid", [("self_draw", "each of the three pays it"), ("discard", "the discarder pays it")])
def test_the_winners_formula_says_who_pays_its_total(by, paid):
    result = score_table(winner_record("daishan", "123456789m123p55s", "5s", by, source=2))
    winner = result["players"][1]
    assert winner["formula"].endswith(f"= {winner['total']}; {paid}")


def test_drawn_hand_pays_nothing():
    record = winner_record("daishan", "123456789m123p55s", "5s")
    record["win"] = None
    record["players"][1]["concealed"] = "123456789m123p5s"
    assert score_table(record)["net"] == [0, 0, 0, 0]


def test_flags_need_their_situation():
    with pytest.raises(RecordError, match="heaven"):
        total("123456789m123p55s", "5s", "self_draw", flags=("heaven",))
    with pytest.raises(RecordError, match="earth"):
        total("123456789m123p55s", "5s", source=2, flags=("earth",))
    with pytest.raises(RecordError, match="last_tile"):
        total("123456789m123p55s", "5s", flags=("last_tile",))


# -- full tables (audit): each amount and net worked out by hand from spec §5 (2底1花 unless stated) -------------
def table_net(hands: dict, win: tuple, **kw) -> list[int]:
    return score_table(record("daishan", hands, win, **kw))["net"]


def test_table_self_drawn_one_suit_with_an_exposed_kong():
    # P1: 345p 678p 999p 11p + 2222p 明杠, self-draws 9p. 底: 清一色 4 → (4 + 1) × 2 = 10;
    # 花: 自摸 1 + 明杠 1 + flowers 春夏梅 3 = 5 → 15 from each of the three others
    assert table_net({1: player("345p678p999p11p", "k2222p", "125f")}, (1, "9p", "self_draw")) == [-15, 45, -15, -15]


def test_table_seven_pairs_one_suit_and_honours_on_a_discard():
    # P2: 11z 22z 66z 33m 55m 77m 99m, wins on P0's 6z. 底: 七小对 4 + 混一色 2 → 7 × 2 = 14;
    # 花: 春夏秋冬 8 (in total) + 梅 1 = 9 → 23 from P0 alone
    assert table_net({2: player("11z22z33m55m77m99m66z", "", "12345f")}, (2, "6z", "discard", 0)) == [-23, 0, 23, 0]


def test_table_robbed_kong_pays_three_times():
    # P3 robs P0's 补杠 of 8s (P0 keeps the pung 888s) with 79s: 333p 789s 55m + 東 and 中 pungs.
    # 底: 0 → 1 × 2 = 2; 花: 自摸 (拉杠胡) 1 + 2 honour pungs 2 + 秋 1 = 4 → 6; P0 pays 3 × 6 = 18
    hands = {3: player("333p789s55m", "p111z p777z", "3f"), 0: player("", "p888s")}
    assert table_net(hands, (3, "8s", "rob_kong", 0)) == [-18, 0, 0, 18]


def test_table_seven_star_thirteen_unrelated_on_the_last_tile():
    # P2: 147m 258p 3s + all seven honours, self-draws the last tile 7z. 底: 七星十三不搭 2 + 海底捞月 2 → 10;
    # 花: 自摸 1 + 梅兰菊竹 8 = 9 → 19 from each
    hands = {2: player("147m258p3s1234567z", "", "5678f")}
    assert table_net(hands, (2, "7z", "self_draw"), flags=("last_tile",)) == [-19, -19, 57, -19]


def test_table_kong_bloom_after_an_honour_concealed_kong():
    # P0 (dealer): 123m 456m 789s 55s + 北 暗杠, wins on the replacement 5s. 底: 杠上开花 1 → 4;
    # 花: 箭牌暗杠 3, no 自摸 (「不加花」) → 7 from each; with kaihua_adds_zimo_hua, 8
    hands = {0: player("123m456m789s55s", "K4444z")}
    win, flags = (0, "5s", "self_draw"), ("kong_replacement",)
    assert table_net(hands, win, flags=flags) == [21, -7, -7, -7]
    assert table_net(hands, win, flags=flags, options={"kaihua_adds_zimo_hua": True}) == [24, -8, -8, -8]


def test_table_golden_rooster_all_triplets_one_suit_and_honours():
    # P1 melded 南 pung, 3333m 明杠, 555m and 999m pungs; wins on P3's 1z (单吊).
    # 底: 金鸡独立 1 + 对对胡 2 + 混一色 2 → 6 × 2 = 12; 花: 南 pung 1 + 明杠 1 = 2 → 14 from P3
    hands = {1: player("11z", "p222z k3333m p555m p999m")}
    assert table_net(hands, (1, "1z", "discard", 3)) == [0, 14, 0, -14]


def test_table_earthly_hand_all_triplets_one_suit():
    # P3 wins on the dealer's first discard 5s: 111s 222s 333s 444s 55s (also 123s ×3: less).
    # 底: 地胡 2 + 对对胡 2 + 清一色 4 → 9 × 2 = 18; 花: 竹 1 → 19 from P0
    hands = {3: player("11122233344455s", "", "8f")}
    assert table_net(hands, (3, "5s", "discard", 0), flags=("earth",)) == [-19, 0, 0, 19]


def test_table_stakes_and_concealed_honour_triplet():
    # di 5, hua 2, concealed_honour_triplet_hua: P2 self-draws 3s to 發 暗刻 123p 456p 789p 33s.
    # 底: 0 → 1 × 5 = 5; 花: 自摸 1 + 發 暗刻 1 = 2 → × 2 = 4 → 9 from each
    options = {"di": 5, "hua": 2, "concealed_honour_triplet_hua": True}
    hands = {2: player("666z123p456p789p33s")}
    assert table_net(hands, (2, "3s", "self_draw"), options=options) == [-9, -9, 27, -9]


def test_table_heavenly_hand_with_all_eight_flowers():
    # P0 (dealer): 天胡 4 → 5 × 2 = 10; 花: 自摸 1 + 8花齐全 32 = 33 → 43 from each
    hands = {0: player("123m456m789m123p99s", "", "12345678f")}
    assert table_net(hands, (0, "9s", "self_draw"), flags=("heaven",)) == [129, -43, -43, -43]


def test_table_all_honours_all_triplets_with_melds():
    # P1: 東 pung + 南 暗杠 + 333z 444z 77z, wins on P2's 4z. 底: 字一色+对对胡 12 → 13 × 2 = 26;
    # 花: 箭牌碰出 1 + 箭牌暗杠 3 = 4 → 30; with ziyise_adds_pattern +2 底 → 34
    hands = {1: player("333z444z77z", "p111z K2222z")}
    assert table_net(hands, (1, "4z", "discard", 2)) == [0, 30, -30, 0]
    assert table_net(hands, (1, "4z", "discard", 2), options={"ziyise_adds_pattern": True}) == [0, 34, -34, 0]


def test_table_seven_pairs_with_four_alike_when_allowed():
    # qixiaodui_distinct_pairs false: 1111m counts as two pairs. 底: 七小对 4 → 10 from P2
    hands = {1: player("1111m33m55p77p99s22s")}
    assert table_net(hands, (1, "2s", "discard", 2), options={"qixiaodui_distinct_pairs": False}) == [0, 10, -10, 0]


@pytest.mark.parametrize("hands, win, message", [
    # a robbed 补杠 leaves three copies with the robbed player: a pair wait on the fourth would be a fifth copy
    ({1: player("123456789m123p55s"), 3: player("", "p555s")}, (1, "5s", "rob_kong", 3), "5 copies of 5s"),
    ({1: player("1133557799m1122p", "", "1234f"), 0: player("", "p222p")}, (1, "2p", "rob_kong", 0), "5 copies"),
    ({1: player("147m258p35s123456z")}, (1, "6z", "discard", 2), "not a legal win"),  # 3s 5s too close
    ({1: player("123456789m123p5s1f")}, (1, "5s", "discard", 2), "flower 1f"),
])
def test_table_rejections(hands, win, message):
    with pytest.raises(RecordError, match=message):
        score_table(record("daishan", hands, win))


def test_table_added_honour_kong_one_suit_and_honours_self_drawn():
    # P2: 456p 789p 99p + 南 补杠 + chow 123p, 菊, self-draws 9p; dealer P3 changes nothing (no dealer bonus, §5.1).
    # 底: 混一色 2 → (2 + 1) × 2 = 6; 花: 箭牌明杠 (补杠) 2 + 菊 1 + 自摸 1 = 4 → 10 from each
    hands = {2: player("456p789p99p", "a2222z c123p", "7f")}
    assert table_net(hands, (2, "9p", "self_draw"), dealer=3) == [-10, -10, 30, -10]


def test_table_seven_star_thirteen_unrelated_spaced_159_26_48():
    # P1: 159m 26p 48s + all seven honours, wins on P0's 4s: ≤ 3 tiles per suit, any two ≥ 3 apart.
    # 底: 十三不搭 7 星 2 → (2 + 1) × 2 = 6; 花: 夏 1 → 7 from P0
    assert table_net({1: player("159m26p48s1234567z", "", "2f")}, (1, "4s", "discard", 0)) == [-7, 7, 0, 0]


def test_table_seven_pairs_one_suit_on_the_last_tile():
    # P3: 11 22 33 55 66 77 99p, self-draws the last tile 9p. 底: 七小对 4 + 清一色 4 (beats the 清一色-only reading
    # 123p 123p 567p 567p 99p) + 海底捞月 2 = 10 → 22; 花: 自摸 1 → 23 from each
    hands = {3: player("11223355667799p")}
    assert table_net(hands, (3, "9p", "self_draw"), flags=("last_tile",)) == [-23, -23, -23, 69]


def test_table_golden_rooster_self_drawn_with_every_kind_of_kong():
    # P0: 白 暗杠, 2222m 明杠, 7777p 补杠, 西 pung, self-draws 9s (单吊). 底: 金鸡独立 1 + 对对胡 2 = 3 → 8;
    # 花: 箭牌暗杠 3 + 明杠 1 + 补杠 (明杠) 1 + 箭牌碰出 1 + 自摸 1 = 7 → 15 from each
    hands = {0: player("99s", "K5555z k2222m a7777p p333z")}
    assert table_net(hands, (0, "9s", "self_draw")) == [45, -15, -15, -15]


def test_table_kong_bloom_after_a_flower_without_a_kong():
    # P3: 123m 456p 789s 234s 55z + 冬, wins on the tile drawn after 补花 (3s). 底: 杠上开花 1 (after 补花 too)
    # → (1 + 1) × 2 = 4; 花: 冬 1, no 自摸 (「不加花」) → 5 from each
    hands, win, flags = {3: player("123m456p789s234s55z", "", "4f")}, (3, "3s", "self_draw"), ("kong_replacement",)
    assert table_net(hands, win, flags=flags) == [-5, -5, -5, 15]
    assert "自摸" not in [item["rule"] for item in winner(record("daishan", hands, win, flags=flags))["items"]]


def test_table_kong_bloom_after_a_flower_with_the_self_draw_hua_option():
    # as above with kaihua_adds_zimo_hua: 底 4; 花: 自摸 1 + 冬 1 = 2 → 6 from each
    hands, win, flags = {3: player("123m456p789s234s55z", "", "4f")}, (3, "3s", "self_draw"), ("kong_replacement",)
    options = {"kaihua_adds_zimo_hua": True}
    assert table_net(hands, win, flags=flags, options=options) == [-6, -6, -6, 18]


def test_table_earthly_seven_pairs_with_the_dealer_at_seat_2():
    # P3: 11m 44m 22p 77p 55s 88s 33z, wins on the dealer P2's first discard 3z (地胡); three suits: no 混一色.
    # 底: 七小对 4 + 地胡 2 = 6 → 14 from P2
    hands = {3: player("11m44m77p22p55s88s33z")}
    assert table_net(hands, (3, "3z", "discard", 2), flags=("earth",), dealer=2) == [0, 0, -14, 14]


def test_table_heavenly_hand_of_dealer_3_with_a_concealed_kong_and_flowers():
    # Dealer P3: 123s 456s 999s 77z + 8888s 暗杠, 蘭 竹, 天胡 on 7z. 底: 天胡 4 + 混一色 2 = 6 → 14;
    # 花: 暗杠 (other) 2 + 自摸 1 + 2 flowers = 5 → 19 from each
    hands = {3: player("123s456s999s77z", "K8888s", "68f")}
    assert table_net(hands, (3, "7z", "self_draw"), flags=("heaven",), dealer=3) == [-19, -19, -19, 57]


def test_table_robbed_kong_one_suit_at_three_di_two_hua():
    # di 3, hua 2: P1 111 234 456 789 99m robs P3's 补杠 of 5m (P3 keeps pung 555m). 底: 清一色 4 → 5 × 3 = 15;
    # 花: 自摸 (拉杠胡) 1 × 2 = 2 → 17; P3 alone pays 3 × 17 = 51
    hands = {1: player("111234456789m99m"), 3: player("", "p555m")}
    assert table_net(hands, (1, "5m", "rob_kong", 3), options={"di": 3, "hua": 2}) == [0, 51, 0, -51]


def test_table_drawn_hand_pays_nothing_for_kongs_or_flowers():
    # 流局 with P0's 東 暗杠 + 春 and P1's 2222m 明杠 + 夏 梅: §5.3 流局 0, no kong payments in Daishan
    hands = {0: player("", "K1111z", "1f"), 1: player("", "k2222m", "25f")}
    assert table_net(hands, None) == [0, 0, 0, 0]


def test_table_discard_completing_a_concealed_honour_triplet_is_no_pung():
    # P1: 555m 777m 99m 22z + 北 pung, wins on P0's 2z. 底: 对对胡 2 + 混一色 2 = 4 → 10; 花: 北 箭牌碰出 1;
    # the 南 triplet completed by the discard is no 碰出 (concealed_honour_triplet_hua false) → 11 from P0
    hands, win = {1: player("555m777m99m222z", "p444z")}, (1, "2z", "discard", 0)
    assert table_net(hands, win) == [-11, 11, 0, 0]
    assert [item["rule"] for item in winner(record("daishan", hands, win))["items"]].count("箭牌碰出") == 1


def test_table_heavenly_six_star_thirteen_unrelated_spaced_148_259_37():
    # Dealer P1: 148m 259p 37s + six honours (no 白), 天胡 on 9p. 底: 天胡 4 + 十三不搭 6 星 1 = 5 → 12;
    # 花: 自摸 1 → 13 from each
    hands = {1: player("148m259p37s123467z")}
    assert table_net(hands, (1, "9p", "self_draw"), flags=("heaven",), dealer=1) == [-13, 39, -13, -13]


def test_table_thirteen_unrelated_robs_an_honour_kong():
    # P2: 147m 258p 369s + 東南西北白 + 秋 robs P0's 补杠 of 東 (P0 keeps pung 111z). 底: 十三不搭 5 星 1 → 4;
    # 花: 自摸 (拉杠胡) 1 + 秋 1 = 2 → 6; P0 alone pays 3 × 6 = 18
    hands = {2: player("147m258p369s12345z", "", "3f"), 0: player("", "p111z")}
    assert table_net(hands, (2, "1z", "rob_kong", 0)) == [-18, 0, 18, 0]


def test_table_all_honours_seven_pairs_with_four_alike_self_drawn():
    # qixiaodui_distinct_pairs false: P2 1111z counts as two pairs, self-draws 6z. 底: 字一色+七小对 16 → 17 × 2 = 34;
    # 花: 自摸 1 → 35 from each
    hands = {2: player("11112233445566z")}
    options = {"qixiaodui_distinct_pairs": False}
    assert table_net(hands, (2, "6z", "self_draw"), options=options) == [-35, -35, 105, -35]


def test_table_kong_bloom_all_triplets_with_a_concealed_honour_triplet_option():
    # concealed_honour_triplet_hua: P1 南 暗刻 666p 888s 99s + 4444m 暗杠, wins on the replacement 9s.
    # 底: 对对胡 2 + 杠上开花 1 = 3 → 8; 花: 暗杠 (other) 2 + 箭牌暗刻 1, no 自摸 = 3 → 11 from each
    hands = {1: player("222z666p888s99s", "K4444m")}
    win, options = (1, "9s", "self_draw"), {"concealed_honour_triplet_hua": True}
    assert table_net(hands, win, flags=("kong_replacement",), options=options) == [-11, 33, -11, -11]
