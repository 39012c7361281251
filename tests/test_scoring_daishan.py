"""Daishan 岱山 (spec §5): one small hand per scoring item, 2底1花 unless stated."""
import pytest

from scoring import RecordError, score_table
from tests.records import winner_record


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
    assert net("123456789m123p55s", "5s", "rob_kong", source=0) == [-9, 9, 0, 0]


def test_stakes():
    assert total("123456789m123p55s", "5s", flowers="1f", options={"di": 5, "hua": 3}) == 5 + 3


def test_formula_of_the_source_example_3():
    # 拉杠胡 七小对 with 春夏秋冬 (the source's physically impossible example 3, used as a formula test):
    # [(4 + 1) × 2 + (8 + 1) × 1] × 3 = 57
    assert net("1133557799m1122p", "2p", "rob_kong", source=0, flowers="1234f") == [-57, 57, 0, 0]


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
