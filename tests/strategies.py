"""Hypothesis generators of legal table records, region by region, built from one physical wall.

Every tile a record holds is taken from a `Wall` (four of each playing kind, one of each flower, the
indicator included), so no generated record has five of a kind. Building blocks for any region:
`Wall`, `set_choices`, `winning_hand` (sets + pair, some of them declared as melds),
`loose_hand` (a non-winner's tiles), `options_for` (random values of a region's options).
`legal_tables(rules)` is the strategy for one region; regions register their builder in `TABLES`.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from scoring import REGIONS
from scoring.region import OptionInfo
from scoring.tiles import FLOWERS, PLAYING_TILES, is_suited, number, parse_tiles, suit

Draw = Callable[[st.SearchStrategy], Any]


class Wall:
    """The physical tiles not yet placed: four of each playing kind, one of each flower."""

    def __init__(self) -> None:
        self.left = Counter({t: 4 for t in PLAYING_TILES} | {f: 1 for f in FLOWERS})

    def has(self, tiles: Iterable[str]) -> bool:
        return all(self.left[t] >= n for t, n in Counter(tiles).items())

    def take(self, tiles: Iterable[str]) -> list[str]:
        tiles = list(tiles)
        assert self.has(tiles), tiles
        self.left.subtract(tiles)
        return tiles

    def put_back(self, tiles: Iterable[str]) -> None:
        self.left.update(tiles)

    def available(self, kinds: Iterable[str]) -> list[str]:
        """Every remaining physical tile of these kinds (one entry per copy), in canonical order."""
        return [t for t in kinds for _ in range(self.left[t])]


def set_choices(wall: Wall, kinds: Iterable[str], chows: bool = True,
                extra: Iterable[tuple[str, ...]] = ()) -> list[tuple[str, tuple[str, ...]]]:
    """Every (meld type, tiles) set the wall can still give from ``kinds``: pungs, chows, extra shapes."""
    kinds = list(kinds)
    allowed = set(kinds)
    out = [("pung", (t, t, t)) for t in kinds if wall.left[t] >= 3]
    if chows:
        for t in kinds:
            if is_suited(t) and number(t) <= 7:
                run = tuple(f"{number(t) + d}{suit(t)}" for d in range(3))
                if allowed.issuperset(run) and wall.has(run):
                    out.append(("chow", run))
    out += [("chow", shape) for shape in extra if allowed.issuperset(shape) and wall.has(shape)]
    return out


@st.composite
def winning_hand(draw: Draw, wall: Wall, sets: int, kinds: tuple[str, ...], *, max_melds: int | None = None,
                 extra: tuple[tuple[str, ...], ...] = ()) -> tuple[list[str], list[dict[str, Any]]]:
    """``sets`` sets and a pair from ``kinds``; the first few sets are declared melds (pungs may become
    exposed, added or concealed kongs). Returns (concealed tiles, record melds)."""
    n_melds = draw(st.integers(0, sets if max_melds is None else min(sets, max_melds)))
    concealed: list[str] = []
    melds: list[dict[str, Any]] = []
    for index in range(sets):
        choices = set_choices(wall, kinds, extra=extra)
        kind, tiles = draw(st.sampled_from(choices))
        if index < n_melds:
            if kind == "pung" and wall.left[tiles[0]] >= 4 and draw(st.booleans()):
                kong = draw(st.sampled_from([{}, {"added": True}, {"concealed": True}]))
                melds.append({"type": "kong", "tiles": "".join(wall.take(tiles + tiles[:1])), **kong})
            else:
                melds.append({"type": kind, "tiles": "".join(wall.take(tiles))})
        else:
            concealed += wall.take(tiles)
    pair = draw(st.sampled_from([t for t in kinds if wall.left[t] >= 2]))
    concealed += wall.take([pair, pair])
    return concealed, melds


def possible_flags(flags: list[str], winner: dict[str, Any], specials: frozenset[str] = frozenset()) -> list[str]:
    """``flags`` less those the winner's laid-down tiles make impossible: a kong replacement needs a kong or a
    tile laid aside, after_special_kong a special tile laid aside, heaven no claimed meld, earth no meld."""
    kongs = any(m["type"] == "kong" for m in winner["melds"])
    claimed = any(not (m["type"] == "kong" and m.get("concealed")) for m in winner["melds"])
    impossible = {"kong_replacement": not kongs and not winner["flowers"],
                  "after_special_kong": not specials & set(parse_tiles(winner["flowers"])),
                  "heaven": claimed, "earth": bool(winner["melds"])}
    return [f for f in flags if not impossible.get(f, False)]


@st.composite
def loose_hand(draw: Draw, wall: Wall, size: int, kinds: tuple[str, ...],
               meld_kinds: tuple[str, ...] | None = None) -> dict[str, Any]:
    """A non-winner: up to two declared sets (of ``meld_kinds``), then loose tiles of ``kinds``,
    ``size`` in all (3 per meld)."""
    melds = []
    for _ in range(draw(st.integers(0, 2))):
        kind, tiles = draw(st.sampled_from(set_choices(wall, kinds if meld_kinds is None else meld_kinds)))
        melds.append({"type": kind, "tiles": "".join(wall.take(tiles))})
    pool = wall.available(kinds)
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size - 3 * len(melds),
                          max_size=size - 3 * len(melds), unique=True))
    concealed = wall.take(pool[i] for i in picks)
    return {"concealed": "".join(concealed), "melds": melds, "flowers": ""}


@st.composite
def some_of(draw: Draw, wall: Wall, kinds: Iterable[str], most: int) -> list[str]:
    """Up to ``most`` tiles taken from the wall among ``kinds``."""
    pool = wall.available(kinds)
    picks = draw(st.lists(st.integers(0, len(pool) - 1), max_size=min(most, len(pool)), unique=True)) if pool else []
    return wall.take(pool[i] for i in picks)


def option_values(option: OptionInfo) -> st.SearchStrategy:
    if option.type == "bool":
        return st.booleans()
    if option.type == "choice":
        return st.sampled_from(option.allowed)
    if option.type == "int":
        return st.integers(option.minimum or 0, (option.minimum or 0) + 4)
    return st.permutations(FLOWERS).map(lambda fs: [
        "".join(sorted(f[0] for f in fs[:4])) + "f", "".join(sorted(f[0] for f in fs[4:])) + "f"])


@st.composite
def options_for(draw: Draw, rules: str) -> dict[str, Any]:
    """A random subset of the region's options with random allowed values."""
    return {o.name: draw(option_values(o)) for o in REGIONS[rules].options if draw(st.booleans())}


def _win(draw: Draw, seat: int, tile: str, may_claim: bool, wall: Wall) -> dict[str, Any]:
    """A win on ``tile``; robbing a kong only when the wall holds its other three (the robbed pung, kept off
    the table)."""
    robbable = wall.left[tile] == 3
    by = draw(st.sampled_from(["self_draw", "discard"] + ["rob_kong"] * robbable if may_claim else ["self_draw"]))
    if by == "rob_kong":
        wall.take([tile] * 3)
    win: dict[str, Any] = {"player": seat, "tile": tile, "by": by, "flags": []}
    if by != "self_draw":
        win["from"] = draw(st.sampled_from([s for s in range(4) if s != seat]))
    return win


# -- Wenling ------------------------------------------------------------------------------------------------
@st.composite
def wenling_tables(draw: Draw, min_de: int = 0) -> dict[str, Any]:
    """Wenling tables; the winner holds at least ``min_de`` 得."""
    from scoring.wenling import INFO, TileRoles

    options = draw(options_for("wenling"))
    full = {o.name: o.parse(options[o.name]) if o.name in options else o.default for o in INFO.options}
    wall = Wall()
    indicators = st.sampled_from(PLAYING_TILES + FLOWERS)
    indicator = draw(indicators if min_de else st.one_of(st.none(), indicators))
    if indicator is not None:
        wall.take([indicator])
    roles = TileRoles.of(indicator, full)
    ordinary = tuple(t for t in PLAYING_TILES if t not in roles.de and t not in roles.specials)
    dealer = draw(st.integers(0, 3))
    winner = draw(st.integers(0, 3))
    concealed, melds = draw(winning_hand(wall, 5, ordinary))
    for _ in range(draw(st.integers(min_de, 3))):  # some concealed tiles are 得 instead
        de_left = wall.available(sorted(roles.de))
        natural = [i for i, t in enumerate(concealed) if t not in roles.de]
        if not de_left or not natural:
            break
        index = draw(st.sampled_from(natural))
        wall.put_back([concealed[index]])
        concealed[index] = wall.take([draw(st.sampled_from(de_left))])[0]
    tile = draw(st.sampled_from(concealed))
    win = _win(draw, winner, tile, may_claim=tile not in roles.de, wall=wall)
    if win["by"] == "self_draw" and draw(st.booleans()):
        win["flags"] = ["kong_replacement"] + (["after_special_kong"] if draw(st.booleans()) else [])
    laid = lambda: "".join(draw(some_of(wall, sorted(roles.specials) + [f for f in FLOWERS if f not in roles.de], 3)))
    players: list[dict[str, Any]] = []
    for seat in range(4):
        if seat == winner:
            players.append({"concealed": "".join(concealed), "melds": melds, "flowers": laid()})
        elif draw(st.integers(0, 4)) == 0:
            players.append({"concealed": "", "melds": [], "flowers": laid()})
        else:
            hand = draw(loose_hand(wall, 16, ordinary + tuple(sorted(roles.de)), ordinary))
            players.append(hand | {"flowers": laid()})
    context = {}
    if draw(st.booleans()):
        context = {"bao": {fact: draw(st.booleans()) for fact in
                           ("sheng_phase", "tile_was_sheng", "discarder_all_sheng", "discarder_tenpai")}}
    win["flags"] = possible_flags(win["flags"], players[winner], roles.specials)
    return {"rules": "wenling", "options": options, "dealer": dealer, "indicator": indicator,
            "players": players, "win": win, "context": context}


# -- Daishan ---------------------------------------------------------------------------------------------------
@st.composite
def daishan_tables(draw: Draw) -> dict[str, Any]:
    wall = Wall()
    dealer = draw(st.integers(0, 3))
    winner = draw(st.integers(0, 3))
    shape = draw(st.sampled_from(["sets", "sets", "sets", "seven pairs", "thirteen"]))
    melds: list[dict[str, Any]] = []
    if shape == "seven pairs":
        kinds = draw(st.lists(st.sampled_from(PLAYING_TILES), min_size=7, max_size=7, unique=True))
        concealed = wall.take(k for k in kinds for _ in range(2))
    elif shape == "thirteen":
        honours = draw(st.lists(st.sampled_from(PLAYING_TILES[27:]), min_size=5, max_size=7, unique=True))
        starts = draw(st.permutations([1, 2, 3]))
        suited = draw(st.permutations([f"{n}{s}" for s, a in zip("mps", starts) for n in (a, a + 3, a + 6)]))
        suited = suited[: 14 - len(honours)]
        concealed = wall.take(honours + list(suited))
    else:
        concealed, melds = draw(winning_hand(wall, 4, PLAYING_TILES))
    tile = draw(st.sampled_from(concealed))
    win = _win(draw, winner, tile, may_claim=True, wall=wall)
    flags = []
    if win["by"] == "self_draw":
        flags += [f for f in ("last_tile", "kong_replacement") if draw(st.booleans())]
        if winner == dealer and draw(st.booleans()):
            flags.append("heaven")
    elif win["by"] == "discard" and win["from"] == dealer and winner != dealer and draw(st.booleans()):
        flags.append("earth")
    win["flags"] = flags
    players = []
    for seat in range(4):
        flowers = "".join(draw(some_of(wall, FLOWERS, 8 if seat == winner else 2)))
        if seat == winner:
            players.append({"concealed": "".join(concealed), "melds": melds, "flowers": flowers})
        elif draw(st.booleans()):
            players.append({"concealed": "", "melds": [], "flowers": flowers})
        else:
            players.append(draw(loose_hand(wall, 13, PLAYING_TILES)) | {"flowers": flowers})
    win["flags"] = possible_flags(win["flags"], players[winner])
    return {"rules": "daishan", "options": draw(options_for("daishan")), "dealer": dealer, "indicator": None,
            "players": players, "win": win, "context": {}}


# -- Fuzhou ----------------------------------------------------------------------------------------------------
SUITED = tuple(t for t in PLAYING_TILES if is_suited(t))
HONOURS = tuple(t for t in PLAYING_TILES if t[1] == "z")


def idle_gold(concealed: list[str], win_tile: str, gold: str | None) -> bool:
    """闲金 (spec §4.2): every suited tile that can still come (not held four times) completes the hand
    without the winning tile, 金 as wilds."""
    from scoring.hands import HandSpec, is_complete

    rest = list(concealed)
    rest.remove(win_tile)
    return all(is_complete(HandSpec.of(rest + [kind], lambda t: t == gold, wild_as=SUITED))
               for kind in SUITED if rest.count(kind) < 4 or kind == gold)


@st.composite
def fuzhou_tables(draw: Draw) -> dict[str, Any]:
    """Fuzhou tables: the hand is built first, then the 金 kind is chosen among kinds no meld holds (its
    copies in the hand become 金 standing for themselves); under 抢金 one copy in the hand is the indicator.
    More 金 may replace concealed tiles. A claimed win is never on a 金 and never 闲金."""
    wall = Wall()
    dealer, winner = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    concealed, melds = draw(winning_hand(wall, 5, SUITED))
    melded = {t for m in melds for t in parse_tiles(m["tiles"])}
    free = [t for t in SUITED if t not in melded]
    takeable = sorted({t for t in concealed if t not in melded}, key=SUITED.index)
    rob_gold = bool(takeable) and draw(st.integers(0, 5)) == 0
    indicator: str | None
    if rob_gold:
        indicator = draw(st.sampled_from(takeable))
    else:
        kinds = [t for t in free if wall.left[t]]
        indicator = draw(st.one_of(st.none(), st.sampled_from(kinds)) if kinds else st.none())
        if indicator is not None:
            wall.take([indicator])
    for _ in range(draw(st.integers(0, 3))):  # some concealed tiles are 金 instead
        natural = [i for i, t in enumerate(concealed) if t != indicator]
        if indicator is None or not wall.left[indicator] or not natural:
            break
        index = draw(st.sampled_from(natural))
        wall.put_back([concealed[index]])
        concealed[index] = wall.take([indicator])[0]
    golds = concealed.count(indicator) - (1 if rob_gold else 0)
    flags: list[str] = []
    if rob_gold:
        win = {"player": winner, "tile": indicator, "by": "self_draw", "flags": flags}
        flags.append("rob_gold")
    else:
        tile = draw(st.sampled_from(concealed))
        win = _win(draw, winner, tile, may_claim=tile != indicator, wall=wall)
        if win["by"] != "self_draw" and golds and idle_gold(concealed, tile, indicator):
            win = {"player": winner, "tile": tile, "by": "self_draw", "flags": flags}
        win["flags"] = flags
        if win["by"] == "self_draw" and winner == dealer and draw(st.booleans()):
            flags.append("heaven")
    if win["by"] == "self_draw":
        if golds >= 3 and draw(st.booleans()):
            flags.append("three_golds")
        if indicator is not None and draw(st.integers(0, 3)) == 0:
            flags.append("gold_kan")
    players = []
    for seat in range(4):
        flowers = "".join(draw(some_of(wall, HONOURS + FLOWERS, 8 if seat == winner else 3)))
        if seat == winner:
            players.append({"concealed": "".join(concealed), "melds": melds, "flowers": flowers})
        elif draw(st.booleans()):
            players.append({"concealed": "", "melds": [], "flowers": flowers})
        else:
            ordinary = tuple(t for t in SUITED if t != indicator)
            players.append(draw(loose_hand(wall, 16, SUITED, ordinary)) | {"flowers": flowers})
    win["flags"] = possible_flags(win["flags"], players[winner])
    return {"rules": "fuzhou", "options": draw(options_for("fuzhou")), "dealer": dealer,
            "dealer_streak": draw(st.integers(0, 3)), "indicator": indicator, "players": players, "win": win,
            "context": {}}


# -- Baicheng --------------------------------------------------------------------------------------------------
DRAGON_SET = ("5z", "6z", "7z")


def _baicheng_legal(blocks: list[tuple[str, ...]], pair: str, win_tile: str, hard_yaojiu: bool) -> bool:
    """三门全, 幺九 (besides the winning tile with ``hard_yaojiu``) and 有刻 on one decomposition."""
    tiles = [t for b in blocks for t in b] + [pair, pair]
    others = list(tiles)
    others.remove(win_tile)
    has_triplet = any(len(set(b)) == 1 or len(b) == 4 for b in blocks) or pair in DRAGON_SET
    yaojiu = any(t[1] == "z" or t[0] in "19" for t in (others if hard_yaojiu else tiles))
    return {"m", "p", "s"} <= {t[1] for t in tiles} and yaojiu and has_triplet


@st.composite
def _baicheng_player(draw: Draw, wall: Wall) -> dict[str, Any]:
    """A non-winner: blank or 13 tiles; its pungs may be kongs or marked as a pung of the 宝."""
    hand = draw(loose_hand(wall, 13, PLAYING_TILES)) if draw(st.booleans()) else \
        {"concealed": "", "melds": [], "flowers": ""}
    if not hand["concealed"] and draw(st.booleans()):
        hand["melds"] = [{"type": kind, "tiles": "".join(wall.take(tiles))}
                         for kind, tiles in [draw(st.sampled_from(set_choices(wall, PLAYING_TILES)))]]
    for meld in hand["melds"]:
        tile = parse_tiles(meld["tiles"])[0]
        if meld["type"] == "pung" and wall.left[tile] and draw(st.booleans()):
            meld.update({"type": "kong", "tiles": meld["tiles"] + "".join(wall.take([tile]))},
                        **draw(st.sampled_from([{}, {"added": True}, {"concealed": True}])))
        elif meld["type"] == "pung" and draw(st.integers(0, 3)) == 0:
            meld["bao"] = True
    return hand


@st.composite
def baicheng_tables(draw: Draw) -> dict[str, Any]:
    """Baicheng tables: 4 sets (中發白 sets and a whirlwind among them) + pair meeting 三门全, 幺九 and 有刻
    on the constructed decomposition; a drawn 宝 may replace the winning tile (摸宝); some hands are drawn."""
    options = draw(options_for("baicheng"))
    wall = Wall()
    dealer, winner = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    indicator = draw(st.one_of(st.none(), st.sampled_from(PLAYING_TILES)))
    if indicator is not None:
        wall.take([indicator])
    if draw(st.integers(0, 9)) == 0:  # 流局: four non-winners, kongs still paid
        players = [draw(_baicheng_player(wall)) for _ in range(4)]
        return {"rules": "baicheng", "options": options, "dealer": dealer, "indicator": indicator,
                "players": players, "win": None, "context": {}}
    melds: list[dict[str, Any]] = []
    blocks: list[tuple[str, ...]] = []
    if wall.has(("1z", "2z", "3z", "4z")) and draw(st.integers(0, 4)) == 0:
        blocks.append(tuple(wall.take(("1z", "2z", "3z", "4z"))))
        melds.append({"type": "whirlwind", "tiles": "1234z"})
    n_melds = draw(st.integers(0, 4 - len(blocks)))
    concealed: list[str] = []
    for index in range(4 - len(blocks)):
        kind, tiles = draw(st.sampled_from(set_choices(wall, PLAYING_TILES, extra=(DRAGON_SET,))))
        if index < n_melds and kind == "pung" and wall.left[tiles[0]] >= 4 and draw(st.booleans()):
            tiles = tiles + tiles[:1]
            melds.append({"type": "kong", "tiles": "".join(wall.take(tiles)),
                          **draw(st.sampled_from([{}, {"added": True}, {"concealed": True}]))})
        elif index < n_melds:
            melds.append({"type": kind, "tiles": "".join(wall.take(tiles)), **({"bao": True} if kind == "pung" and
                                                                                 draw(st.integers(0, 5)) == 0 else {})})
        else:
            concealed += wall.take(tiles)
        blocks.append(tiles)
    pair = draw(st.sampled_from([t for t in PLAYING_TILES if wall.left[t] >= 2]))
    concealed += wall.take([pair, pair])
    tile = draw(st.sampled_from(concealed))
    assume(_baicheng_legal(blocks, pair, tile, options.get("hard_yaojiu", False)))
    win = _win(draw, winner, tile, may_claim=True, wall=wall)
    flags: list[str] = []
    if win["by"] == "self_draw":
        if any(m["type"] in ("kong", "whirlwind") for m in melds) and draw(st.booleans()):
            flags.append("kong_replacement")
        if indicator is not None and wall.left[indicator] and draw(st.integers(0, 2)) == 0:
            index = concealed.index(tile)
            wall.put_back([concealed[index]])
            concealed[index] = win["tile"] = wall.take([indicator])[0]
            flags.append("bao_draw")
    win["flags"] = flags
    players = [{"concealed": "".join(concealed), "melds": melds, "flowers": ""} if seat == winner
               else draw(_baicheng_player(wall)) for seat in range(4)]
    return {"rules": "baicheng", "options": options, "dealer": dealer, "indicator": indicator,
            "players": players, "win": win, "context": {}}


TABLES: dict[str, Callable[[], st.SearchStrategy]] = {
    "wenling": wenling_tables, "daishan": daishan_tables, "fuzhou": fuzhou_tables, "baicheng": baicheng_tables}
"""Each region's generator of legal tables; other regions add theirs here."""


def legal_tables(rules: str) -> st.SearchStrategy:
    return TABLES[rules]()
