// What the seat plates and the score chip on the felt show beyond a name: each player's state
// at a glance (a dot: at the table, away, played by a stand-in bot, a bot), and which colour is
// which team, so the coloured edges of the plates explain themselves.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** "here", "away", "standin", "bot" or "empty", from a seat of the room (docs/protocol.md). */
export function seatState(record) {
  if (record.bot) return "bot";
  if (!record.player) return "empty";
  if (record.standin) return "standin";
  return record.connected ? "here" : "away";
}

const STATE_WORD = { here: "state_connected", away: "away", standin: "standin", bot: "state_bot" };

/** A round badge with the player's initial and a dot for their state (its word as a tooltip). */
export function avatar(label, state) {
  if (state === "empty") return null;
  const initial = [...(label || "?").trim()][0] || "?"; // a bot's face is drawn by the stylesheet
  return h(
    "span",
    { class: `avatar state-${state}`, title: t(STATE_WORD[state]), "aria-label": t(STATE_WORD[state]), role: "img" },
    h("span", { class: "initial", "aria-hidden": "true", text: state === "bot" ? "" : initial.toUpperCase() }),
    h("span", { class: "dot", "aria-hidden": "true" }),
  );
}

/** The dealer's badge on a seat plate: a letter in the player's language ("D", "Р"), the word
 * itself as its tooltip and for screen readers. */
export function dealerBadge() {
  return h("span", { class: "badge dealer", title: t("dealer"), role: "img", "aria-label": t("dealer"), text: t("dealer_badge") });
}

/** One side's chip: its label and score on one line, its full name as a tooltip; a team's
 * (`cls` "us" or "them") with the colour its plates are edged with. */
function scoreChip(side, labels, scores, names, cls = "") {
  return h(
    "span",
    { class: cls ? `team-chip ${cls}` : "team-chip", title: names[side] },
    cls ? h("span", { class: "swatch", "aria-hidden": "true" }) : null,
    `${labels[side]} `,
    h("strong", { text: String(scores[side]) }),
  );
}

/** The score on the felt, each team beside the colour its plates are edged with. */
export function teamScores(labels, scores, us, names) {
  return [scoreChip(us, labels, scores, names, "us"), " ", scoreChip(1 - us, labels, scores, names, "them")];
}

/** At three or two, a chip a player in the table's column order (no team colours): a name
 * never breaks from its score, and a phone stacks them. */
export function playerScores(labels, scores, order, names) {
  return order.map((side) => scoreChip(side, labels, scores, names));
}

/** A name to show where it may take two lines (a phone's side seat): a name of one long word
 * gets a break opportunity (`<wbr>`) in its middle, so that it breaks into two halves
 * ("Ben" / "oît") rather than wherever the line ends ("Benoî" / "t"). Where the name fits, or
 * the line does not wrap, nothing shows. A name with a space breaks at its spaces. */
export function nameParts(name) {
  if (/\s/.test(name)) return [name];
  const letters = typeof Intl.Segmenter === "function" ? [...new Intl.Segmenter().segment(name)].map((s) => s.segment) : [...name];
  if (letters.length < 6) return [name];
  const half = Math.ceil(letters.length / 2);
  return [letters.slice(0, half).join(""), h("wbr", {}), letters.slice(half).join("")];
}
