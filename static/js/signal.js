// The tab says when the player is called, so a player in another tab sees it: the title starts
// with "● Your turn" (room.js) or "● Your match is on" / "● Check in" (a tournament's, from
// invitations.js, on any page), and the favicon gets a yellow dot. The turn comes first.
// With "Notifications" on (prefs.js), a call that comes while the tab is out of view is also
// the browser's notification, gone when the call ends or the tab is shown.
import { t } from "./i18n.js";
import { pref } from "./prefs.js";

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
  const before = calls.get(source) || null;
  calls.set(source, key);
  showSignal();
  if (key !== before) {
    notifications.get(source)?.close();
    notifications.delete(source);
    if (key) notify(source, key);
  }
}

const notifications = new Map(); // source -> the notification showing its call

/** The browser's notification of a new call, where the player asked for them, allowed them,
 * and is not looking at the page (a click on it brings the page back). */
function notify(source, key) {
  if (!pref("notify") || document.visibilityState !== "hidden" || !("Notification" in window)) return;
  if (Notification.permission !== "granted") return;
  try {
    const note = new Notification(t(key), { body: t("app_title"), tag: `belote-${source}`, icon: "/apple-touch-icon.png" });
    note.onclick = () => {
      window.focus();
      note.close();
    };
    notifications.set(source, note);
  } catch {
    // A browser that shows them only from a service worker (a phone's): the tab's title says it.
  }
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible") return;
  for (const note of notifications.values()) note.close();
  notifications.clear();
});

/** Show (true) or clear (false) the "your turn" signal in the tab. */
export const turnSignal = (on) => tabSignal("turn", on ? "your_turn_title" : null);
