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


def test_seat_flower():
    assert base_fan("234p567s11s", "2p", flowers="2f") == (0, 3)
    assert base_fan("234p567s11s", "2p", flowers="26f") == (0, 4)
    assert base_fan("234p567s11s", "2p", flowers="1f") == (0, 2)


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
    kw_special = {"melds_text": "c123m c456m k3333s", "flags": ("kong_replacement", "after_special_kong")}
    assert "杠上开花" not in rules(hand("234p567s11s", "2p", "self_draw", **kw_special))


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


def test_lazi_four_white():
    assert rules(hand(LOOSE, "5z", "self_draw", melds_text="c123m", flowers="5555z")) == ["腊子: 4 张白板"]


@pytest.mark.parametrize("kong, rule", [("K2222z", "腊子: 暗杠门风"), ("K7777z", "腊子: 暗杠字牌")])
def test_lazi_concealed_kong_of_seat_wind_or_dragon(kong, rule):
    assert rules(hand("1357p2468s13z", kong[1] + "z", "self_draw", melds_text=f"c123m {kong}")) == [rule]


def test_lazi_on_a_discard_needs_a_complete_hand():
    with pytest.raises(RecordError, match="not a legal win"):
        hand("1357p2468s136z9p9p9p", "1p", melds_text="c123m")


def test_lazi_by_a_laid_tile_must_be_self_drawn():
    with pytest.raises(RecordError):
        hand(LOOSE, "4f", melds_text="c123m", flowers="1234f")


def test_lazi_four_winds_in_a_reading():
    # 111z 222z 333z 44z + 123m 456m: all four winds, 得 not needed
    seat = hand("111z222z333z44z", "4z", melds_text="c123m c456m")
    assert rules(seat) == ["腊子: 四风会齐"] and seat["total"] == 500


def test_lazi_four_winds_with_a_de_filling():
    assert hand("111z222z333z4z9p", "4z", melds_text="c123m c456m")["total"] == 500


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
    # P3 pays the winner 3 × 8, P0 3 and P2 5, and P2 (the higher) their difference 2
    assert result["net"] == [3, 24, 5 + 2, -(24 + 3 + 5 + 2)]


@pytest.mark.parametrize("change, applies", [
    ({}, True),
    ({"sheng_phase": False}, False),
    ({"tile_was_sheng": False}, False),
    ({"discarder_all_sheng": True, "discarder_tenpai": False}, False),
    ({"discarder_all_sheng": True, "discarder_tenpai": True}, True),
])
def test_bao_conditions(change, applies):
    assert (bao_result(BAO | change)["players"][3]["total"] == 0) == applies


def test_bao_exempt_all_sheng_option():
    facts = BAO | {"discarder_all_sheng": True, "discarder_tenpai": True}
    assert bao_result(facts, options={"bao_exempt_all_sheng": True})["players"][3]["total"] == 20


def test_bao_needs_a_discard():
    rec = wenling("234p567s11s", "2p", "self_draw", context={"bao": BAO})
    assert score_table(rec)["net"] == [-9, 27, -9, -9]  # (2 + 20) × 4 = 88 → 90


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
