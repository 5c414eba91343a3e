// The host's "Settings" at a table between matches: the room's settings in the lobby's controls
// (settings-form.js), sent as the `settings` command, and the words the others read when they
// changed. The dialog is built once when opened and kept out of the table's re-renders, so what
// the host is choosing survives the others' moves and chat.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { settingsControls } from "./settings-form.js";
import { accountNote } from "./ui.js";

const sameRules = (a, b) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k]);
};

/** What the form changes of `room`'s settings, as the `settings` command takes it: only what
 * differs, so that saving an untouched form changes nothing (and clears no rematch vote). An
 * emptied target is the preset's (`defaultTarget`). */
function settingsChanges(room, chosen, defaultTarget) {
  const changes = {};
  if (!sameRules(chosen.house_rules, room.rules.house_rules || {})) changes.house_rules = chosen.house_rules;
  if ((chosen.target ?? defaultTarget) !== room.target) changes.target = chosen.target;
  for (const key of ["public", "turn_seconds", "deal_pause_seconds", "bot_level", "accounts_only"]) {
    if (chosen[key] !== room[key]) changes[key] = chosen[key];
  }
  return changes;
}

/** The words for what changed between two ROOMs' settings (empty: nothing did). */
export function settingsChangedWords(before, after) {
  const seconds = (n) => (n ? t("seconds", { n }) : t("timer_off"));
  const words = [];
  if (!sameRules(before.rules.house_rules || {}, after.rules.house_rules || {})) words.push(t("house_rules"));
  if (before.target !== after.target) words.push(`${t("target")} ${after.target}`);
  if (before.turn_seconds !== after.turn_seconds) words.push(`${t("turn_timer")}: ${seconds(after.turn_seconds)}`);
  if (before.deal_pause_seconds !== after.deal_pause_seconds) words.push(`${t("deal_pause")}: ${seconds(after.deal_pause_seconds)}`);
  if (before.public !== after.public) words.push(t(after.public ? "public" : "private"));
  if (before.bot_level !== after.bot_level) words.push(`${t("bot_level")}: ${t(`bot_${after.bot_level}`)}`);
  if (before.accounts_only !== after.accounts_only) words.push(t(after.accounts_only ? "accounts_only_fact" : "guests_may_sit"));
  return words;
}

/** The dialog for `room` (a ROOM) with the presets' `rules` (`GET /api/rules`), its controls
 * set to the room, or to `chosen` (what the host chose in a dialog this one replaces: the
 * changes are still counted from the room). `save(changes)` sends them and resolves true once
 * the room took them; `close()` takes the dialog away. The element's `read()` is the form's. */
export function settingsDialog(rules, room, { save, close, chosen = null }) {
  const settings = settingsControls(rules, chosen ? { ...room, ...chosen } : room, "set-");
  settings.fillHouseRules(room.rules.preset, chosen ? chosen.house_rules : room.rules.house_rules || {});
  settings.requireClock(room.rated);
  const table = rules.tables ? rules.tables[room.rules.preset] : null;
  const defaultTarget = table ? table.target : room.target;
  const saveButton = h("button", { type: "submit", id: "settings-save", class: "primary", text: t("save") });
  const form = h(
    "form",
    { class: "settings-form", id: "settings-form" },
    h("p", { class: "muted", text: t("settings_game", { preset: t(`preset_${room.rules.preset}`) }) }),
    settings.gameFields(),
    settings.visibility,
    settings.accountsOnly,
    // A guest host cannot keep the table for accounts (the box is disabled): the note says why.
    room.accounts_only ? null : accountNote("accounts_only_needs_account"),
    settings.botField(),
    h("p", { class: "muted", text: t("settings_note") }),
    // "Cancel" first: Escape presses the first button of a dialog (room.js, dialog.js).
    h("div", { class: "modal-buttons" }, h("button", { type: "button", id: "settings-cancel", text: t("cancel"), onclick: close }), saveButton),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const changes = settingsChanges(room, settings.read(), defaultTarget);
    if (!Object.keys(changes).length) return close();
    saveButton.disabled = true;
    try {
      if (await save(changes)) close();
    } finally {
      saveButton.disabled = false;
    }
  });
  const dialog = h(
    "div",
    { class: "modal-backdrop", id: "settings-dialog" },
    h("div", { class: "modal settings", role: "dialog", "aria-modal": "true", "aria-labelledby": "settings-title" }, h("h3", { id: "settings-title", text: t("room_settings") }), form),
  );
  dialog.read = settings.read;
  return dialog;
}
