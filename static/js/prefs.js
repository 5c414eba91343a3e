// The player's table preferences, remembered on this device (localStorage): the four-colour
// deck and sound (off until asked for). Applied as classes on <html>, so nothing is redrawn.
import { backUrl } from "./deck.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "belote.prefs";
const DEFAULTS = { fourColour: false, sound: false };

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

/** Once at start (and after each change): the deck's colours and its back. */
export function applyPrefs() {
  const root = document.documentElement;
  root.classList.toggle("four-colour", pref("fourColour"));
  root.style.setProperty("--card-back", backUrl());
}

/** The table's switches: four-colour deck, sound. `onChange(name, value)` is told of a change. */
export function prefsControls(onChange = () => {}) {
  const box = (id, name, label) => {
    const input = h("input", { type: "checkbox", id, checked: pref(name) });
    input.addEventListener("change", () => {
      setPref(name, input.checked);
      onChange(name, input.checked);
    });
    return h("label", { class: "pref", for: id }, input, " ", label);
  };
  return h("div", { class: "table-prefs", id: "table-prefs" }, box("pref-four-colour", "fourColour", t("four_colour")), box("pref-sound", "sound", t("sound_on")));
}
