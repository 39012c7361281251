"""Fuzhou 福州 (spec §4): one small hand per scoring item, per special and per option.

Unless a test says otherwise: the dealer is seat 0 on no 连庄, the winner is seat 1 and wins on P2's
discard, the 金 indicator is 9p (no 金 held), the winner holds the chows 123m 456m 789m plus 8 tiles
and two flowers 東 南 (so 平和 does not apply): each payer pays 2 + 0 + 0 + 5 = 7.
"""
import pytest
from hypothesis import HealthCheck, assume, given, settings

from scoring import RecordError, is_winning_hand, score_table, validate_table
from scoring.fuzhou import REGION as FUZHOU
from scoring.tiles import parse_tiles
from tests.records import player, record, rejected, winner_record
from tests.strategies import idle_gold, legal_tables

CHOWS = "c123m c456m c789m"


def fuzhou(concealed: str, tile: str, by: str = "discard", *, melds_text: str = CHOWS, flowers: str = "12z",
           indicator: str | None = "9p", **kw) -> dict:
    return winner_record("fuzhou", concealed, tile, by, melds_text=melds_text, flowers=flowers, indicator=indicator,
                         **kw)


def net(concealed: str, tile: str, by: str = "discard", **kw) -> list[int]:
    return score_table(fuzhou(concealed, tile, by, **kw))["net"]


def paid(concealed: str, tile: str, by: str = "discard", **kw) -> int:
    """What the non-dealer payer P3 pays the winner P1."""
    return -net(concealed, tile, by, **kw)[3]


def rules(concealed: str, tile: str, by: str = "discard", **kw) -> list[str]:
    result = score_table(fuzhou(concealed, tile, by, **kw))
    return [i["rule"] for i in result["players"][result["winner"]]["items"]]


# -- the amount: 花 + 金 + 连庄 + 5 (+ 特殊), ×2 on 自摸 -------------------------------------------------------
def test_baseline_discard():
    assert rules("234p567s11s", "2p") == ["花", "5"]
    assert net("234p567s11s", "2p") == [-7, 21, -7, -7]


def test_self_draw_doubles():
    assert rules("234p567s11s", "2p", "self_draw") == ["花", "5", "×2"]
    assert paid("234p567s11s", "2p", "self_draw") == (2 + 5) * 2


@pytest.mark.parametrize("by, reason", [("discard", "点炮：花+金+连庄+5+特殊 = 2 + 0 + 0 + 5 + 0 = 7"),
                                        ("self_draw", "自摸：（花+金+连庄+5）×2+特殊 = (2 + 0 + 0 + 5) × 2 + 0 = 14")])
def test_the_chinese_payment_reason_names_its_terms_then_adds_them(by, reason):
    payments = score_table(fuzhou("234p567s11s", "2p", by))["payments"]
    assert payments[-1]["reason"] == reason


@pytest.mark.parametrize("flowers, hua", [("1z", 1), ("1f7z", 2), ("1234567z", 7), ("1111z", 6), ("11112z", 7),
                                          ("1234f", 6), ("5678f", 6), ("1234f5f", 7), ("12345678f", 12)])
def test_flowers_honours_and_full_sets(flowers, hua):
    assert paid("234p567s11s", "2p", flowers=flowers) == hua + 5 + (15 if hua == 1 else 0)


def test_a_full_set_of_flowers_is_named_with_an_ascii_digit():
    items = score_table(fuzhou("234p567s11s", "2p", flowers="1234f"))["players"][1]["items"]
    assert [i["name_zh"] for i in items if i["rule"] == "花 (齐4 = 6)"] == ["抓齐4个一样的花"]  # not a full-width ４


@pytest.mark.parametrize("meld, hua", [("k9999s", 1), ("a9999s", 1), ("K9999s", 2)])
def test_kongs_count_as_flowers(meld, hua):
    assert paid("234p567s11s", "2p", melds_text=f"c123m c456m {meld}") == 2 + hua + 5


def test_each_gold_counts_like_a_flower():
    # 5s is 金: one stands for 1s in the pair
    assert rules("234p678s1s5s", "2p", indicator="5s") == ["花", "金", "5"]
    assert paid("234p678s1s5s", "2p", indicator="5s") == 2 + 1 + 5


def test_dealer_streak_between_the_winner_and_the_dealer_only():
    assert net("234p567s11s", "2p", streak=2) == [-9, 23, -7, -7]
    dealer_wins = fuzhou("234p567s11s", "2p", seat=0, source=2, streak=2)
    assert score_table(dealer_wins)["net"] == [27, -9, -9, -9]


@pytest.mark.parametrize("seat, name, detail_zh", [
    (1, "dealer streak: seat 0 (the dealer) only", "只由庄家0号位付"), (0, "dealer streak: each payer", "每家都付")])
def test_the_streak_item_says_who_pays_it_in_both_languages(seat, name, detail_zh):
    result = score_table(fuzhou("234p567s11s", "2p", seat=seat, source=2, streak=2))
    streak = next(i for i in result["players"][seat]["items"] if i["rule"] == "连庄")
    assert (streak["name"], streak["name_zh"], streak["detail_zh"]) == (name, "连庄", detail_zh)


def test_stake_multiplies_every_amount():
    assert net("234p567s11s", "2p", options={"di": 3}) == [-21, 63, -21, -21]


# -- specials ---------------------------------------------------------------------------------------------------
def test_pinghu_no_flower_no_kong():
    assert rules("234p567s11s", "2p", flowers="") == ["5", "平和"]
    assert paid("234p567s11s", "2p", flowers="") == 0 + 5 + 30
    assert paid("234p567s11s", "2p", "self_draw", flowers="") == 5 * 2 + 30


def test_pinghu_with_one_flower():
    assert "平和 (1花)" in rules("234p567s11s", "2p", flowers="3f")
    assert paid("234p567s11s", "2p", flowers="3f") == 1 + 5 + 15
    assert paid("234p567s11s", "2p", "self_draw", flowers="3f") == (1 + 5) * 2 + 15


def test_pinghu_needs_no_kong():
    assert paid("234p567s11s", "2p", flowers="", melds_text="c123m c456m k9999s") == 1 + 5
    assert paid("234p567s11s", "2p", flowers="3f", melds_text="c123m c456m k9999s") == 2 + 5


def test_pinghu_doubled_on_discard_option():
    options = {"pinghu_doubled_on_discard": True}
    assert paid("234p567s11s", "2p", flowers="", options=options) == 5 * 2 + 30
    assert paid("234p567s11s", "2p", flowers="3f", options=options) == (1 + 5) * 2 + 15
    assert paid("234p567s11s", "2p", options=options) == 2 + 5  # no 平和: no change
    items = score_table(fuzhou("234p567s11s", "2p", flowers="", options=options))["players"][1]["items"]
    doubled = next(i for i in items if i["rule"] == "×2")  # on a discard: paid as if self-drawn, not named a self-draw
    assert (doubled["name"], doubled["name_zh"]) == ("doubled: self-drawn, or paid as if self-drawn", "×2（自摸，或按自摸计）")


def test_gold_pair():
    # 金 5s: the pair is two 金 (金雀); on a discard although any tile would have completed the hand (闲金)
    assert "金雀" in rules("234p678s55s", "2p", indicator="5s")
    assert paid("234p678s55s", "2p", indicator="5s") == 2 + 2 + 5 + 60
    assert paid("234p678s55s", "2p", "self_draw", indicator="5s") == (2 + 2 + 5) * 2 + 60


def test_gold_dragon_beats_gold_pair():
    # 555s are three 金 as their own triplet (金龙 120); read as 111s + 55s they would be 金雀 (60)
    assert rules("234p11s555s", "2p", "self_draw", indicator="5s") == ["花", "金", "5", "×2", "金龙"]
    assert paid("234p11s555s", "2p", "self_draw", indicator="5s") == (2 + 3 + 5) * 2 + 120


def test_one_suit_all_natural():
    assert "清一" in rules("234m567m99m", "2m")
    assert paid("234m567m99m", "2m") == 2 + 5 + 240


def test_one_suit_with_a_dead_gold():
    # 金 5m standing as itself (死金) keeps 清一; as another tile it would only be 混一
    assert paid("234m567m999m11m", "2m", "self_draw", melds_text="c123m c789m", indicator="5m") == \
        (2 + 1 + 5) * 2 + 240


def test_one_suit_with_a_gold_for_another_tile():
    # 金 5s stands for 9m: 混一 120
    assert "混一" in rules("234m567m9m5s", "2m", indicator="5s")
    assert paid("234m567m9m5s", "2m", indicator="5s") == 2 + 1 + 5 + 120


def test_largest_special_only_on_a_plain_win():
    # no flower (平和 30) and one suit (清一 240): only 240
    assert rules("234m567m99m", "2m", flowers="") == ["5", "清一"]
    assert paid("234m567m99m", "2m", "self_draw", flowers="") == 5 * 2 + 240


def test_gold_kan():
    assert "金坎" in rules("234p567s11s", "2p", "self_draw", flags=("gold_kan",))
    assert paid("234p567s11s", "2p", "self_draw", flags=("gold_kan",)) == (2 + 5) * 2 + 60


# -- event wins: the ×2 form, specials added up -------------------------------------------------------------------
def test_heavenly_hand():
    kw = {"seat": 0, "flags": ("heaven",), "melds_text": ""}  # the dealer has claimed nothing (spec §4)
    assert score_table(fuzhou("123456789m234p567s11s", "2p", "self_draw", **kw))["net"] == [132, -44, -44, -44]
    # 天和 30 + 平和 30 are added up
    assert score_table(fuzhou("123456789m234p567s11s", "2p", "self_draw", flowers="", **kw))["net"][1] == -(5 * 2 + 60)
    with pytest.raises(RecordError, match="allows no claimed meld"):
        score_table(fuzhou("234p567s11s", "2p", "self_draw", seat=0, flags=("heaven",)))


def test_event_specials_additive_option():
    kw = {"seat": 0, "flags": ("heaven",), "flowers": "", "options": {"event_specials_additive": False},
          "melds_text": ""}
    assert score_table(fuzhou("123456789m234p567s11s", "2p", "self_draw", **kw))["net"][1] == -(5 * 2 + 30)


def test_rob_gold():
    # the taken indicator 5s completes 456s; it is at face value and no 金
    kw = {"indicator": "5s", "flags": ("rob_gold",)}
    assert rules("234p456s11s", "5s", "self_draw", **kw) == ["花", "5", "×2", "抢金"]
    assert paid("234p456s11s", "5s", "self_draw", **kw) == (2 + 5) * 2 + 30


def test_rob_gold_indicator_is_gold_option():
    kw = {"indicator": "5s", "flags": ("rob_gold",), "options": {"rob_gold_indicator_is_gold": True}}
    assert paid("234p456s11s", "5s", "self_draw", **kw) == (2 + 1 + 5) * 2 + 30


@pytest.mark.parametrize("counted", [False, True])
def test_rob_gold_taken_indicator_stands_at_face_value_either_way(counted):
    """The option counts the taken indicator in G (spec §4.4: "→ G + 1"); it never makes it wild."""
    kw = {"indicator": "4s", "flags": ("rob_gold",), "options": {"rob_gold_indicator_is_gold": counted}}
    assert "金雀" not in rules("678p56744s", "4s", "self_draw", flowers="1z", **kw)
    assert "not a legal win" in rejected(fuzhou("11s234p56s8p", "8p", "self_draw", **{**kw, "indicator": "8p"}))


def test_rob_gold_indicator_counts_once():
    hands = {1: player("234p456s11s", CHOWS, "12z"), 3: player("555s1234567m999p678s")}
    rec = record("fuzhou", hands, (1, "5s", "self_draw"), flags=("rob_gold",), indicator="5s")
    assert score_table(rec)["net"][1] == 3 * ((2 + 5) * 2 + 30)
    rec["win"]["flags"] = []
    assert "5 copies of 5s" in rejected(rec)


def test_three_golds_needs_no_complete_hand():
    kw = {"melds_text": "", "indicator": "5p", "flags": ("three_golds",)}
    assert rules("13579m1379p13579s555p", "5p", "self_draw", **kw) == ["花", "金", "5", "×2", "三金倒"]
    assert paid("13579m1379p13579s555p", "5p", "self_draw", **kw) == (2 + 3 + 5) * 2 + 40
    assert paid("13579m1379p13579s555p", "5p", "self_draw", flowers="", **kw) == (3 + 5) * 2 + 40 + 30


def test_three_golds_keeps_only_the_largest_of_its_group():
    # a complete hand with 金龙: 三金倒 40 and 金龙 120 do not add up; 天和 30 does
    kw = {"indicator": "5s", "seat": 0}
    assert paid("234p11s555s", "2p", "self_draw", flags=("three_golds",), **kw) == (2 + 3 + 5) * 2 + 120
    assert paid("123456789m234p11s555s", "2p", "self_draw", flags=("three_golds", "heaven"), melds_text="",
                **kw) == (2 + 3 + 5) * 2 + 150


# -- settlement ---------------------------------------------------------------------------------------------------
def test_discarder_alone_pays_with_the_option():
    assert net("234p567s11s", "2p", options={"discard_payer": "discarder"}) == [0, 7, -7, 0]
    assert net("234p567s11s", "2p", "self_draw", options={"discard_payer": "discarder"}) == [-14, 42, -14, -14]


def test_robbed_kong_is_a_discard_by_the_robbed_player():
    assert net("234p567s11s", "2p", "rob_kong", source=3, options={"discard_payer": "discarder"}) == [0, 7, 0, -7]


def test_drawn_hand_pays_nothing():
    rec = fuzhou("234p567s11s", "2p")
    rec["win"] = None
    rec["players"][1]["concealed"] = "234p567s1s"
    assert score_table(rec)["net"] == [0, 0, 0, 0]


def test_f1_with_the_discarder_paying():
    rec = fuzhou("123678p234557s99m", "5s", melds_text="c345m", flowers="17z2f", indicator="7s", source=3,
                 options={"discard_payer": "discarder"})
    assert score_table(rec)["net"] == [0, 9, 0, -9]


# -- 闲金 and validation -----------------------------------------------------------------------------------------
def test_idle_gold_forbids_a_discard_win():
    # without the 1m, 234p 678s 999s and a 金 wait on any tile
    kw = {"melds_text": "c123m c456m", "indicator": "5s"}
    assert "闲金" in rejected(fuzhou("234p678s999s1m5s", "1m", **kw))
    assert paid("234p678s999s1m5s", "1m", "self_draw", **kw) == (2 + 1 + 5) * 2
    assert FUZHOU.idle_gold(validate_table(fuzhou("234p678s999s1m5s", "1m", "self_draw", **kw)))
    assert not FUZHOU.idle_gold(validate_table(fuzhou("234p567s1s5s", "2p", indicator="5s")))


@pytest.mark.parametrize("kw, message", [
    ({"concealed": "234p567s11z"}, "honours and flowers are flowers"),
    ({"melds_text": "c123m c456m p111z", "concealed": "234p567s11s"}, "an honour, which is a flower"),
    ({"flowers": "1s"}, "no flower"),
    ({"indicator": "1z"}, "must be a suited tile"),
    ({"melds_text": "c123m c456m c789p", "indicator": "8p"}, "a 金, which is never melded"),
    ({"tile": "5s", "concealed": "234p567s1s5s", "indicator": "5s"}, "a 金 is never discarded"),
    ({"concealed": "234p567s1s"}, "need 17 for the winner"),
    ({"tile": "9s"}, "is not among"),
    ({"concealed": "234p568s11s"}, "not a legal win"),
    ({"flags": ("heaven",)}, "heaven"),
    ({"flags": ("gold_kan",)}, "needs a self_draw win"),
    ({"by": "self_draw", "flags": ("three_golds",)}, "three 金"),
    ({"by": "self_draw", "flags": ("rob_gold",), "indicator": "5s"}, "needs win.tile to be the 金 indicator 5s"),
    ({"by": "self_draw", "flags": ("rob_gold", "heaven"), "seat": 0, "indicator": "2p", "tile": "2p"}, "exclude"),
    ({"options": {"discard_payer": "winner"}}, "discard_payer"),
])
def test_fuzhou_rejections(kw, message):
    args = {"concealed": "234p567s11s", "tile": "2p", "by": "discard"} | kw
    by = args.pop("by")
    if by == "self_draw":
        args.pop("source", None)
    assert message in rejected(fuzhou(args.pop("concealed"), args.pop("tile"), by, **args))


def test_is_winning_hand_fuzhou():
    assert is_winning_hand("fuzhou", "123456789m234p567s11s", [])
    assert is_winning_hand("fuzhou", "123456789m234p567s1s5s", [], indicator="5s")
    assert not is_winning_hand("fuzhou", "123456789m234p567s15s", [])


# -- properties ---------------------------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_tables("fuzhou"))
def test_generated_fuzhou_tables_pay_the_winner_from_the_formula(rec):
    result = score_table(rec)
    win = rec["win"]
    assert sum(result["net"]) == 0 and result["net"][win["player"]] > 0
    flowers = len(parse_tiles(rec["players"][win["player"]]["flowers"]))
    for payment in result["payments"]:
        assert payment["to"] == win["player"] and payment["amount"] >= 5 + flowers


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_tables("fuzhou"))
def test_idle_gold_shortcuts_agree_with_trying_every_tile(rec):
    table = validate_table(rec)
    assume(table.indicator is not None and "rob_gold" not in table.win.flags)
    assert FUZHOU.idle_gold(table) == idle_gold(list(table.winner.concealed), table.win.tile, table.indicator)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_tables("fuzhou"))
def test_merged_search_finds_the_exhaustive_best(rec):
    """Merging alike readings in the search (the Fuzhou summary key) never changes the best amount."""
    table = validate_table(rec)
    assume(table.win is not None)
    assert FUZHOU.best(table)[0] == FUZHOU.best(table, exhaustive=True)[0]


# -- audit tables: whole hands computed by hand from spec §4, one per assertion ------------------------------------
def _net(hands, win, **kw) -> list[int]:
    return score_table(record("fuzhou", hands, win, **kw))["net"]


def test_table_dealer_self_draw_on_a_streak_with_a_full_flower_set_and_a_kong():
    # 金 3s (one held, at its own kind); dealer P0 on 连庄 2 self-draws 9p. H = 1234f 6 + 東 1 + 明杠 1 = 8, G = 1,
    # L = 2 for every payer (the dealer wins), no special: each pays (8 + 1 + 2 + 5) × 2 = 32
    hands = {0: player("456m789p123s99s", "p222p k7777m", "1234f5z")}
    assert _net(hands, (0, "9p", "self_draw"), indicator="3s", streak=2) == [96, -32, -32, -32]


def test_table_discard_by_the_dealer_with_a_concealed_kong():
    # dealer P3 on 连庄 1 discards 1p to P2. H = 南 1 + 暗杠 2 = 3, G = 0; a kong, so no 平和.
    # P3 pays 3 + 0 + 1 + 5 = 9, P0 and P1 pay 3 + 5 = 8; with discard_payer "discarder" only P3's 9
    hands = {2: player("123m456m789p234s11p", "K5555s", "2z")}
    kw = {"indicator": "8m", "dealer": 3, "streak": 1}
    assert _net(hands, (2, "1p", "discard", 3), **kw) == [-8, -8, 25, -9]
    assert _net(hands, (2, "1p", "discard", 3), options={"discard_payer": "discarder"}, **kw) == [0, 0, 9, -9]


def test_table_hunyi_self_drawn():
    # 金 2p stands for 4m: all 萬 with a 金 for another kind, 混一 120 (beats 平和 1花 15). H = 1, G = 1:
    # each pays (1 + 1 + 5) × 2 + 120 = 134
    hands = {1: player("456m789m567m11m23m2p", "c123m", "3f")}
    assert _net(hands, (1, "3m", "self_draw"), indicator="2p") == [-134, 402, -134, -134]


def test_table_pinghu_with_a_gold_on_the_dealers_discard():
    # no flower, no kong: 平和 30; 金 5p stands for 4s; dealer P0 on 连庄 3 discards 3s (no 闲金).
    # P0 pays 1 + 3 + 5 + 30 = 39, P1 and P3 1 + 5 + 30 = 36; with pinghu_doubled_on_discard (1 + 3 + 5) × 2 + 30 = 48
    # and (1 + 5) × 2 + 30 = 42
    hands = {2: player("123m456m123p789p23s66s5p")}
    assert _net(hands, (2, "3s", "discard", 0), indicator="5p", streak=3) == [-39, -36, 111, -36]
    assert _net(hands, (2, "3s", "discard", 0), indicator="5p", streak=3,
                options={"pinghu_doubled_on_discard": True}) == [-48, -42, 132, -42]


def test_table_three_golds_for_a_non_dealer_on_a_streak():
    # 三金倒 (no complete hand): H = 2, G = 3; dealer P1 on 连庄 1 pays (2 + 3 + 1 + 5) × 2 + 40 = 62, the others 60
    hands = {3: player("13579m1379p13579s555p", "", "1f6z")}
    assert _net(hands, (3, "5p", "self_draw"), indicator="5p", dealer=1, streak=1,
                flags=("three_golds",)) == [-60, -62, -60, 182]


def test_table_rob_gold_by_the_dealer_with_another_gold():
    # the taken indicator 7p completes 678p at face value; the other 7p is a 金 standing for 9s (pair 99s).
    # H = 東 梅 2, G = 1: each pays (2 + 1 + 5) × 2 + 30 = 46
    hands = {0: player("123m456m567s68p7p234s9s7p", "", "1z5f")}
    assert _net(hands, (0, "7p", "self_draw"), indicator="7p", flags=("rob_gold",)) == [138, -46, -46, -46]


def test_table_heaven_adds_pinghu_one_flower_and_qingyi():
    # 天和, all 條 without 金, one flower: S = 30 + 15 + 240 = 285; each pays (1 + 5) × 2 + 285 = 297.
    # Not additive: the single largest, 清一 240: (1 + 5) × 2 + 240 = 252
    hands = {0: player("111s234s456s789s567s99s", "", "6z")}
    kw = {"indicator": "5m", "flags": ("heaven",)}
    assert _net(hands, (0, "9s", "self_draw"), **kw) == [891, -297, -297, -297]
    assert _net(hands, (0, "9s", "self_draw"), options={"event_specials_additive": False}, **kw) == \
        [756, -252, -252, -252]


def test_table_heaven_adds_gold_pair_and_hunyi_a_plain_win_takes_the_largest():
    # 金 5p5p are the pair, standing for a 萬 kind: 金雀 60 and 混一 120 in one reading; one flower (平和 15).
    # 天和: S = 30 + 60 + 120 + 15 = 225, (1 + 2 + 5) × 2 + 225 = 241; a plain 自摸: 120 only, 16 + 120 = 136
    hands = {0: player("123m456m789m234m678m5p5p", "", "1f")}
    assert _net(hands, (0, "8m", "self_draw"), indicator="5p", flags=("heaven",)) == [723, -241, -241, -241]
    assert _net(hands, (0, "8m", "self_draw"), indicator="5p") == [408, -136, -136, -136]


def test_table_three_golds_with_a_gold_pair_keeps_the_larger():
    # 金 7s ×3: one stands for 3p, two are the pair (金雀 60 > 三金倒 40, never both). H = 2, G = 3:
    # each pays (2 + 3 + 5) × 2 + 60 = 80
    hands = {2: player("123m456m789p345s12p7s7s7s", "", "2f3f")}
    assert _net(hands, (2, "3s", "self_draw"), indicator="7s", flags=("three_golds",)) == [-80, -80, 240, -80]


def test_table_gold_dragon_on_a_discard_from_the_dealer():
    # 金 4s ×3 as 444s (金龙 120; 闲金, but 金龙 may win on a discard). H = 2, G = 3; dealer P2 on 连庄 1
    # discards: P2 pays 2 + 3 + 1 + 5 + 120 = 131, P1 and P3 130
    hands = {0: player("123m456m567p789p444s99s", "", "12f")}
    assert _net(hands, (0, "9s", "discard", 2), indicator="4s", dealer=2, streak=1) == [391, -130, -131, -130]


def test_table_every_kind_of_kong_counts_as_flowers():
    # 明杠 1 + 加杠 1 + 暗杠 2 + 西 1: H = 5; P1 self-draws, dealer P0 on 连庄 1:
    # P0 pays (5 + 1 + 5) × 2 = 22, P2 and P3 (5 + 5) × 2 = 20
    hands = {1: player("234p678s99s", "k1111m a5555p K6666m", "3z")}
    assert _net(hands, (1, "9s", "self_draw"), indicator="2m", streak=1) == [-22, 62, -20, -20]


def test_table_robbed_kong_with_four_different_winds():
    # 東南西北 are four flowers, not four identical ones: H = 4; 金 8p, two held at their own kind: G = 2.
    # P1 robs P3's 补杠 of 3s: each pays 4 + 2 + 5 = 11
    hands = {1: player("123m456m678p789p234s55s", "", "1234z"), 3: player("", "p333s")}
    assert _net(hands, (1, "3s", "rob_kong", 3), indicator="8p") == [-11, 33, -11, -11]


def test_table_gold_kan_at_two_di():
    # 金 2m drawn into 1m_3m (金坎 60, self-drawn); H = 1, G = 1: (1 + 1 + 5) × 2 + 60 = 74, × di 2 = 148
    hands = {1: player("123p456p789p13m99s2m", "c456s", "7f")}
    assert _net(hands, (1, "2m", "self_draw"), indicator="2m", flags=("gold_kan",), options={"di": 2}) == \
        [-148, 444, -148, -148]


def test_table_dealer_self_draw_pinghu_one_flower_on_a_streak():
    # one flower, no kong, no 金: 平和 (1花) 15; dealer P0 on 连庄 1: each pays (1 + 0 + 1 + 5) × 2 + 15 = 29
    hands = {0: player("123m456m789m234p567s88s", "", "8f")}
    assert _net(hands, (0, "8s", "self_draw"), indicator="1p", streak=1) == [87, -29, -29, -29]


def test_table_hunyi_on_a_discard_with_the_dealer_on_a_streak():
    # 金 9s stands for 9p (789p with 78p; not 闲金: 111p 234p 55p 999p 7p cannot make four sets); all 餅: 混一 120.
    # H = 2, G = 1; dealer P1 on 连庄 2 pays 2 + 1 + 2 + 5 + 120 = 130, the discarder P2 and P0 pay 128
    hands = {3: player("111p234p55p78p999p9s", "c678p", "2z3z")}
    assert _net(hands, (3, "8p", "discard", 2), indicator="9s", dealer=1, streak=2) == [-128, -130, -128, 386]


@pytest.mark.parametrize("hands, win, kw, message", [
    # five 東 among the winner's flowers; a flower twice
    ({1: player("234p567s11s", CHOWS, "11111z")}, (1, "2p", "discard", 2), {}, "5 copies of 1z"),
    ({1: player("234p567s11s", CHOWS, "1f1f")}, (1, "2p", "discard", 2), {}, "2 copies of 1f"),
    # the indicator is a physical tile: it and four held 5s are five
    ({1: player("234p567s11s", CHOWS, "12z"), 3: player("", "k5555s")}, (1, "2p", "discard", 2), {"indicator": "4s"},
     "copies of 5s"),
    ({1: player("13579m1379p13579s555p", "", "12z")}, (1, "1m", "discard", 2),
     {"indicator": "5p", "flags": ("three_golds",)}, "needs a self_draw win"),
])
def test_fuzhou_impossible_tables_are_rejected(hands, win, kw, message):
    assert message in rejected(record("fuzhou", hands, win, **kw))


def test_table_qingyi_with_a_concealed_kong_and_a_pung():
    # all 條, no 金 (清一 240; the kong rules out 平和). H = 梅蘭 2 + 暗杠 2 = 4; P2 self-draws, dealer P0 on 连庄 1:
    # P0 pays (4 + 1 + 5) × 2 + 240 = 260, P1 and P3 (4 + 5) × 2 + 240 = 258
    hands = {2: player("123s345s567s11s", "K9999s p888s", "5f6f")}
    assert _net(hands, (2, "5s", "self_draw"), indicator="1m", streak=1) == [-260, -258, 776, -258]


# -- audit tables (audit 14): whole hands computed by hand from spec §4, one per test -----------------------------
GOLDS_HANDS = {1: player("13m5p46s5p789p234p99s", "c678m", "2z6f"), 2: player("", "k1111s", "1234f")}


def test_table_two_golds_for_different_kinds_on_the_dealers_discard():
    # 金 5p ×2: one for 2m (123m), one for 5s (456s); no 金雀 reading, not 闲金. H = 南 蘭 2, G = 2, S = 0. The dealer
    # P0 on 连庄 2 discards 3m: P0 pays 2 + 2 + 2 + 5 = 11, P2 and P3 9; P2's 明杠 and 1234f count for nothing
    # (only the winner's H counts)
    assert _net(GOLDS_HANDS, (1, "3m", "discard", 0), indicator="5p", streak=2) == [-11, 29, -9, -9]


def test_table_four_alike_honours_and_a_full_flower_set_with_two_kongs():
    # H = four 西 6 + 東 1 + 5678f 6 + 暗杠 2 + 加杠 1 = 16, G = 0 (金 9p, none held). The dealer P0 on 连庄 2
    # self-draws, so L = 2 for every payer: each pays (16 + 0 + 2 + 5) × 2 = 46
    hands = {0: player("123p456p345s88m", "K2222s a7777m", "13333z5678f")}
    assert _net(hands, (0, "8m", "self_draw"), indicator="9p", streak=2) == [138, -46, -46, -46]


def test_table_gold_dragon_and_qingyi_on_a_plain_self_draw_take_the_largest():
    # 金 5s ×3 as their own triplet (金龙 120), all 條 with every 金 at its own kind (清一 240), one flower (平和 15):
    # a plain win takes the largest, 240. H = 1, G = 3; the dealer P0 on 连庄 1 pays (1 + 3 + 1 + 5) × 2 + 240 = 260,
    # the others (1 + 3 + 5) × 2 + 240 = 258
    hands = {2: player("555s123s678s234s99s", "c789s", "4z")}
    assert _net(hands, (2, "2s", "self_draw"), indicator="5s", streak=1) == [-260, -258, 776, -258]


def test_table_three_golds_event_adds_gold_dragon_qingyi_and_pinghu():
    # the same hand under three_golds, an event: S = max(三金倒 40, 金龙 120) + 清一 240 + 平和 (1 flower) 15 = 375;
    # the dealer P0 pays 20 + 375 = 395, the others 18 + 375 = 393
    hands = {2: player("555s123s678s234s99s", "c789s", "4z")}
    assert _net(hands, (2, "2s", "self_draw"), indicator="5s", streak=1, flags=("three_golds",)) == \
        [-395, -393, 1181, -393]


def test_table_rob_gold_with_pinghu_and_the_indicator_counted_as_gold():
    # 抢金: the taken indicator 4m completes 345m at face value; the other 4m is a 金 for 9p (99p). No flower or kong:
    # 平和 30; the event sums 抢金 30 + 平和 30 = 60; G = 1 + 1 (rob_gold_indicator_is_gold). The dealer P0 on 连庄 2
    # pays (0 + 2 + 2 + 5) × 2 + 60 = 78, P2 and P3 (0 + 2 + 5) × 2 + 60 = 74
    hands = {1: player("123p456p789s234s9p4m35m4m")}
    assert _net(hands, (1, "4m", "self_draw"), indicator="4m", streak=2, flags=("rob_gold",),
                options={"rob_gold_indicator_is_gold": True}) == [-78, 226, -74, -74]


def test_table_robbed_kong_of_the_dealer_paid_by_the_discarder_alone():
    # P3 robs the dealer P0's 补杠 of 6p: 点炮 by the robbed player, who alone pays under discard_payer "discarder".
    # One flower (中), no kong: 平和 15; H = 1, G = 0 (金 1s), L = 1: P0 pays 1 + 0 + 1 + 5 + 15 = 22
    hands = {0: player("", "p666p"), 3: player("57p6p123m456m789m234s88s", "", "7z")}
    assert _net(hands, (3, "6p", "rob_kong", 0), indicator="1s", streak=1,
                options={"discard_payer": "discarder"}) == [-22, 0, 0, 22]


def test_table_gold_kan_with_qingyi_takes_the_largest():
    # 金 2m self-drawn into 1m_3m (金坎 60); as 2m itself (死金) the hand is all 萬: 清一 240; one flower (平和 15).
    # 金坎 is no event, so S = the largest, 240. H = 1, G = 1: each pays (1 + 1 + 0 + 5) × 2 + 240 = 254
    hands = {1: player("13m2m456m789m11m", "p333m c678m", "5f")}
    assert _net(hands, (1, "2m", "self_draw"), indicator="2m", flags=("gold_kan",)) == [-254, 762, -254, -254]


def test_table_kong_replacement_and_last_tile_flags_score_nothing_at_two_di():
    # kong_replacement and last_tile have no Fuzhou item; discard_payer does not apply to a self-draw. 金 8s (for 4p
    # or 7p): G = 1; H = 東 南 2 + 明杠 1 = 3; the dealer P0 on 连庄 1: (3 + 1 + 1 + 5) × 2 = 20 from each, × di 2 = 40
    hands = {0: player("123m456m789m56p8s22s", "k3333p", "12z")}
    assert _net(hands, (0, "2s", "self_draw"), indicator="8s", streak=1, flags=("kong_replacement", "last_tile"),
                options={"di": 2, "discard_payer": "discarder"}) == [120, -40, -40, -40]


def test_table_hunyi_paid_by_the_discarder_alone_at_three_di():
    # 金 3p ×2: one at its own kind (234p), one for 7p (789p): 混一 120 (no reading with both at their own kind, so no
    # 清一); not 闲金. H = 1, G = 2, L = 0 (the dealer P1 neither wins nor pays): P3 alone pays
    # (1 + 2 + 0 + 5 + 120) × di 3 = 384
    hands = {2: player("24p3p89p3p111p555p66p", "c456p", "1z")}
    assert _net(hands, (2, "2p", "discard", 3), indicator="3p", dealer=1, streak=2,
                options={"di": 3, "discard_payer": "discarder"}) == [0, 0, 384, -384]


def test_table_pinghu_one_flower_doubled_on_a_discard_to_the_dealer_on_a_streak():
    # 金 6m for 7s (789s); one flower, no kong: 平和 15. The dealer P0 on 连庄 2 wins, so L = 2 for every payer; with
    # pinghu_doubled_on_discard each pays (1 + 1 + 2 + 5) × 2 + 15 = 33 (by default 1 + 1 + 2 + 5 + 15 = 24)
    hands = {0: player("123m345s89s6m234p567p99m", "", "8f")}
    assert _net(hands, (0, "3s", "discard", 2), indicator="6m", streak=2,
                options={"pinghu_doubled_on_discard": True}) == [99, -33, -33, -33]


def test_table_heaven_and_qingyi_with_a_concealed_kong():
    # 天和 30 + 清一 240 (the 金 7p at its own kind, 789p) = 270; the 暗杠 rules out 平和. H = 暗杠 2, G = 1:
    # each pays (2 + 1 + 0 + 5) × 2 + 270 = 286
    hands = {0: player("345p7p89p666p11p345p", "K2222p")}
    assert _net(hands, (0, "1p", "self_draw"), indicator="7p", flags=("heaven",)) == [858, -286, -286, -286]


def test_table_three_golds_held_win_on_a_discard_as_a_gold_pair():
    # 金 2s ×3: one for 6s (567s), two as the pair (金雀 60; no 金龙 reading). The hand is 闲金, but 金雀 may win on
    # a discard. H = 夏 西 2, G = 3: each pays 2 + 3 + 0 + 5 + 60 = 70
    hands = {3: player("123m456m78p57s2s2s2s9p", "c345p", "2f3z")}
    assert _net(hands, (3, "9p", "discard", 1), indicator="2s") == [-70, -70, -70, 210]


ROB_GOLD_HANDS = {2: player("78m9m123m234m45m9m567m11m")}


def test_table_rob_gold_and_hunyi_not_additive():
    # 抢金: the taken 9m completes 789m; the other 9m is a 金 for 3m or 6m: all 萬, 混一 120; 平和 30; 抢金 30.
    # With event_specials_additive false only the largest, S = 120. G = 1; the dealer P0 on 连庄 1 pays
    # (0 + 1 + 1 + 5) × 2 + 120 = 134, the others 132
    assert _net(ROB_GOLD_HANDS, (2, "9m", "self_draw"), indicator="9m", streak=1, flags=("rob_gold",),
                options={"event_specials_additive": False}) == [-134, -132, 398, -132]


def test_table_rob_gold_and_hunyi_additive_by_default():
    # the same table by default: S = 抢金 30 + 平和 30 + 混一 120 = 180; the dealer pays 14 + 180 = 194, the others
    # 12 + 180 = 192
    assert _net(ROB_GOLD_HANDS, (2, "9m", "self_draw"), indicator="9m", streak=1, flags=("rob_gold",)) == \
        [-194, -192, 578, -192]


def test_table_dealer_robs_a_kong_with_four_red_dragons():
    # four 中 count 6, 梅 蘭 菊 3: H = 9, G = 0 (金 5s, none held). The dealer P0 on 连庄 2 robs P2's 补杠 of 4s
    # (点炮 form, all three pay, L = 2 for each): 9 + 0 + 2 + 5 = 16
    hands = {0: player("123m456m789p23s4s678m99p", "", "7777z567f"), 2: player("", "p444s")}
    assert _net(hands, (0, "4s", "rob_kong", 2), indicator="5s", streak=2) == [48, -16, -16, -16]


def test_table_non_winners_hands_change_nothing():
    # the first table of this section with the non-winners' concealed hands and flowers given: only the winner's H
    # counts, so the net is unchanged
    hands = {**GOLDS_HANDS, 0: player("1122m1168p346678s99p", "", "5z"), 3: player("44578m2233p5677s", "p999m", "7f")}
    assert _net(hands, (1, "3m", "discard", 0), indicator="5p", streak=2) == [-11, 29, -9, -9]
