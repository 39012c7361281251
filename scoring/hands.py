"""The hand search: every reading of a winner's concealed tiles (spec §2), wilds included, memoised.

A *reading* partitions the concealed tiles into sets plus one pair (or a special shape: seven pairs,
十三不搭), gives every wild an identity and says which block the winning tile completes. `readings`
enumerates all of them, exhaustively: a wild may stand for any identity it is allowed (its own kind
too), may fill a set or pair next to natural tiles even when a natural of that kind is free, or form
a block of wilds only; each natural tile of the winning kind and each wild slot (for a wild winning
tile) may be the winning tile.

Readings that a region scores alike are merged as they are built: the region passes a ``key`` that
maps a block to what its scoring reads from it (e.g. "a concealed triplet of a terminal" rather than
"of 9p"); two readings whose blocks have the same multiset of keys score the same, and the one with
fewer wild substitutions is kept as the witness. With ``combine`` (associative and commutative), keys
are folded instead of collected, so a region can merge on a summary such as (Σ和, Σ番, suits seen, wait).
``key=None`` keeps every distinct reading. Nothing is pruned by value, so the best reading is never
lost; the merging only makes the search fast.

Sets never mix suits, so each suit, the honours and the blocks of wilds alone are searched on their
own (memoised on natural counts coded 3 bits per kind, the wilds left and whether the winning tile is
still to be placed) and the groups' readings are crossed, for every split of the wilds among them.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from scoring.record import Meld
from scoring.tiles import PLAYING_TILES, TILE_INDEX, format_tiles

KINDS = len(PLAYING_TILES)
KIND_INDEX: dict[str, int] = {code: i for i, code in enumerate(PLAYING_TILES)}

PAIR, SEQUENCE, TRIPLET, KONG, WHIRLWIND = "pair", "sequence", "triplet", "kong", "whirlwind"
THIRTEEN_UNRELATED = "thirteen unrelated"
_MELD_SHAPES = {"chow": SEQUENCE, "pung": TRIPLET, "kong": KONG, "whirlwind": WHIRLWIND}


@dataclass(frozen=True, slots=True)
class Block:
    """A set or pair of a reading: identities in canonical order, which of them are wilds, where the win is.

    ``melded`` marks a declared meld (fixed, never re-read); ``concealed`` is false only for a claimed
    meld (a concealed kong and every block of the hand are concealed). ``win_at`` is the index in
    ``tiles`` of the winning tile, None when this block does not hold it.
    """

    shape: str
    tiles: tuple[str, ...]
    wild: tuple[bool, ...]
    melded: bool = False
    concealed: bool = True
    win_at: int | None = None

    @property
    def tile(self) -> str:
        """The first tile: the kind of a pair, triplet or kong, the lowest tile of a sequence."""
        return self.tiles[0]

    @property
    def is_pair(self) -> bool:
        return self.shape == PAIR

    @property
    def is_triplet(self) -> bool:
        """A triplet or a kong (刻子 in the wide sense)."""
        return self.shape in (TRIPLET, KONG)

    @property
    def is_sequence(self) -> bool:
        return self.shape == SEQUENCE

    @property
    def wilds(self) -> int:
        return sum(self.wild)

    @property
    def winning(self) -> bool:
        return self.win_at is not None

    @property
    def text(self) -> str:
        """The identities as a compact tile string, e.g. ``"456s"``."""
        return format_tiles(self.tiles)

    @classmethod
    def from_meld(cls, meld: Meld, extra_sets: Iterable[tuple[str, tuple[str, ...]]] = ()) -> Block:
        tiles = tuple(sorted(meld.tiles, key=TILE_INDEX.__getitem__))
        shape = next((name for name, shape_tiles in extra_sets if shape_tiles == tiles), _MELD_SHAPES[meld.kind])
        return cls(shape, tiles, (False,) * len(tiles), melded=True, concealed=meld.concealed)


@dataclass(frozen=True)
class Reading:
    """One reading of a hand: the blocks of the concealed tiles, the fixed melds, the wild substitutions."""

    hand: tuple[Block, ...]
    melds: tuple[Block, ...] = ()
    substitutions: int = 0

    @property
    def blocks(self) -> tuple[Block, ...]:
        return self.hand + self.melds

    @property
    def sets(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if not b.is_pair)

    @property
    def pair(self) -> Block | None:
        pairs = [b for b in self.hand if b.is_pair]
        return pairs[0] if len(pairs) == 1 else None

    @property
    def winning(self) -> Block | None:
        return next((b for b in self.hand if b.winning), None)

    @property
    def tiles(self) -> tuple[str, ...]:
        """Every tile by identity, melds included."""
        return tuple(t for b in self.blocks for t in b.tiles)

    @property
    def suits(self) -> frozenset[str]:
        """The suits (m, p, s) of the suited tiles, by identity, melds included."""
        return frozenset(t[1] for t in self.tiles if t[1] != "z")

    @property
    def has_honours(self) -> bool:
        return any(t[1] == "z" for t in self.tiles)

    def describe(self) -> list[dict]:
        """The blocks as JSON-ready dicts: tiles, shape, which tiles are wilds, which one won."""
        out = []
        for b in self.blocks:
            entry = {"tiles": b.text, "shape": b.shape, "melded": b.melded}
            if any(b.wild):
                entry["wilds"] = format_tiles(t for t, w in zip(b.tiles, b.wild) if w)
            if b.winning:
                entry["winning_tile"] = b.tiles[b.win_at]
            out.append(entry)
        return out


@dataclass(frozen=True)
class HandSpec:
    """What to search: natural tiles by kind, the wilds, the winning tile and the shapes the region allows.

    ``counts`` has one entry per playing kind (`PLAYING_TILES` order). ``wild_as`` lists the identities a
    wild may take; a wild standing for one of ``wild_kinds`` (its own kind) is no substitution.
    ``win`` is the natural winning tile's kind, ``win_wild`` says the winning tile is a wild; with
    neither, no block is marked winning. ``extra_sets`` are the region's additional set shapes as
    (name, tiles), e.g. ``("dragon set", ("5z", "6z", "7z"))``. ``seven_pairs`` is None, ``"distinct"``
    (seven different pairs) or ``"any"`` (four of a kind may be two pairs).
    """

    counts: tuple[int, ...]
    wilds: int = 0
    wild_as: tuple[str, ...] = PLAYING_TILES
    wild_kinds: frozenset[str] = frozenset()
    win: str | None = None
    win_wild: bool = False
    extra_sets: tuple[tuple[str, tuple[str, ...]], ...] = ()
    seven_pairs: str | None = None
    thirteen_unrelated: bool = False

    @classmethod
    def of(cls, tiles: Iterable[str], is_wild: Callable[[str], bool] = lambda t: False, **kw) -> HandSpec:
        """Build from concealed tile codes; ``is_wild`` says which tiles are wilds."""
        counts = [0] * KINDS
        wilds = 0
        for t in tiles:
            if is_wild(t):
                wilds += 1
            else:
                counts[KIND_INDEX[t]] += 1
        return cls(tuple(counts), wilds, **kw)

    @property
    def size(self) -> int:
        return sum(self.counts) + self.wilds


BlockKey = Callable[[Block], Hashable]
Combine = Callable[[Hashable, Hashable], Hashable]


def readings(spec: HandSpec, melds: tuple[Block, ...] = (), key: BlockKey | None = None,
             combine: Combine | None = None) -> tuple[Reading, ...]:
    """All readings of ``spec`` (merged by ``key`` and ``combine``, see the module doc), fewest substitutions first."""
    return tuple(Reading(hand, melds, subs) for subs, hand in _search(spec, key, combine))


def clear_cache() -> None:
    """Forget searched hands (the last 512 are kept), e.g. to time a search from cold."""
    _search.cache_clear()


def _same(block: Block) -> int:
    return 0


def is_complete(spec: HandSpec) -> bool:
    """True when the tiles form the sets and pair (or an allowed special shape) with the wilds."""
    return bool(_search(spec, _same, None))


@lru_cache(maxsize=512)
def _search(spec: HandSpec, key: BlockKey | None,
            combine: Combine | None) -> tuple[tuple[int, tuple[Block, ...]], ...]:
    found: Found = {}
    if spec.size % 3 == 2 and all(c <= 4 for c in spec.counts):
        search = _Search(spec, key, combine)
        found = search.sets_and_pair()
        if spec.seven_pairs and spec.size == 14:
            _merge(found, search.seven_pairs())
        if spec.thirteen_unrelated and spec.size == 14:
            _merge(found, search.thirteen_unrelated())
    return tuple(sorted(found.values(), key=lambda entry: entry[0]))


def _merge(into: dict, more: dict) -> None:
    for keys, (subs, blocks) in more.items():
        if keys not in into or subs < into[keys][0]:
            into[keys] = (subs, blocks)


Found = dict[Hashable, tuple[int, tuple[Block, ...]]]
"""Readings found so far: merged key -> (substitutions, blocks) of the witness with fewest substitutions."""


_GROUPS = ((0, 9), (9, 9), (18, 9), (27, 7), (0, 0))
"""(first kind, number of kinds) of each group: the suits m, p, s, the honours, then wilds alone (global kinds)."""
FREE = 4


class _Search:
    """One search: the memo, the block cache and the merge keys of a single HandSpec."""

    def __init__(self, spec: HandSpec, key: BlockKey | None, combine: Combine | None) -> None:
        self.spec = spec
        self.key = key
        self.combine = combine
        self.empty: Hashable = () if combine is None else None
        self.key_ids: dict[Hashable, int] = {}
        self.memo: dict[tuple, Found] = {}
        self.block_cache: dict[tuple, list] = {}
        self.win_kind = KIND_INDEX[spec.win] if spec.win is not None else -1
        self.allowed, self.shapes, self.free = _shapes(spec.wild_as, spec.extra_sets)

    # -- merge keys -------------------------------------------------------------------------------
    def _key_id(self, block: Block) -> Hashable:
        """The block's key: interned to a small int for multisets, as given for a ``combine``."""
        k = block if self.key is None else self.key(block)
        if self.combine is not None:
            return k
        kid = self.key_ids.get(k)
        if kid is None:
            kid = self.key_ids[k] = len(self.key_ids)
        return kid

    def _join(self, kid: Hashable, rest: Hashable) -> Hashable:
        if self.combine is None:
            return _insert(rest, kid)
        return kid if rest is None else self.combine(kid, rest)

    def _join_all(self, a: Hashable, b: Hashable) -> Hashable:
        if self.combine is None:
            return tuple(sorted(a + b))
        return b if a is None else a if b is None else self.combine(a, b)

    def _cross(self, a: Found, b: Found) -> Found:
        """Every reading of ``a`` beside every reading of ``b``, merged."""
        out: Found = {}
        for ka, (sa, ba) in a.items():
            for kb, (sb, bb) in b.items():
                merged = self._join_all(ka, kb)
                old = out.get(merged)
                if old is None or sa + sb < old[0]:
                    out[merged] = (sa + sb, ba + bb)
        return out

    # -- blocks -----------------------------------------------------------------------------------
    def _blocks(self, shape: str, kinds: tuple[int, ...], wild: tuple[bool, ...], pending: bool) -> list:
        """The block (shape, kinds, wild mask) with each way to place a pending winning tile in it.

        A list of (block, takes_win, substitutions, key)."""
        cache_key = (shape, kinds, wild, pending)
        cached = self.block_cache.get(cache_key)
        if cached is None:
            cached = self.block_cache[cache_key] = list(self._make_blocks(shape, kinds, wild, pending))
        return cached

    def _make_blocks(self, shape: str, kinds: tuple[int, ...], wild: tuple[bool, ...], pending: bool):
        placements: list[int | None] = [None]
        if pending:
            if self.win_kind >= 0:
                at = next((p for p, (k, w) in enumerate(zip(kinds, wild)) if k == self.win_kind and not w), None)
                if at is not None:
                    placements.append(at)
            elif self.spec.win_wild:
                seen = set()
                for p, (k, w) in enumerate(zip(kinds, wild)):
                    if w and k not in seen:
                        seen.add(k)
                        placements.append(p)
        subs = sum(1 for k, w in zip(kinds, wild) if w and PLAYING_TILES[k] not in self.spec.wild_kinds)
        for at in placements:
            block = _make_block(shape, kinds, wild, at)
            yield block, at is not None, subs, self._key_id(block)

    # -- sets and a pair --------------------------------------------------------------------------
    def sets_and_pair(self) -> Found:
        """Readings as sets plus one pair, searched per group (each suit, the honours, wilds alone).

        Sets never mix groups, so each group is searched on its own with a share of the wilds, the
        pair in the group whose size leaves 2, the winning tile in one group; then groups are crossed.
        """
        spec = self.spec
        parts = [spec.counts[first:first + size] for first, size in _GROUPS]
        codes = [sum(c << (3 * k) for k, c in enumerate(part)) for part in parts]
        sizes = [sum(part) for part in parts]
        out: Found = {}
        for share in _shares(spec.wilds, len(_GROUPS)):
            rests = [(sizes[g] + share[g]) % 3 for g in range(len(_GROUPS))]
            if 1 in rests or rests.count(2) != 1 or any(share[g] and not sizes[g] for g in range(FREE)):
                continue
            if spec.win is not None:
                win_groups = [_group(self.win_kind)]
            elif spec.win_wild:
                win_groups = [g for g, n in enumerate(share) if n]
            else:
                win_groups = [None]
            for win_group in win_groups:
                found: Found = {self.empty: (0, ())}
                for g in range(len(_GROUPS)):
                    if sizes[g] or share[g]:
                        found = self._cross(found, self.standard(g, codes[g], sizes[g], share[g], win_group == g))
                        if not found:
                            break
                _merge(out, found)
        return out

    def standard(self, g: int, code: int, n: int, wilds: int, pending: bool) -> Found:
        """Readings of group ``g``: ``n`` natural tiles, counted 3 bits per kind in ``code``, and ``wilds``,
        in sets and (when the size leaves 2) a pair. Only the group of wilds alone makes blocks without a
        natural tile. ``pending``: the winning tile is still to be placed in this group."""
        memo = self.memo
        out = memo.get((g, code, wilds, pending))
        if out is not None:
            return out
        out = {}
        need_pair = (n + wilds) % 3 == 2
        if n == 0:
            if wilds == 0:
                if not pending:
                    out[self.empty] = (0, ())
                memo[(g, code, wilds, pending)] = out
                return out
            options = self.free[need_pair] if g == FREE else ()
        else:
            options = self.shapes[g][((code & -code).bit_length() - 1) // 3]
        win_shift = 3 * (self.win_kind - _GROUPS[g][0]) if self.win_kind >= 0 else -1
        block_cache = self.block_cache
        for shape, kinds, wild, delta, needs, n_wild, n_nat in options:
            if n_wild > wilds or (shape == PAIR and not need_pair):
                continue
            for shift, need in needs:
                if (code >> shift) & 7 < need:
                    break
            else:
                rest_code, rest_n, rest_wilds = code - delta, n - n_nat, wilds - n_wild
                blocks = block_cache.get((shape, kinds, wild, pending)) or self._blocks(shape, kinds, wild, pending)
                self._extend(out, blocks, g, rest_code, rest_n, rest_wilds, pending, win_shift)
        memo[(g, code, wilds, pending)] = out
        return out

    def _extend(self, out: Found, blocks: list, g: int, rest_code: int, rest_n: int, rest_wilds: int, pending: bool,
                win_shift: int) -> None:
        """Add each block (with each winning-tile placement) in front of every reading of what is left."""
        memo, join, win_wild = self.memo, self._join, self.spec.win_wild
        for block, takes_win, subs, kid in blocks:
            still = pending and not takes_win
            if still and ((win_shift >= 0 and not (rest_code >> win_shift) & 7) or (win_wild and not rest_wilds)):
                continue
            sub = memo.get((g, rest_code, rest_wilds, still))
            if sub is None:
                sub = self.standard(g, rest_code, rest_n, rest_wilds, still)
            for keys, (rest_subs, rest_blocks) in sub.items():
                merged = join(kid, keys)
                total = subs + rest_subs
                old = out.get(merged)
                if old is None or total < old[0]:
                    out[merged] = (total, (block,) + rest_blocks)

    # -- special shapes ---------------------------------------------------------------------------
    def seven_pairs(self) -> Found:
        """Seven pairs (different kinds unless ``seven_pairs == "any"``), wilds completing singles or pairing up."""
        spec, distinct = self.spec, self.spec.seven_pairs == "distinct"
        pairs: list[tuple[tuple[int, int], tuple[bool, bool]]] = []
        for k, c in enumerate(spec.counts):
            if c > (2 if distinct else 4):
                return {}
            pairs += [((k, k), (False, False))] * (c // 2)
            if c % 2:
                if not self.allowed[k]:
                    return {}
                pairs.append(((k, k), (False, True)))
        free = spec.wilds - sum(w for _, (_, w) in pairs)
        if free < 0 or free % 2:
            return {}
        used = {kinds[0] for kinds, _ in pairs}
        choices = [k for k in range(KINDS) if self.allowed[k] and not (distinct and k in used)]
        out: Found = {}
        for extra in _choose(choices, free // 2, repeat=not distinct):
            layout = pairs + [((k, k), (True, True)) for k in extra]
            self._place_win(out, [(PAIR, kinds, wild) for kinds, wild in layout])
        return out

    def thirteen_unrelated(self) -> Found:
        """十三不搭: 14 different tiles, per suit at most three, any two of a suit at least 3 apart."""
        spec = self.spec
        if any(c > 1 for c in spec.counts):
            return {}
        naturals = [k for k, c in enumerate(spec.counts) if c]
        if not _unrelated(naturals):
            return {}
        out: Found = {}
        candidates = [k for k in range(KINDS) if self.allowed[k] and not spec.counts[k]]
        for extra in _choose(candidates, spec.wilds, repeat=False):
            kinds = sorted(naturals + list(extra))
            if _unrelated(kinds):
                wild = tuple(k in extra for k in kinds)
                self._place_win(out, [(THIRTEEN_UNRELATED, tuple(kinds), wild)])
        return out

    def _place_win(self, out: Found, layout: list[tuple[str, tuple[int, ...], tuple[bool, ...]]]) -> None:
        """Add the readings of one fixed layout, one per block that can hold the winning tile."""
        pending = self.spec.win is not None or self.spec.win_wild
        options = []
        for index, (shape, kinds, wild) in enumerate(layout):
            for block, takes_win, subs, kid in self._blocks(shape, kinds, wild, pending):
                options.append((index, block, takes_win, subs, kid))
        plain = {index: (block, subs, kid) for index, block, takes, subs, kid in options if not takes}
        winners = [(index, block, subs, kid) for index, block, takes, subs, kid in options if takes]
        for win_index, win_block, win_subs, win_kid in (winners if pending else [(None, None, 0, 0)]):
            blocks, subs, keys = [], 0, []
            for index in range(len(layout)):
                block, block_subs, kid = (win_block, win_subs, win_kid) if index == win_index else plain[index]
                blocks.append(block)
                subs += block_subs
                keys.append(kid)
            merged = self.empty
            for kid in keys:
                merged = self._join(kid, merged)
            if merged not in out or subs < out[merged][0]:
                out[merged] = (subs, tuple(blocks))


Option = tuple[str, tuple[int, ...], tuple[bool, ...], int, tuple[tuple[int, int], ...], int, int]
"""One way to take a block: (shape, global kinds, wild mask, natural counts as a 3-bit-per-kind code to
subtract, (bit shift, naturals needed) per kind, wilds used, naturals used)."""


@lru_cache(maxsize=64)
def _shapes(wild_as: tuple[str, ...], extra_sets: tuple[tuple[str, tuple[str, ...]], ...]):
    """For a region's wild identities and extra sets: which kinds a wild may be; per group and lowest
    natural kind i every `Option` holding a natural i; and the options made of wilds alone, without and
    with a pair needed."""
    allowed = [code in wild_as for code in PLAYING_TILES]
    extra = [(name, tuple(KIND_INDEX[t] for t in tiles)) for name, tiles in extra_sets]
    if any(len({_group(k) for k in kinds}) > 1 for _, kinds in extra):
        raise ValueError("an extra set shape must lie within one suit or the honours")
    table: list[list[list[Option]]] = []
    for g, (offset, size) in enumerate(_GROUPS):
        per_kind = []
        for i in range(size if g != FREE else 0):
            shapes = [(PAIR, (i, i)), (TRIPLET, (i, i, i))]
            if g < 3:
                shapes += [(SEQUENCE, (a, a + 1, a + 2)) for a in (i - 2, i - 1, i) if 0 <= a <= 6]
            shapes += [(name, tuple(k - offset for k in kinds)) for name, kinds in extra
                       if _group(kinds[0]) == g and offset + i in kinds]
            per_kind.append([option for shape, local in shapes
                             for option in _options(shape, local, i, offset, allowed)])
        table.append(per_kind)
    free_sets = [(TRIPLET, (k, k, k)) for k in range(KINDS)]
    free_sets += [(SEQUENCE, (a, a + 1, a + 2)) for a in range(27) if a % 9 <= 6]
    free_sets += extra
    free = tuple([(shape, kinds, (True,) * len(kinds), 0, (), len(kinds), 0) for shape, kinds in shapes
                  if all(allowed[k] for k in kinds)]
                 for shapes in (free_sets, [(PAIR, (k, k)) for k in range(KINDS)]))
    return allowed, table, free


def _options(shape: str, local: tuple[int, ...], first: int, offset: int, allowed: list[bool]) -> list[Option]:
    """Each choice of which slots of a shape are wilds: naturals first within a kind, at least one
    natural of ``first`` (the lowest natural kind left), none below it, wilds only where allowed."""
    out: list[Option] = []
    for wild in product((False, True), repeat=len(local)):
        ordered = tuple(w for _, w in sorted(zip(local, wild)))
        if ordered != wild or any(w and not allowed[offset + k] for k, w in zip(local, wild)):
            continue
        used = Counter(k for k, w in zip(local, wild) if not w)
        if first not in used or any(k < first for k in used):
            continue
        delta = sum(n << (3 * k) for k, n in used.items())
        needs = tuple((3 * k, n) for k, n in sorted(used.items()))
        out.append((shape, tuple(offset + k for k in local), wild, delta, needs, sum(wild), sum(used.values())))
    return out


@lru_cache(maxsize=4096)
def _make_block(shape: str, kinds: tuple[int, ...], wild: tuple[bool, ...], win_at: int | None) -> Block:
    return Block(shape, tuple(PLAYING_TILES[k] for k in kinds), wild, win_at=win_at)


def _group(kind: int) -> int:
    """0, 1, 2 for the suits m, p, s; 3 for the honours."""
    return min(kind // 9, 3)


def _shares(n: int, parts: int):
    """Every way to split n wilds among ``parts`` groups."""
    if parts == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _shares(n - first, parts - 1):
            yield (first,) + rest


def _insert(keys: tuple[int, ...], kid: int) -> tuple[int, ...]:
    for pos, k in enumerate(keys):
        if kid <= k:
            return keys[:pos] + (kid,) + keys[pos:]
    return keys + (kid,)


def _choose(items: list[int], n: int, repeat: bool, start: int = 0):
    """Combinations of n items (with repetition when ``repeat``), in order."""
    if n == 0:
        yield ()
        return
    for pos in range(start, len(items)):
        for tail in _choose(items, n - 1, repeat, pos if repeat else pos + 1):
            yield (items[pos],) + tail


def _unrelated(kinds: list[int]) -> bool:
    by_suit: dict[int, list[int]] = {}
    for k in kinds:
        if k < 27:
            by_suit.setdefault(k // 9, []).append(k % 9)
    return all(len(ns) <= 3 and all(b - a >= 3 for a, b in zip(sorted(ns), sorted(ns)[1:]))
               for ns in by_suit.values())

