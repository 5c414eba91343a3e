// The operator's announcement (`GET /api/announcement`, docs/protocol.md §1): a word to everyone
// on the site, at the top of every page, in the reader's language when the operator wrote one.
// Asked for when the page starts and every few minutes; "×" hides it on this device until the
// operator makes a new one (`made_at`, remembered in localStorage["belote.announcement"]).
import { get } from "./api.js";
import { h, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import { every } from "./poll.js";

const HIDDEN = "belote.announcement";
const EVERY_MS = 5 * 60 * 1000;
let shown = null; // the announcement last read, or null

function draw() {
  const box = document.getElementById("announcement");
  if (!box) return;
  const a = shown;
  box.dataset.read = a ? a.made_at : "none"; // what was read, shown or not (for tests)
  if (!a || localStorage.getItem(HIDDEN) === a.made_at) {
    box.hidden = true;
    return;
  }
  const hide = h("button", { type: "button", class: "announcement-hide", id: "announcement-hide", text: "×", "aria-label": t("announcement_hide") });
  hide.addEventListener("click", () => {
    localStorage.setItem(HIDDEN, a.made_at);
    draw();
  });
  replace(box, h("span", { class: "announcement-text", text: a.texts[lang()] || a.text }), hide);
  box.hidden = false;
}

async function read() {
  try {
    shown = (await get("/api/announcement")).announcement;
  } catch {
    return; // offline or refused: the last one read stays
  }
  draw();
}

/** Start reading the announcement (now and every few minutes); `relang()` redraws it. */
export function watchAnnouncement() {
  read();
  every(read, EVERY_MS);
}

export const relangAnnouncement = draw;
