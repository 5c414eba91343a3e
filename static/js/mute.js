// Muting a player's chat: the player reads the table without someone's lines (a rude one can
// be removed only before a match; during one, only hidden). Kept on the server
// (`/api/players/me/mutes`, docs/protocol.md §1), so that a mute holds on every device and quick
// play never seats the two together; localStorage["belote.muted"] is this device's copy, read
// at once by `isMuted`, and `syncMutes` brings it in line with the server's for the player
// whose copy it is (localStorage["belote.muted.owner"]). A copy with no owner is from before
// the server kept mutes, or from a spectator with no identity yet: the first player to sync
// takes its mutes to the server.
import { api } from "./api.js";
import { h } from "./dom.js";
import { friendButton } from "./friends.js";
import { getPlayer } from "./identity.js";
import { labelled, t } from "./i18n.js";
import { showError } from "./ui.js";

const KEY = "belote.muted";
const OWNER = "belote.muted.owner";
const MOST = 200; // the oldest mute is forgotten beyond this (the server keeps as many)

function load() {
  try {
    const ids = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(ids) ? ids.filter((id) => typeof id === "string") : [];
  } catch {
    return [];
  }
}

function store(ids) {
  localStorage.setItem(KEY, JSON.stringify(ids.slice(-MOST)));
}

export function isMuted(playerId) {
  return playerId !== null && playerId !== undefined && load().includes(playerId);
}

const path = (playerId) => `/api/players/me/mutes/${encodeURIComponent(playerId)}`;

/** Mute or unmute on this device at once, then on the server; undone if the server refuses.
 * True once the server has it. */
export async function setMuted(playerId, on) {
  const before = load();
  store([...before.filter((id) => id !== playerId), ...(on ? [playerId] : [])]);
  const player = getPlayer();
  if (!player) return true; // a spectator with no identity: this device only, until one syncs
  try {
    await api(on ? "PUT" : "DELETE", path(playerId));
    return true;
  } catch (error) {
    store(before);
    showError(error);
    return false;
  }
}

/** Bring this device's copy in line with the server's for the current player (at start and
 * whenever the identity changes), first taking an ownerless copy's mutes to the server. Tells
 * the page (`belote:mutes`) when the copy changed. */
export async function syncMutes() {
  const player = getPlayer();
  if (!player) return;
  const before = load();
  try {
    if (localStorage.getItem(OWNER) === null) {
      for (const id of before) {
        try {
          await api("PUT", path(id));
        } catch {
          // a player erased since, or oneself: nothing to keep
        }
      }
    }
    const kept = await api("GET", "/api/players/me/mutes");
    if (getPlayer()?.id !== player.id) return; // the identity changed meanwhile: its own sync
    store(kept.map((muted) => muted.id));
    localStorage.setItem(OWNER, player.id);
  } catch {
    return; // offline, or the token refused: the copy stays as it is until the next sync
  }
  if (JSON.stringify(load()) !== JSON.stringify(before)) window.dispatchEvent(new Event("belote:mutes"));
}

/** "Mute, report, add friend" over the chat: a box per other person (`people`: `{id, name}`,
 * in seat order), a button that asks them to be friends (friends.js) and one that reports them to the site's operator (`onReport(person)`,
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
      box.addEventListener("change", async () => {
        const on = box.checked;
        const saved = setMuted(id, on); // this device's copy changes at once, the server's after
        onChange();
        if (!(await saved)) {
          box.checked = !on;
          onChange();
        }
      });
      const report = h("button", { type: "button", class: "link report-player", dataset: { player: id }, text: t("report"), "aria-label": t("report_title", { name }), onclick: () => onReport(person) });
      return h("div", { class: "mute-row" }, h("label", { class: "pref", for: `mute-${id}` }, box, " ", name), friendButton(person), report);
    }),
    h("p", { class: "mute-note", text: t("mute_note") }),
  );
}

/** "Muted players" on the account page: each with a button that unmutes them (everywhere),
 * so that a mute can be undone away from the table it was made at. Null when there are none. */
export async function mutedPanel() {
  let muted;
  try {
    muted = await api("GET", "/api/players/me/mutes");
  } catch {
    return null; // the page says what matters without it
  }
  if (!muted.length) return null;
  const list = h("ul", { class: "muted-list", id: "muted-list" });
  for (const person of muted) {
    const button = h("button", { type: "button", class: "unmute", dataset: { player: person.id }, text: t("unmute"), "aria-label": t("unmute_label", { name: person.name }) });
    const row = h("li", {}, h("span", { class: "muted-name", text: person.name }), button);
    button.addEventListener("click", async () => {
      button.disabled = true;
      if (await setMuted(person.id, false)) row.remove();
      else button.disabled = false;
      if (!list.children.length) list.closest("section")?.remove();
    });
    list.append(row);
  }
  return h("section", { class: "panel", id: "muted-players" }, h("h2", { text: t("muted_title") }), h("p", { class: "muted", text: t("muted_explain") }), list);
}
