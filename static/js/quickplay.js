// "Play now" in the lobby: ask the server for a table of a game (rated or casual), wait while it
// looks for players near your rating, and go to the table it seats you at. The server keeps the
// request only while this page keeps asking about it (once a second). "Play with" names a
// friend as partner (games of two sides of two): the friend is asked ("Play together", on any
// page), and once they answer the two are seated across the table from each other.
import { api, get, post } from "./api.js";
import { h, replace } from "./dom.js";
import { getPlayer } from "./identity.js";
import { t } from "./i18n.js";
import { every } from "./poll.js";
import { seatsOfRules, teamsPlay } from "./sides.js";
import { accountNote, go, showError, toast } from "./ui.js";

const WAITS = [15, 30, 60, 120];

/** The panel and a ``leave`` that stops asking (the request then lapses on the server).
 * ``refused(player, error)`` is the lobby's answer to a refused token (`bad_token`; false for
 * any other error, which the panel shows). */
export function quickPlayPanel(presets, refused) {
  let stopPolling = null; // while a request waits: asked every second
  const preset = h("select", { id: "qp-preset", name: "qp_preset" }, presets.map((p) => h("option", { value: p, text: t(`preset_${p}`) })));
  const rated = h("input", { type: "checkbox", id: "qp-rated", name: "qp_rated", disabled: !getPlayer()?.username });
  const wait = h("select", { id: "qp-wait", name: "qp_wait" }, WAITS.map((n) => h("option", { value: String(n), text: t("seconds", { n }) })));
  wait.value = "30";
  // A friend to sit across from, where the game has partners; the friends are read when the
  // form is shown (those online first, as the server lists them).
  const partner = h("select", { id: "qp-partner", name: "qp_partner" }, h("option", { value: "", text: t("qp_anyone") }));
  const partners = () => {
    partner.disabled = !teamsPlay(seatsOfRules({ preset: preset.value }));
    if (partner.disabled) partner.value = "";
  };
  preset.addEventListener("change", partners);
  const names = new Map(); // friend id → name, for the status line
  const body = h("div", { class: "qp-body" });
  const panel = h("section", { class: "panel quickplay", id: "quickplay" }, h("h2", { text: t("play_now") }), body);

  async function readFriends() {
    if (!getPlayer()) return;
    let friends;
    try {
      friends = (await get("/api/players/me/friends")).friends;
    } catch {
      return; // the form works without: "Anyone"
    }
    const chosen = partner.value;
    for (const f of friends) names.set(f.id, f.name);
    replace(partner, h("option", { value: "", text: t("qp_anyone") }), ...friends.map((f) => h("option", { value: f.id, text: f.name })));
    partner.value = friends.some((f) => f.id === chosen) ? chosen : "";
    partners();
  }

  function stop() {
    if (stopPolling) stopPolling();
    stopPolling = null;
  }

  function showForm() {
    stop();
    panel.dataset.state = "idle";
    const button = h("button", { type: "submit", class: "primary", id: "play-now", text: t("play_now") });
    const form = h(
      "form",
      { class: "qp-form", id: "qp-form" },
      h("p", { class: "muted", text: t("play_now_explain") }),
      h("div", { class: "field" }, h("label", { for: "qp-preset", text: t("preset") }), preset),
      h("div", { class: "field" }, h("label", { for: "qp-wait", text: t("wait_for_players") }), wait),
      h("div", { class: "field" }, h("label", { for: "qp-partner", text: t("qp_partner") }), partner),
      h("label", { class: "check" }, rated, " ", t("rated")),
      accountNote(),
      button,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const player = getPlayer();
      if (!player) {
        toast(t("name_needed"), { kind: "error", code: "name_needed" });
        document.getElementById("name-input")?.focus();
        return;
      }
      button.disabled = true;
      try {
        const asked = { preset: preset.value, rated: rated.checked, wait_seconds: Number(wait.value) };
        if (partner.value) asked.partner = partner.value;
        show(await post("/api/quickplay", asked));
      } catch (error) {
        button.disabled = false;
        if (!refused(player, error)) showError(error);
      }
    });
    replace(body, form);
    partners();
    readFriends();
  }

  function show(status) {
    if (status.state === "seated") {
      stop();
      panel.dataset.state = "seated";
      toast(t("seated_found"));
      api("DELETE", "/api/quickplay").catch(() => {}); // answered: coming back must not re-send us
      go(`#/r/${encodeURIComponent(status.room)}`);
      return;
    }
    panel.dataset.state = status.partner && !status.partner_ready ? "partner" : "waiting";
    const mate = status.partner ? status.partner.name || names.get(status.partner.id) || t("qp_your_friend") : null;
    // Waiting for the partner: no table is looked for yet, so no progress of the wait either.
    const line = mate && !status.partner_ready ? [t("qp_partner_waiting", { name: mate })] : [...(mate ? [t("qp_with_partner", { name: mate }), h("br")] : []), t("looking", { n: Math.floor(status.waited) })];
    replace(
      body,
      h("p", { class: "qp-status", id: "qp-status", role: "status" }, h("strong", { text: `${t(`preset_${status.preset}`)} · ${status.rated ? t("rated") : t("casual")}` }), h("br"), ...line),
      mate && !status.partner_ready ? null : h("progress", { max: String(status.wait_seconds), value: String(Math.min(status.waited, status.wait_seconds)) }),
      h("button", { type: "button", id: "play-cancel", text: t("cancel"), onclick: cancel }),
    );
    if (!stopPolling) stopPolling = every(poll, 1000);
  }

  async function poll() {
    const player = getPlayer();
    try {
      show(await get("/api/quickplay"));
    } catch (error) {
      if (error.code === "bad_token") {
        // Signed out meanwhile: say so once, not once a second; the request lapses unasked.
        showForm();
        if (player) refused(player, error);
        return;
      }
      if (error.code !== "network") showError(error);
      if (error.code === "not_queued") showForm();
    }
  }

  async function cancel() {
    stop();
    try {
      await api("DELETE", "/api/quickplay");
    } catch (error) {
      showError(error);
    }
    showForm();
  }

  showForm();
  // Back in the lobby while a request is pending (a reload, a look at the history, a friend's
  // ask answered from the Friends panel): resume it.
  const resume = () => {
    if (getPlayer()) get("/api/quickplay").then((status) => status.state === "waiting" && show(status), () => {});
  };
  resume();
  window.addEventListener("belote:quickplay", resume);
  return {
    panel,
    leave: () => {
      stop();
      window.removeEventListener("belote:quickplay", resume);
    },
  };
}
