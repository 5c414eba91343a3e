// Cards: a face is a button (playable) or a span holding the deck's SVG art (deck.js); a back
// is a span the stylesheet paints with the deck's back.
import { faceSvg } from "./deck.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_OF_NAME = { clubs: "C", diamonds: "D", hearts: "H", spades: "S" };
export const RANK_LABEL = { 7: "7", 8: "8", 9: "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };
// Alternate colours when laying out a hand: ♠ ♥ ♣ ♦.
const SUIT_LAYOUT = ["S", "H", "C", "D"];

export const rankOf = (card) => card[0];
export const suitOf = (card) => card[1];
export const isRed = (card) => card[1] === "H" || card[1] === "D";

export function cardLabel(card) {
  return `${RANK_LABEL[rankOf(card)]}${SUIT_SYMBOL[suitOf(card)]}`;
}

export function cardName(card) {
  return t("card_name", { rank: t(`rank_${rankOf(card)}`), suit: t(`suit_of_${suitOf(card)}`) });
}

/** The hand grouped by suit (server order kept inside a suit: strongest first), colours alternating. */
export function layoutHand(hand) {
  const present = SUIT_LAYOUT.filter((s) => hand.some((c) => suitOf(c) === s));
  // Avoid two suits of the same colour side by side when a colour is missing.
  const ordered = [];
  const reds = present.filter((s) => s === "H" || s === "D");
  const blacks = present.filter((s) => s === "S" || s === "C");
  const first = blacks.length >= reds.length ? blacks : reds;
  const second = first === blacks ? reds : blacks;
  for (let i = 0; i < Math.max(first.length, second.length); i++) {
    if (first[i]) ordered.push(first[i]);
    if (second[i]) ordered.push(second[i]);
  }
  return ordered.flatMap((s) => hand.filter((c) => suitOf(c) === s));
}

export function cardFace(card, { button = false, extraClass = "", attrs = {} } = {}) {
  const cls = `card face ${isRed(card) ? "red" : "black"} suit-${suitOf(card)} ${extraClass}`.trim();
  return h(
    button ? "button" : "span",
    {
      class: cls,
      dataset: { card },
      role: button ? null : "img",
      type: button ? "button" : null,
      ...attrs,
      "aria-label": attrs["aria-label"] || cardName(card),
    },
    faceSvg(card),
  );
}

export function cardBack(extraClass = "") {
  return h("span", { class: `card back ${extraClass}`.trim(), "aria-hidden": "true" });
}

/** Cards of a declaration as players say them: high card first (A K Q J 10 9 8 7). */
export function sortForShow(cards) {
  const order = "AKQJT987";
  return [...cards].sort((a, b) => a[1].localeCompare(b[1]) || order.indexOf(a[0]) - order.indexOf(b[0]));
}

/** Inline text for a card, e.g. in a bidding log or a declaration: "K♠" coloured. */
export function cardText(card) {
  return h("span", { class: `ctext ${isRed(card) ? "red" : "black"} suit-${suitOf(card)}`, text: cardLabel(card), title: cardName(card) });
}

/** Open Belot: a card on the table played from its player's stack `stack` (0–3, shown from 1),
 * not from the hand (VIEW.played_from; the replay works it out from the deal's deck). */
export function stackTag(stack) {
  const n = stack + 1; // short on the card ("stack 2"), whole in its title and for screen readers
  return h("span", { class: "stack-tag", dataset: { stack: String(stack) }, title: t("from_stack", { n }), "aria-label": t("from_stack", { n }), text: t("stack_n", { n }) });
}
