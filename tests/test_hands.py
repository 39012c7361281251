"""The hand search: exhaustive readings with wilds, winning-tile roles and special shapes."""
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.hands import PAIR, SEQUENCE, TRIPLET, HandSpec, is_complete, readings
from scoring.tiles import PLAYING_TILES, parse_tiles


def _spec(tiles: str, wilds: int = 0, **kw) -> HandSpec:
    base = HandSpec.of(parse_tiles(tiles), **kw)
    return HandSpec(base.counts, wilds, **{k: getattr(base, k) for k in kw})


def shapes(reading) -> list[tuple[str, str]]:
    return sorted((b.shape, b.text) for b in reading.hand)


def test_one_decomposition():
    (only,) = readings(_spec("112233m55p"))
    assert shapes(only) == [("pair", "55p"), ("sequence", "123m"), ("sequence", "123m")]


def test_triplets_or_sequences():
    found = {tuple(shapes(r)) for r in readings(_spec("111222333m55p"))}
    assert found == {
        (("pair", "55p"), ("sequence", "123m"), ("sequence", "123m"), ("sequence", "123m")),
        (("pair", "55p"), ("triplet", "111m"), ("triplet", "222m"), ("triplet", "333m")),
    }


def test_each_copy_of_the_winning_kind_is_a_role():
    # 11123444m is 111m 234m 44m or 11m 123m 444m: a 1m may complete the triplet, the pair or the sequence
    roles = {(r.winning.shape, r.winning.text) for r in readings(_spec("11123444m", win="1m"))}
    assert roles == {("triplet", "111m"), ("pair", "11m"), ("sequence", "123m")}
    roles = {(r.winning.shape, r.winning.text) for r in readings(_spec("11123444m", win="3m"))}
    assert roles == {("sequence", "123m"), ("sequence", "234m")}


def test_not_complete():
    assert not readings(_spec("12345m55p"))
    assert not is_complete(_spec("1245m"))
    assert not readings(_spec("1112m"))  # size 4 is no hand


def test_wild_fills_a_gap_and_keeps_its_identity():
    (only,) = readings(_spec("13m55p", wilds=1))
    gap = next(b for b in only.hand if b.is_sequence)
    assert gap.text == "123m" and gap.wild == (False, True, False)
    assert only.substitutions == 1


def test_wild_as_its_own_kind_is_no_substitution():
    (as_itself,) = [r for r in readings(_spec("13m55p", wilds=1, wild_kinds=frozenset({"2m"})))]
    assert as_itself.substitutions == 0


def test_two_wilds_alone_are_any_pair():
    found = readings(_spec("123m", wilds=2))
    pairs = {r.pair.tile for r in found if r.pair.wild == (True, True)}
    assert pairs == set(PLAYING_TILES)


def test_wild_may_replace_a_free_natural():
    # 3m 4m 5m 5m + wild: the wild is the 5m of the pair, or the 5m of the sequence (34m + wild)
    found = readings(_spec("3455m", 1))
    masks = {tuple((b.text, b.wild) for b in sorted(r.hand, key=lambda b: b.shape)) for r in found}
    assert (("55m", (False, True)), ("345m", (False, False, False))) in masks
    assert (("55m", (False, False)), ("345m", (False, False, True))) in masks


def test_wild_winning_tile_takes_any_slot():
    found = readings(_spec("13m55p", wilds=1, win_wild=True))
    (only,) = found
    assert only.winning.text == "123m" and only.winning.win_at == 1  # the middle: a 嵌档 wait


def test_allowed_identities_limit_wilds():
    suited = tuple(t for t in PLAYING_TILES if t[1] != "z")
    assert not readings(_spec("1z555p", wilds=1, wild_as=suited))
    assert readings(_spec("1z555p", wilds=1))


def test_extra_set_shape():
    dragons = (("dragon set", ("5z", "6z", "7z")),)
    assert not readings(_spec("567z11m"))
    (only,) = readings(_spec("567z11m", extra_sets=dragons))
    assert shapes(only) == [("dragon set", "567z"), ("pair", "11m")]
    (with_wild,) = readings(_spec("57z11m", wilds=1, extra_sets=dragons,
                                  wild_as=("5z", "6z", "7z")))
    assert ("dragon set", "567z") in shapes(with_wild)


def test_seven_pairs():
    hand = "1133557799m1122p"
    assert not readings(_spec(hand))
    (only,) = readings(_spec(hand, seven_pairs="distinct"))
    assert len(only.hand) == 7 and all(b.is_pair for b in only.hand)


def test_seven_pairs_with_four_of_a_kind():
    hand = "1111335577m1122p"
    assert not [r for r in readings(_spec(hand, seven_pairs="distinct")) if len(r.hand) == 7]
    assert [r for r in readings(_spec(hand, seven_pairs="any")) if len(r.hand) == 7]


def test_seven_pairs_with_wilds():
    found = readings(_spec("113355779m1122p", wilds=1, seven_pairs="distinct"))
    assert any(len(r.hand) == 7 and "99m" in [b.text for b in r.hand] for r in found)


def test_thirteen_unrelated():
    hand = "147m258p369s12345z"  # 3 + 3 + 3 suited, 5 honours
    assert not readings(_spec(hand))
    (only,) = readings(_spec(hand, thirteen_unrelated=True, win="5z"))
    assert only.hand[0].shape == "thirteen unrelated" and only.winning.tiles[only.winning.win_at] == "5z"
    assert not readings(_spec("146m258p369s12345z", thirteen_unrelated=True))  # 4m and 6m are 2 apart
    assert readings(_spec("147m258p369s1234z", wilds=1, thirteen_unrelated=True))


def test_key_merges_alike_readings_without_losing_any_kind():
    exact = readings(_spec("55p", wilds=3))
    by_shape = readings(_spec("55p", wilds=3), key=lambda b: (b.shape, b.wilds))
    assert len(by_shape) < len(exact)
    assert {tuple(sorted((b.shape, b.wilds) for b in r.hand)) for r in exact} == \
        {tuple(sorted((b.shape, b.wilds) for b in r.hand)) for r in by_shape}


# -- brute force: the search equals a naive enumeration over every wild identity ---------------------------
def _naive(tiles: list[str], wilds: int, win: str | None, win_wild: bool) -> set:
    """Every reading by brute force: try all identities (from POOL) for the wilds, then every partition."""
    results = set()
    kinds = PLAYING_TILES

    def partitions(items: Counter, pair_done: bool):
        if not items:
            yield ()
            return
        first = min(items, key=lambda kw: (kinds.index(kw[0]), kw[1]))
        code = first[0]
        n, s = int(code[0]), code[1]
        templates = [(TRIPLET, (code,) * 3)]
        if not pair_done:
            templates.append((PAIR, (code,) * 2))
        if s != "z":
            for start in (n - 2, n - 1, n):
                if 1 <= start <= 7:
                    templates.append((SEQUENCE, tuple(f"{start + d}{s}" for d in range(3))))
        for shape, codes in templates:
            if code not in codes:
                continue
            for mask in _masks(len(codes)):
                need = Counter(zip(codes, mask))
                if first not in need or any(items[k] < v for k, v in need.items()):
                    continue
                rest = items - need
                for tail in partitions(rest, pair_done or shape == PAIR):
                    yield ((shape, codes, tuple(sorted(zip(codes, mask)))),) + tail

    for identities in _identity_tuples(wilds):
        items = Counter([(t, False) for t in tiles] + [(t, True) for t in identities])
        for part in partitions(items, False):
            if sum(1 for p in part if p[0] == PAIR) != 1:
                continue
            for index, (shape, codes, pairs) in enumerate(part):
                roles = []
                if win is not None and (win, False) in pairs:
                    roles.append(win)
                if win_wild:
                    roles += sorted({c for c, w in pairs if w})
                if win is None and not win_wild:
                    roles = [""]
                for role in roles:
                    results.add(tuple(sorted((sh, p, role if i == index else "")
                                             for i, (sh, _, p) in enumerate(part))))
    return results


def _masks(n):
    if n == 0:
        yield ()
        return
    for head in (False, True):
        for tail in _masks(n - 1):
            yield (head,) + tail


def _identity_tuples(wilds):
    if wilds == 0:
        yield ()
        return
    for first in range(len(POOL)):
        for rest in _identity_tuples(wilds - 1):
            if not rest or first <= POOL.index(rest[0]):
                yield (POOL[first],) + rest


def _searched(tiles: list[str], wilds: int, win: str | None, win_wild: bool) -> set:
    found = set()
    for r in readings(HandSpec(HandSpec.of(tiles).counts, wilds, POOL, win=win, win_wild=win_wild)):
        found.add(tuple(sorted((b.shape, tuple(sorted(zip(b.tiles, b.wild))),
                                b.tiles[b.win_at] if b.winning else "") for b in r.hand)))
    return found


POOL = PLAYING_TILES[:9] + PLAYING_TILES[27:29]


@st.composite
def small_hands(draw):
    """Up to 8 tiles from one suit and two honours, 0–2 wilds, sized 3n + 2."""
    wilds = draw(st.integers(0, 2))
    size = 3 * draw(st.integers(0, 2)) + 2
    tiles = draw(st.lists(st.sampled_from(POOL), min_size=size - wilds, max_size=size - wilds)
                 .filter(lambda ts: all(n <= 4 for n in Counter(ts).values())))
    wild_wins = wilds > 0 and draw(st.booleans())
    return tiles, wilds, wild_wins


@settings(max_examples=80, deadline=None)
@given(small_hands())
def test_search_equals_brute_force(hand):
    tiles, wilds, win_wild = hand
    win = None if win_wild or not tiles else tiles[0]
    assert _searched(tiles, wilds, win, win_wild) == _naive(tiles, wilds, win, win_wild)
