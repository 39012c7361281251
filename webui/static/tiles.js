// Tile codes (table-format.md), their names in English and Chinese, and tiles drawn with CSS.

export const SUITS = ["m", "p", "s", "z", "f"];
export const TILE_CODES = [
  ..."123456789".split("").map((n) => n + "m"),
  ..."123456789".split("").map((n) => n + "p"),
  ..."123456789".split("").map((n) => n + "s"),
  ..."1234567".split("").map((n) => n + "z"),
  ..."12345678".split("").map((n) => n + "f"),
];
const INDEX = Object.fromEntries(TILE_CODES.map((c, i) => [c, i]));
const NUMERALS = "一二三四五六七八九";
const SUIT_ZH = { m: "萬", p: "筒", s: "條" };
const SUIT_EN = { m: ["Character", "Characters"], p: ["Dot", "Dots"], s: ["Bamboo", "Bamboo"] };
const HONOURS_ZH = "東南西北白發中";
const HONOURS_EN = ["East", "South", "West", "North", "White", "Green", "Red"];
const FLOWERS_ZH = "春夏秋冬梅蘭菊竹";
const FLOWERS_EN = ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Chrysanthemum", "Bamboo"];

export function isTile(code) {
  return code in INDEX;
}

export function tileName(code, lang) {
  if (code === "back") return lang === "zh" ? "背面（未知）" : "face-down (unknown)";
  const n = Number(code[0]);
  const s = code[1];
  if (s in SUIT_ZH) return lang === "zh" ? NUMERALS[n - 1] + SUIT_ZH[s] : `${n} ${SUIT_EN[s][n === 1 ? 0 : 1]}`;
  if (s === "z") return lang === "zh" ? HONOURS_ZH[n - 1] : HONOURS_EN[n - 1];
  return lang === "zh" ? FLOWERS_ZH[n - 1] : FLOWERS_EN[n - 1];
}

const SUIT_LETTER_EN = { m: "C", p: "D", s: "B" };
const HONOURS_SHORT_EN = ["E", "S", "W", "N", "Wh", "Gr", "Rd"];
const FLOWERS_SHORT_EN = ["Sp", "Su", "Au", "Wi", "Pl", "Or", "Ch", "Bm"];

/** A tile's name short enough to label its box on a photo: "三萬", "東" in Chinese; "3C", "5D", "7B", "E", "Wh",
 * "Sp" in English (3 Characters, 5 Dots, 7 Bamboo, East, White, Spring). */
export function tileLabel(code, lang) {
  if (lang === "zh" || code === "back") return tileName(code, lang);
  const n = Number(code[0]);
  const s = code[1];
  if (s in SUIT_LETTER_EN) return `${n}${SUIT_LETTER_EN[s]}`;
  return (s === "z" ? HONOURS_SHORT_EN : FLOWERS_SHORT_EN)[n - 1];
}

/** Codes sorted in canonical order and written compactly: ["5z","1m","5z"] -> "1m55z". */
export function formatTiles(codes) {
  const sorted = [...codes].sort((a, b) => INDEX[a] - INDEX[b]);
  let out = "";
  sorted.forEach((code, i) => {
    out += code[0];
    if (i + 1 === sorted.length || sorted[i + 1][1] !== code[1]) out += code[1];
  });
  return out;
}

/** "123m55z" -> ["1m","2m","3m","5z","5z"]; null when the string is not tile notation. */
export function parseTiles(text) {
  const compact = (text || "").replace(/\s+/g, "");
  if (!/^(\d+[mpszf])*$/.test(compact)) return null;
  const codes = [];
  for (const [, digits, suit] of compact.matchAll(/(\d+)([mpszf])/g)) {
    for (const d of digits) codes.push(d + suit);
  }
  return codes.every(isTile) ? codes : null;
}

/** The face of a tile as elements: a numeral over its suit, or one character for honours and flowers. */
function face(code) {
  const el = document.createElement("span");
  el.className = "face";
  el.setAttribute("aria-hidden", "true");
  if (code === "back") return el;
  const n = Number(code[0]);
  const s = code[1];
  if (s in SUIT_ZH) {
    el.innerHTML = `<span class="num">${NUMERALS[n - 1]}</span><span class="suit">${SUIT_ZH[s]}</span>`;
  } else if (s === "z") {
    el.innerHTML = n === 5 ? '<span class="frame"></span>' : `<span class="big">${HONOURS_ZH[n - 1]}</span>`;
  } else {
    el.innerHTML = `<span class="big">${FLOWERS_ZH[n - 1]}</span><span class="corner">${((n - 1) % 4) + 1}</span>`;
  }
  return el;
}

/** A tile as a button: data-code, an accessible name in ``lang``, classes for suit and state. */
export function tileButton(code, lang, { extra = "", title = "" } = {}) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `tile suit-${code === "back" ? "back" : code[1]} code-${code} ${extra}`.trim();
  button.dataset.code = code;
  const name = tileName(code, lang);
  button.setAttribute("aria-label", title ? `${name} (${title})` : name);
  button.title = title ? `${code} · ${title}` : code;
  button.append(face(code));
  return button;
}
