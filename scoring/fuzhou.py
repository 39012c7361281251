"""Fuzhou 福州 rules (spec §4): 金 wilds, honours as flowers, 花 + 金 + 连庄 + 5 per payer, specials, 闲金.

Each of the three others pays the winner, in 底 × ``di``:

- 点炮 (and 抢杠): ``花 + 金 + 连庄 + 5 + 特殊`` (「点炮和＝花+金+特殊和牌牌型倍数+连庄数+5」);
- 自摸 and every event win (天和, 抢金, 三金倒): ``(花 + 金 + 连庄 + 5) × 2 + 特殊``
  (「自摸和＝（连庄数+花+金+5）×2+特殊和牌倍数」).

A plain win counts only its largest special (「只计番数最高的特殊和法」); an event win adds its specials up,
with only the largest of 三金倒, 抢金, 金雀, 金龙 (「三金倒和抢金，金雀，金龙不可以同时出现」). 连庄 counts
only between the winner and the dealer. The winner's best reading (the 金 standing for what pays most)
is kept.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from scoring.hands import KIND_INDEX, Block, HandSpec, Reading, is_complete, readings
from scoring.items import Item, Rule
from scoring.record import Player, RecordError, Table
from scoring.region import DISCARD_PAYER_NAMES, MAX_STAKE, HeldLaidAside, OptionInfo, Region, RegionInfo
from scoring.result import Payment, Result, SeatResult, net_of, paying_seats
from scoring.tiles import FLOWERS, PLAYING_TILES, SUIT_BITS, format_tiles, is_honour, is_suited

SUITED = tuple(t for t in PLAYING_TILES if is_suited(t))
CLAIMED = ("discard", "rob_kong")
CLAIMED_WIN = {"discard": "on a discard", "rob_kong": "by robbing a kong"}
"""How a claimed win is said in a refusal."""
WON_BY = {"self_draw": ("自摸", "self-draw"), "discard": ("点炮", "discard"), "rob_kong": ("抢杠", "robbing a kong")}
"""How the hand was won, in a payment's reason (Chinese, English)."""
EVENTS = ("heaven", "rob_gold", "three_golds")
STAND_IN_PAIR = ("1z", "1z")
"""Honours never stand in a Fuzhou hand and 金 are suited: beside this pair the rest must be sets alone."""

INFO = RegionInfo(
    key="fuzhou", name="Fuzhou", name_zh="福州", hand_size=16, unit="分",
    options=(
        OptionInfo("di", 1, "int", "points per 底 (the table's stake)", "底番（每底的分数）", minimum=1, maximum=MAX_STAKE),
        OptionInfo("discard_payer", "all", "choice",
                   "who pays a 点炮 win: all three others, or the discarder alone",
                   "点炮和由谁支付：三家都付，或只由点炮者付", allowed=("all", "discarder"),
                   allowed_names=DISCARD_PAYER_NAMES),
        OptionInfo("event_specials_additive", True, "bool",
                   "an event win (天和, 抢金, 三金倒) adds up its specials (otherwise only the largest counts)",
                   "天和、抢金、三金倒时同时出现的特殊和法番数累加（否则只计最高的一种）"),
        OptionInfo("pinghu_doubled_on_discard", False, "bool",
                   "平和 is paid in the ×2 form even on a 点炮 win",
                   "平和点炮时也按（金+连庄数+5）×2+30 计"),
        OptionInfo("rob_gold_indicator_is_gold", False, "bool",
                   "under 抢金 the taken indicator is counted in 金 too (G + 1; it stays at face value)",
                   "抢金换进的“金”本身也计入金数（仍按原牌使用）"),
    ),
    flags=("heaven", "rob_gold", "three_golds", "gold_kan"),
    indicator="金", indicator_name="jin (gold, wild)", asks=("dealer", "indicator"),
    indicator_flags=("rob_gold", "three_golds", "gold_kan"), reads_streak=True,
    exclusive_flags=(("heaven", "rob_gold", "天和 wins before any tile is taken in"),),
    description="16 tiles (17 for the winner); 5 sets + pair; 金 wilds; winds and dragons are flowers; "
                "each payer pays 花 + 金 + 连庄 + 5 (+ specials), ×2 on 自摸.",
)

# -- 花 H, 金 G, 连庄 L and the base (spec §4.2) -------------------------------------------------------------------
FLOWER = Rule("flowers", "花", "花", 1, "底", "花牌中，每抓一朵花就计1个花番")
FLOWER_FOUR = Rule("four of a kind or a full set of flowers", "抓齐4个一样的花", "花 (齐4 = 6)", 6, "底",
                   "抓齐４个一样的花（如４个“东”或者“春夏秋冬”一套），按６朵花计")
EXPOSED_KONG = Rule("exposed kong", "明杠", "花 (明杠)", 1, "底", "和牌的玩家所开的杠，一个明杠算一朵花",
                    lambda m: m.kind == "kong" and not m.concealed)
CONCEALED_KONG = Rule("concealed kong", "暗杠", "花 (暗杠)", 2, "底", "一个暗杠算两朵花",
                      lambda m: m.kind == "kong" and m.concealed)
GOLD = Rule("golds", "金", "金", 1, "底", "金按照花番计算，有几个金和牌时便多算几张花的番数")
STREAK = Rule("dealer streak", "连庄", "连庄", 1, "底",
              "庄家若超过一连庄，其他三家应多输连庄的点数。同样若被顶庄庄家也要付赢牌者相应的连庄点数")
BASE = Rule("base", "基数 5", "5", 5, "底", "点炮和＝花+金+特殊和牌牌型倍数+连庄数+5")
DOUBLED = Rule("doubled: self-drawn, or paid as if self-drawn", "×2（自摸，或按自摸计）", "×2", 2, "倍",
               "自摸和＝（连庄数+花+金+5）×2+特殊和牌倍数；花牌的番数按自摸计")

# -- specials S, conditions on a _Hand (spec §4.2 table) -----------------------------------------------------------
HEAVEN = Rule("heavenly hand", "天和", "天和", 30, "底", "庄家取完牌后，不用打出，已经和牌，称为天和。天和和抢金的计番相同。",
              lambda h: "heaven" in h.flags)
ROB_GOLD = Rule("robbing the gold", "抢金", "抢金", 30, "底", "抢金的番按牌局底番的30倍计，花牌的番数按自摸计。",
                lambda h: "rob_gold" in h.flags)
THREE_GOLDS = Rule("three golds", "三金倒", "三金倒", 40, "底",
                   "只要抓到三张“金”，就可和牌，不用根据基本牌型…三金倒的番按牌局底番的40倍计",
                   lambda h: "three_golds" in h.flags)
PINGHU = Rule("no flower, no kong", "平和（无花、无杠）", "平和", 30, "底",
              "如果赢家和牌的时候，一朵花牌都没有抓到、也没有开杠的话，即为平和。平和（无花、无杠）＝（金+连庄数+5）×2+30",
              lambda h: h.flowers == 0 and not h.kongs)
PINGHU_ONE_FLOWER = Rule("one flower, no kong", "平和（只有1张花）", "平和 (1花)", 15, "底",
                         "只有一张花的情况下，算平和。番数计算为：（花+金+连庄数+5）×2+15",
                         lambda h: h.flowers == 1 and not h.kongs)
GOLD_PAIR = Rule("pair of golds", "金雀", "金雀", 60, "底", "用两只金来做对子，即是金雀。金雀的番按牌局底番的60倍计",
                 lambda h: h.summary is not None and h.summary[1])
GOLD_KAN = Rule("gold kan", "金坎", "金坎", 60, "底", "金坎只能自摸，与金将一样大。金坎=（花+金+连庄数+5）×2+60",
                lambda h: "gold_kan" in h.flags)
GOLD_DRAGON = Rule("three golds as their own triplet", "金龙", "金龙", 120, "底",
                   "和牌时如果手里有3张金牌，并且3张金牌只能当作自己本身的刻子来使用，即是金龙",
                   lambda h: h.summary is not None and h.summary[2])
HUNYI = Rule("one suit with a gold standing for another tile", "混一", "混一", 120, "底",
             "混一：只有一牌（例如全是万），但有金，而且金不是死金",
             lambda h: h.one_suit and h.summary[3])
QINGYI = Rule("one suit, golds only as themselves", "清一", "清一", 240, "底",
              "清一：只有一牌，无金或者金是死金（如2万金只当2万用）",
              lambda h: h.one_suit and not h.summary[3])
EVENT_SPECIALS = (HEAVEN, ROB_GOLD, THREE_GOLDS)
PATTERN_SPECIALS = (PINGHU, PINGHU_ONE_FLOWER, GOLD_PAIR, GOLD_KAN, GOLD_DRAGON, HUNYI, QINGYI)
EXCLUSIVE = (THREE_GOLDS, ROB_GOLD, GOLD_PAIR, GOLD_DRAGON)
"""Only the largest of these counts, even when an event win adds up its specials."""


@dataclass(frozen=True)
class _Summary:
    """The hand search's merge key for a block: what the specials read from it.

    (suits bitmask, a pair of two 金, a triplet of three 金 as their own kind, a 金 standing for another kind).
    """

    gold: str | None

    def __call__(self, b: Block) -> tuple[int, bool, bool, bool]:
        substitutes = any(w and t != self.gold for t, w in zip(b.tiles, b.wild))
        return (SUIT_BITS[b.tile[1]], b.is_pair and all(b.wild),
                b.is_triplet and all(b.wild) and b.tile == self.gold, substitutes)


def _combine(a: tuple, b: tuple) -> tuple:
    return (a[0] | b[0], a[1] or b[1], a[2] or b[2], a[3] or b[3])


@dataclass(frozen=True)
class _Hand:
    """The winner's hand under one reading (``summary`` None: no complete reading, a 三金倒)."""

    flags: frozenset[str]
    flowers: int
    kongs: int
    summary: tuple[int, bool, bool, bool] | None

    @property
    def one_suit(self) -> bool:
        return self.summary is not None and self.summary[0] in (1, 2, 4)


class Fuzhou(Region):
    info = INFO

    # -- checks --------------------------------------------------------------------------------------------
    def laid_aside(self, table: Table) -> frozenset[str]:
        """The flowers, winds and dragons: every tile that is not suited (spec §4)."""
        return frozenset(FLOWERS) | {t for t in PLAYING_TILES if is_honour(t)}

    def check_tiles(self, table: Table) -> None:
        gold = table.indicator
        if gold is not None and not is_suited(gold):
            raise RecordError(f"the 金 indicator must be a suited tile, got {gold}")
        for p in table.players:
            where = f"players[{p.seat}]"
            for t in p.concealed or ():
                if not is_suited(t):
                    raise HeldLaidAside(f"{where}.concealed holds {t}; in fuzhou rules honours and flowers are "
                                        "flowers, laid aside in 'flowers'", p.seat, t)
            for m in p.melds:
                bad = next((t for t in m.tiles if not is_suited(t) or t == gold), None)
                if bad is not None:
                    what = "a 金, which is never melded" if bad == gold else "an honour, which is a flower"
                    raise RecordError(f"{where} has a meld {''.join(m.tiles)} with {bad}, {what}")
            for t in p.flowers:
                if is_suited(t):
                    raise RecordError(f"{where}.flowers holds {t}, which is no flower (Fuzhou flowers are "
                                      "f tiles, winds and dragons)")
        win = table.win
        if win is not None and win.by in CLAIMED and win.tile == gold:
            raise RecordError(f"win.tile {win.tile} is a 金: a 金 is never discarded, so it cannot be won "
                              f"{CLAIMED_WIN[win.by]}")

    def counted_tiles(self, table: Table):
        tiles = list(super().counted_tiles(table))
        if _robbed_gold(table):
            tiles.remove(table.indicator)  # the taken indicator stands in the winner's hand (spec §1)
        return tiles

    def check_win(self, table: Table) -> None:
        super().check_win(table)
        win = table.win
        if win is None:
            return
        if "heaven" in win.flags and win.player != table.dealer:
            raise RecordError("flag heaven (天和) needs the dealer as the winner")
        if "heaven" in win.flags and table.winner.has_claimed_meld:
            raise RecordError("flag heaven (天和) allows no claimed meld: the dealer wins before any discard")
        if "three_golds" in win.flags and self.golds(table) < 3:
            raise RecordError(f"flag three_golds needs three 金 ({table.indicator}) in players[{win.player}]'s hand")

    def is_win(self, table: Table) -> bool:
        if "three_golds" in table.win.flags:
            return True
        found = self.readings(table)
        if found and not self.allowed(table, found):
            raise RecordError(f"players[{table.win.player}] holds 闲金 (any tile completes the hand): "
                              f"a win {CLAIMED_WIN[table.win.by]} needs 金雀 or 金龙")
        return bool(found)

    # -- the hand ------------------------------------------------------------------------------------------
    def golds(self, table: Table) -> int:
        """G: the 金 in the winner's concealed hand (under 抢金, the taken indicator only with the option)."""
        held = table.winner.concealed.count(table.indicator) if table.indicator else 0
        return held - (1 if _robbed_gold(table) and not table.options["rob_gold_indicator_is_gold"] else 0)

    def spec(self, table: Table, concealed: tuple[str, ...], natural_golds: int = 0) -> HandSpec:
        """The hand search's input: ``concealed`` with the 金 as wilds, but ``natural_golds`` of them at face
        value. No Fuzhou item reads the wait, so the winning tile gets no role in the search."""
        gold = table.indicator
        spec = HandSpec.of(concealed, lambda t: t == gold, wild_as=SUITED,
                           wild_kinds=frozenset({gold}) if gold else frozenset())
        return _plus(spec, (gold,) * natural_golds, wilds=-natural_golds) if natural_golds else spec

    def readings(self, table: Table, exhaustive: bool = False) -> tuple[Reading, ...]:
        """Every reading of the winner's hand, alike readings merged unless ``exhaustive`` (slow; for checks).
        Under 抢金 the taken indicator is at face value."""
        p = table.winner
        spec = self.spec(table, p.concealed, self._natural_golds(table))
        merge = (None, None) if exhaustive else (_Summary(table.indicator), _combine)
        return readings(spec, tuple(Block.from_meld(m) for m in p.melds), *merge)

    def _natural_golds(self, table: Table) -> int:
        """Under 抢金 the taken indicator stands at face value (the option counts it in G only, spec §4.4)."""
        return 1 if _robbed_gold(table) else 0

    def allowed(self, table: Table, found: tuple[Reading, ...]) -> list[tuple[Reading, tuple]]:
        """The readings a win may take, each with its summary: on a claimed win while 闲金, only 金雀 or 金龙."""
        key = _Summary(table.indicator)
        out = []
        for r in found:
            summary = (0, False, False, False)
            for b in r.blocks:
                summary = _combine(summary, key(b))
            out.append((r, summary))
        if out and table.win.by in CLAIMED and self.idle_gold(table):
            return [(r, s) for r, s in out if s[1] or s[2]]
        return out

    def idle_gold(self, table: Table) -> bool:
        """闲金: the hand without the winning tile is completed by every suited tile that can still come
        (a kind the hand holds four of cannot).

        Two sufficient tests settle most such hands with one search each: two 金 make a triplet with any
        tile while the rest is four sets and a pair, or one 金 pairs with any tile while the rest is five
        sets (searched beside a stand-in honour pair, which no 金 can join). Otherwise each tile is tried."""
        rest = list(table.winner.concealed)
        rest.remove(table.win.tile)
        base = self.spec(table, tuple(rest))
        if base.wilds >= 2 and is_complete(replace(base, wilds=base.wilds - 2)):
            return True
        if base.wilds >= 1 and is_complete(_plus(base, STAND_IN_PAIR, wilds=-1)):
            return True
        return all(is_complete(_plus(base, (kind,))) for kind in SUITED if base.counts[KIND_INDEX[kind]] < 4)

    # -- scoring -------------------------------------------------------------------------------------------
    def score(self, table: Table) -> Result:
        win = table.win
        if win is None:
            seats = tuple(SeatResult(s, 0, self.info.unit) for s in range(4))
            return Result(self.info.key, (0, 0, 0, 0), (), seats, None, self.info.unit, extra={"note": "和局"})
        flower_items = _flower_items(table.winner)
        _, reading, specials, doubled = self.best(table)
        return self._settle(table, flower_items, self.golds(table), specials, doubled, reading)

    def best(self, table: Table, exhaustive: bool = False) -> tuple[int, Reading | None, tuple[Rule, ...], bool]:
        """The reading and specials paying most: (amount before 连庄 and di, reading, specials, doubled).
        On a tie, the reading with fewest 金 standing for another kind."""
        p, win = table.winner, table.win
        base = sum(i.value for i in _flower_items(p)) + self.golds(table) + BASE.value
        candidates = self.allowed(table, self.readings(table, exhaustive)) or [(None, None)]
        kongs = sum(m.kind == "kong" for m in p.melds)
        best = None
        for reading, summary in candidates:
            hand = _Hand(win.flags, len(p.flowers), kongs, summary)
            for specials in self._choices(table, hand):
                doubled = self._doubled(table, specials)
                value = _amount(base, doubled, specials)
                subs = reading.substitutions if reading else 0
                if best is None or (value, -subs) > (best[0], -best[1]):
                    best = (value, subs, reading, specials, doubled)
        value, _, reading, specials, doubled = best
        return value, reading, specials, doubled

    def _choices(self, table: Table, hand: _Hand) -> list[tuple[Rule, ...]]:
        """The special combinations the win may take: the single largest for a plain win; an event's sum."""
        present = [r for r in EVENT_SPECIALS + PATTERN_SPECIALS if r.applies(hand)]
        events = [r for r in EVENT_SPECIALS if r.applies(hand)]
        if events and table.options["event_specials_additive"]:
            exclusive = [r for r in present if r in EXCLUSIVE]
            kept = [r for r in present if r not in EXCLUSIVE]
            if exclusive:
                kept.append(max(exclusive, key=lambda r: r.value))
            return [tuple(kept)]
        return [(r,) for r in present] or [()]

    def _doubled(self, table: Table, specials: tuple[Rule, ...]) -> bool:
        win = table.win
        if win.by == "self_draw" or any(flag in win.flags for flag in EVENTS):
            return True
        return table.options["pinghu_doubled_on_discard"] and any(r in (PINGHU, PINGHU_ONE_FLOWER) for r in specials)

    def _settle(self, table: Table, flower_items: list[Item], g: int, specials: tuple[Rule, ...], doubled: bool,
                reading: Reading | None) -> Result:
        win, di = table.win, table.options["di"]
        h = sum(i.value for i in flower_items)
        streak = table.dealer_streak
        payers = paying_seats(win, table.options["discard_payer"])
        s = sum(r.value for r in specials)
        payments = []
        for payer in payers:
            lp = streak if table.dealer in (payer, win.player) else 0
            amount = _amount(h + g + lp + BASE.value, doubled, specials)
            terms = f"{h} + {g} + {lp} + {BASE.value}"
            form = f"({terms}) × 2 + {s}" if doubled else f"{terms} + {s}"
            times = f" × {di}" if di != 1 else ""
            by_zh, by_en = WON_BY[win.by]
            reason = f"{by_zh}：{'（花+金+连庄+5）×2' if doubled else '花+金+连庄+5'}+特殊 = {form} = {amount}{times}"
            reason_en = (f"{by_en}: {'(' if doubled else ''}flowers + golds + streak + 5{') × 2' if doubled else ''} + "
                         f"specials: {form} = {amount}{times}")
            payments.append(Payment(payer, win.player, amount * di, reason, reason_en))
        items = list(flower_items)
        if g:
            items.append(GOLD.item(table.indicator, g))
        dealer_pays = [q for q in payers if table.dealer in (q, win.player)]
        if streak and dealer_pays:
            if win.player == table.dealer:
                items.append(STREAK.item("each payer", streak, detail_zh="每家都付"))
            else:  # the seat as the page names it
                items.append(STREAK.item(f"seat {table.dealer} (the dealer) only", streak,
                                         detail_zh=f"只由庄家{table.dealer}号位付"))
        items.append(BASE.item())
        if doubled:
            items.append(DOUBLED.item())
        items += [r.item() for r in specials]
        received = sum(pay.amount for pay in payments)
        seats = [SeatResult(seat, 0, self.info.unit) for seat in range(4)]
        formula = " + ".join(f"{pay.amount} from P{pay.payer}" for pay in payments) + f" = {received}"
        seats[win.player] = SeatResult(win.player, received, self.info.unit, tuple(items),
                                       {"hua": h, "gold": g, "special": s, "formula": formula})
        shown = _with_winning_tile(reading, win.tile, win.tile == table.indicator and not self._natural_golds(table))
        return Result(self.info.key, net_of(payments), tuple(payments), tuple(seats), win.player, self.info.unit,
                      shown.describe() if shown else None)


def _with_winning_tile(reading: Reading | None, tile: str, wild: bool) -> Reading | None:
    """The reading with the winning tile marked on the first block holding it (a 金 slot for a drawn 金)."""
    if reading is None:
        return None
    hand = list(reading.hand)
    for index, b in enumerate(hand):
        at = next((i for i, (t, w) in enumerate(zip(b.tiles, b.wild)) if (w if wild else t == tile and not w)), None)
        if at is not None:
            hand[index] = replace(b, win_at=at)
            break
    return replace(reading, hand=tuple(hand))


def _plus(spec: HandSpec, tiles: tuple[str, ...], wilds: int = 0) -> HandSpec:
    """``spec`` with natural ``tiles`` added and ``wilds`` more (or fewer) wilds."""
    counts = list(spec.counts)
    for t in tiles:
        counts[KIND_INDEX[t]] += 1
    return replace(spec, counts=tuple(counts), wilds=spec.wilds + wilds)


def _robbed_gold(table: Table) -> bool:
    return table.win is not None and "rob_gold" in table.win.flags and table.indicator is not None


def _amount(base: int, doubled: bool, specials: tuple[Rule, ...]) -> int:
    return (base * 2 if doubled else base) + sum(r.value for r in specials)


def _flower_items(p: Player) -> list[Item]:
    """H: each flower 1; four identical honours or a full 春夏秋冬 / 梅兰菊竹 6; a 明杠 1 and an 暗杠 2."""
    items, loose = [], []
    honours = Counter(t for t in p.flowers if is_honour(t))
    for t, n in sorted(honours.items()):
        if n == 4:
            items.append(FLOWER_FOUR.item(format_tiles([t] * 4)))
        else:
            loose += [t] * n
    held = set(p.flowers)
    for group in (FLOWERS[:4], FLOWERS[4:]):
        if held.issuperset(group):
            items.append(FLOWER_FOUR.item(format_tiles(group)))
        else:
            loose += [f for f in group if f in held]
    if loose:
        items.insert(0, FLOWER.item(format_tiles(loose), len(loose)))
    for m in p.melds:
        for rule in (EXPOSED_KONG, CONCEALED_KONG):
            if rule.applies(m):
                items.append(rule.item(format_tiles(m.tiles)))
    return items


REGION = Fuzhou()
