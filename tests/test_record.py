"""Record validation: every kind of invalid record is rejected with one line naming the problem."""
import copy
import re

import pytest

from scoring import RecordError, check_setting, is_winning_hand, score_table, validate_table
from tests.records import player, record, rejected, winner_record

GOOD = winner_record("daishan", "123456789m123p55s", "5s", "discard", seat=1, source=2)


def edited(path: str, value, base: dict = GOOD) -> dict:
    """A copy of ``base`` with the field at dotted ``path`` (list indexes as numbers) set, or deleted for ...."""
    out = copy.deepcopy(base)
    *parents, last = path.split(".")
    target = out
    for part in parents:
        target = target[int(part)] if isinstance(target, list) else target[part]
    key = int(last) if isinstance(target, list) else last
    if value is ...:
        del target[key]
    else:
        target[key] = value
    return out


def test_good_record_passes():
    assert validate_table(GOOD).rules == "daishan"


@pytest.mark.parametrize("path, value, expected", [
    ("players.1.concealed", "023456789m123p55s", "unknown tile '0m'"),
    ("players.1.concealed", "123456789m123p55x", "cannot read"),
    ("players.1.flowers", "9f", "unknown tile '9f'"),
    ("players.1.concealed", "123456789m123p55s8z", "unknown tile '8z'"),
    ("win.tile", "5q", "cannot read"),
    ("win.tile", "5s5s", "must be one tile"),
])
def test_unknown_tile_codes(path, value, expected):
    assert expected in rejected(edited(path, value))


def test_five_of_a_kind_counts_every_place():
    hands = {1: player("123456789m123p55s"), 2: player("", "k1111m")}
    assert "5 copies of 1m" in rejected(record("daishan", hands, (1, "5s", "discard", 2)))
    hands = {1: player("123456789m123p55s"), 0: player("5555s")}
    assert "6 copies of 5s" in rejected(record("daishan", hands, (1, "5s", "discard", 2)))


def test_a_flower_at_most_once():
    hands = {1: player("123456789m123p55s", flowers="1f"), 2: player("", flowers="1f")}
    assert "2 copies of 1f" in rejected(record("daishan", hands, (1, "5s", "discard", 2)))


@pytest.mark.parametrize("concealed, melds, expected", [
    ("123456789m123p5s", "", "holds 13 tiles"),
    ("123456789m123p555s", "", "holds 15 tiles"),
    ("123456789m55s", "c123p p777z", "holds 17 tiles"),
])
def test_wrong_hand_size(concealed, melds, expected):
    message = rejected(winner_record("daishan", concealed, "5s", melds_text=melds))
    assert expected in message and "need 14 for the winner" in message


def test_wrong_size_of_a_non_winner():
    rec = edited("players.3", player("123m"))
    assert "players[3] holds 3 tiles" in rejected(rec)


def test_win_tile_not_in_hand():
    assert "win.tile 6s is not among players[1]'s concealed tiles" in rejected(edited("win.tile", "6s"))


@pytest.mark.parametrize("meld, expected", [
    ({"type": "chow", "tiles": "124m"}, "is not a chow"),
    ({"type": "chow", "tiles": "567z"}, "is not a chow"),
    ({"type": "chow", "tiles": "891m"}, "is not a chow"),
    ({"type": "pung", "tiles": "123m"}, "is not a pung"),
    ({"type": "kong", "tiles": "111m"}, "is not a kong"),
    ({"type": "pung", "tiles": "111f"}, "is not a pung"),
    ({"type": "whirlwind", "tiles": "1234z"}, "daishan rules have no whirlwind melds"),
    ({"type": "triple", "tiles": "111m"}, "type must be one of"),
    ({"type": "pung", "tiles": "111m", "concealed": True}, "only a kong can be concealed"),
    ({"type": "pung", "tiles": "111m", "from": 0}, "cannot be the player's own seat"),
    ({"type": "kong", "tiles": "1111m", "concealed": True, "from": 1}, "has no 'from'"),
    ({"type": "pung", "tiles": "111m", "concealed": "yes"}, "must be true or false"),
    ({"tiles": "111m"}, "missing field players[0].melds[0].type"),
])
def test_bad_melds(meld, expected):
    rec = edited("players.0", {"concealed": "", "melds": [meld], "flowers": ""})
    assert expected in rejected(rec)


def test_not_a_legal_win():
    assert "players[1]'s hand is not a legal win under daishan rules" in rejected(
        winner_record("daishan", "123456789m124p55s", "5s"))


def test_a_hand_a_tile_from_a_win_names_the_changes_that_make_it_one_nearest_first():
    assert rejected(winner_record("daishan", "123456789m124p55s", "5s")).endswith(
        "rules; it would be one with 4p changed to 3p, or 1p to 3p")


def test_the_winning_tile_is_changed_with_its_last_copy():
    assert rejected(winner_record("daishan", "123456789m123p59s", "9s")).endswith(
        "; it would be one with 5s changed to 9s, or 9s to 5s")


def test_a_hand_far_from_a_win_names_no_change():
    assert rejected(winner_record("daishan", "13579m13579p1357s", "7s")) == \
        "players[1]'s hand is not a legal win under daishan rules"


@pytest.mark.parametrize("rules, expected", [("mcr", "unknown rules 'mcr'"), (7, "unknown rules 7")])
def test_unknown_rules(rules, expected):
    assert expected in rejected(edited("rules", rules))


@pytest.mark.parametrize("options, expected", [
    ({"dii": 2}, "unknown option 'dii' for daishan rules"),
    ({"di": "2"}, "option di must be a whole number from 1 to 1000000"),
    ({"di": 0}, "option di must be a whole number from 1 to 1000000"),
    ({"di": 10**23}, "option di must be a whole number from 1 to 1000000"),  # a typing slip, not a stake
    ({"hua": 1_000_001}, "option hua must be a whole number from 0 to 1000000"),
    ({"di": True}, "option di must be a whole number"),
    ({"ziyise_adds_pattern": 1}, "option ziyise_adds_pattern must be true or false"),
    ([], "options must be an object"),
])
def test_unknown_or_bad_options(options, expected):
    assert expected in rejected(edited("options", options))


@pytest.mark.parametrize("path, value, expected", [
    ("dealer", "0", "dealer must be a seat 0–3"),
    ("dealer", 4, "dealer must be a seat 0–3"),
    ("dealer_streak", -1, "dealer_streak must be a whole number from 0 to 100"),
    ("dealer_streak", 10**30, "dealer_streak must be a whole number from 0 to 100"),  # a typing slip
    ("players", {}, "players must be a list of exactly four"),
    ("players.3", ..., "players must be a list of exactly four"),
    ("players.1.concealed", 123, "must be a tile string"),
    ("players.1.melds", "p111m", "melds must be a list"),
    ("players.1", "123m", "players[1] must be an object"),
    ("win", [], "win must be an object or null"),
    ("win.player", 1.5, "win.player must be a seat"),
    ("dealer_streak", 2.5, "dealer_streak must be a whole number"),
    ("win.by", "tsumo", "win.by must be one of"),
    ("win.flags", "heaven", "win.flags must be a list"),
    ("win.flags", ["tenhou"], "unknown win flag 'tenhou'"),
    ("indicator", "5p", "daishan rules have no indicator"),
])
def test_wrong_types_and_values(path, value, expected):
    assert expected in rejected(edited(path, value))


@pytest.mark.parametrize("path", ["rules", "dealer", "players", "win", "players.1.concealed", "win.tile", "win.by",
                                  "win.player"])
def test_missing_fields(path):
    name = path.replace("players.1", "players[1]")
    assert rejected(edited(path, ...)) == f"missing field {name}"


def test_not_an_object():
    assert rejected([GOOD]) == "the record must be a JSON object"


def test_discard_needs_a_source_other_than_the_winner():
    assert "win.from is missing" in rejected(edited("win.from", ...))
    assert "win.from cannot be the winner" in rejected(edited("win.from", 1))



@pytest.mark.parametrize("path, value", [
    ("win.flags", ["rob_gold"]),  # a Fuzhou event
    ("context", {"bao": {"sheng_phase": True}}),  # a Wenling fact
    ("context", {"table_name": "club 3"}),
    ("players.0.melds", [{"type": "pung", "tiles": "111z", "bao": True}]),  # Baicheng's 叉宝 mark
])
def test_what_the_region_does_not_read_is_ignored(path, value):
    base = edited("players.0.melds", [{"type": "pung", "tiles": "111z"}]) if path == "players.0.melds" else GOOD
    assert score_table(edited(path, value)) == score_table(base)


@pytest.mark.parametrize("path, value, same", [
    ("dealer", 0.0, 0), ("win.player", 1.0, 1), ("win.from", 2.0, 2), ("dealer_streak", 0.0, 0),
    ("options", {"di": 3.0}, {"di": 3}),
    ("dealer_streak", None, ...), ("indicator", "", ...), ("win.flags", None, ...), ("players.1.melds", None, ...),
    ("players.1.flowers", None, ...), ("players.0.concealed", None, ""),
])
def test_whole_numbers_written_with_a_point_and_null_optional_fields_mean_what_they_say(path, value, same):
    assert score_table(edited(path, value)) == score_table(edited(path, same))


def test_a_seat_given_as_the_source_of_a_self_draw_is_ignored():
    self_drawn = edited("win.by", "self_draw")
    assert score_table(self_drawn) == score_table(edited("win.from", ..., self_drawn))


def test_the_winner_s_tiles_are_required():
    rec = edited("players.1.concealed", "")
    assert "the winner's tiles are required" in rejected(rec)


def test_is_winning_hand():
    assert is_winning_hand("daishan", "123456789m123p55s", [])
    assert is_winning_hand("daishan", ["5s", "5s"], [{"type": "chow", "tiles": "123m"}] * 0 + [
        {"type": "pung", "tiles": t} for t in ("111m", "222m", "333m", "444m")])
    assert not is_winning_hand("daishan", "123456789m124p55s", [])
    assert not is_winning_hand("daishan", "123456789m123p5s", [])  # 13 tiles: no win
    assert not is_winning_hand("daishan", "11111m", [])  # five of a kind
    with pytest.raises(RecordError, match="unknown tile"):
        is_winning_hand("daishan", "0m", [])
    with pytest.raises(RecordError, match="unknown rules"):
        is_winning_hand("riichi", "11m", [])


@pytest.mark.parametrize("rules, indicator, options, problem", [
    ("fuzhou", "5z", None, "the 金 indicator must be a suited tile, got 5z"),
    ("baicheng", "1f", None, "the 宝 indicator cannot be 1f"),
    ("daishan", "5p", None, "daishan rules have no indicator"),
    ("daishan", None, {"di": 0}, "option di must be a whole number"),
    ("wenling", None, {"di": 2}, "unknown option 'di' for wenling rules"),
    ("mars", None, None, "unknown rules 'mars'"),
])
def test_a_table_setting_is_checked_before_any_hand(rules: str, indicator: str | None, options: dict | None,
                                                     problem: str) -> None:
    with pytest.raises(RecordError, match=re.escape(problem)):
        check_setting(rules, indicator, options)


@pytest.mark.parametrize("rules, indicator, options", [("fuzhou", "5p", None), ("wenling", "1f", None),
                                                       ("baicheng", "9s", {"di": 2}), ("daishan", None, {})])
def test_a_valid_table_setting_passes(rules: str, indicator: str | None, options: dict | None) -> None:
    check_setting(rules, indicator, options)


def test_robbing_a_kong_of_a_tile_the_winner_holds_another_of_is_impossible() -> None:
    # spec §5.4 example 3: the robbed pung holds three, the robbing tile is the fourth
    assert "robbing a kong takes its fourth 2p" in rejected(
        winner_record("daishan", "1133557799m1122p", "2p", "rob_kong", flowers="1234f"))
    robbed = record("daishan", {1: player("123456789m12p55s" + "3p"), 2: player("", "p3p3p3p")},
                    (1, "3p", "rob_kong", 2))
    assert score_table(robbed)["net"] == [0, 9, -9, 0]


@pytest.mark.parametrize("context", [[], 0, False, ""])
def test_context_that_is_no_object_is_refused(context: object) -> None:
    rec = winner_record("wenling", "123m456m234p678s789p99m", "6s", indicator="1z")
    rec["context"] = context
    assert "context must be an object" in rejected(rec)


@pytest.mark.parametrize("rules, concealed, tile, kw, change", [
    # a change the region itself refuses (a complete hand with no 三门全; 闲金 won on a discard) is no win, and
    # the refusal is of the hand given, not of the changed hand tried
    ("baicheng", "123m456m789m111p2p4s", "2p", {"indicator": "5s"}, "2p changed to 4s"),
    ("fuzhou", "123m456m789m123p9p1s55s4p", "4p", {"by": "discard", "indicator": "5s"}, "9p changed to 6p"),
])
def test_a_change_the_region_refuses_is_no_win_and_the_hand_given_is_refused(rules, concealed, tile, kw, change):
    message = rejected(winner_record(rules, concealed, tile, **kw))
    assert message.startswith(f"players[1]'s hand is not a legal win under {rules} rules; it would be one with {change}")


def test_a_robbed_kong_with_no_pung_to_rob_counts_the_tiles_on_the_table():
    assert rejected(winner_record("daishan", "123m456m789m99p999s", "9s", "rob_kong")).startswith(
        "3 copies of 9s on the table: robbing a kong takes its fourth 9s")


def test_a_tile_string_longer_than_any_hand_is_not_kept_in_the_parse_cache():
    from scoring.tiles import _parse

    _parse.cache_clear()  # what other tests left there
    sizes = []
    for run in ("123m", "456m"):  # 90,000 tiles each: refused; the record's short strings are cached the first time
        assert "copies of" in rejected(winner_record("daishan", run * 30_000, run[-2:]))
        sizes.append(_parse.cache_info().currsize)
    assert sizes[1] == sizes[0] + 1  # the second record's winning tile 6m, not its long hand
