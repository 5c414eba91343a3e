// The tab says when the player is called, so a player in another tab sees it: the title starts
// with "● Your turn" (room.js) or "● Your match is on" / "● Check in" (a tournament's, from
// invitations.js, on any page), and the favicon gets a yellow dot. The turn comes first.
import { t } from "./i18n.js";

const icon = (dot) =>
  "data:image/svg+xml," +
  encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><text y="14" font-size="14">♠</text>${dot ? '<circle cx="12" cy="4" r="4" fill="#f2b705" stroke="#fff" stroke-width="1"/>' : ""}</svg>`,
  );

const SOURCES = ["turn", "tournament"]; // the first that calls is the one the title says
const calls = new Map(); // source -> the i18n key of what it calls for, or null
let dotted = null;

/** The title and the icon as the calls stand, in the reader's language (the router sets the
 * title again on every page and language through this). */
export function showSignal() {
  const source = SOURCES.find((s) => calls.get(s));
  document.title = source ? `● ${t(calls.get(source))} — ${t("app_title")}` : t("app_title");
  if (dotted === Boolean(source)) return;
  dotted = Boolean(source);
  const link = document.querySelector("link[rel=icon]");
  if (link) link.setAttribute("href", icon(dotted));
}

/** `source` ("turn" or "tournament") calls the player for `key` (an i18n key), or no more (null). */
export function tabSignal(source, key) {
  calls.set(source, key);
  showSignal();
}

/** Show (true) or clear (false) the "your turn" signal in the tab. */
export const turnSignal = (on) => tabSignal("turn", on ? "your_turn_title" : null);
