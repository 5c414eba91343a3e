// The tab says when it is your turn, so a player in another tab sees it: the title starts with
// "● Your turn" and the favicon gets a yellow dot.
import { t } from "./i18n.js";

const icon = (dot) =>
  "data:image/svg+xml," +
  encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><text y="14" font-size="14">♠</text>${dot ? '<circle cx="12" cy="4" r="4" fill="#f2b705" stroke="#fff" stroke-width="1"/>' : ""}</svg>`,
  );

let shown = null;

/** Show (true) or clear (false) the "your turn" signal in the tab. */
export function turnSignal(on) {
  const link = document.querySelector("link[rel=icon]");
  document.title = on ? `● ${t("your_turn_title")} — ${t("app_title")}` : t("app_title");
  if (shown === on) return;
  shown = on;
  if (link) link.setAttribute("href", icon(on));
}
