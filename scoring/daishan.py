"""Daishan 岱山 rules (spec §5): 底 and 花 items, 自摸 from all, 放炮 from the discarder, 拉杠胡 ×3.

Each paying player pays ``(Σ底 + 1) × di + Σ花 × hua`` (「（牌型底分+1）×底的倍数+花的数量×花的倍数」); the
winner's best reading (4 sets + pair, 七小对 or 十三不搭) is the one that pays most.
"""
from __future__ import annotations

from dataclasses import dataclass

from scoring.hands import THIRTEEN_UNRELATED, Block, HandSpec, Reading, readings
from scoring.items import Item, Rule, split_sums
from scoring.record import RecordError, Table
from scoring.region import MAX_STAKE, OptionInfo, Region, RegionInfo
from scoring.result import Payment, Result, SeatResult, net_of, others
from scoring.tiles import FLOWERS, format_tiles, is_honour

INFO = RegionInfo(
    key="daishan", name="Daishan", name_zh="岱山", hand_size=13, unit="分",
    dealer_after=("winner", "keep"),  # 「之后哪个玩家胡就那个玩家坐庄」; 「流局不会过庄」
    options=(
        OptionInfo("di", 2, "int", "points per 底 (the table's 底 multiple)", "底的倍数", minimum=1, maximum=MAX_STAKE),
        OptionInfo("hua", 1, "int", "points per 花 (the table's 花 multiple)", "花的倍数", minimum=0, maximum=MAX_STAKE),
        OptionInfo("concealed_honour_triplet_hua", False, "bool",
                   "a concealed honour triplet also scores +1 花, like an honour pung",
                   "手中暗刻的箭牌也加 1 花（原文只说「箭牌碰出」）"),
        OptionInfo("kaihua_adds_zimo_hua", False, "bool",
                   "杠上开花 also scores the 自摸 +1 花", "杠上开花同时加自摸 1 花（原文「不加花」）"),
        OptionInfo("ziyise_adds_pattern", False, "bool",
                   "字一色 adds 对对胡 / 七小对 on top of its 12 / 16 底", "字一色 12/16 底之外再加对对胡/七小对底数"),
        OptionInfo("qixiaodui_distinct_pairs", True, "bool",
                   "七小对 needs seven different pairs (unticked: four of a kind may be two pairs)",
                   "七小对须为 7 个不同的对子（否则四张相同可算两对）"),
    ),
    flags=("kong_replacement", "last_tile", "heaven", "earth"),
    flag_names=(("heaven", "heavenly hand: the dealer's first draw (天胡)", "天胡"),),  # 「天胡：庄家在未出牌前就胡了」
    description="13 tiles (14 for the winner), no wilds; 4 sets + pair, 七小对 or 十三不搭; 2底1花 by default.",
)

# -- 底 items of the hand (spec §5.2), each on a _Hand ---------------------------------------------------
DUIDUI = Rule("all triplets", "对对胡", "对对胡", 2, "底", "任意四组刻子＋1对将牌，包含碰和杠出去的牌。对对胡底数：2底。",
              lambda h: h.all_triplets and (not h.all_honours or h.ziyise_adds))
THIRTEEN_5_6 = Rule("thirteen unrelated, 5 or 6 stars", "五星/六星十三不搭", "十三不搭 5/6 星", 1, "底",
                    "五星和六星十三幺底数：1底。", lambda h: h.thirteen and h.stars < 7)
THIRTEEN_7 = Rule("thirteen unrelated, 7 stars", "七星十三不搭", "十三不搭 7 星", 2, "底",
                  "七星十三幺底数：2底。", lambda h: h.thirteen and h.stars == 7)
QINGYISE = Rule("one suit", "清一色", "清一色", 4, "底", "所有牌型为单一类型万字或筒子或条子…清一色底数：4底。",
                lambda h: len(h.reading.suits) == 1 and not h.reading.has_honours)
HUNYISE = Rule("one suit and honours", "混一色", "混一色", 2, "底", "由万/筒/条其中一种单色的牌+字牌组成的胡牌牌型。混一色底数：2底。",
               lambda h: len(h.reading.suits) == 1 and h.reading.has_honours)
QIXIAODUI = Rule("seven pairs", "七小对", "七小对", 4, "底", "由不同的花色的牌组成的7个对子的胡牌。七小对底数：4底。",
                 lambda h: h.seven_pairs and (not h.all_honours or h.ziyise_adds))
ZIYISE_DUIDUI = Rule("all honours, all triplets", "字一色+对对胡", "字一色+对对胡", 12, "底",
                     "字一色+对对胡底数：12底。", lambda h: h.all_honours and h.all_triplets)
ZIYISE_QIXIAODUI = Rule("all honours, seven pairs", "字一色+七小对", "字一色+七小对", 16, "底",
                        "字一色+七小对底数：16底。", lambda h: h.all_honours and h.seven_pairs)
HEAVEN = Rule("heavenly hand", "天胡", "天胡", 4, "底", "庄家在未出牌前就胡了。（庄家可补花可暗杠）天胡底数：4底。",
              lambda h: "heaven" in h.flags)
EARTH = Rule("earthly hand", "地胡", "地胡", 2, "底", "庄家打出的第一张牌，由除庄家外的另外三个玩家胡牌，叫做地胡。（仅放炮）",
             lambda h: "earth" in h.flags)
LAST_TILE = Rule("last tile", "海底捞月", "海底捞月", 2, "底", "摸最后一张牌胡牌。（仅自摸）海底捞月底数：2底。",
                 lambda h: "last_tile" in h.flags)
GOLDEN_ROOSTER = Rule("single wait after four melds", "金鸡独立", "金鸡独立", 1, "底",
                      "所有牌吃碰杠出后，手上单独只剩一张，胡单吊。金鸡独立底数：1底。",
                      lambda h: len(h.reading.melds) == 4 and h.reading.pair is not None and h.reading.pair.winning)
KONG_BLOOM = Rule("win on a kong or flower replacement", "杠上开花", "杠上开花", 1, "底",
                  "因为杠（包括补花）而自摸胡牌的情况。杠上开花计算结果：1底。（不加花）",
                  lambda h: "kong_replacement" in h.flags)
HAND_DI = (DUIDUI, THIRTEEN_5_6, THIRTEEN_7, QINGYISE, HUNYISE, QIXIAODUI, ZIYISE_DUIDUI, ZIYISE_QIXIAODUI,
           HEAVEN, EARTH, LAST_TILE, GOLDEN_ROOSTER, KONG_BLOOM)
BASE = Rule("base", "基数", "基数", 1, "底", "（牌型底分+1）×底的倍数+花的数量×花的倍数")

# -- 花 items ------------------------------------------------------------------------------------------
SELF_DRAW = Rule("self-drawn", "自摸", "自摸", 1, "花", "玩家自摸胡牌。自摸计算结果：+1花。",
                 lambda h: h.self_drawn and ("kong_replacement" not in h.flags or h.kaihua_adds_zimo))
FLOWER = Rule("flowers", "花牌", "花", 1, "花", "玩家拥有的花牌数量。花牌计算结果：每1朵花就可以+1花。")
SEASONS_FULL = Rule("all four seasons", "春夏秋冬4花全", "春夏秋冬全", 8, "花", "春夏秋冬4花全：总共+8花。")
PLANTS_FULL = Rule("all four flowers", "梅兰竹菊4花全", "梅兰竹菊全", 8, "花", "梅兰竹菊4花全：总共+8花。")
ALL_EIGHT = Rule("all eight flowers", "8花齐全", "8花齐全", 32, "花", "8花齐全：总共+32花。")
HONOUR_CONCEALED_KONG = Rule("concealed kong of honours", "箭牌暗杠", "暗杠 (箭牌)", 3, "花", "箭牌暗杠：+3花。",
                             lambda b: b.shape == "kong" and b.concealed and is_honour(b.tile))
CONCEALED_KONG = Rule("concealed kong", "其他牌暗杠", "暗杠", 2, "花", "其他牌暗杠：+2花。",
                      lambda b: b.shape == "kong" and b.concealed and not is_honour(b.tile))
HONOUR_EXPOSED_KONG = Rule("exposed kong of honours", "箭牌明杠", "明杠 (箭牌)", 2, "花", "箭牌明杠：+2花。",
                           lambda b: b.shape == "kong" and not b.concealed and is_honour(b.tile))
EXPOSED_KONG = Rule("exposed kong", "其他牌明杠", "明杠", 1, "花", "其他牌明杠：+1花。",
                    lambda b: b.shape == "kong" and not b.concealed and not is_honour(b.tile))
HONOUR_PUNG = Rule("pung of honours", "箭牌碰出", "箭牌碰出", 1, "花", "箭牌碰出：+1花。箭牌说明：“东南西北中发白”都是箭牌。",
                   lambda b: b.shape == "triplet" and b.melded and is_honour(b.tile))
HONOUR_TRIPLET = Rule("concealed triplet of honours", "箭牌暗刻", "箭牌暗刻 (选项)", 1, "花",
                      "箭牌碰出：+1花。（选项：手中暗刻同样加花）",
                      lambda b: b.shape == "triplet" and not b.melded and is_honour(b.tile))
BLOCK_HUA = (HONOUR_CONCEALED_KONG, CONCEALED_KONG, HONOUR_EXPOSED_KONG, EXPOSED_KONG, HONOUR_PUNG)


@dataclass(frozen=True)
class _Hand:
    """One reading of the winner's hand with what the 底/花 conditions read."""

    reading: Reading
    flags: frozenset[str]
    self_drawn: bool
    ziyise_adds: bool
    kaihua_adds_zimo: bool

    @property
    def all_triplets(self) -> bool:
        return self.reading.pair is not None and all(b.is_triplet for b in self.reading.sets)

    @property
    def seven_pairs(self) -> bool:
        return len(self.reading.hand) == 7 and all(b.is_pair for b in self.reading.hand)

    @property
    def thirteen(self) -> bool:
        return self.reading.hand[0].shape == THIRTEEN_UNRELATED

    @property
    def stars(self) -> int:
        return sum(map(is_honour, self.reading.tiles))

    @property
    def all_honours(self) -> bool:
        return not self.reading.suits


class Daishan(Region):
    info = INFO

    def check_win(self, table: Table) -> None:
        super().check_win(table)
        win = table.win
        if win is None:
            return
        flags = win.flags
        if "heaven" in flags and win.player != table.dealer:
            raise RecordError("flag heaven (天胡) needs the dealer as the winner")
        if "earth" in flags and (win.source != table.dealer or win.player == table.dealer):
            raise RecordError("flag earth (地胡) needs a win on the dealer's discard by another player")
        winner = table.winner
        if "heaven" in flags and winner.has_claimed_meld:
            raise RecordError("flag heaven (天胡) allows no claimed meld: the dealer wins before any discard "
                              "(「庄家可补花可暗杠」)")
        if "earth" in flags and winner.melds:
            raise RecordError("flag earth (地胡) allows no meld: the winner has had no turn before the dealer's "
                              "first discard")
        if "kong_replacement" in flags and not winner.has_kong_or_flower:
            raise RecordError("flag kong_replacement needs a kong or flower of the winner: a replacement tile is "
                              "drawn only after one")

    def readings(self, table: Table) -> tuple[Reading, ...]:
        winner = table.winner
        distinct = table.options["qixiaodui_distinct_pairs"]
        spec = HandSpec.of(winner.concealed, win=table.win.tile, seven_pairs="distinct" if distinct else "any",
                           thirteen_unrelated=True)
        return readings(spec, tuple(Block.from_meld(m) for m in winner.melds))

    def is_win(self, table: Table) -> bool:
        return bool(self.readings(table))

    def hand_items(self, table: Table, reading: Reading) -> list[Item]:
        """The winner's 底 and 花 items for one reading."""
        o = table.options
        hand = _Hand(reading, table.win.flags, table.win.by != "discard", o["ziyise_adds_pattern"],
                     o["kaihua_adds_zimo_hua"])
        items = [BASE.item()] + [rule.item() for rule in HAND_DI if rule.applies(hand)]
        if SELF_DRAW.applies(hand):
            robbed = table.win.by == "rob_kong"
            items.append(SELF_DRAW.item("robbing a kong (拉杠胡) counts as one" if robbed else "",
                                        detail_zh="拉杠胡" if robbed else ""))
        items += _flower_items(table.winner.flowers)
        block_rules = BLOCK_HUA + ((HONOUR_TRIPLET,) if o["concealed_honour_triplet_hua"] else ())
        for block in reading.blocks:
            items += [rule.item(block.text) for rule in block_rules if rule.applies(block)]
        return items

    def amount(self, table: Table, items: list[Item]) -> int:
        di, hua = split_sums(items, "底")
        return di * table.options["di"] + hua * table.options["hua"]

    def score(self, table: Table) -> Result:
        win = table.win
        if win is None:
            return Result(self.info.key, (0, 0, 0, 0), (), _blank_seats(), None, self.info.unit, extra={"note": "流局"})
        best = max(((self.amount(table, items), r, items)
                    for r in self.readings(table) for items in [self.hand_items(table, r)]),
                   key=lambda entry: entry[0])  # Daishan has no wilds: no reading substitutes a tile
        amount, reading, items = best
        if win.by == "self_draw":
            payments = [Payment(p, win.player, amount, "自摸", "self-draw") for p in others(win.player)]
        elif win.by == "discard":
            payments = [Payment(win.source, win.player, amount, "放炮", "discard")]
        else:
            payments = [Payment(win.source, win.player, 3 * amount, "拉杠胡 ×3",
                                "robbing a kong: the robbed player pays 3 times")]
        seats = list(_blank_seats())
        di_sum, hua_sum = split_sums(items, "底")
        o = table.options
        total_from, paid = TOTAL_FROM[win.by]  # the total is what one payer pays
        formula = f"({di_sum - 1} + 1) × {o['di']} + {hua_sum} × {o['hua']} = {amount}; {paid}"
        seats[win.player] = SeatResult(win.player, amount, self.info.unit, tuple(items),
                                       {"di_count": di_sum, "hua_count": hua_sum, "formula": formula,
                                        "total_from": total_from})
        return Result(self.info.key, net_of(payments), tuple(payments), tuple(seats), win.player,
                      self.info.unit, reading.describe())


TOTAL_FROM = {"self_draw": ("each", "each of the three pays it"), "discard": ("discarder", "the discarder pays it"),
              "rob_kong": ("robbed", "the robbed player pays it 3 times")}
"""Who pays the winner's total, by how the hand was won: ``total_from`` of its seat (each of the three, the discarder
alone, or the player robbed of a kong, three times) and the formula's words for it."""


def _flower_items(flowers: tuple[str, ...]) -> list[Item]:
    """Each flower +1, but a full 春夏秋冬 or 梅兰竹菊 is 8 in total and all eight 32 in total."""
    held = set(flowers)
    if held == set(FLOWERS):
        return [ALL_EIGHT.item()]
    items, loose = [], []
    for group, full_rule in ((FLOWERS[:4], SEASONS_FULL), (FLOWERS[4:], PLANTS_FULL)):
        mine = [f for f in group if f in held]
        if len(mine) == 4:
            items.append(full_rule.item())
        else:
            loose += mine
    if loose:
        items.append(FLOWER.item(format_tiles(loose), value=len(loose)))
    return items


def _blank_seats() -> tuple[SeatResult, ...]:
    return tuple(SeatResult(seat, 0, INFO.unit) for seat in range(4))


REGION = Daishan()
