"""Baicheng 白城 rules (spec §6): 三门全/幺九/有刻, 宝, 夹胡, 番 doubling per payer, separate kong payments.

The winner's 番 F come from the best reading that meets the win conditions. Each other player p pays
``di × 2^(F + [winner or p is the dealer] + [p discarded] + [背靠背])``
(「加1番（2倍）」, 「和庄有關時：庄四角…和庄無關時四變二」, 「別人門清再多輸一番」), or in the linear model
``⌈(0.4 or 0.2) × di × (1 + k)⌉`` 元. Kongs are paid apart, by the three others to their owner
(「杠牌分數由三家支付，單獨結算，與胡牌和莊家無關」), on a drawn hand too unless ``kong_pay_on_draw`` is off.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from scoring.hands import SEQUENCE, WHIRLWIND, Block, HandSpec, Reading, readings
from scoring.items import Item, Rule
from scoring.record import Player, RecordError, Table
from scoring.region import DISCARD_PAYER_NAMES, MAX_STAKE, OptionInfo, Region, RegionInfo, ShortOfConditions
from scoring.result import Payment, Result, SeatResult, net_of, others, paying_seats
from scoring.tiles import DRAGONS, format_tiles, is_flower, is_yaojiu, number, suit

DRAGON_SET = "dragon set"
MAX_FAN = 8
"""The largest value a 番 option takes (the spec's alternatives are 0–2)."""

INFO = RegionInfo(
    key="baicheng", name="Baicheng", name_zh="白城", hand_size=13, unit="分",
    options=(
        OptionInfo("di", 1, "int", "the stake 底 (doubling model: 分 per 底; linear model: 元 per 底)", "底注",
                   minimum=1, maximum=MAX_STAKE),
        OptionInfo("model", "doubling", "choice",
                   "doubling: each 番 doubles (底 × 2 to the power of 番); linear: 4 or 2 角 per item, rounded up to "
                   "whole 元",
                   "翻倍：每番乘 2；线性：庄四角、和庄无关四变二，每多一项加一份，抻直到整元",
                   allowed=("doubling", "linear"), allowed_names=(("doubling", "翻倍"), ("linear", "线性"))),
        OptionInfo("discard_payer", "all", "choice",
                   "who pays a 点炮 win: all three others (the discarder +1 番), or the discarder alone",
                   "点炮由谁支付：三家都付（点炮者多一番），或只由点炮者付", allowed=("all", "discarder"),
                   allowed_names=DISCARD_PAYER_NAMES),
        OptionInfo("beikaobei_always", False, "bool",
                   "a 门清 payer pays +1 番 even when the winner is not 站立",
                   "门清的输家总多输一番（否则只在和牌者站立时）"),
        OptionInfo("hard_yaojiu", False, "bool",
                   "the hand must hold a terminal or honour besides the winning tile (硬幺)",
                   "必须有硬幺：除胡的那张牌外手中须有幺九"),
        OptionInfo("kong_pay_on_draw", True, "bool",
                   "kongs are paid on a drawn hand too (unticked: 黄庄黄杠)", "流局时杠分照付（否则黄庄黄杠）"),
        OptionInfo("whirlwind_keeps_menqing", True, "bool",
                   "a 旋风杠 keeps the hand 门清, like a concealed kong", "旋风杠不破门清"),
        OptionInfo("rob_kong_fan", 1, "int", "番 for robbing a kong (抢杠)", "抢杠胡的番数", minimum=0, maximum=MAX_FAN),
        OptionInfo("mobao_fan", 0, "int", "番 for 摸宝 on top of 自摸", "摸宝在自摸之外另加的番数", minimum=0,
                   maximum=MAX_FAN),
        OptionInfo("baozhongbao_fan", 1, "int", "番 for 宝中宝 on top of 自摸 and 夹胡", "宝中宝在自摸、夹胡之外另加的番数",
                   minimum=0, maximum=MAX_FAN),
        OptionInfo("danpiao_plus_jiahu", False, "bool",
                   "单飘 also scores 夹胡 (+1)", "单飘另计夹胡一番"),
    ),
    flags=("kong_replacement", "bao_draw"),
    flag_names=(("kong_replacement", "won on the tile drawn after a kong (杠开)", "杠开（杠后补牌和）"),),  # no flowers
    indicator="宝", indicator_name="bao (treasure)", asks=("dealer",), indicator_flags=("bao_draw",),
    meld_types=("chow", "pung", "kong", "whirlwind"),
    extra_sets=((DRAGON_SET, DRAGONS),),
    bao_pungs=True, reads_payers_melds=True, has_flowers=False,
    dealer_after=("keep_or_pass", "keep"),  # 「如果沒胡就是流局。流局不計算輸贏，游戲重新開始，莊家繼續做莊。」
    description="13 tiles (14 for the winner), no flowers; 4 sets + pair with 三门全, 幺九 and a 刻; "
                "中發白 sets and 旋风杠; 摸宝 wild; each 番 doubles, kongs paid apart.",
)

# -- the winner's 番 (spec §6.4), conditions on a _Hand ------------------------------------------------------------
ZIMO = Rule("self-drawn", "自摸", "自摸", 1, "番", "加1番（2倍）；自運八角", lambda h: h.self_drawn)
JIAHU = Rule("one-tile wait", "夹胡", "夹胡", 1, "番",
             "夾胡：指邊、坎搭、單吊胡牌，手牌中缺幺九，單胡幺九牌均算夾胡…俗稱「一個叫」",
             lambda h: h.jiahu and (h.piao != "单飘" or h.options["danpiao_plus_jiahu"]))
YAOJI = Rule("holds 1s", "幺鸡", "幺鸡", 1, "番", "幺雞：即一條，胡牌時手牌中有幺雞牌，不計算幺雞牌個數加一番",
             lambda h: "1s" in h.reading.tiles)
GANGKAI = Rule("win on a kong replacement", "杠开", "杠开", 1, "番", "杠開：指杠牌後從牌牆後補牌，形成胡牌，加1番（2倍）",
               lambda h: "kong_replacement" in h.flags)
ZHANLI = Rule("concealed hand", "站立", "站立", 1, "番", "允許站立胡，胡牌時站立多贏一番", lambda h: h.menqing)
SHUANGPIAO = Rule("all triplets, won on a triplet", "双飘", "双飘", 2, "番",
                  "雙飄：手中全是碰牌或杠牌，最後是對對胡牌，加2番（4倍）", lambda h: h.piao == "双飘")
DANPIAO = Rule("all triplets, won on the pair", "单飘", "单飘", 3, "番",
               "單飄：手中全是碰牌或杠牌，最後是單吊胡牌，加3番（8倍）", lambda h: h.piao == "单飘")
BAOZHONGBAO = Rule("宝 in 宝: the 宝 kind self-drawn into a 夹胡", "宝中宝", "宝中宝", 1, "番",
                   "寶中寶：夾胡時要胡的牌和寶牌是同一張牌…自摸到八萬胡牌，稱為「寶中寶」",
                   lambda h: h.baozhongbao)
MOBAO = Rule("won on a drawn 宝", "摸宝", "摸宝", 0, "番", "玩家聽牌後如果摸到寶牌即可胡牌，俗稱「摸寶」",
             lambda h: "bao_draw" in h.flags)
ROB_KONG = Rule("robbing a kong", "抢杠", "抢杠", 1, "番", "搶胡、搶杠：補杠時別人可以搶碰和搶胡", lambda h: h.by == "rob_kong")
WIN_RULES = (ZIMO, JIAHU, YAOJI, GANGKAI, ZHANLI, SHUANGPIAO, DANPIAO, BAOZHONGBAO, MOBAO, ROB_KONG)
OPTION_VALUES = {BAOZHONGBAO: "baozhongbao_fan", MOBAO: "mobao_fan", ROB_KONG: "rob_kong_fan"}
"""Rules whose 番 is an option."""

# -- per payer -------------------------------------------------------------------------------------------------
HUPAI = Rule("the win: each payer's base, doubled by each 番", "胡牌", "胡牌", 1, "底", "加1番（2倍）…加2番（4倍）")
UNIT_DEALER = Rule("each 番 when the dealer is involved", "庄四角", "庄四角", 0.4, "元",
                   "和庄有關時：庄四角…和庄無關時四變二")
UNIT_PLAIN = Rule("each 番 when the dealer is not involved", "四变二", "四变二", 0.2, "元",
                  "和庄有關時：庄四角…和庄無關時四變二")
DEALER = Rule("the dealer is involved", "和庄有关", "庄", 1, "番", "和庄有關時：庄四角…和庄無關時四變二")
DISCARDER = Rule("discarded the winning tile, or was robbed of the kong", "点炮", "点炮", 1, "番",
                 "被搶胡算杠牌者點炮；點炮者多輸一番")
BEIKAOBEI = Rule("concealed payer", "背靠背", "背靠背", 1, "番", "胡牌時站立多贏一番，別人門清再多輸一番，俗稱「背靠背」")

TERMS_EN = {DEALER: "dealer", DISCARDER: "discarder", BEIKAOBEI: "背靠背"}
"""Each payer's own 番 in the English reasons."""

# -- kong payments (spec §6.4 ❹), conditions on a Meld; value per other player, × di -----------------------------------
EXPOSED_KONG = Rule("exposed kong", "明杠", "明杠", 5, "底", "明杠分數=底注×杠牌個數×5倍",
                    lambda m: m.kind == "kong" and not m.concealed)
CONCEALED_KONG = Rule("concealed kong", "暗杠", "暗杠", 10, "底", "暗杠分數=底注×杠牌個數×10倍",
                      lambda m: m.kind == "kong" and m.concealed)
WHIRLWIND_KONG = Rule("whirlwind kong", "旋风杠", "旋风杠", 5, "底", "旋風杠分數=底注×杠牌個數×5倍",
                      lambda m: m.kind == "whirlwind")
BAO_PUNG = Rule("pung of the 宝", "叉宝", "叉宝 (明杠)", 5, "底", "如果叉寶牌算一個明杠，隨後換寶",
                lambda m: m.bao)
THREE_BAO = Rule("three 宝 in hand", "手中三张宝牌", "三张宝 (暗杠)", 10, "底", "手牌中有三張寶牌算一個暗杠")
KONG_RULES = (EXPOSED_KONG, CONCEALED_KONG, WHIRLWIND_KONG, BAO_PUNG)


@dataclass(frozen=True)
class _Hand:
    """The winner's hand under one reading, with what the win conditions and 番 items read."""

    reading: Reading
    table: Table
    menqing: bool

    @property
    def options(self) -> Mapping[str, Any]:
        return self.table.options

    @property
    def flags(self) -> frozenset[str]:
        return self.table.win.flags

    @property
    def by(self) -> str:
        return self.table.win.by

    @property
    def self_drawn(self) -> bool:
        return self.table.win.by == "self_draw"

    @property
    def winning_tile(self) -> str:
        w = self.reading.winning
        return w.tiles[w.win_at]

    def other_tiles(self) -> list[str]:
        """Every tile by identity, melds included, but the winning tile."""
        w = self.reading.winning
        out = []
        for b in self.reading.blocks:
            out += [t for i, t in enumerate(b.tiles) if not (b is w and i == w.win_at)]
        return out

    # -- win conditions (❻) -------------------------------------------------------------------------------------
    @property
    def three_suits(self) -> bool:
        return self.reading.suits == {"m", "p", "s"}

    @property
    def has_yaojiu(self) -> bool:
        tiles = self.other_tiles() if self.options["hard_yaojiu"] else self.reading.tiles
        return any(map(is_yaojiu, tiles))

    @property
    def has_triplet(self) -> bool:
        return any(b.is_triplet or b.shape == WHIRLWIND or (b.is_pair and b.tile in DRAGONS)
                   for b in self.reading.blocks)

    @property
    def legal(self) -> bool:
        return self.three_suits and self.has_yaojiu and self.has_triplet

    # -- wait and shape ------------------------------------------------------------------------------------------
    @property
    def jiahu(self) -> bool:
        """One of the five 夹胡 rules of spec §6.3."""
        w = self.reading.winning
        if w.shape == SEQUENCE and (w.win_at == 1 or (w.win_at == 2 and number(w.tile) == 1)
                                    or (w.win_at == 0 and number(w.tile) == 7)):
            return True
        if w.shape == DRAGON_SET:
            return True
        if w.is_pair and not self._four_tile_run(w):
            return True
        return is_yaojiu(self.winning_tile) and not any(map(is_yaojiu, self.other_tiles()))

    def _four_tile_run(self, pair: Block) -> bool:
        """「四張順子牌兩頭吊牌不算夾胡」: a concealed sequence runs on from the pair's tile (2345m on 2m or 5m)."""
        t = pair.tile
        if suit(t) == "z":
            return False
        n = number(t)
        return any(b.is_sequence and not b.melded and suit(b.tile) == suit(t) and number(b.tile) in (n + 1, n - 3)
                   for b in self.reading.hand)

    @property
    def piao(self) -> str | None:
        """双飘 / 单飘: four triplets or kongs, won on a triplet / on the pair (单吊)."""
        sets = self.reading.sets
        if not all(b.is_triplet or b.shape == WHIRLWIND for b in sets):
            return None
        w = self.reading.winning
        return "双飘" if w.is_triplet else "单飘" if w.is_pair else None

    @property
    def baozhongbao(self) -> bool:
        return self.self_drawn and self.jiahu and self.winning_tile == self.table.indicator


class Baicheng(Region):
    info = INFO

    # -- checks --------------------------------------------------------------------------------------------------
    def check_tiles(self, table: Table) -> None:
        if table.indicator is not None and is_flower(table.indicator):
            raise RecordError(f"baicheng rules have no flowers: the 宝 indicator cannot be {table.indicator}")
        for p in table.players:
            if p.flowers:
                shown = "".join(p.flowers[:8]) + ("…" if len(p.flowers) > 8 else "")  # a line, however many
                raise RecordError(f"players[{p.seat}].flowers holds {shown}: baicheng rules have no flowers")
            flower = next((t for t in p.concealed or () if is_flower(t)), None)
            if flower:  # nowhere to lay it aside: taken out
                raise RecordError(f"players[{p.seat}].concealed holds the flower {flower}: baicheng rules have no "
                                  "flowers, take it out")
        super().check_tiles(table)

    def check_win(self, table: Table) -> None:
        super().check_win(table)
        win = table.win
        if win is None:
            return
        if "kong_replacement" in win.flags and not any(m.kind in ("kong", "whirlwind") for m in table.winner.melds):
            raise RecordError("flag kong_replacement (杠开) needs a kong or whirlwind of the winner")

    def is_win(self, table: Table) -> bool:
        """A legal reading exists; a complete hand that breaks a win condition is rejected naming it."""
        if self.hands(table):
            return True
        menqing = self.menqing(table, table.winner)
        found = [_Hand(r, table, menqing) for r in self.readings(table)]
        if not found:
            return False
        conditions = {"三门全 (all three suits: 萬, 筒 and 條)": "three_suits", "幺九 (a terminal or honour)": "has_yaojiu",
                      "有刻 (a triplet, kong, whirlwind or dragon pair)": "has_triplet"}
        missing = [name for name, test in conditions.items() if not any(getattr(h, test) for h in found)]
        lacks = " and no ".join(missing) if missing else "reading meeting 三门全, 幺九 and 有刻 at once"
        raise ShortOfConditions(f"players[{table.win.player}]'s hand is complete but has no {lacks}, so it is no win "
                                "under baicheng rules", table.win.player, lacks)

    # -- the hand --------------------------------------------------------------------------------------------------
    def readings(self, table: Table) -> tuple[Reading, ...]:
        """Every reading of the winner's hand; a drawn 宝 (摸宝) is a wild standing for any tile."""
        p, win = table.winner, table.win
        drawn_bao = "bao_draw" in win.flags
        tiles = list(p.concealed)
        if drawn_bao:
            tiles.remove(win.tile)
        spec = replace(HandSpec.of(tiles, extra_sets=INFO.extra_sets), wilds=int(drawn_bao),
                       wild_kinds=frozenset({win.tile}) if drawn_bao else frozenset(),
                       win=None if drawn_bao else win.tile, win_wild=drawn_bao)
        return readings(spec, tuple(Block.from_meld(m, INFO.extra_sets) for m in p.melds))

    def hands(self, table: Table) -> list[_Hand]:
        """The readings that meet 三门全, 幺九 and 有刻 (readings that break a condition are dropped first)."""
        menqing = self.menqing(table, table.winner)
        found = (_Hand(r, table, menqing) for r in self.readings(table))
        return [h for h in found if h.legal]

    def menqing(self, table: Table, p: Player) -> bool:
        """门清: no meld but concealed kongs (and whirlwinds, by default)."""
        keeps = table.options["whirlwind_keeps_menqing"]
        return all((m.kind == "kong" and m.concealed) or (m.kind == "whirlwind" and keeps) for m in p.melds)

    def win_items(self, hand: _Hand) -> list[Item]:
        items = []
        for rule in WIN_RULES:
            if rule.applies(hand):
                value = hand.options[OPTION_VALUES[rule]] if rule in OPTION_VALUES else rule.value
                if value:
                    items.append(rule.item(value=value))
        return items

    # -- scoring -----------------------------------------------------------------------------------------------------
    def score(self, table: Table) -> Result:
        o, win = table.options, table.win
        unit = "元" if o["model"] == "linear" else self.info.unit
        seat_items: list[list[Item]] = [[] for _ in range(4)]
        payments: list[Payment] = []
        reading = None
        extra: dict = {}
        if win is not None:
            best = max(((sum(i.value for i in items), -h.reading.substitutions, h, items)
                        for h in self.hands(table) for items in [self.win_items(h)]), key=lambda e: e[:2])
            fan, _, hand, items = best
            reading = hand.reading
            seat_items[win.player] += items
            for payer, terms, payment in self._hand_payments(table, fan, hand.menqing):
                seat_items[payer] += terms
                payments.append(payment)
            extra = {"fan": fan, "formula": f"the winner's 番 F = {fan}; each payer pays "
                     + ("⌈(0.4 if the dealer is involved, else 0.2) × di × (1 + F + terms)⌉ 元" if o["model"] == "linear"
                        else "di × 2^(F + 庄 + 点炮 + 背靠背)")}
        if win is not None or o["kong_pay_on_draw"]:
            for p in table.players:
                for item, tiles, amount in _kong_items(table, p):
                    seat_items[p.seat].append(item)
                    why = item.rule.replace(" (", "（").replace(")", "）")  # 叉宝（明杠）777z; 明杠 1111s
                    why += tiles if why.endswith("）") else f" {tiles}"
                    payments += [Payment(q, p.seat, amount, why, item.name) for q in others(p.seat)]
        seats = []
        for s in range(4):
            received = sum(pay.amount for pay in payments if pay.payee == s)
            seat_extra = extra if win is not None and s == win.player else {}
            seats.append(SeatResult(s, received, unit, tuple(seat_items[s]), seat_extra))
        note = {} if win is not None else {"note": "流局" + ("" if o["kong_pay_on_draw"] else " (黄庄黄杠)")}
        return Result(self.info.key, net_of(payments), tuple(payments), tuple(seats),
                      win.player if win else None, unit, reading.describe() if reading else None, note)

    def _hand_payments(self, table: Table, fan: int, standing: bool) -> list[tuple[int, list[Item], Payment]]:
        """Each payer's 番 (F + dealer + discarder + 背靠背) as di × 2^番, or the linear model's 元: (payer,
        the payer's own terms as items, payment). The base (胡牌 1 底, or the 元 a 番) is the payer's too."""
        o, win = table.options, table.win
        claimed = win.by != "self_draw"
        payers = paying_seats(win, o["discard_payer"])
        out = []
        for p in payers:
            terms = []
            if table.dealer in (p, win.player):
                terms.append(DEALER)
            if claimed and p == win.source:
                terms.append(DISCARDER)
            if self.menqing(table, table.players[p]) and (standing or o["beikaobei_always"]):
                terms.append(BEIKAOBEI)
            names = "".join(f" + {t.rule} 1" for t in terms)
            names_en = "".join(f" + {TERMS_EN[t]} 1" for t in terms)
            if o["model"] == "linear":
                k = fan + sum(t is not DEALER for t in terms)
                unit, tenths_a_fan = (UNIT_DEALER, 4) if DEALER in terms else (UNIT_PLAIN, 2)
                tenths = tenths_a_fan * o["di"] * (1 + k)
                amount = -(-tenths // 10)
                exact = f"{tenths // 10}.{tenths % 10}" if tenths % 10 else f"{tenths // 10}"  # any di, digit for digit
                reason = f"胡牌 ⌈{exact} 元⌉ = {amount} 元 ({unit.rule} × (1 + {k}))"
                reason_en = f"the win: ⌈{exact} 元⌉ = {amount} 元 ({unit.name} × (1 + {k} 番))"
                items = [unit.item(value=tenths_a_fan * o["di"] / 10)] + [t.item() for t in terms if t is not DEALER]
            else:
                total = fan + len(terms)
                amount = o["di"] * 2 ** total
                # the power summed, its terms after: "1 × 2^5 = 32 (3 番 + dealer 1 + 背靠背 1)"
                reason = f"胡牌 {o['di']} × 2^{total} = {amount}（{fan} 番{names}）"
                reason_en = f"the win: {o['di']} × 2^{total} = {amount} ({fan} 番{names_en})"
                items = [HUPAI.item(value=o["di"])] + [t.item() for t in terms]
            out.append((p, items, Payment(p, win.player, amount, reason, reason_en)))
        return out


def _kong_items(table: Table, p: Player) -> list[tuple[Item, str, int]]:
    """The player's kongs as items, each with its tiles and what every other player pays for it (× di)."""
    di = table.options["di"]
    out = []
    for m in p.melds:
        for rule in KONG_RULES:
            if rule.applies(m):
                tiles = format_tiles(m.tiles)
                out.append((rule.item(tiles, rule.value * di), tiles, rule.value * di))
    if table.indicator is not None and (p.concealed or ()).count(table.indicator) >= 3:
        tiles = format_tiles([table.indicator] * 3)
        out.append((THREE_BAO.item(tiles, THREE_BAO.value * di), tiles, THREE_BAO.value * di))
    return out


REGION = Baicheng()
