"""Properties over generated legal tables (tests/strategies.py), for every region with a generator."""
import copy
import json
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring import RecordError, score_table, validate_table
from scoring.tiles import TILE_CODES, parse_tiles
from scoring.wenling import REGION as WENLING
from scoring.wenling import TileRoles
from tests.records import winner_record
from tests.strategies import TABLES, legal_tables, wenling_tables

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
REGIONS = sorted(TABLES)


@pytest.mark.parametrize("rules", REGIONS)
def test_generated_tables_score_and_nets_sum_to_zero(rules):
    @SETTINGS
    @given(legal_tables(rules))
    def check(record):
        result = score_table(record)
        assert len(result["net"]) == 4 and sum(result["net"]) == 0
        assert all(p["amount"] > 0 for p in result["payments"])

    check()


@pytest.mark.parametrize("rules", REGIONS)
def test_every_item_says_itself_in_chinese(rules):
    """The Chinese page shows an item's name_zh and detail_zh alone: tile codes, numbers and Chinese, no English."""
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(legal_tables(rules))
    def check(record):
        for seat in score_table(record)["players"]:
            for item in seat["items"]:
                chinese = re.sub(r"\b(?:[1-9]+[mps]|[1-7]+z|[1-8]+f)+\b", "", f"{item['name_zh']} {item['detail_zh']}")
                assert not re.search(r"[A-Za-z]", chinese), item
                assert item["detail_zh"] in item["name"] or not item["detail_zh"].isascii(), item  # the same detail

    check()


@SETTINGS
@given(legal_tables("wenling"))
def test_wenling_totals_are_multiples_of_ten_at_most_500(record):
    for seat in score_table(record)["players"]:
        assert seat["total"] % 10 == 0 and 0 <= seat["total"] <= 500


def _shuffled(record: dict, rng: random.Random) -> dict:
    """The same table with the tiles of every string written in another order."""
    out = copy.deepcopy(record)

    def scramble(text: str) -> str:
        codes = parse_tiles(text)
        rng.shuffle(codes)
        return "".join(codes)

    for p in out["players"]:
        p["concealed"] = scramble(p["concealed"])
        p["flowers"] = scramble(p["flowers"])
        for m in p["melds"]:
            m["tiles"] = scramble(m["tiles"])
    return out


@pytest.mark.parametrize("rules", REGIONS)
def test_tile_order_never_changes_a_score(rules):
    @SETTINGS
    @given(legal_tables(rules), st.randoms(use_true_random=False))
    def check(record, rng):
        assert score_table(_shuffled(record, rng)) == score_table(record)

    check()


def _with_one_more_de(record: dict, index: int) -> dict | None:
    """The record with the winner's concealed tile ``index`` replaced by a free 得, if that is a legal table."""
    table = validate_table(record)
    roles = TileRoles.of(table.indicator, table.options)
    on_table = Counter(WENLING.counted_tiles(table))
    free = [d for d in sorted(roles.de) if on_table[d] < (1 if d[1] == "f" else 4)]
    win = record["win"]
    hand = parse_tiles(record["players"][win["player"]]["concealed"])
    if not free or hand[index] in roles.de:
        return None
    out = copy.deepcopy(record)
    hand[index] = free[0]
    out["players"][win["player"]]["concealed"] = "".join(hand)
    if win["tile"] not in hand:
        if win["by"] != "self_draw":
            return None
        out["win"]["tile"] = free[0]
    return out


@settings(max_examples=200, deadline=None)
@given(wenling_tables(min_de=1), st.data())
def test_wenling_a_de_more_never_lowers_a_winner_already_holding_one(record, data):
    """Spec §3.3: a 得 can be the tile it replaces, and 番 only grow from one 得 on (2 得 +1, 3 得 腊子).

    Holds with `patterns_exclude_de` off; from no 得 to one the winner loses 无得 (see the next test)."""
    record = copy.deepcopy(record)
    record["options"] = {**record["options"], "patterns_exclude_de": False}
    table = validate_table(record)
    roles = TileRoles.of(table.indicator, table.options)
    natural = [i for i, t in enumerate(table.winner.concealed) if t not in roles.de]
    assume(natural)
    more = _with_one_more_de(record, data.draw(st.sampled_from(natural)))
    assume(more is not None)  # no 得 left on the table, or the only winning tile of a discard win
    before = score_table(record)["players"][table.win.player]["total"]
    after = score_table(more)["players"][table.win.player]["total"]
    assert after >= before


def test_wenling_the_first_de_costs_the_no_de_fan():
    """The counterexample to "a 得 never lowers": 无得 (+1 番) is lost with the first 得."""
    chows = "c123m c456m c789m"
    plain = winner_record("wenling", "234p567s11s", "2p", melds_text=chows, indicator="9p")
    with_de = winner_record("wenling", "234p567s1s9p", "2p", melds_text=chows, indicator="9p")
    assert score_table(plain)["players"][1]["total"] == 90  # (自摸 2 + 20) × 2^(旁和 + 无得) = 88 → 90
    assert score_table(with_de)["players"][1]["total"] == 50  # (2 + 20) × 2^旁和 = 44 → 50


@settings(max_examples=60, deadline=None)
@given(wenling_tables(min_de=1))
def test_wenling_merged_search_finds_the_exhaustive_best(record):
    """Merging alike readings in the search (the Wenling summary key) never changes the winner's best total."""
    table = validate_table(record)
    merged, _ = WENLING.winner_result(table)
    exhaustive, _ = WENLING.winner_result(table, exhaustive=True)
    assert merged.total == exhaustive.total


# -- rejected records: one clear line ---------------------------------------------------------------------------------
def _mutate(record: dict, data) -> dict:
    out = copy.deepcopy(record)
    seat = data.draw(st.integers(0, 3))
    p = out["players"][seat]
    junk = data.draw(st.sampled_from(list(TILE_CODES) + ["0m", "8z", "9f", "x", "5", "m", ""]))
    kind = data.draw(st.integers(0, 9))
    if kind == 0:
        p["concealed"] += junk
    elif kind == 1 and p["concealed"]:
        codes = parse_tiles(p["concealed"])
        codes[data.draw(st.integers(0, len(codes) - 1))] = junk
        p["concealed"] = "".join(codes)
    elif kind == 2:
        p["flowers"] += junk
    elif kind == 3 and out["win"]:
        out["win"]["tile"] = junk
    elif kind == 4:
        out["options"][data.draw(st.sampled_from(["di", "hua", "nope", "white_always_de", "flower_groups"]))] = \
            data.draw(st.one_of(st.none(), st.booleans(), st.integers(-2, 3), st.text(max_size=3)))
    elif kind == 5:
        out.pop(data.draw(st.sampled_from(["rules", "dealer", "players", "win"])))
    elif kind == 6 and p["melds"]:
        p["melds"][0]["tiles"] = data.draw(st.sampled_from(["123m", "124m", "5555m", "111z", junk]))
    elif kind == 7 and out["win"]:
        out["win"][data.draw(st.sampled_from(["by", "from", "player", "flags"]))] = \
            data.draw(st.one_of(st.none(), st.integers(-1, 5), st.text(max_size=4), st.lists(st.text(max_size=4))))
    elif kind == 8:
        out[data.draw(st.sampled_from(["dealer", "indicator", "context", "players"]))] = \
            data.draw(st.one_of(st.none(), st.integers(-1, 5), st.text(max_size=3), st.lists(st.integers())))
    else:
        p["concealed"] = p["concealed"][: len(p["concealed"]) // 2]
    return out


@pytest.mark.parametrize("rules", REGIONS)
def test_every_rejected_record_gets_one_clear_line(rules):
    @SETTINGS
    @given(legal_tables(rules), st.data())
    def check(record, data):
        broken = _mutate(record, data)
        try:
            result = score_table(broken)
        except RecordError as error:
            message = str(error)
            assert message and "\n" not in message and len(message) < 300
        else:
            assert sum(result["net"]) == 0

    check()


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)


@SETTINGS
@given(st.one_of(JSON, st.fixed_dictionaries({"rules": st.sampled_from(REGIONS)}, optional={
    "dealer": JSON, "players": JSON, "win": JSON, "options": JSON, "indicator": JSON, "context": JSON})))
def test_arbitrary_json_is_rejected_with_one_line(value):
    with pytest.raises(RecordError) as caught:
        score_table(json.loads(json.dumps(value)))
    assert str(caught.value) and "\n" not in str(caught.value)
