// Muting a player's chat on this device: the player reads the table without someone's lines
// (a rude one can be removed only before a match; during one, only hidden). Remembered by
// player id in localStorage["belote.muted"], so it holds across rooms and reloads.
import { h } from "./dom.js";
import { labelled, t } from "./i18n.js";

const KEY = "belote.muted";
const MOST = 200; // the oldest mute is forgotten beyond this

function load() {
  try {
    const ids = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(ids) ? ids.filter((id) => typeof id === "string") : [];
  } catch {
    return [];
  }
}

export function isMuted(playerId) {
  return playerId !== null && playerId !== undefined && load().includes(playerId);
}

function setMuted(playerId, on) {
  const ids = load().filter((id) => id !== playerId);
  if (on) ids.push(playerId);
  localStorage.setItem(KEY, JSON.stringify(ids.slice(-MOST)));
}

/** "Mute or report" over the chat: a box per other person (`people`: `{id, name}`, in seat
 * order) and a button that reports them to the site's operator (`onReport(person)`,
 * report.js), kept open across the table's redraws (`wasOpen`). `onChange()` is told after a
 * change. */
export function muteControl(people, { wasOpen, onChange, onReport }) {
  if (!people.length) return null;
  return h(
    "details",
    { class: "chat-mute", id: "chat-mute", open: wasOpen },
    h("summary", { text: t("mute_report") }),
    h("p", { class: "muted", text: labelled(t("mute_label")) }),
    people.map((person) => {
      const { id, name } = person;
      const box = h("input", { type: "checkbox", id: `mute-${id}`, dataset: { player: id }, checked: isMuted(id) });
      box.addEventListener("change", () => {
        setMuted(id, box.checked);
        onChange();
      });
      const report = h("button", { type: "button", class: "link report-player", dataset: { player: id }, text: t("report"), "aria-label": t("report_title", { name }), onclick: () => onReport(person) });
      return h("div", { class: "mute-row" }, h("label", { class: "pref", for: `mute-${id}` }, box, " ", name), report);
    }),
  );
}
