// The table page: capture a hand, correct it, fill in what a photo cannot show, read the score.
// Everything goes through the JSON API (/api/detect, /api/score, /api/camera…); no framework, no build.
import { CONTEXT_FIELDS, FLAG_NAMES, MELD_KINDS, STRINGS, flagName, needInChinese, shortFlagName } from "./i18n.js";
import { SUITS, TILE_CODES, formatTiles, isTile, parseTiles, tileButton, tileLabel, tileName } from "./tiles.js";

// a detection below this confidence is marked doubtful (vision.detections.DOUBTFUL_CONFIDENCE, as by `mjcam read`)
const DOUBTFUL = Number(document.body.dataset.doubtful);
// this many doubtful tiles in the hand ask for a better photo: on 2,100 development scenes such hands were
// read exactly 13 % of the time (none doubtful: 92 %)
const RETAKE_DOUBTFUL = 3;
const SHOWN_ALTERNATIVE = 0.01; // a classifier's next guess less likely than this is not offered as likely
const SETTINGS_KEY = "mjcam.settings"; // what stays from one hand to the next: this tab's (sessionStorage), else the device's last (localStorage)
const HAND_KEY = "mjcam.hand"; // sessionStorage: the hand in progress and its rules, kept over a reload
const HAND_VERSION = 2; // of what HAND_KEY keeps: a table kept by another version is not restored
const EVENING_KEY = "mjcam.evening"; // the deals this tab scored and left for the next, and the last: as the settings
const CAPTURE_KEY = "mjcam.capture"; // sessionStorage: the table camera's capture last read, not read again after a reload
const ROW_SLANT = 35; // degrees: rows slanting more than this are read as level (a spread that is no row)
const KEPT_PHOTO_PX = 1280; // the photo is kept (and shown) at most this many pixels across
const RECORD_JARGON = /^invalid table record: /; // how the API introduces the scorer's line; not for players
const $ = (id) => document.getElementById(id);
const MAX_PHOTO_BYTES = Number(document.body.dataset.maxBytes);
const WORK_SIDE = Number(document.body.dataset.workSide); // the reader works at most this many pixels across
const REDUCED_SHARE = Number(document.body.dataset.reducedShare);
const MAX_STREAK = Number(document.body.dataset.maxStreak); // the most dealer_streak the scorer takes
const MAX_NAME = 16; // characters of a player's name: a seat tab stays one line on a phone

/** A player's name as the page keeps it: at most MAX_NAME characters (whole characters, never half of one). */
function playerName(text) {
  return Array.from(text).slice(0, MAX_NAME).join("");
}

// ---------------------------------------------------------------------------------------------- state
const saved = loadSettings(); // as another version of the page, or a hand, may have left them: each checked
const savedSeat = [0, 1, 2, 3].includes(saved.seat) ? saved.seat : 0;
const state = {
  lang: ["en", "zh"].includes(saved.lang) ? saved.lang : navigator.language.startsWith("zh") ? "zh" : "en",
  regions: {},
  rules: saved.rules, // checked against the regions the server gives (`start`)
  seat: savedSeat, // the seat whose hand is shown and photographed
  streak: Number.isInteger(saved.streak) && saved.streak >= 0 && saved.streak <= MAX_STREAK ? saved.streak : 0,
  // the dealer whose streak it is (null: not known yet): another dealer chosen starts from 0
  streakDealer: [0, 1, 2, 3].includes(saved.streakDealer) ? saved.streakDealer : null,
  // typed for the hand in progress (a setting, as the streak; New hand clears it): its dealer's, whoever is chosen
  streakTyped: saved.streakTyped === true,

  // per region: the values set on this device
  options: saved.options && typeof saved.options === "object" && !Array.isArray(saved.options) ? saved.options : {},
  // the players' names by seat, as the table gives them ("": the seat's number only)
  names: [0, 1, 2, 3].map((seat) => (typeof saved.names?.[seat] === "string" ? playerName(saved.names[seat]) : "")),
  optionProblems: {}, // per option of the rules shown: what is wrong with the value given (not kept)
  ...emptyTable(savedSeat),
};

/** The facts of one hand, as a new hand starts: what `snapshot` keeps (for an undo and over a reload). */
function emptyTable(seat) {
  return {
    winner: seat, // a seat, or null for a drawn hand
    winnerChosen: false, // the player chose the winner (a reading no longer sets it)
    by: null, // self_draw, discard or rob_kong; null: not said yet
    from: null,
    dealer: null, // asked each hand; null: not said yet
    indicator: null,
    indicatorSaid: false, // the player said the indicator (null then means none)
    indicatorAside: null, // an indicator the rules chosen refused, back if rules that take it are chosen again
    streakAside: null, // {dealer, streak}: the streak this hand had before another dealer was chosen
    flags: [],
    context: {},
    hands: [0, 1, 2, 3].map(emptyHand),
    photos: [null, null, null, null], // per seat: {url, readWith, width, height, tiles, codes, groups, problems, problemsZh, suggestions, needs}
  };
}
const TABLE_FIELDS = Object.keys(emptyTable(0));

// A hand tile is {code, det, placed}: det is the index of its detection in the seat's photo, or null; placed:
// the player put it in its group. A meld is {kind, tiles, from, auto, edited}: auto, its kind follows its tiles
// until the player sets it; edited, the player made or changed it. What the player placed or edited is kept
// when the hand is read again for other rules (`keepPlayersGroups`).
function emptyHand() {
  return { concealed: [], win: null, melds: [], flowers: [] };
}

const tileCount = (h) => groupIds(h).reduce((n, gid) => n + groupTiles(h, gid).length, 0);

function snapshot() {
  return JSON.stringify(Object.fromEntries(TABLE_FIELDS.map((key) => [key, state[key]])));
}

function restoreSnapshot(table) {
  for (const key of TABLE_FIELDS) if (key in table) state[key] = table[key];
}

/** After every change: the hand in progress and its rules kept in the tab (sessionStorage; without the photos
 * when they do not fit), and the Undo offer withdrawn once the table is no longer as the replace or clear left
 * it (Undo never wipes later work). */
function keepTable() {
  const text = snapshot();
  if (undo && text !== undo.after) offerUndo(null);
  const table = { ...JSON.parse(text), rules: state.rules, version: HAND_VERSION };
  const withoutPhotos = { ...table, photos: table.photos.map((photo) => photo && { ...photo, url: null }) };
  for (const kept of [table, withoutPhotos]) {
    try {
      return sessionStorage.setItem(HAND_KEY, JSON.stringify(kept));
    } catch {} // over the quota, or no storage in this browser
  }
  try {
    sessionStorage.removeItem(HAND_KEY); // an older hand is not brought back by a reload
  } catch {}
}

/** The settings of this tab (kept over a reload), or for a new tab the last ones set on this device: two
 * tabs at two tables keep their own rules and options. */
function loadSettings() {
  return storedValue(SETTINGS_KEY, Boolean) ?? {};
}

/** What ``key`` holds for this tab (sessionStorage), else the device's last (localStorage), parsed, when ``taken``
 * takes it; undefined when neither does. */
function storedValue(key, taken) {
  for (const name of ["sessionStorage", "localStorage"]) {
    try {
      const value = JSON.parse(window[name].getItem(key));
      if (taken(value)) return value;
    } catch {} // storage blocked in this browser (even reading window.localStorage throws), or not JSON
  }
  return undefined;
}

/** ``text`` kept under ``key`` for this tab and as the device's last (`storedValue` reads it back). */
function store(key, text) {
  for (const name of ["sessionStorage", "localStorage"]) {
    try {
      window[name].setItem(key, text);
    } catch {} // over the quota, or storage blocked in this browser
  }
}

/** A last deal as the evening kept it (`endDeal`), or null when it is not one (another version's, or none). */
function checkedLastDeal(deal) {
  const seat = (value) => [0, 1, 2, 3].includes(value);
  const streak = Number.isInteger(deal?.streak) && deal.streak >= 0 && deal.streak <= MAX_STREAK;
  return deal && seat(deal.dealer) && (deal.winner === null || seat(deal.winner)) && streak ? deal : null;
}

function saveSettings() {
  const { lang, rules, seat, streak, streakDealer, streakTyped, options, names } = state;
  store(SETTINGS_KEY, JSON.stringify({ lang, rules, seat, streak, streakDealer, streakTyped, options, names }));
}

const region = () => state.regions[state.rules];
const hand = () => state.hands[state.seat];

// ----------------------------------------------------------------------------------------------- text
function t(key, vars = {}) {
  const text = STRINGS[state.lang][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => vars[name] ?? "");
}

/** A win flag's name under the rules chosen (the region's own where it has one), in ``lang``. */
const eventName = (flag, lang = state.lang) => flagName(flag, lang, region()?.flag_names);

/** An event named in a note about another (`shortFlagName`: "杠上开花", without its explanation). */
const shortEvent = (flag) => shortFlagName(flag, state.lang, region()?.flag_names);

/** A seat as the page names it: its player's name or its number (`seatName`), and its wind once the dealer is known
 * ("Seat 2 · West", "2号位 · 西", "Ann · West"). */
function seatLabel(seat) {
  return seatParts(seat).join(" ");
}

function seatParts(seat) {
  const who = seatName(seat);
  if (state.dealer === null) return [who];
  return [who, t("seat_wind", { wind: t("winds").split(",")[(seat - state.dealer + 4) % 4] })];
}

/** A seat by its player's name where the table gave one, else by its number ("Seat 2", "2号位"). */
const seatName = (seat) => state.names[seat] || t("seat_only", { n: seat });

/** The four name fields (made once; a name changed names its seat everywhere, the evening's too). */
function renderNames() {
  const box = $("names");
  if (!box.children.length) {
    for (let seat = 0; seat < 4; seat++) {
      const input = Object.assign(document.createElement("input"), { id: `name-${seat}`, type: "text", maxLength: MAX_NAME, autocomplete: "off" });
      input.addEventListener("change", () => {
        state.names[seat] = playerName(input.value.trim());
        input.value = state.names[seat];
        saveSettings();
        renderEvening();
        render();
      });
      const label = document.createElement("label");
      label.append(Object.assign(document.createElement("span"), { id: `name-label-${seat}` }), input);
      box.append(label);
    }
  }
  for (let seat = 0; seat < 4; seat++) {
    $(`name-label-${seat}`).textContent = t("seat_only", { n: seat });
    $(`name-${seat}`).value = state.names[seat];
  }
}

/** A seat in a cell of the score's tables, as HTML: its number and its wind each kept whole (`.seat span`), so a
 * narrow phone breaks the line between them ("2号位 / · 西"), never inside one ("2号/位"). */
function seatHtml(seat) {
  // a player's name may break between its words (the seat's number never does)
  return seatParts(seat).map((part, i) => `<span${!i && state.names[seat] ? ' class="name"' : ""}>${escapeHtml(part)}</span>`).join(" ");
}

function translatePage() {
  document.documentElement.lang = state.lang === "zh" ? "zh-Hans" : "en";
  document.title = t("page_title");
  document.querySelectorAll("[data-i18n]").forEach((el) => {
    el.textContent = t(el.dataset.i18n);
  });
  document.querySelectorAll("[data-i18n-label]").forEach((el) => {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  });
  $("lang").textContent = state.lang === "zh" ? "English" : "中文";
  $("lang").lang = state.lang === "zh" ? "en" : "zh";
}

/** A list in the page's language: "1, 2 and 3", "1、2和3". */
function listOf(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(t("list_sep"))}${t("list_and")}${items.at(-1)}`;
}

const NO_STATUS = () => "";
let statusLine = { message: NO_STATUS, error: false }; // the line under the capture buttons

/** One line under the capture buttons: ``message`` gives it in the page's language, and is asked again
 * when the language changes (a function keeping its words' keys and values). */
function setStatus(message, { error = false } = {}) {
  statusLine = { message, error };
  showStatus();
  const { top, bottom } = $("status").getBoundingClientRect();
  if (error && (bottom < 0 || top > window.innerHeight)) $("status").scrollIntoView({ block: "center", behavior: "smooth" }); // a refusal where the player looks
}

function showStatus() {
  $("status").textContent = statusLine.message();
  $("status").classList.toggle("error", statusLine.error);
}

let undo = null; // while Undo is offered: {before, after}, the table before a replace or clear and just after it

/** Offer to bring back the table as it was ``before`` a replace or clear, in a bar at the bottom of the screen
 * saying ``note`` (a function giving it in the page's language); null withdraws the offer. ``replaced``: the
 * seat's hand was replaced by a photo (`moveHand` brings it back when the photo was another seat's). ``deal``: the
 * deal was left for the next (`dealLeft`): its streak comes back with it (a setting, not the table's; a streak
 * typed since is the next deal's), where Undo of a change within the deal leaves the streak as it is, and the
 * evening forgets it again. The rules stay as chosen since (kept to ask again an indicator said for other rules). */
function offerUndo(before, note = () => "", seat = state.seat, { replaced = false, deal = null } = {}) {
  undo = before && { before, after: snapshot(), note, seat, replaced, rules: state.rules, deal };
  showUndo();
}

/** What Undo of leaving a deal brings back besides the table: its streak (``streakTyped`` as it was before the
 * change cleared it) and the evening as it was before (``before``, as `clearTable` returns it): `reopenDeal`. */
const dealLeft = (streakTyped, before) => ({ streak: { streak: state.streak, streakDealer: state.streakDealer, streakTyped }, evening: before });

function showUndo() {
  $("undo-note").textContent = undo ? undo.note() : "";
  $("undo-bar").hidden = !undo;
  document.body.classList.toggle("undo-open", !!undo); // room below the page's end, so the bar covers none of it
}

// ---------------------------------------------------------------------------------------- the hand
// Groups are addressed by id: "concealed", "win", "flowers" or "meld:N".

function groupTiles(h, gid) {
  if (gid === "win") return h.win ? [h.win] : [];
  if (gid.startsWith("meld:")) return h.melds[Number(gid.slice(5))].tiles;
  return h[gid];
}

function takeTile(h, gid, index) {
  if (gid === "win") {
    const tile = h.win;
    h.win = null;
    return tile;
  }
  const tile = groupTiles(h, gid).splice(index, 1)[0];
  if (gid.startsWith("meld:")) editMeld(h.melds[Number(gid.slice(5))]);
  return tile;
}

/** The player puts a tile into a group: it is theirs there, or the meld is theirs. */
function putTile(h, gid, tile) {
  if (gid === "new-meld") return h.melds.push({ kind: "pung", tiles: [tile], from: null, auto: true, edited: true });
  if (gid.startsWith("meld:")) {
    groupTiles(h, gid).push(tile);
    return editMeld(h.melds[Number(gid.slice(5))]);
  }
  tile.placed = true;
  if (gid !== "win") {
    delete tile.aside; // a winning tile no more
    return h[gid].push(tile);
  }
  if (h.win) putTile(h, h.win.aside ? "flowers" : "concealed", h.win);
  h.win = tile;
}

function editMeld(meld) {
  meld.edited = true;
  guessMeldKind(meld);
}

/** Where a detection's tile lies in a hand: {gid, index, tile}, or null when it is not in the hand. */
function locate(h, det) {
  for (const gid of groupIds(h)) {
    const index = groupTiles(h, gid).findIndex((tile) => tile.det === det);
    if (index >= 0) return { gid, index, tile: groupTiles(h, gid)[index] };
  }
  return null;
}

function groupIds(h) {
  return ["concealed", "win", ...h.melds.map((_, i) => `meld:${i}`), "flowers"];
}

/**
 * A new meld's kind follows its tiles (three alike: pung, four: kong, a run: chow) until the player sets it; a meld
 * read or set as a pung that comes to hold four alike tiles is a kong, and a claimed kong left with three a pung.
 */
function guessMeldKind(meld) {
  const codes = meld.tiles.map((tile) => tile.code);
  const alike = codes.every((code) => code === codes[0]);
  if (!meld.auto) {
    if (alike && codes.length === 4 && meld.kind.startsWith("pung")) meld.kind = "kong";
    else if (alike && codes.length === 3 && ["kong", "kong_added"].includes(meld.kind)) meld.kind = "pung";
    return;
  }
  if (alike && codes.length === 4) meld.kind = "kong";
  else if (alike) meld.kind = "pung";
  else if (codes.length === 4 && formatTiles(codes) === "1234z") meld.kind = "whirlwind";
  else meld.kind = "chow";
}

function meldRecord(meld) {
  const kind = MELD_KINDS[meld.kind];
  const out = { type: kind.type, tiles: formatTiles(meld.tiles.map((tile) => tile.code)) };
  if (kind.flag) out[kind.flag] = true;
  if (meld.from !== null && kind.claimed) out.from = meld.from;
  return out;
}

/** The codes of a tile string from the server (always valid): "123m55z" -> ["1m","2m","3m","5z","5z"]. */
function codesOf(text) {
  return parseTiles(text) ?? [];
}

/**
 * The reader's hand as hand tiles linked to detections. ``reading`` is the player's part of a table record
 * plus ``win_tile`` and ``groups`` ([{kind: concealed|winning|meld|flowers, tiles: [detection index], meld}]);
 * ``codes`` gives each detection's tile as the reader used it (null: dropped).
 */
function handFromReading(reading, codes) {
  const h = emptyHand();
  if (!reading) return h;
  const used = new Set();
  const indicesOf = (kind, meld = null) =>
    (reading.groups || []).filter((g) => g.kind === kind && (meld === null || g.meld === meld)).flatMap((g) => g.tiles);
  const link = (code, pool) => {
    const det = pool.find((i) => !used.has(i) && [code, "back"].includes(codes[i]));
    if (det === undefined) return { code, det: null };
    used.add(det);
    return { code, det };
  };
  const concealed = codesOf(reading.concealed || "");
  if (reading.win_tile && concealed.includes(reading.win_tile)) {
    concealed.splice(concealed.indexOf(reading.win_tile), 1);
    h.win = link(reading.win_tile, indicesOf("winning"));
  }
  const inPhoto = indicesOf("concealed");
  const rank = (tile) => (tile.det === null ? inPhoto.length : inPhoto.indexOf(tile.det));
  h.concealed = concealed.map((code) => link(code, inPhoto)).sort((a, b) => rank(a) - rank(b)); // as laid out
  h.melds = (reading.melds || []).map((m, i) => {
    const pool = indicesOf("meld", i);
    // a kong shown all face down comes without tiles: one face-down tile per detection, to be named
    const tiles = m.tiles ? codesOf(m.tiles).map((code) => link(code, pool)) : pool.map((det) => ({ code: "back", det }));
    return { kind: meldKind(m), tiles, from: m.from ?? null, auto: false };
  });
  h.flowers = codesOf(reading.flowers || "").map((code) => link(code, indicesOf("flowers")));
  return h;
}

function meldKind(m) {
  if (m.type === "kong") return m.concealed ? "kong_concealed" : m.added ? "kong_added" : "kong";
  if (m.type === "pung" && m.bao) return "pung_bao";
  return m.type in MELD_KINDS ? m.type : "pung";
}

// ------------------------------------------------------------------------------------- the record
/** The table record for /api/score, or {needed, target}: what the player must still fix or say before a score,
 * and the id of where on the page (the seat's hand, or its tab when another seat's is shown; the field). */
function composeRecord() {
  const info = region();
  // a drawn hand said so is scored with no tile given (nothing paid, but the kongs some rules pay on a draw)
  if (!state.hands.some(tileCount) && !(state.winner === null && state.winnerChosen)) return { needed: t("score_hint") };
  if (state.photos.some(readStale)) return { needed: regroupError ? t("regroup_failed", { why: regroupError() }) : t("regrouping"), retry: !!regroupError, target: "score" };
  const unknown = state.hands.findIndex((h) => groupIds(h).some((gid) => groupTiles(h, gid).some((tile) => !isTile(tile.code))));
  if (unknown >= 0) return { needed: t("problem_facedown", { seat: seatLabel(unknown) }), target: handOf(unknown) };
  for (const [seat, h] of state.hands.entries()) {
    const short = h.melds.findIndex((m) => m.tiles.length > 0 && m.tiles.length < 3);
    if (short >= 0) return { needed: t("meld_unfinished", { seat: seatLabel(seat), n: short + 1, k: h.melds[short].tiles.length }), target: handOf(seat) };
  }
  if (winTileUnmarked()) {
    return { needed: t("problem_no_win", { seat: seatLabel(state.winner) }), target: state.winner === state.seat ? "win-group" : handOf(state.winner) };
  }
  const missing = missingFacts();
  if (missing.length) return { needed: t("score_needs", { facts: listOf(missing.map(factName)) }), target: FACT_FIELDS[missing[0]] ?? "context" };
  // a hand the rules do not score is sent as unknown ("concealed": ""), its melds and flowers kept (table-format.md)
  const scored = (seat) => seat === state.winner || (state.winner !== null && info.scores_non_winners);
  const held = (h) => [...h.concealed, ...(h.win && !h.win.aside ? [h.win] : [])].map((tile) => tile.code);
  const players = state.hands.map((h, seat) => ({
    concealed: scored(seat) ? formatTiles(held(h)) : "",
    melds: h.melds.filter((m) => m.tiles.length).map(meldRecord),
    flowers: formatTiles([...h.flowers, ...(h.win?.aside ? [h.win] : [])].map((tile) => tile.code)),
  }));
  const record = {
    rules: state.rules,
    options: state.options[state.rules] || {},
    dealer: state.dealer ?? 0, // neither these rules nor an event ticked read it (`missingFacts`)
    dealer_streak: info.reads_streak ? state.streak : 0,
    indicator: info.indicator ? state.indicator : null,
    players,
    win: null,
    context: {},
  };
  for (const name of info.context) {
    if (state.context[name]) record.context[name] = state.context[name];
  }
  if (state.winner !== null) {
    record.win = { player: state.winner, tile: state.hands[state.winner].win.code, by: state.by, flags: winFlags() };
    if (state.by !== "self_draw") record.win.from = state.from;
  }
  return { record };
}

/**
 * The facts that only the player can give and has not: how a win was won and from whom, those the rules ask
 * (`asks`: the dealer, the indicator), and the dealer or the indicator when an event ticked depends on it; none for a
 * drawn hand. Nothing is assumed.
 */
function missingFacts() {
  if (state.winner === null) return []; // a drawn hand: nothing is paid, so nothing is asked
  const asked = new Set(region().asks);
  if (winFlags().some((flag) => region().dealer_flags.includes(flag))) asked.add("dealer");
  if (winFlags().some((flag) => region().indicator_flags.includes(flag))) asked.add("indicator");
  const keys = [state.by === null ? "win.by" : "win.from", ...asked];
  return keys.filter((key) => !factGiven(key));
}

/** Whether the player has given a fact of `needs` (false for those the page cannot tell). */
function factGiven(key, seat = state.seat) {
  const h = state.hands[seat];
  if (key === "win.by") return state.winner === null || state.by !== null;
  if (key === "win.from") return state.winner === null || state.by === "self_draw" || (state.by !== null && state.from !== null);
  if (key === "win.tile") return !!h.win?.placed; // the player marked it (not the reader's guess)
  if (key === "dealer") return state.dealer !== null;
  if (key === "dealer_streak") return true; // its field always holds a count: 0 unless changed, a value refused keeps the last
  if (key === "indicator") return state.indicator !== null || state.indicatorSaid;
  if (/^melds\.\d+\.tiles$/.test(key)) return h.melds.every((meld) => meld.tiles.every((tile) => isTile(tile.code)));
  return false;
}

/** The events ticked that these rules read and the facts given allow. */
/** Whether a winner is named whose winning tile is not marked in its hand (what the score then waits for). */
const winTileUnmarked = () => state.winner !== null && !state.hands[state.winner].win;

/** Where a seat's hand is changed: the hand shown, or the seat's tab when another seat's hand is shown. */
const handOf = (seat) => (seat === state.seat ? "hand" : `seat-tab-${seat}`);

const winFlags = () => state.flags.filter((flag) => region().flags.includes(flag) && !flagProblem(flag));

/**
 * Why an event cannot apply to the facts given so far (the scorer's checks the page can make), or null: how it
 * is won, whether it needs the indicator and which events exclude it come from the rules (`/api/regions`: flag_win_by,
 * indicator_flags, exclusive_flags).
 */
function flagProblem(flag) {
  const { winner, by, from, dealer, indicator } = state;
  const info = region();
  const winTile = winner === null ? null : state.hands[winner].win?.code;
  if (by !== null && info.flag_win_by[flag] !== by) return t("flag_needs", { by: t(info.flag_win_by[flag]) });
  if (info.indicator_flags.includes(flag) && state.indicatorSaid && indicator === null) {
    return t("flag_needs_indicator", { name: info.indicator });
  }
  if (flag === "heaven" && dealer !== null && winner !== dealer) return t("flag_needs_dealer_winner");
  if (flag === "earth" && dealer !== null && (winner === dealer || (from !== null && from !== dealer))) return t("flag_needs_dealer_discard");
  if (info.indicator_win_flags.includes(flag) && state.indicatorSaid && winTile && winTile !== indicator) {
    return t("flag_needs_indicator_win", { name: info.indicator });
  }
  if (flag === "after_special_kong" && !state.flags.includes("kong_replacement")) return t("flag_needs_flag", { flag: shortEvent("kong_replacement") });
  const excludes = (other) => other !== flag && info.exclusive_flags.some((pair) => pair.includes(flag) && pair.includes(other));
  const rival = state.flags.includes(flag) ? undefined : state.flags.find(excludes);
  if (rival) return t("flag_excludes", { flag: shortEvent(rival) });
  return null;
}

function factName(key) {
  return t(`fact_${key.replace(".", "_")}`, { name: region().indicator });
}

let scoreRequest = 0;
async function updateScore() {
  keepTable();
  const request = ++scoreRequest;
  const { record, needed, retry = false, target } = composeRecord();
  $("regroup-retry").hidden = !retry;
  scored = null;
  if (needed) {
    $("score").removeAttribute("aria-busy");
    return showScoreMessage(needed, false, [], target);
  }
  $("score").setAttribute("aria-busy", "true"); // the score shown is the last hand's until the answer comes
  const { answer, error, changes } = await post("/api/score", record, "score_error");
  if (request !== scoreRequest) return; // a newer change is on its way
  $("score").removeAttribute("aria-busy");
  if (error) return showScoreMessage(error(), true, changes);
  scored = { after: snapshot(), deal: { rules: state.rules, unit: answer.unit || "", net: answer.net, winner: state.winner } };
  renderScore(answer);
}

// ------------------------------------------------------------------------------------------ the evening
// The deals scored at this table, each added as the next deal starts (New hand, or a photo of the next hand), with
// the evening's totals, and who dealt and won the last deal left (whoever deals next: `nextDealer`): kept in the tab
// over a reload, and on the device for a tab closed and opened again, until the player starts a new evening.
let scored = null; // the score shown: {after: the table it is for (`snapshot`), deal: what the evening keeps of it}
const evening = loadEvening(); // {deals: [{rules, unit, net, winner}], last: {dealer, winner (null: drawn), streak}}

function loadEvening() {
  const deal = (d) => typeof d?.rules === "string" && typeof d.unit === "string" && Array.isArray(d.net) && d.net.length === 4
    && d.net.every(Number.isFinite) && (d.winner === null || [0, 1, 2, 3].includes(d.winner));
  // this tab's, else the device's last (a tab closed)
  const kept = storedValue(EVENING_KEY, (value) => Array.isArray(value?.deals) && value.deals.every(deal));
  return kept ? { deals: kept.deals, last: checkedLastDeal(kept.last) } : { deals: [], last: null };
}

function keepEvening() {
  store(EVENING_KEY, JSON.stringify(evening));
  renderEvening();
}

/** The table is left for the next deal: its score, if the one shown is the table's, joins the evening, and who
 * dealt and won it (a drawn deal: nobody), when the dealer was given, is the last deal's. Returns what Undo of the
 * next deal brings the evening back to, {deals: how many it held, last}, and ``unscored``: the table held tiles
 * but no score, so the evening did not take it. */
function endDeal() {
  const before = { deals: evening.deals.length, last: evening.last };
  const joined = scored !== null && scored.after === snapshot();
  if (joined) {
    evening.deals.push(scored.deal);
    const streak = state.streakDealer === state.dealer ? state.streak : 0;
    if (state.dealer !== null) evening.last = { dealer: state.dealer, winner: state.winner, streak };
  }
  keepEvening();
  return { ...before, unscored: !joined && state.hands.some(tileCount) };
}

/** A deal left for the next is the table's again (``deal``, from `dealLeft`): its streak back, and the evening as
 * it was before (from `endDeal`), the deal taken out. */
function reopenDeal(deal) {
  Object.assign(state, deal.streak);
  evening.deals.splice(deal.evening.deals);
  evening.last = deal.evening.last;
  keepEvening();
}

/** The evening's deals, one row each (its rules and who won), and the totals per unit (a table may change rules). */
function renderEvening() {
  const deals = evening.deals;
  $("evening").hidden = !deals.length;
  const table = $("evening-table");
  table.replaceChildren();
  if (!deals.length) return;
  table.createCaption().textContent = t("evening_caption", { n: deals.length });
  const sign = (v) => (v > 0 ? `+${v}` : String(v));
  const addRow = (head, values, scope = "row") => {
    const row = table.insertRow();
    row.append(Object.assign(document.createElement("th"), { scope, textContent: head }));
    for (const value of values) {
      const cell = row.insertCell();
      cell.textContent = value;
      if (/^[+-]/.test(value)) cell.className = value.startsWith("+") ? "gain" : "loss"; // as the score's nets
    }
    return row;
  };
  addRow("", [0, 1, 2, 3].map(seatName), "col").querySelectorAll("td").forEach((cell) => {
    cell.replaceWith(Object.assign(document.createElement("th"), { scope: "col", textContent: cell.textContent }));
  });
  const name = (rules) => (state.lang === "zh" ? state.regions[rules]?.name_zh : state.regions[rules]?.name) ?? rules;
  deals.forEach((deal, i) => {
    const who = deal.winner === null ? t("evening_drawn") : t("evening_won", { seat: seatName(deal.winner) });
    addRow(t("evening_deal", { n: i + 1, rules: name(deal.rules), who }).replace(" · ", "\u00a0· "), deal.net.map(sign));
  });
  for (const unit of [...new Set(deals.map((deal) => deal.unit))]) {
    const sums = [0, 1, 2, 3].map((seat) => deals.filter((deal) => deal.unit === unit).reduce((n, deal) => n + deal.net[seat], 0));
    addRow(t("evening_total", { unit }), sums.map(sign)).classList.add("total");
  }
}

/** No score: what is still needed (a note), or why the scorer refused the hand (an error), said where the player
 * is too: a refusal under the hand, with the scorer's one-tile ``changes`` that would make it a win as buttons;
 * on the thumb bar's Score, that it was refused or how many facts are still to set. */
function showScoreMessage(message, isError = false, changes = [], target = "score") {
  $("score-needed").textContent = isError ? "" : message;
  $("score-needed").hidden = isError;
  $("score-error").textContent = isError ? message : "";
  $("score-error").hidden = !isError;
  $("score-body").hidden = true;
  const left = isError || !state.hands.some(tileCount) ? 0 : missingFacts().length + winTileUnmarked();
  const thumb = $("thumb-score");
  thumb.replaceChildren(isError ? t("thumb_refused") : t("score"), // how many things are left to set, under it
    ...(left ? [Object.assign(document.createElement("small"), { textContent: t("thumb_needs", { n: left }) })] : []));
  thumb.classList.toggle("alert", isError);
  if (isError) thumb.setAttribute("aria-label", t("thumb_refused_label"));
  else thumb.removeAttribute("aria-label");
  thumb.setAttribute("href", `#${isError ? "score-problem" : target}`); // a tap goes where the player acts
  showRefusalAtHand(isError ? message : "", changes);
}

/** The scorer's refusal under the hand, and each of its one-tile changes of this seat's hand as a button. */
function showRefusalAtHand(message, changes = []) {
  $("score-problem").hidden = !message;
  $("score-problem-text").textContent = message;
  const fixes = changes.filter((change) => change.seat === state.seat && (change.tile === null || tileToChange(hand(), change.tile)));
  $("score-fixes-label").hidden = $("score-fixes").hidden = !fixes.length;
  $("score-fixes").replaceChildren(...fixes.map((change) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button small";
    button.textContent = change.tile === null ? t("add_button", { tile: tileName(change.to, state.lang) }) // a tile left out
      : change.to === "flowers" ? t("lay_aside_button", { tile: tileName(change.tile, state.lang) }) // one the rules lay aside
      : t("fix_tile", { from: tileName(change.tile, state.lang), to: tileName(change.to, state.lang) });
    button.addEventListener("click", () => takeScorerChange(change));
    return button;
  }));
}

/** The hand's tile to change for the scorer's change of ``code``: a tile in hand (the least sure read first), else
 * the winning tile, as the scorer changes it only when it is the last of its kind (`Region.near_wins`). */
function tileToChange(h, code) {
  const photo = state.photos[state.seat];
  const sureness = (tile) => (tile.det !== null ? photo?.tiles[tile.det]?.confidence ?? 1 : 1);
  const held = h.concealed.filter((tile) => tile.code === code).sort((a, b) => sureness(a) - sureness(b));
  return held[0] ?? (h.win?.code === code && !h.win.aside ? h.win : null);
}

/** Every ``code`` of the hand in hand laid aside with the flowers, the winning tile of that code too (no longer
 * the winning tile: the player marks it again, as the thumb bar and the ringed group ask, where it won a 腊子). */
function layAside(h, code) {
  for (let i = h.concealed.length - 1; i >= 0; i -= 1) if (h.concealed[i].code === code) putTile(h, "flowers", takeTile(h, "concealed", i));
  if (h.win?.code === code && !h.win.aside) putTile(h, "flowers", takeTile(h, "win"));
}

/** Take one of the scorer's changes: the tile named again, as a correction from the tile picker is; Undo offered. */
function takeScorerChange(change) {
  const tile = change.seat === state.seat && (change.tile === null || tileToChange(hand(), change.tile));
  if (!tile) return; // a button of a refusal the hand has moved on from (its new score still on its way)
  const before = snapshot();
  const h = hand();
  if (change.tile === null) putTile(h, "concealed", { code: change.to, det: null }); // the player's own, placed
  else if (change.to === "flowers") layAside(h, change.tile);
  else tile.code = change.to;
  offerUndo(before, () => { // the tiles named in the page's language when the note is shown
    const [from, to] = [change.tile, change.to].map((code) => isTile(code) && tileName(code, state.lang));
    return !from ? t("add_taken", { tile: to }) : to ? t("fix_taken", { from, to }) : t("laid_aside", { tile: from });
  });
  handEdited();
  $("hand-title").focus(); // the button is gone: the keyboard goes to the hand it changed
}

/**
 * POST to the API (a FormData, or an object sent as JSON): {answer}, or {error}: a message (a function giving
 * one line in the page's language), the server's under the page's label ``label`` (`serverError`), or the
 * page's own words when no JSON came back.
 */
async function post(url, body, label) {
  const json = body !== undefined && !(body instanceof FormData);
  let response;
  try {
    response = await fetch(url, { method: "POST", body: json ? JSON.stringify(body) : body, headers: json ? { "Content-Type": "application/json" } : {} });
  } catch {
    return { error: () => t("no_server") };
  }
  if (response.status === 413) return { error: tooLarge(body instanceof FormData ? body.get("image")?.name : t("photo")) };
  const answer = await response.json().catch(() => null);
  if (!answer) return { error: () => t("http_error", { status: response.status }) };
  if (!response.ok) return { error: () => serverError(label, answer), changes: answer.changes ?? [] };
  return { answer };
}

/** The server's refusal under the page's label: in Chinese its Chinese (``error_zh``) under ``label_zh``
 * where it gave one, else its English line. */
function serverError(label, answer) {
  if (state.lang === "zh" && answer.error_zh) return t(`${label}_zh`, { why: answer.error_zh });
  return t(label, { why: plainEnglish(String(answer.error).replace(RECORD_JARGON, "")) });
}

/** The scorer's English line as players say it: seats as the page names them, not record paths
 * (``players[2].concealed holds`` → "Seat 2 · South's tiles in hand hold"), rules, events and tiles by their names. */
function plainEnglish(text) {
  const parts = { concealed: "tiles in hand", flowers: "flowers" };
  const meld = (seat, index) => `${seatLabel(Number(seat))}'s meld ${Number(index) + 1}`;
  return namedTiles(
    text
      .replace(/players\[([0-3])\]\.(concealed|flowers)( holds)?/g, (_, seat, part, holds) => `${seatLabel(Number(seat))}'s ${parts[part]}${holds ? " hold" : ""}`)
      .replace(/players\[([0-3])\]\.melds\[(\d+)\]\.from/g, (_, seat, index) => `the seat ${meld(seat, index)} was claimed from`)
      .replace(/players\[([0-3])\]\.melds\[(\d+)\]/g, (_, seat, index) => meld(seat, index))
      .replace(/players\[([0-3])\]/g, (_, seat) => seatLabel(Number(seat)))
      .replace(/ in 'flowers'/g, " under “Flowers”") // the page's group, as a tile is moved there
      .replace(/\bwin\.tile\b/g, "the winning tile")
      .replace(/\bwin\.from\b/g, "the seat the win came from")
      .replace(/\b(wenling|fuzhou|daishan|baicheng) rules\b/g, (_, key) => `${state.regions[key]?.name ?? key} rules`)
      .replace(/\bflags? ([a-z_]+)(?: \([^)]*\))?(?: and ([a-z_]+))?/g, (text, ...flags) => {
        const names = flags.slice(0, 2).filter(Boolean);
        return names.every((flag) => FLAG_NAMES[flag]) ? names.map((flag) => `“${eventName(flag, "en")}”`).join(" and ") : text;
      })
      .replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (text) => (FLAG_NAMES[text] ? `“${eventName(text, "en")}”` : text))
      .replace(/\ba self_draw win\b/g, "a self-drawn win")
  );
}

const tooLarge = (name) => () => t("too_large", { name, mb: Math.floor(MAX_PHOTO_BYTES / 2 ** 20) });

// ---------------------------------------------------------------------------------------- rendering
/** After the player edits the hand: the reader's notes and suggestions were about its reading, not this. */
function handEdited() {
  const photo = state.photos[state.seat];
  if (photo) clearReaderNotes(photo);
  render();
}

const clearReaderNotes = (photo) => Object.assign(photo, { problems: [], problemsZh: [], suggestions: [] });

function render() {
  renderSeatTabs();
  renderHand();
  renderOverlay();
  renderReaderNotes();
  renderWinFields();
  updateScore();
}

/**
 * The four seat tabs, made once and then only relabelled: a tab replaced while it is being tapped loses the tap
 * (a field's change, which redraws the page, comes as the field loses focus to the tab, before the click).
 */
function renderSeatTabs() {
  const tabs = $("seat-tabs");
  if (!tabs.children.length) {
    for (let seat = 0; seat < 4; seat++) {
      const tab = Object.assign(document.createElement("button"), { type: "button", id: `seat-tab-${seat}` });
      tab.addEventListener("click", () => {
        state.seat = seat;
        saveSettings();
        render();
      });
      tabs.append(tab);
    }
  }
  for (let seat = 0; seat < 4; seat++) {
    const h = state.hands[seat];
    const count = h.concealed.length + (h.win ? 1 : 0) + h.melds.reduce((n, m) => n + m.tiles.length, 0);
    const tab = $(`seat-tab-${seat}`);
    tab.setAttribute("aria-pressed", String(seat === state.seat));
    const size = count === 1 ? t("one_tile") : count ? t("n_tiles", { n: count }) : t("blank");
    tab.innerHTML = `<span>${escapeHtml(seatLabel(seat))}</span> <small>${size}</small>`;
    if (seat === state.winner && (state.winnerChosen || state.hands.some(tileCount))) tab.insertAdjacentHTML("beforeend", ` <b class="badge">${t("winner_badge")}</b>`);
    if (seat === state.dealer) tab.insertAdjacentHTML("beforeend", ` <b class="badge dealer">${t("dealer_badge")}</b>`);
  }
  const info = region();
  // under rules that read every seat's melds, once anything is given (or the hand is said drawn)
  const given = state.hands.some(tileCount) || (state.winner === null && state.winnerChosen);
  const blank = info.scores_non_winners ? (state.winner !== null ? blankSeats() : []) : given ? seatsNotGiven() : [];
  $("blank-note").hidden = !blank.length;
  $("blank-note").textContent = t(info.scores_non_winners ? "blank_note" : "melds_not_given_note", { seats: blank.map(seatLabel).join(t("list_sep")) });
}

/** The seats whose hand is not given (no tile in hand: melds and flowers at most). */
const blankSeats = () => [0, 1, 2, 3].filter((seat) => !state.hands[seat].concealed.length && !state.hands[seat].win);

/** Under rules whose payments read every seat's melds (`reads_payers_melds`: Baicheng's 背靠背 and kongs), the
 * seats but the winner's with nothing given: taken as 门清 with no kong; none under other rules. */
const seatsNotGiven = () => (region().reads_payers_melds ? [0, 1, 2, 3].filter((seat) => seat !== state.winner && !tileCount(state.hands[seat])) : []);

/** The seats the hand on screen can be moved to (a photo taken with the wrong seat chosen). */
function renderMoveHand() {
  const others = [0, 1, 2, 3].filter((seat) => seat !== state.seat);
  // a seat whose photo is still being read is no place to move to (its answer would replace the hand moved there)
  const choices = others.map((seat) => Object.assign(new Option(seatLabel(seat), String(seat)), { disabled: photosBeingRead.has(seat) }));
  $("move-hand").replaceChildren(new Option(t("move_choose"), ""), ...choices);
  // nothing to move, or a photo of this seat still being read (its answer would land on the seat left)
  $("move-hand").disabled = !tileCount(hand()) || photosBeingRead.has(state.seat);
}

/** The hand on screen (with its photo) becomes seat ``to``'s, and ``to``'s this seat's; the winner moves with
 * it unless the player chose the winner. Both are read again for their new seats (claimed melds' sources).
 * A photo that has just replaced this seat's hand (its Undo still offered) was the other seat's, taken with
 * this seat chosen: it goes there (replacing any hand that seat had), the hand it replaced comes back here (with
 * the winner it set, if any), and Undo brings back the table as it was before the photo. */
function moveHand(to) {
  const from = state.seat;
  const before = snapshot();
  const mistaken = undo?.replaced && undo.seat === from && undo.after === before;
  const kept = mistaken && JSON.parse(undo.before); // the table before the photo
  const replacing = kept && tileCount(kept.hands[to]) > 0; // the seat's own hand, given before: Undo brings it back
  if (kept) { // the table as it was before the photo (taken for the next deal, it was cleared), the photo's hand at `to`
    const photo = [state.hands[from], state.photos[from]];
    restoreSnapshot(kept);
    if (undo.deal) reopenDeal(undo.deal); // the deal the photo had left is the table's again
    [state.hands[to], state.photos[to]] = photo;
  } else {
    [state.hands[from], state.hands[to]] = [state.hands[to], state.hands[from]];
    [state.photos[from], state.photos[to]] = [state.photos[to], state.photos[from]];
  }
  for (const photo of kept ? [state.photos[to]] : [state.photos[from], state.photos[to]]) if (photo) photo.readWith = null;
  // a meld claimed from the seat that now holds it: its source is no longer known (the player says it again)
  for (const seat of [from, to]) for (const meld of state.hands[seat].melds) if (meld.from === seat) meld.from = null;
  state.seat = to;
  saveSettings();
  // the winner a reading set follows its hand; the hand brought back was read first, so it keeps the winner it set
  if (!kept && !state.winnerChosen && [from, to].includes(state.winner)) setWinner(state.winner === from ? to : from);
  if (kept) offerUndo(undo.before, () => t(replacing ? "moved_back_replacing" : "moved_back", { from: seatLabel(from), to: seatLabel(to) }), from);
  else offerUndo(before, () => t("moved", { from: seatLabel(from), to: seatLabel(to) }), from);
  render();
  regroup();
}

function renderHand() {
  const h = hand();
  $("hand-title").textContent = t("hand_of", { seat: seatLabel(state.seat) });
  renderMoveHand();
  const groups = $("groups");
  groups.replaceChildren();
  const addGroup = (gid, title, extraClass = "", header = null) => {
    const box = document.createElement("div");
    box.className = `group ${extraClass}`;
    box.dataset.group = gid;
    if (gid === "win") { // the winner's winning tile, not yet marked: what the score waits for, ringed as a fact is
      box.id = "win-group";
      box.classList.toggle("missing", state.winner === state.seat && winTileUnmarked() && tileCount(h) > 0);
      box.dataset.needed = t("needed_tile"); // a tile to mark, not a field to fill
    }
    const label = header || document.createElement("h3");
    if (!header) label.textContent = title;
    const tiles = document.createElement("div");
    tiles.className = "tiles";
    groupTiles(h, gid).forEach((tile, index) => {
      const photoTile = tile.det !== null ? state.photos[state.seat]?.tiles[tile.det] : null;
      const doubtful = photoTile && photoTile.confidence < DOUBTFUL;
      const button = tileButton(tile.code, state.lang, { extra: doubtful ? "doubtful" : "", title: doubtful ? t("doubtful") : "" });
      button.dataset.slot = `${gid}/${index}`;
      button.addEventListener("click", () => openTileEditor(gid, index, [`[data-slot="${gid}/${index}"]`, `[data-group="${gid}"] .tile`, "#groups .tile"]));
      tiles.append(button);
    });
    if (gid !== "win") {
      const add = document.createElement("button");
      add.type = "button";
      add.className = "tile add";
      add.textContent = "+";
      add.setAttribute("aria-label", t("add_to", { group: title }));
      add.addEventListener("click", () => openTileAdder(gid, title, null, [`[data-group="${gid}"] .tile.add`]));
      tiles.append(add);
    } else if (!h.win) {
      const empty = document.createElement("p");
      empty.className = "hint";
      const other = state.winner !== null && state.winner !== state.seat;
      empty.textContent = state.winner === null && state.winnerChosen ? t("no_win_drawn")
        : other ? t("won_by_other", { winner: seatLabel(state.winner) }) : t("no_win_tile");
      tiles.append(empty);
    }
    box.append(label, tiles);
    groups.append(box);
  };
  addGroup("concealed", t("concealed"), "concealed");
  addGroup("win", t("win_tile"), "win");
  h.melds.forEach((meld, i) => {
    const header = document.createElement("button");
    header.type = "button";
    header.className = "meld-kind";
    header.dataset.meld = i;
    header.textContent = t(`kind_${meld.kind}`) + (meld.from !== null && MELD_KINDS[meld.kind].claimed ? ` ← ${seatLabel(meld.from)}` : "");
    header.setAttribute("aria-label", t("edit_meld", { n: i + 1, kind: t(`kind_${meld.kind}`) }));
    header.addEventListener("click", () => openMeldEditor(i));
    addGroup(`meld:${i}`, t("meld_n", { n: i + 1 }), "meld", header);
  });
  addGroup("flowers", t("flowers"), "flowers");
}

// How a photo is shown, not part of the table (a change of view neither withdraws Undo nor is undone by it):
const photosShownWhole = new WeakSet(); // the photos shown whole, not from where the hand lies (`handRegion`)
const picturesLost = new Set(); // the photo addresses that showed no picture (a capture gone with a server restart)

function renderOverlay() {
  const photo = state.photos[state.seat];
  $("photo").hidden = !photo;
  if (!photo) return;
  const img = $("photo-img");
  img.hidden = !photo.url || picturesLost.has(photo.url); // not kept over a reload when it did not fit: the boxes alone
  // a camera capture no longer on the server (it restarted): the boxes alone too, not a broken picture
  img.onerror = () => {
    if (img.getAttribute("src") !== photo.url) return;
    picturesLost.add(photo.url);
    img.hidden = true;
  };
  if (photo.url && !picturesLost.has(photo.url) && img.getAttribute("src") !== photo.url) img.src = photo.url;
  img.alt = t("photo_alt", { seat: seatLabel(state.seat) });
  const part = handRegion(photo);
  const [vx, vy, vw, vh] = photosShownWhole.has(photo) || !part ? [0, 0, photo.width, photo.height] : part;
  $("photo-view").hidden = !part;
  $("photo-view").textContent = t(photosShownWhole.has(photo) ? "show_hand_part" : "show_whole_photo");
  const wrap = $("photo-wrap");
  wrap.style.aspectRatio = `${vw} / ${vh}`;
  wrap.classList.toggle("zoomed", vw < photo.width || vh < photo.height);
  img.style.width = `${(100 * photo.width) / vw}%`;
  img.style.transform = `translate(${(-100 * vx) / photo.width}%, ${(-100 * vy) / photo.height}%)`;
  const svg = $("overlay");
  svg.setAttribute("viewBox", `${vx} ${vy} ${vw} ${vh}`);
  svg.setAttribute("aria-label", t("overlay_label", { n: photo.tiles.length }));
  svg.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  const stroke = Math.max(2, Math.max(photo.width, photo.height) / 400);
  const open = (i) => {
    const linked = locate(hand(), i);
    const focusAfter = [`#overlay g[data-index="${i}"]`];
    if (linked) openTileEditor(linked.gid, linked.index, focusAfter);
    else openTileAdder("concealed", t("concealed"), i, focusAfter);
  };
  const inView = ({ box: [x1, y1, x2, y2] }) => x2 > vx && x1 < vx + vw && y2 > vy && y1 < vy + vh;
  const order = readingOrder(photo.tiles).filter((i) => inView(photo.tiles[i])); // the boxes cut out: not drawn
  if (!order.includes(overlayStop)) overlayStop = order[0];
  for (const i of order) {
    const d = photo.tiles[i];
    const linked = locate(hand(), i);
    const code = linked ? linked.tile.code : (photo.codes[i] ?? d.tile);
    const [x1, y1, x2, y2] = d.box;
    const g = document.createElementNS(ns, "g");
    const classes = ["box"];
    if (d.tile === "back") classes.push("back");
    if (d.confidence < DOUBTFUL) classes.push("doubtful");
    if (!linked) classes.push("unused");
    if (linked && code !== d.tile) classes.push("corrected");
    g.setAttribute("class", classes.join(" "));
    g.dataset.index = i;
    g.dataset.code = code;
    g.setAttribute("tabindex", i === overlayStop ? "0" : "-1"); // one Tab stop; the arrow keys move between boxes
    g.setAttribute("role", "button");
    const name = code === "back" ? t("face_down") : tileName(code, state.lang);
    g.setAttribute("aria-label", `${name} ${Math.round(d.confidence * 100)}%`);
    const rect = document.createElementNS(ns, "rect");
    Object.entries({ x: x1, y: y1, width: x2 - x1, height: y2 - y1, rx: stroke, "stroke-width": stroke }).forEach(([k, v]) => rect.setAttribute(k, v));
    const label = document.createElementNS(ns, "text");
    const size = Math.max(12, Math.min(x2 - x1, y2 - y1) * 0.42);
    label.textContent = code === "back" ? "▮" : tileLabel(code, state.lang);
    const wide = [...label.textContent].reduce((w, c) => w + (c >= "\u2e80" ? 1.05 : 0.85), 0) * size; // bold: a CJK one an em
    const past = x1 + wide > vx + vw; // would run out of the picture: it ends at the box's end instead
    label.setAttribute("x", past ? x2 - stroke : x1 + stroke);
    label.setAttribute("text-anchor", past ? "end" : "start");
    label.setAttribute("y", y1 - stroke);
    label.setAttribute("font-size", size);
    const title = document.createElementNS(ns, "title");
    title.textContent = `${name} · ${Math.round(d.confidence * 100)}%`;
    g.append(title, rect, label);
    g.addEventListener("click", (event) => open(boxAt(svg, photo.tiles, event) ?? i));
    g.addEventListener("focus", () => {
      svg.querySelector('g[tabindex="0"]')?.setAttribute("tabindex", "-1");
      g.setAttribute("tabindex", "0");
      overlayStop = i;
    });
    g.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        open(i);
      } else if (step) {
        event.preventDefault();
        const next = order[(order.indexOf(i) + step + order.length) % order.length];
        svg.querySelector(`g[data-index="${next}"]`).focus();
      }
    });
    svg.append(g);
  }
}

let overlayStop = null; // the detection whose box is the photo's one Tab stop (the last one focused)

/** The part of the photo the hand lies in, [x, y, width, height], shown unless the player asks for the whole photo
 * (`photosShownWhole`): the boxes of the hand's tiles (all boxes when fewer than three are in it), with room around them
 * (a tile's length, more above for the names), when that is under 0.9 of the photo either way (a hand small in the
 * frame, or other tiles on the table around it: the hand is shown larger, its boxes larger to tap); else null. */
function handRegion(photo) {
  const held = photo.tiles.filter((_, i) => locate(hand(), i));
  const tiles = held.length >= 3 ? held : photo.tiles;
  if (!tiles.length) return null;
  const sides = tiles.map(({ box: [x1, y1, x2, y2] }) => Math.max(x2 - x1, y2 - y1)).sort((a, b) => a - b);
  const room = sides[sides.length >> 1];
  let x1 = Math.max(0, Math.min(...tiles.map(({ box }) => box[0])) - room);
  const y1 = Math.max(0, Math.min(...tiles.map(({ box }) => box[1])) - 1.5 * room);
  let x2 = Math.min(photo.width, Math.max(...tiles.map(({ box }) => box[2])) + room);
  const y2 = Math.min(photo.height, Math.max(...tiles.map(({ box }) => box[3])) + room);
  const wide = (y2 - y1) / MAX_SHOWN_TALL; // a row running down a turned photo: widened, not a screen-tall strip
  if (x2 - x1 < wide) [x1, x2] = [Math.max(0, (x1 + x2 - wide) / 2), Math.min(photo.width, (x1 + x2 + wide) / 2)];
  return x2 - x1 < 0.9 * photo.width || y2 - y1 < 0.9 * photo.height ? [x1, y1, x2 - x1, y2 - y1] : null;
}

const MAX_SHOWN_TALL = 1.2; // the part of a photo shown is at most this many times as tall as wide

/** Box indices in reading order (Tab follows it): rows from the top, each from the left, rows slanted as the
 * photo's are (`rowFrame`); a box joins a row when its centre lies within half a typical box height of the
 * row's first. */
const readingOrder = (tiles) => readingRows(tiles).flat();

function readingRows(tiles) {
  const [along, across] = rowFrame(tiles);
  const heights = tiles.map(({ box }) => box[3] - box[1]).sort((a, b) => a - b);
  const half = (heights[heights.length >> 1] ?? 0) / 2;
  const rows = [];
  for (const i of tiles.map((_, i) => i).sort((a, b) => across(a) - across(b))) {
    const row = rows.at(-1);
    if (row && across(i) - across(row[0]) < half) row.push(i);
    else rows.push([i]);
  }
  return rows.map((row) => row.sort((a, b) => along(a) - along(b)));
}

/** Where each box lies along the photo's rows and across them: the rows run the way the boxes' centres spread
 * most (a hand photographed at a slant) when that is within ROW_SLANT degrees of level, else level. */
function rowFrame(tiles) {
  const x = tiles.map(({ box }) => (box[0] + box[2]) / 2);
  const y = tiles.map(({ box }) => (box[1] + box[3]) / 2);
  const mean = (v) => v.reduce((a, b) => a + b, 0) / Math.max(v.length, 1);
  const [mx, my] = [mean(x), mean(y)];
  const sxx = mean(x.map((v) => (v - mx) ** 2)), syy = mean(y.map((v) => (v - my) ** 2));
  const sxy = mean(x.map((v, i) => (v - mx) * (y[i] - my)));
  let slant = Math.atan2(2 * sxy, sxx - syy) / 2;
  if (Math.abs(slant) > (ROW_SLANT * Math.PI) / 180) slant = 0;
  const [c, s] = [Math.cos(slant), Math.sin(slant)];
  return [(i) => x[i] * c + y[i] * s, (i) => y[i] * c - x[i] * s];
}

/** The smallest box under a tap: where boxes overlap (a tile lying on another), the one that is not covered. */
function boxAt(svg, tiles, event) {
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  let best = null;
  let bestArea = Infinity;
  tiles.forEach(({ box: [x1, y1, x2, y2] }, i) => {
    const area = (x2 - x1) * (y2 - y1);
    if (point.x >= x1 && point.x <= x2 && point.y >= y1 && point.y <= y2 && area < bestArea) [best, bestArea] = [i, area];
  });
  return best;
}

function renderReaderNotes() {
  const photo = state.photos[state.seat];
  const suggestions = photo?.suggestions || [];
  $("suggestions").hidden = !suggestions.length;
  const list = $("suggestion-list");
  list.replaceChildren();
  suggestions.forEach((s) => {
    const item = document.createElement("li");
    const text = document.createElement("span");
    text.textContent = suggestionText(s) + t("paren", { text: `${Math.round(s.probability * 100)}%` });
    const accept = document.createElement("button");
    accept.type = "button";
    accept.className = "button small primary";
    accept.textContent = t("accept");
    accept.addEventListener("click", () => acceptSuggestion(s));
    item.append(text, " ", accept);
    list.append(item);
  });
  const problems = photo?.problems || [];
  $("problems").hidden = !problems.length;
  $("problems-hint").textContent = t(suggestions.length ? "problems_hint_suggested" : "problems_hint"); // what to do
  $("problem-list").replaceChildren(...problems.map((text, i) => problemItem(text, photo.problemsZh?.[i])));
  const needs = photo?.needs || [];
  $("needs").hidden = !needs.length;
  $("need-list").replaceChildren(
    ...needs.map((need) => {
      const item = document.createElement("li");
      const given = factGiven(need.key, state.seat);
      item.textContent = `${given ? "✓ " : ""}${(state.lang === "zh" && needInChinese(need, region().indicator, region().flag_names)) || namedTiles(need.question)}`;
      item.classList.toggle("required", need.required);
      item.classList.toggle("given", given);
      return item;
    }),
  );
}

/** One of the reader's problems in the page's language: in Chinese, the server's translation (``problems_zh``),
 * or the English line labelled as such when it has none. */
function problemItem(text, zh) {
  const item = document.createElement("li");
  if (state.lang !== "zh") Object.assign(item, { lang: "en", textContent: capitalised(namedTiles(text)) });
  else if (zh) Object.assign(item, { lang: "zh-Hans", textContent: zh });
  else {
    item.append(t("in_english"));
    item.append(Object.assign(document.createElement("span"), { lang: "en", textContent: text }));
  }
  return item;
}

/** A line begun with a capital, as the page's other sentences are ("No tile is set apart …"). */
const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The reader's or scorer's English line with each tile code standing alone named as the page names it ("tiles
 * 3p 5z fit no group" → "tiles 3 Dots White fit no group"), and each quoted run of tiles tile by tile ("'2p3p4p'
 * is not a pung" → "2 Dots, 3 Dots, 4 Dots is not a pung"), and a run in brackets so too ("meld 1 (111m)"); other
 * compact strings such as 1234f stay. */
function namedTiles(text) {
  const named = (codes) => codes.map((code) => tileName(code, "en")).join(", ");
  return text
    .replace(/\(((?:[1-9]+[mps]|[1-7]+z|[1-8]+f)+)\)/g, (_, run) => `(${named(codesOf(run))})`) // "Is meld 1 (111m) …"
    .replace(/'((?:[1-9]+[mps]|[1-7]+z|[1-8]+f)+)'|\b([1-9][mps]|[1-7]z|[1-8]f)\b/g, (_, run, code) => named(run ? codesOf(run) : [code]));
}

/** A suggestion in the page's language, from its changes, each tile named with its place in the photo:
 * "三筒 (row 1, tile 4 from the left) → 五筒, remove 八萬 (…)", and the tiles it adds: "add 三萬". */
function suggestionText(s) {
  const photo = state.photos[state.seat];
  const rows = readingRows(photo.tiles);
  const changed = s.changes.map((c) => {
    const row = rows.findIndex((r) => r.includes(c.index));
    const place = t(rows.length > 1 ? "box_in_row" : "box_place", { row: row + 1, n: rows[row].indexOf(c.index) + 1 });
    const from = `${tileName(photo.codes[c.index] ?? photo.tiles[c.index].tile, state.lang)}${place}`;
    return c.tile ? `${from} → ${tileName(c.tile, state.lang)}` : t("drop_tile", { tile: from });
  });
  const added = (s.added || []).map((code) => t("add_tile", { tile: tileName(code, state.lang) }));
  return [...changed, ...added].join(t("list_sep"));
}

/** Take the reader's corrected hand: the changed detections read as suggested, dropped ones left out, added
 * tiles in the concealed part. The hand it replaces can be brought back (Undo). */
function acceptSuggestion(s) {
  const before = snapshot();
  const photo = state.photos[state.seat];
  for (const change of s.changes) photo.codes[change.index] = change.tile;
  const h = handFromReading({ ...s.hand, win_tile: s.win_tile, groups: photo.groups }, photo.codes);
  for (const code of s.added || []) { // a tile the photo did not show: the player's own, kept when the photo is read again
    const tile = h.concealed.find((tile) => tile.det === null && tile.code === code && !tile.placed);
    if (tile) tile.placed = true;
  }
  state.hands[state.seat] = h;
  clearReaderNotes(photo);
  claimWinner(state.seat);
  offerUndo(before, () => t("suggestion_taken"));
  render();
  $("hand-title").focus(); // the suggestion's button is gone: the keyboard goes to the hand it made
}

/** The field of each fact `missingFacts` may name: marked while the score waits for it. */
const FACT_FIELDS = { "win.by": "win-by", "win.from": "from-field", dealer: "dealer-field", indicator: "indicator-field" };

function renderWinFields() {
  const winner = $("winner");
  winner.replaceChildren(
    ...[0, 1, 2, 3].map((seat) => new Option(seatLabel(seat), seat, false, seat === state.winner)),
    new Option(t("no_winner"), "none", false, state.winner === null),
  );
  const won = state.winner !== null;
  $("win-by").hidden = !won;
  document.querySelectorAll('input[name="by"]').forEach((radio) => {
    radio.checked = radio.value === state.by;
  });
  const others = [0, 1, 2, 3].filter((seat) => seat !== state.winner);
  $("from").replaceChildren(new Option("—", "", false, state.from === null), ...others.map((seat) => new Option(seatLabel(seat), seat, false, seat === state.from)));
  $("from-field").hidden = !won || state.by === null || state.by === "self_draw";
  const missing = state.hands.some(tileCount) ? missingFacts() : []; // once there is a hand: what the score waits for
  for (const [key, field] of Object.entries(FACT_FIELDS)) {
    $(field).classList.toggle("missing", missing.includes(key));
    $(field).dataset.needed = t("needed_mark");
  }
  $("dealer").replaceChildren(new Option("—", "", false, state.dealer === null), ...[0, 1, 2, 3].map((seat) => new Option(seatLabel(seat), seat, false, seat === state.dealer)));
  const next = nextDealer();
  $("next-dealer").hidden = !next;
  if (next) {
    const streak = region().reads_streak ? t("next_streak", { n: next.streak }) : "";
    $("next-dealer").textContent = t("next_dealer", { seat: seatLabel(next.seat), streak, why: next.why });
  }
  $("streak-field").hidden = !region().reads_streak;
  if ($("streak-problem").hidden) $("streak").value = state.streak; // a value refused stays shown beside its note
  const info = region();
  $("indicator-field").hidden = !info.indicator;
  $("indicator-label").textContent = t("indicator", { name: info.indicator || "" });
  const indicator = state.indicator ? tileButton(state.indicator, state.lang) : state.indicatorSaid ? t("none") : "—";
  if (state.indicator) indicator.addEventListener("click", openIndicatorPicker);
  $("indicator-tile").replaceChildren(indicator);
  for (const flag of info.flags) { // an event the facts given rule out is not offered (nor sent)
    const input = $(`flag-${flag}`);
    const problem = flagProblem(flag);
    input.disabled = !!problem;
    input.checked = !problem && state.flags.includes(flag);
    // after the event's name: in English a space between, in Chinese none ("杠上开花（仅限自摸）")
    $(`flag-${flag}-note`).textContent = !problem ? "" : state.lang === "zh" ? problem : ` ${problem}`;
  }
}

/** Rules-dependent fields: flags, context facts and options; rebuilt when the rules change. */
function renderRegionFields() {
  const info = region();
  const flags = $("flags");
  flags.replaceChildren(flags.querySelector("legend"));
  flags.hidden = !info.flags.length;
  for (const flag of info.flags) {
    const field = checkbox(`flag-${flag}`, eventName(flag), state.flags.includes(flag), (on) => {
      state.flags = on ? [...state.flags, flag] : state.flags.filter((f) => f !== flag);
      render();
    });
    field.lastChild.append(Object.assign(document.createElement("small"), { id: `flag-${flag}-note` }));
    flags.append(field);
  }
  const context = $("context-fields");
  context.replaceChildren(context.querySelector("legend"));
  context.hidden = !info.context.length;
  for (const name of info.context) {
    const spec = CONTEXT_FIELDS[name];
    if (!spec) continue;
    const facts = document.createElement("div");
    facts.className = "sub-checks";
    const toggle = checkbox(`context-${name}`, spec.label[state.lang], !!state.context[name], (on) => {
      state.context[name] = on ? Object.fromEntries(spec.facts.map(([key]) => [key, false])) : undefined;
      renderRegionFields();
      render();
      $(`context-${name}`).focus(); // drawn anew: keep the keyboard on the switch
    });
    context.append(toggle, facts);
    if (!state.context[name]) continue;
    for (const [key, label] of spec.facts) {
      facts.append(checkbox(`context-${name}-${key}`, label[state.lang], state.context[name][key], (on) => {
        state.context[name][key] = on;
        updateScore();
      }));
    }
  }
  const options = $("options");
  options.replaceChildren();
  const values = (state.options[state.rules] ||= {});
  for (const option of info.options) {
    const description = state.lang === "zh" ? option.description_zh : option.description;
    const value = values[option.name] ?? option.default;
    const problem = Object.assign(document.createElement("small"), { id: `option-${option.name}-problem`, className: "error" });
    const showProblem = (input) => {
      problem.textContent = state.optionProblems[option.name] ?? "";
      problem.hidden = !problem.textContent;
      input.setAttribute("aria-invalid", String(!problem.hidden));
    };
    const set = (input, v) => {
      const bad = optionProblem(option, v);
      if (bad) state.optionProblems[option.name] = bad; // shown at the field, not kept: photos are read with the value before
      else {
        delete state.optionProblems[option.name];
        values[option.name] = v;
        saveSettings();
        render();
        regroup();
      }
      showProblem(input);
    };
    let field;
    let input;
    if (option.type === "bool") {
      field = checkbox(`option-${option.name}`, description, value, (on) => set(input, on));
      input = field.querySelector("input");
    } else {
      field = document.createElement("label");
      field.className = "option";
      field.append(Object.assign(document.createElement("span"), { textContent: description }));
      if (option.type === "choice") {
        input = document.createElement("select");
        option.allowed.forEach((a, i) => {
          const name = option.allowed_names?.[i]?.[state.lang === "zh" ? 1 : 0] ?? String(a); // named for players
          input.append(new Option(name, JSON.stringify(a), false, a === value));
        });
        input.addEventListener("change", () => set(input, JSON.parse(input.value)));
      } else if (option.type === "int") {
        input = document.createElement("input");
        Object.assign(input, { type: "number", min: option.minimum ?? 0, max: intMaximum(option), step: 1, value, inputMode: "numeric" });
        input.addEventListener("change", () => set(input, input.value.trim() === "" ? null : Number(input.value)));
      } else {
        input = document.createElement("input"); // flower_groups: two tile strings
        Object.assign(input, { type: "text", value: value.join(" "), spellcheck: false, autocapitalize: "off" });
        input.addEventListener("change", () => set(input, input.value.trim().split(/[\s,]+/)));
      }
      input.id = `option-${option.name}`;
      field.append(input);
    }
    input.setAttribute("aria-describedby", problem.id);
    showProblem(input);
    field.append(problem);
    options.append(field);
  }
  if (Object.keys(state.optionProblems).length) $("options-box").open = true;
}

/** What is wrong with a value of a table option, in the page's language (the scorer's checks), or null. */
function optionProblem(option, value) {
  const valid = {
    bool: () => typeof value === "boolean",
    int: () => Number.isInteger(value) && value >= (option.minimum ?? 0) && value <= intMaximum(option),
    choice: () => option.allowed.includes(value),
    flower_groups: () => {
      const groups = Array.isArray(value) && value.length === 2 ? value.map((v) => (typeof v === "string" ? parseTiles(v) : null)) : [];
      return groups.length === 2 && groups.every((g) => g?.length === 4 && g.every((code) => code.endsWith("f"))) && new Set(groups.flat()).size === 8;
    },
  }[option.type];
  if (!valid || valid()) return null;
  if (option.type === "int") return t("bad_int", { low: option.minimum ?? 0, high: intMaximum(option).toLocaleString(state.lang) });
  return option.type === "flower_groups" ? t("bad_flower_groups") : t("bad_option");
}

/** The largest value of an integer option: its own maximum, or the largest a page can send exactly. */
const intMaximum = (option) => option.maximum ?? Number.MAX_SAFE_INTEGER;

/** Options kept on this device that these rules no longer take (or never did) are dropped, named at the field. */
function dropInvalidOptions() {
  for (const [rules, values] of Object.entries(state.options)) {
    const known = state.regions[rules]?.options ?? [];
    for (const [name, value] of Object.entries(values)) {
      const option = known.find((o) => o.name === name);
      const problem = option ? optionProblem(option, value) : t("bad_option");
      if (!problem) continue;
      delete values[name];
      if (rules === state.rules && option) state.optionProblems[name] = problem;
    }
  }
  saveSettings();
}

function checkbox(id, text, checked, onChange) {
  const label = document.createElement("label");
  const input = document.createElement("input");
  Object.assign(input, { type: "checkbox", id, checked });
  input.addEventListener("change", () => onChange(input.checked));
  label.append(input, " ", Object.assign(document.createElement("span"), { textContent: text }));
  return label;
}

function escapeHtml(text) {
  const div = document.createElement("div");
  div.textContent = text;
  return div.innerHTML;
}

function renderScore(result) {
  const info = region();
  // the win, and on a discard or a robbed kong whose it was: "discard from Seat 2 · West", "点炮（2号位 · 西）"
  const whose = state.by !== "self_draw" && state.from !== null;
  const how = state.winner === null ? t("no_winner") : t("field", { label: t("winner"), value: seatLabel(state.winner) }) + t("clause_sep")
    + (whose ? t("by_from", { by: t(state.by), seat: seatLabel(state.from) }) : t(state.by));
  const dealer = state.dealer === null ? "" : ` · ${t("field", { label: t("dealer"), value: seatLabel(state.dealer) })}`;
  const rules = state.lang === "zh" ? `${info.name_zh}麻将` : `${info.name} ${info.name_zh}`; // as the Rules menu: 温岭麻将 on the Chinese page
  $("print-summary").textContent = `${rules}${dealer} · ${how}`;
  $("score-error").hidden = true;
  $("score-needed").hidden = true;
  $("score-body").hidden = false;
  $("thumb-score").classList.remove("alert");
  $("thumb-score").removeAttribute("aria-label");
  $("thumb-score").setAttribute("href", "#score");
  showRefusalAtHand("");
  renderBlankSeats();
  // an indicator the rules do not ask for (Baicheng's 宝, often not turned up yet) and not given: said to be left out
  // (not on a drawn hand: nothing is won with it)
  const assumed = info.indicator && !info.asks.includes("indicator") && state.indicator === null && !state.indicatorSaid && state.winner !== null;
  $("score-assumed").hidden = !assumed;
  $("score-assumed").textContent = assumed ? t("scored_without_indicator", { name: info.indicator }) : "";
  // Wenling's 包三家 facts ticked: whether they come to it, and who pays then (in Chinese the discarder named in
  // the line: "包三家：放炮者2号位 · 西为被包方，代付三家"; in English after it: "… for everyone (Seat 2 · West)")
  const bao = result.bao && (result.bao.payer === null ? (state.lang === "zh" ? result.bao.note_zh : result.bao.note)
    : state.lang === "zh" ? result.bao.note_zh.replace("放炮者", `放炮者${seatLabel(result.bao.payer)}`)
      : result.bao.note + t("paren", { text: seatLabel(result.bao.payer) }));
  $("score-bao").hidden = !bao;
  $("score-bao").textContent = bao || "";
  const sign = (v) => (v > 0 ? `+${v}` : String(v));
  const net = $("net-table");
  net.innerHTML = `<caption>${t("net_caption", { unit: result.unit || "" })}</caption>`;
  const head = net.insertRow();
  const row = net.insertRow();
  head.insertCell().outerHTML = `<th scope="col">${t("seat")}</th>`;
  row.insertCell().outerHTML = `<th scope="row">${t("net")}</th>`;
  result.net.forEach((value, seat) => {
    head.insertCell().outerHTML = `<th scope="col" class="seat">${seatHtml(seat)}</th>`;
    const cell = row.insertCell();
    cell.textContent = sign(value);
    cell.className = value > 0 ? "gain" : value < 0 ? "loss" : "";
    cell.id = `net-${seat}`;
  });
  const seats = $("seat-scores");
  seats.replaceChildren();
  for (const player of result.players) {
    if (!player.items.length && !player.total) continue;
    const box = document.createElement("section");
    box.className = "seat-score";
    box.id = `seat-score-${player.seat}`;
    // where only the winner is scored, a payer's items say what its payment is made of (Baicheng: the base
    // and its 番): no total of 0
    const payer = !info.scores_non_winners && !player.total && player.seat !== result.winner;
    const total = `<span class="total">${player.total}</span>`;
    // Daishan's winner: the total is what one payer pays (`total_from`), not what the seat gains
    box.innerHTML = `<h3>${escapeHtml(seatLabel(player.seat))} — ${payer ? t("pays_by")
      : player.total_from ? t(`total_from_${player.total_from}`, { n: total, unit: player.unit ?? "" })
        : `${t("total")} ${total} ${player.unit ?? ""}`}</h3>`;
    if (player.seat === result.winner && result.reading?.length) box.append(readingView(result.reading));
    const table = document.createElement("table");
    table.className = "items";
    for (const item of player.items) {
      const tr = table.insertRow();
      tr.insertCell().innerHTML = `<details><summary>${itemNames(item)}</summary><p lang="zh">${escapeHtml(item.citation ?? "")}</p></details>`;
      tr.insertCell().textContent = `${item.value} ${item.unit ?? ""}`;
    }
    box.append(table);
    if (player.formula) box.insertAdjacentHTML("beforeend", `<p class="formula">${t("worked_out", { formula: `<span>${formulaHtml(player.formula)}</span>` })}</p>`);
    seats.append(box);
  }
  const payments = $("payments");
  payments.innerHTML = `<tr><th scope="col">${t("pays")}</th><th scope="col">${t("to")}</th><th scope="col">${t("amount")}</th><th scope="col">${t("why")}</th></tr>`;
  for (const p of result.payments) {
    const tr = payments.insertRow();
    const why = state.lang === "zh" ? p.reason : p.reason_en ?? p.reason; // the rule terms in Chinese, else English
    for (const seat of [p.from, p.to]) Object.assign(tr.insertCell(), { className: "seat", innerHTML: seatHtml(seat) });
    tr.insertCell().textContent = p.amount;
    tr.insertCell().innerHTML = formulaHtml(why ?? ""); // powers raised, as in the formula
  }
  if (!result.payments.length) payments.insertRow().insertCell().textContent = t("no_payments");
  // a table still to a screen reader where a phone lays its rows out on two lines (a grid: WebKit drops the roles)
  payments.setAttribute("role", "table");
  for (const row of payments.rows) {
    row.setAttribute("role", "row");
    for (const cell of row.cells) cell.setAttribute("role", cell.tagName === "TH" ? "columnheader" : "cell");
  }
  $("thumb-score").textContent = `${t("score")} ${sign(result.net[state.seat])}`;
}

/** Under rules that score every hand, the seats but the winner's with no hand given, named above the score:
 * they are scored from their melds and flowers only, and the settlement is not complete without them; under
 * rules whose payments read every seat's melds, the seats with nothing given (`seatsNotGiven`). */
function renderBlankSeats() {
  // a drawn hand pays nothing (「流局」), whatever the blank seats hold (Baicheng's kongs are paid on a draw too)
  const scoresAll = region().scores_non_winners;
  const blank = scoresAll ? (state.winner !== null ? blankSeats().filter((seat) => seat !== state.winner) : []) : seatsNotGiven();
  const key = `${scoresAll ? "blank" : "melds_not_given"}_${blank.length === 1 ? "seat" : "seats"}`;
  $("score-blank").hidden = !blank.length;
  $("score-blank").textContent = t(key, { seats: listOf(blank.map(seatName)) });
}

/** An item's names and the rule's own term where it says more: what a tap on them opens the rule's text under.
 * In English the English name (its tiles in it) and the Chinese beside; in Chinese the Chinese name alone with
 * what it is for (``detail_zh``: its tiles drawn small, or words in brackets), and the rule's term only where
 * the name does not hold it once spaces, quotes, brackets and colons are set aside (无“得” holds 无得), its
 * brackets Chinese (平和（1花）). */
function itemNames(item) {
  const zh = state.lang === "zh";
  const bare = (text) => (text ?? "").replace(/[\s“”"「」()（）:：]/g, ""); // 无“得” holds 无得, on either page
  const term = zh ? (item.rule ?? "").replace(/\s*\(([^()]*)\)/g, "（$1）") : item.rule;
  const rule = item.rule && !bare(item.name_zh).includes(bare(item.rule)) ? ` <small class="rule">${escapeHtml(term)}</small>` : "";
  if (!zh) return `<span>${withTiles(item.name ?? "")}</span> <small>${withTiles(item.name_zh ?? "")}</small>${rule}`;
  const detail = item.detail_zh ?? "";
  const shown = !detail ? "" : TILE_RUN.test(detail) ? ` ${withTiles(detail)}` : escapeHtml(t("paren", { text: detail }));
  return `<span>${escapeHtml(item.name_zh ?? "")}${shown}</span>${rule}`;
}

const TILE_RUN = /^(?:[1-9]+[mps]|[1-7]+z|[1-8]+f)+$/; // a detail that is tiles alone ("999p", "1234z")

/** Text as HTML, each run of tile codes in it ("exposed kong: 7777z", "flowers: 5577z8f") drawn as small tiles. */
function withTiles(text) {
  return escapeHtml(text).replace(/\b(?:[1-9]+[mps]|[1-7]+z|[1-8]+f)+\b/g, (run) => setView({ tiles: run }).outerHTML);
}

/** A formula's English words as the Chinese page says them (the scorer's formulas and payment reasons). */
const FORMULA_ZH = [
  [/(\d+) from P([0-3])\b ?/g, "$1（P$2付）"], // "70 from P3 + 71 from P0" → "70（P3付）+ 71（P0付）"
  [/the winner's 番 F = (\d+)/g, "和牌者 $1 番"], // Baicheng's: "the winner's 番 F = 3; … 2^(F + 庄 …)"
  [/\bF\b/g, "番数"],
  [/; each payer pays /g, "；每家付 "],
  [/; each of the three pays it/g, "；三家各付"],
  [/; the discarder pays it/g, "；放炮者付"],
  [/; the robbed player pays it 3 times/g, "；被抢杠者付三倍"],
  [/\(([\d.]+) if the dealer is involved, else ([\d.]+)\)/g, "（和庄有关 $1，否则 $2）"],
  [/ \(包三家\)/g, "（包三家）"], // Wenling's 被包方 total: "… → 0 (包三家)"
  [/^腊子: the limit, (\d+)$/g, "腊子和为满贯 = $1"], // Wenling's 腊子
  [/\bdi\b/g, "底"],
  [/\bterms\b/g, "各项"],
];

/** A seat's formula or a payment's reason as the scorer writes it, as HTML: powers raised (a power of several
 * terms keeps its brackets, so that wrapped on a narrow screen it still reads as one power), seats named as on
 * the page (a player's name, `seatName`), tile codes drawn as small tiles ("(0 + 20) × 2^3", "9 from P2", "明杠 1111s" → "(0 + 20) × 2³",
 * "9 from Seat 2", "明杠 🀙🀙🀙🀙"), in Chinese on the Chinese page. */
function formulaHtml(formula) {
  const text = (state.lang === "zh" ? FORMULA_ZH.reduce((out, [pattern, zh]) => out.replace(pattern, zh), formula) : formula)
    .replace(/([A-Za-z\u2e80-\u9fff]) (\d)/g, "$1\u00a0$2").replace(/(\d) ([番底分元])/g, "$1\u00a0$2"); // "dealer 1", "4 番" whole
  return withTiles(text.replace(/\bP([0-3])\b/g, (_, n) => seatName(Number(n))))
    .replace(/\^(\([^)]*\)|\w+)/g, (_, power) => `<sup>${power}</sup>`);
}

/** The winner's hand as the scorer read it (`reading` of /api/score): each set as small tiles, melds shaded,
 * the winning tile ringed, a wild (the indicator standing in for another tile) starred. */
function readingView(reading) {
  const view = document.createElement("div");
  view.className = "reading";
  const wilds = reading.some((block) => block.wilds);
  const legend = t("reading_legend", { wild: wilds ? t("reading_wild", { name: region().indicator }) : "" }); // ★ only with wilds
  view.append(Object.assign(document.createElement("p"), { className: "hint", textContent: legend }));
  const sets = document.createElement("div");
  sets.className = "sets";
  sets.append(...reading.map(setView));
  view.append(sets);
  return view;
}

/** One set of a reading: its tiles drawn small (not buttons), named for a screen reader. */
function setView({ tiles, melded, wilds = "", winning_tile: winning }) {
  const set = document.createElement("span");
  set.className = melded ? "set melded" : "set";
  const codes = codesOf(tiles);
  const wild = codesOf(wilds); // the tiles of the set that wilds stand for, one each
  const won = codes.indexOf(winning);
  codes.forEach((code, i) => {
    const tile = tileImage(code);
    const wildAt = wild.indexOf(code);
    if (wildAt >= 0) wild.splice(wildAt, 1);
    tile.classList.toggle("wild", wildAt >= 0);
    tile.classList.toggle("won", i === won);
    set.append(tile);
  });
  const names = codes.map((code) => tileName(code, state.lang)).join(t("list_sep"));
  const notes = [...(melded ? [t("melded")] : []), ...(won >= 0 ? [t("field", { label: t("win_tile"), value: tileName(winning, state.lang) })] : [])];
  set.setAttribute("role", "img");
  set.setAttribute("aria-label", notes.length ? names + t("paren", { text: notes.join(t("list_sep")) }) : names);
  return set;
}

/** A tile drawn as the hand's buttons are, but no button (a picture of it, in a set or a dialog's head). */
function tileImage(code) {
  const drawn = tileButton(code, state.lang);
  const tile = document.createElement("span");
  tile.className = drawn.className;
  tile.dataset.code = code;
  tile.append(...drawn.childNodes);
  return tile;
}

// ------------------------------------------------------------------------------------------ dialogs
/** The tile palette: the ``likely`` codes first (with their probabilities), then each suit; ``allowed``: the
 * only codes offered (null: all). */
function buildPalette(onPick, likely = [], allowed = null) {
  const palette = $("palette");
  palette.replaceChildren();
  const row = (title, codes, probabilities = null) => {
    const box = document.createElement("div");
    box.className = "palette-row";
    const h = document.createElement("h3");
    h.textContent = title;
    const tiles = document.createElement("div");
    tiles.className = "tiles";
    codes.forEach((code, i) => {
      const p = probabilities ? `${Math.round(probabilities[i] * 100)}%` : "";
      const button = tileButton(code, state.lang, { title: p });
      if (p) button.insertAdjacentHTML("beforeend", `<span class="prob">${p}</span>`);
      button.addEventListener("click", () => onPick(code));
      tiles.append(button);
    });
    box.append(h, tiles);
    palette.append(box);
  };
  const seen = likely.filter(([code, p], i) => isTile(code) && (i === 0 || p >= SHOWN_ALTERNATIVE) && likely.findIndex(([other]) => other === code) === i);
  if (seen.length) row(t("likely"), seen.map(([c]) => c), seen.map(([, p]) => p));
  for (const suit of SUITS.filter((suit) => suit !== "f" || region().has_flowers)) { // Baicheng plays no flowers
    const codes = TILE_CODES.filter((code) => code[1] === suit && (!allowed || allowed.includes(code)));
    if (codes.length) row(t(`suit_${suit}`), codes);
  }
}

/** Alternatives of a detection, best first: its own reading, then the classifier's next guesses. */
function likelyOf(det) {
  const d = det !== null && det !== undefined ? state.photos[state.seat]?.tiles[det] : null;
  return d ? [[d.tile, d.confidence], ...d.alternatives] : [];
}

let focusAfterDialog = []; // selectors: the first element found gets the focus when a dialog closes

/** A dialog, modal; as it closes, the focus goes to the first of ``focusAfter`` found (the page is redrawn).
 * ``seat``: the seat whose hand it edits (closed when that hand is replaced), or null. */
function openDialog(dialog, focusAfter, seat = state.seat) {
  focusAfterDialog = focusAfter;
  dialog.dataset.seat = seat ?? "";
  dialog.showModal();
}

function setUpDialogs() {
  for (const dialog of document.querySelectorAll("dialog")) {
    dialog.addEventListener("close", () => focusAfterDialog.map((selector) => document.querySelector(selector)).find(Boolean)?.focus());
    dialog.addEventListener("click", (event) => { // a tap on the backdrop closes it
      const r = dialog.getBoundingClientRect();
      const outside = event.clientX < r.left || event.clientX > r.right || event.clientY < r.top || event.clientY > r.bottom;
      if (event.target === dialog && outside) dialog.close();
    });
  }
}

/** The dialog of one tile of the hand: another tile from the palette, winning tile, remove, move. */
function openTileEditor(gid, index, focusAfter) {
  const h = hand();
  const tile = groupTiles(h, gid)[index];
  const dialog = $("tile-dialog");
  $("tile-dialog-title").textContent = t("change_tile", { tile: tileName(tile.code, state.lang) });
  $("tile-actions").hidden = false;
  $("act-win").textContent = gid === "win" ? t("not_win") : t("mark_win");
  // a tile laid aside wins a Wenling 腊子 completed by drawing it, and stays laid aside (`aside`, `composeRecord`)
  const aside = gid === "flowers" && region().wins_on_laid_aside;
  $("act-win").hidden = !(gid === "win" || gid === "concealed" || aside);
  $("act-win").onclick = () => {
    const taken = takeTile(h, gid, index);
    if (gid === "win") putTile(h, taken.aside ? "flowers" : "concealed", taken);
    else putTile(h, "win", Object.assign(taken, { aside }));
    if (gid !== "win") claimWinner(state.seat, { marked: true });
    dialog.close();
    handEdited();
  };
  $("act-remove").onclick = () => {
    forgetDetections([takeTile(h, gid, index)]);
    dialog.close();
    handEdited();
  };
  const move = $("act-move");
  move.replaceChildren(new Option("—", ""));
  for (const target of [...groupIds(h), "new-meld"]) {
    if (target !== gid) move.append(new Option(groupTitle(h, target), target));
  }
  move.onchange = () => {
    if (!move.value) return;
    const taken = takeTile(h, gid, index);
    putTile(h, move.value, move.value === "win" ? Object.assign(taken, { aside }) : taken); // as by the Winning tile button
    dialog.close();
    handEdited();
  };
  buildPalette((code) => {
    const meld = gid.startsWith("meld:") ? h.melds[Number(gid.slice(5))] : null;
    if (meld && tile.code === "back" && meld.kind.startsWith("kong")) {
      meld.tiles.forEach((other) => other.code === "back" && (other.code = code)); // naming one names the kong
    }
    tile.code = code;
    if (meld) guessMeldKind(meld);
    dialog.close();
    handEdited();
  }, likelyOf(tile.det));
  openDialog(dialog, focusAfter);
}

/** Tiles the player removed: their boxes are no longer read into the hand (`regroup`). */
function forgetDetections(tiles) {
  const photo = state.photos[state.seat];
  for (const tile of tiles) if (photo && tile.det !== null) photo.codes[tile.det] = null;
}

function groupTitle(h, gid) {
  if (gid === "new-meld") return t("new_meld");
  if (gid.startsWith("meld:")) {
    const i = Number(gid.slice(5));
    return t("meld_n", { n: i + 1 }) + t("paren", { text: t(`kind_${h.melds[i].kind}`) });
  }
  return t({ concealed: "concealed", win: "win_tile", flowers: "flowers" }[gid]);
}

/** The palette for adding tiles to a group (stays open to add several); ``det`` links the first to a box. */
function openTileAdder(gid, title, det, focusAfter) {
  const dialog = $("tile-dialog");
  $("tile-dialog-title").textContent = t("add_to", { group: title });
  $("tile-actions").hidden = true;
  let link = det;
  const added = [];
  buildPalette((code) => {
    putTile(hand(), gid, { code, det: link });
    link = null;
    added.push(tileName(code, state.lang));
    $("tile-dialog-title").textContent = `${t("add_to", { group: title })} — ${t("added", { tiles: added.join(t("list_sep")) })}`;
    handEdited();
  }, likelyOf(det));
  openDialog(dialog, focusAfter);
}

/** An indicator the rules now chosen do not take (a 金 is a suited tile, Baicheng's 宝 no flower…) is
 * dropped, and asked for again: every photo would otherwise be refused with it (rules with no indicator
 * keep it, unsent, for the next rules that have one); it comes back when rules that take it are chosen
 * again before another is said. */
function dropRefusedIndicator() {
  if (statusLine.message === indicatorNote) setStatus(NO_STATUS);
  const kept = state.indicator;
  const name = region().indicator;
  const aside = state.indicatorAside;
  if (!kept && aside && region().indicator_tiles.includes(aside)) {
    // rules that take the indicator dropped before (a rules change and back): it comes back
    sayIndicator(aside);
    return;
  }
  if (!kept || !name || region().indicator_tiles.includes(kept)) return; // kept, unsent, where none
  Object.assign(state, { indicator: null, indicatorSaid: false, indicatorAside: kept });
  setStatus(indicatorNote = () => t("indicator_dropped", { tile: tileName(kept, state.lang), name }));
}

let indicatorNote = null; // the status line saying an indicator was dropped: cleared by the next rules change

/** The player said the indicator: ``code``, or null for none. */
function sayIndicator(code) {
  Object.assign(state, { indicator: code, indicatorSaid: true, indicatorAside: null });
}

/** "None" said for rules whose indicator is ``name`` (得) says nothing of another's (金): asked again. */
function askIndicatorAgain(name) {
  if (state.indicator === null && name !== region().indicator) state.indicatorSaid = false;
}

function openIndicatorPicker() {
  const dialog = $("tile-dialog");
  $("tile-dialog-title").textContent = t("indicator", { name: region().indicator });
  $("tile-actions").hidden = true;
  buildPalette((code) => {
    sayIndicator(code);
    dialog.close();
    render();
    regroup();
  }, [], region().indicator_tiles);
  openDialog(dialog, ["#indicator-pick"], null);
}

/** The seat that plays before ``seat`` (its 上家), the only one a chow of its can be claimed from. */
const seatBefore = (seat) => (seat + 3) % 4;

/** The seats a meld of the hand shown can be claimed from, as the meld editor's choices: a chow only from the
 * player before (`seatBefore`), or the seat it was read from until the player chooses. */
function fillMeldSources(meld) {
  const chowFrom = [seatBefore(state.seat), meld.from];
  const seats = [0, 1, 2, 3].filter((s) => s !== state.seat && (meld.kind !== "chow" || chowFrom.includes(s)));
  const from = $("meld-from");
  from.replaceChildren(new Option(t("unknown"), ""), ...seats.map((s) => new Option(seatLabel(s), s, false, s === meld.from)));
  from.disabled = !MELD_KINDS[meld.kind].claimed;
}

function openMeldEditor(i) {
  const h = hand();
  const meld = h.melds[i];
  const info = region();
  const dialog = $("meld-dialog");
  $("meld-dialog-title").textContent = t("meld_n", { n: i + 1 });
  $("meld-dialog-tiles").replaceChildren(...meld.tiles.map((tile) => tileImage(tile.code))); // the dialog covers them
  $("meld-dialog-tiles").setAttribute("aria-label", meld.tiles.map((tile) => tileName(tile.code, state.lang)).join(t("list_sep")));
  const kinds = $("meld-kinds");
  kinds.replaceChildren(kinds.querySelector("legend"));
  for (const [kind, spec] of Object.entries(MELD_KINDS)) {
    if (!info.meld_types.includes(spec.type) || (spec.flag === "bao" && !info.bao_pungs)) continue;
    const label = document.createElement("label");
    const radio = Object.assign(document.createElement("input"), { type: "radio", name: "meld-kind", value: kind, checked: kind === meld.kind });
    radio.addEventListener("change", () => {
      Object.assign(meld, { kind, auto: false, edited: true });
      if (kind === "chow" && meld.from !== seatBefore(state.seat)) meld.from = null; // a chow comes from the player before
      fillMeldSources(meld);
      handEdited();
    });
    label.append(radio, " ", t(`kind_${kind}`));
    kinds.append(label);
  }
  const from = $("meld-from");
  fillMeldSources(meld);
  from.onchange = () => {
    Object.assign(meld, { from: from.value === "" ? null : Number(from.value), edited: true });
    handEdited();
  };
  $("meld-break").onclick = () => {
    meld.tiles.forEach((tile) => putTile(h, "concealed", tile));
    h.melds.splice(i, 1);
    dialog.close();
    handEdited();
  };
  $("meld-remove").onclick = () => {
    forgetDetections(h.melds.splice(i, 1)[0].tiles);
    dialog.close();
    handEdited();
  };
  openDialog(dialog, [`.meld-kind[data-meld="${i}"]`, '[data-group="concealed"] .tile.add']);
}

// ------------------------------------------------------------------------------------------ capture
/** Read a chosen or captured photo as the seat's hand. One larger than the reader works at is sent as a JPEG copy
 * of the size it would be read at (`readerSide`: a phone's 12-megapixel photo in about a tenth of the bytes,
 * quick over a slow connection, read as from the photo itself); one this browser cannot draw is sent as it is. */
async function readPhoto(file) {
  setStatus(() => t("reading"));
  const drawn = await drawnPhoto(file);
  const sent = drawn?.upload || file;
  if (sent.size > MAX_PHOTO_BYTES) return setStatus(tooLarge(file.name || "photo.jpg"), { error: true });
  const form = new FormData();
  form.append("image", sent, file.name || "photo.jpg");
  await requestReading(state.seat, drawn?.kept ?? null, "/api/detect", form);
}

/** The longer side the reader works at for a photo ``side`` pixels across (vision.images.decode_photo): a JPEG is
 * decoded at 1/8, 1/4 or 1/2 of its size while that stays at least REDUCED_SHARE of WORK_SIDE, then shrunk to WORK_SIDE. */
function readerSide(side, jpeg) {
  const factor = (jpeg && [8, 4, 2].find((f) => side / f >= WORK_SIDE * REDUCED_SHARE)) || 1;
  return Math.min(WORK_SIDE, Math.ceil(side / factor));
}

/** The photo drawn, upright: ``kept``, a JPEG data URL at most KEPT_PHOTO_PX across (small enough to keep over
 * a reload), and ``upload``, a JPEG copy at the size the reader would read it at when that is smaller (else
 * null); null for a photo this browser cannot draw (the boxes are then shown alone). */
async function drawnPhoto(file) {
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return null;
  }
  const copy = (px) => {
    const scale = Math.min(1, px / Math.max(bitmap.width, bitmap.height));
    const canvas = Object.assign(document.createElement("canvas"), { width: Math.max(1, Math.round(bitmap.width * scale)), height: Math.max(1, Math.round(bitmap.height * scale)) });
    const context = canvas.getContext("2d");
    context.imageSmoothingQuality = "high"; // shrunk without aliasing, as the reader's own reduction is
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return canvas;
  };
  const kept = copy(KEPT_PHOTO_PX).toDataURL("image/jpeg", 0.85);
  const side = Math.max(bitmap.width, bitmap.height);
  const read = readerSide(side, file.type === "image/jpeg");
  const upload = read < side ? await new Promise((resolve) => copy(read).toBlob(resolve, "image/jpeg", 0.92)) : null;
  bitmap.close();
  return { kept, upload };
}

/** What a reading of the seat's hand needs to know of the table (the fields of /api/detect and /api/group):
 * a seat other than the winner's holds a hand that did not win. */
function readingFields(seat) {
  const winner = state.winner === seat || (state.winner === null && !state.winnerChosen); // null chosen: a drawn hand
  const fields = { rules: state.rules, seat, options: state.options[state.rules] || {}, winner };
  if (region().indicator && state.indicator) fields.indicator = state.indicator;
  return fields;
}

/** What the seat's hand is read with (rules, indicator, options, won or not): a photo read with other than
 * this is read again. */
const readWith = (seat) => JSON.stringify({ ...readingFields(seat), seat: undefined });
const readStale = (photo, seat) => photo && photo.readWith !== readWith(seat);

const photoRequests = [0, 0, 0, 0]; // per seat: the number of the latest photo sent (`photoRequestCount`)
let photoRequestCount = 0; // the photos sent to be read, all seats', numbered in turn
const photosBeingRead = new Set(); // the seats whose latest photo has not been answered yet

/** Photos of these seats still being read are not taken when answered: the player cleared or replaced what
 * they would fill (Clear, New hand, an Undo bringing their seat's hand back). */
function forgetPhotosBeingRead(seats) {
  for (const seat of seats) {
    photoRequests[seat] = ++photoRequestCount;
    photosBeingRead.delete(seat);
  }
}

/** Read a photo (``photoUrl``: what shows it, or a promise of it) as the seat's hand. A photo with no tile
 * changes nothing; a hand it replaces can be brought back (Undo). Only the seat's latest photo's answer is
 * taken; one read with rules, indicator or options changed meanwhile is read again. */
async function requestReading(seat, photoUrl, endpoint, form, { camera = false, asked: taken = false } = {}) {
  const fields = readingFields(seat);
  const asked = readWith(seat);
  for (const [name, value] of Object.entries(fields)) form.append(name, typeof value === "object" ? JSON.stringify(value) : value);
  const request = (photoRequests[seat] = ++photoRequestCount);
  setStatus(() => t("reading"));
  photosBeingRead.add(seat);
  renderMoveHand();
  const [{ answer, error }, url] = await Promise.all([post(endpoint, form, "photo_error"), photoUrl]);
  if (request !== photoRequests[seat]) return; // a newer photo of this seat is being read
  photosBeingRead.delete(seat);
  renderMoveHand();
  if (error) return setStatus(error, { error: true });
  if (!answer.tiles.length) return camera ? setStatus(() => t("camera_no_tiles")) : setStatus(() => t("no_tiles"), { error: true });
  const read = handTiles(answer);
  const seen = camera ? [0, 1, 2, 3].find((other) => state.photos[other]?.read === read) : undefined;
  if (seen !== undefined) return setStatus(() => t("camera_same", { seat: seatLabel(seen) }));
  const last = state.photos[seat]?.read;
  const held = read ? read.split(" ").length : 0;
  const had = last ? last.split(" ").length : 0;
  // a capture the camera took by itself showing much less than the hand read before (an arm or a hand over it,
  // some tiles misread): not taken, so the hand and its corrections are there when the arm is gone
  if (camera && !taken && had >= PARTIAL_MIN && held < PARTIAL_SHARE * had) return setStatus(() => t("camera_partial", { n: held, m: had }));
  const [before, replacing, typed] = [snapshot(), tileCount(state.hands[seat]) > 0, state.streakTyped];
  // a photo of another whole hand than the seat's last (not a retake, some tiles read otherwise; not part of it): the
  // next deal, its facts asked afresh as New hand does; a capture the player asked for (Capture now) replaces the
  // hand only. Other seats' photos still being read are taken as they come, into the table cleared: sent with this
  // one, they are most likely this deal's hands too.
  const newDeal = !taken && had && held >= PARTIAL_SHARE * had && sharedTiles(read, last) < NEW_DEAL_SHARE * Math.min(held, had);
  const dealsBefore = newDeal ? clearTable() : null;
  if (newDeal) renderRegionFields(); // the events unticked
  state.photos[seat] = { url, readWith: asked, read, width: answer.width, height: answer.height, tiles: answer.tiles };
  applyReading(seat, answer, answer.tiles.map((d) => d.tile));
  claimWinner(seat);
  setStatus(readingNotes(seat, answer));
  // a hand replaced, or a table cleared for the next deal (even with no tile left in this seat's hand), comes back
  if (replacing || newDeal) {
    const note = replacing ? () => t("replaced", { seat: seatLabel(seat) }) : () => t(dealsBefore.unscored ? "new_hand_unscored" : "new_hand_started");
    offerUndo(before, note, seat, { replaced: true, deal: newDeal ? dealLeft(typed, dealsBefore) : null });
  }
  render();
  if (seat === state.seat && !camera) bringPhotoIntoView(); // the table camera's view is where the player left it
  if (readStale(state.photos[seat], seat)) regroup();
}

/** A capture the camera took by itself that shows fewer than PARTIAL_SHARE of the tiles of the seat's hand read
 * before (at least PARTIAL_MIN) is part of that hand covered: not taken. */
const PARTIAL_SHARE = 0.75;
const PARTIAL_MIN = 8;
/** A photo of a whole hand sharing fewer than this share of the tiles of the smaller of it and the seat's last is
 * the next deal's (the `valid` hand_004 shares 0.47 with hand_007 and 0.57 with hand_012, as read; a retake with 5
 * of 14 tiles read otherwise still 0.64, one showing more of the hand, or its flowers too, all of the last). */
const NEW_DEAL_SHARE = 0.6;

/** How many tiles two readings' tile lists (`handTiles`) have in common, each kind as often as both hold it. */
function sharedTiles(a, b) {
  const count = new Map();
  for (const code of (a || "").split(" ").filter(Boolean)) count.set(code, (count.get(code) ?? 0) + 1);
  let shared = 0;
  for (const code of (b || "").split(" ").filter(Boolean)) {
    if (!count.get(code)) continue;
    count.set(code, count.get(code) - 1);
    shared += 1;
  }
  return shared;
}

/** The tiles a reading (of /api/detect) takes into the hand, sorted, as text: whether a capture shows the hand a
 * photo already showed (whoever is taken to have won). */
const handTiles = (answer) => heldOf(answer).map((i) => answer.tiles[i].tile).sort().join(" ");

/** The detections a reading (of /api/detect) takes into the hand, group by group (`HandReading.held`). */
const heldOf = (answer) => (answer.hand?.groups || []).flatMap((g) => g.tiles);

/** What the status line says of a new photo of the seat read (``answer`` of /api/detect): the tiles found,
 * the hand's doubtful tiles named (a legal hand may be read wrong there), or a better photo asked for when
 * too many of the hand are doubtful, a winner elsewhere named. */
function readingNotes(seat, answer) {
  const doubtful = answer.tiles.filter((d) => d.confidence < DOUBTFUL).length;
  const handDoubtful = heldOf(answer).filter((i) => answer.tiles[i].confidence < DOUBTFUL);
  const winner = state.winner;
  const elsewhere = (state.hands[seat].win || answer.hand?.apart) && winner !== null && winner !== seat;
  const names = () => listOf(handDoubtful.map((i) => tileName(answer.tiles[i].tile, state.lang)));
  return () => [
    t("found", { n: answer.tiles.length, doubtful }),
    ...(handDoubtful.length >= RETAKE_DOUBTFUL ? [t("retake", { n: handDoubtful.length })]
      : handDoubtful.length ? [t("check_doubtful", { tiles: names() })] : []),
    ...(elsewhere ? [t("not_winner_note", { seat: seatLabel(seat), winner: seatLabel(winner) })] : []),
  ].join(" ");
}

/** A new photo's boxes brought into view under the line about them, where they are not wholly in view (on a
 * phone the capture buttons fill the screen, the quick-action bar covers its foot). */
function bringPhotoIntoView() {
  const photo = $("photo").getBoundingClientRect();
  const bar = document.querySelector(".thumb-bar").getBoundingClientRect();
  const bottom = bar.height ? bar.top : window.innerHeight; // no bar on a wide screen
  if (photo.top < 0 || photo.bottom > bottom) $("status").scrollIntoView({ behavior: "smooth", block: "start" });
}

/** A reading (`hand`, `suggestions`, `needs` of /api/detect or /api/group) as the seat's hand and notes;
 * ``codes``: each detection's tile as the reader was given it (null: not given). */
function applyReading(seat, answer, codes) {
  const { groups = [], problems = [], problems_zh: problemsZh = [] } = answer.hand || {};
  Object.assign(state.photos[seat], { codes, groups, problems, problemsZh, suggestions: answer.suggestions, needs: answer.needs });
  state.hands[seat] = handFromReading(answer.hand, codes);
  closeDialogsOf(seat);
}

/** The dialogs open on a seat's hand are closed when that hand is replaced: they would edit the old one. */
function closeDialogsOf(seat) {
  document.querySelectorAll(`dialog[open][data-seat="${seat}"]`).forEach((dialog) => dialog.close());
}

/** The first hand read or marked sets the winner while the player has not chosen one; later hands (another
 * seat's, in rules that score every hand) never move it, but for a winning tile marked by the player (``marked``)
 * while the winner so set has none: that says who won. */
function claimWinner(seat, { marked = false } = {}) {
  if (state.winnerChosen || state.winner === seat) return;
  const first = state.hands.every((h, other) => other === seat || !tileCount(h));
  if (first || (marked && !state.hands[state.winner]?.win)) setWinner(seat);
}

function setWinner(seat) {
  state.winner = seat;
  if (state.from === seat) state.from = null;
  if (state.photos.some(readStale)) regroup(); // a hand read as the winner's, or not, is read again
}

let regroupRequest = 0;
let regroupError = null; // why the last reading again failed, a message (the score waits; Retry reads again)
let shownRegroupError = null; // the last such message put on the status line

/**
 * Every photographed hand read with other rules, indicator or options than now read again (/api/group) from all
 * its detections but those the player removed, keeping what the player did: tiles corrected or named (face
 * down), and their own groups (`keepPlayersGroups`). An answer that comes after the table changed again is
 * dropped; one that comes after the hand was edited is asked again. The hand is marked busy (aria-busy) meanwhile.
 */
async function regroup() {
  const request = ++regroupRequest;
  regroupError = null;
  $("hand").setAttribute("aria-busy", "true");
  for (const seat of [0, 1, 2, 3]) {
    const photo = state.photos[seat];
    if (!readStale(photo, seat)) continue;
    const asked = readWith(seat);
    const old = state.hands[seat];
    const oldText = JSON.stringify(old);
    const codes = [...photo.codes]; // detection -> its tile as the player has it (null: removed)
    for (const gid of groupIds(old)) groupTiles(old, gid).forEach((tile) => tile.det !== null && (codes[tile.det] = tile.code));
    const sent = codes.flatMap((code, i) => (code === null ? [] : [i]));
    const given = (i) => (photo.tiles[i].tile === "back" ? "back" : codes[i]); // a face-down tile stays one for the layout
    const tiles = sent.map((i) => ({ ...photo.tiles[i], tile: given(i) }));
    const { answer, error } = await post("/api/group", { ...readingFields(seat), width: photo.width, height: photo.height, tiles }, "photo_error");
    if (request !== regroupRequest) return; // the table changed again: a newer regroup is on its way
    if (state.photos[seat] !== photo || JSON.stringify(state.hands[seat]) !== oldText) return regroup(); // edited meanwhile
    if (error) {
      regroupError = shownRegroupError = error;
      setStatus(error, { error: true });
      continue;
    }
    if (statusLine.message === shownRegroupError) setStatus(NO_STATUS); // read again now: the failure said is past
    answer.hand.groups.forEach((g) => (g.tiles = g.tiles.map((j) => sent[j])));
    answer.suggestions.forEach((s) => s.changes.forEach((c) => (c.index = sent[c.index])));
    const offered = undo && undo.after === snapshot(); // Undo still offered: it stays (the hand it brings back is regrouped)
    applyReading(seat, answer, codes.map((code, i) => (code === null ? null : given(i))));
    photo.codes = codes;
    photo.readWith = asked;
    const h = state.hands[seat];
    for (const gid of groupIds(h)) groupTiles(h, gid).forEach((tile) => tile.det !== null && (tile.code = codes[tile.det]));
    const read = JSON.stringify(h);
    keepPlayersGroups(old, h);
    if (JSON.stringify(h) !== read) { // the reader's problems and suggestions are about its own grouping, not this
      clearReaderNotes(photo);
      if (h.win?.placed) photo.needs = photo.needs.filter((need) => need.key !== "win.tile");
    }
    if (offered) undo.after = snapshot();
    render();
  }
  $("hand").removeAttribute("aria-busy");
  if (regroupError) render(); // the score says the hand waits to be read again
}

/** The reader's new hand ``h`` with the player's own groups of the ``old`` hand put back: the melds they made
 * or changed, whole (each in the place of the reader's meld it shares a tile with, whose other tiles go back
 * into the hand), and the tiles they placed (moved, marked as winning, added). */
function keepPlayersGroups(old, h) {
  const ownMelds = old.melds.filter((meld) => meld.edited);
  const placed = ["concealed", "flowers", "win"].flatMap((gid) => groupTiles(old, gid).filter((tile) => tile.placed).map((tile) => [gid, tile]));
  const own = new Set([...ownMelds.flatMap((meld) => meld.tiles), ...placed.map(([, tile]) => tile)].map((tile) => tile.det));
  own.delete(null);
  const isOwn = (tile) => own.has(tile.det);
  h.concealed = h.concealed.filter((tile) => !isOwn(tile));
  h.flowers = h.flowers.filter((tile) => !isOwn(tile));
  if (h.win && isOwn(h.win)) h.win = null;
  const melds = [];
  for (const meld of h.melds) {
    if (!meld.tiles.some(isOwn)) {
      melds.push(meld);
      continue;
    }
    h.concealed.push(...meld.tiles.filter((tile) => !isOwn(tile)));
    const dets = new Set(meld.tiles.map((tile) => tile.det));
    const mine = ownMelds.find((m) => !melds.includes(m) && m.tiles.some((tile) => dets.has(tile.det)));
    if (mine) melds.push(mine);
  }
  h.melds = [...melds, ...ownMelds.filter((meld) => !melds.includes(meld))];
  for (const [gid, tile] of placed) putTile(h, gid, tile);
}

function setUpCapture() {
  for (const id of ["photo-camera", "photo-file", "photo-thumb"]) {
    $(id).addEventListener("change", (event) => {
      const file = event.target.files[0];
      event.target.value = "";
      if (file) readPhoto(file);
    });
  }
  document.addEventListener("dragover", (event) => {
    event.preventDefault();
    $("drop").classList.add("dragging");
  });
  document.addEventListener("dragleave", () => $("drop").classList.remove("dragging"));
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    $("drop").classList.remove("dragging");
    const file = event.dataTransfer.files[0];
    if (file) readPhoto(file);
  });
  if (navigator.mediaDevices?.getUserMedia) setUpDeviceCamera();
  if (document.body.dataset.camera === "on") setUpTableCamera();
}

function setUpDeviceCamera() {
  const video = $("video");
  let stream = null;
  let opening = 0; // counts the taps and closes: a camera granted after a later one is let go at once
  $("browser-camera").hidden = false;
  const close = () => {
    opening += 1;
    stream?.getTracks().forEach((track) => track.stop());
    stream = null;
    $("device-camera").hidden = true;
  };
  $("browser-camera").addEventListener("click", async () => {
    close(); // tapped again while open (or while asking): the camera already running is let go, not left on
    const tap = opening;
    let granted;
    try {
      granted = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 1920 } } });
    } catch (error) {
      if (tap !== opening) return;
      const known = { NotAllowedError: "camera_denied", NotFoundError: "camera_none", NotReadableError: "camera_busy" }[error.name];
      return setStatus(() => t("camera_refused", { why: known ? t(known) : error.message }), { error: true });
    }
    if (tap !== opening) return granted.getTracks().forEach((track) => track.stop());
    stream = granted;
    video.srcObject = stream;
    $("device-camera").hidden = false;
    await video.play().catch(() => {}); // interrupted by a close: nothing to show
  });
  $("snap").addEventListener("click", () => {
    const canvas = document.createElement("canvas");
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext("2d").drawImage(video, 0, 0);
    canvas.toBlob((blob) => readPhoto(new File([blob], "camera.jpg", { type: "image/jpeg" })), "image/jpeg", 0.92);
  });
  $("close-camera").addEventListener("click", close);
}

/** The server's mounted webcam: live frames polled, each new still capture read like an upload. */
function setUpTableCamera() {
  $("table-camera").hidden = false;
  const live = $("live");
  let ended = false;
  let lastCapture = null; // "run:id" of the capture read last (before a reload too: its hand is restored)
  let run = null; // the server run's token: capture ids start again at 1 when the server restarts
  try {
    lastCapture = JSON.parse(window.sessionStorage.getItem(CAPTURE_KEY));
  } catch {} // storage blocked in this browser
  const nextFrame = () => {
    if (!ended) setTimeout(() => (live.src = `/api/camera/frame.jpg?t=${Date.now()}`), 200);
  };
  live.addEventListener("load", nextFrame);
  live.addEventListener("error", () => setTimeout(nextFrame, 800));
  live.alt = t("live_alt");
  nextFrame();
  const readCapture = (id, asked = false) => {
    lastCapture = `${run}:${id}`;
    try {
      window.sessionStorage.setItem(CAPTURE_KEY, JSON.stringify(lastCapture));
    } catch {} // storage blocked: a reload reads the capture again
    const query = run ? `?run=${encodeURIComponent(run)}` : ""; // the same id in another server run is another picture
    requestReading(state.seat, `/api/camera/captures/${id}.jpg${query}`, `/api/camera/captures/${id}/detect${query}`, new FormData(), { camera: true, asked });
  };
  const cameraLine = (status) => {
    if (status.stalled) return t("camera_stalled");
    if (status.error) return status.lost ? t("camera_lost") : t("camera_error", { why: status.error }); // the server's English
    if (status.ended) return t("camera_ended");
    if (photosBeingRead.has(state.seat)) return t("camera_reading"); // a capture being read
    // still for less than a second: a capture coming; longer: the picture already captured (or the same as before)
    return status.still_seconds < 1 ? t("camera_watching", { s: status.still_seconds.toFixed(1) }) : t("camera_still");
  };
  const poll = async () => {
    try {
      const status = await (await fetch("/api/camera")).json();
      ended = status.ended;
      run = status.run;
      $("camera-status").textContent = cameraLine(status);
      $("camera-status").classList.toggle("error", !!status.error);
      $("capture-now").disabled = !!status.error; // a stalled camera's last picture is no capture
      if (status.capture !== null && `${run}:${status.capture}` !== lastCapture) readCapture(status.capture);
    } catch { // the server cannot be reached: said as an error, and nothing to capture until it answers again
      $("camera-status").textContent = t("no_server");
      $("camera-status").classList.add("error");
      $("capture-now").disabled = true;
    }
    setTimeout(poll, 500);
  };
  poll();
  $("capture-now").addEventListener("click", async () => {
    const { answer, error } = await post("/api/camera/capture", undefined, "photo_error");
    if (error) return setStatus(error, { error: true });
    readCapture(answer.id, true); // asked for: taken even if it shows less than the hand read before
  });
}

/** A new hand: the table emptied (hands, photos, who won how, dealer, indicator, events), the settings kept. */
function clearTable() {
  const before = endDeal();
  Object.assign(state, emptyTable(state.seat), { streakTyped: false }); // the streak kept is the last dealer's
  saveSettings();
  return before;
}

/** The dealer of the deal after the evening's last (`endDeal`), offered while none is chosen, as the rules pass the deal on
 * (`dealer_after`): a dealer who keeps it has a streak one more (「庄家第二庄的时候算一连庄」), another starts from 0;
 * ``why`` names the rule; null when none is known (no last deal, or a drawn one the rules say nothing of). */
function nextDealer() {
  const [last, after] = [evening.last, region().dealer_after];
  if (!last || state.dealer !== null) return null;
  let seat, why;
  if (last.winner === null) {
    if (!after.draw) return null;
    [seat, why] = after.draw === "keep" ? [last.dealer, "drawn_keeps"] : [(last.dealer + 1) % 4, "drawn_passes"];
  } else if (after.win === "winner") [seat, why] = [last.winner, "winner_deals"];
  else if (last.winner === last.dealer) [seat, why] = [last.dealer, "dealer_won"];
  else [seat, why] = [(last.dealer + 1) % 4, "deal_passes"];
  const streak = seat === last.dealer ? Math.min(last.streak + 1, MAX_STREAK) : 0;
  return { seat, streak, why: t(`next_${why}`, { seat: seatLabel(last.winner ?? 0) }) };
}

// -------------------------------------------------------------------------------------- set-up
function setUpControls() {
  $("lang").addEventListener("click", () => {
    state.lang = state.lang === "zh" ? "en" : "zh";
    saveSettings();
    // the options are drawn anew with the values kept (a refused one is gone with its note); a refused
    // streak stays shown, its note said again in the new language
    state.optionProblems = {};
    if (!$("streak-problem").hidden) $("streak-problem").textContent = t("bad_int", { low: 0, high: MAX_STREAK });
    translatePage();
    showStatus();
    showUndo();
    fillRules();
    renderRegionFields();
    renderNames();
    renderEvening();
    render();
  });
  $("rules").addEventListener("change", () => {
    const before = region().indicator;
    state.rules = $("rules").value;
    state.optionProblems = {};
    askIndicatorAgain(before);
    dropRefusedIndicator();
    saveSettings();
    renderRegionFields();
    render();
    regroup();
  });
  $("winner").addEventListener("change", () => {
    state.winnerChosen = true;
    setWinner($("winner").value === "none" ? null : Number($("winner").value));
    render();
  });
  document.querySelectorAll('input[name="by"]').forEach((radio) =>
    radio.addEventListener("change", () => {
      state.by = radio.value;
      render();
    }),
  );
  $("from").addEventListener("change", () => {
    state.from = $("from").value === "" ? null : Number($("from").value);
    render();
  });
  $("dealer").addEventListener("change", () => {
    state.dealer = $("dealer").value === "" ? null : Number($("dealer").value);
    if (state.dealer !== null) { // a streak kept from the last hand is the last dealer's: a new dealer's is 0
      if (state.streakDealer !== null && state.dealer !== state.streakDealer && !state.streakTyped) {
        // the streak set aside comes back if its dealer is chosen again this hand (another dealer was a slip)
        const aside = state.streakAside;
        state.streakAside = { dealer: state.streakDealer, streak: state.streak };
        state.streak = aside?.dealer === state.dealer ? aside.streak : 0;
      }
      state.streakDealer = state.dealer;
      saveSettings();
    }
    render();
  });
  $("next-dealer").addEventListener("click", () => { // the dealer offered, with its streak (another chosen after: 0)
    const next = nextDealer();
    const offered = undo && undo.after === snapshot(); // the new deal's Undo stays: taking the offer is part of it
    Object.assign(state, { dealer: next.seat, streak: next.streak, streakDealer: next.seat, streakAside: null, streakTyped: false });
    if (offered) undo.after = snapshot();
    saveSettings();
    render();
    $("dealer").focus();
  });
  $("streak").addEventListener("change", () => { // like an option: a value out of range is named, not kept
    const value = Number($("streak").value);
    const bad = $("streak").value.trim() === "" || !Number.isInteger(value) || value < 0 || value > MAX_STREAK;
    $("streak-problem").textContent = bad ? t("bad_int", { low: 0, high: MAX_STREAK }) : "";
    $("streak-problem").hidden = !bad;
    $("streak").setAttribute("aria-invalid", String(bad));
    if (bad) return;
    // typed for this hand: the streak of its dealer, whoever is chosen (before or after, a slip corrected too)
    Object.assign(state, { streak: value, streakDealer: state.dealer, streakTyped: true });
    saveSettings();
    render();
  });
  $("regroup-retry").addEventListener("click", regroup);
  $("photo-view").addEventListener("click", () => { // the whole photo, or back to the hand's part of it
    const photo = state.photos[state.seat];
    if (!photosShownWhole.delete(photo)) photosShownWhole.add(photo);
    renderOverlay();
  });
  $("indicator-pick").addEventListener("click", openIndicatorPicker);
  $("indicator-clear").addEventListener("click", () => {
    sayIndicator(null);
    render();
    regroup();
  });
  $("add-meld").addEventListener("click", () => {
    hand().melds.push({ kind: "pung", tiles: [], from: null, auto: true, edited: true });
    handEdited();
    const gid = `meld:${hand().melds.length - 1}`;
    openTileAdder(gid, t("meld_n", { n: hand().melds.length }), null, [`[data-group="${gid}"] .tile.add`, "#add-meld"]);
  });
  $("move-hand").addEventListener("change", () => {
    if ($("move-hand").value !== "") moveHand(Number($("move-hand").value));
  });
  $("clear-hand").addEventListener("click", () => {
    const before = tileCount(hand()) ? snapshot() : null;
    state.hands[state.seat] = emptyHand();
    state.photos[state.seat] = null;
    forgetPhotosBeingRead([state.seat]);
    setStatus(NO_STATUS);
    const seat = state.seat;
    if (before) offerUndo(before, () => t("cleared", { seat: seatLabel(seat) }));
    render();
  });
  $("new-hand").addEventListener("click", () => {
    const [before, streakTyped] = [snapshot(), state.streakTyped];
    const dealsBefore = clearTable();
    forgetPhotosBeingRead([0, 1, 2, 3]);
    setStatus(NO_STATUS);
    const note = () => t(dealsBefore.unscored ? "new_hand_unscored" : "new_hand_started");
    if (snapshot() !== before) offerUndo(before, note, state.seat, { deal: dealLeft(streakTyped, dealsBefore) });
    if (nextDealer()) $("dealer-field").scrollIntoView({ block: "center", behavior: "smooth" }); // the next step offered
    renderRegionFields();
    render();
  });
  $("undo").addEventListener("click", () => {
    const [table, now] = [JSON.parse(undo.before), JSON.parse(snapshot())];
    // photos still being read for the seats it brings back are not taken; another seat's still is
    const seatOf = (kept, seat) => JSON.stringify([kept.hands[seat], kept.photos[seat]]);
    forgetPhotosBeingRead([0, 1, 2, 3].filter((seat) => seatOf(table, seat) !== seatOf(now, seat)));
    restoreSnapshot(table);
    state.seat = undo.seat; // the seat whose hand it brings back
    const photo = state.photos[state.seat]; // and the line about its photo: tiles found, doubtful ones named
    if (undo.deal) reopenDeal(undo.deal); // a deal left: its streak with it (one typed within the deal stays)
    askIndicatorAgain(state.regions[undo.rules]?.indicator);
    saveSettings();
    offerUndo(null);
    setStatus(photo?.tiles.length ? readingNotes(state.seat, { tiles: photo.tiles, hand: { groups: photo.groups } }) : NO_STATUS);
    dropRefusedIndicator();
    renderRegionFields();
    render();
    $("hand-title").focus(); // the hand brought back
    regroup(); // read for the rules now chosen if they changed since
  });
  $("print").addEventListener("click", () => window.print());
  $("evening-clear").addEventListener("click", () => {
    if (!window.confirm(t("evening_clear_confirm", { n: evening.deals.length }))) return;
    Object.assign(evening, { deals: [], last: null }); // the first dealer of a new evening is the table's to say
    keepEvening();
    render();
  });
}

function fillRules() {
  $("rules").replaceChildren(
    ...Object.values(state.regions).map((info) => new Option(state.lang === "zh" ? `${info.name_zh} ${info.name}` : `${info.name} ${info.name_zh}`, info.key, false, info.key === state.rules)),
  );
}

/** The regions the server scores (/api/regions), asked again every few seconds while it cannot be reached. */
async function loadRegions() {
  for (;;) {
    try {
      const response = await fetch("/api/regions");
      if (response.ok) {
        if (statusLine.error) setStatus(NO_STATUS);
        return await response.json();
      }
    } catch {} // no answer, or no JSON in it
    setStatus(() => t("no_server"), { error: true });
    await new Promise((resolve) => setTimeout(resolve, REGIONS_RETRY_MS));
  }
}
const REGIONS_RETRY_MS = 3000;

async function start() {
  translatePage();
  state.regions = await loadRegions();
  try {
    const kept = JSON.parse(sessionStorage.getItem(HAND_KEY)); // the hand in progress before a reload
    if (kept?.version === HAND_VERSION) {
      restoreSnapshot(kept);
      state.rules = kept.rules; // the rules are this tab's, whatever another tab chose since
    }
  } catch {} // no storage in this browser, or unreadable: a new hand
  if (!(state.rules in state.regions)) state.rules = Object.keys(state.regions)[0];
  dropInvalidOptions();
  fillRules();
  setUpControls();
  setUpDialogs();
  setUpCapture();
  renderRegionFields();
  renderNames();
  renderEvening();
  render();
  regroup(); // a hand left read for other rules (a reload while it was being read again)
  document.body.dataset.ready = "true";
}

start();
