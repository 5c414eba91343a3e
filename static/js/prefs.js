// The player's preferences, remembered on this device (localStorage), each off until asked for:
// the four-colour deck (a class on <html>, so nothing is redrawn), sound, "Confirm each card"
// (read by room.js at each tap on a card) and notifications (read by signal.js at each call);
// and the colours, light or dark: the device's
// own choice unless the reader chose otherwise with the top bar's button. The dark colours are
// a stylesheet (css/dark.css) whose media says when it applies, so that a device set to dark
// shows the site dark before any script has run.
import { backUrl } from "./deck.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { toast } from "./ui.js";

const KEY = "belote.prefs";
const DEFAULTS = { fourColour: false, sound: false, confirmPlay: false, notify: false, theme: "auto" };
const THEMES = ["auto", "light", "dark"];
const deviceDark = window.matchMedia("(prefers-color-scheme: dark)");
const touchScreen = window.matchMedia("(any-pointer: coarse)");
// A computer (a pointer that hovers): a phone freezes a page out of view, and shows a page's
// notifications only from a service worker.
const computer = window.matchMedia("(hover: hover)");

function load() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

export function pref(name) {
  return Boolean(load()[name]);
}

export function setPref(name, value) {
  localStorage.setItem(KEY, JSON.stringify({ ...load(), [name]: Boolean(value) }));
  applyPrefs();
}

/** "auto" (the device's), "light" or "dark". */
function theme() {
  const chosen = load().theme;
  return THEMES.includes(chosen) ? chosen : "auto";
}

/** Whether the page is in its dark colours. */
export const dark = () => theme() === "dark" || (theme() === "auto" && deviceDark.matches);

/** The top bar's button: the other colours. Back to the device's own, the choice is forgotten
 * (a later change of the device's is followed again). */
export function toggleTheme() {
  const next = !dark();
  localStorage.setItem(KEY, JSON.stringify({ ...load(), theme: next === deviceDark.matches ? "auto" : next ? "dark" : "light" }));
  applyPrefs();
}

/** Once at start (and after each change): the deck's colours and its back; the colours. */
export function applyPrefs() {
  const root = document.documentElement;
  root.classList.toggle("four-colour", pref("fourColour"));
  root.style.setProperty("--card-back", backUrl());
  const sheet = document.getElementById("dark-colours");
  const chosen = theme();
  if (sheet) sheet.media = chosen === "auto" ? deviceDark.media : chosen === "dark" ? "all" : "not all";
  root.dataset.theme = dark() ? "dark" : "light";
  const button = document.getElementById("theme");
  if (button) {
    button.setAttribute("aria-pressed", String(dark()));
    document.getElementById("theme-sign").textContent = dark() ? "☀" : "☾";
  }
}
deviceDark.addEventListener("change", () => applyPrefs());

/** The table's switches: four-colour deck, sound, a card played by a second tap (room.js; on
 * touch screens), notifications (on a computer).
 * `onChange(name, value)` is told of a change; `playing`: the table's match is on. */
export function prefsControls(onChange = () => {}, playing = false) {
  const box = (id, name, label, title = null) => {
    const input = h("input", { type: "checkbox", id, checked: pref(name) });
    input.addEventListener("change", () => {
      setPref(name, input.checked);
      onChange(name, input.checked);
    });
    return h("label", { class: "pref", for: id, title }, input, " ", label);
  };
  return h(
    "div",
    { class: "table-prefs", id: "table-prefs" },
    box("pref-four-colour", "fourColour", t("four_colour")),
    box("pref-sound", "sound", t("sound_on")),
    // Offered where a finger plays (a touch screen), or where it was turned on: the row of a
    // laptop's table has no room to spare (its hand would go below the fold at 1280x720).
    touchScreen.matches || pref("confirmPlay") ? box("pref-confirm-play", "confirmPlay", t("confirm_play"), t("confirm_play_explain")) : null,
    // Offered on a computer in the waiting room, and during a match where it is on (to turn
    // it off): a laptop's row over the table keeps its room for the table.
    "Notification" in window && computer.matches && (!playing || pref("notify")) ? notifyBox(box("pref-notify", "notify", t("notify"), t("notify_explain"))) : null,
  );
}

/** "Notifications" (signal.js shows them): turned on, it asks the browser's permission (a click
 * is the moment a browser lets a page ask); refused, it turns itself off and says where the
 * browser allows it again. */
function notifyBox(label) {
  const input = label.querySelector("input");
  input.addEventListener("change", async () => {
    if (!input.checked || Notification.permission === "granted") return;
    const answer = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
    if (answer === "granted") return;
    input.checked = false;
    setPref("notify", false);
    toast(t("notify_refused"));
  });
  return label;
}
