"""Group: rebuild a revealed hand from tile detections.

The reader understands the layout conventions of the README section "Laying out a hand for the camera":
the concealed tiles side by side in a row (standing or lying), the winning tile set a little apart at the
row's right end, melds apart from each other (a claimed meld has one tile turned sideways whose position
names the seat it came from; an added kong has its fourth tile stacked on top; a concealed kong shows two
or four backs), flowers (and what the region lays aside like flowers) in a group of their own.

Pure functions, in order:

- `find_layout(detections, up)`: geometry only. Rows are chained from neighbour to neighbour, shortest
  links first, along the direction in which the tiles line up best (under perspective rows need not lie
  square to the faces, may bend, and tile sizes change along them); a row splits into groups where a
  spacing, measured in tile sizes, is clearly wider than the spacings beside it; a lone tile off its row
  next to a tile with the same face is stacked on it. Detections that repeat a tile (a second box on it,
  or one across two neighbours) and backs that no concealed kong or wall explains are in no row.
- `read_layout(layout, tiles, sideways, region)`: what each group is (concealed part, winning tile, melds,
  flowers), which groups make the hand (the rest, such as other players' tiles or the wall, is left
  ``away``), and the player's part of a table record.
- `read_detections` tries each likely up direction of the hand (a webcam above the table may see it
  upside down; other players' tiles may face elsewhere) and keeps the best reading; `group_hand` leaves
  out slivers of tiles the photo's edge cuts off and groups it cuts that are no meld; when the hand is not
  legal as read, it tries readings that leave out what may not belong (backs no kong explains, a likely
  double, a group that is no meld, four backs that may be the wall, a clearly farther meld too many, a tile
  between claimed melds laid touching), that part claimed melds laid touching, or that clear sideways flags
  no meld explains, and keeps the first that makes the hand legal; it adds the consistency checks,
  suggestions and needs of `vision.consistency`.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import numpy as np

from scoring import REGIONS, laid_aside
from scoring.tiles import FLOWERS, TILE_INDEX, format_tiles, parse_tiles
from vision.detections import BACK, ODD_SHAPE, Detections
from vision.metrics import box_iou

SURE_GAP = 1.3
"""A spacing this many times the tighter of its neighbours is a gap between groups."""
GROUP_GAP = 1.26
"""A row splits between two tiles whose spacing exceeds this many times the tightest spacing beside it."""
MAX_LINK = 3.6
"""The farthest two tiles of one row may be apart, centre to centre, in tile sizes (gaps between groups)."""
LINK_TURN = 28.0
"""Largest turn, in degrees, between consecutive links of a row."""
HAND_REACH = 4.0
"""Groups farther than this from the rest of the hand (nearest tiles, in tile lengths along the row and
heights across it) are not part of it."""
SIZE_SPREAD = 3.0
"""A box more than this many times larger or smaller (square root of its area) than the hand's median tile
joins it by reach as no flower or meld: a saucer or a far tile read as a White."""
FLOWER_DOUBLE = 0.3
"""A flower read twice is one tile boxed twice when the two boxes overlap at least this much (IoU) or lie
in different groups; two such tiles side by side in one row are two tiles, one misread (reported)."""
WHITE = "5z"
"""The White dragon: its blank face is often taken for a face-down tile."""
WHITE_ALTERNATIVE = 0.1
"""A back beside the tiles laid aside with the flowers is a White when White's probability is at least this
(on the nine development sets it is for 17 of the 22 Whites read as backs and for 41 of the 5,810 backs)..."""
WHITE_RUN_ALTERNATIVE = 0.02
"""... and so is each back of a run of them beside those tiles that has at least this."""
DOUBLE_SPOT = 0.4
"""A tile this close along the row (in usual spacings) to a likelier one in line with it is that tile again."""
DOUBLE_SPAN = 1.5
"""Two tiles in line this close (in usual spacings, centre to centre) leave no room for a third between them."""
LIKELY_SPOT, LIKELY_SPAN = 0.7, 1.7
"""Looser DOUBLE_SPOT and DOUBLE_SPAN for a double that the hand's legality confirms (below 2: evenly spaced
tiles are 2 spacings apart, and a real tile between them must never be taken for a double)."""
DOUBLE_LINE = 0.2
"""Tiles this close across the row (tile sizes) are in line..."""
DOUBLE_REACH = 1.5
"""... and neighbours when this close along it."""
BOXED_TWICE = 0.3
"""Two boxes overlapping at least this much (IoU) may be one tile boxed twice (`_boxed_twice`)."""
BOXED_TWICE_TRIALS = 3
"""At most this many boxes are tried left out as a tile's second box."""
BACK_REACH = 3.5
"""A concealed kong's other back lies within this many box lengths along the row..."""
BACK_LINE = 0.5
"""... and this many across it (a meld seen in perspective slants off its row)."""
FACE_FOR_BACK = 0.05
"""A back no concealed kong explains may be read as its likeliest face when that has at least this probability
(`_faced_backs`)."""
MAX_TRIALS = 12
"""At most this many readings with boxes left out are tried to make a hand legal (development scenes: 7)."""
NEAR_SIZE = 3
"""A concealed part whose hand holds at most this many tiles more or fewer than the region's hand size (a
missed tile or meld) is likelier than one that holds fewer tiles still but has a winning hand's shape."""
EXTRA_MARGIN = 1.5
"""A hand with a meld too many leaves out its farthest meld only when it lies this many tile sizes farther
from the concealed part than any other meld."""
MEND_REACH = 1.6
"""Fragments of a meld the rows broke apart, one after another in a row, join when their nearest tiles are
this many tile sizes apart or closer if a box was left out between them or one of them is marked as a meld
(a sideways, stacked or face-down tile): a false box left out between them leaves a gap wider than the
usual spacing. Plain groups keep 1.3 (a concealed pair and the winning tile set apart after it), and so do
fragments with a box left out between them that shows their face (a fourth tile or a second box on one:
the reader cannot tell a kong from a pung, so it does not guess)."""
MELD_GAP = 1.9
"""A set laid this many usual spacings or more from the concealed row is a meld, its flag missed, when that
reads the hand as well as joining it to the row (`_set_apart`)."""
DOUBTFUL_READ = 0.5
"""A detection less sure than this may be a double of the tiles beside it."""
EDGE_SLIVER = 0.5
"""A box that the photo's edge cuts, less thick than this share of the median tile's short side, is a sliver
of a tile the photo cuts off (its face cannot be read)."""
RAISED = 0.2
"""A pung's sideways tile lying this many tile sizes further from the player than the other two lies on a
hidden tile (`_raised_claimed`)."""
MERGED_RAISE = 0.05
MERGED_DEPTH = 1.05
"""A pung's sideways tile whose box lies MERGED_RAISE tile sizes behind the other two and reaches
MERGED_DEPTH times as deep across the row as theirs is two tiles, the fourth of an added kong on the claimed
one, seen as one box (`_raised_claimed`)."""
MELD_SLANT = 25.0
"""A meld lies along the hand's rows: four backs in a line more slanted than this (degrees) are another
player's tiles or the wall."""
HALF_TURN_ALIKE = frozenset("1p 2p 3p 4p 5p 8p 9p 2s 4s 5s 6s 8s 9s 5z".split())
"""Faces that look the same turned by 180°: which way up they lie says nothing of the hand's up."""
QUARTER_TURN_ALIKE = frozenset("1p 4p 5p 5z 6z".split())
"""Faces whose quarter turn the classifier cannot tell, so their sideways flags say nothing (`_turned_tile`):
those that look the same turned by 90° (1p, 4p, 5p, a blank White) and the Green dragon, whose read axis
on real faces turned a quarter stays put for 12 of 178 tiles (the `valid` faces of `benchmarks/eval_turned_tiles.py`,
2026-12-06, with the axis head learnt on 168 real rows; 51 with 101 rows, 77 before any; White dragons 10 of 271,
18 and 105 before; every other face at most 1)."""
CLEAR_SHAPE = 0.1
"""A tile whose box is longer along the row for its height than any other of its meld's by this much (log
ratio) surely lies sideways."""
LEAN_CLEAR, LEAN_STRAIGHT = 35.0, 25.0
"""In a meld with no sideways flag and no clearly sideways shape, a face turned LEAN_CLEAR degrees or more off
the hand's axis while the others keep within LEAN_STRAIGHT is the claimed tile (a read between upright and
sideways, one the flags' 45° missed)."""
SIDEWAYS_LENGTH = 4 / 3
"""A sideways tile's length along the row, in upright tile widths (a face is 3 × 4)."""

TILE_ASPECT = 0.75
"""A standing tile's width over its height, to which `unstretched` scales a stretched picture back."""
SEAT_OF_POSITION = {"left": 3, "middle": 2, "right": 1}
"""Seat offset of the player a claimed tile came from, by its position: 上家, 对家, 下家."""


@dataclass(frozen=True)
class Layout:
    """Where the tiles lie, without their meaning.

    ``up`` is the image direction of the hand's up (degrees clockwise from image up); ``rows`` lists rows
    (player's left to right), each a tuple of groups, each a tuple of detection indices left to right;
    ``stacked`` maps a tile lying on top of another to that tile; ``points`` are the tile centres in the hand's frame (x to the player's right, y towards the player) and
    ``scale`` a size per tile, both in pixels; ``extent`` each box's length along the row and depth across
    it; ``lean`` how far each face's up turns from the hand's axis (degrees, 0–90: upright or upside down 0,
    a quarter turn 90); ``doubles`` the boxes left out of the rows as doubles of their neighbours' (`_doubles`;
    not those the caller left out).
    """

    up: float
    rows: tuple[tuple[tuple[int, ...], ...], ...]
    stacked: dict[int, int] = field(default_factory=dict)
    points: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    scale: np.ndarray = field(default_factory=lambda: np.zeros(0))
    extent: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    lean: np.ndarray = field(default_factory=lambda: np.zeros(0))
    doubles: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Group:
    """One group of the hand: ``kind`` is ``concealed``, ``winning``, ``meld`` or ``flowers``;
    ``tiles`` the detection indices (left to right, a stacked tile last); ``meld`` the index into the
    record's melds for a meld."""

    kind: str
    tiles: tuple[int, ...]
    meld: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "tiles": list(self.tiles), "meld": self.meld}


@dataclass(frozen=True)
class Need:
    """A fact the photo cannot show: ``key`` is a stable name (a table-record path such as ``win.by``,
    ``indicator``, ``melds.1.tiles``), ``question`` says what to fill in, ``required`` whether scoring
    cannot go on without it, ``choices`` the allowed values where they are few."""

    key: str
    question: str
    required: bool = True
    choices: tuple[Any, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "question": self.question, "required": self.required}
        if self.choices:
            out["choices"] = list(self.choices)
        return out


@dataclass(frozen=True)
class Suggestion:
    """A correction that makes the hand legal: ``changes`` maps detection index to its new tile (None: the
    detection is dropped as a false tile); ``added`` the tiles the photo did not show that complete the
    concealed part; ``probability`` is its share among the legal corrections considered; ``hand`` the
    corrected player's part and ``win_tile``."""

    changes: tuple[tuple[int, str | None], ...]
    probability: float
    text: str
    hand: dict[str, Any]
    win_tile: str | None
    added: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "changes": [{"index": i, "tile": t} for i, t in self.changes],
            "added": list(self.added),
            "probability": round(self.probability, 4),
            "text": self.text,
            "hand": self.hand,
            "win_tile": self.win_tile,
        }


@dataclass(frozen=True)
class HandReading:
    """The player's hand as read from one photo.

    ``concealed``, ``melds`` and ``flowers`` are the player's part of a table record (table-format.md); a
    concealed kong shown all face down has ``tiles`` ``""`` until the player names it (see ``needs``).
    ``win_tile`` is the tile set apart (None when none is; when none is but the concealed row holds one tile
    more than its share, the row's right end, with ``win_guessed``). ``groups`` give the detection indices of each
    group, ``away`` the detections left out of the hand, ``loose`` those of them read beside the hand that
    fit no group of it (reported in ``problems``). ``problems`` says why the hand is not legal as
    read, ``suggestions`` the most probable corrections (never applied), ``needs`` what the photo cannot show.
    ``winner`` is False for the hand of a player who did not win (scored too where the region scores every
    hand): it holds the region's hand size, sets no tile apart and need not be a winning shape; ``apart``
    says that it does set a tile apart (read as one of its concealed tiles), as a winner's hand does.
    """

    region: str
    concealed: str
    melds: tuple[dict[str, Any], ...]
    flowers: str
    win_tile: str | None
    groups: tuple[Group, ...]
    away: tuple[int, ...] = ()
    loose: tuple[int, ...] = ()
    problems: tuple[str, ...] = ()
    suggestions: tuple[Suggestion, ...] = ()
    needs: tuple[Need, ...] = ()
    win_guessed: bool = False
    winner: bool = True
    apart: bool = False

    @property
    def size(self) -> int:
        """The tiles the hand holds as a hand's size counts them: the concealed ones and three per meld."""
        return len(parse_tiles(self.concealed)) + 3 * len(self.melds)

    @property
    def held(self) -> tuple[int, ...]:
        """The detections the reading takes into the hand, group by group."""
        return tuple(i for g in self.groups for i in g.tiles)

    @property
    def full_size(self) -> int:
        """The `size` of a complete hand of the region: its hand size, one more for the winner."""
        return REGIONS[self.region].hand_size + self.winner

    @property
    def player(self) -> dict[str, Any]:
        """The player's part of a table record."""
        return {"concealed": self.concealed, "melds": [dict(m) for m in self.melds], "flowers": self.flowers}

    def to_json(self) -> dict[str, Any]:
        return {
            **self.player,
            "win_tile": self.win_tile,
            "win_guessed": self.win_guessed,
            "apart": self.apart,
            "groups": [g.to_json() for g in self.groups],
            "away": list(self.away),
            "problems": list(self.problems),
            "suggestions": [s.to_json() for s in self.suggestions],
            "needs": [n.to_json() for n in self.needs],
        }


# ----------------------------------------------------------------------------------------------
# Geometry


def up_candidates(detections: Detections) -> list[float]:
    """Directions the hand's up may take (degrees clockwise from image up), likeliest first: the mean
    face direction of each cluster of face angles (other players' tiles may lie turned against the hand)."""
    faces = np.array([t != BACK for t in detections.tiles], bool)
    angles = detections.angle[faces].astype(float)
    out: list[float] = []
    while angles.size:
        near = np.abs((angles[:, None] - angles[None, :] + 180) % 360 - 180) <= 30
        center = angles[int(np.argmax(near.sum(1)))]
        members = np.abs((angles - center + 180) % 360 - 180) <= 45
        rad = np.radians(angles[members])
        out.append(math.degrees(math.atan2(np.sin(rad).sum(), np.cos(rad).sum())) % 360)
        angles = angles[~members]
        if len(out) == 3:
            break
    return out or [0.0]


def _hand_frame(centers: np.ndarray, scale: np.ndarray, up: float) -> tuple[np.ndarray, np.ndarray]:
    """Centres in the hand's frame: x along the rows to the player's right, y across them towards the player;
    and the image direction of x.

    Under perspective the rows need not lie square to the faces' up direction, so x takes the direction,
    within 45° of square to up, along which most tiles have a neighbour one tile further on and closest in
    line.
    """
    t = math.radians(up)
    steps = centers[None, :, :] - centers[:, None, :]
    sizes = (scale[None, :] + scale[:, None]) / 2
    best, best_count = t, -1
    for turn in sorted(np.radians(np.arange(-45, 46, 3)), key=abs):
        right = np.array([math.cos(t + turn), math.sin(t + turn)])
        along = steps @ right / sizes
        across = steps @ np.array([-right[1], right[0]]) / sizes
        count = float(np.exp(-((across / 0.1) ** 2))[(along > 0.6) & (along < 1.6)].sum())
        if count > best_count:
            best, best_count = t + turn, count
    right = np.array([math.cos(best), math.sin(best)])
    down = np.array([-right[1], right[0]])
    return np.stack([centers @ right, centers @ down], 1), right


def _scales(detections: Detections) -> np.ndarray:
    """A tile size per detection: the square root of its box's area (the same for a tile turned by 90°)."""
    w, h = detections.sizes.T
    return np.sqrt(np.maximum(w * h, 1e-6))


def _added_kong_face(group: tuple[int, ...], top: int, under: int, detections: Detections) -> str | None:
    """The face of the added kong that ``top`` lying on ``under``, one of the three tiles of ``group``, would
    make: the face at least three of the four are read as, when the other one has it among its alternatives
    or is ``under`` (a kong is four of one face, so a doubtful read among them takes the others' face, and
    the tile under another shows only part of its face)."""
    if len(group) != 3:
        return None
    members = (*group, top)
    codes = [detections.tiles[i] for i in members]
    face = max(set(codes), key=codes.count)
    if face == BACK or codes.count(face) < 3:
        return None
    odd = [i for i in members if detections.tiles[i] != face]
    return face if all(i == under or face in (code for code, _ in detections.alternatives[i]) for i in odd) else None


def tiles_as_read(layout: Layout, detections: Detections, aside: frozenset[str]) -> tuple[str, ...]:
    """Each detection's tile as a reading of the layout takes it (`read_detections`): backs beside the tiles
    laid aside ``aside`` named Whites (`_blank_whites`), an added kong's tiles all of its face (`_kong_faces`)."""
    return _kong_faces(layout, _blank_whites(detections, layout.up, aside))


def _kong_faces(layout: Layout, detections: Detections) -> tuple[str, ...]:
    """Each detection's tile, but an added kong's tiles all of the face most of them show (`_added_kong_face`)."""
    tiles = list(detections.tiles)
    for top, base in layout.stacked.items():
        group = next((g for r in layout.rows for g in r if base in g), ())
        face = _added_kong_face(tuple(i for i in group if i != top), top, base, detections)
        if face:
            for i in group:
                tiles[i] = face
    return tuple(tiles)


def _stacked(rows: list[list[tuple[int, ...]]], points: np.ndarray, scale: np.ndarray,
             detections: Detections) -> tuple[dict[int, int], list[list[tuple[int, ...]]]]:
    """Tiles lying on top of another (an added kong's fourth tile): top index → base index, and the rows with
    the groups under them joined.

    The top tile lies off its meld's line, so the rows leave it in a group of its own. It lies on the
    nearest tile of another group showing the same face less than 0.6 tile sizes from it along the row and
    0.15–1.3 across, unless it continues the line of the group before it in its row (a winning tile). The
    tile under it shows only part of its face, so its box may stand off its neighbours' and the rows may
    split its meld: two neighbouring groups of three tiles in all, under a tile making an added kong with
    them (`_added_kong_face`), are one meld.
    """
    stacked: dict[int, int] = {}
    joins: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
    beneath: dict[int, list[tuple[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]] | None]]] = {}
    for other in rows:  # each tile's groups that may lie under a top tile: its own, then split melds
        for g in other:
            for base in g if len(g) >= 2 else ():
                beneath.setdefault(base, []).append((g, None))
        for a, b in zip(other, other[1:]):
            for base in a + b if len(a) + len(b) == 3 else ():
                beneath.setdefault(base, []).append((a + b, (a, b)))
    for row in rows:
        for k, group in enumerate(row):
            top = group[0]
            if len(group) > 1 or detections.tiles[top] == BACK or detections.tiles[top] in FLOWERS:
                continue
            before = row[k - 1] if k > 0 and len(row[k - 1]) >= 2 else None
            best, best_d, best_join = None, math.inf, None
            dxy = np.abs(points - points[top]) / ((scale[top] + scale) / 2)[:, None]
            for base in np.flatnonzero((dxy[:, 0] < 0.6) & (dxy[:, 1] > 0.15) & (dxy[:, 1] < 1.3)):
                for g, split in beneath.get(int(base), ()):
                    alike = detections.tiles[base] == detections.tiles[top] and split is None
                    if top in g or base in stacked.values() or not (alike or _added_kong_face(g, top, base, detections)):
                        continue
                    distance = math.hypot(*dxy[base])
                    if distance < best_d and (before is None or base in before or not _on_line(before, top, points, scale)):
                        best, best_d, best_join = int(base), distance, split
            if best is not None:
                stacked[top] = best
                if best_join:
                    joins[best_join[0] + best_join[1]] = best_join
    for joined, (a, b) in joins.items():
        for row in rows:
            if a in row and b in row:
                row[row.index(a)] = joined
                row.remove(b)
    return stacked, rows


def _overlapping_tops(points: np.ndarray, scale: np.ndarray, detections: Detections) -> set[int]:
    """Tiles that surely lie on top of another, kept out of the rows: of two tiles with the same face whose
    centres are less than 0.45 tile sizes apart along the row and 0.2–1.15 across it, the one with no
    neighbour in line (off by more than 0.25 tile sizes) when the other has one (within 0.15)."""
    tops: set[int] = set()
    n = len(points)
    for i in range(n):
        for j in range(i + 1, n):
            if detections.tiles[i] != detections.tiles[j] or detections.tiles[i] == BACK:
                continue
            dx, dy = np.abs(points[j] - points[i]) / ((scale[i] + scale[j]) / 2)
            if dx < 0.45 and 0.2 < dy < 1.15:
                others = [k for k in range(n) if k not in (i, j)]
                off_i, off_j = _off_line(points, scale, i, others), _off_line(points, scale, j, others)
                if min(off_i, off_j) < 0.15 and max(off_i, off_j) > 0.25:
                    tops.add(i if off_i > off_j else j)
    return tops


def _doubles(points: np.ndarray, scale: np.ndarray, confidence: np.ndarray, spot: float = DOUBLE_SPOT,
             span: float = DOUBLE_SPAN) -> set[int]:
    """Detections that repeat tiles found already (a second box on one tile, or one across two neighbours),
    least confident first: a tile less than ``spot`` usual spacings from a likelier tile in line with
    it, or lying between two tiles in line less than ``span`` usual spacings apart (a stacked tile lies
    off the line and stays). The usual spacing is the median over the tiles in line nearby of the spacing
    to the nearest neighbour, along the row; for a tile less sure than DOUBTFUL_READ and than its two
    neighbours, the spacings without it (a short group with a double looks tightly spaced), or the photo's
    when only those two neighbours are left in line (their own spacing would make any tile between them a
    double)."""
    n = len(points)
    step = (points[None, :, :] - points[:, None, :]) / ((scale[None, :, None] + scale[:, None, None]) / 2)
    along = np.abs(step[..., 0])
    in_line = (np.abs(step[..., 1]) < DOUBLE_LINE) & ~np.eye(n, dtype=bool)
    neighbours = in_line & (along < DOUBLE_REACH)
    doubles: set[int] = set()

    everywhere = np.where(neighbours, along, np.inf).min(1, initial=np.inf)
    everywhere = everywhere[np.isfinite(everywhere)]

    def usual(i: int, without: set[int]) -> float | None:
        keep = np.ones(n, bool)
        keep[list(without)] = False
        nearest = np.where(neighbours & keep[None, :], along, np.inf).min(1)
        local = nearest[in_line[i] & (along[i] < 4 * DOUBLE_REACH) & keep & np.isfinite(nearest)]
        if i in without and local.size < 3 and everywhere.size >= 3:
            return float(np.median(everywhere))
        return float(np.median(local)) if local.size >= 2 else None

    for i in sorted(range(n), key=lambda k: float(confidence[k])):
        near = [k for k in np.flatnonzero(neighbours[i]) if k not in doubles]
        left = [k for k in near if points[k, 0] < points[i, 0]]
        right = [k for k in near if points[k, 0] > points[i, 0]]
        j = min(left, key=lambda q: along[i, q], default=None)
        k = min(right, key=lambda q: along[i, q], default=None)
        doubtful = confidence[i] < DOUBTFUL_READ and all(m is not None and confidence[m] > confidence[i]
                                                         for m in (j, k))
        spacing = usual(i, doubles | {i}) if doubtful else usual(i, set())
        if not near or spacing is None:
            continue
        closest = min(near, key=lambda q: along[i, q])
        if along[i, closest] < spot * spacing and confidence[i] <= confidence[closest]:
            doubles.add(i)
        elif j is not None and k is not None and along[i, j] + along[i, k] < span * spacing:
            doubles.add(i)
    return doubles


def _stray_backs(points: np.ndarray, scale: np.ndarray, length: np.ndarray, tiles: tuple[str, ...]) -> set[int]:
    """Face-down detections that can be no face-down tile: one in line with faces with no other back within
    BACK_REACH box lengths (``length``, along the row) along the row and BACK_LINE tile sizes across it (a
    concealed kong shows two or four backs, the wall many) is a gap or a tile's edge taken for a back,
    unless a tile lies on it, off any line (an added kong's claimed tile misread), or it is an end of a
    concealed kong slanting off the row (`_kong_ends`)."""
    stray: set[int] = set()
    for i in (k for k, t in enumerate(tiles) if t == BACK):
        step = (points - points[i]) / ((scale[:, None] + scale[i]) / 2)
        reach = np.abs(points[:, 0] - points[i, 0]) / np.maximum((length + length[i]) / 2, 1e-6) < BACK_REACH
        line = (np.abs(step[:, 1]) < DOUBLE_LINE) & reach
        line[i] = False
        near = (np.abs(step[:, 1]) < BACK_LINE) & reach
        near[i] = False
        if not line.any() or any(tiles[k] == BACK for k in np.flatnonzero(near)) \
                or _kong_ends(points, scale, tiles, i, np.flatnonzero(reach)):
            continue
        on_top = np.flatnonzero((np.abs(step[:, 0]) < 0.6) & (-step[:, 1] > 0.15) & (-step[:, 1] < 1.3))
        if not any(_off_line(points, scale, k, [o for o in range(len(points)) if o not in (k, i)]) > DOUBLE_LINE
                   for k in on_top):
            stray.add(i)
    return stray


def _kong_ends(points: np.ndarray, scale: np.ndarray, tiles: tuple[str, ...], i: int, reach: np.ndarray) -> bool:
    """Whether back i and another back within ``reach`` (indices) are the ends of a concealed kong: two faces
    between them, each within DOUBLE_LINE tile sizes of the line joining them, which slants off the row by at
    most MELD_SLANT (seen in perspective, a kong may slant further from the hand's rows than BACK_LINE allows
    its two backs)."""
    for k in (k for k in reach if k != i and tiles[k] == BACK):
        step = points[k] - points[i]
        length = float(np.linalg.norm(step))
        if length == 0 or abs(step[1]) > abs(step[0]) * math.tan(math.radians(MELD_SLANT)):
            continue
        along = (points - points[i]) @ step / length ** 2
        across = np.abs((points - points[i]) @ np.array([-step[1], step[0]])) / length / scale
        between = np.flatnonzero((along > 0.1) & (along < 0.9) & (across < DOUBLE_LINE))
        if sum(tiles[j] != BACK for j in between) == 2:
            return True
    return False


def _off_line(points: np.ndarray, scale: np.ndarray, k: int, others: list[int]) -> float:
    """How far tile k lies across the row from its nearest neighbour along it, in tile sizes."""
    best = math.inf
    for o in others:
        dx, dy = np.abs(points[o] - points[k]) / ((scale[k] + scale[o]) / 2)
        if 0.5 < dx < 1.8:
            best = min(best, dy)
    return best


def _on_line(group: tuple[int, ...], tile: int, points: np.ndarray, scale: np.ndarray) -> bool:
    """Whether a tile lies on the line through the last two tiles of a group (within a quarter tile)."""
    a, b = group[-2], group[-1]
    u = (points[b] - points[a]) / (np.linalg.norm(points[b] - points[a]) + 1e-9)
    offset = points[tile] - points[b]
    return abs(u[0] * offset[1] - u[1] * offset[0]) < 0.25 * scale[tile]


def _links(points: np.ndarray, scale: np.ndarray, members: list[int]) -> list[tuple[float, int, int]]:
    """Every way one tile may follow another in a row, as (cost, i, j), cheapest first: j lies ahead of i by
    more than 0.3 and at most MAX_LINK tile sizes along the row and not too far across it."""
    index = np.array(members, int)
    size = (scale[index][:, None] + scale[index][None, :]) / 2
    step = (points[index][None, :, :] - points[index][:, None, :]) / size[..., None]
    dx, dy = step[..., 0], step[..., 1]
    a, b = np.nonzero((dx > 0.3) & (dx <= MAX_LINK) & (np.abs(dy) <= 0.25 + 0.5 * dx))
    cost = np.hypot(dx[a, b], 2.5 * dy[a, b])
    order = np.lexsort((index[b], index[a], cost))
    return [(float(cost[k]), int(index[a[k]]), int(index[b[k]])) for k in order]


def _bends(points: np.ndarray, across: np.ndarray, a: int, b: int, c: int) -> bool:
    """Whether the row a → b → c turns by more than LINK_TURN degrees at b, by more than a wobble of 0.15
    of tile b's height across the row (narrow tiles close together turn steeply for small offsets)."""
    first, second = points[b] - points[a], points[c] - points[b]
    cos = float(first @ second / (np.linalg.norm(first) * np.linalg.norm(second) + 1e-9))
    turn = math.degrees(math.acos(max(-1.0, min(1.0, cos))))
    wobble = abs(second[1] / max(second[0], 1e-9) - first[1] / max(first[0], 1e-9)) * abs(second[0]) / across[b]
    return turn > LINK_TURN and wobble > 0.15


def _chains(points: np.ndarray, scale: np.ndarray, across: np.ndarray, members: list[int]) -> list[list[int]]:
    """Rows as chains of tiles: links are taken shortest first, each tile gets at most one neighbour on
    each side, and a row may not turn sharply from one link to the next (``across``: each tile's height
    across the row)."""
    links = _links(points, scale, members)
    left: dict[int, int] = {}
    right: dict[int, int] = {}
    for _, i, j in links:
        if i in right or j in left:
            continue
        if i in left and _bends(points, across, left[i], i, j):
            continue
        if j in right and _bends(points, across, i, j, right[j]):
            continue
        right[i], left[j] = j, i
    chains = []
    for start in members:
        if start in left:
            continue
        chain = [start]
        while chain[-1] in right:
            chain.append(right[chain[-1]])
        chains.append(chain)
    return chains


def _gaps(ratios: list[float], usual: float) -> list[bool]:
    """Which spacings of a row are gaps between groups.

    A spacing is surely a gap when it is SURE_GAP times the tighter of its two neighbours. Those split the
    row into stretches of tiles laid alike (tiles standing or lying look differently spaced for their
    size, so spacings are only compared within a stretch); inside a stretch a spacing is a gap when it is
    GROUP_GAP times the tightest of the two spacings on each side, or, alone in its stretch, times the
    row's (or the scene's) usual spacing.
    """
    n = len(ratios)
    sure = [n > 1 and ratios[k] > SURE_GAP * min(ratios[max(0, k - 1):k] + ratios[k + 1:k + 2]) for k in range(n)]
    gaps = list(sure)
    for k in range(n):
        if sure[k]:
            continue
        beside = []
        for step in (-1, -2, 1, 2):
            j = k + step
            if not 0 <= j < n or any(sure[min(j, k):max(j, k) + 1]):
                continue
            beside.append(ratios[j])
        others = [r for j, r in enumerate(ratios) if j != k and not sure[j]]
        reference = min(beside) if beside else float(np.median(others)) if others else usual
        gaps[k] = ratios[k] > GROUP_GAP * reference
    return gaps


def _spacings(chain: list[int], points: np.ndarray, scale: np.ndarray, sideways: np.ndarray) -> list[float]:
    """Centre spacing of consecutive tiles over their size, as if neither lay sideways."""
    out = []
    for a, b in zip(chain, chain[1:]):
        m = (scale[a] + scale[b]) / 2
        length = (1 + (SIDEWAYS_LENGTH - 1) * (sideways[a] + sideways[b]) / 2)
        out.append(float(np.linalg.norm(points[b] - points[a]) / (m * length)))
    return out


def find_layout(detections: Detections, up: float | None = None, left_out: frozenset[int] = frozenset(),
                kept: frozenset[int] = frozenset()) -> Layout:
    """Rows and groups of the detected tiles (geometry only; see the module doc); ``up`` is the hand's up
    direction when known (by default the dominant direction of all faces). Doubles (`_doubles`) but those
    ``kept``, stray backs and the ``left_out`` detections are in no row."""
    n = len(detections)
    if n == 0:
        return Layout(0.0, ())
    up = up_candidates(detections)[0] if up is None else up
    scale = _scales(detections)
    points, right = _hand_frame(detections.centers, scale, up)
    repeats = _doubles(points, scale, detections.confidence) - left_out - kept
    length = detections.sizes @ np.abs(right)
    doubles = repeats | _stray_backs(points, scale, length, detections.tiles) | left_out
    on_top = _overlapping_tops(points, scale, detections) - doubles
    across = detections.sizes @ np.abs(np.array([-right[1], right[0]]))
    chains = _chains(points, scale, across, [i for i in range(n) if i not in on_top | doubles])
    chains += [[top] for top in on_top]
    spacings = [_spacings(chain, points, scale, detections.sideways) for chain in chains]
    every = [r for ratios in spacings for r in ratios]
    usual = float(np.median(every)) if every else 1.0
    rows = []
    for chain, ratios in zip(chains, spacings):
        groups, current = [], [chain[0]]
        for tile, gap in zip(chain[1:], _gaps(ratios, usual)):
            if gap:
                groups.append(tuple(current))
                current = []
            current.append(tile)
        rows.append(groups + [tuple(current)])
    stacked, rows = _stacked(rows, points, scale, detections)
    laid: list[tuple[tuple[int, ...], ...]] = []
    for row in rows:
        kept = tuple(g + tuple(t for t, b in stacked.items() if b in g) for g in row if g[0] not in stacked)
        if kept:
            laid.append(kept)
    laid.sort(key=lambda row: float(np.mean([points[i, 1] for g in row for i in g])))
    extent = np.stack([length, across], 1)
    lean = 90 - np.abs(90 - (detections.angle - up) % 180)
    return Layout(up, tuple(laid), stacked, points, scale, extent, lean, frozenset(repeats))


# ----------------------------------------------------------------------------------------------
# Meaning


def read_layout(layout: Layout, tiles: tuple[str, ...], sideways: np.ndarray, region: str, *, seat: int = 0,
                indicator: str | None = None, options: dict[str, Any] | None = None,
                winner: bool = True) -> HandReading:
    """The hand a layout shows, given each detection's tile: which group is what, and the player's part of
    the table record. ``tiles`` and ``sideways`` are indexed like the layout's detections.

    The concealed group is the one followed in its row by a lone tile set apart (the winning tile), or
    that group joined to the plain groups before it in its row (a wrong gap broke the row); if several
    could be, the one giving the region's hand size (else one within NEAR_SIZE tiles of it, then one with a
    winning hand's shape) with the fewest tiles that fit no group, then the most tiles in the hand, then the
    fewest sets laid MELD_GAP apart that it joins (`_set_apart`), then the fewest chows and pungs with no
    claimed tile, then the fewest joins. From there the hand grows by
    groups within HAND_REACH of it that read as melds or flowers; a group that reads as neither belongs to
    the hand only when it sits in a row beside a group of the hand (it is then reported as a problem).
    Everything else is left ``away`` (other players' tiles, the wall). Sideways flags that cannot be
    right are mended first (`_plausible_sideways`, `_turned_tile`).
    """
    aside = laid_aside(region, indicator, options)
    sideways = _plausible_sideways(layout, tiles, sideways, aside)
    rows, stacked = _mend_fragments([_peel_aside(row, tiles, aside) for row in layout.rows], tiles, sideways, layout)
    groups = [g for row in rows for g in row]
    base_of = {g: tuple(i for i in g if i not in stacked) for g in groups}
    marked = {g for g in groups if any(sideways[i] or tiles[i] == BACK for i in g) or len(base_of[g]) < len(g)}
    flowers = {g for g in groups if g not in marked and all(tiles[i] in aside for i in g)}
    plain = [g for g in groups if g not in marked and g not in flowers]
    if not plain:  # a concealed part of one or two tiles (every other tile melded) with a misread flag
        plain = [g for g in groups if g not in flowers and len(g) <= 2 and len(base_of[g]) == len(g)
                 and BACK not in (tiles[i] for i in g)]
        sideways = sideways.copy()
        sideways[[i for g in plain for i in g]] = False

    def joins_by(g: tuple[int, ...]) -> str:
        if g in flowers or _meld_like(g, base_of.get(g, g), tiles, sideways, layout, home):
            return "reach"
        return "never" if all(tiles[i] == BACK for i in g) else "row"

    concealed: tuple[int, ...] | None = None
    home: tuple[tuple[int, ...], ...] = ()
    winning: tuple[int, ...] | None = None
    hand: list[tuple[int, ...]] = []
    best: tuple[bool, bool, bool, int, int, int, int, int] | None = None
    usual = _usual_spacing(layout, rows, sideways)
    for trial, g, h, parts in _concealed_candidates(rows, plain):
        joined = len(parts) - 1
        apart = sum(_set_apart(a, b, tiles, sideways, layout, usual) for a, b in itertools.pairwise(parts))
        concealed = g
        home = next(row for row in trial if g in row)
        grown = _grow_hand(layout, trial, [g] + ([h] if h else []), joins_by)
        melds_and_flowers = [m for m in grown if m not in (g, h) and joins_by(m) == "reach"]
        loose = sum(len(m) for m in grown if m not in (g, h) and m not in melds_and_flowers)
        size = len(g) + (h is not None) + sum(3 for m in melds_and_flowers if m not in flowers)
        unclaimed = sum(len(m) == 3 and m in plain for m in melds_and_flowers)
        shape = len(g) % 3 == (1 if h else 2) if winner else (len(g) + (h is not None)) % 3 == 1
        want = REGIONS[region].hand_size + winner
        score = (size == want, abs(size - want) <= NEAR_SIZE, shape, -loose, sum(map(len, grown)), -apart,
                 -unclaimed, -joined)
        if best is None or score > best:
            best, hand, winning, rows = score, grown, h, trial
    groups = [g for row in rows for g in row]
    concealed = hand[0] if hand else None
    win_guessed = bool(winner and concealed and winning is None and best and best[0] and best[2])
    if win_guessed:
        winning, concealed = concealed[-1:], concealed[:-1]
        hand = [concealed, winning] + hand[1:]
    core = hand[:2] if winning else hand[:1]
    problems: list[str] = []
    melds: list[dict[str, Any]] = []
    out: list[Group] = []
    loose: list[int] = []
    ordered = [g for g in groups if g in hand] + ([concealed, winning] if win_guessed else [])
    for g in ordered:
        if g == concealed:  # a non-winner's tile set apart is one of its concealed tiles
            out.append(Group("concealed", g + (winning or ()) if not winner else g))
        elif g == winning and not winner:
            continue
        elif g == winning:
            out.append(Group("winning", g))
        elif g in flowers:
            out.append(Group("flowers", g))
        elif len(base_of[g]) in (3, 4):
            lying = tuple(i for i in g if i in stacked)
            turned = _turned_tile(base_of[g], tiles, sideways, layout,
                                  (lying[0], stacked[lying[0]]) if len(lying) == 1 else None)
            top = lying or _raised_claimed(base_of[g], tiles, turned, layout)
            meld, problem = _read_meld(base_of[g], top, tiles, turned, seat, len(melds))
            out.append(Group("meld", g, len(melds)))
            melds.append(meld)
            if problem:
                problems.append(problem)
        else:
            problems.append(f"tile {_names(g, tiles)} fits no group of the hand" if len(g) == 1
                            else f"tiles {_names(g, tiles)} fit no group of the hand")
            loose.extend(g)
    kept = {i for g in out for i in g.tiles}
    order = {"concealed": 0, "winning": 1, "meld": 2, "flowers": 3}
    out.sort(key=lambda group: (order[group.kind], group.meld or 0))
    win_tile = tiles[winning[0]] if winning and winner else None
    return HandReading(
        region=region,
        concealed=_format([tiles[i] for g in core for i in g]),
        melds=tuple(melds),
        flowers=_format([tiles[i] for g in out if g.kind == "flowers" for i in g.tiles]),
        win_tile=win_tile if win_tile in TILE_INDEX else None,
        groups=tuple(out),
        away=tuple(i for i in range(len(tiles)) if i not in kept),
        loose=tuple(loose),
        problems=tuple(problems),
        win_guessed=win_guessed,
        winner=winner,
        apart=bool(winning) and not winner,
    )


def _plausible_sideways(layout: Layout, tiles: tuple[str, ...], sideways: np.ndarray,
                        aside: frozenset[str]) -> np.ndarray:
    """The sideways flags with those that cannot mark a claimed tile cleared: a flower is never claimed,
    nor is a tile the region lays aside with them (Wenling's Whites, Fuzhou's honours) when it lies in a
    group (a lone one turned is likelier another player's tile); the concealed row's tiles stand
    upright, so a group of more than four face tiles (no meld is that long) and a lone tile just after
    one (the winning tile) lie straight."""
    out = np.array(sideways, bool)
    for row in layout.rows:
        for g in row:
            out[[i for i in g if tiles[i] in FLOWERS or (tiles[i] in aside and len(g) > 1)]] = False
        long = [len(g) > 4 and BACK not in (tiles[i] for i in g) and not any(i in layout.stacked for i in g)
                for g in row]
        for k, g in enumerate(row):
            if long[k] or (len(g) == 1 and k > 0 and long[k - 1] and g[0] not in layout.stacked):
                out[list(g)] = False
    return out


def _turned_tile(base: tuple[int, ...], tiles: tuple[str, ...], sideways: np.ndarray, layout: Layout,
                 added: tuple[int, int] | None = None) -> np.ndarray:
    """The sideways flags with one claimed tile in a meld that must have one and shows none or several (a
    flag missed or misread): of several flagged, the one whose face turns furthest from the hand's axis
    (faces alike turned by 90°, `QUARTER_TURN_ALIKE`, aside); else of those flagged, or of all when none is
    for a chow or pung, the one whose box is longest along the row for its height. In a pung of faces whose
    quarter turn cannot be read (`QUARTER_TURN_ALIKE`) a flag says nothing, and a clear shape (CLEAR_SHAPE) overrides it. With no flag and no clear shape, a
    face that alone clearly leans (LEAN_CLEAR) is the claimed tile; a kong of four face-up tiles has one
    only then (else its source is asked for). ``added``: an added kong's fourth tile and the tile it
    was found lying on. It is laid like the tile under it, on the claimed tile or, upright, on the middle
    one. Turned, it marks a flagged tile less than a tile from it along the row (the nearest), or else the
    tile under it; upright, a flagged tile but the one under it (whose flag and box it spoils) when there
    is one."""
    if added is not None and sideways[added[0]]:
        top, under = added
        along = {i: abs(layout.points[i, 0] - layout.points[top, 0]) / layout.scale[[i, top]].mean() for i in base}
        near = [i for i in base if sideways[i] and along[i] < 1.0]
        out = np.array(sideways, bool)
        out[list(base)] = False
        out[min(near, key=along.__getitem__) if near else under] = True
        return out
    if added is not None and any(sideways[i] for i in base if i != added[1]):
        sideways = np.array(sideways, bool)
        sideways[added[1]] = False
        base = tuple(i for i in base if i != added[1])
    codes = [tiles[i] for i in base]
    turned = [i for i in base if sideways[i]]
    length = np.sort(np.log(layout.extent[list(base), 0] / np.maximum(layout.extent[list(base), 1], 1e-6)))
    clear = length[-1] - length[-2] > CLEAR_SHAPE
    if len(codes) == 3 and all(c in QUARTER_TURN_ALIKE for c in codes) and clear:
        turned = []  # their faces cannot show a quarter turn: a clear shape decides
    if len(turned) == 1 or BACK in codes or sorted(codes) == ["1z", "2z", "3z", "4z"]:
        return sideways
    choices = turned or list(base)
    if not turned and not clear:
        lean = layout.lean[list(base)]
        second, first = np.sort(lean)[-2:]
        leaning = first >= LEAN_CLEAR and second <= LEAN_STRAIGHT
        if len(codes) == 4 and len(set(codes)) == 1 and not leaning:
            return sideways
        if leaning:
            choices = [base[int(np.argmax(lean))]]
    shape = layout.extent[choices, 0] / np.maximum(layout.extent[choices, 1], 1e-6)
    out = np.array(sideways, bool)
    out[list(base)] = False
    if len(turned) >= 2 and not all(c in QUARTER_TURN_ALIKE for c in codes):
        out[choices[int(np.argmax(layout.lean[choices]))]] = True
        return out
    out[choices[int(np.argmax(shape))]] = True
    return out


def _raised_claimed(base: tuple[int, ...], tiles: tuple[str, ...], sideways: np.ndarray,
                    layout: Layout) -> tuple[int, ...]:
    """The claimed tile of a pung when it lies on a tile the photo does not show: an added kong whose fourth
    tile, laid on the sideways one, hides it. Its one sideways tile then lies more than RAISED tile sizes
    further from the player than the line through the other two (a claimed tile lying on the table is in
    line or nearer), or, when the two tiles are seen as one box, more than MERGED_RAISE with a box deeper
    than theirs (MERGED_DEPTH). Empty when it is not so."""
    flagged = [i for i in base if sideways[i]]
    if len(base) != 3 or len(flagged) != 1 or len({tiles[i] for i in base}) != 1 or tiles[base[0]] == BACK:
        return ()
    others = [i for i in base if i != flagged[0]]
    x, y = layout.points[flagged[0]]
    raised = (_line_y(layout.points[others], x) - y) / layout.scale[list(base)].mean()
    deep = layout.extent[flagged[0], 1] / layout.extent[others, 1].mean()
    return (flagged[0],) if raised > RAISED or (raised > MERGED_RAISE and deep > MERGED_DEPTH) else ()


def _peel_aside(row: tuple[tuple[int, ...], ...], tiles: tuple[str, ...],
                aside: frozenset[str]) -> tuple[tuple[int, ...], ...]:
    """Split tiles the region lays aside (flowers) off the ends of a group they share with other tiles."""
    out: list[tuple[int, ...]] = []
    for g in row:
        lead = next((k for k, i in enumerate(g) if tiles[i] not in aside), len(g))
        tail = next((k for k, i in enumerate(reversed(g)) if tiles[i] not in aside), len(g))
        if 0 < lead + tail and lead < len(g):
            parts = (g[:lead], g[lead:len(g) - tail], g[len(g) - tail:])
            out.extend(p for p in parts if p)
        else:
            out.append(g)
    return tuple(out)


def _meld_parts(group: tuple[int, ...], tiles: tuple[str, ...], sideways: np.ndarray) -> list[tuple[int, ...]] | None:
    """The group parted, left to right, into melds laid touching (each of three or four tiles making
    a pung, chow or kong with at most one tile sideways, or a concealed kong: a claimed tile or a face-down one
    at least in the group), or None when it does not part so."""
    return None if _plain(group, tiles, sideways) else _melds_in(group, tiles, sideways)


def _melds_in(group: tuple[int, ...], tiles: tuple[str, ...], sideways: np.ndarray) -> list[tuple[int, ...]] | None:
    """The group parted, left to right, into melds: three or four face-up tiles, at most one sideways each, or a
    concealed kong (four tiles, none sideways, both ends face down); or None."""
    if not group:
        return []
    for size in (3, 4):
        part = group[:size]
        codes = [tiles[i] for i in part]
        if len(part) == size and sum(bool(sideways[i]) for i in part) <= 1 and _is_meld_shape(codes) \
                and (BACK not in codes or (_concealed_kong_shape(codes) and not any(sideways[i] for i in part))):
            rest = _melds_in(group[size:], tiles, sideways)
            if rest is not None:
                return [part] + rest
    return None


def _parted(layout: Layout, detections: Detections) -> Layout:
    """The layout with groups that are melds laid touching (no gap between them) parted: a group of six to
    eight tiles, none lying on another, that parts into melds (`_meld_parts`: claimed ones with at most one
    tile sideways each and one at least among them, a flag can be missed; concealed kongs by their face-down
    ends) (tried only when the hand is not legal as read: such a group may also be another player's)."""
    rows = []
    for row in layout.rows:
        out: list[tuple[int, ...]] = []
        for g in row:
            parts = _meld_parts(g, detections.tiles, detections.sideways) \
                if 6 <= len(g) <= 8 and not _on_stack(g, layout) else None
            out.extend(parts or [g])
        rows.append(tuple(out))
    return replace(layout, rows=tuple(rows))


def _flowers_out(layout: Layout, tiles: tuple[str, ...], aside: frozenset[str]) -> Layout:
    """The layout with the tiles laid aside with the flowers that stand inside a group, between tiles of the
    hand (a flower laid in the hand's row), taken out of it into a group of their own before it (tried only
    when the hand is not legal as read: a tile misread as a flower is best left in its group, where its
    alternatives can mend the hand). `_peel_aside` takes those at a group's ends off in any case."""
    rows = []
    for row in layout.rows:
        out: list[tuple[int, ...]] = []
        for g in row:
            held = [k for k, i in enumerate(g) if tiles[i] not in aside]
            inner = tuple(i for i in g[held[0] + 1:held[-1]] if tiles[i] in aside) if held else ()
            out.extend([inner, tuple(i for i in g if i not in inner)] if inner else [g])
        rows.append(tuple(out))
    return replace(layout, rows=tuple(rows))


def _on_stack(group: tuple[int, ...], layout: Layout) -> bool:
    """Whether a tile of the group lies on another or under one (`Layout.stacked`)."""
    return any(i in layout.stacked or i in layout.stacked.values() for i in group)


def _joining_strays(layout: Layout, detections: Detections) -> list[set[int]]:
    """A tile between claimed melds laid in one group, each alone when it is left out (a false box, or a
    tile pushed in between; each is left out only when that makes the hand legal)."""
    out = []
    for g in (g for row in layout.rows for g in row if 7 <= len(g) <= 9):
        for k in range(3, len(g) - 3):
            if _meld_parts(g[:k], detections.tiles, detections.sideways) \
                    and _meld_parts(g[k + 1:], detections.tiles, detections.sideways):
                out.append({g[k]})
    return out


def _mend_fragments(rows: list[tuple[tuple[int, ...], ...]], tiles: tuple[str, ...], sideways: np.ndarray,
                    layout: Layout) -> tuple[list[tuple[tuple[int, ...], ...]], dict[int, int]]:
    """Join fragments of a meld that the rows broke apart: two groups of at most four tiles in all whose
    nearest tiles are within 1.3 tile sizes (MEND_REACH when they follow one another in a row and a box
    showing another face was left out between them or one is marked as a meld) and which together make a
    pung, chow or kong become one group, in the first one's row. A lone tile continuing the line of a plain
    group before it in its row (a winning tile) joins only that group. Of four tiles with one face, one
    lying off the line of the other three is stacked on its nearest neighbour along the line (an added
    kong)."""
    points, scale = layout.points, layout.scale
    stacked = dict(layout.stacked)
    rows = [list(row) for row in rows]

    def base(g: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(i for i in g if i not in stacked)

    def before(g: tuple[int, ...]) -> tuple[int, ...] | None:
        row = next(r for r in rows if g in r)
        k = row.index(g)
        if len(g) == 1 and k > 0 and _plain(row[k - 1], tiles, sideways) and len(row[k - 1]) >= 2 \
                and _on_line(row[k - 1], g[0], points, scale):
            return row[k - 1]
        return None

    fragments = [g for row in rows for g in row if len(base(g)) <= 3]
    used: set[tuple[int, ...]] = set()
    for a, b in ((a, b) for k, a in enumerate(fragments) for b in fragments[k + 1:]):
        if a in used or b in used or len(a) + len(b) > 4 or not _is_meld_shape([tiles[i] for i in a + b]):
            continue
        if before(a) not in (None, b) or before(b) not in (None, a):
            continue
        d = np.linalg.norm(points[list(a)][:, None] - points[list(b)][None], axis=2)
        size = (scale[list(a)][:, None] + scale[list(b)][None]) / 2
        apart = float((d / size).min())
        if apart > 1.3:
            between = _between(a, b, layout)
            marked = any(sideways[i] or tiles[i] == BACK or i in stacked for i in a + b)
            alike = any(tiles[i] in {tiles[j] for j in a + b} for i in between)
            if apart > MEND_REACH or not _neighbours(rows, a, b) or not (between or marked) or alike:
                continue
        merged = tuple(sorted(base(a) + base(b), key=lambda i: points[i, 0]))
        tops = tuple(i for i in a + b if i in stacked)
        top = _stacked_in(merged, tiles, points, scale) if not tops else None
        if top is not None:
            stacked[top] = min((i for i in merged if i != top), key=lambda i: abs(points[i, 0] - points[top, 0]))
            merged, tops = tuple(i for i in merged if i != top), (top,)
        for row in rows:
            if a in row:
                row[row.index(a)] = merged + tops
            if b in row:
                row.remove(b)
        used |= {a, b}
    return [tuple(row) for row in rows if row], stacked


def _between(a: tuple[int, ...], b: tuple[int, ...], layout: Layout) -> tuple[int, ...]:
    """The boxes left out as doubles (`Layout.doubles`) that lie in line between groups a and b of a row."""
    points, scale = layout.points, layout.scale
    ends = sorted((points[list(a), 0].max(), points[list(b), 0].min()) if points[a[0], 0] < points[b[0], 0]
                  else (points[list(b), 0].max(), points[list(a), 0].min()))
    return tuple(i for i in sorted(layout.doubles) if ends[0] < points[i, 0] < ends[1]
                 and abs(points[i, 1] - _line_y(points[list(a + b)], points[i, 0])) < DOUBLE_LINE * scale[i])


def _neighbours(rows: list[list[tuple[int, ...]]], a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Whether groups a and b follow one another in a row."""
    return any(a in row and b in row and abs(row.index(a) - row.index(b)) == 1 for row in rows)


def _plain(group: tuple[int, ...], tiles: tuple[str, ...], sideways: np.ndarray) -> bool:
    """A group with no sideways tile and no back (it may be the concealed part)."""
    return not any(sideways[i] or tiles[i] == BACK for i in group)


def _concealed_kong_shape(codes: list[str]) -> bool:
    """Whether four tiles in a row show a concealed kong: both ends face down, the middle two alike (two faces of
    one tile, or both face down)."""
    return len(codes) == 4 and codes[0] == codes[3] == BACK and codes[1] == codes[2]


def _is_meld_shape(codes: list[str]) -> bool:
    """Whether tiles make a pung, chow or kong (one face; a concealed kong shows two or four backs)."""
    faces = [c for c in codes if c != BACK]
    if len(codes) == 4:
        return len(set(faces)) <= 1 and len(faces) in (0, 2, 4)
    return len(codes) == 3 and len(faces) == 3 and (len(set(faces)) == 1 or _is_run(faces))


def _stacked_in(group: tuple[int, ...], tiles: tuple[str, ...], points: np.ndarray, scale: np.ndarray) -> int | None:
    """The tile lying on top in a group of four with one face: the one off the line of the other three."""
    if len(group) != 4 or BACK in (tiles[i] for i in group):
        return None
    best, best_fit = None, math.inf
    for top in group:
        rest = [i for i in group if i != top]
        slope, cut = np.polyfit(points[rest, 0], points[rest, 1], 1)
        fit = float(np.abs(points[rest, 1] - (slope * points[rest, 0] + cut)).max() / scale[rest].mean())
        off = abs(points[top, 1] - (slope * points[top, 0] + cut)) / scale[top]
        if off > 0.2 and fit < best_fit:
            best, best_fit = top, fit
    return best


Rows = list[tuple[tuple[int, ...], ...]]


def _concealed_candidates(rows: Rows, plain: list[tuple[int, ...]]
                          ) -> list[tuple[Rows, tuple[int, ...], tuple[int, ...] | None, Rows]]:
    """Possible (rows, concealed group, winning tile, the groups it joins) choices: each plain group followed in its
    row by one plain tile set apart, and the largest plain group, when it is none of those, without a
    winning tile (a hand laid with no tile apart, while other tiles on the table happen to show one); when no
    group is followed by a tile set apart, every other plain group of two tiles or more too (a concealed part
    of two, every other tile melded, beside a longer row of someone else's tiles). A
    wrong gap (a misread spacing, a duplicate box left out) may break the concealed row, so each is also
    tried joined to the plain groups just before it in its row, and with no tile set apart to those just after
    it too (the rows then hold the joined group)."""
    pairs: list[tuple[tuple[tuple[int, ...], ...], int, tuple[int, ...] | None]] = [
        (row, k, h) for row in rows for k, (g, h) in enumerate(zip(row, row[1:])) if g in plain and h in plain
        and len(h) == 1]
    largest = max(plain, key=len, default=None)
    if largest is not None and all(row[k] != largest for row, k, _ in pairs):
        others = [] if pairs else [g for g in plain if g != largest and len(g) >= 2]
        for lone in [largest] + others:
            row = next(row for row in rows if lone in row)
            pairs.append((row, row.index(lone), None))
    out = []
    for row, k, h in pairs:
        # with no tile set apart, the groups just after it may be the row's end split off by a wrong gap too
        ends = [k] + list(itertools.takewhile(lambda e: row[e] in plain, range(k + 1, len(row)))) if h is None else [k]
        for end in ends:
            start = k
            while True:
                joined = tuple(i for g in row[start:end + 1] for i in g)
                trial = [r if r is not row else row[:start] + (joined,) + row[end + 1:] for r in rows]
                out.append((trial, joined, h, row[start:end + 1]))
                if start == 0 or row[start - 1] not in plain:
                    break
                start -= 1
    return out


def _usual_spacing(layout: Layout, rows: Rows, sideways: np.ndarray) -> float:
    """The median spacing of neighbouring tiles within the groups of the rows (`_spacings`)."""
    every = [r for row in rows for g in row if len(g) > 1 for r in _spacings(list(g), layout.points, layout.scale,
                                                                              sideways)]
    return float(np.median(every)) if every else 1.0


def _set_apart(a: tuple[int, ...], b: tuple[int, ...], tiles: tuple[str, ...], sideways: np.ndarray,
               layout: Layout, usual: float) -> bool:
    """Whether of two neighbouring groups of a row the smaller is a set (a chow, pung or kong) laid MELD_GAP
    usual spacings or more from the other: a meld whose claimed tile's flag was missed, not a piece of the
    concealed row cut off by a wrong gap."""
    small = min((a, b), key=len)
    codes = [tiles[i] for i in small]
    if BACK in codes or not _is_meld_shape(codes) or len(small) == max(len(a), len(b)):
        return False
    return _spacings([a[-1], b[0]], layout.points, layout.scale, sideways)[0] >= MELD_GAP * usual


def _meld_like(group: tuple[int, ...], base: tuple[int, ...], tiles: tuple[str, ...], sideways: np.ndarray,
               layout: Layout, home: tuple[tuple[int, ...], ...]) -> bool:
    """Whether a group reads as a meld: three or four tiles that are a set or marked as a meld (a sideways,
    stacked or face-down tile), four backs only along the rows (`_slant`) and in the concealed group's row
    ``home`` or in front of it (four backs behind it are the wall)."""
    codes = [tiles[i] for i in group]
    if len(base) not in (3, 4):
        return False
    if all(c == BACK for c in codes) and (len(base) != 4 or len(group) != 4 or _slant(group, layout) > MELD_SLANT):
        return False
    if all(c == BACK for c in codes) and home and group not in home:
        line_y = _line_y(layout.points[[i for g in home for i in g]], layout.points[list(group), 0].mean())
        return line_y - layout.points[list(group), 1].mean() < 0.6 * float(np.mean(layout.scale[list(group)]))
    if BACK in codes or len(base) < len(group) or any(sideways[i] for i in group):
        return True
    return len(set(codes)) == 1 or (len(codes) == 3 and _is_run(codes)) or sorted(codes) == ["1z", "2z", "3z", "4z"]


def _slope(points: np.ndarray) -> float | None:
    """The slope across the rows per unit along them of the line fitted through ``points`` (hand frame);
    None when they do not spread along the rows."""
    xs, ys = points.T
    return float(np.polyfit(xs, ys, 1)[0]) if np.ptp(xs) > 1e-6 else None


def _line_y(points: np.ndarray, x: float) -> float:
    """Where the line fitted through ``points`` (hand frame) lies across the rows at ``x`` along them (level
    through their middle when they do not spread along the rows)."""
    slope = _slope(points) or 0.0
    return float(points[:, 1].mean() + slope * (x - points[:, 0].mean()))


def _slant(group: tuple[int, ...], layout: Layout) -> float:
    """The angle in degrees between a group's line (fitted through its tiles) and the hand's rows."""
    slope = _slope(layout.points[list(group)])
    return 90.0 if slope is None else math.degrees(math.atan(abs(slope)))


def _grow_hand(layout: Layout, rows: list[tuple[tuple[int, ...], ...]], core: list[tuple[int, ...]],
               joins_by: Callable[[tuple[int, ...]], str]) -> list[tuple[int, ...]]:
    """The core and the groups joined to it: those that join by "reach" when within HAND_REACH tiles of
    the hand (nearest tiles; along the row in tile lengths, across it in tile heights) and of a tile's size
    (SIZE_SPREAD), those that join by "row" when next to a hand group in their row."""
    how = {g: joins_by(g) for row in rows for g in row}
    row_of = {g: row for row in rows for g in row}
    hand = list(core)
    near = np.zeros(len(layout.points), bool)
    rest = [g for g in how if g not in hand and how[g] != "never"]
    grew = bool(core)
    while grew:
        grew = False
        members = np.array([i for h in hand for i in h])
        step = layout.points[:, None] - layout.points[members][None]
        size = (layout.extent[:, None] + layout.extent[members][None]) / 2
        near = np.linalg.norm(step / size, axis=2).min(1) <= HAND_REACH
        usual = float(np.median(layout.scale[members]))
        near &= (layout.scale < SIZE_SPREAD * usual) & (layout.scale > usual / SIZE_SPREAD)
        for g in list(rest):
            if how[g] == "reach":
                joins = bool(near[list(g)].any())
            else:
                row = row_of[g]
                k = row.index(g)
                joins = any(0 <= j < len(row) and row[j] in hand for j in (k - 1, k + 1))
            if joins:
                hand.append(g)
                rest.remove(g)
                grew = True
    return hand


def _read_meld(base: tuple[int, ...], top: tuple[int, ...], tiles: tuple[str, ...], sideways: np.ndarray,
               seat: int, index: int) -> tuple[dict[str, Any], str | None]:
    """A meld from its tiles as laid: (record meld, problem or None)."""
    codes = [tiles[i] for i in base + top]
    faces = [c for c in codes if c != BACK]
    turned = [k for k, i in enumerate(base) if sideways[i]]
    where = f"meld {index + 1}"
    if BACK in codes:
        kinds = set(faces)
        meld = {"type": "kong", "tiles": _format([faces[0]] * 4) if len(kinds) == 1 and len(codes) == 4 else "", "concealed": True}
        if len(codes) != 4 or len(kinds) > 1 or len(faces) not in (0, 2):
            return {**meld, "tiles": _format(faces)}, \
                f"{where}: a concealed kong is four tiles, two or four of them face down, read {_names(base + top, tiles)}"
        return meld, None
    if len(codes) == 4 and not turned and sorted(codes) == ["1z", "2z", "3z", "4z"]:
        return {"type": "whirlwind", "tiles": "1234z"}, None
    same = len(set(codes)) == 1
    kind = "kong" if len(codes) == 4 else "pung" if same or len(set(codes)) < 3 else "chow"
    meld: dict[str, Any] = {"type": kind, "tiles": _format(codes)}
    if top:
        meld["added"] = True
    if len(turned) == 1:
        k = turned[0]
        position = "left" if k == 0 else "right" if k == len(base) - 1 else "middle"
        # a chow is only ever claimed from 上家 (「吃：只能吃上家牌」), whichever of its tiles lies sideways
        meld["from"] = (seat + SEAT_OF_POSITION["left" if kind == "chow" else position]) % 4
    problem = None
    if len(codes) > 4:
        problem = f"{where}: {_names(base + top, tiles)} are {len(codes)} tiles, a meld has three or four"
    elif len(turned) > 1:
        problem = f"{where}: {len(turned)} tiles lie sideways, a claimed meld turns one"
    elif kind == "chow" and not _is_run(codes):
        problem = f"{where}: {_names(base + top, tiles)} is no chow or pung"
    elif kind != "chow" and not same:
        problem = f"{where}: {_names(base + top, tiles)} is no {kind}"
    return meld, problem


def _is_run(codes: list[str]) -> bool:
    ordered = sorted(codes, key=TILE_INDEX.__getitem__)
    if ordered == ["5z", "6z", "7z"]:
        return True
    return (all(c[1] == ordered[0][1] and c[1] in "mps" for c in ordered)
            and [int(c[0]) for c in ordered] == list(range(int(ordered[0][0]), int(ordered[0][0]) + 3)))


def _format(codes: list[str]) -> str:
    return format_tiles(c for c in codes if c in TILE_INDEX)


def _names(indices: tuple[int, ...], tiles: tuple[str, ...]) -> str:
    return " ".join(tiles[i] for i in indices)


def read_detections(detections: Detections, region: str, *, seat: int = 0, indicator: str | None = None,
                    options: dict[str, Any] | None = None, left_out: frozenset[int] = frozenset(),
                    up: float | None = None, winner: bool = True, part: str = "",
                    kept: frozenset[int] = frozenset()) -> tuple[Layout, HandReading]:
    """The layout and reading of the detections (but ``left_out``), trying each likely up direction of the
    hand (only ``up`` when given) and keeping the reading that holds the most tiles facing that way (a face
    alike turned by 180°, `HALF_TURN_ALIKE`, faces both ways, but not a quarter turn), then finds a winning
    tile set apart, then has the fewest problems. ``part``: "melds", claimed melds laid touching are parted
    (`_parted`); "flowers", flowers laid inside a group are taken out of it (`_flowers_out`)."""
    best: tuple[tuple[int, int, int], Layout, HandReading] | None = None
    aside = laid_aside(region, indicator, options)
    for direction in up_candidates(detections) if up is None else [up]:
        seen = _blank_whites(detections, direction, aside)
        layout = find_layout(seen, direction, left_out, kept)
        if part == "melds":
            layout = _parted(layout, seen)
        elif part == "flowers":
            layout = _flowers_out(layout, seen.tiles, aside)
        reading = read_layout(layout, _kong_faces(layout, seen), seen.sideways, region, seat=seat,
                              indicator=indicator, options=options, winner=winner)
        turn = (detections.angle - direction + 180) % 360 - 180
        upright = sum(detections.tiles[i] == BACK or detections.sideways[i] or abs(turn[i]) < 60
                      or (detections.tiles[i] in HALF_TURN_ALIKE and abs(turn[i]) > 120) for i in reading.held)
        score = (upright, reading.win_tile is not None, -len(reading.problems))
        if best is None or score > best[0]:
            best = (score, layout, reading)
    assert best is not None
    return best[1], best[2]


def _blank_whites(detections: Detections, up: float, aside: frozenset[str]) -> Detections:
    """The detections, but each run of backs in line (DOUBLE_REACH tile sizes along the row, BACK_LINE across
    it) whose other neighbours are all tiles laid aside with the flowers, at least one, and which holds fewer
    than four backs (a concealed kong shows four), has the backs to which the classifier gives White
    WHITE_RUN_ALTERNATIVE or more named Whites, where the region lays Whites aside and one of the run has
    White WHITE_ALTERNATIVE or more: a face-down tile never lies with the flowers, and a White's blank face is
    often taken for one."""
    if WHITE not in aside:
        return detections
    scale = _scales(detections)
    points, _ = _hand_frame(detections.centers, scale, up)
    beside: dict[int, set[int]] = {}
    for i in (k for k, t in enumerate(detections.tiles) if t == BACK):
        step = (points - points[i]) / ((scale[:, None] + scale[i]) / 2)
        near = (np.abs(step[:, 1]) < BACK_LINE) & (np.abs(step[:, 0]) < DOUBLE_REACH)
        near[i] = False
        beside[i] = set(np.flatnonzero(near).tolist())
    tiles = list(detections.tiles)
    left = set(beside)
    while left:
        run, todo = set(), [left.pop()]
        while todo:
            k = todo.pop()
            run.add(k)
            todo += [m for m in beside[k] if m in left]
            left -= beside[k]
        others = {detections.tiles[m] for k in run for m in beside[k]} - {BACK}
        white = {k: dict(detections.alternatives[k]).get(WHITE, 0.0) for k in run}
        if others and others <= aside and len(run) < 4 and max(white.values()) >= WHITE_ALTERNATIVE:
            for k in run:
                tiles[k] = WHITE if white[k] >= WHITE_RUN_ALTERNATIVE else tiles[k]
    return replace(detections, tiles=tuple(tiles))


def _likely_doubles(detections: Detections, layout: Layout, reading: HandReading) -> list[int]:
    """Tiles of the hand that may be doubles, least confident first: those `_doubles` finds with the looser
    LIKELY_SPOT and LIKELY_SPAN, a flower read twice but the likelier one (a set has one of each) where the
    two boxes are one tile boxed twice (FLOWER_DOUBLE), and the least confident tile of a meld of more than
    four (each is left out only when that makes the hand legal)."""
    group_of = {i: k for k, g in enumerate(reading.groups) for i in g.tiles}
    held = set(group_of)
    found = _doubles(layout.points, layout.scale, detections.confidence, LIKELY_SPOT, LIKELY_SPAN) & held
    found |= {min(g.tiles, key=lambda i: float(detections.confidence[i])) for g in reading.groups
              if g.kind == "meld" and len(g.tiles) > 4}
    for flower in {detections.tiles[i] for i in held} & set(FLOWERS):
        same = sorted((i for i in held if detections.tiles[i] == flower), key=lambda i: -float(detections.confidence[i]))
        overlap = box_iou(detections.xyxy[same[1:]], detections.xyxy[same[:1]])[:, 0]
        found |= {i for i, share in zip(same[1:], overlap)
                  if share >= FLOWER_DOUBLE or group_of[i] != group_of[same[0]]}
    return sorted(found, key=lambda i: float(detections.confidence[i]))


def _missing_doubles(detections: Detections, layout: Layout, reading: HandReading) -> list[int]:
    """Boxes left out as doubles (`_doubles`) that may be tiles of their own, likeliest first: those in a
    hand a tile short, lying among the hand's tiles (a row seen edge-on crowds its tiles together), read
    no less surely than DOUBTFUL_READ."""
    held = set(reading.held)
    if not held or reading.size >= reading.full_size:
        return []
    points = layout.points[sorted(held)]
    low, high = points.min(0), points.max(0)
    among = [i for i in layout.doubles if np.all((layout.points[i] >= low) & (layout.points[i] <= high))
             and detections.confidence[i] >= DOUBTFUL_READ]
    return sorted(among, key=lambda i: -float(detections.confidence[i]))


def _boxed_twice(detections: Detections, layout: Layout, left_out: frozenset[int]) -> list[int]:
    """The less confident box of each pair that may be one tile boxed twice, the most overlapping pairs
    first: boxes overlapping at IoU >= BOXED_TWICE, one lying and one upright or one above the other
    across the row (two alike side by side may be a row seen edge-on, whose tiles' boxes overlap: that
    is left to `_doubles`). Flowers laid aside often overlap one another and a tile beside them, so no
    pair with a flower is taken. Each is left out only when that makes the hand legal."""
    overlap = np.triu(box_iou(detections.xyxy, detections.xyxy), 1)
    pairs = []
    for i, j in zip(*np.nonzero(overlap >= BOXED_TWICE)):
        along, across = np.abs(layout.points[i] - layout.points[j])
        if ({i, j} & left_out or detections.tiles[i] in FLOWERS or detections.tiles[j] in FLOWERS
                or (detections.sideways[i] == detections.sideways[j] and along > across)):
            continue
        pairs.append((float(overlap[i, j]), int(i), int(j)))
    found: list[int] = []
    for _, i, j in sorted(pairs, reverse=True):
        weaker = i if detections.confidence[i] < detections.confidence[j] else j
        if weaker not in found:
            found.append(weaker)
    return found[:BOXED_TWICE_TRIALS]


def _odd_backs(layout: Layout, tiles: tuple[str, ...]) -> set[int]:
    """Face-down tiles in a group with face-up ones that no concealed kong explains: a concealed kong is four
    tiles in a row, both ends face down and the middle two alike (or all four down), so a back beyond the
    group's kongs is a gap or a tile's side taken for a back (each set is left out only when that makes the
    hand legal)."""
    odd: set[int] = set()
    for g in (g for row in layout.rows for g in row):
        codes = [tiles[i] for i in g]
        if BACK not in codes or all(c == BACK for c in codes):
            continue
        explained = set()
        for k in range(len(g) - 3):
            if _concealed_kong_shape(codes[k:k + 4]):
                explained |= set(g[k:k + 4])
        odd |= {i for i in g if tiles[i] == BACK and i not in explained}
    return odd


def _faced_backs(layout: Layout, detections: Detections) -> Detections | None:
    """The detections with each face-down tile that no concealed kong explains (`_odd_backs`, or a back alone
    in its group in a row of face-up tiles) read as the likeliest face among its alternatives, when that face
    has probability at least FACE_FOR_BACK (a blank White dragon looks like a back; a hand shows a back only
    in a concealed kong); None when there is none such (each is read so only when that makes the hand legal)."""
    tiles = detections.tiles
    odd = _odd_backs(layout, tiles) | {g[0] for row in layout.rows if any(tiles[i] != BACK for g in row for i in g)
                                       for g in row if len(g) == 1 and tiles[g[0]] == BACK}
    faces = {i: face for i in odd if (face := next((alt for alt in detections.alternatives[i]
                                                    if alt[0] != BACK), None)) and face[1] >= FACE_FOR_BACK}
    if not faces:
        return None
    confidence = detections.confidence.copy()
    alternatives = list(detections.alternatives)
    for i, (code, p) in faces.items():
        confidence[i] = p
        alternatives[i] = ((BACK, float(detections.confidence[i])),) + tuple(a for a in alternatives[i] if a[0] != code)[:2]
    return replace(detections, tiles=tuple(faces[i][0] if i in faces else t for i, t in enumerate(tiles)),
                   confidence=confidence, alternatives=tuple(alternatives))


def _misfits(reading: HandReading) -> list[set[int]]:
    """The tiles of each meld of the hand that reads as no meld (another player's tiles taken in; each is
    left out only when that makes the hand legal)."""
    return [set(g.tiles) for g in reading.groups if g.kind == "meld" and reading.melds[g.meld]["tiles"]
            and not _is_meld_shape(parse_tiles(reading.melds[g.meld]["tiles"]))]


def _unplayed_flowers(reading: HandReading, detections: Detections) -> list[set[int]]:
    """The doubtful reads (DOUBTFUL_READ) of flowers where the region plays none (Baicheng): false boxes or
    misread tiles, left out only when that makes the hand legal (a sure flower is reported: rules chosen
    wrong, or flowers left on the table)."""
    flowers = {i for g in reading.groups if g.kind == "flowers" for i in g.tiles
               if detections.confidence[i] < DOUBTFUL_READ}
    return [flowers] if flowers and reading.region == "baicheng" else []


def _walls(reading: HandReading) -> list[set[int]]:
    """The tiles of each concealed kong shown as four backs (a stretch of the wall looks the same; each is left
    out only when that makes the hand legal)."""
    return [set(g.tiles) for g in reading.groups if g.kind == "meld" and reading.melds[g.meld].get("concealed")
            and not reading.melds[g.meld]["tiles"]]


def _extra_melds(reading: HandReading, layout: Layout) -> list[set[int]]:
    """The tiles of the meld too many of a hand that holds one (another player's meld taken in): the one
    farthest from the concealed part, when it lies at least EXTRA_MARGIN tile sizes farther than any other
    (left out only when that makes the hand legal; with no clear one, nothing is guessed)."""
    concealed = [i for g in reading.groups if g.kind in ("concealed", "winning") for i in g.tiles]
    if reading.size != reading.full_size + 3 or not concealed:
        return []

    def distance(group: Group) -> float:
        step = layout.points[list(group.tiles)][:, None] - layout.points[concealed][None]
        return float((np.linalg.norm(step, axis=2) / layout.scale[concealed][None]).min())

    far = sorted(((distance(g), g) for g in reading.groups if g.kind == "meld"), key=lambda item: -item[0])
    if len(far) == 1 or (len(far) > 1 and far[0][0] - far[1][0] >= EXTRA_MARGIN):
        return [set(far[0][1].tiles)]
    return []


def _lone_turned(layout: Layout, detections: Detections) -> np.ndarray:
    """Whether each tile is flagged sideways in a group of one tile, or of two that can be in no meld together,
    with no tile on them: such a group is no claimed meld nor part of one, so its tiles may be the concealed
    part's, misflagged (the flags are cleared only when that makes the hand legal)."""
    lone = np.zeros(len(detections), bool)
    for g in (g for row in layout.rows for g in row if len(g) <= 2 and detections.sideways[list(g)].any()):
        codes = [detections.tiles[i] for i in g]
        part = len(g) == 2 and any(_is_meld_shape(codes + [code]) for code in TILE_INDEX if code not in FLOWERS)
        if not part and not _on_stack(g, layout):
            lone[list(g)] = detections.sideways[list(g)]
    return lone


def _misflagged(reading: HandReading, detections: Detections) -> np.ndarray:
    """Whether each tile is flagged sideways in a meld of the hand that reads as no meld (`_misfits`): a
    misread flag makes a meld of plain tiles, most often the concealed part's (the flags are cleared only
    when that makes the hand legal)."""
    flagged = np.zeros(len(detections), bool)
    for misfit in _misfits(reading):
        flagged[list(misfit)] = True
    return flagged & detections.sideways


def edge_slivers(detections: Detections, frame: tuple[int, int] | None) -> frozenset[int]:
    """The boxes that the edge of a photo ``frame`` (width, height) pixels cuts, thinner than EDGE_SLIVER
    of the median tile's short side; none when the frame is unknown."""
    if frame is None or not len(detections):
        return frozenset()
    short = (detections.xyxy[:, 2:] - detections.xyxy[:, :2]).min(1)
    return frozenset(np.flatnonzero(_cut_by_edge(detections, frame) & (short < EDGE_SLIVER * np.median(short))).tolist())


def _cut_by_edge(detections: Detections, frame: tuple[int, int]) -> np.ndarray:
    """Whether each box touches the edge of a photo ``frame`` (width, height) pixels (the tile runs out of it)."""
    x1, y1, x2, y2 = detections.xyxy.T
    return (x1 <= 1) | (y1 <= 1) | (x2 >= frame[0] - 1) | (y2 >= frame[1] - 1)


def unstretched(detections: Detections, frame: tuple[int, int] | None) -> tuple[Detections, tuple[int, int] | None]:
    """The detections and ``frame`` (width, height) with a stretched photo's axis scaled back: when the face-up
    tiles' median box is more than ODD_SHAPE times as tall as wide (or as wide as tall), one axis is scaled so
    that it is as tall as a standing tile (TILE_ASPECT). A picture resized without keeping its aspect ratio
    breaks a row of tiles apart in its own pixels; the order and indices of the detections are kept."""
    face_up = np.array([tile != BACK for tile in detections.tiles], bool)
    if face_up.sum() < 2:
        return detections, frame
    sizes = np.maximum(detections.sizes[face_up], 1e-3)
    aspect = float(np.exp(np.median(np.log(sizes[:, 0] / sizes[:, 1]))))
    if 1 / ODD_SHAPE <= aspect <= ODD_SHAPE:
        return detections, frame
    scale = np.array([TILE_ASPECT / aspect, 1.0] if aspect > 1 else [1.0, aspect / TILE_ASPECT], np.float32)
    scaled = replace(detections, xyxy=detections.xyxy * np.tile(scale, 2))
    return scaled, None if frame is None else (round(frame[0] * float(scale[0])), round(frame[1] * float(scale[1])))


def group_hand(detections: Detections, region: str, *, seat: int = 0, indicator: str | None = None,
               options: dict[str, Any] | None = None, frame: tuple[int, int] | None = None,
               winner: bool = True) -> HandReading:
    """The player's hand read from the detections, checked for consistency: ``problems`` say why it is not
    a legal win (``winner`` False: a legal hand of a player who did not win) as read, ``suggestions`` give the likeliest corrections (not applied), ``needs`` what the
    photo cannot show. ``seat`` is the photographed player's seat (for the melds' ``from``); ``indicator``
    the indicator tile when known; ``frame`` the photo's (width, height), to leave out slivers of tiles its
    edge cuts off (`edge_slivers`). A stretched photo is read with its axis scaled back (`unstretched`). When the hand is not legal as read, the backs no concealed
    kong explains (`_odd_backs`, in the rows of each likely up direction of the hand), a likely double box
    (`_likely_doubles`), the weaker of two boxes on one tile (`_boxed_twice`), a group that reads as no meld (`_misfits`), a concealed kong of four backs
    (`_walls`), a meld too many (`_extra_melds`), the tiles read as flowers where none are played
    (`_unplayed_flowers`) or a tile between claimed melds laid touching
    (`_joining_strays`) is left out, melds laid touching are parted (`_parted`), those backs or a back
    alone in a row of faces read as their likeliest face (`_faced_backs`), flowers laid inside the
    hand's row are taken out of it (`_flowers_out`), the flags of
    tiles alone in their group (`_lone_turned`) or in a meld that reads as no meld (`_misflagged`) cleared, or a box left out as a double kept in a hand a
    tile short (`_missing_doubles`), if that makes it legal;
    a group that reads as no meld and runs out of the photo is left out in any case (a meld is laid whole).
    When none does and the reading as read holds less than half a hand's size, the trial holding the most
    detections, if more than the reading holds, is taken (a hand reported wrong serves the player better than
    a scrap of one); when the flowers inside the row, taken out, leave a
    hand of a winning hand's size and the reading as read is not, that reading is taken (its suggestions are
    then its tiles' alternatives). At most MAX_TRIALS such readings are tried (a
    photo of scattered tiles offers many). When the reading taken offers no correction (`suggest`), the
    first of the readings tried that offers one of its tiles is taken with those corrections (a hand that
    needs a box left out and a tile corrected; they share MAX_CORRECTIONS corrections tried; a tile the
    photo does not show is not offered, as the box left out may be it).
    ValueError for an unknown region or seat.
    """
    from vision.consistency import MAX_CORRECTIONS, check_hand, needs, suggest

    if region not in REGIONS:
        raise ValueError(f"unknown rules {region!r} (known: {', '.join(REGIONS)})")
    if seat not in (0, 1, 2, 3):
        raise ValueError(f"seat must be 0, 1, 2 or 3, not {seat!r}")
    detections, frame = unstretched(detections, frame)
    slivers = edge_slivers(detections, frame)
    layout, reading = read_detections(detections, region, seat=seat, indicator=indicator, options=options,
                                      left_out=slivers, winner=winner)
    problems = check_hand(reading, indicator=indicator, options=options, seat=seat)
    none: frozenset[int] = frozenset()
    taken = (detections, slivers, "", none)  # what the reading was read from: seen, left out, part, kept
    tried: list[tuple[tuple[Layout, HandReading], Detections]] = []
    if problems:
        odd = [(up, backs) for up in up_candidates(detections)
               if (backs := _odd_backs(find_layout(detections, up, slivers), detections.tiles))]
        trials = [(layout.up, set(), detections, "", frozenset({double}))
                  for double in _missing_doubles(detections, layout, reading)] \
            + [(up, backs, detections, "", none) for up, backs in odd] \
            + [(layout.up, {double}, detections, "", none) for double in _likely_doubles(detections, layout, reading)] \
            + [(layout.up, {twice}, detections, "", none) for twice in _boxed_twice(detections, layout, slivers)] \
            + [(layout.up, misfit, detections, "", none)
               for misfit in _misfits(reading) + _walls(reading) + _extra_melds(reading, layout)
               + _unplayed_flowers(reading, detections)] \
            + [(layout.up, stray, detections, "melds", none) for stray in _joining_strays(layout, detections)]
        if _parted(layout, detections).rows != layout.rows:
            trials.append((layout.up, set(), detections, "melds", none))
        trials += [(up, set(), faced, "", none) for up in up_candidates(detections)
                   if (faced := _faced_backs(find_layout(detections, up, slivers), detections)) is not None]
        if _flowers_out(layout, detections.tiles, laid_aside(region, indicator, options)).rows != layout.rows:
            trials.append((layout.up, set(), detections, "flowers", none))
        for cleared in (_lone_turned(layout, detections), _misflagged(reading, detections)):
            if cleared.any():
                trials.append((layout.up, set(), replace(detections, sideways=detections.sideways & ~cleared), "",
                               none))
        scrap = 2 * reading.size < reading.full_size  # the reading as read holds less than half a hand
        fullest, most, sized = None, len(reading.held), None
        for up, stray, seen, part, kept in trials[:MAX_TRIALS]:
            trial = read_detections(seen, region, seat=seat, indicator=indicator, options=options,
                                    left_out=slivers | stray, up=up, winner=winner, part=part, kept=kept)
            if not check_hand(trial[1], indicator=indicator, options=options, seat=seat, first=True):
                layout, reading, problems = *trial, ()
                break
            tried.append((trial, seen))
            if scrap and len(trial[1].held) > most:
                fullest, most = (trial, (seen, slivers | stray, part, kept)), len(trial[1].held)
            if part == "flowers" and trial[1].size == trial[1].full_size != reading.size:
                sized = (trial, (seen, slivers | stray, part, kept))
        else:
            if fullest or sized:
                (layout, reading), taken = fullest or sized
                problems = check_hand(reading, indicator=indicator, options=options, seat=seat)
    if problems and frame is not None:
        edge = _cut_by_edge(detections, frame)
        runs_out = {i for g in _misfits(reading) if edge[list(g)].any() for i in g}
        if runs_out:
            seen, left_out, part, kept = taken
            layout, reading = read_detections(seen, region, seat=seat, indicator=indicator, options=options,
                                              left_out=left_out | runs_out, up=layout.up, winner=winner,
                                              part=part, kept=kept)
            problems = check_hand(reading, indicator=indicator, options=options, seat=seat)
    suggestions = suggest(taken[0], layout, reading, seat=seat, indicator=indicator, options=options) \
        if problems else ()
    for (trial_layout, trial_reading), seen in tried if problems and not suggestions else ():
        offered = tuple(s for s in suggest(seen, trial_layout, trial_reading, seat=seat, indicator=indicator,
                                           options=options, corrections=MAX_CORRECTIONS // len(tried))
                        if not s.added)
        if offered:
            layout, reading, suggestions = trial_layout, trial_reading, offered
            problems = check_hand(reading, indicator=indicator, options=options, seat=seat)
            break
    return replace(reading, problems=problems, suggestions=suggestions, needs=needs(reading, indicator=indicator))
