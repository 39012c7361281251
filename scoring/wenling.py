"""Wenling 温岭 rules (spec §3): 得 wilds, special tiles, 腊子, 和 and 番 for all four hands, mutual settlement, 包三家.

Every hand is scored: ``total = (base + 20) × 2^番``, 500 at most, rounded up to a multiple of 10
(「牌点汇总 = （基础牌点 + 基础20和） *2^ 番数」). The winner's total is the best over every reading of
the hand, the 得 standing for whatever pays most (「服务器会自动为玩家算出最高的汇点」); the other hands
are counted by kind, 得 ignored. Coins are totals / 10: each non-winner pays the winner, and between
non-winners the lower total pays the difference (「（被支付方牌点汇总－支付方牌点汇总）/10」).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from scoring.hands import KONG, PAIR, SEQUENCE, TRIPLET, Block, HandSpec, Reading, readings
from scoring.items import Item, Rule, split_sums
from scoring.record import Player, RecordError, Table
from scoring.region import HeldLaidAside, OptionInfo, Region, RegionInfo
from scoring.result import Payment, Result, SeatResult, net_of
from scoring.tiles import (DRAGONS, FLOWERS, PLAYING_TILES, SUIT_BITS, TILE_INDEX, WINDS, brief, format_tiles,
                           is_flower, is_terminal, seat_wind)

CAP = 500
BAO_FACTS_EN = {"sheng_phase": "the table was in the 生牌 phase", "tile_was_sheng": "the winning discard was a 生牌",
                "discarder_all_sheng": "the discarder held only 生牌", "discarder_tenpai": "the discarder was ready (听牌)"}
BAO_FACTS_ZH = {"sheng_phase": "处于生牌阶段", "tile_was_sheng": "所放的牌是生牌", "discarder_all_sheng": "放炮者手中全是生牌",
                "discarder_tenpai": "放炮者已听牌"}
"""The 包三家 facts as the page's boxes name them, in English and Chinese (webui/static/i18n.js CONTEXT_FIELDS; a
test checks they agree)."""
BAO_FACTS = tuple(BAO_FACTS_EN)

INFO = RegionInfo(
    key="wenling", name="Wenling", name_zh="温岭", hand_size=16, unit="金币",
    options=(
        OptionInfo("white_always_de", False, "bool",
                   "every White is also a 得 (wild), and 發 and 中 are the special tiles",
                   "白板一律为得，发财与红中做特殊牌（原文「白板同样为得」）"),
        OptionInfo("seat_flower_fan_winner_only", False, "bool",
                   "the own-seat flower +1 番 counts for the winner only",
                   "门风花牌加 1 番只算和牌者"),
        OptionInfo("discard_triplet_concealed", True, "bool",
                   "a triplet completed by a discarded winning tile is a 暗刻 8/4 (unticked: an exposed 刻子 4/2)",
                   "点炮完成的刻子按暗刻 8/4 和计（否则按刻子 4/2 和）"),
        OptionInfo("patterns_exclude_de", False, "bool",
                   "a 得 inside a set voids 对对和 and 旁和",
                   "刻、顺中含得时不计对对和、旁和"),
        OptionInfo("flower_groups", (FLOWERS[:4], FLOWERS[4:]), "flower_groups",
                   "the two colour groups of flowers: four of a group is 腊子; "
                   "a flower indicator makes its group's others 得",
                   "花牌的两组颜色（红花、黑花）：一组 4 张为腊子；翻出花牌时同组另三张为得"),
        OptionInfo("bao_exempt_all_sheng", False, "bool",
                   "a discarder holding only 生牌 is never 包 (default: only when also not 听)",
                   "打生牌者手里全是生牌即不算包三家（默认还须未听牌）"),
    ),
    flags=("kong_replacement", "after_special_kong"),
    context=("bao",),
    indicator="得", indicator_name="de (wild)", scores_non_winners=True, asks=("dealer", "indicator"),
    # 「若“庄家”无法“和牌”就称之为“下庄”…若庄家下庄，南家自动转为“庄家”」; 黄牌 「同时庄家自动下庄」
    dealer_after=("keep_or_pass", "pass"),
    wins_on_laid_aside=True,  # 「可立即和牌」: a 腊子 completed by the flower or special tile drawn (spec §3.3)
    description="16 tiles (17 for the winner); 5 sets + pair; 得 wilds, special tiles, 腊子 500; all four hands scored.",
)


@dataclass(frozen=True)
class TileRoles:
    """The roles of the tiles at a table, from the indicator X (spec §3.2): 得 (wild), special tiles
    (laid aside like flowers), 字牌 (dragons that are neither) and the two flower colour groups."""

    de: frozenset[str]
    specials: frozenset[str]
    zipai: frozenset[str]
    groups: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, indicator: str | None, options: dict) -> TileRoles:
        """From the indicator and the table's options (all Wenling options, defaults filled in)."""
        return _tile_roles(indicator, options["white_always_de"], options["flower_groups"])

    def heavy(self, code: str) -> bool:
        """风牌、1、9 牌、字牌."""
        return code in WINDS or is_terminal(code) or code in self.zipai


@lru_cache(maxsize=256)
def _tile_roles(x: str | None, white_de: bool, groups: tuple[tuple[str, ...], ...]) -> TileRoles:
    de: set[str] = set()
    if x is not None:
        de |= set(next(g for g in groups if x in g)) - {x} if is_flower(x) else {x}
    if white_de:
        de.add("5z")
    if x == "5z" or white_de:
        specials = {"6z", "7z"}
    elif x is not None and is_flower(x):
        specials = {"5z", "6z", "7z"}
    else:
        specials = {"5z"}
    specials -= de  # a tile that is 得 「不再具有特殊牌的功能」
    return TileRoles(frozenset(de), frozenset(specials), frozenset(DRAGONS) - specials - de, groups)


@dataclass(frozen=True)
class _Seat:
    """One seat at this table: its wind and flowers, and whether a claimed winning tile's triplet is exposed."""

    roles: TileRoles
    seat: int
    wind: str
    own_flowers: frozenset[str]
    claimed_triplet_exposed: bool = False

    def exposed(self, b: Block) -> bool:
        """刻子 (a pung, or a triplet the discarded winning tile completed when the option says so)."""
        return b.shape == TRIPLET and (not b.concealed or (b.winning and self.claimed_triplet_exposed))

    def heavy(self, code: str) -> bool:
        return self.roles.heavy(code)


# -- 和 per set or pair (spec §3.3 step 3), conditions on (block, seat) -------------------------------------
PAIR_VALUE = Rule("pair of the seat wind or a dragon", "门风对、字牌对", "对子 (门风/字牌)", 2, "和",
                  "对子 每个自家门风对、字牌对 2 和",
                  lambda b, s: b.shape == PAIR and (b.tile == s.wind or b.tile in s.roles.zipai))
PUNG_HEAVY = Rule("pung of winds, terminals or dragons", "风牌、1、9 牌、字牌刻子", "刻子 (幺九)", 4, "和",
                  "刻子 每个风牌刻子、 1 、 9 牌刻子、字牌刻子（不包括翻白板或红中） 4 和",
                  lambda b, s: s.exposed(b) and s.heavy(b.tile))
PUNG = Rule("pung", "其它刻子", "刻子", 2, "和", "每个其它刻子 2 和",
            lambda b, s: s.exposed(b) and not s.heavy(b.tile))
TRIPLET_HEAVY = Rule("concealed triplet of winds, terminals or dragons", "风牌、1、9 牌、字牌暗刻", "暗刻 (幺九)", 8, "和",
                     "暗刻 每个风牌暗刻、 1 、 9 牌暗刻、字牌暗刻 8 和",
                     lambda b, s: b.shape == TRIPLET and not s.exposed(b) and s.heavy(b.tile))
TRIPLET_PLAIN = Rule("concealed triplet", "其它暗刻", "暗刻", 4, "和", "每个其它暗刻 4 和",
                     lambda b, s: b.shape == TRIPLET and not s.exposed(b) and not s.heavy(b.tile))
EXPOSED_KONG_HEAVY = Rule("exposed kong of winds, terminals or dragons", "风牌、1、9 牌、字牌明杠", "明杠 (幺九)", 16, "和",
                          "明杠 每个风牌明杠、 1 、 9 牌明杠、字牌明杠 16 和",
                          lambda b, s: b.shape == KONG and not b.concealed and s.heavy(b.tile))
EXPOSED_KONG = Rule("exposed kong", "其它明杠", "明杠", 8, "和", "每个其它明杠 8 和",
                    lambda b, s: b.shape == KONG and not b.concealed and not s.heavy(b.tile))
CONCEALED_KONG_HEAVY = Rule("concealed kong of winds, terminals or dragons", "风牌、1、9 牌、字牌暗杠", "暗杠 (幺九)", 32, "和",
                            "暗杠 每个风牌暗杠、 1 、 9 牌暗杠、字牌暗杠 32 和",
                            lambda b, s: b.shape == KONG and b.concealed and s.heavy(b.tile))
CONCEALED_KONG = Rule("concealed kong", "其它暗杠", "暗杠", 16, "和", "每个其它暗杠 16 和（闲家表；和牌家表此格缺失）",
                      lambda b, s: b.shape == KONG and b.concealed and not s.heavy(b.tile))
# -- 番 per set ---------------------------------------------------------------------------------------------
SEAT_WIND_SET = Rule("triplet or kong of the seat wind", "门风刻、杠", "门风刻、杠", 1, "番",
                     "门风刻、杠 自家门风刻子或暗刻或明杠或暗杠均以 1番计算",
                     lambda b, s: b.is_triplet and b.tile == s.wind)
ZIPAI_SET = Rule("triplet or kong of a dragon", "字牌刻、杠", "字牌刻、杠", 1, "番",
                 "字牌刻、杠 字牌刻子或暗刻或明杠或暗杠均以 1番计算",
                 lambda b, s: b.is_triplet and b.tile in s.roles.zipai)
BLOCK_RULES = (PAIR_VALUE, PUNG_HEAVY, PUNG, TRIPLET_HEAVY, TRIPLET_PLAIN, EXPOSED_KONG_HEAVY, EXPOSED_KONG,
               CONCEALED_KONG_HEAVY, CONCEALED_KONG, SEAT_WIND_SET, ZIPAI_SET)

# -- laid-aside tiles -----------------------------------------------------------------------------------------
SPECIAL_HE = Rule("exposed special tile", "翻特殊牌", "翻白板", 4, "和",
                  "翻白板 每张翻出的白板以 4 和计算（翻红中、翻发财以白板和数计算）")
SPECIAL_FAN = Rule("exposed special tile", "翻特殊牌", "翻白板", 1, "番",
                   "翻白板 和家翻出的每张白板以 1番计算（翻红中、翻发财以白板番数计算）")
SPECIAL_ZH = {"5z": "翻白板", "6z": "翻发财", "7z": "翻红中"}
"""An exposed special tile's item as the rules name it by the tile (「翻红中、翻发财以白板和数计算」, spec §3.2)."""
SEAT_FLOWER = Rule("the seat's own flower", "门风花牌", "门风花牌", 1, "番", "门风花牌 抓到与门风相应的花牌则番数加 1")
BASE = Rule("base", "基础 20 和", "基础20和", 20, "和", "牌点汇总 = （基础牌点 + 基础20和） *2^ 番数")

# -- the winner's wait and win (spec §3.3), conditions on _Win -----------------------------------------------
DANDIAO = Rule("single wait", "单吊", "单吊", 2, "和", "单吊 单吊为 2 和", lambda h: h.wait == "单吊")
QIANDANG = Rule("middle wait", "嵌档", "嵌档", 2, "和", "嵌档 嵌档为 2 和", lambda h: h.wait == "嵌档")
KAOBING = Rule("edge wait", "靠柄", "靠柄", 2, "和", "靠柄 靠柄为 2 和", lambda h: h.wait == "靠柄")
ZIMO = Rule("self-drawn", "自摸", "自摸", 2, "和", "自摸 自摸为 2 和", lambda h: h.table.win.self_drawn)
QINGYISE = Rule("one suit", "清一色", "清一色", 4, "番", "清一色 清一色为 4番",
                lambda h: len(h.reading.suits) == 1 and not h.reading.has_honours)
HUNYISE = Rule("one suit and honours", "混一色", "混一色", 2, "番", "混一色 混一色为 2番",
               lambda h: len(h.reading.suits) <= 1 and h.reading.has_honours)
DUIDUI = Rule("all triplets", "对对和", "对对和", 2, "番", "对对和 对对和为 2番",
              lambda h: all(b.is_triplet for b in h.reading.sets) and h.sets_may_use_de)
PANGHU = Rule("all sequences, no wait bonus", "旁和", "旁和", 1, "番", "旁和 旁和为 1番",
              lambda h: all(b.is_sequence for b in h.reading.sets) and h.wait is None and h.sets_may_use_de)
WU_DE = Rule("no 得", "无“得”", "无得", 1, "番", "无“得” 手里无“得”为 1番", lambda h: h.de_count == 0)
TWO_DE = Rule("two 得", "2 张“得”", "2 张得", 1, "番", "2 张“得” 2 张“得”为 1番", lambda h: h.de_count == 2)
KONG_BLOOM = Rule("win on a replacement tile", "杠上开花", "杠上开花", 1, "番",
                  "杠上开花 杠上开花为 1番（但不包括杠白板时产生的和牌）",
                  lambda h: "kong_replacement" in h.table.win.flags and "after_special_kong" not in h.table.win.flags)
ROB_KONG = Rule("robbing a kong", "抢杠和", "抢杠和", 1, "番", "抢杠和 抢杠和为 1番", lambda h: h.table.win.by == "rob_kong")
ZIMO_DE = Rule("self-drawn 得", "自摸得", "自摸得", 1, "番", "自摸得 自摸得为 1番",
               lambda h: h.table.win.self_drawn and h.table.win.tile in h.seat.roles.de)
WIN_RULES = (DANDIAO, QIANDANG, KAOBING, ZIMO, QINGYISE, HUNYISE, DUIDUI, PANGHU, WU_DE, TWO_DE, KONG_BLOOM,
             ROB_KONG, ZIMO_DE)

# -- 腊子 = 500 (spec §3.3 step 1, §3.4) -------------------------------------------------------------------
LAZI_THREE_DE = Rule("three 得", "3 张“得”", "腊子: 3 张得", CAP, "和", "3 张“得” 获得3张“得”既成为腊子，可立即和牌")
LAZI_FLOWERS = Rule("four flowers of one colour", "4 张“红花”/“黑花”", "腊子: 4 张同色花", CAP, "和",
                    "4 张“红花” 获得4张红色花牌成为腊子，可立即和牌 4 张“黑花” 获得4张黑色花牌成为腊子，可立即和牌")
LAZI_WHITE = Rule("four White", "4 张“白板”", "腊子: 4 张白板", CAP, "和", "4 张“白板” 获得4张白板成为腊子，可立即和牌")
LAZI_SEAT_KONG = Rule("concealed kong of the seat wind", "暗杠“门风”", "腊子: 暗杠门风", CAP, "和",
                      "暗杠“门风” 暗杠“门风”成为腊子，可立即和牌")
LAZI_ZIPAI_KONG = Rule("concealed kong of a dragon", "暗杠“字牌”", "腊子: 暗杠字牌", CAP, "和",
                       "暗杠“字牌” 暗杠“字牌”成为腊子，可立即和牌")
LAZI_WINDS = Rule("all four winds", "四风会齐", "腊子: 四风会齐", CAP, "和",
                  "四风会齐 和牌方的牌中（必须符合和牌条件），东南西北风全部有，为四风会齐 … 四风会齐为腊子，以满贯计算")
LAZI_WINDS_HELD = Rule("all four winds as sets", "四风会齐", "腊子: 四风会齐", CAP, "和",
                       "非和牌家的牌中，若四个风牌均为刻或杠，或门风对加其它三风牌均为刻或杠。可以用得顶替其中风字牌数。")

# -- 包三家 -------------------------------------------------------------------------------------------------
BAO = Rule("paying for all (包三家)", "包三家", "包三家", 0, "和",
           "包三家后，被包方的牌点归零处理…包三家过程中，支付方式与正常和牌相同，但均由被包方支付。")


@dataclass(frozen=True)
class _Win:
    """One reading of the winner's hand with what the wait and pattern conditions read."""

    reading: Reading
    seat: _Seat
    table: Table
    de_count: int

    @property
    def wait(self) -> str | None:
        """单吊, 嵌档, 靠柄 or None (two-sided wait or a triplet), from the block the winning tile completes."""
        return _wait(self.reading.winning)

    @property
    def sets_may_use_de(self) -> bool:
        return not self.table.options["patterns_exclude_de"] or not any(any(b.wild) for b in self.reading.sets)


def _wait(b: Block | None) -> str | None:
    if b is None or not b.winning:
        return None
    if b.shape == PAIR:
        return "单吊"
    if b.shape == SEQUENCE:
        if b.win_at == 1:
            return "嵌档"
        if (b.win_at == 2 and b.tile[0] == "1") or (b.win_at == 0 and b.tile[0] == "7"):
            return "靠柄"
    return None


@dataclass(frozen=True)
class _Summary:
    """The hand search's merge key for a seat: a block's 和 and 番 and what the hand patterns read.

    (Σ和, Σ番, suits bitmask, honours, winds bitmask, has a sequence, has a triplet, a 得 in a set, wait);
    two readings with equal summaries score the same total, so only one of them is kept.
    """

    seat: _Seat

    def __call__(self, b: Block) -> tuple:
        he, fan = _values(b, self.seat)
        code = b.tile
        return (he, fan, SUIT_BITS.get(code[1], 0), code[1] == "z", _WIND_BITS.get(code, 0), b.is_sequence,
                b.is_triplet, any(b.wild) and not b.is_pair, _wait(b))


@lru_cache(maxsize=8192)
def _block_items(b: Block, seat: _Seat) -> tuple[Item, ...]:
    """The set rules' items of one block (cached: alike blocks recur within and across tables)."""
    return tuple(rule.item(b.text) for rule in BLOCK_RULES if rule.applies(b, seat))


@lru_cache(maxsize=8192)
def _values(b: Block, seat: _Seat) -> tuple[int, int]:
    """Σ和 and Σ番 of the block's set rules."""
    return split_sums(_block_items(b, seat), "和")


_WIND_BITS = {w: 1 << i for i, w in enumerate(WINDS)}


def _combine(a: tuple, b: tuple) -> tuple:
    return (a[0] + b[0], a[1] + b[1], a[2] | b[2], a[3] or b[3], a[4] | b[4], a[5] or b[5], a[6] or b[6],
            a[7] or b[7], a[8] or b[8])


class Wenling(Region):
    info = INFO

    # -- checks ------------------------------------------------------------------------------------------
    def laid_aside(self, table: Table) -> frozenset[str]:
        """The flowers that are not 得 and the special tiles (spec §3.2)."""
        roles = TileRoles.of(table.indicator, table.options)
        return frozenset(FLOWERS) - roles.de | roles.specials

    def check_tiles(self, table: Table) -> None:
        roles = TileRoles.of(table.indicator, table.options)
        for p in table.players:
            where = f"players[{p.seat}]"
            for t in p.concealed or ():
                if t in roles.specials:
                    raise HeldLaidAside(f"{where}.concealed holds the special tile {t}; "
                                        "specials are laid aside in 'flowers'", p.seat, t)
                if is_flower(t) and t not in roles.de:
                    raise HeldLaidAside(f"{where}.concealed holds the flower {t}; flowers go in 'flowers'", p.seat, t)
            for t in p.flowers:
                if t in roles.de:
                    raise RecordError(f"{where}.flowers holds {t}, a 得; 得 stay in the concealed hand")
                if not (is_flower(t) or t in roles.specials):
                    raise RecordError(f"{where}.flowers holds {t}, which is neither a flower nor a special tile "
                                      f"({format_tiles(roles.specials)})")
            for m in p.melds:
                bad = next((t for t in m.tiles if t in roles.de or t in roles.specials), None)
                if bad is not None:
                    kind = "a 得" if bad in roles.de else "a special tile"
                    raise RecordError(f"{where} has a meld {''.join(m.tiles)} with {bad}, {kind}, "
                                      "which cannot be melded")
        win = table.win
        if win is not None and win.by != "self_draw" and win.tile in roles.de:
            raise RecordError(f"win.tile {win.tile} is a 得: a discarded 得 cannot be won on")
        bao = table.context.get("bao")
        if bao is not None:
            if not isinstance(bao, dict):
                raise RecordError("context.bao must be an object of true/false facts")
            # a field besides the four facts is ignored as extra (a note); with a fact missing, taken as false,
            # it is more likely that fact misspelt, and refused
            unknown = next((key for key in bao if key not in BAO_FACTS), None)
            if unknown is not None and not set(BAO_FACTS) <= set(bao):
                raise RecordError(f"unknown context.bao field {brief(unknown)} (known: {', '.join(BAO_FACTS)})")
            for key, value in ((key, bao[key]) for key in BAO_FACTS if key in bao):
                if not isinstance(value, bool):
                    raise RecordError(f"context.bao.{key} must be true or false, got {brief(value)}")

    def check_win(self, table: Table) -> None:
        super().check_win(table)
        if table.win is None:
            return
        flags, winner = table.win.flags, table.winner
        if "after_special_kong" in flags and "kong_replacement" not in flags:
            raise RecordError("flag after_special_kong needs kong_replacement")
        if "kong_replacement" in flags and not winner.has_kong_or_flower:
            raise RecordError("flag kong_replacement needs a kong, flower or special tile of the winner: "
                              "a replacement tile is drawn only after one")
        specials = self._seat(table, winner.seat).roles.specials
        if "after_special_kong" in flags and not specials & set(winner.flowers):
            raise RecordError("flag after_special_kong needs a special tile laid aside by the winner")

    def size_reason(self, table: Table, p: Player) -> str:
        """A winner a tile short of a complete hand who holds a 腊子 but won on a discard."""
        return self._lazi_on_discard(table, p) if p.size == self.info.hand_size else ""

    def no_win_reason(self, table: Table) -> str:
        """A winner of a hand that is no winning shape who holds a 腊子 but won on a discard."""
        return self._lazi_on_discard(table, table.winner)

    def _lazi_on_discard(self, table: Table, p: Player) -> str:
        """Why ``p``'s 腊子 does not make the win: it wins without a complete hand only when self-drawn."""
        win = table.win
        if win is None or win.player != p.seat or win.self_drawn or not _instant_lazi(p, self._seat(table, p.seat)):
            return ""
        return ("; a 腊子 wins without a complete hand only when self-drawn (「可立即和牌」): won on a discard, "
                "the hand must be complete")

    def allowed_sizes(self, table: Table, seat: int) -> tuple[int, ...]:
        """17 for the winner (spec §1); an instant 腊子 (self-drawn, no complete hand needed) may also hold 16,
        when the flower, special or kong tile that completed it was laid aside with no replacement drawn (a
        winning tile drawn into the hand makes 17)."""
        if table.win and table.win.player == seat and self._lazi_by_laid_tile(table):
            return self.info.hand_size, self.info.hand_size + 1
        return super().allowed_sizes(table, seat)

    def win_tile_present(self, table: Table) -> bool:
        return super().win_tile_present(table) or self._lazi_by_laid_tile(table)

    def _lazi_by_laid_tile(self, table: Table) -> bool:
        win, p = table.win, table.winner
        laid = set(p.flowers) | {t for m in p.melds for t in m.tiles}
        return (win.self_drawn and win.tile not in (p.concealed or ()) and win.tile in laid
                and bool(_instant_lazi(p, self._seat(table, p.seat))))

    def is_win(self, table: Table) -> bool:
        p = table.winner
        seat = self._seat(table, p.seat)
        if table.win.self_drawn and _instant_lazi(p, seat):
            return True
        return table.win.tile in p.concealed and bool(self.winner_readings(table))

    # -- scoring -------------------------------------------------------------------------------------------
    def _seat(self, table: Table, seat: int) -> _Seat:
        wind = seat_wind(seat, table.dealer)
        w = WINDS.index(wind)
        own = frozenset({FLOWERS[w], ("5f", "6f", "8f", "7f")[w]})
        claimed = table.win is not None and table.win.by != "self_draw"
        exposed = claimed and not table.options["discard_triplet_concealed"]
        return _Seat(TileRoles.of(table.indicator, table.options), seat, wind, own, exposed)

    def _spec(self, table: Table, p: Player, seat: _Seat) -> HandSpec:
        roles, win = seat.roles, table.win
        return HandSpec.of(
            p.concealed, lambda t: t in roles.de,
            wild_as=tuple(t for t in PLAYING_TILES if t not in roles.specials),
            wild_kinds=frozenset(t for t in roles.de if not is_flower(t)),
            win=None if win.tile in roles.de else win.tile, win_wild=win.tile in roles.de)

    def winner_readings(self, table: Table, exhaustive: bool = False) -> tuple[Reading, ...]:
        """Every reading of the winner's hand, alike readings merged unless ``exhaustive`` (slow; for checks)."""
        p = table.winner
        seat = self._seat(table, p.seat)
        merge = (None, None) if exhaustive else (_Summary(seat), _combine)
        return readings(self._spec(table, p, seat), tuple(Block.from_meld(m) for m in p.melds), *merge)

    def winner_result(self, table: Table, exhaustive: bool = False) -> tuple[SeatResult, Reading | None]:
        """The winner's best total with its items, and the reading it comes from (None for an instant 腊子)."""
        p = table.winner
        seat = self._seat(table, p.seat)
        lazi = _instant_lazi(p, seat)
        if lazi:
            return _lazi_result(p.seat, lazi), None
        found = self.winner_readings(table, exhaustive)
        four_winds = next((r for r in found if set(WINDS) <= set(r.tiles)), None)
        if four_winds is not None:  # Step 1 (f): 腊子, whatever the other readings make
            return _lazi_result(p.seat, [LAZI_WINDS.item()]), four_winds
        de_count = sum(t in seat.roles.de for t in p.concealed)
        laid_aside = _laid_aside_items(p, seat, True)
        best_total, best = -1, None
        for reading in found:
            hand = _Win(reading, seat, table, de_count)
            sums = [_values(b, seat) for b in reading.blocks]
            sums += [split_sums(laid_aside, "和"), split_sums((r for r in WIN_RULES if r.applies(hand)), "和")]
            total = _total(sum(h for h, _ in sums), sum(f for _, f in sums))
            if total > best_total:
                best_total, best = total, reading
        hand = _Win(best, seat, table, de_count)
        items = _set_items(best.blocks, seat) + laid_aside + [r.item() for r in WIN_RULES if r.applies(hand)]
        return _seat_result(p.seat, items), best

    def non_winner_result(self, table: Table, p: Player) -> SeatResult:
        seat = self._seat(table, p.seat)
        lazi = _instant_lazi(p, seat) or _four_winds_held(p, seat)
        if lazi:
            return _lazi_result(p.seat, lazi)
        counts: dict[str, int] = {}
        for t in p.concealed or ():
            if t not in seat.roles.de:
                counts[t] = counts.get(t, 0) + 1
        held = sorted(counts.items(), key=lambda kv: TILE_INDEX[kv[0]])
        blocks = [Block(TRIPLET, (t,) * 3, (False,) * 3) for t, n in held if n >= 3]
        blocks += [Block(PAIR, (t,) * 2, (False,) * 2) for t, n in held if n == 2]
        blocks += [Block.from_meld(m) for m in p.melds]
        flower_fan = not table.options["seat_flower_fan_winner_only"]
        return _seat_result(p.seat, _set_items(blocks, seat) + _laid_aside_items(p, seat, flower_fan))

    def score(self, table: Table) -> Result:
        win = table.win
        if win is None:
            seats = tuple(SeatResult(s, 0, "和") for s in range(4))
            return Result(self.info.key, (0, 0, 0, 0), (), seats, None, self.info.unit, extra={"note": "黄牌"})
        winner, reading = self.winner_result(table)
        seats = [winner if p.seat == win.player else self.non_winner_result(table, p) for p in table.players]
        outcome = bao_outcome(table)
        bao = outcome["payer"] if outcome else None
        if bao is not None:
            kept = seats[bao]
            counts_0 = BAO.item(f"hand total {kept.total} counts 0", detail_zh=f"本家牌点 {kept.total} 和按 0 计")
            seats[bao] = SeatResult(bao, 0, "和", kept.items + (counts_0,),
                                    {**kept.extra, "hand_total": kept.total, "bao": True,
                                     "formula": f"{kept.extra['formula']} → 0 (包三家)"})
        payments = _settle(win.player, [s.total for s in seats], bao)
        return Result(self.info.key, net_of(payments), tuple(payments), tuple(seats), win.player, self.info.unit,
                      reading.describe() if reading else None, {"bao": outcome} if outcome else {})


def _instant_lazi(p: Player, seat: _Seat) -> list[Item]:
    """腊子 that needs no complete hand: 3 得, 4 flowers of a colour, 4 White, 暗杠 of seat wind or a 字牌."""
    roles = seat.roles
    if sum(t in roles.de for t in p.concealed or ()) >= 3:
        return [LAZI_THREE_DE.item()]
    for group in roles.groups:
        if set(group) <= set(p.flowers):
            return [LAZI_FLOWERS.item(format_tiles(group))]
    if p.flowers.count("5z") == 4:
        return [LAZI_WHITE.item()]
    for m in p.melds:
        if m.kind == "kong" and m.concealed and m.tile == seat.wind:
            return [LAZI_SEAT_KONG.item(m.tile)]
        if m.kind == "kong" and m.concealed and m.tile in roles.zipai:
            return [LAZI_ZIPAI_KONG.item(m.tile)]
    return []


def _four_winds_held(p: Player, seat: _Seat) -> list[Item]:
    """A non-winner's 四风会齐: each wind a triplet or kong (the seat wind may be a pair), 得 filling gaps."""
    melded = {m.tile for m in p.melds if m.kind in ("pung", "kong")}
    concealed = p.concealed or ()
    # a 得 counts once: as a filler, never also as a natural wind (the indicator may be a wind, e.g. 1z: 得 = 1z)
    natural = [t for t in concealed if t not in seat.roles.de]
    missing = sum(max(0, (2 if w == seat.wind else 3) - natural.count(w)) for w in WINDS if w not in melded)
    de_count = len(concealed) - len(natural)
    return [LAZI_WINDS_HELD.item()] if missing <= de_count else []


def _set_items(blocks, seat: _Seat) -> list[Item]:
    return [item for b in blocks for item in _block_items(b, seat)]


def _laid_aside_items(p: Player, seat: _Seat, seat_flower_fan: bool) -> list[Item]:
    items = []
    specials = [t for t in p.flowers if t in seat.roles.specials]
    if specials:
        text = format_tiles(specials)
        name_zh = "、".join(SPECIAL_ZH[t] for t in sorted(set(specials), key=TILE_INDEX.__getitem__))
        items += [SPECIAL_HE.item(text, 4 * len(specials), name_zh=name_zh),
                  SPECIAL_FAN.item(text, len(specials), name_zh=name_zh)]
    own = [t for t in p.flowers if t in seat.own_flowers]
    if own and seat_flower_fan:
        items.append(SEAT_FLOWER.item(format_tiles(own), len(own)))
    return items


def _total(base: int, fan: int) -> int:
    """(base + 20) × 2^番, 500 at most, rounded up to a multiple of 10."""
    raw = (base + BASE.value) * 2 ** fan
    return CAP if raw >= CAP else -(-raw // 10) * 10


def _seat_result(seat: int, items: list[Item]) -> SeatResult:
    base, fan = split_sums(items, "和")
    raw = (base + BASE.value) * 2 ** fan
    total = _total(base, fan)
    extra = {"base": base, "fan": fan, "raw": raw,
             "formula": f"({base} + 20) × 2^{fan} = {raw}" + (f" → {total}" if total != raw else "")}
    return SeatResult(seat, total, "和", (BASE.item(),) + tuple(items), extra)


def _lazi_result(seat: int, items: list[Item]) -> SeatResult:
    return SeatResult(seat, CAP, "和", tuple(items), {"lazi": True, "formula": f"腊子: the limit, {CAP}"})


# what a record's 包三家 facts come to (`bao_outcome`): the condition that fails, or None when it applies
BAO_NOTES = {
    None: ("包三家 applies: the discarder pays for everyone", "包三家：放炮者为被包方，代付三家"),  # the page names it
    "by": ("no 包三家: only a win on a discard is paid by the discarder alone", "不包三家：只有点炮和才包三家"),
    "sheng_phase": ("no 包三家: the table was not in the 生牌 phase", "不包三家：未到生牌阶段"),
    "tile_was_sheng": ("no 包三家: the winning discard was not a 生牌", "不包三家：所放的牌不是生牌"),
    "exempt": ("no 包三家: the discarder held only 生牌 and was not ready (听牌)", "不包三家：放炮者手中全是生牌且未听牌"),
    "exempt_option": ("no 包三家: the discarder held only 生牌 (table option: a discarder holding only 生牌 is never 包)",
                      "不包三家：放炮者手中全是生牌（本桌选项：全是生牌即不包）"),
}


def bao_outcome(table: Table) -> dict[str, Any] | None:
    """Whether 包三家 applies (spec §3.5 rule 3), for a record that gives ``context.bao`` (else None):
    ``payer`` (the discarder, or None), ``why`` (the first condition that fails: a key of BAO_NOTES) and its
    ``note`` and ``note_zh``, which say when the fact that decided it was not given (a fact left out is false)."""
    if table.context.get("bao") is None:
        return None
    facts = {key: False for key in BAO_FACTS} | table.context["bao"]
    failed = "by" if table.win.by != "discard" else next(
        (key for key in ("sheng_phase", "tile_was_sheng") if not facts[key]), None)
    if failed is None and facts["discarder_all_sheng"]:
        if not facts["discarder_tenpai"]:
            failed = "exempt"
        elif table.options["bao_exempt_all_sheng"]:
            failed = "exempt_option"
    note, note_zh = BAO_NOTES[failed]
    deciding = "discarder_tenpai" if failed == "exempt" else failed
    if deciding in BAO_FACTS and deciding not in table.context["bao"]:  # said so, not told so
        note = f"{note} (“{BAO_FACTS_EN[deciding]}” not given: taken as no)"
        note_zh = f"{note_zh}（未填“{BAO_FACTS_ZH[deciding]}”，按否计）"
    return {"payer": None if failed else table.win.source, "why": failed, "note": note, "note_zh": note_zh}


def _settle(winner: int, totals: list[int], bao: int | None) -> list[Payment]:
    """Coins = totals / 10: non-winners pay the winner and settle among themselves; a 被包 player pays it all."""
    losers = [s for s in range(4) if s != winner]
    coins = [t // 10 for t in totals]
    payments = []
    if bao is None:
        payments += [Payment(s, winner, coins[winner], "和牌支付（牌点汇总/10）", "to the winner (points ÷ 10)") for s in losers]
        for a, b in combinations(losers, 2):
            low, high = sorted((a, b), key=lambda s: coins[s])
            payments.append(Payment(low, high, coins[high] - coins[low], "闲家互付（差额/10）",
                                    "between non-winners (difference ÷ 10)"))
    else:
        payments.append(Payment(bao, winner, 3 * coins[winner], "包三家：被包方代付三家和牌支付",
                                "包三家: the discarder pays the winner for all three"))
        rest = [s for s in losers if s != bao]
        payments += [Payment(bao, s, coins[s], "包三家：被包方牌点归零，按闲家结算支付",
                            "包三家: the discarder, its points taken as zero, pays the other non-winners") for s in rest]
        low, high = sorted(rest, key=lambda s: coins[s])
        payments.append(Payment(bao, high, coins[high] - coins[low], "包三家：另二闲家之间的结算额由被包方支付",
                                "包三家: the discarder pays what the other two non-winners would settle"))
    return [p for p in payments if p.amount > 0]


REGION = Wenling()
