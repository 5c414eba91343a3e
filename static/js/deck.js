// The project's own card deck, drawn here from SVG primitives (no image files, no borrowed art):
// corner indices, suit pips laid out as on a printed deck, framed court cards, and a back.
// Pips are filled with currentColor, so the colours come from the stylesheet (--suit-C …) and
// the four-colour deck (prefs.js) is a class on <html>, with nothing redrawn.

const SVG = "http://www.w3.org/2000/svg";
const W = 200; // a face is 200 × 284 units: the 1 : 1.42 of a real card
const H = 284;

/** Each suit in a 100-unit box centred on (0, 0). */
const SUIT_SHAPES = {
  H: [["path", { d: "M0 44C-12 30-48 8-48-18C-48-38-30-48-16-46C-6-44 0-36 0-27C0-36 6-44 16-46C30-48 48-38 48-18C48 8 12 30 0 44Z" }]],
  D: [["path", { d: "M0-50Q17-23 37 0Q17 23 0 50Q-17 23-37 0Q-17-23 0-50Z" }]],
  S: [["path", { d: "M0-48C-12-32-48-12-48 12C-48 30-30 38-16 36C-8 35-3 30-2 26C-4 36-8 42-17 48H17C8 42 4 36 2 26C3 30 8 35 16 36C30 38 48 30 48 12C48-12 12-32 0-48Z" }]],
  C: [
    ["circle", { cx: 0, cy: -22, r: 20 }],
    ["circle", { cx: -23, cy: 10, r: 20 }],
    ["circle", { cx: 23, cy: 10, r: 20 }],
    ["circle", { cx: 0, cy: 4, r: 10 }],
    ["path", { d: "M-3 4C-4 28-9 40-18 48H18C9 40 4 28 3 4Z" }],
  ],
};

// Pip centres of the number cards, as printed decks place them; a pip below the middle is
// drawn upside down.
const L = 64;
const R = 136;
const M = 100;
const PIPS = {
  7: [[L, 70], [R, 70], [M, 106], [L, 142], [R, 142], [L, 214], [R, 214]],
  8: [[L, 70], [R, 70], [M, 106], [L, 142], [R, 142], [M, 178], [L, 214], [R, 214]],
  9: [[L, 66], [R, 66], [L, 116], [R, 116], [M, 142], [L, 168], [R, 168], [L, 218], [R, 218]],
  T: [[L, 66], [R, 66], [M, 92], [L, 116], [R, 116], [L, 168], [R, 168], [M, 192], [L, 218], [R, 218]],
};
const RANK_TEXT = { 7: "7", 8: "8", 9: "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };

function el(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child);
  return node;
}

/** One pip of `suit`, `size` units tall, centred on (x, y). */
function pip(suit, x, y, size, flip = false) {
  const turn = flip ? " rotate(180)" : "";
  return el("g", { transform: `translate(${x} ${y}) scale(${size / 100})${turn}` }, SUIT_SHAPES[suit].map(([tag, attrs]) => el(tag, attrs)));
}

/** The rank and a small pip in a corner; the opposite corner is the same turned round. */
function index(rank, suit) {
  const ten = rank === "T";
  const corner = () => [
    el("text", { x: 24, y: 46, "text-anchor": "middle", "font-size": ten ? 38 : 44, "font-weight": 700, "letter-spacing": ten ? -4 : 0, class: "rank" }, [document.createTextNode(RANK_TEXT[rank])]),
    pip(suit, 24, 72, 26),
  ];
  return [el("g", {}, corner()), el("g", { transform: `rotate(180 ${W / 2} ${H / 2})` }, corner())];
}

function courtCard(rank, suit) {
  return [
    el("rect", { x: 44, y: 34, width: 112, height: 216, rx: 10, class: "court-frame" }),
    el("rect", { x: 52, y: 42, width: 96, height: 200, rx: 6, class: "court-inner" }),
    el("text", { x: M, y: 174, "text-anchor": "middle", "font-size": 104, "font-weight": 700, class: "court-letter" }, [document.createTextNode(rank)]),
    pip(suit, M, 76, 34),
    pip(suit, M, 212, 34, true),
  ];
}

/** The face of `card` ("QH", "TS" …) as an <svg> that fills its box. */
export function faceSvg(card) {
  const rank = card[0];
  const suit = card[1];
  let middle;
  if (rank === "A") middle = [pip(suit, M, H / 2, 96)];
  else if ("JQK".includes(rank)) middle = courtCard(rank, suit);
  else middle = PIPS[rank].map(([x, y]) => pip(suit, x, y, 40, y > H / 2 + 1));
  return el("svg", { viewBox: `0 0 ${W} ${H}`, class: "face-art", "aria-hidden": "true", focusable: "false" }, [...index(rank, suit), ...middle]);
}

/** The back, as a data: URL for the stylesheet (backs are many and all alike). */
export function backUrl() {
  const svg = `<svg xmlns="${SVG}" viewBox="0 0 100 142">
<defs><pattern id="l" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
<rect width="8" height="8" fill="#1f3f73"/><path d="M0 0H8M0 0V8" stroke="#3c64a6" stroke-width="1.6"/></pattern></defs>
<rect width="100" height="142" rx="8" fill="#f4efe3"/>
<rect x="5" y="5" width="90" height="132" rx="5" fill="url(#l)"/>
<rect x="9" y="9" width="82" height="124" rx="3" fill="none" stroke="#e8d9a8" stroke-width="1.2"/>
<path d="M50 50L66 71L50 92L34 71Z" fill="#1f3f73" stroke="#e8d9a8" stroke-width="1.6"/>
<circle cx="50" cy="71" r="5" fill="#e8d9a8"/></svg>`;
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
}
